"""Sortable, searchable lists of up to 200,000 tokens that never sort or filter on the GUI thread:
the worker hands over each column's order (:class:`~tokviz.ui.vocab.jobs.RowTable`), so a click on a
header only picks an order, and a search only keeps the rows a worker found."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractTableModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableView, QVBoxLayout, QWidget

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


def paint_in_turns(boxes: list[RowsBox]) -> None:
    """Have each of ``boxes`` (lists whose tables were just set) painted in an event-loop turn of its
    own: a list's paint is 10-20 ms of Qt's drawing, and the diff's three lists painted in one turn
    kept the window from answering for ~50-100 ms. The models are set already; only the paint waits."""
    for box in boxes[1:]:
        box.view.setUpdatesEnabled(False)
    if len(boxes) > 1:
        QTimer.singleShot(0, boxes[1], lambda: _paint_next(boxes[1:]))


def _paint_next(boxes: list[RowsBox]) -> None:
    boxes[0].view.setUpdatesEnabled(True)  # its paint is queued; the next list's comes a turn later
    if len(boxes) > 1:
        QTimer.singleShot(0, boxes[1], lambda: _paint_next(boxes[1:]))
