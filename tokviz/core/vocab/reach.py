"""Tokens no text produces on its own, and how much of a vocabulary a corpus uses.

**The rule.** A token is *reachable* when its own text, encoded alone with the encoder's full
pipeline (normalization, pre-split, merges; special-token strings as plain text), gives exactly that
one token. A token whose bytes are not valid UTF-8 (part of a character) is the whole of no text, so
the rule cannot apply: it is listed under ``partial_utf8``, not as unreachable. Of those, a rank
encoder's partial tokens that no merge builds from their own bytes *and* that no two tokens spell
(so no context can join them either) can never appear in any encoding at all: the
whole-piece shortcut needs a piece of text equal to the token, and text is valid UTF-8. They are
``partial_never``.

A SentencePiece model with a *dummy prefix* puts a space before every text, so "alone" means after
that prefix: a token that starts with a space is tested as its text without the space, and one that
does not is reachable when its text gives the lone prefix token and then it.

Unreachable alone is not unused: ``" indentation"`` may be unreachable on its own yet appear after a
word; only a corpus says what is used (:func:`corpus_use`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from tokviz.core.vocab.ranks import HasRanks, NoState, VocabState, check_cancel
from tokviz.core.vocab.scripts import script_of
from tokviz.core.vocab.table import fast_ids, vocab_table


@dataclass(frozen=True)
class Reachability:
    """``unreachable``: ids whose text alone encodes to something else (``encodes_as`` says what);
    ``partial_utf8`` and ``partial_never``: see the module docstring; ``checked``: ordinary tokens."""

    encoder: str
    checked: int
    unreachable: tuple[int, ...]
    encodes_as: dict[int, tuple[int, ...]]
    partial_utf8: tuple[int, ...]
    partial_never: tuple[int, ...] | None  # None: not a rank encoder, not worked out

    def as_json(self) -> dict:
        return {
            "encoder": self.encoder, "checked": self.checked,
            "rule": "a token is unreachable when its own text, encoded alone with the full pipeline, does not "
                    "give that one token; tokens that are not valid UTF-8 are listed in partial_utf8 instead",
            "unreachable": list(self.unreachable),
            "encodes_as": {str(k): list(v) for k, v in self.encodes_as.items()},
            "partial_utf8": list(self.partial_utf8),
            "partial_never": None if self.partial_never is None else list(self.partial_never),
        }


def reachability(encoder, state: VocabState | None = None) -> Reachability:
    """Apply the module's rule to every ordinary token of ``encoder``.

    >>> from tokviz.core.bpe.model import BPEModel
    >>> m = BPEModel(mode="byte", pattern="gpt4", merges=[(32, 32, 256), (256, 97, 257)])
    >>> reachability(m).unreachable   # "  a" pre-splits into " " and " a"
    (257,)
    """
    state = state or NoState()
    table = vocab_table(encoder, state)
    ids_of = fast_ids(encoder)
    info = getattr(encoder, "info", None)  # SentencePiece's model settings
    prefix = bool(getattr(info, "add_dummy_prefix", False)) and not getattr(info, "whitespace_as_suffix", False)
    unreachable: list[int] = []
    encodes_as: dict[int, tuple[int, ...]] = {}
    partial: list[int] = []
    items = sorted((i, b) for b, i in table.ids.items())
    for k, (tid, data) in enumerate(items):
        if k % 4096 == 0:
            check_cancel(state)
            state.progress(k, len(items))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            partial.append(tid)
            continue
        got = ids_of(text[1:] if prefix and text.startswith(" ") else text)
        if prefix and len(got) == 2 and not text.startswith(" ") and encoder.token_bytes(got[0]) == b" ":
            got = got[1:]
        if len(got) != 1 or got[0] != tid:
            unreachable.append(tid)
            encodes_as[tid] = tuple(int(i) for i in got)
    never = None
    if isinstance(encoder, HasRanks):
        from tokviz.core.vocab.encoder_merges import token_merges
        from tokviz.core.vocab.merges import context_splits

        merges = token_merges(encoder)
        # single bytes have no parents and are base tokens
        never = tuple(t for t in partial if len(merges.parents(t)) > 2 and not context_splits(merges, t))
    state.progress(len(items), len(items))
    return Reachability(encoder.name, len(items), tuple(unreachable), encodes_as, tuple(partial), never)


@dataclass(frozen=True)
class CorpusUse:
    """How often a corpus uses each token: ``counts[id]`` over ``texts`` texts and ``tokens`` tokens."""

    encoder: str
    texts: int
    tokens: int
    counts: np.ndarray
    ordinary: tuple[int, ...]  # the ids that are ordinary tokens (what "never used" is counted over)

    def never_used(self) -> list[int]:
        return [i for i in self.ordinary if self.counts[i] == 0]

    def used_once(self) -> list[int]:
        return [i for i in self.ordinary if self.counts[i] == 1]

    def share(self, ids: Iterable[int]) -> tuple[int, int]:
        """(used, of): how many of ``ids`` the corpus uses at least once."""
        ids = list(ids)
        return sum(1 for i in ids if self.counts[i] > 0), len(ids)

    def script_share(self, encoder, script: str) -> tuple[int, int]:
        """(used, of) of the vocabulary's tokens of ``script`` (see :mod:`.scripts`), e.g. how many of
        o200k's Hangul tokens a Korean corpus uses."""
        table = vocab_table(encoder)
        return self.share(i for b, i in table.ids.items() if script_of(b) == script)


def corpus_use(encoder, texts: Iterable[str], state: VocabState | None = None) -> CorpusUse:
    """Count every token id ``encoder`` gives over ``texts`` (each encoded on its own).

    >>> from tokviz.core.bpe.model import BPEModel
    >>> use = corpus_use(BPEModel(mode="byte", merges=[(104, 105, 256)]), ["hi hi", "h"])
    >>> int(use.counts[256]), use.tokens, 105 in use.never_used()
    (2, 4, True)
    """
    state = state or NoState()
    table = vocab_table(encoder, state)
    counts = np.zeros(encoder.vocab_size, dtype=np.int64)
    n_texts = n_tokens = 0
    for text in texts:
        if n_texts % 256 == 0:
            check_cancel(state)
            state.progress(n_texts, 0)
        ids = np.asarray(encoder.encode(text).ids, dtype=np.int64)
        ids = ids[(ids >= 0) & (ids < len(counts))]
        counts += np.bincount(ids, minlength=len(counts))
        n_texts += 1
        n_tokens += len(ids)
    return CorpusUse(encoder.name, n_texts, n_tokens, counts, tuple(sorted(table.ids.values())))
