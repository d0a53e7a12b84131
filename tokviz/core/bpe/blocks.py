"""Whole-array numpy steps of indexing done a block at a time, yielding between blocks.

Indexing a corpus of a million unique words lays out and groups arrays of ~10 million slots; one
numpy call over all of them (a gather, a sort, ``np.repeat``, ``tolist``) takes up to a second on a
loaded machine, with no progress and no cancel check meanwhile (issue 23). Each generator here
gives exactly the array the one call gives, while no single call handles more than
:data:`INDEX_BLOCK` items; the caller reports progress and polls its cancel flag at each yield.

>>> drain(map_steps(5, lambda lo, hi: np.arange(lo, hi) * 2, block=2)).tolist()
[0, 2, 4, 6, 8]
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from itertools import islice

import numpy as np

INDEX_BLOCK = 1 << 20  # items per numpy call while indexing (~10-50 ms on 2 busy cores); tests lower it
# Python objects made per step (dict entries, list items): each costs ~30x a numpy element
OBJECT_SHARE = 8


def drain(steps: Generator) -> object:
    """Run ``steps`` to the end and return its value (for callers that need no yields)."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value


def block_ranges(n: int, block: int | None = None) -> Iterator[tuple[int, int]]:
    """``(lo, hi)`` of consecutive blocks covering ``range(n)``; looked up at call time, so a test
    that lowers :data:`INDEX_BLOCK` lowers every block."""
    block = max(1, INDEX_BLOCK if block is None else block)
    for lo in range(0, n, block):
        yield lo, min(n, lo + block)


def object_block() -> int:
    """Items per step of work that makes Python objects."""
    return max(1, INDEX_BLOCK // OBJECT_SHARE)


def map_steps(
    n: int, part: Callable[[int, int], np.ndarray], block: int | None = None
) -> Generator[None, None, np.ndarray]:
    """The array whose items ``[lo, hi)`` are ``part(lo, hi)``, a block at a time."""
    out = None
    for lo, hi in block_ranges(n, block):
        piece = part(lo, hi)
        if out is None:
            out = np.empty(n, dtype=piece.dtype)
        out[lo:hi] = piece
        yield
    return part(0, 0) if out is None else out


def take_steps(a: np.ndarray, idx: np.ndarray) -> Generator[None, None, np.ndarray]:
    """``a[idx]``, a block of indices at a time (a gather of millions of random indices is slow)."""
    return (yield from map_steps(len(idx), lambda lo, hi: a[idx[lo:hi]]))


def nonzero_steps(flags: np.ndarray) -> Generator[None, None, np.ndarray]:
    """``np.flatnonzero(flags)``, a block at a time."""
    parts = []
    for lo, hi in block_ranges(len(flags)):
        parts.append(np.flatnonzero(flags[lo:hi]) + lo)
        yield
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.intp)


def bincount_steps(
    values: np.ndarray, size: int, weights: np.ndarray | None = None
) -> Generator[None, None, np.ndarray]:
    """``np.bincount(values, weights, minlength=size)`` for values below ``size``, a block at a time.
    Weighted sums are the same floats: the weights are whole numbers, summed exactly below 2**53."""
    out = np.zeros(size, dtype=np.int64 if weights is None else np.float64)
    for lo, hi in block_ranges(len(values)):
        out += np.bincount(values[lo:hi], None if weights is None else weights[lo:hi], minlength=size)
        yield
    return out


def repeat_steps(values: np.ndarray, lens: np.ndarray, ends: np.ndarray, out: np.ndarray) -> Generator[None]:
    """``out[:ends[-1]] = np.repeat(values, lens)`` (``ends`` is ``np.cumsum(lens)``), a group of
    words covering about a block of items at a time."""
    total = int(ends[-1]) if len(ends) else 0
    block = max(1, INDEX_BLOCK)
    # after each block's last item: the first word ending there or later closes the group
    cuts = np.searchsorted(ends, np.append(np.arange(block, total, block), total), side="left") + 1
    a = 0
    for b in np.minimum(cuts, len(ends)).tolist():
        if b > a:
            out[int(ends[a] - lens[a]) : int(ends[b - 1])] = np.repeat(values[a:b], lens[a:b])
            a = b
            yield


def tolist_steps(a: np.ndarray) -> Generator[None, None, list]:
    """``a.tolist()``, a block at a time: a list of ten million ints takes a good part of a second."""
    out: list = []
    for lo, hi in block_ranges(len(a), 2 * object_block()):  # an int object per item: page faults add up
        out.extend(a[lo:hi].tolist())
        yield
    return out


def stable_order_steps(small: np.ndarray, n_values: int) -> Generator[None, None, np.ndarray]:
    """``np.argsort(small, kind="stable")`` for integers in ``[0, n_values)``, a block at a time:
    each block is sorted on its own (a radix sort for 16-bit ids) and placed after the same values
    of the blocks before it.

    >>> drain(stable_order_steps(np.array([2, 0, 2, 1, 0], dtype=np.uint16), 3)).tolist()
    [1, 4, 3, 0, 2]
    """
    n = len(small)
    counts = []
    for lo, hi in block_ranges(n):
        counts.append(np.bincount(small[lo:hi], minlength=n_values))
        yield
    if not counts:
        return np.zeros(0, dtype=np.intp)
    total = np.sum(counts, axis=0)
    cursor = np.cumsum(total) - total  # where each value's next item goes
    out = np.empty(n, dtype=np.intp)
    for (lo, hi), here in zip(block_ranges(n), counts, strict=True):
        order = np.argsort(small[lo:hi], kind="stable")
        # the block's sorted items are runs of equal values: each run goes to its value's cursor
        dest = np.repeat(cursor - (np.cumsum(here) - here), here)
        dest += np.arange(hi - lo)
        out[dest] = order + lo
        cursor += here
        yield
    return out


# Per-word passes: after counting a corpus of millions of distinct words, the few hundred thousand
# words kept lie scattered over a big heap, and one pass over them (their lengths, joining them,
# freeing them) took 0.15-0.4 s on its own, mostly cache misses.


def ints_steps(values: Iterable[int], n: int) -> Generator[None, None, np.ndarray]:
    """``np.fromiter(values, np.int64, count=n)``, a block of Python objects at a time."""
    out = np.empty(n, dtype=np.int64)
    it = iter(values)
    step = object_block()
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        out[lo:hi] = np.fromiter(islice(it, hi - lo), dtype=np.int64, count=hi - lo)
        yield
    return out


def words_steps(words: Iterable[str], n: int) -> Generator[None, None, tuple[str, np.ndarray]]:
    """``("".join(words), their lengths)`` of ``n`` words, a block of words at a time."""
    lens = np.empty(n, dtype=np.int64)
    parts = []
    it = iter(words)
    step = object_block()
    for lo in range(0, n, step):
        part = list(islice(it, step))
        lens[lo : lo + len(part)] = np.fromiter(map(len, part), dtype=np.int64, count=len(part))
        parts.append("".join(part))
        yield
    return "".join(parts), lens


def release_steps(table: dict) -> Generator[None]:
    """Empty ``table`` (the word counts, once indexed) a block of entries at a time."""
    step = max(1, object_block() // 4)  # each entry freed is a cache miss or two: ~1.5 us
    pop = table.popitem
    while table:
        for _ in range(min(step, len(table))):
            pop()
        yield
