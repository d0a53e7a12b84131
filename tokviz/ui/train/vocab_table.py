"""The learned-vocabulary table's view: its columns always fit the pane's width, so that no column is
pushed behind a horizontal scroll bar (presentation fonts on a 1366×768 projector cut off the last one),
and the token column - what a lecture is about - shows whole tokens first."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHeaderView, QTableView

TOKEN, HEX = 1, 2  # the column shown whole, and the one that gives way for it
CELL_PAD = 14  # a cell's text margins and grid line, as the wanted widths count them


class VocabTable(QTableView):
    """A table whose columns take their wanted widths, the token column at least as wide as the widest
    token it has shown in this run, and any room left. When the pane is too narrow, at a desk the token
    column shrinks first, then the hex one, each down to its floor (cells are elided, their tooltips
    whole); in presentation mode the tokens come first: the hex column gives way to its floor, then is
    hidden (the token's tooltip holds the hex too), and only then does the token column shrink.

    The token column's width only grows while a run lasts (rows come and go every frame; a column that
    followed them would jump): each row's token is measured once, when it first comes into view."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._wanted: list[int] = []
        self._floors: list[int] = []
        self._tokens_first = False
        self._widest = 0  # the widest token text shown since the model was last reset (pixels)
        self._measured: dict[object, int] = {}  # each row's token text width, by the row's UserRole (token id)
        self._seen = (-1, -1)  # the rows in view at the last look, unchanged since (none: (-1, -1))
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        header.installEventFilter(self)  # its font grows after the panel's (presentation mode): fit again
        self.verticalScrollBar().valueChanged.connect(self._measure_visible)

    def setModel(self, model) -> None:  # noqa: N802 (Qt naming)
        super().setModel(model)
        model.rowsInserted.connect(self._rows_inserted)
        for moved in (model.rowsRemoved, model.layoutChanged):
            moved.connect(self._look_again)
        model.modelReset.connect(self._forget_widths)
        model.dataChanged.connect(self._renamed)
        model.headerDataChanged.connect(self.fit_columns)  # titles in another language

    def set_widths(self, wanted: list[int], floors: list[int], *, tokens_first: bool = False) -> None:
        """The columns' widths when there is room (``wanted``) and the least each may shrink to.
        ``tokens_first`` (presentation mode: the room reads the tokens from afar): the hex column gives
        way before the token column, down to hidden."""
        self._wanted, self._floors, self._tokens_first = list(wanted), list(floors), tokens_first
        self.fit_columns()

    def token_need(self) -> int:
        """The token column's width for the widest token shown so far (at least its floor)."""
        floor = self._floors[TOKEN] if self._floors else 0
        return max(floor, self._widest + CELL_PAD if self._widest else 0)

    def fit_columns(self) -> None:
        if not self._wanted:
            return
        header = self.horizontalHeader()
        # no title is cut either, measured in the header's font of now
        floors = [max(f, header.minimumSectionSize(), self._title_width(c)) for c, f in enumerate(self._floors)]
        widths = [max(w, f) for w, f in zip(self._wanted, floors, strict=True)]
        widths[TOKEN] = max(floors[TOKEN], self.token_need())
        over = sum(widths) - self.viewport().width()
        hide_hex = False
        if self._tokens_first:  # the hex gives way to its floor, then goes (the token's tooltip has it too)
            over = _give(widths, floors, HEX, over)
            hide_hex = over > 0
            if hide_hex:
                over -= widths[HEX]
                widths[HEX] = 0
        if over < 0:
            widths[TOKEN] -= over  # the room left goes to the pieces
        for col in (TOKEN, HEX):  # at a desk the hex keeps its six bytes while the token column can give way
            over = _give(widths, floors, col, over)
        if self.isColumnHidden(HEX) != hide_hex:
            self.setColumnHidden(HEX, hide_hex)
        for col, width in enumerate(widths):
            if width and header.sectionSize(col) != width:
                header.resizeSection(col, width)

    def _title_width(self, col: int) -> int:
        model = self.model()
        title = model.headerData(col, Qt.Orientation.Horizontal) if model is not None else None
        return QFontMetrics(self.horizontalHeader().font()).horizontalAdvance(str(title or "")) + CELL_PAD

    def eventFilter(self, watched, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        if watched is self.horizontalHeader() and event.type() == QEvent.Type.FontChange:
            self.fit_columns()
        return super().eventFilter(watched, event)

    def _forget_widths(self) -> None:
        """A new run or new fonts: the tokens are measured anew."""
        self._widest = 0
        self._measured.clear()
        self._look_again()
        self.fit_columns()

    def _renamed(self, top_left, bottom_right, *_roles) -> None:
        """The tokens' texts changed (byte pieces named by their characters): measured again as they
        come into view; the column keeps its width (it only grows)."""
        if top_left.column() <= TOKEN <= bottom_right.column():
            self._measured.clear()
            self._look_again()

    def _rows_inserted(self, _parent, first: int, _last: int) -> None:
        # a run appends its merges below the rows in view (the usual case): nothing to look at
        if first <= self._seen[1]:
            self._seen = (-1, -1)
        self._measure_visible()

    def _look_again(self, *_args) -> None:
        """The rows in view may hold other tokens now."""
        self._seen = (-1, -1)
        self._measure_visible()

    def _measure_visible(self, *_args) -> None:
        """Measure the rows in view not measured yet; a wider token than any before widens the column."""
        model = self.model()
        if model is None or model.rowCount() == 0:
            self._seen = (-1, -1)
            return
        first = max(0, self.rowAt(0))
        last = self.rowAt(self.viewport().height() - 1)
        if last < 0:
            last = model.rowCount() - 1
        if (first, last) == self._seen:
            return  # every frame of a run inserts rows: the rows in view are those already measured
        self._seen = (first, last)
        widest, metrics = self._widest, None
        for row in range(first, last + 1):
            index = model.index(row, TOKEN)
            key = index.data(Qt.ItemDataRole.UserRole)
            width = self._measured.get(key) if key is not None else None
            if width is None:
                if metrics is None:
                    metrics = QFontMetrics(index.data(Qt.ItemDataRole.FontRole) or self.font())
                width = metrics.horizontalAdvance(str(index.data() or ""))
                if key is not None:
                    self._measured[key] = width
            widest = max(widest, width)
        if widest > self._widest:
            self._widest = widest
            self.fit_columns()

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Resize:
            self._measure_visible()  # a taller pane shows more rows
            self.fit_columns()  # a vertical scroll bar that comes or goes changes the width too
        return super().viewportEvent(event)


def _give(widths: list[int], floors: list[int], col: int, over: int) -> int:
    """Shrink column ``col`` by up to ``over`` pixels, not below its floor; the pixels still over."""
    give = max(0, min(over, widths[col] - floors[col]))
    widths[col] -= give
    return over - give
