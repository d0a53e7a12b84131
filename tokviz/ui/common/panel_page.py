"""A tab's page: its panel fills it, and it scrolls only when the window is smaller than the panel's
controls need.

Panels are built when first shown, after the window has taken the size the user chose. A panel
that needed more room than the ones shown before it widened the window the moment it appeared (the
Train panel's settings row, Compare's tab bars). In a page it gets the page's size when that is at
least its minimum, and scroll bars otherwise.

Unlike ``QScrollArea.setWidgetResizable(True)``, the panel is never made taller than the page to
satisfy a word-wrapped label's height-for-width: the panel lays itself out in the height it has, as
it does outside a scroll area (a scroll bar that came and went with a label's text moved the
whole panel between two frames).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget


class PanelPage(QScrollArea):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)

    def set_panel(self, panel: QWidget) -> None:
        self.setWidget(panel)
        panel.installEventFilter(self)  # its minimum size changes with its contents (LayoutRequest)
        self.fit()

    def fit(self) -> None:
        """Give the panel the page's size, or its minimum where the page is smaller."""
        panel = self.widget()
        if panel is None:
            return
        need = panel.minimumSizeHint().expandedTo(panel.minimumSize())
        room = self.maximumViewportSize()  # the page without scroll bars
        # a scroll bar in one direction takes room from the other
        bar_w, bar_h = self.verticalScrollBar().sizeHint().width(), self.horizontalScrollBar().sizeHint().height()
        wide, tall = need.width() > room.width(), need.height() > room.height()
        if wide and not tall:
            tall = need.height() > room.height() - bar_h
        if tall and not wide:
            wide = need.width() > room.width() - bar_w
        width = room.width() - (bar_w if tall else 0)
        height = room.height() - (bar_h if wide else 0)
        size = QSize(max(width, need.width()), max(height, need.height()))
        if panel.size() != size:
            panel.resize(size)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit()
        return False
