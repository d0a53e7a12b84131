"""The token view: every token of an Encoding as a coloured box, laid out like running text.

What is drawn comes from :func:`tokviz.ui.inspect.cells.token_cells`, a plain function the Inspector's
worker thread runs, so that splitting a 100k-character text into drawable pieces never blocks the GUI. The widget
then only measures and places the cells (widths cached per string) and paints the lines that are
visible.

A token that holds only part of a character (cl100k splits 안 = EC 95 88 into ``EC 95`` | ``88``)
shows those bytes as hex pieces, and the character they belong to is drawn above the pieces with a
bracket, so one sees the character cut in two, never a replacement character.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from tokviz.core.encoding import KIND_NAMES, Encoding
from tokviz.ui import fonts
from tokviz.ui.inspect.cells import (
    CELL_GAP,
    MARGIN,
    Cell,
    CellLayout,
    CellMeasure,
    CellPositions,
    char_marker,
    view_fonts,
    wrap_cells,
)
from tokviz.ui.inspect.describe import describe_token
from tokviz.ui.token_colors import text_color_on, token_marks

NORMAL_KIND = KIND_NAMES.index("normal")


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
        self._fg_cache: dict[int, QColor] = {}
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
            marks = token_marks(encoding.id_array[: len(colors)].tolist()) if encoding is not None else []
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
    def cell_widths(self) -> list[float]:
        """The measured width of every cell in text mode, in order."""
        return list(self._widths)

    def fonts(self) -> tuple[QFont, QFont]:
        """(text font, hex font) the cells are measured and drawn with."""
        return self._text_font, self._hex_font

    def cell_positions(self) -> CellPositions | list:
        """Where every cell is drawn (line, x, width): the layout in use, as it was handed over."""
        return self._pos

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
            fg = self._text_color_on(bg)
            normal = self.encoding.kind_array[cell.token] == NORMAL_KIND  # no Token object per painted cell
            p.setPen(Qt.PenStyle.NoPen if normal else QPen(fg, 1.5, Qt.PenStyle.DashLine))
            p.setBrush(bg)
            p.drawRoundedRect(r, 4, 4)
            if normal and cell.token < len(self.marks) and self.marks[cell.token]:
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
                       str(int(self.encoding.id_array[cell.token])))
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

    def _text_color_on(self, bg: QColor) -> QColor:
        # the palette has a few dozen colours: their text colours are worked out once, not per cell
        key = bg.rgba()
        fg = self._fg_cache.get(key)
        if fg is None:
            fg = self._fg_cache[key] = text_color_on(bg)
        return fg

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
            tip = self.tooltip_for_token(self.cells[ci].token)
            QToolTip.showText(event.globalPosition().toPoint(), tip, self.viewport())
        elif ci >= 0:
            tip = self.tr("text no token covers (the encoder skipped it)")
            QToolTip.showText(event.globalPosition().toPoint(), tip, self.viewport())
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
