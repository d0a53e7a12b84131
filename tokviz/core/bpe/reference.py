"""BPE in a handful of small functions: the specification of tokviz's BPE, written to be read.

Everything here is slow on purpose (each merge recounts every word) and short enough to check by
hand. The fast routes do the same work incrementally, and each is property-tested against these
functions in ``tests/core/bpe/test_reference.py``:

- training: :class:`~tokviz.core.bpe.trainer.BPETrainer` (jamo too) and each merge route of
  :mod:`~tokviz.core.bpe.merge_update` (many/few occurrences, apart/touching) against :func:`train`;
- encoding, the model at step n, the Train panel's replay model: :func:`~tokviz.core.bpe.merge.apply_merges`
  and :class:`~tokviz.core.bpe.model.BPEModel` against :func:`encode` and :func:`encode_word`;
- BPE-dropout: the same, with ``p`` and a seeded ``rng`` (the reference draws exactly as the fast route);
- :func:`tokviz.core.merge_criteria._replay` and WordPiece's merge of a chosen pair against :func:`merge`;
- the Train panel's candidate pairs (:func:`tokviz.core.bpe_candidates.top_pairs`) against :func:`train`.

How the two modes name a token: in char mode a token *is* its string, with ``</w>`` glued to a word's
last character (subword-nmt); in byte mode a token is an id (0-255 the bytes, ``256 + r`` the token
made by merge ``r``; rustbpe), because two merges can make the same bytes (``ab + c`` and ``a + bc``).
Strings are the tokens, so a text that writes ``</w>`` itself can make a piece inside a word that is
the same string as a word's last piece: only the last piece of a word carries the mark.

>>> merges = train({"low": 5, "lower": 2, "newest": 6}, 3)
>>> [(left, right) for left, right, _, _ in merges]
[('w', 'e'), ('l', 'o'), ('we', 's')]
>>> encode_word("lowest", merges)
['lo', 'wes', 't</w>']
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from itertools import pairwise

END_OF_WORD = "</w>"


def count_pairs(words: Mapping[tuple, int]) -> Counter:
    """How often each adjacent pair occurs in ``words`` (symbols -> the word's count). Every
    position counts, so ``a a a`` holds the pair ``a a`` twice.

    >>> count_pairs({("l", "o", "w</w>"): 2, ("l", "o"): 1})
    Counter({('l', 'o'): 3, ('o', 'w</w>'): 2})
    """
    pairs: Counter = Counter()
    for symbols, n in words.items():
        for pair in pairwise(symbols):
            pairs[pair] += n
    return pairs


def merge(symbols: Sequence, pair: tuple, new, at: set[int] | None = None) -> list:
    """``symbols`` with every occurrence of ``pair`` replaced by ``new``, left to right without
    overlap (``a a a`` -> ``aa a``); with ``at``, only occurrences starting at those positions.

    >>> merge(["a", "a", "a", "b"], ("a", "a"), "aa")
    ['aa', 'a', 'b']
    >>> merge([1, 2, 1, 2], (1, 2), 256, at={2})
    [1, 2, 256]
    """
    out, i = [], 0
    while i < len(symbols):
        if tuple(symbols[i: i + 2]) == pair and (at is None or i in at):
            out.append(new)
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return out


def char_symbols(word: str) -> tuple[str, ...]:
    """A word's first symbols in char mode: its characters, ``</w>`` glued to the last one.

    >>> char_symbols("low")
    ('l', 'o', 'w</w>')
    """
    return (*word[:-1], word[-1] + END_OF_WORD)


def best_pair(pairs: Counter, mode: str) -> tuple:
    """The pair to merge: the highest count. Ties go to the largest ``(left, right)`` strings in char
    mode (subword-nmt) and to the smallest ``(left id, right id)`` in byte mode (rustbpe).

    >>> best_pair(Counter({("a", "b"): 2, ("c", "d"): 2, ("x", "y"): 1}), "char")
    ('c', 'd')
    >>> best_pair(Counter({(97, 98): 2, (99, 100): 2}), "byte")
    (97, 98)
    """
    if mode == "char":
        return max(pairs, key=lambda pair: (pairs[pair], pair))
    return min(pairs, key=lambda pair: (-pairs[pair], pair))


def train(word_counts: Mapping[str, int], n_merges: int, mode: str = "char", min_frequency: int = 1) -> list[tuple]:
    """Up to ``n_merges`` merges learned from ``word_counts`` (word or pre-split piece -> count), as
    ``(left, right, new, count)``: strings in char mode, ids in byte mode. Stops early when no pair
    is left or the best one occurs fewer than ``min_frequency`` times.

    >>> train({"low": 5, "lower": 2}, 2)
    [('l', 'o', 'lo', 7), ('lo', 'w</w>', 'low</w>', 5)]
    >>> train({"aaaa": 1}, 3, mode="byte")
    [(97, 97, 256, 3), (256, 256, 257, 1)]
    """
    if mode == "char":
        words = {char_symbols(w): n for w, n in word_counts.items()}
    else:
        words = {tuple(w.encode("utf-8")): n for w, n in word_counts.items()}
    merges: list[tuple] = []
    while len(merges) < n_merges:
        pairs = count_pairs(words)
        if not pairs:
            break
        pair = best_pair(pairs, mode)
        if pairs[pair] < min_frequency:
            break
        new = pair[0] + pair[1] if mode == "char" else 256 + len(merges)
        merges.append((*pair, new, pairs[pair]))
        words = {tuple(merge(w, pair, new)): n for w, n in words.items()}
    return merges


def encode(parts: Sequence[Hashable], rank: Callable[[Hashable, Hashable], int | None], *,
           every_occurrence: bool = False, p: float = 0.0, rng: random.Random | None = None) -> list:
    """Merge adjacent ``parts`` (strings or bytes) by ``rank(a, b)`` (None: not a merge): the lowest
    rank first, the leftmost on ties, until no adjacent pair has a rank. tiktoken merges that one
    pair and looks again; subword-nmt (``every_occurrence``) merges every occurrence of it.

    BPE-dropout (``p`` > 0): at every step each ranked position draws ``rng.random()``, left to
    right, and is dropped when the draw is below ``p``; only positions kept can merge.

    >>> ranks = {b"ab": 0, b"abc": 1}
    >>> encode([b"a", b"b", b"c", b"a", b"b"], lambda x, y: ranks.get(x + y))
    [b'abc', b'ab']
    >>> encode([b"a", b"b", b"c"], lambda x, y: ranks.get(x + y), p=1.0, rng=random.Random(0))
    [b'a', b'b', b'c']
    """
    parts = list(parts)
    while len(parts) > 1:
        kept = [(r, i) for i, (a, b) in enumerate(pairwise(parts))
                if (r := rank(a, b)) is not None and (p == 0 or rng.random() >= p)]
        if not kept:
            break
        best, i = min(kept)
        pair = (parts[i], parts[i + 1])
        at = {j for r, j in kept if r == best} if every_occurrence else {i}
        parts = merge(parts, pair, pair[0] + pair[1], at)
    return parts


def encode_word(word: str, merges: Sequence[tuple], mode: str = "char", *, p: float = 0.0,
                rng: random.Random | None = None) -> list:
    """The tokens of one word (char mode: strings) or pre-split piece (byte mode: token bytes) under
    ``merges`` from :func:`train`; ``merges[:n]`` is the model after n steps. A pair's rank is that of
    the first merge of those two strings (char mode) or of the first merge that made those bytes
    (byte mode, tiktoken), where a piece that is a token is one token unless dropout is on.

    >>> merges = train({"ab": 2, "abc": 1}, 2, mode="byte")
    >>> encode_word("abcab", merges, "byte"), encode_word("abc", merges[:1], "byte")
    ([b'abc', b'ab'], [b'ab', b'c'])
    """
    if mode == "char":
        pair_rank: dict = {}
        for r, (a, b, _, _) in enumerate(merges):
            pair_rank.setdefault((a, b), r)
        return encode(char_symbols(word), lambda a, b: pair_rank.get((a, b)), every_occurrence=True, p=p, rng=rng)
    made = {i: bytes([i]) for i in range(256)}
    bytes_rank: dict = {}
    for r, (a, b, t, _) in enumerate(merges):
        made[t] = made[a] + made[b]
        bytes_rank.setdefault(made[t], r)
    data = word.encode("utf-8")
    if data in bytes_rank and p == 0:
        return [data]
    return encode([data[i: i + 1] for i in range(len(data))], lambda a, b: bytes_rank.get(a + b), p=p, rng=rng)
