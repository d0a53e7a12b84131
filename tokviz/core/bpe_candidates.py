"""Why this pair: the pairs BPE could have merged at a step, with their counts, and why the winner won.

The trainer emits only the pair it merged. The runners-up are recomputed here, exactly as the
trainer counts them: every unique word (char mode) or pre-split piece (byte mode) of the corpus is
encoded with the model of the previous step (``max_rank = step - 1``), and each adjacent pair of
its tokens counts the word's frequency. The winner is the pair with the highest count; ties follow
the trainer's rule (:mod:`tokviz.core.bpe.merge_state`): byte mode the smallest ``(left id, right
id)`` (rustbpe), char mode the largest ``(left piece, right piece)`` strings (subword-nmt).

On a huge corpus the caller can keep only the ``max_words`` most frequent words
(:func:`most_frequent`); the counts are then lower bounds and :attr:`Candidates.words_used` says so.

>>> from collections import Counter
>>> from tokviz.core.bpe.model import BPEModel
>>> model = BPEModel.growing("char")
>>> cands = top_pairs(model, "char", Counter({"low": 5, "lower": 2, "newest": 6}), step=1, limit=3)
>>> [(c.left_piece, c.right_piece, c.count) for c in cands.pairs]
[('w', 'e', 8), ('l', 'o', 7), ('s', 't</w>', 6)]
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from operator import itemgetter

from tokviz.core.bpe.counting import count_corpus
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.model import END_OF_WORD, BPEModel
from tokviz.core.bpe.modes import display_bytes


@dataclass(frozen=True)
class Candidate:
    """One pair that could be merged: its two tokens (ids, display pieces, bytes) and its count.

    Char mode names tokens by their pieces; an id is 0 when the model has not met the piece in a
    merge yet (the Train panel's replay learns base characters from the merges)."""

    left: int
    right: int
    left_piece: str
    right_piece: str
    left_bytes: bytes
    right_bytes: bytes
    count: int


@dataclass(frozen=True)
class Candidates:
    """The top pairs at one step, best first (``pairs[0]`` is the pair the trainer merges).

    ``tied`` is how many pairs share the top count (1: no tie); ``words_used`` of ``words_total``
    unique words were counted (fewer when the corpus was capped)."""

    step: int
    mode: str
    pairs: tuple[Candidate, ...]
    tied: int
    words_used: int
    words_total: int

    @property
    def capped(self) -> bool:
        return self.words_used < self.words_total


def count_words(config: TrainerConfig, lines: Iterable[str], cancelled: Callable[[], bool] = lambda: False) -> Counter:
    """The unique words (char mode) or pre-split pieces (byte mode) of ``lines`` with their counts,
    counted by the trainer's own counting (same pre-split, same ``keep`` filter).

    In this process and in short chunks: the app reads these in a thread of its own, where a helper
    process's whole-block chunks held the GIL (and so the GUI thread) for up to 200 ms each on a
    100 MB corpus, while the training process counts on both cores anyway."""
    counts: Counter = Counter()
    for event in count_corpus(config, lines, counts, cancelled, None, helper_process=False):
        if event is None:
            break
    return counts


def most_frequent(word_counts: Mapping[str, int], max_words: int) -> dict[str, int]:
    """The ``max_words`` most frequent words (all of them when there are no more)."""
    if len(word_counts) <= max_words:
        return dict(word_counts)
    # Counter.most_common's own ranking, without first copying a big corpus's counts (one C call
    # that held the GIL, so the GUI thread, for tens of milliseconds)
    return dict(heapq.nlargest(max_words, word_counts.items(), key=itemgetter(1)))


def top_pairs(
    model: BPEModel,
    mode: str,
    word_counts: Mapping[str, int],
    step: int,
    *,
    limit: int = 8,
    words_total: int | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> Candidates:
    """The ``limit`` best pairs to merge at ``step`` (1-based) given ``model``'s first ``step - 1``
    merges, ordered as the trainer picks them. ``words_total``: the corpus's unique words before a
    cap (default: ``len(word_counts)``)."""
    max_rank = max(0, step - 1)
    vocab = model.vocab
    pair_counts: Counter = Counter()
    if mode == "char":
        for i, (word, n) in enumerate(word_counts.items()):
            if i % 4096 == 0 and cancelled():
                break
            parts = vocab.word_pieces(word, max_rank)
            for a, b in zip(parts, parts[1:], strict=False):
                pair_counts[a, b] += n
        # subword-nmt: the highest count, then the largest (left, right) strings
        ranked = sorted(pair_counts.items(), key=lambda kv: (-kv[1], _Desc(kv[0])))
        id_of = vocab.id_of
        pairs = tuple(
            Candidate(id_of.get(a, 0), id_of.get(b, 0), a, b, _char_bytes(a), _char_bytes(b), c)
            for (a, b), c in ranked[:limit]
        )
    else:
        for i, (piece, n) in enumerate(word_counts.items()):
            if i % 4096 == 0 and cancelled():
                break
            ids = vocab.piece_ids(piece, max_rank)
            for a, b in zip(ids, ids[1:], strict=False):
                pair_counts[a, b] += n
        # rustbpe: the highest count, then the smallest (left id, right id)
        ranked = sorted(pair_counts.items(), key=lambda kv: (-kv[1], kv[0]))
        tb = vocab.token_bytes
        pairs = tuple(
            Candidate(a, b, display_bytes(tb[a]), display_bytes(tb[b]), tb[a], tb[b], c) for (a, b), c in ranked[:limit]
        )
    top = ranked[0][1] if ranked else 0
    tied = sum(1 for _, c in ranked if c == top) if ranked else 0
    total = len(word_counts) if words_total is None else words_total
    return Candidates(step, mode, pairs, tied, len(word_counts), total)


class _Desc:
    """Sort key wrapper that orders strings (tuples of strings) descending."""

    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key

    def __lt__(self, other: _Desc) -> bool:
        return self.key > other.key

    def __eq__(self, other) -> bool:
        return self.key == other.key


def _char_bytes(piece: str) -> bytes:
    return piece.removesuffix(END_OF_WORD).encode("utf-8")
