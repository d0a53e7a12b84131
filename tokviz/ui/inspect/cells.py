"""What the token view draws, computed off the GUI thread: every token of an Encoding as a cell of
segments (text, invisible-character markers, hex pieces of a cut character), the cells measured in the
view's fonts and wrapped into lines. Plain functions and data (QtGui only for font metrics), so the
Inspector's worker builds them for a big text while the GUI thread only places and paints.
"""

from __future__ import annotations

import bisect
from array import array
from dataclasses import dataclass
from typing import NamedTuple

from PySide6.QtGui import QFont, QFontMetricsF

from tokviz.core.display import Segment, piece_marker, piece_segments
from tokviz.core.encoding import Encoding, char_byte_starts
from tokviz.core.jamo_input import cut_jamo, reads_jamo, syllable_slots
from tokviz.ui import fonts

# Beyond this many tokens the view draws the first ones and says how many it left out; counts and
# byte layers still cover the whole text. Keeps a 5 MB paste from building millions of boxes.
MAX_DRAWN_TOKENS = 150_000

# How a piece's invisible characters are drawn (markers, joiners kept inside emoji) is core's display
# contract, shared with the CLI, the byte layers and the Train vocabulary.
char_marker = piece_marker
run_segments = piece_segments


class Cell(NamedTuple):
    """One drawn box: token ``token`` (index into the Encoding), or -1 for text no token covers.

    A NamedTuple: the worker makes 150,000 of them for a big text, and a tuple is made in C.
    """

    token: int
    start: int  # index of the first character the cell touches
    segments: tuple[Segment, ...]
    line_break: bool  # the covered text ends a line (newline): the next cell starts a new line


_new_cell = tuple.__new__


def token_cells(encoding: Encoding, limit: int = MAX_DRAWN_TOKENS) -> list[Cell]:
    """Drawable cells for the first ``limit`` tokens (plus gaps no token covers).

    A token of whole characters (most of them) is read straight from the Encoding's columns; one that
    cuts a character, covers no text or follows a gap goes through :func:`byte_cell`, which works it out
    from the bytes.

    >>> from tokviz.core.encoding import Encoding, char_byte_starts
    >>> enc = Encoding.from_byte_tokens("d", "안 a", [(1, b"\\xec\\x95"), (2, b"\\x88 a")])
    >>> [[(s.kind, s.text) for s in c.segments] for c in token_cells(enc)]
    [[('hex', 'EC 95')], [('hex', '88'), ('mark', '·'), ('text', 'a')]]
    """
    text = encoding.text
    n = min(len(encoding.tokens), limit)
    columns = [a[:n].tolist() for a in (encoding.byte_start_array, encoding.byte_end_array, encoding.start_array,
                                        encoding.end_array, encoding.partial_array)]
    if len(encoding.tokens) > limit and n:
        # only the characters up to the last drawn token matter (the text may be megabytes)
        text = text[: max(columns[3][-64:])]
    data = text.encode("utf-8", "surrogatepass")
    starts = char_byte_starts(text, data)
    cells: list[Cell] = []
    add = cells.append
    cache: dict[str, tuple[tuple[Segment, ...], bool]] = {}
    # a model that reads jamo cuts syllables between jamo: the cut part shows the jamo, not hex
    jamo = reads_jamo(encoding)
    cut_cells: dict[tuple[bytes, int], tuple[tuple[Segment, ...], bool]] = {}
    prev_byte_end = 0
    for ti, (bs, be, c0, c1, partial) in enumerate(zip(*columns, strict=True)):
        if bs > prev_byte_end:  # bytes no token covers (tokens with gaps)
            add(byte_cell(-1, text, data, starts, prev_byte_end, bs, cache))
        elif not partial and be > bs:  # whole characters [c0, c1): the common case
            run = text[c0:c1]
            got = cache.get(run)
            if got is None:
                got = cache[run] = run_segments(run)
            add(_new_cell(Cell, (ti, c0, got[0], got[1])))
            prev_byte_end = max(prev_byte_end, be)
            continue
        if be == bs:  # covers no text (SentencePiece's dummy prefix, a lone special)
            tok = encoding.tokens[ti]
            try:
                shown = tok.raw if tok.raw else (tok.bytes.decode("utf-8") or "∅")
                seg = Segment("mark", shown, 0)
            except UnicodeDecodeError:  # part of a jamo's bytes (byte-level BPE on jamo): as hex
                seg = Segment("hex", tok.bytes.hex(" ").upper(), 0)
            add(Cell(ti, c0, (seg,), False))
        elif jamo:  # a cut syllable shows the jamo it holds, which its bytes alone do not tell
            add(byte_cell(ti, text, data, starts, bs, be, cache, jamo))
        else:
            # a token cutting a character: its cell follows from its bytes and where its first byte
            # sits in its character, and natural text repeats its tokens (cl100k cuts every other
            # Hangul syllable), so each such token is worked out once
            c0 = bisect.bisect_right(starts, bs) - 1
            key = (data[bs:be], bs - starts[c0])
            got = cut_cells.get(key)
            if got is None:
                cell = byte_cell(ti, text, data, starts, bs, be, cache)
                cut_cells[key] = (cell.segments, cell.line_break)
                add(cell)
            else:
                add(_new_cell(Cell, (ti, c0, got[0], got[1])))
        prev_byte_end = max(prev_byte_end, be)
    if len(encoding.tokens) <= limit and prev_byte_end < len(data):
        add(byte_cell(-1, text, data, starts, prev_byte_end, len(data), cache))
    return cells


def _cut(text: str, data: bytes, starts, c: int, bs: int, be: int, jamo: bool) -> str:
    """What a token shows of character ``c`` it holds the bytes ``[bs, be)`` of: their hex, or for a
    syllable cut between its jamo (a model reading jamo) the jamo it holds."""
    if jamo and syllable_slots(text[c]):
        return cut_jamo(text[c], bs - starts[c], be - starts[c])
    return data[bs:be].hex(" ").upper()


def byte_cell(ti: int, text: str, data: bytes, starts, bs: int, be: int, cache: dict, jamo: bool = False) -> Cell:
    """The cell of token ``ti`` (-1: a gap no token covers) over bytes ``[bs, be)``, worked out from the
    bytes: the general path, for a token that cuts a character, covers no text or follows a gap."""
    c0 = c = bisect.bisect_right(starts, bs) - 1
    head: Segment | None = None
    if starts[c] < bs:  # the token starts inside character c
        head = Segment("hex", _cut(text, data, starts, c, bs, min(be, starts[c + 1]), jamo), 0)
        c += 1
    e = bisect.bisect_right(starts, be) - 1  # characters [c, e) lie wholly inside the token
    tail = e < len(text) and starts[e] < be and e >= c
    inner: tuple[Segment, ...] = ()
    line_break = False
    if e > c:
        # Natural text repeats its tokens (Zipf): the same run of characters gets the same segments.
        run = text[c:e]
        got = cache.get(run)
        if got is None:
            got = cache[run] = run_segments(run)
        inner, line_break = got
        if c != c0:
            inner = tuple(Segment(sg.kind, sg.text, sg.char + 1) for sg in inner)
    if head is None and not tail:
        return Cell(ti, c0, inner, line_break)
    segs = ([head] if head else []) + list(inner)
    if tail:  # the token ends inside character e
        segs.append(Segment("hex", _cut(text, data, starts, e, max(bs, starts[e]), be, jamo), e - c0))
    return Cell(ti, c0, tuple(segs), line_break)


def view_fonts() -> tuple[QFont, QFont, QFont]:
    """The token view's fonts at the current scale: token text, hex pieces, cut-character labels."""
    # cut-character labels (👨 over F0 9F | 91 A8) at 13 pt: they must read from the back of a room
    return fonts.mono_font(15), fonts.mono_font(11), fonts.ui_font(13)


class CellPositions:
    """(line, x, width) of every cell, kept in flat arrays: freeing 150,000 tuples of floats when
    the next result replaces them cost the GUI thread ~50 ms; arrays free at once."""

    __slots__ = ("line", "x", "w")

    def __init__(self, widths) -> None:
        self.line = array("i")
        self.x = array("d")
        self.w = widths

    def __getitem__(self, i: int) -> tuple[int, float, float]:
        return self.line[i], self.x[i], self.w[i]

    def __len__(self) -> int:
        return len(self.line)


@dataclass
class CellLayout:
    """Cells wrapped into lines for a viewport ``width`` in ``mode`` (built by the encoding worker so
    that the GUI thread does not spend ~0.1-0.2 s wrapping 150,000 cells after each result)."""

    width: int
    mode: str
    pos: CellPositions
    line_first: list[int]  # first cell index of every line
    token_cell: dict[int, int]  # token index -> its cell


CELL_GAP = 4  # between two cells on a line
MARGIN = 10  # around the cells in the viewport


def wrap_cells(
    cells: list[Cell], widths: list[float], viewport_width: int, mode: str, token_cell: dict[int, int] | None = None
) -> CellLayout:
    """Place ``cells`` of ``widths`` on lines of the viewport (plain Python, thread-safe);
    ``token_cell`` is reused when the cells are the same (a resize)."""
    avail = max(200.0, viewport_width - 2 * MARGIN)
    pos = CellPositions(widths)
    add_line, add_x = pos.line.append, pos.x.append
    line_first = [0]
    line = 0
    x = 0.0
    last = len(cells) - 1
    for i, (cell, w) in enumerate(zip(cells, widths, strict=False)):
        if x > 0 and x + w > avail:
            line += 1
            line_first.append(i)
            x = 0.0
        add_line(line)
        add_x(x)
        x += w + CELL_GAP
        if cell.line_break and i < last:
            line += 1
            line_first.append(i + 1)
            x = 0.0
    if token_cell is None:
        token_cell = {c.token: i for i, c in enumerate(cells) if c.token >= 0}
    return CellLayout(viewport_width, mode, pos, line_first if cells else [], token_cell)


class CellMeasure:
    """Cell widths in the view's fonts. QFontMetricsF is reentrant, so the encoding worker measures
    the cells of a big text in its own thread and the GUI thread only places them."""

    PAD = 6  # inside a cell, left and right
    SEG_GAP = 2  # between the segments of a cell

    def __init__(self, text_font: QFont, hex_font: QFont):
        self.tfm = QFontMetricsF(text_font)
        self.hfm = QFontMetricsF(hex_font)
        self._cache: dict[tuple[str, str], float] = {}

    def segment(self, kind: str, text: str) -> float:
        key = (kind, text)
        w = self._cache.get(key)
        if w is None:
            w = self.hfm.horizontalAdvance(text) + 8 if kind == "hex" else self.tfm.horizontalAdvance(text)
            self._cache[key] = w
        return w

    def widths(self, cells: list[Cell]) -> array:
        """Width of each cell showing its text."""
        seg, pad, gap = self.segment, 2 * self.PAD, self.SEG_GAP
        # token_cells gives cells of the same piece one shared segments tuple: each distinct tuple is
        # measured once (the cells keep every tuple alive meanwhile, so no id is reused here)
        by_piece: dict[int, float] = {}

        def width(segs) -> float:
            w = by_piece[id(segs)] = sum(seg(s.kind, s.text) for s in segs) + gap * (len(segs) - 1) + pad
            return w

        get = by_piece.get
        return array("d", [get(id(c.segments)) or width(c.segments) for c in cells])

    def id_widths(self, cells: list[Cell], encoding: Encoding) -> array:
        """Width of each cell showing its token id."""
        seg, pad = self.segment, 2 * self.PAD
        last = max((c.token for c in cells[-64:]), default=-1)
        ids = encoding.id_array[: last + 1].tolist()  # one list in C, not a Token object per cell
        return array(
            "d",
            [
                seg("text", str(ids[c.token])) + pad
                if c.token >= 0
                else sum(seg(s.kind, s.text) for s in c.segments) + pad
                for c in cells
            ],
        )


def shown_char(ch: str) -> str:
    """``ch`` as the view draws it on its own: its marker when it is invisible."""
    return char_marker(ch) or ch
