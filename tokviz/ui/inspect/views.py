"""The Inspector's small widgets: the editor (pastes keep lone surrogates for the panel's check), the
details box beside the byte layers, the counts bar and the splitter that knows when the user sized it."""

from __future__ import annotations

import codecs

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from tokviz.core.metrics import Metrics
from tokviz.ui import fonts
from tokviz.ui.common.exact_text import mime_payload, mime_text

DECODE_SLICE_BYTES = 1 << 20  # a bigger paste is decoded one slice per event-loop turn (about a millisecond each)


class TextEditor(QPlainTextEdit):
    """The editor; pastes go through the panel, which refuses lone surrogates with a message.

    A paste of more than :data:`DECODE_SLICE_BYTES` is decoded a slice per event-loop turn (decoding
    5 MB of Korean and emoji at once held the GUI thread ~20 ms, twice that on a busy machine): the
    editor is read-only meanwhile and ``pasted`` comes when the whole text is there.
    """

    pasted = Signal(object)  # object, not str: a QString would silently drop a lone surrogate

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._decoding: SlicedDecode | None = None

    def insertFromMimeData(self, source) -> None:  # noqa: N802
        payload = mime_payload(source)
        if payload is None or len(payload[0]) <= DECODE_SLICE_BYTES:
            self.pasted.emit(mime_text(source))
            return
        if self._decoding is not None:
            self._decoding.stop()  # a newer paste takes its place
            self.setReadOnly(self._decoding.was_read_only)
        was_read_only = self.isReadOnly()
        self.setReadOnly(True)
        self._decoding = SlicedDecode(*payload, self._decoded, self)
        self._decoding.was_read_only = was_read_only

    def decoding(self) -> bool:
        """A big paste is still being decoded (it is inserted when done)."""
        return self._decoding is not None

    def _decoded(self, text: str) -> None:
        self.setReadOnly(self._decoding.was_read_only)
        self._decoding = None
        self.pasted.emit(text)


class SlicedDecode(QObject):
    """Decodes ``data`` with ``codec`` (surrogates passed through, as :func:`mime_text` does) one
    :data:`DECODE_SLICE_BYTES` slice per event-loop turn, then calls ``done`` with the text. Bytes
    that are not even that are decoded with U+FFFD replacements (as Qt's own text would have them)."""

    def __init__(self, data, codec: str, done, parent: QObject | None = None):
        super().__init__(parent)
        self.was_read_only = False
        self._data, self._codec, self._done = data, codec, done
        self._decoder = codecs.getincrementaldecoder(codec)("surrogatepass")
        self._parts: list[str] = []
        self._at = 0
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _step(self) -> None:
        a, end = self._at, len(self._data)
        b = min(a + DECODE_SLICE_BYTES, end)
        try:
            self._parts.append(self._decoder.decode(self._data[a:b], b == end))
        except UnicodeDecodeError:
            self._parts = [bytes(self._data).decode(self._codec, "replace")]
            b = end
        self._at = b
        if b < end:
            return
        self._timer.stop()
        text = "".join(self._parts)
        self._parts = []
        self._done(text)


class DetailsBox(QPlainTextEdit):
    """The selection's id, bytes and piece beside the byte layers. Read-only text on the window's
    own palette colours (no style sheet: a widget with one keeps its old colours after a theme
    switch); the hint sentence wraps, the column tables scroll rather than wrap."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setBackgroundRole(QPalette.ColorRole.Window)
        self.viewport().setBackgroundRole(QPalette.ColorRole.Window)
        self.viewport().setForegroundRole(QPalette.ColorRole.WindowText)
        self.setForegroundRole(QPalette.ColorRole.WindowText)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)

    def setText(self, text: str) -> None:  # noqa: N802 (QLabel's name, which callers know)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap if "\n" in text
                             else QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setPlainText(text)

    def text(self) -> str:
        return self.toPlainText()


class CountsBar(QWidget):
    """Tokens, characters, bytes, words, chars/token, bytes/token, partial tokens — large, for demos."""

    FIELDS = (
        ("tokens", "tokens"), ("characters", "characters"), ("bytes", "bytes"), ("words", "words"),
        ("chars_per_token", "chars / token"), ("bytes_per_token", "bytes / token"),
        ("partial_tokens", "partial-char tokens"),
    )

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(4, 2, 4, 2)
        self.values: dict[str, QLabel] = {}
        self.titles: list[QLabel] = []
        self._boxes: list[QWidget] = []
        self.columns = len(self.FIELDS)
        titles = [self.tr("tokens"), self.tr("characters"), self.tr("bytes"), self.tr("words"),
                  self.tr("chars / token"), self.tr("bytes / token"), self.tr("partial-char tokens")]
        for (key, _), title in zip(self.FIELDS, titles, strict=True):
            cell = QWidget()
            box = QVBoxLayout(cell)
            box.setContentsMargins(0, 0, 0, 0)
            box.setSpacing(0)
            v = QLabel("–")
            v.setAlignment(Qt.AlignmentFlag.AlignCenter)
            t = QLabel(title)
            self.titles.append(t)
            t.setAlignment(Qt.AlignmentFlag.AlignCenter)
            box.addWidget(v)
            box.addWidget(t)
            self._boxes.append(cell)
            self.values[key] = v
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self._place()
        self.refresh_fonts()

    def set_columns(self, columns: int) -> None:
        """All seven counts on one row (under the token view), or ``columns`` to a row in smaller
        fonts (in the column beside the byte layers, on a short screen)."""
        if columns != self.columns:
            self.columns = columns
            self._place()
            self.refresh_fonts()

    def _place(self) -> None:
        for w in (*self._boxes, self.note):
            self._grid.removeWidget(w)
        for c in range(self._grid.columnCount()):
            self._grid.setColumnStretch(c, 0)
        n = self.columns
        for i, cell in enumerate(self._boxes):
            self._grid.addWidget(cell, i // n, i % n)
        for c in range(n):
            self._grid.setColumnStretch(c, 1)
        if n >= len(self._boxes):
            self._grid.addWidget(self.note, 0, n)
            self._grid.setColumnStretch(n, 2)
        else:
            self._grid.addWidget(self.note, (len(self._boxes) + n - 1) // n, 0, 1, n)
        self._grid.setVerticalSpacing(2 if n < len(self._boxes) else 6)

    def show_metrics(self, m: Metrics | None) -> None:
        for key, _ in self.FIELDS:
            if m is None:
                self.values[key].setText("–")
                continue
            v = getattr(m, key)
            self.values[key].setText(f"{v:.2f}" if isinstance(v, float) else f"{v:,}")

    def refresh_fonts(self) -> None:
        # in columns (a short projector screen) the numbers grow by half the font scale, not all of it
        s = fonts.scale()
        k = 1.0 if self.columns >= len(self._boxes) or s <= 1 else (1 + (s - 1) * 0.5) / s
        for v in self.values.values():
            v.setFont(fonts.ui_font(16 * k))
        for t in self.titles:
            t.setFont(fonts.ui_font(9 * k))

    def value(self, key: str) -> str:
        return self.values[key].text()


class LayersSplitter(QSplitter):
    """The splitter between the tokens and the byte layers. It knows when its sizes are the user's:
    dragged, or restored from the settings (the main window calls :meth:`restoreState`); the panel
    then stops fitting it to the layers' rows, which would undo the user's choice at the next
    resize or token click."""

    def __init__(self, orientation, parent: QWidget | None = None):
        super().__init__(orientation, parent)
        self.user_sized = False
        self.splitterMoved.connect(self._on_moved)  # emitted for drags only, not for setSizes

    def _on_moved(self, *_args) -> None:
        self.user_sized = True

    def restoreState(self, state) -> bool:  # noqa: N802 (Qt's name)
        restored = super().restoreState(state)
        self.user_sized = self.user_sized or restored
        return restored
