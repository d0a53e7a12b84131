"""WordPiece's merge state: every symbol of every unique word, pair counts, where each pair occurs,
and the best pair by likelihood score.

Each symbol occurrence has a slot in flat lists (``sym``, ``nxt``, ``prv``: a linked list per word)
and carries its word's frequency. A pair's occurrences are the slots of its left symbol; a merge
visits only those slots, relinks the word there and updates the counts of the pairs around each
one, so its cost follows the pair's occurrences, not the length of the words holding it (a
multi-megabyte word without spaces once cost a full rewrite of that word per merge). Occurrence
lists are append-only: a slot whose pair has since changed is recognised and skipped when the pair
is merged (its symbols no longer match), so nothing is ever removed from them.

The best pair comes from a max-heap of ``(score, count, left, right)`` with lazy refresh: entries
whose score went down (pairs of the new symbol, pairs that lost occurrences) are refreshed when they
come to the top. A merge of ``a + b`` also lowers the counts of ``a`` and ``b``, which *raises* the
score of every other pair holding them. Pushing all of those again (~50 per merge, nearly all of
them far from the top) was most of a merge's cost, so instead one *bound* per symbol goes in: an
entry whose score is the highest of the symbol's pairs. Only when a bound reaches the top are the
symbol's pairs pushed, and then only those that can compete with the heap's top; the rest get a
new, lower bound. A bound sorts before a pair of the same score, so no pair is chosen while a pair
that may tie or beat it is still hidden behind a bound. The heap starts that way too: one bound per
symbol, not one entry per pair.

Building the state is numpy over the concatenated words (a Python loop over every symbol of every
word took longer than the whole BPE trainer on the same corpus).

>>> st = WordPieceMergeState(["hug", "pug", "hugs"], [10, 5, 5])
>>> st.names[:4], st.best()
(['##g', '##s', '##u', 'h'], (2, 0, 20))
>>> st.names[st.merge(2, 0)]
'##ug'
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Collection, Iterable, Iterator

import numpy as np

from tokviz.core.bpe import blocks
from tokviz.core.unigram.sorting import argsort_steps

CONTINUATION = "##"
_SHIFT = 32  # a pair is one int: left << 32 | right (ids stay far below 2**32)
_RIGHT = (1 << _SHIFT) - 1
MERGE_SLICE = 1 << 16  # occurrences of a merge between two polls of the cancel flag (~30 ms)
BUILD_STAGES = 9  # steps of WordPieceMergeState.build_stages
_EXACT_FLOAT = 1 << 53  # below this a count is a float64 exactly, so numpy's score equals Python's


def pair_key(a: int, b: int) -> int:
    """The int standing for the pair ``(a, b)``; ``pair_of`` undoes it.

    >>> pair_of(pair_key(3, 7))
    (3, 7)
    """
    return a << _SHIFT | b


def pair_of(key: int) -> tuple[int, int]:
    return key >> _SHIFT, key & _RIGHT


def _group_starts(values: np.ndarray) -> np.ndarray:
    """Where each run of equal values starts in the sorted array ``values``."""
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))


class WordPieceMergeState:
    """Unique ``words`` with their frequencies, as WordPiece symbols, ready to merge.

    A word starts as its first character followed by ``##`` + each next character; symbol ids are
    the positions of those strings in :attr:`names`, which starts as the sorted alphabet and grows
    by one name per new piece.
    """

    def __init__(self, words: Collection[str], freq: Collection[int]):
        for _ in self.build_stages(words, freq):
            pass

    @classmethod
    def staged(cls, words: Collection[str], freq: Collection[int]) -> tuple[WordPieceMergeState, Iterator[int]]:
        """A state not built yet and the generator that builds it: it yields the number of steps done
        (0..BUILD_STAGES, again between the blocks of a step), so the trainer reports progress and can
        stop between any two blocks.
        :attr:`names` and :attr:`alphabet_size` are known after the first."""
        st = cls.__new__(cls)
        return st, st.build_stages(words, freq)

    def build_stages(self, words: Collection[str], freq: Collection[int]) -> Iterator[int]:
        """Build the state in steps (see :meth:`staged`): the number of steps done after each one,
        and again between the blocks of a step (no numpy call over more than
        :data:`~tokviz.core.bpe.blocks.INDEX_BLOCK` slots, no list over more than a block of them)."""
        done = 0
        for step in (self._alphabet(words), self._slots_and_pairs(freq), self._group_pairs(),
                     self._pairs_by_symbol(), self._as_lists(), self._first_heap()):
            for mark in step:
                done = done if mark is None else mark
                yield done

    def _alphabet(self, words: Collection[str]) -> Iterator[int | None]:
        """Step 1: every slot's symbol id; the sorted alphabet (:attr:`names`)."""
        n = len(words)
        joined, lens = yield from blocks.words_steps(words, n)
        self._lens = lens
        codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        del joined
        starts = np.zeros(n, dtype=np.int64)
        np.cumsum(lens[:-1], out=starts[1:])
        self._starts = starts
        is_first = np.zeros(len(codes), dtype=bool)
        is_first[starts] = True
        yield
        # the distinct code points through tables over all of Unicode: linear, where np.unique sorts
        # (seconds for the ten million characters of a million words)
        first_table = np.zeros(0x110000, dtype=np.int64)
        cont_table = np.zeros(0x110000, dtype=np.int64)
        for lo, hi in blocks.block_ranges(len(codes)):
            part, first = codes[lo:hi], is_first[lo:hi]
            first_table[part[first]] = 1
            cont_table[part[~first]] = 1
            yield
        first_codes = np.flatnonzero(first_table)
        cont_codes = np.flatnonzero(cont_table)
        unsorted = [chr(c) for c in first_codes.tolist()] + [CONTINUATION + chr(c) for c in cont_codes.tolist()]
        order = sorted(range(len(unsorted)), key=unsorted.__getitem__)
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        first_table[first_codes] = rank[:len(first_codes)]
        cont_table[cont_codes] = rank[len(first_codes):]
        yield

        def symbols(lo, hi):
            part = codes[lo:hi]
            return np.where(is_first[lo:hi], first_table[part], cont_table[part])

        self._sym = yield from blocks.map_steps(len(codes), symbols)
        self.names: list[str] = [unsorted[i] for i in order]
        self.alphabet_size = len(self.names)
        self.id_of: dict[str, int] = {s: i for i, s in enumerate(self.names)}
        yield 1

    def _slots_and_pairs(self, freq: Collection[int]) -> Iterator[int | None]:
        """Step 2: the links and weights of the slots, the symbols' counts, each pair's sort order."""
        sym, lens, starts = self._sym, self._lens, self._starts
        size = len(sym)
        weight = np.empty(size, dtype=np.int64)
        ends = starts + lens
        freq_array = yield from blocks.ints_steps(freq, len(lens))
        yield from blocks.repeat_steps(freq_array, lens, ends, weight)
        nxt = np.empty(size, dtype=np.int64)
        prv = np.empty(size, dtype=np.int64)
        for lo, hi in blocks.block_ranges(size):
            nxt[lo:hi] = np.arange(lo + 1, hi + 1)
            prv[lo:hi] = np.arange(lo - 1, hi - 1)
            yield
        nxt[ends - 1] = -1
        prv[starts] = -1
        # counts stay exact in float64 far beyond any corpus (2**53)
        sym_count = yield from blocks.bincount_steps(sym, len(self.names), weight)
        self.sym_count: list[int] = sym_count.astype(np.int64).tolist()
        # pairs: the slots of their left symbols, grouped by pair (ascending slots within a group)
        left = yield from blocks.nonzero_steps(nxt >= 0)
        keys = yield from blocks.map_steps(len(left), lambda lo, hi: sym[left[lo:hi]] << _SHIFT | sym[left[lo:hi] + 1])
        if len(self.names) <= 0xFFFF:
            # two stable passes over 16-bit ids (right, then left) give the stable order by key:
            # numpy sorts those by radix, several times faster than a stable sort of 64-bit keys
            right = yield from blocks.map_steps(len(left), lambda lo, hi: sym[left[lo:hi] + 1].astype(np.uint16))
            by_key = yield from blocks.stable_order_steps(right, len(self.names))
            del right
            by_left = yield from blocks.map_steps(
                len(left), lambda lo, hi: sym[left[by_key[lo:hi]]].astype(np.uint16))
            then = yield from blocks.stable_order_steps(by_left, len(self.names))
            by_key = yield from blocks.take_steps(by_key, then)
        else:
            by_key = yield from argsort_steps(keys, blocks.INDEX_BLOCK)
        self._nxt, self._prv, self._weight = nxt, prv, weight
        self._left, self._keys, self._by_key = left, keys, by_key
        del self._lens, self._starts
        yield 2

    def _group_pairs(self) -> Iterator[int | None]:
        """Step 3: each pair's count and its slots, grouped by pair."""
        sorted_keys = yield from blocks.take_steps(self._keys, self._by_key)
        self._first_slots = yield from blocks.take_steps(self._left, self._by_key)
        del self._keys, self._by_key, self._left
        cut = _group_starts(sorted_keys)
        ukeys = sorted_keys[cut]
        if len(cut):
            weights = yield from blocks.take_steps(self._weight, self._first_slots)
            counts = np.add.reduceat(weights, cut)
            del weights
        else:
            counts = np.zeros(0, dtype=np.int64)
        yield
        klist = ukeys.tolist()
        clist = counts.tolist()
        self.pair_count: dict[int, int] = {}
        self._group: dict[int, int] = {}
        step = blocks.object_block()
        for a in range(0, len(klist), step):
            self.pair_count.update(zip(klist[a:a + step], clist[a:a + step], strict=True))
            self._group.update(zip(klist[a:a + step], range(a, a + step), strict=False))
            yield
        self._bounds: list[int] = cut.tolist() + [len(sorted_keys)]
        self._more_slots: dict[int, list[int]] = {}  # slots where a pair formed after building
        self._bound_made: dict[int, int] = {}  # symbol -> serial number of its live bound in the heap
        self._bounds_made = 0  # serial numbers, so a replaced bound is known when it comes up
        self._ukeys, self._counts = ukeys, counts
        yield 3

    def _pairs_by_symbol(self) -> Iterator[int | None]:
        """Step 4: the live pairs holding each symbol (on either side)."""
        ukeys = self._ukeys
        holders = np.concatenate((ukeys >> _SHIFT, ukeys & _RIGHT))
        held = np.concatenate((ukeys, ukeys))
        o = yield from argsort_steps(holders, blocks.INDEX_BLOCK)
        holders, held = holders[o], held[o]
        lo = _group_starts(holders)
        hi = np.append(lo[1:], len(holders)) if len(lo) else lo
        yield
        self.pairs_of: dict[int, set[int]] = {}
        for s, a, b in zip(holders[lo].tolist(), lo.tolist(), hi.tolist(), strict=True):
            self.pairs_of[s] = set(held[a:b].tolist())
        yield 4

    def _as_lists(self) -> Iterator[int | None]:
        """Steps 5-8: the slot arrays as lists (a merge reads them item by item), one at a time: each
        is ~40 bytes a slot and takes a while on a big corpus."""
        self.sym: list[int] = yield from blocks.tolist_steps(self._sym)
        del self._sym
        yield 5
        self.nxt: list[int] = yield from blocks.tolist_steps(self._nxt)
        del self._nxt
        yield 6
        self.prv: list[int] = yield from blocks.tolist_steps(self._prv)
        del self._prv
        yield 7
        self.weight: list[int] = yield from blocks.tolist_steps(self._weight)
        del self._weight
        yield 8

    def _first_heap(self) -> Iterator[int | None]:
        """Step 9: the heap starts with one bound per left symbol (the best score of the pairs it
        starts), not with every pair: most pairs never come near the top, and a tuple for each cost
        ~0.05 s."""
        ukeys, counts = self._ukeys, self._counts
        del self._ukeys, self._counts
        lsym, rsym = ukeys >> _SHIFT, ukeys & _RIGHT
        sc = np.asarray(self.sym_count, dtype=np.int64)
        fa, fb = sc[lsym], sc[rsym]
        if len(ukeys) and int(fa.max()) * int(fb.max()) < _EXACT_FLOAT:
            scores = counts / (fa * fb)
        else:  # products too large for float64: Python's exact int division, as the pushed entries use
            sl = self.sym_count
            scores = np.array([c / (sl[a] * sl[b]) for c, a, b in zip(counts.tolist(), lsym.tolist(),
                                                                       rsym.tolist(), strict=True)])
        starts_of = _group_starts(lsym)  # the keys are sorted, so by left symbol first
        tops = np.maximum.reduceat(scores, starts_of).tolist() if len(starts_of) else []
        self._heap = []
        for serial, (sym_id, top) in enumerate(zip(lsym[starts_of].tolist(), tops, strict=True), 1):
            self._bound_made[sym_id] = serial
            self._heap.append((-top, -math.inf, "", serial, ~sym_id))
        self._bounds_made = len(tops)
        heapq.heapify(self._heap)
        yield BUILD_STAGES

    def _entry(self, key: int, count: int) -> tuple:
        a, b = key >> _SHIFT, key & _RIGHT
        sc = self.sym_count
        return (-count / (sc[a] * sc[b]), -count, self.names[a], self.names[b], key)

    def best(self) -> tuple[int, int, int] | None:
        """``(a, b, count)`` of the pair with the largest ``count / (count(a) · count(b))``, ties to
        the larger count, then the smaller ``(a, b)`` as strings; None when no pair is left."""
        heap, pc, entry, push = self._heap, self.pair_count, self._entry, heapq.heappush
        while heap:
            e = heapq.heappop(heap)
            key = e[4]
            if key < 0:  # a symbol's bound
                if self._bound_made.get(~key) == e[3]:  # else a later bound of that symbol replaced it
                    self._open_bound(~key)
                continue
            c = pc.get(key, 0)
            if c <= 0:
                continue
            cur = entry(key, c)
            if cur[0] != e[0] or cur[1] != e[1]:
                push(heap, cur)
                continue
            push(heap, cur)  # it stays a pair until merged; merge() makes it stale
            return key >> _SHIFT, key & _RIGHT, c
        return None

    def _open_bound(self, s: int) -> None:
        """Push the pairs holding ``s`` that score at least the heap's top, and a bound for the rest."""
        heap, pc, sc, names = self._heap, self.pair_count, self.sym_count, self.names
        floor = -heap[0][0] if heap else 0.0
        rest = 0.0
        push = heapq.heappush
        for k in self.pairs_of.get(s, ()):
            c = pc.get(k, 0)
            if c > 0:
                left, right = k >> _SHIFT, k & _RIGHT
                score = c / (sc[left] * sc[right])
                if score >= floor:
                    push(heap, (-score, -c, names[left], names[right], k))
                elif score > rest:
                    rest = score
        if rest > 0.0:
            self._push_bound(s, rest)
        else:
            del self._bound_made[s]

    def _push_bound(self, s: int, score: float) -> None:
        """A bound for the pairs holding ``s``: ``score`` is at least the score of each of them. It
        sorts before every pair of the same score (-inf before any -count)."""
        self._bounds_made += 1
        self._bound_made[s] = self._bounds_made
        heapq.heappush(self._heap, (-score, -math.inf, "", self._bounds_made, ~s))

    def new_symbol(self, a: int, b: int) -> int:
        """The id of ``a + b`` (``a + ##b`` makes ``ab``, ``##a + ##b`` makes ``##ab``): an existing
        id when that string was made before, else a new one."""
        piece = self.names[a] + self.names[b][len(CONTINUATION):]
        t = self.id_of.get(piece)
        if t is None:
            t = self.id_of[piece] = len(self.names)
            self.names.append(piece)
            self.sym_count.append(0)
        return t

    def merge(self, a: int, b: int, cancelled: Callable[[], bool] | None = None) -> int:
        """Merge every occurrence of ``a b`` left to right into one symbol; returns its id.

        ``cancelled`` is polled every ``MERGE_SLICE`` occurrences (an early merge of a big corpus
        takes most of a second); when it says so, MergeCancelled is raised and the state is left
        half-merged, fit for nothing but ending the run."""
        t = self.new_symbol(a, b)
        key = a << _SHIFT | b
        slots = self._slots(key)
        sym, nxt, prv, weight = self.sym, self.nxt, self.prv, self.weight
        pc = self.pair_count
        more = self._more_slots
        changed = {key}
        moved = 0
        for i in _polled(slots, cancelled):
            if sym[i] != a:
                continue
            j = nxt[i]
            if j < 0 or sym[j] != b:
                continue
            f = weight[i]
            moved += f
            p = prv[i]
            q = nxt[j]
            if p >= 0:
                s = sym[p] << _SHIFT
                k = s | a
                pc[k] -= f
                changed.add(k)
                k = s | t
                pc[k] = pc.get(k, 0) + f
                changed.add(k)
                more.setdefault(k, []).append(p)
            if q >= 0:
                s = sym[q]
                k = b << _SHIFT | s
                pc[k] -= f
                changed.add(k)
                k = t << _SHIFT | s
                pc[k] = pc.get(k, 0) + f
                changed.add(k)
                more.setdefault(k, []).append(i)
                prv[q] = i
            nxt[i] = q
            sym[i] = t
            sym[j] = -1
        pc[key] -= moved
        sc = self.sym_count
        sc[a] -= moved
        sc[b] -= moved
        sc[t] += moved
        pairs_of = self.pairs_of
        for k in changed:
            left, right = k >> _SHIFT, k & _RIGHT
            if pc[k] <= 0:
                del pc[k]
                self._group.pop(k, None)
                more.pop(k, None)
                for holder in (pairs_of.get(left), pairs_of.get(right)):
                    if holder:  # a pair made and unmade in this merge was never filed
                        holder.discard(k)
            else:
                pairs_of.setdefault(left, set()).add(k)
                pairs_of.setdefault(right, set()).add(k)
        # the pairs whose counts changed go in with their new scores (older entries are skipped when
        # they come up); every other pair holding a or b scores higher now: one bound each covers them
        push, heap, names, get = heapq.heappush, self._heap, self.names, pc.get
        for k in changed:
            c = get(k, 0)
            if c > 0:
                left, right = k >> _SHIFT, k & _RIGHT
                push(heap, (-c / (sc[left] * sc[right]), -c, names[left], names[right], k))
        for s in {a, b}:
            held = pairs_of.get(s)
            if sc[s] > 0 and held:
                top = 0.0
                for k in held:  # a plain loop: max() over a generator cost half as much again
                    score = get(k, 0) / (sc[k >> _SHIFT] * sc[k & _RIGHT])
                    if score > top:
                        top = score
                self._push_bound(s, top)
        return t

    def _slots(self, key: int) -> list[int]:
        """The slots where ``key`` may occur, ascending (a merge goes left to right: ``a a a`` → ``aa a``)."""
        g = self._group.pop(key, None)
        slots = self._first_slots[self._bounds[g]:self._bounds[g + 1]].tolist() if g is not None else []
        extra = self._more_slots.pop(key, None)
        if extra:
            slots = sorted(set(slots).union(extra))
        return slots


class MergeCancelled(Exception):
    """A merge stopped on a cancel (see :meth:`WordPieceMergeState.merge`)."""


def _polled(slots: list[int], cancelled: Callable[[], bool] | None) -> Iterable[int]:
    """The slots, polling ``cancelled`` before each ``MERGE_SLICE`` of them (a short list, the usual
    case, is returned as it is: no generator in the per-occurrence loop)."""
    if cancelled is None or len(slots) <= MERGE_SLICE:
        return slots
    return _polled_slices(slots, cancelled)


def _polled_slices(slots: list[int], cancelled: Callable[[], bool]) -> Iterator[int]:
    for lo in range(0, len(slots), MERGE_SLICE):
        if cancelled():
            raise MergeCancelled
        yield from slots[lo:lo + MERGE_SLICE]
