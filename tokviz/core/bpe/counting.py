"""Counting a corpus for BPE: the unique words (char mode) or pre-split pieces (byte mode) with their counts.

The corpus is read in chunks of about 64K characters. Char mode splits on whitespace; byte mode
pre-splits with the regex pattern. Only *unique* words are kept, with their counts
(``collections.Counter`` in C): 150k Korean reviews give ~350k unique words. Feeding the corpus as
lines (each ending with ``\\n``) is the same as feeding it as one document: byte mode only cuts the
text between chunks where no pattern's piece can cross (see ``_safe_cuts``), and checks that a
piece really ends there. With pattern ``"none"`` each line (with its newline) is one piece.

A big corpus is counted on two cores: a helper process takes the chunks it has room for (see
:mod:`~tokviz.core.bpe.counting_process`, which says from what size and why), and the two Counters
are summed at the end, which gives exactly the one-process counts.

The distinct words are capped (:class:`~tokviz.core.word_counts.WordSample`): each process samples
its own table the same deterministic way and the two are combined at the lower threshold, so a
corpus of mostly unique words gives the same sample however the chunks were shared.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator

import regex

from tokviz.core.bpe import counting_process
from tokviz.core.bpe.corpus import LinePart, line_pieces
from tokviz.core.bpe.counting_process import _NON_SPACE, _pieces_before_cut
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.model import HANGUL_DROP, pattern_regex
from tokviz.core.errors import CorpusError
from tokviz.core.jamo import decompose_lines
from tokviz.core.training import Progress
from tokviz.core.word_counts import CountingNote, WordSample

# Pre-split and count the corpus in ~64K-character chunks: regex's findall and Counter.update hold
# the GIL for a whole chunk, and 1M-character chunks stalled the GUI thread for 100-500 ms while
# counting (benchmarks/gui_stall.py); 64K keeps each hold short and costs nothing measurable.
_CHUNK_CHARS = 1 << 16
_PROGRESS_INTERVAL = 0.05  # at most ~20 Progress events per second
_HELPER_TAIL_BYTES = 2 << 20
_ADD_SLICE = 1 << 16  # helper counts added between two progress reports


def count_corpus(cfg: TrainerConfig, lines: Iterable[str], counts: Counter, cancelled: Callable[[], bool],
                 total_bytes: int | None, *, helper_process: bool = True,
                 sample: WordSample | None = None) -> Iterator[Progress | CountingNote | None]:
    """Fill ``counts`` with unique words (char mode) or pre-split pieces (byte mode) of ``lines``.
    Yields throttled Progress, and None when cancelled (then stops). ``helper_process=False``
    counts in this process only, in short chunks (for counting in one of the app's threads).
    The distinct words are capped by ``sample`` (a new WordSample when None); a CountingNote after
    the last Progress says when it dropped some.

    With ``cfg.jamo`` the words are counted as given (the trainer decomposes the distinct ones),
    except with a ``keep`` filter: it drops conjoining jamo, so the text is decomposed before it."""
    sample = sample if sample is not None else WordSample()
    if cfg.jamo and cfg.keep is not None:
        lines = decompose_lines(lines)
    run = _CountingRun(cfg, counts, sample, cancelled, total_bytes, helper_process)
    events = run.events(lines)
    try:
        for event in events:
            yield event
            if event is None:
                return
    finally:
        events.close()
        run.close()


def _chunk_counter(cfg: TrainerConfig, counts: Counter) -> Callable[[str, bool], str]:
    """``count_chunk(text, final)``: adds the words or pieces of ``text`` to ``counts`` up to the last
    place where none can go on (all of it when ``final``) and returns the rest."""
    hangul = cfg.keep == "hangul"
    if cfg.mode == "char":

        def count_chunk(text: str, final: bool) -> str:
            if hangul:
                text = HANGUL_DROP.sub("", text)
            cut = len(text) if final else _last_space_end(text)
            counts.update(text[:cut].split())
            return text[cut:]  # a word still going on (a long line handed on in parts)

        return count_chunk
    rx = pattern_regex(cfg.pattern)
    if rx is None:  # "none": each line is one piece (a whole corpus as one piece is useless)

        def count_lines(text: str, final: bool) -> str:
            if hangul:
                text = HANGUL_DROP.sub("", text)
            cut = len(text) if final else text.rfind("\n") + 1
            counts.update(text[:cut].splitlines(keepends=True))
            return text[cut:]  # a line still going on

        return count_lines
    findall = rx.findall

    def count_pieces(text: str, final: bool) -> str:
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

    return count_pieces


def _helper_share(cfg: TrainerConfig) -> Callable[[str], tuple[str, int | None, int] | None] | None:
    """``split_off(text)``: the helper process's share of a chunk, (text before a cut found without
    splitting the chunk, the cut the helper must check in byte mode, the cut), or None when the chunk
    has no such place. None when no helper may count beside: the Hangul filter runs before a cut is
    chosen, so that stays one process."""
    if cfg.keep is not None:
        return None
    if cfg.mode == "char":

        def split_off(text: str):
            cut = _last_space_end(text)
            return (text[:cut], None, cut) if cut else None

        return split_off
    if pattern_regex(cfg.pattern) is None:

        def split_off_lines(text: str):
            cut = text.rfind("\n") + 1
            return (text[:cut], None, cut) if cut else None

        return split_off_lines

    def split_off_pieces(text: str):
        # Only rule B: no piece of any of our patterns crosses a single space between two
        # non-spaces, so the cut needs no splitting here. Rule A is not for every pattern
        # (gpt2's `\s+(?!\S)` takes "\n " before an indented line), and here a cut that is no
        # piece end could not be taken back; the helper still checks the cut.
        m = _SPACE_CUT.search(text, max(0, len(text) - 2 * _CHUNK_CHARS))
        if m is None:
            return None
        cut = m.start()
        seen = _NON_SPACE.search(text, cut).end()  # the helper splits a little past the cut
        return text[:seen], cut, cut

    return split_off_pieces


class _CountingRun:
    """One run of :func:`count_corpus`: the bytes counted so far, the helper process (once it pays)
    and when progress was last reported. Its generators yield None on a cancel, after which the
    caller stops them."""

    def __init__(self, cfg: TrainerConfig, counts: Counter, sample: WordSample, cancelled: Callable[[], bool],
                 total_bytes: int | None, helper_process: bool):
        self.cfg, self.counts, self.sample, self.cancelled = cfg, counts, sample, cancelled
        self.total_bytes = total_bytes
        self.count_chunk = _chunk_counter(cfg, counts)
        self.split_off = _helper_share(cfg)
        self.helper_ok = helper_process and self.split_off is not None and counting_process.helper_allowed()
        # sampled until the first chunk is counted
        self.idle = counting_process.IdleCores() if self.helper_ok else None
        self.helper: counting_process.CountingHelper | None = None
        self.whole_items = [False]  # set once a helper counts beside: then the items go on uncut
        self.done_bytes = 0
        self.last_report = 0.0
        self.first_chunk = True

    def close(self) -> None:
        if self.helper is not None:
            self.helper.close()

    def _progress_due(self) -> bool:
        now = time.monotonic()
        if now - self.last_report >= _PROGRESS_INTERVAL:
            self.last_report = now
            return True
        return False

    def events(self, lines: Iterable[str]) -> Iterator[Progress | CountingNote | None]:
        """Count ``lines`` a buffer at a time, then the rest and the helper's counts."""
        buf: list[str] = []
        buf_chars = 0
        limit = _CHUNK_CHARS  # count when the buffer holds this much
        fresh = 0  # characters taken in since the last cancel check
        pending: str | None = None
        yield Progress("counting", 0, self.total_bytes)
        for line in _pieces(lines, self.whole_items):
            if pending is not None:
                if not pending.endswith("\n") and type(pending) is not LinePart:
                    pending += "\n"
                buf.append(pending)
                buf_chars += len(pending)
                fresh += len(pending)
            pending = line
            if fresh >= _CHUNK_CHARS:
                fresh = 0
                if self.cancelled():
                    yield None
                    return
            if buf_chars >= limit:
                rest = yield from self._count_block("".join(buf))
                buf = [rest] if rest else []
                buf_chars = len(rest)
                # A text with no safe cut (a long line of CJK without spaces, \r-only line ends)
                # keeps its whole buffer: try again only once it has doubled, so the re-joining and
                # re-scanning stay linear overall instead of quadratic.
                limit = max(_CHUNK_CHARS, 2 * buf_chars)
                if self._progress_due():
                    yield Progress("counting", self.done_bytes, self.total_bytes)
        if pending is not None:
            buf.append(pending)
        yield from self._finish(buf)

    def _count_block(self, text: str) -> Generator[Progress | None, None, str]:
        """Count a full buffer, here or partly in the helper; returns the uncounted rest."""
        self.done_bytes += _utf8_len(text)
        if self.helper_ok and not self.first_chunk:  # decided once the first chunk is counted
            self._start_helper_if_it_pays()
        self.first_chunk = False
        # the last ~2 MB stay here: the helper would still be busy with them when this ends
        total = self.total_bytes
        near_end = total is not None and total - self.done_bytes < _HELPER_TAIL_BYTES
        helper = self.helper
        share = self.split_off(text) if helper is not None and not near_end and helper.has_room() else None
        if share is not None:
            head, check, cut = share
            helper.give(head, check)
            rest = text[cut:]
        else:
            rest = yield from self._count_here(text)
        if rest:
            self.done_bytes -= _utf8_len(rest)
        return rest

    def _start_helper_if_it_pays(self) -> None:
        known = self.total_bytes if self.total_bytes is not None else self.done_bytes
        if counting_process.helper_pays(known, self.idle):
            self.helper_ok = False
            try:
                self.helper = counting_process.CountingHelper(self.cfg.mode, self.cfg.pattern, self.sample.cap)
                self.whole_items[0] = True  # the helper is fed a message per chunk: big ones
            except OSError:
                self.helper = None  # no second process here: count in this one
        elif self.total_bytes is not None:
            self.helper_ok = False  # a known size: decided (an unknown one may still grow)

    def _count_here(self, text: str) -> Generator[Progress | None, None, str]:
        """A whole block the helper had no room for: counted here in chunk-sized pieces, with
        progress and a cancel check between them (a 1 MB block took over a second at once)."""
        pieces = _count_in_pieces(self.count_chunk, text)
        while True:
            try:
                next(pieces)
            except StopIteration as stop:
                rest = stop.value
                break
            if self._progress_due():
                yield Progress("counting", self.done_bytes, self.total_bytes)
            if self.cancelled():
                yield None
                return ""
        if self.sample.full(self.counts):
            for _ in self.sample.prune_steps(self.counts):
                yield Progress("counting", self.done_bytes, self.total_bytes)
                if self.cancelled():
                    yield None
                    return ""
        return rest

    def _finish(self, buf: list[str]) -> Iterator[Progress | CountingNote | None]:
        """Count the last of the text, add the helper's counts, cap the words; the note at the end."""
        if buf:
            if self.cancelled():
                yield None
                return
            text = "".join(buf)
            self.done_bytes += _utf8_len(text)
            self.count_chunk(text, True)
        # every long step from here on yields between its slices: a Progress, then a cancel check
        if self.helper is not None:
            ticking = _tick_steps(self.helper, self.counts, self.sample, self.cancelled)
        else:
            ticking = self.sample.finish_steps(self.counts)
        for _ in ticking:
            yield Progress("counting", self.done_bytes, self.total_bytes)
            if self.cancelled():
                yield None
                return
        total = self.total_bytes
        yield Progress("counting", self.done_bytes, total if total is not None else self.done_bytes)
        note = self.sample.note(len(self.counts))
        if note is not None:
            yield note


def _count_in_pieces(count_chunk: Callable[[str, bool], str], text: str) -> Generator[None, None, str]:
    """``count_chunk(text, False)`` done a chunk at a time, yielding between chunks; returns the
    uncounted rest. Each piece's own rest (a word or piece still going on) leads the next piece, as
    the streaming buffer does, so the counts are the same. A text without a safe cut for a while is
    counted in one call from there on, so nothing is rescanned more than a few times."""
    rest = ""
    at = 0
    while at < len(text):
        if len(rest) > 4 * _CHUNK_CHARS:
            return count_chunk(rest + text[at:], False)
        rest = count_chunk(rest + text[at: at + _CHUNK_CHARS], False)
        at += _CHUNK_CHARS
        if at < len(text):
            yield
    return rest


def _tick_steps(helper: counting_process.CountingHelper, counts: Counter, sample: WordSample,
                cancelled: Callable[[], bool]) -> Iterator[None]:
    """Wait for the helper's counts and add them to ``counts``, both sampled alike; yields while it
    waits and between slices of the work (a sampled table of a million words took seconds)."""
    reply = yield from helper.counts_steps(cancelled)
    if reply is None:
        return  # cancelled: the caller sees it at its next check
    more, shift = reply
    # both tables at the lower threshold before adding, so the sum never holds words either drops
    sample.absorb(shift)
    yield from sample.finish_steps(counts)
    yield from sample.finish_steps(more)
    items = list(more.items())
    del more
    for a in range(0, len(items), _ADD_SLICE):
        counting_process.add_counts(counts, dict(items[a:a + _ADD_SLICE]))
        yield
    del items
    yield from sample.finish_steps(counts)


def _pieces(lines: Iterable[str], whole: list[bool]) -> Iterator[str]:
    """The items of ``lines``, each long one (a reader's megabyte block) in chunk-sized pieces that
    read as the same text: a chunk of a whole block held the GIL for 0.1-0.3 s in findall, which
    stalled the GUI thread when counting runs in one of the app's threads. Once ``whole[0]`` is set
    (a helper process counts beside), items go on whole: each chunk is a message to the helper, and
    small ones left it waiting for the next (counting NSMC took 1.5-2.2 s instead of 1.1 s)."""
    for line in lines:
        if whole[0] or len(line) <= _CHUNK_CHARS:
            yield line
        else:
            yield from line_pieces(line, _CHUNK_CHARS)


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
_SPACE_CUT = regex.compile(r"(?r)(?<=\S) (?=\S)")  # rule B alone, last first


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


def _last_space_end(text: str) -> int:
    """Index just past the last whitespace character of ``text`` (0 if none): char mode counts
    words up to there and keeps the unfinished word for the next chunk.

    >>> _last_space_end("ab cd"), _last_space_end("ab cd "), _last_space_end("abc")
    (3, 6, 0)
    """
    m = _LAST_SPACE.search(text)
    return m.end() if m else 0


_LAST_SPACE = regex.compile(r"(?r)\s")
