"""The BPE trainer's priority structure: pair keys, heap entries and picking the next merge.

A pair ``(left id, right id)`` is one int, ``left << 24 | right`` (up to 16.7M token ids). The heap
is a plain list of ints, ``(MAXC - count) << 48 | key``: the smallest entry is the most frequent
pair, and among equal counts the one with the smallest key - rustbpe's order (``MergeJob::cmp``
orders equal counts by ascending pair). Ints compare faster than tuples and take a third of the
memory of ``(count, pair)`` entries.

*Lazy refresh*: the counts of queued pairs only ever go down (a pair that gains occurrences is a new
pair, pushed when it is born), so a popped entry whose stored count is stale is pushed back with its
current count, and the first entry whose stored count is current is the true maximum. Nothing is ever
removed from the heap when a count drops: that costs nothing per merge, whatever the heap's size.
"""

from __future__ import annotations

import bisect
import heapq
from collections import deque
from functools import partial
from itertools import repeat
from operator import lshift, or_, sub

SHIFT = 24  # pair key = left << 24 | right
MASK = (1 << SHIFT) - 1
KEY_BITS = 2 * SHIFT
KEY_MASK = (1 << KEY_BITS) - 1
MAXC = 1 << 40  # counts up to 2**40


def pair_of(key: int) -> tuple[int, int]:
    """``(left id, right id)`` of a pair key.

    >>> pair_of(5 << 24 | 7)
    (5, 7)
    """
    return key >> SHIFT, key & MASK


def heap_entry(count: int, key: int) -> int:
    """The heap entry of pair ``key`` with ``count`` (smaller = better)."""
    return ((MAXC - count) << KEY_BITS) | key


def push_all(heap: list[int], counts: list[int], keys: list[int]) -> None:
    """Push the heap entries of pairs ``keys`` with ``counts`` (the loop runs in C)."""
    entries = map(or_, map(lshift, map(sub, repeat(MAXC), counts), repeat(KEY_BITS)), keys)
    deque(map(partial(heapq.heappush, heap), entries), maxlen=0)


def pop_best(heap: list[int], pc: dict) -> tuple[int, int]:
    """Byte mode: pop the pair with the highest count in ``pc``, smallest key on ties; ``(-1, 0)``
    when no pair is left. Stale entries are refreshed (see the module docstring)."""
    heappop, heappush = heapq.heappop, heapq.heappush
    while heap:
        e = heappop(heap)
        k = e & KEY_MASK
        cur = pc.get(k, 0)
        if cur <= 0:
            continue
        if cur != MAXC - (e >> KEY_BITS):
            heappush(heap, ((MAXC - cur) << KEY_BITS) | k)
            continue
        return k, cur
    return -1, 0


class TieBucket:
    """Char mode: subword-nmt's tie rule, the largest ``(left piece, right piece)`` among the pairs
    with the top count.

    The heap orders equal counts by id, not by string, so every valid pair with the current top
    count is moved into a bucket kept sorted by its strings; the best is the bucket's last entry.
    The bucket persists across merges (late in training thousands of pairs share a small count),
    entries whose count dropped go back to the heap, and a pair with a higher count (a new pair)
    starts a new bucket.
    """

    def __init__(self):
        self.count = 0
        self.items: list[tuple[tuple[str, str], int]] = []

    def select(self, heap: list[int], pc: dict, names: list[str]) -> tuple[int, int]:
        """Pop the best pair by subword-nmt's rule: ``(key, count)``, or ``(-1, 0)`` when none is left."""
        heappop, heappush = heapq.heappop, heapq.heappush
        while True:
            # 1. move every heap entry that may reach the bucket's count (or beat it) out of the heap
            while heap:
                e = heap[0]
                stored = MAXC - (e >> KEY_BITS)
                if self.items and stored < self.count:
                    break
                heappop(heap)
                k = e & KEY_MASK
                cur = pc.get(k, 0)
                if cur <= 0:
                    continue
                if cur != stored:
                    heappush(heap, ((MAXC - cur) << KEY_BITS) | k)
                    continue
                item = ((names[k >> SHIFT], names[k & MASK]), k)
                if not self.items or cur > self.count:
                    for _, old in self.items:  # a higher count: the old bucket waits in the heap
                        c = pc.get(old, 0)
                        if c > 0:
                            heappush(heap, ((MAXC - c) << KEY_BITS) | old)
                    self.items = [item]
                    self.count = cur
                elif cur == self.count:
                    bisect.insort(self.items, item)
            # 2. the best pair still at the bucket's count
            while self.items:
                _, k = self.items.pop()
                cur = pc.get(k, 0)
                if cur == self.count:
                    return k, cur
                if cur > 0:
                    heappush(heap, ((MAXC - cur) << KEY_BITS) | k)
            if not heap:
                return -1, 0
