"""The strip above a panel's views for a problem with the input or a notice, with at most one fix-it
action. Every panel uses this one (messages in the panel, never a traceback dialog)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

# (background, text) per level: fixed light colours with the text at >= 7:1 on them, so a message
# reads the same on the light and the dark theme
LEVEL_COLORS = {"error": ("#fde2e1", "#8a1c16"), "warning": ("#fff3cd", "#6b4e00"), "info": ("#e3eefc", "#17406d"),
                "success": ("#dcf3e2", "#14532d")}  # something done (saved, exported): green, never error pink


class MessageBar(QFrame):
    """A message with an optional action button and a dismiss button; hidden when there is nothing to say.

    In a layout it takes room when it shows. :meth:`over` makes one that floats over the top of a
    widget instead, so a message never moves the controls under the user's pointer (a save banner
    pushed Compare's layout down ~25 px and the next click landed on the wrong control).

    >>> bar.show_message("bad byte at 3", "error", "Replace", fix)   # doctest: +SKIP
    """

    MARGIN = 6  # around a floating bar, so the edge of what it covers still shows

    @classmethod
    def over(cls, host: QWidget, parent: QWidget) -> MessageBar:
        """A bar floating over the top of ``host`` (not in any layout), as wide as ``host``; ``parent``
        holds ``host`` (a QSplitter would take a child of its own as one more pane)."""
        bar = cls(parent)
        bar._host = host
        # the host moves on screen when it or any widget between it and ``parent`` moves or resizes
        widget = host
        while widget is not None and widget is not parent:
            widget.installEventFilter(bar)
            widget = widget.parentWidget()
        return bar

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move) and not self.isHidden():
            self._place()
        return False

    def _place(self) -> None:
        host = self._host
        top_left = host.mapTo(self.parentWidget(), host.rect().topLeft())
        width = max(0, host.width() - 2 * self.MARGIN)
        # the wrapped label's height at this width (its size hint assumes a narrow, many-line label)
        height = self.heightForWidth(width) if self.hasHeightForWidth() else -1
        height = height if height > 0 else self.sizeHint().height()
        self.setGeometry(top_left.x() + self.MARGIN, top_left.y() + self.MARGIN, width, height)
        self.raise_()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._host: QWidget | None = None
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
        if self._host is not None:
            self._place()

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
