"""Stable argsorts of big integer arrays done a block at a time, yielding between blocks.

A Unigram run over a few hundred thousand unique words sorts arrays of millions of hashes and arc
keys; one ``np.argsort`` of them takes a second or more on a loaded machine, with no progress and
no cancel check meanwhile (issue 23). These generators give exactly the permutation
``np.argsort(key, kind="stable")`` gives (a stable argsort has only one answer), while no single
sort call handles more than ``block`` items:

- :func:`counting_argsort_steps` for small non-negative keys (a counting sort block by block),
- :func:`argsort_steps` for any integer keys: keys are first put into consecutive value ranges
  (a counting sort of the range numbers), then each range is sorted on its own, split again
  when it is still bigger than a block.

An array no bigger than a block is sorted in one call, as before: small corpora pay nothing.

>>> from tokviz.core.unigram.flat_lattice import drain
>>> key = np.array([5, 1, 5, 0, 1, 9, 5, 2])
>>> drain(argsort_steps(key, block=2)).tolist() == np.argsort(key, kind="stable").tolist()
True
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

SORT_BLOCK = 1 << 18  # items per sort or gather call (~25 ms for 64-bit keys); tests lower it


def counting_argsort_steps(small: np.ndarray, n_values: int, block: int) -> Generator[None, None, np.ndarray]:
    """Stable argsort of ``small`` (integers in ``[0, n_values)``), a block at a time.

    Each block is sorted on its own; a value's items go after the same value's items of the
    earlier blocks, so the result is the global stable order.

    >>> from tokviz.core.unigram.flat_lattice import drain
    >>> drain(counting_argsort_steps(np.array([2, 0, 2, 1, 0]), 3, block=2)).tolist()
    [1, 4, 3, 0, 2]
    """
    n = len(small)
    starts = range(0, n, block)
    counts = np.zeros((len(starts), n_values), dtype=np.int64)
    for c, lo in enumerate(starts):
        counts[c] = np.bincount(small[lo : lo + block], minlength=n_values)
        yield
    value_start = np.cumsum(counts.sum(axis=0)) - counts.sum(axis=0)
    before = np.cumsum(counts, axis=0) - counts  # items of each value in the earlier blocks
    out = np.empty(n, dtype=np.int64)
    for c, lo in enumerate(starts):
        part = small[lo : lo + block]
        order = np.argsort(part, kind="stable")
        sv = part[order]
        in_block = np.cumsum(counts[c]) - counts[c]  # where each value's run starts in the sorted block
        out[value_start[sv] + before[c, sv] + np.arange(len(order)) - in_block[sv]] = lo + order
        yield
    return out


def argsort_steps(key: np.ndarray, block: int | None = None) -> Generator[None, None, np.ndarray]:
    """``np.argsort(key, kind="stable")`` of an integer array, no sort call over more than ``block``
    items (default :data:`SORT_BLOCK`), yielding after each."""
    block = SORT_BLOCK if block is None else block
    if len(key) <= block:
        out = np.argsort(key, kind="stable")
        yield
        return out
    return (yield from _sorted_range(key, None, block))


def _sorted_range(key: np.ndarray, idx: np.ndarray | None, block: int) -> Generator[None, None, np.ndarray]:
    """``idx`` (ascending; None: all of ``key``) ordered stably by ``key[idx]``."""
    k = key if idx is None else key[idx]
    n = len(k)
    if n <= block:
        order = np.argsort(k, kind="stable")
        yield
        return order if idx is None else idx[order]
    lo, hi = k.min(), k.max()
    if lo == hi:  # all equal: already in order (a common pair of characters can fill a range alone)
        yield
        return np.arange(n) if idx is None else idx
    # about two ranges per block; no more ranges than a block holds, so the counting sort's table of
    # (block, range) counts stays the size of the key (a range bigger than a block is split again)
    n_ranges = max(2, min(1 << 16, block, 2 * (-(-n // block))))
    # consecutive value ranges; the float scaling is monotonic in the key, which is all that matters
    scale = n_ranges / (int(hi) - int(lo) + 1)  # the span in exact integers: floats of big keys round together
    rng = np.empty(n, dtype=np.uint16)  # a 16-bit key: numpy's stable sort of it is a radix sort
    for a in range(0, n, block):
        part = ((k[a : a + block] - lo).astype(np.float64) * scale).astype(np.int64)
        rng[a : a + block] = np.minimum(part, n_ranges - 1)
        yield
    del k
    by_range = yield from counting_argsort_steps(rng, n_ranges, block)
    bounds = np.concatenate(([0], np.cumsum(np.bincount(rng, minlength=n_ranges))))
    del rng
    if idx is not None:
        by_range = idx[by_range]
    out = np.empty(n, dtype=np.int64)
    for r in range(n_ranges):
        a, b = int(bounds[r]), int(bounds[r + 1])
        if a < b:
            out[a:b] = yield from _sorted_range(key, by_range[a:b], block)
    return out


def take_steps(a: np.ndarray, idx: np.ndarray, block: int | None = None) -> Generator[None, None, np.ndarray]:
    """``a[idx]``, ``block`` indices at a time (default :data:`SORT_BLOCK`), yielding after each: a
    gather of millions of random indices takes a good part of a second on a busy machine."""
    block = SORT_BLOCK if block is None else block
    out = np.empty(len(idx), dtype=a.dtype)
    for lo in range(0, len(idx), block):
        out[lo : lo + block] = a[idx[lo : lo + block]]
        yield
    return out


def compress_steps(a: np.ndarray, mask: np.ndarray, block: int | None = None) -> Generator[None, None, np.ndarray]:
    """``a[mask]``, ``block`` items at a time (default :data:`SORT_BLOCK`), yielding after each: the
    arcs of a few hundred thousand words are tens of millions, and one gather of them held a Unigram
    run 0.1-0.4 s of CPU without a cancel poll.

    >>> from tokviz.core.unigram.flat_lattice import drain
    >>> drain(compress_steps(np.arange(5), np.array([1, 0, 1, 1, 0], dtype=bool), block=2)).tolist()
    [0, 2, 3]
    """
    block = SORT_BLOCK if block is None else block
    out = np.empty(int(np.count_nonzero(mask)), dtype=a.dtype)
    at = 0
    for lo in range(0, len(a), block):
        part = a[lo : lo + block][mask[lo : lo + block]]
        out[at : at + len(part)] = part
        at += len(part)
        yield
    return out


def concat_steps(parts: tuple[np.ndarray, ...], block: int | None = None) -> Generator[None, None, np.ndarray]:
    """``np.concatenate(parts)``, copied ``block`` items at a time, yielding after each (see
    :func:`compress_steps`)."""
    block = SORT_BLOCK if block is None else block
    out = np.empty(sum(len(p) for p in parts), dtype=np.result_type(*parts))
    at = 0
    for p in parts:
        for lo in range(0, len(p), block):
            out[at + lo : at + min(len(p), lo + block)] = p[lo : lo + block]
            yield
        at += len(p)
    return out
