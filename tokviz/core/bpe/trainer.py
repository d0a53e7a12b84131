"""The incremental BPE trainer: a generator of Progress, MergeStep and Finished events.

How it works (the classic incremental scheme of subword-nmt, HF tokenizers and rustbpe):

1. Counting. The corpus is read in chunks of about a megabyte. Char mode splits on whitespace;
   byte mode pre-splits with the regex pattern. Only *unique* words (pieces) are kept, with their
   counts (``collections.Counter`` in C). 150k Korean reviews give ~350k unique words.
2. Indexing. All unique words are laid out in one flat array of token ids ("slots") with links to
   each slot's live neighbours and the word's count as the slot's weight. The count of every
   adjacent pair and the slots holding it (the pair -> occurrences index) come from one stable
   sort with numpy. Why numpy: the same indexing as dict updates in a Python loop costs ~1.5 s on
   the benchmark corpus (the largest single cost of a run), and merges that touch 100k+ words
   early in training cost seconds as Python loops but milliseconds as array operations. numpy
   ships with pyqtgraph, so it is no new dependency.
3. Merging. A max-heap holds ``(count, pair)`` entries with *lazy refresh*: counts of existing
   pairs only ever go down, so a popped entry whose stored count is stale is pushed back with its
   current count, and the first entry whose stored count is current is the true maximum. Merging a
   pair touches only the slots listed for it: the pairs around each occurrence lose its weight,
   the new pairs (they always contain the new token) gain it, get heap entries and their own slot
   lists. Merges with many occurrences run vectorized; merges with a few run in plain Python.

Tie rules (which pair wins when counts are equal), chosen to reproduce the reference trainers:

- byte mode: the pair with the smallest ``(left id, right id)`` wins, like rustbpe
  (``MergeJob::cmp`` orders equal counts by ascending pair). New token ids are ``256 + rank``, one
  per merge, even in the rare case that two merges produce the same bytes (rustbpe does the same).
- char mode: the pair whose ``(left piece, right piece)`` strings are the *largest* wins, like
  subword-nmt (``max(stats, key=lambda x: (stats[x], x))``; ``</w>`` is part of the piece string).
  Tokens are identified by their string, as in subword-nmt: when two merges produce the same
  string (``ab + c`` and ``a + bc``) the second one reuses the first one's id.

Both modes count every adjacent position (``aaa`` holds the pair ``a a`` twice) and stop when the
best count falls below ``min_frequency``. Feeding the corpus as lines (each ending with ``\\n``) is
the same as feeding it as one document: byte mode only cuts the text between chunks where no
pattern's piece can cross (see ``_safe_cuts``), and checks that a piece really ends there.
With pattern ``"none"`` each line (with its newline) is one training piece, since the whole corpus
as a single piece would teach nothing; the encoder then treats the whole input text as one piece.
"""

from __future__ import annotations

import bisect
import heapq
import time
from collections import Counter
from typing import Callable, Iterable, Iterator

import regex

from tokviz.core.bpe.corpus import LinePart
from tokviz.core.bpe.events import Finished, MergeStep, Progress, TrainerConfig, TrainEvent
from tokviz.core.bpe.model import BPEModel, END_OF_WORD, HANGUL_DROP, display_bytes, pattern_regex
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.pretokenize import PATTERNS

_SHIFT = 24  # pair key = left << 24 | right: up to 16.7M token ids
_MASK = (1 << _SHIFT) - 1
_KEY_BITS = 2 * _SHIFT
_KEY_MASK = (1 << _KEY_BITS) - 1
_MAXC = 1 << 40  # heap entry = (MAXC - count) << 48 | pair key: the smallest entry is the best pair
# Pre-split and count the corpus in ~64K-character chunks: regex's findall and Counter.update hold
# the GIL for a whole chunk, and 1M-character chunks stalled the GUI thread for 100-500 ms while
# counting (benchmarks/gui_stall.py); 64K keeps each hold short and costs nothing measurable.
_CHUNK_CHARS = 1 << 16
_SMALL_MERGE = 48  # at most this many candidate slots: merge in plain Python
_PROGRESS_INTERVAL = 0.05  # at most ~20 Progress events per second


class BPETrainer:
    """Train BPE merges from lines of text; see the module docstring for the algorithm and tie rules.

    >>> t = BPETrainer(TrainerConfig(mode="char", merges=3, min_frequency=1))
    >>> [e.new_piece for e in t.run(["low lower lowest\\n"]) if isinstance(e, MergeStep)]
    ['lo', 'we', 'lowe']
    >>> [tok.raw for tok in t.model().encode("lowest").tokens]  # ('w', 'e') beat ('lo', 'w') on the tie
    ['lowe', 's', 't</w>']
    """

    def __init__(self, config: TrainerConfig):
        if config.mode not in ("char", "byte"):
            raise TokvizError(f"unknown training mode {config.mode!r}: use 'char' or 'byte'")
        if config.mode == "byte" and config.pattern not in PATTERNS:
            raise TokvizError(f"unknown pre-split pattern {config.pattern!r}: use one of {', '.join(PATTERNS)}")
        if config.keep not in (None, "hangul"):
            raise TokvizError(f"unknown keep preset {config.keep!r}: use 'hangul' or nothing")
        if config.merges < 0:
            raise TokvizError("the number of merges must be 0 or more")
        if config.min_frequency < 1:
            raise TokvizError("min_frequency must be at least 1")
        self.config = config
        self._merges: list[tuple[int, int, int]] = []  # (left, right, new) per rank
        self._base: list[str] = []  # char mode: base symbols, id = index + 1 (0 is <unk>)
        self._finished: Finished | None = None
        self._stats: dict = {}

    # ---- public API ------------------------------------------------------------------------
    @property
    def merges(self) -> list[tuple[int, int, int]]:
        """``(left id, right id, new id)`` of every merge so far, in rank order."""
        return list(self._merges)

    @property
    def finished(self) -> Finished | None:
        return self._finished

    @property
    def base(self) -> list[str]:
        """Char mode: the base symbols of the run (id = index + 1; 0 is ``<unk>``), known once the
        corpus is indexed; empty in byte mode."""
        return list(self._base)

    @property
    def stats(self) -> dict:
        """Corpus statistics of the run for the model's settings: ``unique_words`` and
        ``corpus_chars`` once indexed, ``corpus_tokens`` when training ends."""
        return dict(self._stats)

    def model(self, step: int | None = None) -> BPEModel:
        """The model made of the first ``step`` merges (None = all so far). Safe to call between
        steps (from the thread running :meth:`run`) or after training."""
        return trained_model(self.config, self._merges, base=self._base, stats=self._stats,
                             finished=self._finished, step=step)

    def run(
        self,
        lines: Iterable[str],
        *,
        cancel: Callable[[], bool] | None = None,
        total_bytes: int | None = None,
    ) -> Iterator[TrainEvent]:
        """Train on ``lines``; yields Progress while counting, one MergeStep per merge, then Finished.

        Each line should keep its ``\\n`` (``read_corpus`` does); an item without one gets it added,
        except the last, so ``[whole_text]`` and ``text.splitlines()`` both work. A
        :class:`~tokviz.core.bpe.corpus.LinePart` (a piece of a very long line) continues in the next
        item and gets no newline. ``cancel`` is
        polled between chunks and between merges; when it returns True the generator yields
        ``Finished("cancelled")`` and stops (the merges so far stay usable through :meth:`model`).

        Raises CorpusError when the corpus holds no word at all (empty or whitespace only, or
        nothing left after the ``keep`` filter): there is nothing to train, which is an input
        problem rather than a way training can end.
        """
        self._merges = []
        self._finished = None
        cancelled = cancel or (lambda: False)
        word_counts: Counter = Counter()
        for event in self._count(lines, word_counts, cancelled, total_bytes):
            if event is None:
                self._finished = Finished("cancelled", 0, "cancelled while counting the corpus")
                yield self._finished
                return
            yield event
        if not word_counts or all(w.isspace() for w in word_counts):
            what = "nothing is left after keeping only Hangul and spaces" if self.config.keep else "it is empty or only whitespace"
            raise CorpusError(f"The corpus has no words to train on: {what}.")
        yield Progress("indexing", 0, 1)
        state = _MergeState.build(self.config, word_counts)
        del word_counts
        self._base = state.base
        self._stats = {"unique_words": state.unique_words, "corpus_chars": state.corpus_chars}
        yield Progress("indexing", 1, 1)
        yield from self._merge_loop(state, cancelled)

    # ---- counting ----------------------------------------------------------------------------
    def _count(self, lines, counts: Counter, cancelled, total_bytes) -> Iterator[Progress | None]:
        """Fill ``counts`` with unique words (char) or pre-split pieces (byte). Yields throttled
        Progress, and None when cancelled."""
        cfg = self.config
        hangul = cfg.keep == "hangul"
        if cfg.mode == "char":

            def count_chunk(text: str, final: bool) -> str:
                if hangul:
                    text = HANGUL_DROP.sub("", text)
                cut = len(text) if final else _last_space_end(text)
                counts.update(text[:cut].split())
                return text[cut:]  # a word still going on (a long line handed on in parts)
        else:
            rx = pattern_regex(cfg.pattern)
            if rx is None:  # "none": each line is one piece (a whole corpus as one piece is useless)

                def count_chunk(text: str, final: bool) -> str:
                    if hangul:
                        text = HANGUL_DROP.sub("", text)
                    cut = len(text) if final else text.rfind("\n") + 1
                    counts.update(text[:cut].splitlines(keepends=True))
                    return text[cut:]  # a line still going on
            else:
                findall = rx.findall

                def count_chunk(text: str, final: bool) -> str:
                    if hangul:
                        text = HANGUL_DROP.sub("", text)
                    if final:
                        counts.update(findall(text))
                        return ""
                    cuts = _safe_cuts(text)
                    found = _pieces_before_cut(findall, text, cuts) if cuts else None
                    if found is None:
                        return text  # no safe place yet: keep accumulating
                    pieces, cut = found
                    counts.update(pieces)
                    return text[cut:]

        buf: list[str] = []
        buf_chars = 0
        limit = _CHUNK_CHARS  # count when the buffer holds this much
        fresh = 0  # characters taken in since the last cancel check
        done_bytes = 0
        last_report = 0.0
        pending: str | None = None
        yield Progress("counting", 0, total_bytes)
        for line in lines:
            if pending is not None:
                if not pending.endswith("\n") and type(pending) is not LinePart:
                    pending += "\n"
                buf.append(pending)
                buf_chars += len(pending)
                fresh += len(pending)
            pending = line
            if fresh >= _CHUNK_CHARS:
                fresh = 0
                if cancelled():
                    yield None
                    return
            if buf_chars >= limit:
                text = "".join(buf)
                done_bytes += _utf8_len(text)
                rest = count_chunk(text, False)
                if rest:
                    done_bytes -= _utf8_len(rest)
                buf = [rest] if rest else []
                buf_chars = len(rest)
                # A text with no safe cut (a long line of CJK without spaces, \r-only line ends)
                # keeps its whole buffer: try again only once it has doubled, so the re-joining and
                # re-scanning stay linear overall instead of quadratic.
                limit = max(_CHUNK_CHARS, 2 * buf_chars)
                now = time.monotonic()
                if now - last_report >= _PROGRESS_INTERVAL:
                    last_report = now
                    yield Progress("counting", done_bytes, total_bytes)
        if pending is not None:
            buf.append(pending)
        if buf:
            if cancelled():
                yield None
                return
            text = "".join(buf)
            done_bytes += _utf8_len(text)
            count_chunk(text, True)
        yield Progress("counting", done_bytes, total_bytes if total_bytes is not None else done_bytes)

    # ---- merging -----------------------------------------------------------------------------
    def _merge_loop(self, st: "_MergeState", cancelled) -> Iterator[TrainEvent]:
        cfg = self.config
        char_mode = cfg.mode == "char"
        target = cfg.merges
        min_freq = cfg.min_frequency
        heap = st.heap
        pc = st.pair_counts
        names = st.names  # id -> display piece
        tok_bytes = st.tok_bytes
        id_of_piece = st.id_of_piece
        merges = self._merges
        ties = _TieBucket()
        reason = "merges"
        message = ""
        while len(merges) < target:
            if cancelled():
                reason, message = "cancelled", f"cancelled after {len(merges)} merges"
                break
            # --- pop the best pair (lazy refresh) ---
            if char_mode:
                best, count = ties.select(heap, pc, names)
            else:
                best, count = _pop_best(heap, pc)
            if best < 0:
                reason = "exhausted"
                message = f"no pair left to merge after {len(merges)} merges (every word is a single token)"
                break
            if count < min_freq:
                reason = "min_frequency"
                message = f"the most frequent pair occurs {count} time{'' if count == 1 else 's'}, below min_frequency {min_freq}"
                break
            a, b = best >> _SHIFT, best & _MASK
            # --- the new token (char mode: a string made before keeps its id) ---
            if char_mode:
                piece = names[a] + names[b]
                t = id_of_piece.get(piece)
                if t is None:
                    t = st.next_id
                    st.next_id += 1
                    id_of_piece[piece] = t
                    names.append(piece)
                    tok_bytes.append(tok_bytes[a] + tok_bytes[b])
            else:
                t = st.next_id
                st.next_id += 1
                tok_bytes.append(tok_bytes[a] + tok_bytes[b])
                names.append(display_bytes(tok_bytes[t]))
            st.merge(best, a, b, t)
            merges.append((a, b, t))
            yield MergeStep(
                step=len(merges),
                token_id=t,
                left=a,
                right=b,
                left_piece=names[a],
                right_piece=names[b],
                new_piece=names[t],
                new_bytes=tok_bytes[t],
                count=count,
                vocab_size=st.next_id,
                corpus_tokens=st.corpus_tokens,
                corpus_chars=st.corpus_chars,
            )
        self._stats["corpus_tokens"] = st.corpus_tokens
        self._finished = Finished(reason, len(merges), message)
        yield self._finished


def trained_model(
    config: TrainerConfig,
    merges: list[tuple[int, int, int]],
    *,
    base: list[str],
    stats: dict,
    finished: Finished | None,
    step: int | None = None,
) -> BPEModel:
    """The model of the first ``step`` merges (None = all) of a run with ``config``.

    ``base`` and ``stats`` are the run's :attr:`BPETrainer.base` and :attr:`BPETrainer.stats`. A
    trainer in this process and one in a training process (``trainer_process``) both build their
    models here, so the two give the same model for the same merges.

    >>> m = trained_model(TrainerConfig(mode="byte"), [(104, 105, 256)], base=[], stats={}, finished=None)
    >>> m.name, m.encode("hi").ids
    ('tokviz BPE (step 1)', [256])
    """
    n = len(merges) if step is None else max(0, min(step, len(merges)))
    settings = {
        "merges_requested": config.merges,
        "min_frequency": config.min_frequency,
        "keep": config.keep,
        "finished": finished.reason if finished else None,
        **stats,
    }
    return BPEModel(
        mode=config.mode,
        pattern=config.pattern if config.mode == "byte" else "whitespace",
        merges=merges[:n],
        base=base if config.mode == "char" else None,
        special_tokens=config.special_tokens,
        keep=config.keep,
        settings=settings,
        name=f"tokviz BPE (step {n})",
        source="trained in tokviz",
    )


def _pop_best(heap: list[int], pc: dict) -> tuple[int, int]:
    """Byte mode: pop the pair with the highest count, smallest key on ties (rustbpe's order).

    Lazy refresh: counts of queued pairs only go down, so an entry whose stored count is stale is
    pushed back with its current count; the first entry whose count is current is the maximum, and
    among equal counts the heap yields the smallest key first. Returns (-1, 0) when no pair is left.
    """
    heappop, heappush = heapq.heappop, heapq.heappush
    while heap:
        e = heappop(heap)
        k = e & _KEY_MASK
        cur = pc.get(k, 0)
        if cur <= 0:
            continue
        if cur != _MAXC - (e >> _KEY_BITS):
            heappush(heap, ((_MAXC - cur) << _KEY_BITS) | k)
            continue
        return k, cur
    return -1, 0


class _TieBucket:
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
        heappop, heappush = heapq.heappop, heapq.heappush
        while True:
            # 1. move every heap entry that may reach the bucket's count (or beat it) out of the heap
            while heap:
                e = heap[0]
                stored = _MAXC - (e >> _KEY_BITS)
                if self.items and stored < self.count:
                    break
                heappop(heap)
                k = e & _KEY_MASK
                cur = pc.get(k, 0)
                if cur <= 0:
                    continue
                if cur != stored:
                    heappush(heap, ((_MAXC - cur) << _KEY_BITS) | k)
                    continue
                item = ((names[k >> _SHIFT], names[k & _MASK]), k)
                if not self.items or cur > self.count:
                    for _, old in self.items:  # a higher count: the old bucket waits in the heap
                        c = pc.get(old, 0)
                        if c > 0:
                            heappush(heap, ((_MAXC - c) << _KEY_BITS) | old)
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
                    heappush(heap, ((_MAXC - cur) << _KEY_BITS) | k)
            if not heap:
                return -1, 0


def _utf8_len(text: str) -> int:
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError as err:
        raise CorpusError(
            f"The corpus contains a lone surrogate U+{ord(text[err.start]):04X} (half of a broken emoji); "
            f"it cannot be encoded as UTF-8. Replace it before training."
        ) from None


# Places where no piece of the gpt2/gpt4/o200k/whitespace patterns can cross (a candidate is
# used only where a piece really ends after splitting: _pieces_before_cut):
#   A. after a newline, when the whitespace that follows holds no other line break: gpt4/o200k's
#      `\s*[\r\n]` ends a whitespace run at its last line break (indented code, blank-free prose);
#   B. at a single space between two non-space characters: every piece that could cross it
#      starts with that space (` ?\p{L}+`, `[^\r\n\p{L}\p{N}]?\p{L}+`), so one ends before it.
# The piece before the cut may look ahead through the following whitespace and one more
# character (`\s++$`, `\s+(?!\S)`), so splitting stops just past the first non-space after it.
_CUT = regex.compile(r"(?r)\n(?=[^\S\r\n]*\S)|(?<=\S) (?=\S)")
_NON_SPACE = regex.compile(r"\S")


def _safe_cuts(text: str, most: int = 16) -> list[int]:
    """Candidate cuts in ``text``, last first (at most ``most``), by rules A and B above.

    >>> _safe_cuts("a\\n  b c\\n")
    [5, 2]
    >>> _safe_cuts("     ")
    []
    """
    # only the last two chunks' worth is searched, so a corpus without any such place grows the
    # buffer but never rescans it from the start
    floor = max(0, len(text) - 2 * _CHUNK_CHARS)
    cuts = []
    for m in _CUT.finditer(text, floor):
        cuts.append(m.end() if m.group() == "\n" else m.start())
        if len(cuts) == most:
            break
    return cuts


def _pieces_before_cut(findall, text: str, cuts: list[int]) -> tuple[list[str], int] | None:
    """Split ``text`` up to just past the first non-space after the last cut; return the pieces
    before the last candidate cut at which a piece really ends, and that cut (None if none does)."""
    seen = _NON_SPACE.search(text, cuts[0]).end()
    pieces = findall(text, 0, seen)
    if sum(map(len, pieces)) != seen:  # the pattern does not tile the text: never true of ours
        return None
    # walk back from the end: only the few pieces after the chosen cut are looked at
    end, i = seen, len(pieces)
    for cut in cuts:
        while end > cut:
            i -= 1
            end -= len(pieces[i])
        if end == cut:
            return pieces[:i], cut
    return None


def _last_space_end(text: str) -> int:
    """Index just past the last whitespace character of ``text`` (0 if none): char mode counts
    words up to there and keeps the unfinished word for the next chunk.

    >>> _last_space_end("ab cd"), _last_space_end("ab cd "), _last_space_end("abc")
    (3, 6, 0)
    """
    m = _LAST_SPACE.search(text)
    return m.end() if m else 0


_LAST_SPACE = regex.compile(r"(?r)\s")


class _MergeState:
    """The unique words as one flat array of token ids with linked neighbours, pair counts, the
    pair -> positions index and the heap.

    Every position of every unique word is a slot in ``tok`` (token id, -1 for the sentinel slot
    at the end, -2 once the slot was absorbed by a merge), with ``nxt``/``prv`` links to its live
    neighbours in the same word (the sentinel at word ends) and ``weight`` = the word's count. A
    pair is identified by the slot of its left token. Merging a pair touches only the slots listed
    for it, in a handful of vectorized steps, so a merge costs O(occurrences), not O(corpus).
    """

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
        # initial pairs: sorted keys + CSR slot lists; pairs created later: lists of slot arrays
        self._keys = None
        self._starts = None
        self._pair_slots = None
        self._new_slots: dict[int, list] = {}  # pair key -> slot arrays where it was born

    def _candidates(self, key: int):
        """Slots that may hold pair ``key`` (stale ones are filtered by the caller); the flag says
        whether they may repeat. A pair of two base tokens exists from the start (CSR index);
        any other pair was born, grouped by key, when its newer token was created. A slot born
        with pair ``(x, t)`` keeps exactly that pair until a merge kills it, so the lists are exact
        up to dead slots."""
        import numpy as np

        parts = self._new_slots.pop(key, None)
        if parts is not None:
            return (parts[0], False) if len(parts) == 1 else (np.concatenate(parts), True)
        j = int(np.searchsorted(self._keys, key))
        if j < len(self._keys) and int(self._keys[j]) == key:
            return self._pair_slots[self._starts[j]: self._starts[j + 1]], False
        return self._pair_slots[:0], False

    def merge(self, key: int, a: int, b: int, t: int) -> None:
        """Replace every occurrence of pair ``(a, b)`` (left to right) by ``t``; update counts,
        the index and the heap."""
        import numpy as np

        tok, nxt, prv, weight, mark = self.tok, self.nxt, self.prv, self.weight, self.mark
        cand, maybe_dup = self._candidates(key)
        if len(cand) <= _SMALL_MERGE:
            self._merge_small(cand, key, a, b, t)
            return
        pos = cand[(tok[cand] == a) & (tok[nxt[cand]] == b)]
        if maybe_dup or (a == b and len(pos) > 1):
            pos = np.unique(pos)  # sorted, as the left-to-right rule below needs
        if a == b and len(pos) > 1:
            pos = _non_overlapping(pos, nxt)
        pc = self.pair_counts
        if not len(pos):
            pc[key] = 0
            return
        n_vocab = max(self.next_id, t + 1)  # char mode may reuse an old id for t: bound by every id
        j = nxt[pos]
        left = prv[pos]
        right = nxt[j]
        # pairs that disappear: (l, a) at the left neighbour unless that neighbour is the b of an
        # adjacent occurrence (then it is that occurrence's (b, r)), and (b, r) at each j
        mark[j] = True
        lsel = left[(tok[left] >= 0) & ~mark[left]]
        mark[j] = False
        rsel = right[tok[right] >= 0]
        _add_by_token(pc, tok[lsel], weight[lsel], n_vocab, lambda x: (x << _SHIFT) | a, -1)
        _add_by_token(pc, tok[rsel], weight[rsel], n_vocab, lambda y: (b << _SHIFT) | y, -1)
        pc[key] = 0  # left-to-right merging leaves no occurrence behind
        self.corpus_tokens -= int(weight[pos].sum())
        tok[pos] = t
        tok[j] = -2
        nxt[pos] = right
        prv[right] = pos
        # pairs that appear, all holding t: (l', t) at the left neighbour (unless it is an
        # adjacent occurrence: then it is that one's (t, t)) and (t, r) at pos
        new_left = prv[pos]
        mark[pos] = True
        lborn = new_left[(tok[new_left] >= 0) & ~mark[new_left]]
        mark[pos] = False
        rborn = pos[tok[nxt[pos]] >= 0]
        heap = self.heap
        new_slots = self._new_slots
        for side, slots, toks in ((0, lborn, tok[lborn]), (1, rborn, tok[nxt[rborn]])):
            for x, cnt, grp in _group_by_token(toks, slots, weight, n_vocab):
                k = (x << _SHIFT) | t if side == 0 else (t << _SHIFT) | x
                cnt += pc.get(k, 0)
                pc[k] = cnt
                heapq.heappush(heap, ((_MAXC - cnt) << _KEY_BITS) | k)
                lst = new_slots.get(k)
                if lst is None:
                    new_slots[k] = [grp]
                else:
                    lst.append(grp)

    def _merge_small(self, cand, key: int, a: int, b: int, t: int) -> None:
        """:meth:`merge` for a handful of slots: the same steps in plain Python after a few bulk
        gathers, because a hundred numpy calls cost more than the work when only a few words hold
        the pair (most merges late in training)."""
        import numpy as np

        tok, nxt, prv, weight = self.tok, self.nxt, self.prv, self.weight
        pc = self.pair_counts
        nx = nxt[cand]
        hit = [c for c, x, y in zip(cand.tolist(), tok[cand].tolist(), tok[nx].tolist()) if x == a and y == b]
        pos = sorted(set(hit))
        if a == b and len(pos) > 1:
            keep, taken = [], -1
            for p_, q in zip(pos, nxt[pos].tolist()):
                if p_ != taken:
                    keep.append(p_)
                    taken = q
            pos = keep
        if not pos:
            pc[key] = 0
            return
        P = np.array(pos, dtype=np.int32)
        J = nxt[P]
        Jl = J.tolist()
        L = prv[P].tolist()
        R = nxt[J]
        Rl = R.tolist()
        tL = tok[L].tolist()
        tR = tok[R].tolist()
        W = weight[P].tolist()
        jset = set(Jl)
        delta: dict[int, float] = {}
        for l_, tl, tr, w in zip(L, tL, tR, W):
            if tl >= 0 and l_ not in jset:
                k = (tl << _SHIFT) | a
                delta[k] = delta.get(k, 0) - w
            if tr >= 0:
                k = (b << _SHIFT) | tr
                delta[k] = delta.get(k, 0) - w
        for k, d in delta.items():
            pc[k] = pc.get(k, 0) + int(d)
        pc[key] = 0
        self.corpus_tokens -= int(sum(W))
        tok[P] = t
        tok[J] = -2
        nxt[P] = R
        prv[R] = P
        # born pairs: (l', t) at the new left neighbour unless it is another occurrence, (t, r) at pos
        pset = set(pos)
        NL = prv[P].tolist()
        tNL = tok[NL].tolist()
        tR2 = tok[nxt[P]].tolist()
        born: dict[int, list] = {}
        for p_, nl, tnl, tr, w in zip(pos, NL, tNL, tR2, W):
            if tnl >= 0 and nl not in pset:
                k = (tnl << _SHIFT) | t
                entry = born.get(k)
                if entry is None:
                    born[k] = [w, [nl]]
                else:
                    entry[0] += w
                    entry[1].append(nl)
            if tr >= 0:
                k = (t << _SHIFT) | tr
                entry = born.get(k)
                if entry is None:
                    born[k] = [w, [p_]]
                else:
                    entry[0] += w
                    entry[1].append(p_)
        heap = self.heap
        new_slots = self._new_slots
        for k, (w, slots) in born.items():
            cnt = pc.get(k, 0) + int(w)
            pc[k] = cnt
            heapq.heappush(heap, ((_MAXC - cnt) << _KEY_BITS) | k)
            arr = np.array(slots, dtype=np.int32)
            lst = new_slots.get(k)
            if lst is None:
                new_slots[k] = [arr]
            else:
                lst.append(arr)

    @classmethod
    def build(cls, cfg: TrainerConfig, word_counts: Counter) -> "_MergeState":
        import numpy as np

        st = cls()
        n = len(word_counts)
        st.unique_words = n
        counts = np.fromiter(word_counts.values(), dtype=np.int64, count=n)
        joined = "".join(word_counts)
        char_lens = np.fromiter(map(len, word_counts), dtype=np.int64, count=n)
        codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
        st.corpus_chars = int((char_lens * counts).sum())
        if cfg.mode == "byte":
            # UTF-8 length of every character, summed per word
            nbytes = 1 + (codes >= 0x80) + (codes >= 0x800) + (codes >= 0x10000)
            char_starts = np.concatenate(([0], np.cumsum(char_lens)[:-1]))
            lens = np.add.reduceat(nbytes, char_starts) if len(codes) else char_lens
            lens[char_lens == 0] = 0
            flat = np.frombuffer(joined.encode("utf-8"), dtype=np.uint8).astype(np.int64)
            st.tok_bytes = [bytes([i]) for i in range(256)]
            st.names = [display_bytes(x) for x in st.tok_bytes]
            st.next_id = 256
        else:
            lens = char_lens
            ends = np.cumsum(lens) - 1
            final = np.zeros(len(codes), dtype=np.int64)
            final[ends] = 1
            # a word-final character is its own symbol ("x</w>"): tag it above the Unicode range
            tagged = codes + (final << 21)
            uniq = np.unique(tagged)
            symbols = [chr(u & 0x1FFFFF) + (END_OF_WORD if u >> 21 else "") for u in uniq.tolist()]
            order = sorted(range(len(symbols)), key=symbols.__getitem__)
            # ids by sorted symbol string after <unk> = 0: deterministic, independent of corpus order
            id_of_uniq = np.empty(len(symbols), dtype=np.int64)
            id_of_uniq[np.array(order, dtype=np.int64)] = np.arange(1, len(symbols) + 1)
            flat = id_of_uniq[np.searchsorted(uniq, tagged)]
            st.base = [symbols[i] for i in order]
            st.names = ["<unk>"] + st.base
            st.tok_bytes = [b""] + [x.removesuffix(END_OF_WORD).encode("utf-8") for x in st.base]
            st.id_of_piece = {x: i for i, x in enumerate(st.names)}
            st.next_id = len(st.names)
        if len(flat) and int(flat.max()) >= _MASK:
            raise CorpusError("the corpus has more distinct symbols than tokviz's BPE supports (16.7 million)")
        total = len(flat)
        st.corpus_tokens = int((lens * counts).sum())
        sentinel = total
        # int32 slots and links halve the memory traffic of the gathers in every merge
        st.tok = np.concatenate((flat, [-1])).astype(np.int32)
        idx = np.arange(total + 1, dtype=np.int32)
        ends = np.cumsum(lens)
        starts = ends - lens
        nxt = idx + 1
        nxt[ends - 1] = sentinel
        nxt[sentinel] = sentinel
        prv = idx - 1
        prv[starts] = sentinel
        prv[sentinel] = sentinel
        st.nxt, st.prv = nxt, prv
        st.mark = np.zeros(total + 1, dtype=bool)  # scratch flags for O(k) de-duplication
        st.weight = np.concatenate((np.repeat(counts, lens), [0])).astype(np.float64)
        # every adjacent pair inside a word, weighted by the word's count, grouped by one stable sort
        left = np.flatnonzero(nxt[:total] != sentinel).astype(np.int32)
        if len(left):
            if cfg.mode == "byte":  # 16-bit keys: numpy sorts them with a radix sort
                small = ((flat[left] << 8) | flat[left + 1]).astype(np.uint16)
            else:
                small = (flat[left] << _SHIFT) | flat[left + 1]
            order = np.argsort(small, kind="stable")
            sk = small[order]
            group = np.concatenate(([0], np.flatnonzero(sk[1:] != sk[:-1]) + 1))
            u = sk[group].astype(np.int64)
            ukeys = ((u >> 8) << _SHIFT) | (u & 0xFF) if cfg.mode == "byte" else u
            st._pair_slots = left[order]
            st._starts = np.concatenate((group, [len(sk)]))
            st._keys = ukeys
            pcounts = np.add.reduceat(st.weight[st._pair_slots], group).astype(np.int64)
            klist = ukeys.tolist()
            clist = pcounts.tolist()
            st.pair_counts = dict(zip(klist, clist))
            st.heap = [((_MAXC - c) << _KEY_BITS) | k for k, c in zip(klist, clist)]
            heapq.heapify(st.heap)
        else:
            st._keys = np.zeros(0, dtype=np.int64)
            st._pair_slots = np.zeros(0, dtype=np.int32)
        return st


def _add_by_token(pc: dict, toks, weights, n_vocab: int, key_of, sign: int) -> list[int]:
    """``pc[key_of(x)] += sign * (sum of weights where toks == x)`` for every token x present;
    returns the keys touched. Sums by ``bincount`` over the vocabulary when that is cheaper than
    sorting (many occurrences), else by ``np.unique``."""
    import numpy as np

    if not len(toks):
        return []
    if len(toks) * 8 > n_vocab:
        sums = np.bincount(toks, weights=weights, minlength=n_vocab)
        present = np.flatnonzero(sums)
        xs = present.tolist()
        vals = sums[present].astype(np.int64).tolist()
    else:
        uk, inv = np.unique(toks, return_inverse=True)
        xs = uk.tolist()
        vals = np.bincount(inv, weights=weights).astype(np.int64).tolist()
    keys = []
    for x, v in zip(xs, vals):
        k = key_of(x)
        pc[k] = pc.get(k, 0) + sign * v
        keys.append(k)
    return keys


def _group_by_token(toks, slots, weight, n_vocab: int):
    """Yield ``(token, summed weight, slots)`` for each distinct value of ``toks`` (aligned with
    ``slots``). One stable sort; with fewer than 65,536 token ids numpy sorts 16-bit keys by radix."""
    import numpy as np

    if not len(toks):
        return
    keys = toks.astype(np.uint16) if n_vocab <= 0xFFFF else toks
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    bounds = np.concatenate(([0], np.flatnonzero(sk[1:] != sk[:-1]) + 1))
    sorted_slots = slots[order]
    sums = np.add.reduceat(weight[sorted_slots], bounds).astype(np.int64).tolist()
    b = bounds.tolist() + [len(sk)]
    for i, x in enumerate(sk[bounds].tolist()):
        yield x, sums[i], sorted_slots[b[i]: b[i + 1]]


def _non_overlapping(pos, nxt):
    """For a pair ``(a, a)``: in a run ``a a a`` only the first two merge (left to right), so drop
    every occurrence that starts on the right half of a kept one."""
    import numpy as np

    keep = []
    taken = -1
    nx = nxt[pos].tolist()
    for p, q in zip(pos.tolist(), nx):
        if p == taken:
            continue
        keep.append(p)
        taken = q
    return np.array(keep, dtype=np.int32)
