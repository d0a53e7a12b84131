"""The learned-vocabulary table's view: its columns always fit the pane's width, so that no column is
pushed behind a horizontal scroll bar (presentation fonts on a 1366×768 projector cut off the last one)."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHeaderView, QTableView

TOKEN, HEX = 1, 2  # the columns that give way when the pane is narrow, the token's first


class VocabTable(QTableView):
    """A table whose columns take their wanted widths, the token column any room left; when the pane is
    too narrow the token column shrinks, then the hex one, each down to its floor (cells are elided, the
    whole hex is in their tooltips)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._wanted: list[int] = []
        self._floors: list[int] = []
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setStretchLastSection(False)

    def set_widths(self, wanted: list[int], floors: list[int]) -> None:
        """The columns' widths when there is room (``wanted``) and the least each may shrink to."""
        self._wanted, self._floors = list(wanted), list(floors)
        self.fit_columns()

    def fit_columns(self) -> None:
        if not self._wanted:
            return
        header = self.horizontalHeader()
        widths = list(self._wanted)
        floors = [max(f, header.minimumSectionSize()) for f in self._floors]
        over = sum(widths) - self.viewport().width()
        if over < 0:
            widths[TOKEN] -= over  # the room left goes to the pieces
        for col in (TOKEN, HEX):  # the hex keeps its six bytes as long as the token column can give way
            give = max(0, min(over, widths[col] - floors[col]))
            widths[col] -= give
            over -= give
        for col, width in enumerate(widths):
            if header.sectionSize(col) != width:
                header.resizeSection(col, width)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Resize:
            self.fit_columns()  # a vertical scroll bar that comes or goes changes the width too
        return super().viewportEvent(event)
