"""The one BPE merge loop: encoding, BPE-dropout, the model at any step and the Train panel's replay
all apply learned merges to a piece through :func:`apply_merges`.

A piece starts as its base parts (bytes, or characters with ``</w>`` on the last one). Repeatedly,
the adjacent pair with the lowest merge rank is merged, until no adjacent pair has a rank. Two
rules for what "merged" means exist in the wild, and tokviz reproduces both exactly:

- ``every_occurrence=False`` (tiktoken, byte mode): merge the leftmost pair with that rank only,
  then look again;
- ``every_occurrence=True`` (subword-nmt's ``apply_bpe``, char mode): merge every occurrence of
  that pair, left to right, without overlap (``a a a`` -> ``aa a``).

``max_rank`` keeps only merges of rank below it, which is exactly the model after ``max_rank``
training steps: a pair made by merge ``r`` can only have a rank above ``r``, so cutting the rank
table is the same as stopping training there.

>>> ranks = {("l", "o"): 0, ("lo", "w</w>"): 1}
>>> apply_merges(["l", "o", "w</w>"], lambda a, b: ranks.get((a, b)), str.__add__, every_occurrence=True)
['low</w>']
>>> apply_merges(["l", "o", "w</w>"], lambda a, b: ranks.get((a, b)), str.__add__, max_rank=1, every_occurrence=True)
['lo', 'w</w>']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

_NO_RANK = float("inf")


def apply_merges(
    parts: list[P],
    rank_of: Callable[[P, P], int | None],
    join: Callable[[P, P], P],
    *,
    max_rank: int | None = None,
    every_occurrence: bool = False,
    dropout: float = 0.0,
    rng: random.Random | None = None,
) -> list[P]:
    """Merge adjacent ``parts`` by rank (lowest first, leftmost on ties) until none is left.

    ``rank_of(a, b)`` is the merge rank of the pair (None: not a merge), ``join(a, b)`` the merged
    part. Only ranks below ``max_rank`` count (None: all). With ``dropout`` > 0 every applicable
    pair is skipped with that probability at every step (BPE-dropout, Provilkov et al. 2020; the
    draws come from ``rng``), so ``dropout=1`` leaves the parts as they are.

    >>> ranks = {b"ab": 0, b"abc": 1}
    >>> apply_merges([b"a", b"b", b"c", b"a", b"b"], lambda a, b: ranks.get(a + b), bytes.__add__)
    [b'abc', b'ab']
    """
    if len(parts) < 2:
        return list(parts)
    limit = _NO_RANK if max_rank is None else max_rank

    def rank(a: P, b: P) -> float:
        r = rank_of(a, b)
        return _NO_RANK if r is None or r >= limit else r

    if dropout > 0.0:
        return _with_dropout(list(parts), rank, join, every_occurrence, dropout, rng or random.Random())
    parts = list(parts)
    # ranks[i] is the rank of (parts[i], parts[i + 1]); only the two neighbours of a merge change
    ranks = [rank(parts[i], parts[i + 1]) for i in range(len(parts) - 1)]
    while ranks:
        best = min(ranks)
        if best == _NO_RANK:
            break
        i = ranks.index(best)
        a, b = parts[i], parts[i + 1]
        while True:
            parts[i: i + 2] = [join(a, b)]
            del ranks[i]
            if i > 0:
                ranks[i - 1] = rank(parts[i - 1], parts[i])
            if i < len(ranks):
                ranks[i] = rank(parts[i], parts[i + 1])
            if not every_occurrence:
                break
            i = _next_occurrence(parts, a, b, i + 1)
            if i < 0:
                break
    return parts


def _next_occurrence(parts: list, a, b, start: int) -> int:
    """Index of the next ``a b`` at or after ``start`` (-1 if none)."""
    for j in range(start, len(parts) - 1):
        if parts[j] == a and parts[j + 1] == b:
            return j
    return -1


def _with_dropout(parts: list, rank, join, every_occurrence: bool, p: float, rng: random.Random) -> list:
    """:func:`apply_merges` with BPE-dropout: each step draws for every applicable position anew
    (subword-nmt's ``apply_bpe --dropout`` does the same); the positions kept with the lowest rank
    are merged (the leftmost only, or every kept occurrence of that pair)."""
    while len(parts) > 1:
        kept = []
        for i in range(len(parts) - 1):
            r = rank(parts[i], parts[i + 1])
            if r != _NO_RANK and rng.random() >= p:
                kept.append((r, i))
        if not kept:
            break
        best, i = min(kept)
        a, b = parts[i], parts[i + 1]
        if not every_occurrence:
            parts[i: i + 2] = [join(a, b)]
            continue
        positions = [j for r, j in kept if r == best and parts[j] == a and parts[j + 1] == b]
        merged, taken = [], -1
        for j in positions:
            if j > taken:  # a a a: the second pair overlaps the first and is not merged
                merged.append(j)
                taken = j + 1
        for j in reversed(merged):
            parts[j: j + 2] = [join(a, b)]
    return parts
