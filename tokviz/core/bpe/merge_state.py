"""The merge state of the BPE trainer: the counted words as flat arrays, pair counts, the pair index
and the heap that picks the next merge.

1. Indexing. All unique words are laid out in one flat array of token ids ("slots") with links to
   each slot's live neighbours and the word's count as the slot's weight. The count of every
   adjacent pair and the slots holding it (the pair -> occurrences index) come from one stable
   sort with numpy. Why numpy: the same indexing as dict updates in a Python loop costs ~1.5 s on
   the benchmark corpus, and merges that touch 100k+ words early in training cost seconds as
   Python loops but milliseconds as array operations.
2. Merging. The heap (:mod:`~tokviz.core.bpe.pair_heap`) picks the next pair; merging it
   (:mod:`~tokviz.core.bpe.merge_update`) touches only the slots listed for it: the pairs around
   each occurrence lose its weight, the new pairs (they always contain the new token) gain it, get
   heap entries, and their slots stay listed in the new token's birth record. A pair counted below
   the trainer's min_frequency gets no heap entry (it can never be merged).
3. Cancelling. Indexing runs in steps with a cancel check between them (each well under 0.5 s on
   a 100 MB corpus); merging is checked by the trainer between merges.

The two modes differ in three small ways, each a method of :class:`ByteMergeState` or
:class:`CharMergeState`: the base symbols, which pair wins a tie, and what id a new token gets.

- byte mode: the pair with the smallest ``(left id, right id)`` wins, like rustbpe
  (``MergeJob::cmp`` orders equal counts by ascending pair). New token ids are ``256 + rank``, one
  per merge, even in the rare case that two merges produce the same bytes (rustbpe does the same).
- char mode: the pair whose ``(left piece, right piece)`` strings are the *largest* wins, like
  subword-nmt (``max(stats, key=lambda x: (stats[x], x))``; ``</w>`` is part of the piece string).
  Tokens are identified by their string, as in subword-nmt: when two merges produce the same
  string (``ab + c`` and ``a + bc``) the second one reuses the first one's id.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Generator

from tokviz.core.bpe import blocks
from tokviz.core.bpe.merge_update import merge_pair
from tokviz.core.bpe.model import END_OF_WORD, display_bytes
from tokviz.core.bpe.pair_heap import KEY_BITS, MASK, MAXC, SHIFT, TieBucket, pair_of, pop_best
from tokviz.core.errors import CorpusError
from tokviz.core.jamo import decompose_counts, decompose_words, has_jamo
from tokviz.core.training import Progress
from tokviz.core.unigram.sorting import argsort_steps

__all__ = ["ByteMergeState", "CharMergeState", "MergeState", "merge_state", "pair_of"]

_DENSE_SYMBOLS = 2048  # char mode: up to this many symbols, pairs are grouped through a table of all pairs
INDEX_STAGES = 6  # Progress("indexing", k, INDEX_STAGES) after each step of MergeState.build_stages


class MergeState:
    """The unique words as one flat array of token ids with linked neighbours, pair counts, the
    pair -> positions index and the heap.

    Every position of every unique word is a slot in ``tok`` (token id, -1 for the sentinel slot
    at the end, -2 once the slot was absorbed by a merge), with ``nxt``/``prv`` links to its live
    neighbours in the same word (the sentinel at word ends) and ``weight`` = the word's count. A
    pair is identified by the slot of its left token. Merging a pair touches only the slots listed
    for it, in a handful of vectorized steps, so a merge costs O(occurrences), not O(corpus).
    """

    fresh_keys = False
    made_new = True  # the last new_token made a token that did not exist before

    def __init__(self):
        self.pair_counts: dict[int, int] = {}
        self.heap: list[int] = []
        self.names: list[str] = []
        self.tok_bytes: list[bytes] = []
        self.id_of_piece: dict[str, int] = {}
        self.base: list[str] = []
        self.corpus_tokens = 0
        self.corpus_chars = 0
        self.next_id = 0
        self.unique_words = 0
        # initial pairs: sorted keys + CSR slot lists; pairs created later: births and new_slots below
        self._keys = None
        self._starts = None
        self._pair_slots = None
        # The slots of the pairs made by merges. Most are in the birth record of the token whose merge
        # made them: token t -> (the keys of those pairs, ascending; their slots, pair by pair; where
        # each pair's slots start, and the end), kept as that merge made them. The rest (pairs made by
        # merges of a few slots, or made again later) are here: pair key -> a list of slot arrays or lists.
        self.births: dict[int, tuple[list[int], object, list[int]]] = {}
        self.new_slots: dict[int, list] = {}
        # Pairs below the trainer's min_frequency can never be merged (their counts only go down,
        # except when a char-mode string is made again), so they get no heap entry (nor, when a byte
        # merge of a few slots made them, a slot list). Only their counts are kept, to tell the end right.
        self.floor = 1

    def candidates(self, key: int):
        """Slots that may hold pair ``key`` (stale ones are filtered by the caller); the flag says
        whether they may repeat. A pair of two base tokens exists from the start (CSR index);
        any other pair was born, grouped by key, when its newer token was created. A slot born
        with pair ``(x, t)`` keeps exactly that pair until a merge kills it, so the lists are exact
        up to dead slots."""
        import numpy as np

        parts = self.new_slots.pop(key, None)
        a, b = key >> SHIFT, key & MASK
        for t in (a, b) if a != b else (a,):
            born = self.births.get(t)
            if born is not None:
                keys, slots, bounds = born
                i = bisect_left(keys, key)
                if i < len(keys) and keys[i] == key:
                    part = slots[bounds[i]: bounds[i + 1]]
                    parts = [part] if parts is None else [part, *parts]
        if parts is not None:
            return (parts[0], False) if len(parts) == 1 else (np.concatenate(parts), True)
        j = int(self._keys.searchsorted(key))
        if j < len(self._keys) and int(self._keys[j]) == key:
            # stored as int32 (half the memory); gathers through int64 (intp) indices are 2-3x faster
            return self._pair_slots[self._starts[j]: self._starts[j + 1]].astype(np.intp), False
        return np.zeros(0, dtype=np.intp), False

    def merge(self, key: int, a: int, b: int, t: int) -> None:
        """Replace every occurrence of pair ``(a, b)`` (left to right) by ``t``; update counts,
        the index and the heap (:func:`~tokviz.core.bpe.merge_update.merge_pair`)."""
        merge_pair(self, key, a, b, t)

    def _best_below_floor(self, key: int, count: int) -> tuple[int, int]:
        """The heap holds no pair at the floor any more: the true best count among all pairs
        (those without a heap entry too), so that training ends saying how frequent the best pair
        is, or that none is left. One scan of the counts, once, at the end of training."""
        best = max(self.pair_counts.values(), default=0)
        if best <= count:
            return key, count
        return next(k for k, c in self.pair_counts.items() if c == best), best

    # ---- what the two modes do differently --------------------------------------------------
    def _symbols(self, words, joined: str, char_lens, codes):
        """The base symbols of ``words`` (``joined`` is them all in one string, ``char_lens`` their
        lengths): (flat ids, symbols per word); sets names and bytes. ``codes``, when not None, are
        the code points of the words to index instead (decomposed into jamo), ``char_lens`` theirs."""
        raise NotImplementedError

    def select(self) -> tuple[int, int]:
        """Pop the best pair: ``(pair key, count)``, or ``(-1, 0)`` when no pair is left."""
        raise NotImplementedError

    def new_token(self, a: int, b: int) -> int:
        """The id of the token ``a + b`` makes (creating it if needed)."""
        raise NotImplementedError

    @classmethod
    def build(cls, word_counts: Counter, floor: int = 1,
              cancelled: Callable[[], bool] | None = None, jamo: bool = False) -> MergeState | None:
        """Index ``word_counts`` (unique word -> count): slots, pair counts, the pair index, the heap.
        Pairs counted fewer than ``floor`` times (the trainer's min_frequency) get no heap entry.
        ``cancelled`` is polled between the steps (each well under 0.5 s on a 100 MB corpus); None
        is returned when it says so. With ``jamo`` the words are indexed with their Hangul syllables
        decomposed into conjoining jamo (:mod:`tokviz.core.jamo`)."""
        stages = cls.build_stages(word_counts, floor, cancelled, jamo)
        while True:
            try:
                next(stages)
            except StopIteration as end:
                return end.value

    @classmethod
    def build_stages(cls, word_counts: Counter, floor: int = 1, cancelled: Callable[[], bool] | None = None,
                     jamo: bool = False) -> Generator[Progress, None, MergeState | None]:
        """:meth:`build` as a generator: Progress("indexing", k, INDEX_STAGES) after each step and
        between the blocks of a step (so a trainer reports while it indexes), returning the state
        (None when cancelled). ``cancelled`` is polled after each Progress."""
        stop = cancelled or (lambda: False)
        if jamo and has_jamo("".join(word_counts)):  # words typed with jamo may meet others once decomposed
            if stop():
                return None
            word_counts, jamo = decompose_counts(word_counts), False  # summed, decomposed as strings
        st = cls()
        st.floor = max(1, floor)
        work = st._index(word_counts, jamo)
        done = 0
        while True:
            try:
                event = next(work)
            except StopIteration:
                return st
            if event is None:  # between two blocks of a step
                event = Progress("indexing", done, INDEX_STAGES)
            done = event.done
            yield event
            if stop():
                work.close()
                return None

    def _index(self, word_counts: Counter, jamo: bool) -> Generator[Progress | None]:
        """Index ``word_counts`` into this state: Progress after each step, None between blocks."""
        import numpy as np

        n = len(word_counts)
        self.unique_words = n
        counts = yield from blocks.ints_steps(word_counts.values(), n)
        joined, char_lens = yield from blocks.words_steps(word_counts, n)
        codes = None
        if jamo:
            # decomposed as code points, never as strings: a string and a dict entry per word cost
            # more than all the rest of jamo BPE's indexing
            codes, char_lens = decompose_words(joined, char_lens)
        self.corpus_chars = int((char_lens * counts).sum())
        yield Progress("indexing", 1, INDEX_STAGES)
        flat, lens = yield from self._symbols(word_counts, joined, char_lens, codes)
        del joined, codes
        yield Progress("indexing", 2, INDEX_STAGES)
        if len(flat) and int(flat.max()) >= MASK:
            raise CorpusError("the corpus has more distinct symbols than tokviz's BPE supports (16.7 million)")
        self.corpus_tokens = int((lens * counts).sum())
        ends = np.cumsum(lens)
        yield from self._lay_out_slots(flat, lens, ends, counts)
        yield Progress("indexing", 3, INDEX_STAGES)
        # every adjacent pair inside a word (every slot but the words' last), weighted by the word's
        # count, grouped by a stable sort
        inner = np.ones(len(flat), dtype=bool)
        inner[ends - 1] = False
        left = yield from blocks.nonzero_steps(inner)
        del inner
        if not len(left):
            self._keys = np.zeros(0, dtype=np.int64)
            self._pair_slots = np.zeros(0, dtype=np.int32)
            return
        yield
        self._keys, self._starts, self._pair_slots, pcounts = yield from self._group_pairs(flat, left)
        klist = self._keys.tolist()
        clist = pcounts.tolist()
        yield Progress("indexing", 4, INDEX_STAGES)
        yield from self._fill_heap(klist, clist)
        yield Progress("indexing", 5, INDEX_STAGES)
        heapq.heapify(self.heap)

    def _lay_out_slots(self, flat, lens, ends, counts) -> Generator[None]:
        """The slots: token ids, links to the live neighbours, each word's count as its slots' weight."""
        import numpy as np

        total = len(flat)
        sentinel = total
        # Token ids are int32; the links are intp: numpy gathers through an index array of another
        # type by a slower general route (2-3x per element), and every merge gathers through them.
        # Filled in place: each temporary copy of a few million slots costs tens of ms in page faults.
        tok = np.empty(total + 1, dtype=np.int32)
        nxt = np.empty(total + 1, dtype=np.intp)
        prv = np.empty(total + 1, dtype=np.intp)
        for lo, hi in blocks.block_ranges(total):
            tok[lo:hi] = flat[lo:hi]
            nxt[lo:hi] = np.arange(lo + 1, hi + 1, dtype=np.intp)
            prv[lo:hi] = np.arange(lo - 1, hi - 1, dtype=np.intp)
            yield
        tok[total] = -1
        nxt[ends - 1] = sentinel
        prv[ends - lens] = sentinel
        nxt[sentinel] = prv[sentinel] = sentinel
        self.tok, self.nxt, self.prv = tok, nxt, prv
        self.mark = np.zeros(total + 1, dtype=bool)  # scratch flags for O(k) de-duplication
        yield
        # each word's count on each of its slots; the sentinel's weight is 0
        self.weight = np.empty(total + 1, dtype=np.float64)
        yield from blocks.repeat_steps(counts.astype(np.float64), lens, ends, self.weight)
        self.weight[total] = 0.0
        self.views = (memoryview(tok), memoryview(nxt), memoryview(prv), memoryview(self.weight))

    def _fill_heap(self, klist: list[int], clist: list[int]) -> Generator[None]:
        """Pair counts and heap entries (not heapified yet) of the initial pairs, a block at a time."""
        floor = self.floor
        heap = self.heap
        step = blocks.object_block()
        for a in range(0, len(klist), step):
            keys, cs = klist[a: a + step], clist[a: a + step]
            self.pair_counts.update(zip(keys, cs, strict=True))
            heap.extend(((MAXC - c) << KEY_BITS) | k for k, c in zip(keys, cs, strict=True) if c >= floor)
            yield

    def _group_pairs(self, flat, left) -> Generator[None, None, tuple]:
        """The pairs at slots ``left`` grouped by a stable sort: (pair keys, ascending; where each
        one's slots start, and the end; the slots, pair by pair; the weighted count of each pair)."""
        import numpy as np

        small = yield from self._initial_keys(flat, left)
        order = yield from self._pair_order(flat, left, small)
        sk = yield from blocks.take_steps(small, order)
        del small
        group = np.concatenate(([0], np.flatnonzero(sk[1:] != sk[:-1]) + 1))
        ukeys = self._pair_keys(sk[group].astype(np.int64))
        del sk
        yield
        slots = yield from blocks.take_steps(left, order)
        del order
        weights = yield from blocks.take_steps(self.weight, slots)
        pcounts = np.add.reduceat(weights, group).astype(np.int64)
        del weights
        yield
        slots32 = yield from blocks.map_steps(len(slots), lambda lo, hi: slots[lo:hi].astype(np.int32))
        return ukeys, np.concatenate((group, [len(slots)])), slots32, pcounts

    def _group_numbered(self, number, left, occupied, present) -> Generator[None, None, tuple]:
        """:meth:`_group_pairs` for pairs numbered in 16 bits (``number`` per slot of ``left``, how
        many of each in ``occupied``, the numbers in use in ``present``): a radix pass groups them,
        and the counts come from a bincount in slot order (no gather in pair order). Done in blocks
        of slots, each placed after the slots of the blocks before: sorting all at once made an
        int64 copy of every slot, whose page faults took longer than the sort."""
        import numpy as np

        size = len(occupied)
        starts = np.concatenate(([0], np.cumsum(occupied[present])))
        if len(left) <= blocks.INDEX_BLOCK:  # one block (a small corpus): its sorted order is the placement
            order = number.argsort(kind="stable")
            sums = np.bincount(number, weights=self.weight[left], minlength=size)
            return starts, left[order].astype(np.int32), sums[present].astype(np.int64)
        cursor = np.cumsum(occupied) - occupied  # where each number's next slot goes
        slots = np.empty(len(left), dtype=np.int32)
        sums = np.zeros(size)
        for lo, hi in blocks.block_ranges(len(left)):
            part, part_slots = number[lo:hi], left[lo:hi]
            order = np.argsort(part, kind="stable")
            sorted_part = part[order]
            here = np.bincount(part, minlength=size)
            rank = np.arange(len(part)) - (np.cumsum(here) - here)[sorted_part]  # within its number
            slots[cursor[sorted_part] + rank] = part_slots[order]
            cursor += here
            sums += np.bincount(part, weights=self.weight[part_slots], minlength=size)
            yield
        return starts, slots, sums[present].astype(np.int64)

    def _initial_keys(self, flat, left) -> Generator[None, None, object]:
        """Sort keys of the pairs at slots ``left`` (see :meth:`_pair_keys`)."""

        def part(lo, hi):
            at = left[lo:hi]
            return (flat[at] << SHIFT) | flat[1:][at]  # flat[1:][at] is flat[at + 1], without at + 1

        return (yield from blocks.map_steps(len(left), part))

    def _pair_keys(self, keys):
        """Pair keys (``left << 24 | right``) from the sorted keys of :meth:`_initial_keys`."""
        return keys

    def _pair_order(self, flat, left, keys) -> Generator[None, None, object]:
        """The stable sort order of the pairs at slots ``left`` by their ``keys``. With fewer than
        65,536 symbols, two stable passes over 16-bit ids (right, then left): numpy sorts those by
        radix, ~10x faster than a stable sort of the 64-bit keys (0.38 s for 3.9M pairs). Every sort
        goes a block at a time (:mod:`tokviz.core.unigram.sorting`: the same permutation)."""
        import numpy as np

        block = blocks.INDEX_BLOCK
        if keys.dtype.itemsize <= 2 or self.next_id > 0xFFFF:
            return (yield from argsort_steps(keys, block))
        right = yield from blocks.map_steps(len(left), lambda lo, hi: flat[left[lo:hi] + 1].astype(np.uint16))
        order = yield from blocks.stable_order_steps(right, self.next_id)
        del right
        by_left = yield from blocks.map_steps(len(left), lambda lo, hi: flat[left[order[lo:hi]]].astype(np.uint16))
        then = yield from blocks.stable_order_steps(by_left, self.next_id)
        return (yield from blocks.take_steps(order, then))


class ByteMergeState(MergeState):
    """Byte mode: 256 base bytes, ties to the smallest pair of ids, one new id per merge."""

    fresh_keys = True  # every pair made holds the brand-new token: its key never existed before

    def _symbols(self, words, joined: str, char_lens, codes):
        import numpy as np

        if codes is None:
            # UTF-8 length of every word: encoding each one is cheaper than per-character arithmetic
            lens = yield from blocks.ints_steps(map(len, map(str.encode, words)), len(char_lens))
            data = joined.encode("utf-8")
        else:  # the words exist only as code points: their UTF-8 lengths from the code points'
            data = codes.tobytes().decode("utf-32-le").encode("utf-8")
            width = (codes >= 0x80).astype(np.uint8)
            width += codes >= 0x800
            width += codes >= 0x10000
            width += 1
            lens = np.add.reduceat(width, np.cumsum(char_lens) - char_lens, dtype=np.int64)  # no word is empty
        flat = np.frombuffer(data, dtype=np.uint8).astype(np.uint16)
        self.tok_bytes = [bytes([i]) for i in range(256)]
        self.names = [display_bytes(x) for x in self.tok_bytes]
        self.next_id = 256
        return flat, lens

    def _group_pairs(self, flat, left):
        """A byte pair is its own 16-bit number (:meth:`_group_numbered`)."""
        import numpy as np

        number = yield from self._initial_keys(flat, left)
        occupied = yield from blocks.bincount_steps(number, 1 << 16)
        present = np.flatnonzero(occupied)
        starts, slots, pcounts = yield from self._group_numbered(number, left, occupied, present)
        return self._pair_keys(present.astype(np.int64)), starts, slots, pcounts

    def _initial_keys(self, flat, left):
        def part(lo, hi):
            at = left[lo:hi]
            keys = flat[at]  # 16-bit keys (flat holds bytes as uint16): numpy sorts them by radix
            keys <<= 8
            keys |= flat[1:][at]
            return keys

        return (yield from blocks.map_steps(len(left), part))

    def _pair_keys(self, keys):
        return ((keys >> 8) << SHIFT) | (keys & 0xFF)

    def select(self) -> tuple[int, int]:
        k, c = pop_best(self.heap, self.pair_counts)
        return (k, c) if c >= self.floor else self._best_below_floor(k, c)

    def new_token(self, a: int, b: int) -> int:
        t = self.next_id
        self.next_id += 1
        self.tok_bytes.append(self.tok_bytes[a] + self.tok_bytes[b])
        self.names.append(display_bytes(self.tok_bytes[t]))
        return t


class CharMergeState(MergeState):
    """Char mode: characters and word-final ``x</w>`` symbols, subword-nmt's ties, one id per string."""

    fresh_keys = False  # a string made again keeps its id, so a pair key can be made again

    def __init__(self):
        super().__init__()
        self._ties = TieBucket()

    def _symbols(self, words, joined: str, char_lens, codes):
        import numpy as np

        if codes is None:
            codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        lens = char_lens
        tagged = codes.astype(np.int64)
        # a word-final character is its own symbol ("x</w>"): tag it above the Unicode range
        tagged[np.cumsum(lens) - 1] += 1 << 21
        # the distinct symbols, and below every slot's id, through a table over all 2**22 tagged code
        # points: sorting the slots and a binary search per slot took ~10x as long
        present = np.zeros(1 << 22, dtype=bool)
        present[tagged] = True
        uniq = np.flatnonzero(present)
        symbols = [chr(u & 0x1FFFFF) + (END_OF_WORD if u >> 21 else "") for u in uniq.tolist()]
        order = sorted(range(len(symbols)), key=symbols.__getitem__)
        # ids by sorted symbol string after <unk> = 0: deterministic, independent of corpus order
        id_of_uniq = np.empty(len(symbols), dtype=np.int64)
        id_of_uniq[np.array(order, dtype=np.int64)] = np.arange(1, len(symbols) + 1)
        table = np.empty(1 << 22, dtype=np.int64)
        table[uniq] = id_of_uniq
        flat = table[tagged]
        self.base = [symbols[i] for i in order]
        self.names = ["<unk>"] + self.base
        self.tok_bytes = [b""] + [x.removesuffix(END_OF_WORD).encode("utf-8") for x in self.base]
        self.id_of_piece = {x: i for i, x in enumerate(self.names)}
        self.next_id = len(self.names)
        yield
        return flat, lens

    def _group_pairs(self, flat, left):
        """With few symbols (jamo: under a thousand), pairs are numbered densely in 16 bits through a
        table over every possible pair (:meth:`_group_numbered`): half the time of the general
        two-pass sort."""
        import numpy as np

        n = self.next_id
        if n > _DENSE_SYMBOLS:
            return (yield from super()._group_pairs(flat, left))

        def pair_code(lo, hi):
            at = left[lo:hi]
            return flat[at] * n + flat[1:][at]  # flat[1:][at] is flat[at + 1], without at + 1

        code = yield from blocks.map_steps(len(left), pair_code)
        occupied = yield from blocks.bincount_steps(code, n * n)
        present = np.flatnonzero(occupied)
        if len(present) > 0x10000:
            return (yield from super()._group_pairs(flat, left))
        number = np.zeros(n * n, dtype=np.uint16)
        number[present] = np.arange(len(present))
        pair_number = yield from blocks.take_steps(number, code)
        del code
        dense = np.arange(len(present))
        starts, slots, pcounts = yield from self._group_numbered(pair_number, left, occupied[present], dense)
        return ((present // n) << SHIFT) | (present % n), starts, slots, pcounts

    def select(self) -> tuple[int, int]:
        k, c = self._ties.select(self.heap, self.pair_counts, self.names)
        return (k, c) if c >= self.floor else self._best_below_floor(k, c)

    def new_token(self, a: int, b: int) -> int:
        piece = self.names[a] + self.names[b]
        t = self.id_of_piece.get(piece)
        self.made_new = t is None
        if t is None:  # a string made before keeps its id
            t = self.next_id
            self.next_id += 1
            self.id_of_piece[piece] = t
            self.names.append(piece)
            self.tok_bytes.append(self.tok_bytes[a] + self.tok_bytes[b])
        return t


def merge_state(mode: str, word_counts: Counter, floor: int = 1,
                cancelled: Callable[[], bool] | None = None, jamo: bool = False) -> MergeState | None:
    """The indexed merge state of ``word_counts`` for ``mode`` (``"byte"`` or ``"char"``); pairs
    counted fewer than ``floor`` times are never offered as the next merge. With ``jamo`` the words'
    Hangul syllables are indexed as conjoining jamo. None when ``cancelled()`` turned True while
    indexing."""
    return (ByteMergeState if mode == "byte" else CharMergeState).build(word_counts, floor, cancelled, jamo)


def merge_state_stages(mode: str, word_counts: Counter, floor: int = 1, cancelled: Callable[[], bool] | None = None,
                       jamo: bool = False) -> Generator[Progress, None, MergeState | None]:
    """:func:`merge_state` yielding Progress("indexing", ...) between its steps."""
    cls = ByteMergeState if mode == "byte" else CharMergeState
    return (yield from cls.build_stages(word_counts, floor, cancelled, jamo))
