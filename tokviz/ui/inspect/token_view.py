"""The token view: every token of an Encoding as a coloured box, laid out like running text.

What is drawn comes from :func:`token_cells`, a plain function (no Qt) the Inspector's worker thread
runs, so that splitting a 100k-character text into drawable pieces never blocks the GUI. The widget
then only measures and places the cells (widths cached per string) and paints the lines that are
visible.

A token that holds only part of a character (cl100k splits 안 = EC 95 88 into ``EC 95`` | ``88``)
shows those bytes as hex pieces, and the character they belong to is drawn above the pieces with a
bracket, so one sees the character cut in two, never a replacement character.
"""

from __future__ import annotations

import bisect
from array import array
import unicodedata
from dataclasses import dataclass

import regex

from PySide6.QtCore import QCoreApplication, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from tokviz.core.encoding import Encoding, char_byte_starts
from tokviz.core.unicode import invisible_marker
from tokviz.ui import fonts
from tokviz.ui.token_colors import text_color_on, token_marks

# Beyond this many tokens the view draws the first ones and says how many it left out; counts and
# byte layers still cover the whole text. Keeps a 5 MB paste from building millions of boxes.
MAX_DRAWN_TOKENS = 150_000

# Characters that only make sense joined to their neighbour (emoji ZWJ sequences, presentation
# selectors, skin tones): inside a token after a visible character they are drawn as text so the
# emoji renders as one picture; alone they get a marker.
_JOINERS = {"\u200d", "\ufe0f", "\ufe0e"} | {chr(c) for c in range(0x1F3FB, 0x1F400)}


def char_marker(ch: str) -> str | None:
    """The visible stand-in for an invisible character (space ·, tab →, newline ↵, ZWJ, BOM, NUL ...).

    >>> char_marker(" "), char_marker("a"), char_marker("\\x00")
    ('·', None, '⟨NUL⟩')
    """
    marker = invisible_marker(ch)
    if marker is not None:
        return marker
    # the core marks controls, spaces and format characters; what is left without a glyph is a
    # private-use, surrogate or unassigned code point
    if unicodedata.category(ch) in ("Co", "Cs", "Cn"):
        return f"⟨{ord(ch):04X}⟩"
    return None


@dataclass(frozen=True, slots=True)
class Segment:
    """A run inside a cell: ``text`` (whole characters), ``mark`` (a marker for an invisible
    character) or ``hex`` (the bytes of a character cut by a token boundary). ``char`` is the offset
    of the (first) character the run belongs to from the cell's first character (so that equal runs
    of text share their segments)."""

    kind: str
    text: str
    char: int


@dataclass(frozen=True, slots=True)
class Cell:
    """One drawn box: token ``token`` (index into the Encoding), or -1 for text no token covers."""

    token: int
    start: int  # index of the first character the cell touches
    segments: tuple[Segment, ...]
    line_break: bool  # the covered text ends a line (newline): the next cell starts a new line


def token_cells(encoding: Encoding, limit: int = MAX_DRAWN_TOKENS) -> list[Cell]:
    """Drawable cells for the first ``limit`` tokens (plus gaps no token covers).

    >>> from tokviz.core.encoding import Encoding, char_byte_starts
    >>> enc = Encoding.from_byte_tokens("d", "안 a", [(1, b"\\xec\\x95"), (2, b"\\x88 a")])
    >>> [[(s.kind, s.text) for s in c.segments] for c in token_cells(enc)]
    [[('hex', 'EC 95')], [('hex', '88'), ('mark', '·'), ('text', 'a')]]
    """
    text = encoding.text
    drawn = encoding.tokens[:limit]
    if len(encoding.tokens) > limit and drawn:
        # only the characters up to the last drawn token matter (the text may be megabytes)
        text = text[:max(t.end for t in drawn[-64:])]
    data = text.encode("utf-8", "surrogatepass")
    starts = char_byte_starts(text, data)
    cells: list[Cell] = []
    cache: dict[str, tuple[tuple[Segment, ...], bool]] = {}
    prev_byte_end = 0
    for ti, tok in enumerate(drawn):
        if tok.byte_start > prev_byte_end:  # bytes no token covers (tokens with gaps)
            cells.append(_cell(-1, text, data, starts, prev_byte_end, tok.byte_start, cache))
        if tok.byte_end == tok.byte_start:  # covers no text (SentencePiece's dummy prefix, a lone special)
            shown = tok.raw if tok.raw else (tok.bytes.decode("utf-8", "replace") or "∅")
            cells.append(Cell(ti, tok.start, (Segment("mark", shown, 0),), False))
        else:
            cells.append(_cell(ti, text, data, starts, tok.byte_start, tok.byte_end, cache))
        prev_byte_end = max(prev_byte_end, tok.byte_end)
    if len(encoding.tokens) <= limit and prev_byte_end < len(data):
        cells.append(_cell(-1, text, data, starts, prev_byte_end, len(data), cache))
    return cells


# Characters that may need a marker (a superset: char_marker decides). Scanning with one regex keeps
# the per-character work in C, so a 100k-token text is split into cells in about a second.
_MAYBE_INVISIBLE = regex.compile(
    r"[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Co}\p{Cs}\p{Cn}\u115f\u1160\u3164\uffa0\ufe00-\ufe0f"
    r"\U000e0100-\U000e01ef]"
)


def run_segments(run: str) -> tuple[tuple[Segment, ...], bool]:
    """Segments of whole characters ``run`` (offsets relative to the run) and whether it ends a line.

    The one place that decides how a piece's invisible characters are drawn (the token view, the
    byte layers' token row and the vocabulary table all use it): markers for spaces, newlines,
    ZWJ and the like, except joiners right after visible text of the same run, which stay text so
    that an emoji ZWJ sequence renders as one picture.

    >>> "".join(s.text for s in run_segments(" a\\n")[0]), run_segments(" a\\n")[1]
    ('·a↵', True)
    """
    segs: list[Segment] = []
    pos = 0
    line_break = False
    for m in _MAYBE_INVISIBLE.finditer(run):
        i = m.start()
        ch = run[i]
        joined = ch in _JOINERS and i > pos  # right after visible text of this token
        marker = None if joined else char_marker(ch)
        if marker is None:
            continue  # stays part of the surrounding text run
        if i > pos:
            segs.append(Segment("text", run[pos:i], pos))
        segs.append(Segment("mark", marker, i))
        if ch == "\n":
            line_break = True
        pos = i + 1
    if pos < len(run):
        segs.append(Segment("text", run[pos:], pos))
    return tuple(segs), line_break


def _cell(ti: int, text: str, data: bytes, starts, bs: int, be: int, cache: dict) -> Cell:
    c0 = c = bisect.bisect_right(starts, bs) - 1
    head: Segment | None = None
    if starts[c] < bs:  # the token starts inside character c
        head = Segment("hex", data[bs:min(be, starts[c + 1])].hex(" ").upper(), 0)
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
        segs.append(Segment("hex", data[max(bs, starts[e]):be].hex(" ").upper(), e - c0))
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


def wrap_cells(cells: list[Cell], widths: list[float], viewport_width: int, mode: str,
               token_cell: dict[int, int] | None = None) -> CellLayout:
    """Place ``cells`` of ``widths`` on lines of the viewport (plain Python, thread-safe);
    ``token_cell`` is reused when the cells are the same (a resize)."""
    avail = max(200.0, viewport_width - 2 * MARGIN)
    pos = CellPositions(widths)
    add_line, add_x = pos.line.append, pos.x.append
    line_first = [0]
    line = 0
    x = 0.0
    last = len(cells) - 1
    for i, (cell, w) in enumerate(zip(cells, widths)):
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
        return array("d", [sum(seg(s.kind, s.text) for s in c.segments) + gap * (len(c.segments) - 1) + pad for c in cells])

    def id_widths(self, cells: list[Cell], encoding: Encoding) -> array:
        """Width of each cell showing its token id."""
        seg, pad, toks = self.segment, 2 * self.PAD, encoding.tokens
        return array("d", [seg("text", str(toks[c.token].id)) + pad if c.token >= 0 else
                           sum(seg(s.kind, s.text) for s in c.segments) + pad for c in cells])


def token_char_parts(encoding: Encoding, index: int) -> list[tuple[int, bool]]:
    """(character index, wholly inside the token?) for every character token ``index`` touches.

    >>> from tokviz.core.encoding import Encoding, char_byte_starts
    >>> enc = Encoding.from_byte_tokens("d", "a안", [(1, b"a\\xec"), (2, b"\\x95\\x88")])
    >>> token_char_parts(enc, 0), token_char_parts(enc, 1)
    ([(0, True), (1, False)], [(1, False)])
    """
    t = encoding.tokens[index]
    text = encoding.text
    pos = len(text[:t.start].encode("utf-8", "surrogatepass"))  # C speed, even deep in a big text
    out = []
    for c in range(t.start, t.end):
        n = len(text[c].encode("utf-8", "surrogatepass"))
        out.append((c, t.byte_start <= pos and pos + n <= t.byte_end))
        pos += n
    return out


def _shown(ch: str) -> str:
    return char_marker(ch) or ch


def partial_piece(encoding: Encoding, index: int) -> str:
    """A token that cuts a character, in words: ``' ' + part of 👋``."""
    parts: list[str] = []
    run = ""
    for c, whole in token_char_parts(encoding, index):
        if whole:
            run += encoding.text[c]
            continue
        if run:
            parts.append(repr(run))
            run = ""
        parts.append(QCoreApplication.translate("TokenView", "part of {char}").format(char=_shown(encoding.text[c])))
    if run:
        parts.append(repr(run))
    return " + ".join(parts)


def describe_token(encoding: Encoding, index: int) -> str:
    """The hover text of token ``index``: id, bytes in hex, piece, byte and character span."""
    t = encoding.tokens[index]
    lines = [QCoreApplication.translate("TokenView", "token {n} of {total} · id {id}").format(n=index + 1, total=len(encoding.tokens), id=t.id)
             + (f" · {t.kind}" if t.kind != "normal" else "")]
    hex_bytes = t.bytes.hex(" ").upper() or QCoreApplication.translate("TokenView", "(none)")
    lines.append((QCoreApplication.translate("TokenView", "bytes: {hex}  ({n} byte)") if len(t.bytes) == 1 else
                  QCoreApplication.translate("TokenView", "bytes: {hex}  ({n} bytes)")).format(hex=hex_bytes, n=len(t.bytes)))
    piece = t.piece
    if piece is not None:
        lines.append(QCoreApplication.translate("TokenView", "piece: {piece}").format(piece=repr(piece)))
    else:
        cut = [c for c, whole in token_char_parts(encoding, index) if not whole]
        chars = ", ".join(f"{_shown(encoding.text[c])} U+{ord(encoding.text[c]):04X}" for c in cut)
        lines.append(QCoreApplication.translate("TokenView", "piece: {piece}").format(piece=partial_piece(encoding, index)))
        lines.append(QCoreApplication.translate("TokenView", "cuts {chars}").format(chars=chars))
    if t.raw is not None:
        lines.append(QCoreApplication.translate("TokenView", "raw piece: {raw}").format(raw=repr(t.raw)))
    lines.append(QCoreApplication.translate("TokenView", "byte span: [{byte_start}, {byte_end})  char span: [{start}, {end})").format(
        byte_start=t.byte_start, byte_end=t.byte_end, start=t.start, end=t.end))
    return "\n".join(lines)


class TokenView(QAbstractScrollArea):
    """Tokens as coloured boxes; hover for details, click to select (shift-click extends)."""

    selectionChanged = Signal(int, int)  # first and last selected token index (-1, -1: none)
    # the width changed and there are more than ``inline_layout_limit`` cells: the owner lays them
    # out off the GUI thread (wrap_cells) and calls set_cells; meanwhile the old lines stay
    layoutWanted = Signal()

    MARGIN = MARGIN
    CELL_GAP = CELL_GAP
    PAD = 6

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.encoding: Encoding | None = None
        self.cells: list[Cell] = []
        self.colors: list[QColor] = []
        self.mode = "text"  # or "ids"
        self.dark = False
        self._token_cell: dict[int, int] = {}
        self._sel: tuple[int, int] | None = None
        self._anchor: int | None = None
        self._placeholder = self.tr("Type or paste text to see its tokens.")
        self._widths: list[float] = []
        self._id_widths: list[float] = []
        self._pos: CellPositions | list = []  # per cell: line, x, width
        self._line_first: list[int] = []  # first cell index of every line
        self._hover_cell = -1
        self.inline_layout_limit: int | None = None  # None: always lay out here
        self._update_fonts()

    # ---- data -------------------------------------------------------------------------------
    def set_cells(self, encoding: Encoding | None, cells: list[Cell], colors: list[QColor], *, dark: bool = False,
                  widths: tuple[list[float], list[float]] | None = None, marks: list[bool] | None = None,
                  layout: CellLayout | None = None, measured_with: tuple | None = None) -> None:
        """Show ``cells`` (from :func:`token_cells`) of ``encoding`` with the per-token ``colors``.

        ``widths`` (text widths, id widths) measured with :class:`CellMeasure` on :func:`view_fonts`
        elsewhere (the worker) saves measuring here; without it the view measures. ``marks``
        (:func:`token_marks`, outlined tokens) and ``layout`` (:func:`wrap_cells` for this view's
        width and mode) likewise. ``measured_with`` names the (text, hex) fonts the widths were
        measured in: when the view's fonts changed since (a zoom while the worker was measuring),
        the widths and layout are dropped and the view measures again."""
        self.encoding = encoding
        self.cells = cells
        self.colors = colors
        if marks is None or len(marks) != len(colors):
            marks = token_marks(encoding.ids[:len(colors)]) if encoding is not None else []
        self.marks = marks
        self.dark = dark
        if measured_with is not None and tuple(measured_with) != (self._text_font, self._hex_font):
            widths = layout = None  # measured at another font scale: boxes would not fit their text
        if widths is None or len(widths[0]) != len(cells):
            widths = (self._measure.widths(cells), self._measure.id_widths(cells, encoding) if encoding else [])
        self._widths, self._id_widths = widths
        if self._sel is not None and (encoding is None or self._sel[1] >= len(encoding.tokens)):
            self._sel = None
        if layout is not None and layout.mode == self.mode and len(layout.pos) == len(cells) and (
                layout.width == self.viewport().width() or self._lays_out_elsewhere()):
            self._apply_layout(layout)
            if layout.width != self.viewport().width():
                self.layoutWanted.emit()  # resized while the worker laid out: once more for this width
        else:
            self._relayout(new_cells=True)

    def set_placeholder(self, text: str) -> None:
        self._placeholder = text
        self.viewport().update()

    def set_mode(self, mode: str) -> None:
        """``"text"`` shows each token's text, ``"ids"`` its id."""
        if mode not in ("text", "ids"):
            raise ValueError(mode)
        self.mode = mode
        self._relayout()

    def refresh_fonts_only(self) -> None:
        """New fonts for painting; the widths come with the next :meth:`set_cells`."""
        self._update_fonts()
        self.viewport().update()

    def refresh_fonts(self) -> None:
        """Font scale changed: measure again (callers with a big text re-encode instead, see set_cells)."""
        self._update_fonts()
        if self.encoding is not None:
            self._widths = self._measure.widths(self.cells)
            self._id_widths = self._measure.id_widths(self.cells, self.encoding)
        self._relayout()

    def hidden_token_count(self) -> int:
        """Tokens of the encoding not drawn (beyond :data:`MAX_DRAWN_TOKENS`)."""
        if self.encoding is None:
            return 0
        drawn = len(self._token_cell)
        return max(0, len(self.encoding.tokens) - drawn)

    # ---- selection ---------------------------------------------------------------------------
    def selected_tokens(self) -> tuple[int, int] | None:
        return self._sel

    def select_tokens(self, first: int, last: int | None = None) -> None:
        last = first if last is None else last
        if first < 0 or self.encoding is None:
            self._sel = None
            self.selectionChanged.emit(-1, -1)
        else:
            first, last = sorted((first, last))
            self._sel = (first, min(last, len(self.encoding.tokens) - 1))
            self.ensure_token_visible(first)
            self.selectionChanged.emit(*self._sel)
        self.viewport().update()

    def ensure_token_visible(self, index: int) -> None:
        ci = self._token_cell.get(index)
        if ci is None:
            return
        line = self._pos[ci][0]
        top = line * self._line_h
        sb = self.verticalScrollBar()
        if top < sb.value() or top + self._line_h > sb.value() + self.viewport().height():
            sb.setValue(max(0, int(top - self.viewport().height() / 3)))

    # ---- geometry (also used by tests to click and hover) -------------------------------------
    def token_rect(self, index: int) -> QRectF | None:
        """The box of token ``index`` in viewport coordinates (None when not drawn)."""
        ci = self._token_cell.get(index)
        if ci is None:
            return None
        return self._cell_rect(ci)

    def token_at(self, pos: QPointF) -> int:
        """Token index under viewport point ``pos``, or -1."""
        ci = self._cell_at(pos)
        return self.cells[ci].token if ci >= 0 else -1

    def cell_label(self, ci: int) -> str:
        """What cell ``ci`` shows, as plain text (hex pieces separated by ``|``)."""
        cell = self.cells[ci]
        if self.mode == "ids" and cell.token >= 0:
            return str(self.encoding.tokens[cell.token].id)
        return "|".join(s.text for s in cell.segments) if any(s.kind == "hex" for s in cell.segments) else "".join(
            s.text for s in cell.segments
        )

    def shown_labels(self) -> list[str]:
        """Every drawn cell's label, in order (what a reader of the view sees)."""
        return [self.cell_label(i) for i in range(len(self.cells))]

    def tooltip_for_token(self, index: int) -> str:
        return describe_token(self.encoding, index)

    # ---- layout ------------------------------------------------------------------------------
    def _update_fonts(self) -> None:
        self._text_font, self._hex_font, self._label_font = view_fonts()
        self._measure = CellMeasure(self._text_font, self._hex_font)
        self._tfm = QFontMetricsF(self._text_font)
        self._hfm = QFontMetricsF(self._hex_font)
        self._lfm = QFontMetricsF(self._label_font)
        self._box_h = self._tfm.height() + 10
        self._band = self._lfm.height() + 3  # room above the boxes for cut-character labels
        self._line_h = self._band + self._box_h + 6

    def line_count(self) -> int:
        """Lines the cells wrap to at the current width."""
        return len(self._line_first)

    def lines_height(self, lines: int) -> int:
        """Viewport height that shows ``lines`` whole lines of cells with their cut-character labels
        (the panel sizes its splitter with it)."""
        return int(self.MARGIN + lines * self._line_h - 6 + 0.999)

    def _w(self, kind: str, text: str) -> float:
        return self._measure.segment(kind, text)

    def _relayout(self, new_cells: bool = False) -> None:
        widths = self._id_widths if self.mode == "ids" else self._widths
        self._apply_layout(wrap_cells(self.cells, widths, self.viewport().width(), self.mode,
                                      None if new_cells else self._token_cell))

    def _apply_layout(self, layout: CellLayout) -> None:
        self._pos = layout.pos
        self._line_first = layout.line_first
        self._token_cell = layout.token_cell
        self._laid_out_width = layout.width
        self._update_scroll_range()

    def _update_scroll_range(self) -> None:
        lines = len(self._line_first) + (1 if self.hidden_token_count() else 0)
        content_h = lines * self._line_h + 2 * self.MARGIN
        sb = self.verticalScrollBar()
        sb.setRange(0, max(0, int(content_h - self.viewport().height())))
        sb.setPageStep(self.viewport().height())
        sb.setSingleStep(int(self._line_h))
        self.viewport().update()

    def _cell_rect(self, ci: int) -> QRectF:
        line, x, w = self._pos[ci]
        top = self.MARGIN + line * self._line_h + self._band - self.verticalScrollBar().value()
        return QRectF(self.MARGIN + x, top, w, self._box_h)

    def _cell_at(self, pos: QPointF) -> int:
        if not self._pos:
            return -1
        y = pos.y() + self.verticalScrollBar().value() - self.MARGIN
        line = int(y // self._line_h)
        if line < 0 or line >= len(self._line_first):
            return -1
        first = self._line_first[line]
        last = self._line_first[line + 1] if line + 1 < len(self._line_first) else len(self.cells)
        for ci in range(first, last):
            if self._cell_rect(ci).adjusted(-self.CELL_GAP / 2, -self._band, self.CELL_GAP / 2, 0).contains(pos):
                return ci
        return -1

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self.viewport().width() != getattr(self, "_laid_out_width", None):
            # lines wrap at the width: only a new width moves cells
            if self._lays_out_elsewhere():
                self._update_scroll_range()
                self.layoutWanted.emit()
            else:
                self._relayout()
        else:
            self._update_scroll_range()

    def _lays_out_elsewhere(self) -> bool:
        return self.inline_layout_limit is not None and len(self.cells) > self.inline_layout_limit

    def sizeHint(self) -> QSize:
        return QSize(700, 400)

    # ---- painting ----------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self.viewport())
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        p.fillRect(self.viewport().rect(), pal.color(QPalette.ColorRole.Base))
        if not self.cells:
            p.setFont(fonts.ui_font(12))
            p.setPen(pal.color(QPalette.ColorRole.PlaceholderText))
            p.drawText(self.viewport().rect(), Qt.AlignmentFlag.AlignCenter, self._placeholder)
            return
        scroll = self.verticalScrollBar().value()
        first_line = max(0, int((scroll - self.MARGIN) // self._line_h))
        last_line = int((scroll + self.viewport().height()) // self._line_h) + 1
        text_pen = pal.color(QPalette.ColorRole.Text)
        for line in range(first_line, min(last_line + 1, len(self._line_first))):
            a = self._line_first[line]
            b = self._line_first[line + 1] if line + 1 < len(self._line_first) else len(self.cells)
            cut_spans: dict[int, list[float]] = {}
            for ci in range(a, b):
                self._paint_cell(p, ci, cut_spans, text_pen)
            self._paint_cut_labels(p, line, cut_spans, text_pen)
        hidden = self.hidden_token_count()
        if hidden and last_line >= len(self._line_first):
            y = self.MARGIN + len(self._line_first) * self._line_h - scroll
            p.setFont(fonts.ui_font(11))
            p.setPen(pal.color(QPalette.ColorRole.PlaceholderText))
            p.drawText(QRectF(self.MARGIN, y, self.viewport().width() - 2 * self.MARGIN, self._line_h),
                       Qt.AlignmentFlag.AlignVCenter,
                       self.tr("… {n} more tokens not drawn (the counts cover the whole text)").format(n=f"{hidden:,}"))

    def _paint_cell(self, p: QPainter, ci: int, cut_spans: dict[int, list[float]], text_pen: QColor) -> None:
        cell = self.cells[ci]
        r = self._cell_rect(ci)
        selected = self._sel is not None and cell.token >= 0 and self._sel[0] <= cell.token <= self._sel[1]
        if cell.token >= 0:
            bg = self.colors[cell.token] if cell.token < len(self.colors) else QColor("#dddddd")
            fg = text_color_on(bg)
            kind = self.encoding.tokens[cell.token].kind
            p.setPen(QPen(fg, 1.5, Qt.PenStyle.DashLine) if kind != "normal" else Qt.PenStyle.NoPen)
            p.setBrush(bg)
            p.drawRoundedRect(r, 4, 4)
            if kind == "normal" and cell.token < len(self.marks) and self.marks[cell.token]:
                # same colour as its left neighbour (same id, or a palette collision): an outline
                # tells them apart without changing the id's colour
                p.setPen(QPen(fg, 2))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 3.5, 3.5)
        else:  # text no token covers
            fg = QColor(text_pen)
            fg.setAlphaF(0.45)
        if selected or ci == self._hover_cell:
            hl = self.palette().color(QPalette.ColorRole.Highlight)
            p.setPen(QPen(hl, 3 if selected else 1.5))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(r.adjusted(-1.5, -1.5, 1.5, 1.5), 5, 5)
        x = r.x() + self.PAD
        if self.mode == "ids" and cell.token >= 0:
            p.setFont(self._text_font)
            p.setPen(fg)
            p.drawText(QRectF(x, r.y(), r.width() - 2 * self.PAD, r.height()), Qt.AlignmentFlag.AlignVCenter,
                       str(self.encoding.tokens[cell.token].id))
            return
        dim = QColor(fg)
        dim.setAlphaF(0.55)
        for seg in cell.segments:
            w = self._w(seg.kind, seg.text)
            if seg.kind == "hex":
                box = QRectF(x, r.y() + 5, w, r.height() - 10)
                p.setPen(QPen(dim, 1))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(box, 3, 3)
                p.setFont(self._hex_font)
                p.setPen(fg)
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, seg.text)
                span = cut_spans.setdefault(cell.start + seg.char, [x, x + w])
                span[0] = min(span[0], x)
                span[1] = max(span[1], x + w)
            else:
                p.setFont(self._text_font)
                p.setPen(dim if seg.kind == "mark" else fg)
                p.drawText(QRectF(x, r.y(), w + 2, r.height()), Qt.AlignmentFlag.AlignVCenter, seg.text)
            x += w + 2

    def _paint_cut_labels(self, p: QPainter, line: int, cut_spans: dict[int, list[float]], text_pen: QColor) -> None:
        """Above the hex pieces of a cut character: the character itself and a bracket over all its
        pieces, across the token boundary."""
        if not cut_spans:
            return
        top = self.MARGIN + line * self._line_h - self.verticalScrollBar().value()
        p.setFont(self._label_font)
        for c, (x0, x1) in cut_spans.items():
            ch = self.encoding.text[c]
            label = char_marker(ch) or ch
            by = top + self._band - 3
            p.setPen(QPen(text_pen, 1.2))
            p.drawLine(QPointF(x0 + 1, by), QPointF(x1 - 1, by))
            p.drawLine(QPointF(x0 + 1, by), QPointF(x0 + 1, by + 3))
            p.drawLine(QPointF(x1 - 1, by), QPointF(x1 - 1, by + 3))
            lw = self._lfm.horizontalAdvance(label) + 6
            mid = (x0 + x1) / 2
            lr = QRectF(mid - lw / 2, top, lw, self._band - 4)
            p.fillRect(lr, self.palette().color(QPalette.ColorRole.Base))
            p.drawText(lr, Qt.AlignmentFlag.AlignCenter, label)

    # ---- interaction -------------------------------------------------------------------------
    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        ci = self._cell_at(event.position())
        if ci != self._hover_cell:
            self._hover_cell = ci
            self.viewport().update()
        if ci >= 0 and self.cells[ci].token >= 0:
            QToolTip.showText(event.globalPosition().toPoint(), self.tooltip_for_token(self.cells[ci].token), self.viewport())
        elif ci >= 0:
            QToolTip.showText(event.globalPosition().toPoint(), self.tr("text no token covers (the encoder skipped it)"), self.viewport())
        else:
            QToolTip.hideText()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:  # noqa: N802
        self._hover_cell = -1
        self.viewport().update()
        super().leaveEvent(event)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        tok = self.token_at(event.position())
        if tok < 0:
            super().mousePressEvent(event)
            return
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier and self._anchor is not None:
            self.select_tokens(self._anchor, tok)
        else:
            self._anchor = tok
            self.select_tokens(tok)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if self.encoding is None or not self.encoding.tokens:
            return super().keyPressEvent(event)
        cur = self._sel[1] if self._sel else -1
        if event.key() == Qt.Key.Key_Right:
            self._anchor = min(cur + 1, len(self.encoding.tokens) - 1)
            self.select_tokens(self._anchor)
        elif event.key() == Qt.Key.Key_Left:
            self._anchor = max(cur - 1, 0)
            self.select_tokens(self._anchor)
        elif event.key() == Qt.Key.Key_Escape:
            self.select_tokens(-1)
        else:
            super().keyPressEvent(event)
