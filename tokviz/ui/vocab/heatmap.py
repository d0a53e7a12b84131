"""The number and indentation maps as heatmaps: one cell per text, coloured by how many tokens the
encoder splits it into; hovering a cell shows where the cuts fall (``123|4``).

Numbers 0–9999 are a 100 × 100 grid (row = hundreds, column = the last two digits); indentation is
16 rows (1–16 characters) by four columns: spaces, spaces before code, tabs, tabs before code. In the
number map a dark tick inside each cell marks where each cut falls (``123|4``: three quarters across).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from tokviz.ui.common.turns import next_turn
from tokviz.ui.fonts import ui_font
from tokviz.ui.vocab.grid import INDENT_COLUMNS, cell_arrays, map_grid

# token count -> colour (the last one stands for that many or more)
PALETTE = ("#edf8e9", "#bae4b3", "#74c476", "#31a354", "#006d2c", "#00441b")


TICK_KEEP = (255 - 150) / 255  # a cut's tick is black at alpha 150 over the cell's colour


def count_color(tokens: int) -> QColor:
    return QColor(PALETTE[max(0, min(tokens, len(PALETTE)) - 1)])


def _owners(size: int, start: float, step: float, count: int) -> np.ndarray:
    """For each pixel along one axis, the cell whose span ``start + i*step`` to ``start + (i+1)*step
    + 0.5`` last covers it (a later cell paints over the half pixel an earlier one overlaps); -1
    outside the grid. An aliased QPainter fill covers a pixel when ``x1 < centre <= x2``."""
    centres = np.arange(size) + 0.5
    owner = np.ceil((centres - start) / step).astype(np.int64) - 1
    inside = (centres > start) & (centres <= start + count * step + 0.5)
    return np.where(inside, np.minimum(owner, count - 1), -1)


def cell_pixels(counts: np.ndarray, ticks: np.ndarray, size: tuple[int, int], geometry: tuple) -> np.ndarray:
    """The heatmap's cells as ARGB32 pixels (height × width): ``counts[r, c]`` tokens (0: no cell) give
    the colour; each row ``(r, c, fraction)`` of ``ticks`` darkens the pixel column that far across
    its cell, as a QPainter fill of the same rectangles would."""
    (width, height), (left, top, cw, ch) = size, geometry
    rows, cols = counts.shape
    lut = np.array([0] + [QColor(c).rgba() for c in PALETTE], dtype=np.uint32)
    cells = lut[np.clip(counts, 0, len(PALETTE))]
    col_of, row_of = _owners(width, left, cw, cols), _owners(height, top, ch, rows)
    pixels = np.zeros((height, width), dtype=np.uint32)
    if rows == 0 or cols == 0:
        return pixels
    ys, xs = np.flatnonzero(row_of >= 0), np.flatnonzero(col_of >= 0)  # each one run of pixels
    if not len(ys) or not len(xs):
        return pixels
    y0, y1, x0, x1 = ys[0], ys[-1] + 1, xs[0], xs[-1] + 1
    # every pixel row of a grid row is the same: build one line per grid row, then repeat it
    lines = np.take(cells, col_of[x0:x1], axis=1)
    if len(ticks) and cw >= 6:
        r, c = ticks[:, 0].astype(np.int64), ticks[:, 1].astype(np.int64)
        x = np.floor(left + c * cw + cw * ticks[:, 2] + 0.5).astype(np.int64)  # the one column it covers
        ok = (x >= 0) & (x < width)
        ok[ok] = col_of[x[ok]] == c[ok]  # a tick under the next cell's paint is gone
        hits, times = np.unique(r[ok] * width + x[ok], return_counts=True)  # (grid row, column), ticks there
        hit_r, hit_x = hits // width, hits % width - x0
        argb = lines[hit_r, hit_x]
        keep = TICK_KEEP**times
        rgb = [np.round(((argb >> s) & 0xFF) * keep).astype(np.uint32) << s for s in (16, 8, 0)]
        lines[hit_r, hit_x] = (argb & 0xFF000000) | rgb[0] | rgb[1] | rgb[2]
    pixels[y0:y1, x0:x1] = lines[row_of[y0:y1]]
    return pixels


class SplitHeatmap(QWidget):
    """Paints a :class:`~tokviz.core.vocab.maps.SplitMap` (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.split_map = None
        self.grid: list[list] = []  # rows of cells (SplitRow or None)
        self.row_labels: list[str] = []
        self.column_labels: list[str] = []
        self.dark = False
        self._cache: tuple | None = None  # ((map, size, theme), the cells drawn)
        self._counts = np.zeros((0, 0), dtype=np.int64)  # tokens per cell (0: none), see cell_pixels
        self._ticks = np.zeros((0, 3))  # (row, column, fraction across) of every cut in the number map
        self._arrays_of = None  # the map the arrays above are of (a new map's are made a turn later)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 260)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(720, 560)

    def set_map(self, split_map, column_labels: list[str] | None = None, cells: tuple | None = None) -> None:
        """Show ``split_map`` (None: nothing); ``column_labels`` name indentation's four columns;
        ``cells``: its :func:`~tokviz.ui.vocab.grid.cell_arrays` if computed already (off this thread)."""
        self.split_map = split_map
        self.grid = map_grid(split_map)
        self.row_labels, self.column_labels = [], []
        if split_map is not None and split_map.kind == "numbers":
            width = len(self.grid[0]) if self.grid else 10
            self.row_labels = [str(i * width) if i % 10 == 0 else "" for i in range(len(self.grid))]
            self.column_labels = [str(c) if c % 10 == 0 else "" for c in range(width)]
        elif split_map is not None:
            self.row_labels = [str(n) for n in range(1, len(self.grid) + 1)]
            self.column_labels = list(column_labels or [f"{a}{' + code' if c else ''}" for a, c in INDENT_COLUMNS])
        if cells is not None:  # computed with the map in the vocabulary process
            self._counts, self._ticks = cells
            self._arrays_of = split_map
        # the cells' arrays (when not sent: ~10-35 ms) and their image (~12 ms) each in a turn of
        # their own, then the paint only copies the image: all in the result's turn held the window
        next_turn(self, self._prepare_arrays)

    def _prepare_arrays(self) -> None:
        if self._arrays_of is not self.split_map:
            self._make_arrays()
        next_turn(self, self._prepare_image)

    def _prepare_image(self) -> None:
        if self.grid and self.isVisible():
            self._cells_image(*self._geometry())
        self.update()

    def _make_arrays(self) -> None:
        self._counts, self._ticks = cell_arrays(self.split_map, self.grid)
        self._arrays_of = self.split_map

    def _geometry(self) -> tuple[float, float, float, float]:
        """(left, top, cell width, cell height) of the grid in this widget."""
        fm = QFontMetricsF(ui_font(9))
        left = max((fm.horizontalAdvance(s) for s in self.row_labels), default=0) + 10
        top = fm.height() + 8
        bottom = fm.height() + 14  # the legend
        rows = max(len(self.grid), 1)
        cols = max((len(r) for r in self.grid), default=1)
        cw = (self.width() - left - 6) / cols
        ch = (self.height() - top - bottom) / rows
        return left, top, max(cw, 1.0), max(ch, 1.0)

    def cell_at(self, x: float, y: float):
        """The SplitRow under a point of the widget, or None."""
        left, top, cw, ch = self._geometry()
        r, c = int((y - top) // ch), int((x - left) // cw)
        if 0 <= r < len(self.grid) and 0 <= c < len(self.grid[r]) and x >= left and y >= top:
            return self.grid[r][c]
        return None

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        cell = self.cell_at(event.position().x(), event.position().y())
        if cell is None:
            QToolTip.hideText()
            return
        QToolTip.showText(event.globalPosition().toPoint(), self.cell_text(cell), self)

    def cell_text(self, row) -> str:
        """What hovering a cell says: the text, its pieces and the token count."""
        text = row.text.replace("\n", "⏎").replace("\t", "⇥").replace(" ", "·")
        pieces = " | ".join(p.replace("\n", "⏎").replace("\t", "⇥").replace(" ", "·") for p in row.pieces)
        return self.tr("{text}: {pieces} ({n} tokens)").format(text=text, pieces=pieces, n=row.tokens)

    def _cells_image(self, left: float, top: float, cw: float, ch: float) -> QPixmap:
        """The grid's cells (colour by token count; a dark tick where each cut falls, at its place
        in the text), drawn once per map, size and theme. The colours and ticks are filled as numpy
        arrays: 10,000 cells drawn one QPainter call at a time held the GUI thread ~150 ms."""
        key = (id(self.split_map), self.width(), self.height(), self.dark)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        pixels = cell_pixels(self._counts, self._ticks, (self.width(), self.height()), (left, top, cw, ch))
        image = QImage(pixels.data, pixels.shape[1], pixels.shape[0], 4 * pixels.shape[1], QImage.Format.Format_ARGB32)
        pixmap = QPixmap.fromImage(image)  # a copy: ``pixels`` may go
        if cw >= 24 and ch >= QFontMetricsF(ui_font(9)).height():  # few cells: each says its token count
            p = QPainter(pixmap)
            p.setFont(ui_font(9))
            for r, cells in enumerate(self.grid):
                for c, cell in enumerate(cells):
                    if cell is not None:
                        color = count_color(cell.tokens)
                        p.setPen(QColor("#ffffff") if color.lightness() < 128 else QColor("#111111"))
                        x, y = left + c * cw, top + r * ch
                        p.drawText(QRectF(x, y, cw, ch), Qt.AlignmentFlag.AlignCenter, str(cell.tokens))
            p.end()
        self._cache = (key, pixmap)
        return pixmap

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        bg = QColor("#202020") if self.dark else QColor("#ffffff")
        fg = QColor("#dddddd") if self.dark else QColor("#333333")
        p.fillRect(self.rect(), bg)
        if not self.grid:
            p.setPen(fg)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("No map yet"))
            return
        font = ui_font(9)
        p.setFont(font)
        fm = QFontMetricsF(font)
        left, top, cw, ch = self._geometry()
        if self._arrays_of is not self.split_map:  # painted before its turn came (a grab, a resize)
            self._make_arrays()
        p.drawPixmap(0, 0, self._cells_image(left, top, cw, ch))
        p.setPen(fg)
        for r, label in enumerate(self.row_labels):
            if label:
                p.drawText(
                    QRectF(0, top + r * ch, left - 6, max(ch, fm.height())),
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop,
                    label,
                )
        for c, label in enumerate(self.column_labels):
            if label:
                w = max(cw, fm.horizontalAdvance(label) + 4)
                p.drawText(QRectF(left + c * cw, 2, w, fm.height()), Qt.AlignmentFlag.AlignLeft, label)
        self._paint_legend(p, fm, fg, left)
        p.end()

    def _paint_legend(self, p: QPainter, fm: QFontMetricsF, fg: QColor, left: float) -> None:
        y = self.height() - fm.height() - 4
        x = left
        for k in range(1, len(PALETTE) + 1):
            p.fillRect(QRectF(x, y + 2, 12, fm.height() - 4), count_color(k))
            p.setPen(QPen(fg))
            label = (
                self.tr("{n}+ tokens")
                if k == len(PALETTE)
                else self.tr("{n} tokens")
                if k > 1
                else self.tr("{n} token")
            ).format(n=k)
            p.drawText(
                QRectF(x + 16, y, fm.horizontalAdvance(label) + 4, fm.height()), Qt.AlignmentFlag.AlignLeft, label
            )
            x += 16 + fm.horizontalAdvance(label) + 14
