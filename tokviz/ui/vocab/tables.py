"""Sortable, searchable lists of up to 200,000 tokens that never sort or filter on the GUI thread:
the worker hands over each column's order (:class:`~tokviz.ui.vocab.jobs.RowTable`), so a click on a
header only picks an order, and a search only keeps the rows a worker found."""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

from tokviz.ui.common.turns import next_turn
from tokviz.ui.fonts import mono_font
from tokviz.ui.vocab.jobs import RowTable, shown

# column identifiers (English, as the jobs name them) and their titles, translated when shown
HEADERS = {
    "id": QT_TRANSLATE_NOOP("VocabRowsModel", "id"),
    "token": QT_TRANSLATE_NOOP("VocabRowsModel", "token"),
    "script": QT_TRANSLATE_NOOP("VocabRowsModel", "script"),
    "encodes as": QT_TRANSLATE_NOOP("VocabRowsModel", "encodes as"),
    "id in B": QT_TRANSLATE_NOOP("VocabRowsModel", "id in B"),
    "used": QT_TRANSLATE_NOOP("VocabRowsModel", "used"),
    "of": QT_TRANSLATE_NOOP("VocabRowsModel", "of"),
    "share %": QT_TRANSLATE_NOOP("VocabRowsModel", "share %"),
}
SCRIPT_NAMES = {
    "hangul": QT_TRANSLATE_NOOP("VocabRowsModel", "Hangul"),
    "latin": QT_TRANSLATE_NOOP("VocabRowsModel", "Latin"),
    "cjk": QT_TRANSLATE_NOOP("VocabRowsModel", "CJK"),
    "digits": QT_TRANSLATE_NOOP("VocabRowsModel", "digits"),
    "whitespace/code": QT_TRANSLATE_NOOP("VocabRowsModel", "whitespace/code"),
    "partial": QT_TRANSLATE_NOOP("VocabRowsModel", "partial UTF-8"),
    "other": QT_TRANSLATE_NOOP("VocabRowsModel", "other"),
}


class VocabRowsModel(QAbstractTableModel):
    """Shows ``table``'s rows in ``self.visible`` order (row indices into the table)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.table: RowTable | None = None
        self.visible = np.zeros(0, dtype=np.int64)
        self._keep: np.ndarray | None = None  # mask of rows a search kept (None: all)
        self._sort = (0, Qt.SortOrder.AscendingOrder)
        self._font = mono_font()

    def set_table(self, table: RowTable | None) -> None:
        self.beginResetModel()
        self.table = table
        self._keep = None
        self._order()
        self.endResetModel()

    def set_matches(self, rows: np.ndarray | None) -> None:
        """Show only ``rows`` (indices a search found; None: every row)."""
        if self.table is None:
            return
        self.beginResetModel()
        if rows is None:
            self._keep = None
        else:
            self._keep = np.zeros(len(self.table), dtype=bool)
            self._keep[rows] = True
        self._order()
        self.endResetModel()

    def _order(self) -> None:
        if self.table is None or not len(self.table):
            self.visible = np.zeros(0, dtype=np.int64)
            return
        column, order = self._sort
        rows = self.table.orders[min(column, len(self.table.orders) - 1)]
        if order == Qt.SortOrder.DescendingOrder:
            rows = rows[::-1]
        self.visible = rows if self._keep is None else rows[self._keep[rows]]

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        self._sort = (column, order)
        if self.table is not None:
            self.layoutAboutToBeChanged.emit()
            self._order()
            self.layoutChanged.emit()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.visible)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() or self.table is None else len(self.table.headers)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and self.table:
            name = self.table.headers[section]
            return self.tr(HEADERS[name]) if name in HEADERS else name  # others are names (of encoders)
        return None

    def value(self, row: int, column: int):
        """The value at a visible row (tests, the panel's selection)."""
        return self.table.columns[column][int(self.visible[row])]

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        # a paint asks every visible cell for ~8 roles: the ones not drawn from the value are answered
        # before the value is looked up (three 100,000-row lists painted in ~100 ms otherwise)
        if role not in _ROLES or not index.isValid() or self.table is None:
            return None
        name = self.table.headers[index.column()]
        if role == Qt.ItemDataRole.FontRole:
            return self._font if name in ("token", "encodes as") else None
        value = self.value(index.row(), index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            if name == "script":
                return self.tr(SCRIPT_NAMES.get(value, value))
            if isinstance(value, bytes):
                return shown(value)
            if isinstance(value, float):
                return f"{value:.1f}"
            if isinstance(value, (int, np.integer)) and name not in ("id", "id in B"):
                return f"{value:,}"
            return value
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{shown(value)}\n{value.hex(' ').upper()}" if isinstance(value, bytes) else None
        if isinstance(value, (int, float, np.integer)):  # TextAlignmentRole
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


_ROLES = frozenset(
    (
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.FontRole,
        Qt.ItemDataRole.TextAlignmentRole,
    )
)


class RowsBox(QWidget):
    """A title with the row count over a sortable table of a :class:`RowTable`."""

    activated = Signal(int)  # the id in the first column of a row the user double-clicked

    def __init__(self, parent=None, *, long: bool = True):
        """``long``: a list of thousands of rows, whose scroll bar is always there (see below)."""
        super().__init__(parent)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        box.addWidget(self.title)
        self.model = VocabRowsModel(self)
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        if long:
            # a scroll bar that appears with the rows shrinks the view and has every list painted twice
            # (the diff tab's three lists: ~50 ms of the GUI thread more on each new diff)
            self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.horizontalHeader().setDefaultSectionSize(84)
        self.view.doubleClicked.connect(self._on_double_click)
        box.addWidget(self.view, 1)

    def set_title(self, text: str) -> None:
        self.title.setText(text)

    def set_table(self, table: RowTable | None) -> None:
        self.model.set_table(table)

    def _on_double_click(self, index) -> None:
        if self.model.table is not None and self.model.table.headers[0] == "id":
            self.activated.emit(int(self.model.value(index.row(), 0)))


WARM_SLICE_S = 0.006  # a turn of drawing a list's visible text ahead of its paint, at most about this long


def paint_in_turns(boxes: list[RowsBox]) -> None:
    """Have each of ``boxes`` (lists whose tables were just set) painted in event-loop turns of its own.

    A list's first paint was 10-80 ms of Qt's drawing, and the diff's three lists painted in one turn
    kept the window from answering for ~50-100 ms. Most of a first paint is making the glyphs of
    characters not drawn before (CJK, Cyrillic, emoji in tokens of 200,000-token vocabularies): each
    box's visible cells are therefore first drawn into a scratch image a few at a time (the raster
    engine's glyph cache is the font's, shared with the window), then the box is painted, which then
    only copies cached glyphs. The models are set already; only the paint waits."""
    if not boxes:
        return
    for box in boxes:
        box.view.setUpdatesEnabled(False)
    steps = []
    for box in boxes:
        steps.extend(_warm_slices(box))
        steps.append(lambda box=box: _paint(box))
    _run_in_turns(boxes[0], iter(steps))


def _paint(box: RowsBox) -> bool:
    """Paint ``box`` now, alone in its turn: enabled and left to the next update, two lists' paints
    could fall into one turn after all."""
    box.view.setUpdatesEnabled(True)
    box.view.viewport().repaint()
    return True  # the turn ends here


def _run_in_turns(owner: QWidget, steps) -> None:
    """Run ``steps`` (callables) until about WARM_SLICE_S has passed or one says its turn is over
    (returns True), then go on in the next turn of the event loop."""
    deadline = time.perf_counter() + WARM_SLICE_S
    for step in steps:
        if step() or time.perf_counter() >= deadline:
            next_turn(owner, lambda: _run_in_turns(owner, steps))
            return


def _warm_slices(box: RowsBox) -> list:
    """One callable per visible row of ``box``: draw its cells' text, in their fonts, off screen."""
    view, model = box.view, box.model
    rows = min(model.rowCount(), view.viewport().height() // max(1, view.verticalHeader().defaultSectionSize()) + 2)
    image = QImage(8, 8, QImage.Format.Format_ARGB32_Premultiplied)

    def warm(row: int) -> None:
        painter = QPainter(image)
        try:
            for column in range(model.columnCount()):
                index = model.index(row, column)
                text = model.data(index, Qt.ItemDataRole.DisplayRole)
                if isinstance(text, str) and text:
                    painter.setFont(model.data(index, Qt.ItemDataRole.FontRole) or view.font())
                    painter.drawText(0, 6, text)
        finally:
            painter.end()

    return [lambda row=row: warm(row) for row in range(rows)]
