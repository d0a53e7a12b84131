"""The number and indentation maps as heatmaps: one cell per text, coloured by how many tokens the
encoder splits it into; hovering a cell shows where the cuts fall (``123|4``).

Numbers 0–9999 are a 100 × 100 grid (row = hundreds, column = the last two digits); indentation is
16 rows (1–16 characters) by four columns: spaces, spaces before code, tabs, tabs before code. In the
number map a dark tick inside each cell marks where each cut falls (``123|4``: three quarters across).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from tokviz.ui.fonts import ui_font

# token count -> colour (the last one stands for that many or more)
PALETTE = ("#edf8e9", "#bae4b3", "#74c476", "#31a354", "#006d2c", "#00441b")
INDENT_COLUMNS = (("space", False), ("space", True), ("tab", False), ("tab", True))


def count_color(tokens: int) -> QColor:
    return QColor(PALETTE[max(0, min(tokens, len(PALETTE)) - 1)])


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
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 260)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(720, 560)

    def set_map(self, split_map, column_labels: list[str] | None = None) -> None:
        """Show ``split_map`` (None: nothing); ``column_labels`` name indentation's four columns."""
        self.split_map = split_map
        self.grid, self.row_labels, self.column_labels = [], [], []
        if split_map is not None and split_map.kind == "numbers":
            rows = list(split_map.rows)
            width = 100 if len(rows) > 100 else 10
            self.grid = [rows[i : i + width] for i in range(0, len(rows), width)]
            self.row_labels = [str(i * width) if i % 10 == 0 else "" for i in range(len(self.grid))]
            self.column_labels = [str(c) if c % 10 == 0 else "" for c in range(width)]
        elif split_map is not None:
            by_label = {r.label: r for r in split_map.rows}
            longest = max((int(r.label.split()[0]) for r in split_map.rows), default=0)
            for n in range(1, longest + 1):
                cells = []
                for name, code in INDENT_COLUMNS:
                    label = f"{n} {name}{'s' if n > 1 else ''}" + (" + code" if code else "")
                    cells.append(by_label.get(label))
                self.grid.append(cells)
            self.row_labels = [str(n) for n in range(1, longest + 1)]
            self.column_labels = list(column_labels or [f"{a}{' + code' if c else ''}" for a, c in INDENT_COLUMNS])
        self.update()

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
        in the text), drawn once per map, size and theme: 10,000 cells are too many to draw per paint."""
        key = (id(self.split_map), self.width(), self.height(), self.dark)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        image = QPixmap(self.size())
        image.fill(Qt.GlobalColor.transparent)
        p = QPainter(image)
        big = cw >= 24 and ch >= QFontMetricsF(ui_font(9)).height()
        p.setFont(ui_font(9))
        tick = QColor(0, 0, 0, 150)
        for r, cells in enumerate(self.grid):
            for c, cell in enumerate(cells):
                if cell is None:
                    continue
                x, y = left + c * cw, top + r * ch
                color = count_color(cell.tokens)
                p.fillRect(QRectF(x, y, cw + 0.5, ch + 0.5), color)
                if cw >= 6 and self.split_map.kind == "numbers":
                    for cut in cell.cuts:
                        p.fillRect(QRectF(x + cw * cut / len(cell.text), y, 1.0, ch + 0.5), tick)
                if big:
                    p.setPen(QColor("#ffffff") if color.lightness() < 128 else QColor("#111111"))
                    p.drawText(QRectF(x, y, cw, ch), Qt.AlignmentFlag.AlignCenter, str(cell.tokens))
        p.end()
        self._cache = (key, image)
        return image

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
