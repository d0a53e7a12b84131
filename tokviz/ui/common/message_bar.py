"""The strip above a panel's views for a problem with the input or a notice, with at most one fix-it
action. Every panel uses this one (messages in the panel, never a traceback dialog)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

# (background, text) per level: fixed light colours with the text at >= 7:1 on them, so a message
# reads the same on the light and the dark theme
LEVEL_COLORS = {"error": ("#fde2e1", "#8a1c16"), "warning": ("#fff3cd", "#6b4e00"), "info": ("#e3eefc", "#17406d"),
                "success": ("#dcf3e2", "#14532d")}  # something done (saved, exported): green, never error pink


class MessageBar(QFrame):
    """A message with an optional action button and a dismiss button; hidden when there is nothing to say.

    >>> bar.show_message("bad byte at 3", "error", "Replace", fix)   # doctest: +SKIP
    """

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("messageBar")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 6, 6)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action = QPushButton()
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setToolTip(self.tr("Dismiss"))
        self.close_button.clicked.connect(self.clear)
        lay.addWidget(self.label, 1)
        lay.addWidget(self.action)
        lay.addWidget(self.close_button)
        self.level = ""
        self._callback: Callable[[], None] | None = None
        self.action.clicked.connect(self._run)
        self.hide()

    def show_message(self, text: str, level: str = "error", action: str | None = None,
                     callback: Callable[[], None] | None = None) -> None:
        """Show ``text`` at ``level`` ("error", "warning", "info", "success"); ``action`` names a button
        that calls ``callback``."""
        bg, fg = LEVEL_COLORS[level]
        self.setStyleSheet(f"#messageBar {{ background: {bg}; border-radius: 4px; }} "
                           f"#messageBar QLabel {{ color: {fg}; }}")
        self.label.setText(text)
        self.level = level
        self._callback = callback
        self.action.setVisible(action is not None)
        self.action.setText(action or "")
        self.show()

    def colors(self) -> tuple[QColor, QColor]:
        """(background, text) colours of the message shown."""
        bg, fg = LEVEL_COLORS.get(self.level, LEVEL_COLORS["error"])
        return QColor(bg), QColor(fg)

    def text(self) -> str:
        """The message shown ("" when the bar is hidden)."""
        return "" if self.isHidden() else self.label.text()

    def action_text(self) -> str:
        return self.action.text() if self.action.isVisibleTo(self) else ""

    def clear(self) -> None:
        self.label.clear()
        self._callback = None
        self.hide()

    def _run(self) -> None:
        callback = self._callback
        self.clear()
        if callback is not None:
            callback()
