"""Token rows of several encoders aligned on the same character columns.

Layout is by characters, computed once per text: every grapheme cluster gets a cell (its glyph's
width), and a token is painted over the cells of the bytes it holds. Because every row uses the same
cells, a boundary in one row lines up with the same place in every other row. A cluster that some
encoder cuts inside (a Hangul syllable's three UTF-8 bytes split between tokens) gets a wider cell,
divided by bytes, and each piece shows its bytes in hex.

The text wraps into bands; a band is the text itself (a ruler), a strip that marks boundaries the
encoders disagree on, and one row per encoder. Only the bands in view are painted.
"""

from __future__ import annotations

import bisect
import functools

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import QToolTip, QWidget

from tokviz.core.display import hex_bytes, visible_piece
from tokviz.core.jamo import recompose
from tokviz.core.jamo_input import cut_jamo, reads_jamo, syllable_slots
from tokviz.ui.common.encoder_names import shown_name
from tokviz.ui.compare.alignment import PreparedRows, RowData, RowSpans, prepare_rows
from tokviz.ui.fonts import mono_font, ui_font

ERROR_LIGHT, ERROR_DARK = "#b21f1f", "#ff8a80"  # >= 5:1 contrast on the light / dark theme's base colours


def palette_is_dark(palette: QPalette) -> bool:
    """Whether ``palette`` paints light text on a dark base (the dark theme, or a dark system palette)."""
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def error_color(palette_or_dark: QPalette | bool) -> QColor:
    """The colour of error text, readable on the light and on the dark theme (#b21f1f on the dark
    base was 2.6:1)."""
    dark = palette_or_dark if isinstance(palette_or_dark, bool) else palette_is_dark(palette_or_dark)
    return QColor(ERROR_DARK if dark else ERROR_LIGHT)


# one cluster is drawn at every paint: its marked form is looked up, not rebuilt
_visible = functools.lru_cache(maxsize=8192)(visible_piece)

class AlignedRowsView(QWidget):
    """Paints the aligned rows. ``set_rows`` takes the text and one RowData per encoder."""

    hoveredCharChanged = Signal(object)  # character index or None

    GUTTER = 172  # encoder names
    PAD = 8

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)
        self.text = ""
        self.rows: list[RowSpans] = []
        self.hovered_char: int | None = None
        self._make_fonts(12)
        self._width_cache: dict[str, float] = {}
        self._clusters: list[tuple[int, int]] = []  # (char start, char end)
        self._cluster_bytes: list[int] = [0]  # byte start of each cluster, + total
        self._cluster_w: list[float] = []
        self._cluster_x: list[float] = []
        self._lines: list[tuple[int, int]] = []  # (first cluster, end cluster)
        self._byte_starts: tuple[int, ...] = (0,)
        self._char_cluster: list[int] = []
        self._disagree: list[int] = []
        self._agree: list[int] = []
        self._cut_clusters: set[int] = set()
        self._wrap_width = 0
        self._apply_fonts()

    # ---- data ---------------------------------------------------------------------------------
    def set_font_size(self, points: float) -> None:
        """Token text at ``points`` (times the app's font scale, read now: call it again when the
        scale changes)."""
        self._make_fonts(points)
        self._width_cache.clear()
        self._apply_fonts()
        self._layout_cells()
        self._wrap()
        self.update()

    def _make_fonts(self, points: float) -> None:
        # one recipe for start-up and every zoom, so Ctrl+0 brings back exactly the start-up look
        self._font = mono_font(points)
        # byte labels must stay readable from the back of a room: 0.8 of the token text, never under 9 pt
        self._hex_font = mono_font(max(9.0, points * 0.8))
        self._name_font = ui_font(max(8.0, points * 0.75))

    def _apply_fonts(self) -> None:
        fm = QFontMetricsF(self._font)
        self._fm = fm
        self._line_h = fm.height()
        self._row_h = self._line_h + 8
        # A piece of n bytes is labelled "EC 95 88": n pairs and n-1 spaces, drawn in a cell of
        # n * _hex_w. Each byte's share is therefore its two digits plus one space, measured in the
        # hex font: the label then leaves one space of room, split on both sides, at every scale.
        # (It was two digits + 5 px: the 5 px stood for the space and did not grow with the font,
        # so at 1.6x "f0 9f 91" overflowed its cell and "ec 95" ran under the token's border.)
        hfm = QFontMetricsF(self._hex_font)
        digit = max(hfm.horizontalAdvance(c) for c in "0123456789ABCDEF")
        self._hex_w = 2 * digit + hfm.horizontalAdvance(" ")
        self._strip_h = 9
        self._min_cell = fm.horizontalAdvance("0") * 0.9
        self._fit_gutter()

    def _fit_gutter(self) -> None:
        """As wide as the longest encoder name (``tokviz BPE (demo corpus)`` was cut to
        ``tokviz BPE…mo corpus)``), within ~20..48 name characters and a third of the view, so a
        long file name cannot squeeze the tokens out."""
        fm = QFontMetricsF(self._name_font)
        avg = fm.averageCharWidth()
        longest = max((fm.horizontalAdvance(shown_name(r.data.name)) for r in getattr(self, "rows", [])), default=0.0)
        cap = max(avg * 29, min(avg * 48, self.width() / 3))
        self.GUTTER = min(max(150.0, avg * 20, longest + self.NAME_MARGIN + 2), cap)

    NAME_MARGIN = 26  # colour bar and padding left of an encoder's name

    def row_label(self, index: int) -> str:
        """The name as drawn in row ``index``'s gutter (elided in the middle only when it must be)."""
        fm = QFontMetricsF(self._name_font)
        name = shown_name(self.rows[index].data.name)
        return fm.elidedText(name, Qt.TextElideMode.ElideMiddle, self.GUTTER - self.NAME_MARGIN)

    def hex_font(self) -> QFont:
        """The font cut characters' bytes are drawn in (hex)."""
        return QFont(self._hex_font)

    def hex_byte_width(self) -> float:
        """The width each byte of a cut character gets: two hex digits and a space."""
        return self._hex_w

    def cell_widths(self) -> list[float]:
        """The width of every character cell (grapheme cluster) of the text, in order."""
        return list(self._cluster_w)

    def set_rows(self, text: str, rows: list[RowData]) -> None:
        """Show ``rows`` for ``text`` (every encoding must be of this text)."""
        self.set_prepared(prepare_rows(text, rows))

    def set_prepared(self, prep: PreparedRows) -> None:
        """Show rows prepared (possibly on a worker thread) by :func:`prepare_rows`; only the
        font-dependent cell widths and the wrapping are computed here."""
        if prep.text != self.text:
            self.hovered_char = None
        self.text = prep.text
        self.rows = prep.rows
        self._clusters = prep.clusters
        self._char_cluster = prep.char_cluster
        self._cluster_bytes = prep.cluster_bytes
        self._byte_starts = prep.byte_starts
        self._agree = prep.agree
        self._disagree = prep.disagree
        self._cut_clusters = prep.cut_clusters
        self._fit_gutter()
        self._layout_cells()
        self._wrap()
        self.update()

    def _display(self, s: str) -> str:
        # the Inspector's markers (core.display): "\r" is ⟨CR⟩, "\r\n" ⟨CR⟩↵, an emoji's ZWJ stays in the picture
        return _visible(s)

    def _layout_cells(self) -> None:
        cache = self._width_cache
        fm = self._fm
        text = self.text
        cb = self._cluster_bytes
        # measured once per distinct cluster, then looked up in comprehensions (a Python step with
        # a dict miss check per cluster cost ~15 ms on 10,000 characters, on the GUI thread)
        keys = [text[s:e] for s, e in self._clusters]
        for key in set(keys).difference(cache):
            cache[key] = max(fm.horizontalAdvance(self._display(key)), self._min_cell) + 1
        widths = list(map(cache.__getitem__, keys))
        for k in self._cut_clusters:
            widths[k] = max(widths[k], (cb[k + 1] - cb[k]) * self._hex_w)
        self._cluster_w = widths

    def _wrap(self) -> None:
        avail = max(200.0, self.width() - self.GUTTER - 2 * self.PAD)
        self._wrap_width = avail
        xs = [0.0] * len(self._clusters)
        lines = []
        start = 0
        x = 0.0
        last_space = -1
        text = self.text
        for k, (s, _) in enumerate(self._clusters):
            w = self._cluster_w[k]
            if x + w > avail and k > start:
                cut = last_space + 1 if last_space >= start else k
                lines.append((start, cut))
                start = cut
                x = 0.0
                for j in range(start, k):
                    xs[j] = x
                    x += self._cluster_w[j]
                last_space = -1
            xs[k] = x
            x += w
            ch = text[s]
            if ch == "\n" or ch == "\r":
                lines.append((start, k + 1))
                start, x, last_space = k + 1, 0.0, -1
            elif ch.isspace():
                last_space = k
        if start < len(self._clusters) or not lines:
            lines.append((start, len(self._clusters)))
        self._cluster_x = xs
        self._lines = lines
        self.setMinimumHeight(int(self._band_top(len(lines))) + self.PAD)
        self.updateGeometry()

    # ---- geometry -----------------------------------------------------------------------------
    def _band_h(self) -> float:
        return self._line_h + self._strip_h + len(self.rows) * (self._row_h + 3) + 14

    def _band_top(self, line: int) -> float:
        return self.PAD + line * self._band_h()

    def _row_top(self, line: int, row: int) -> float:
        return self._band_top(line) + self._line_h + self._strip_h + row * (self._row_h + 3)

    def _x_of_byte(self, b: int, line: int) -> float:
        """x of byte offset ``b`` in ``line`` (its end when b is the line's end)."""
        first, end = self._lines[line]
        x0 = self.GUTTER + self.PAD
        cb = self._cluster_bytes
        if end == first:
            return x0
        if b >= cb[end]:
            return x0 + self._cluster_x[end - 1] + self._cluster_w[end - 1]
        k = bisect.bisect_right(cb, b, first, end) - 1
        k = max(k, first)
        n = cb[k + 1] - cb[k]
        frac = (b - cb[k]) / n if n else 0.0
        return x0 + self._cluster_x[k] + frac * self._cluster_w[k]

    def _token_box(self, xa: float, xb: float, ry: float) -> QRectF:
        """A token's painted box between x positions ``xa`` and ``xb`` (a 1 px gap to the next)."""
        return QRectF(xa + 0.5, ry, max(1.0, xb - xa - 1.0), self._row_h)

    def token_rect(self, row: int, index: int) -> QRectF | None:
        """The box of token ``index`` of row ``row`` in the band where it starts (widget
        coordinates); None for a token that covers no text or a row without an encoding."""
        r = self.rows[row]
        if r.data.encoding is None or r.ends[index] <= r.starts[index]:
            return None
        bs = r.starts[index]
        cb = self._cluster_bytes
        line = next(i for i, (f, e) in enumerate(self._lines) if cb[f] <= bs < cb[e])
        be = min(r.ends[index], cb[self._lines[line][1]])
        return self._token_box(self._x_of_byte(bs, line), self._x_of_byte(be, line), self._row_top(line, row))

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(900, int(self._band_top(max(1, len(self._lines)))))

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_gutter()  # its cap is a share of the width
        if abs(max(200.0, self.width() - self.GUTTER - 2 * self.PAD) - self._wrap_width) > 0.5:
            self._wrap()

    def char_at(self, pos: QPointF) -> tuple[int | None, int | None]:
        """(character index, row index or None for the ruler) under widget position ``pos``."""
        if not self._lines:
            return None, None
        bh = self._band_h()
        line = int((pos.y() - self.PAD) // bh)
        if not 0 <= line < len(self._lines):
            return None, None
        first, end = self._lines[line]
        x = pos.x() - self.GUTTER - self.PAD
        if end == first or x < 0:
            return None, None
        k = bisect.bisect_right(self._cluster_x, x, first, end) - 1
        if k < first or x > self._cluster_x[k] + self._cluster_w[k]:
            return None, None
        # within a cluster, the byte under x picks the character (cells are divided by bytes)
        cb = self._cluster_bytes
        frac = (x - self._cluster_x[k]) / self._cluster_w[k]
        b = cb[k] + int(frac * (cb[k + 1] - cb[k]))
        s, e = self._clusters[k]
        ch = bisect.bisect_right(self._byte_starts, b, s, e) - 1
        ch = max(s, min(ch, e - 1))
        y = pos.y() - self._row_top(line, 0)
        row = int(y // (self._row_h + 3)) if y >= 0 else None
        if row is not None and row >= len(self.rows):
            row = None
        return ch, row

    def char_center(self, index: int) -> QPointF:
        """Widget position of character ``index`` in the ruler (tests hover it)."""
        k = self._char_cluster[index]
        line = next(i for i, (f, e) in enumerate(self._lines) if f <= k < e)
        b0, b1 = self._byte_starts[index], self._byte_starts[index + 1]
        x = (self._x_of_byte(b0, line) + self._x_of_byte(b1, line)) / 2
        return QPointF(x, self._band_top(line) + self._line_h / 2)

    def highlighted_tokens(self) -> dict[str, list[int]]:
        """For each row with an encoding: indices of the tokens holding the hovered character."""
        if self.hovered_char is None:
            return {}
        return {
            r.data.name: r.data.encoding.tokens_at_char(self.hovered_char)
            for r in self.rows if r.data.encoding is not None
        }

    def disagreements(self) -> list[int]:
        """Byte offsets where some encoders have a token boundary and others do not."""
        return list(self._disagree)

    def set_hovered_char(self, index: int | None) -> None:
        if index != self.hovered_char:
            self.hovered_char = index
            self.hoveredCharChanged.emit(index)
            self.update()

    # ---- events -------------------------------------------------------------------------------
    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        ch, row = self.char_at(event.position())
        self.set_hovered_char(ch)
        if ch is not None and row is not None:
            QToolTip.showText(event.globalPosition().toPoint(), self._token_tip(row, ch), self)
        else:
            QToolTip.hideText()

    def leaveEvent(self, event) -> None:  # noqa: N802
        self.set_hovered_char(None)
        super().leaveEvent(event)

    def _token_tip(self, row: int, ch: int) -> str:
        r = self.rows[row].data
        if r.encoding is None:
            return f"{shown_name(r.name)}: {r.message or ''}"
        parts = []
        for i in r.encoding.tokens_at_char(ch):
            t = r.encoding.tokens[i]
            shown = recompose(t.raw if t.raw is not None else (t.piece if t.piece is not None else ""))
            parts.append(
                self.tr("{name} · token {n} of {total}").format(
                    name=shown_name(r.name), n=i + 1, total=len(r.encoding.tokens))
                + f"\nid {t.id}  {shown!r}\n"
                + self.tr("bytes {hex}").format(hex=hex_bytes(t.bytes))
                + ("  " + self.tr("(cuts a character)") if t.partial else "")
                + (f"\n{t.kind}" if t.kind != "normal" else "")
            )
        return "\n\n".join(parts) or self.tr("{name}: no token here (the encoder skipped this character)").format(
            name=shown_name(r.name))

    # ---- painting -----------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        pal = self.palette()
        p.fillRect(event.rect(), pal.base())
        if not self._lines:
            p.end()
            return
        bh = self._band_h()
        top = event.rect().top()
        bottom = event.rect().bottom()
        first = max(0, int((top - self.PAD) // bh))
        last = min(len(self._lines) - 1, int((bottom - self.PAD) // bh))
        hovered_tokens = self._hovered_spans()
        for line in range(first, last + 1):
            self._paint_band(p, line, hovered_tokens)
        p.end()

    def _hovered_spans(self) -> list[list[tuple[int, int]]]:
        out = []
        for r in self.rows:
            enc = r.data.encoding
            if enc is None or self.hovered_char is None:
                out.append([])
                continue
            out.append([(enc.tokens[i].byte_start, enc.tokens[i].byte_end)
                        for i in enc.tokens_at_char(self.hovered_char)])
        return out

    def _paint_band(self, p: QPainter, line: int, hovered: list[list[tuple[int, int]]]) -> None:
        pal = self.palette()
        fg = pal.text().color()
        faint = QColor(fg)
        faint.setAlphaF(0.35)
        first, end = self._lines[line]
        cb = self._cluster_bytes
        lb0, lb1 = cb[first], cb[end]
        x0 = self.GUTTER + self.PAD
        y = self._band_top(line)
        text = self.text

        # ruler: the text itself
        p.setFont(self._font)
        if self.hovered_char is not None:
            k = self._char_cluster[self.hovered_char]
            if first <= k < end:
                hx = x0 + self._cluster_x[k]
                hl = QColor(pal.highlight().color())
                hl.setAlphaF(0.35)
                p.fillRect(QRectF(hx, y, self._cluster_w[k], self._line_h), hl)
        for k in range(first, end):
            s, e = self._clusters[k]
            key = text[s:e]
            shown = self._display(key)
            p.setPen(faint if shown != key else fg)
            p.drawText(QRectF(x0 + self._cluster_x[k], y, self._cluster_w[k], self._line_h),
                       Qt.AlignmentFlag.AlignCenter, shown)
        p.setFont(self._name_font)
        p.setPen(faint)
        p.drawText(QRectF(self.PAD, y, self.GUTTER - 12, self._line_h),
                   Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                   self.tr("chars {n}").format(n=self._clusters[first][0] if first < end else ""))

        # disagreement strip: red ticks where some rows have a boundary and others do not
        sy = y + self._line_h + 1
        p.setPen(Qt.PenStyle.NoPen)
        red = QColor("#d62728")
        p.setBrush(red)
        i = bisect.bisect_right(self._disagree, lb0)
        while i < len(self._disagree) and self._disagree[i] < lb1:
            bx = self._x_of_byte(self._disagree[i], line)
            p.drawPolygon([QPointF(bx - 3, sy), QPointF(bx + 3, sy), QPointF(bx, sy + self._strip_h - 2)])
            i += 1

        # one row per encoder
        for r_index, row in enumerate(self.rows):
            ry = self._row_top(line, r_index)
            self._paint_row_name(p, row, ry)
            if row.data.encoding is None:
                self._paint_message(p, row, ry, line, x0)
                continue
            self._paint_tokens(p, row, line, ry, lb0, lb1, hovered[r_index])

    def _paint_row_name(self, p: QPainter, row: RowSpans, ry: float) -> None:
        p.setFont(self._name_font)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(row.data.color)
        p.drawRoundedRect(QRectF(self.PAD, ry + 4, 5, self._row_h - 8), 2, 2)
        p.setPen(self.palette().text().color())
        fm = QFontMetricsF(self._name_font)
        name = fm.elidedText(shown_name(row.data.name), Qt.TextElideMode.ElideMiddle, self.GUTTER - self.NAME_MARGIN)
        p.drawText(QRectF(self.PAD + 10, ry, self.GUTTER - self.NAME_MARGIN, self._row_h),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, name)

    def _paint_message(self, p: QPainter, row: RowSpans, ry: float, line: int, x0: float) -> None:
        rect = QRectF(x0, ry, self._wrap_width, self._row_h)
        if row.data.error:
            p.fillRect(rect, QColor(214, 39, 40, 40))
            p.setPen(error_color(self.palette()))
        else:
            p.fillRect(rect, QColor(128, 128, 128, 30))
            p.setPen(self.palette().placeholderText().color())
        if line == 0 or not row.data.error:
            p.setFont(self._name_font)
            fm = QFontMetricsF(self._name_font)
            msg = fm.elidedText(row.data.message or "", Qt.TextElideMode.ElideRight, rect.width() - 12)
            p.drawText(rect.adjusted(6, 0, -6, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, msg)

    def _paint_tokens(self, p: QPainter, row: RowSpans, line: int, ry: float, lb0: int, lb1: int,
                      hovered: list[tuple[int, int]]) -> None:
        enc = row.data.encoding
        tokens = enc.tokens
        cb = self._cluster_bytes
        text = self.text
        first, end = self._lines[line]
        i = bisect.bisect_right(row.ends, lb0)
        # zero-width tokens that sit exactly at the line start also belong here
        while i > 0 and row.starts[i - 1] == row.ends[i - 1] == lb0:
            i -= 1
        h = self._row_h
        last_line = end == len(self._clusters)
        jamo = getattr(row, "reads_jamo", None)
        if jamo is None:  # once per row: its cut syllables show the jamo each token holds
            jamo = row.reads_jamo = reads_jamo(enc)
        hi = bisect.bisect_left(row.starts, lb1, i)
        while hi < len(tokens) and row.starts[hi] == lb1 and row.ends[hi] == lb1:
            hi += 1
        if hi > i:
            row.colors(i, hi)
        while i < len(tokens) and (row.starts[i] < lb1 or (last_line and row.starts[i] == row.ends[i] == lb1)):
            t = tokens[i]
            bs, be = max(t.byte_start, lb0), min(t.byte_end, lb1)
            xa, xb = self._x_of_byte(bs, line), self._x_of_byte(be, line)
            color, on_color = row._colors[i]
            if be <= bs:
                # a token that covers no text (SentencePiece's dummy-prefix ▁): a thin marker
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(color.darker(140))
                p.drawRoundedRect(QRectF(xa - 1.5, ry + 2, 3, h - 4), 1, 1)
                i += 1
                continue
            rect = self._token_box(xa, xb, ry)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(color)
            p.drawRoundedRect(rect, 3, 3)
            if t.kind != "normal":
                pen = QPen(QColor("#d62728") if t.kind == "unknown" else QColor("#7a3fb0"), 1.5, Qt.PenStyle.DashLine)
                p.setPen(pen)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 3, 3)
            elif row.marks[i]:
                # same colour as its left neighbour (the same id twice, or a palette collision): an
                # outline in the text colour tells them apart, as in the Inspector
                p.setPen(QPen(on_color, 2))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 2.5, 2.5)
            # the token's content, cell by cell so it stays on the shared columns
            p.setPen(on_color)
            k = bisect.bisect_right(cb, bs, first, end) - 1
            while k < end and cb[k] < be:
                c0, c1 = cb[k], cb[k + 1]
                if bs <= c0 and c1 <= be and k not in self._cut_clusters:
                    s, e = self._clusters[k]
                    p.setFont(self._font)
                    key = text[s:e]
                    shown = self._display(key)
                    cx = self.GUTTER + self.PAD + self._cluster_x[k]
                    if shown != key:
                        faint = QColor(on_color)
                        faint.setAlphaF(0.45)
                        p.setPen(faint)
                    p.drawText(QRectF(cx, ry, self._cluster_w[k], h), Qt.AlignmentFlag.AlignCenter, shown)
                    p.setPen(on_color)
                else:
                    # part of a cut cluster: this token's bytes of it, in hex (or the glyph when whole)
                    ps, pe = max(bs, c0), min(be, c1)
                    pxa, pxb = self._x_of_byte(ps, line), self._x_of_byte(pe, line)
                    if ps == c0 and pe == c1:
                        # the whole cluster is in this token (another row cuts it): its glyph
                        s, e = self._clusters[k]
                        p.setFont(self._font)
                        label = self._display(text[s:e])
                    elif jamo and self._clusters[k][1] - self._clusters[k][0] == 1 \
                            and syllable_slots(text[self._clusters[k][0]]):
                        # a syllable cut between its jamo (a model reading jamo): the jamo this token holds
                        label = cut_jamo(text[self._clusters[k][0]], ps - c0, pe - c0)
                        p.setFont(self._font)
                    else:
                        label = self._piece_label(self._bytes_of(ps, pe))
                        p.setFont(self._hex_font)
                    p.drawText(QRectF(pxa, ry, pxb - pxa, h), Qt.AlignmentFlag.AlignCenter, label)
                k += 1
            if hovered and (t.byte_start, t.byte_end) in hovered:
                # the highlight colour, as the Inspector's hover: a text-coloured ring would look
                # like the same-colour outline above
                p.setPen(QPen(self.palette().highlight().color(), 2.2))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3)
            i += 1

    def _bytes_of(self, b0: int, b1: int) -> bytes:
        # the text's UTF-8, encoded once per text
        data = getattr(self, "_utf8_cache", None)
        if data is None or data[0] is not self.text:
            data = (self.text, self.text.encode("utf-8"))
            self._utf8_cache = data
        return data[1][b0:b1]

    def _piece_label(self, b: bytes) -> str:
        try:
            s = b.decode("utf-8")
        except UnicodeDecodeError:
            return hex_bytes(b)
        return self._display(s)
