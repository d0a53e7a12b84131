"""The user's exact text behind a QPlainTextEdit.

Qt does not keep a plain text as it was given. ``QPlainTextEdit.toPlainText()`` turns NBSP into a space
and U+2028 into "\\n"; and already when text goes in (``setPlainText``, ``insertPlainText``, a paste)
every "\\r\\n", lone "\\r", "\\n", U+2029 (and Qt's frame markers U+FDD0/U+FDD1) becomes the same block
boundary, so which one the user had is lost. Everything else (NBSP, U+2028, BOM, tabs, NUL, controls)
stays in the document's raw text (``QTextDocument.toRawText()``, block boundaries as U+2029).

:class:`ExactText` therefore keeps one thing beside the document: the list of line breaks as they
really were, one per block boundary, updated from the document's ``contentsChange`` signal. The exact
text is the raw text with each boundary replaced by its own break:

    >>> exact = ExactText(editor)
    >>> exact.set_text("a\\u00a0b\\r\\nc\\rd")
    >>> exact.text() == "a\\u00a0b\\r\\nc\\rd"
    True

Enter typed by the user is "\\n"; text inserted through :meth:`ExactText.insert` (pastes, opened files)
keeps its own breaks (and a leading U+FEFF, which Qt would drop as a byte-order mark); an undo or redo
puts back the breaks the undone edit had.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QGuiApplication, QKeySequence, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

# what Qt's text cursor turns into a block boundary (qtextcursor.cpp, insertText)
LINE_BREAK = re.compile("\r\n|[\r\n\u2029\ufdd0\ufdd1]")
BLOCK_SEPARATOR = "\u2029"  # how the document's raw text shows a block boundary
BOM = "\ufeff"
GUARD = "#"  # any character but a BOM (see ExactText.set_text)
_UNDO_MEMORY = 64  # removed runs of breaks kept for undo / redo


def line_breaks(text: str) -> list[str]:
    """The line breaks of ``text`` as Qt's document sees them (one per block boundary).

    >>> line_breaks("a\\r\\nb\\rc\\n")
    ['\\r\\n', '\\r', '\\n']
    """
    return LINE_BREAK.findall(text)


def join_blocks(raw: str, breaks: list[str]) -> str:
    """The raw document text with its i-th block separator replaced by ``breaks[i]``."""
    if not breaks:
        return raw
    blocks = raw.split(BLOCK_SEPARATOR)
    out = [blocks[0]]
    for sep, block in zip(breaks, blocks[1:], strict=True):
        out.append(sep)
        out.append(block)
    return "".join(out)


class ExactText(QObject):
    """Keeps the exact text of ``editor`` (a QPlainTextEdit); read it with :meth:`text`.

    Put text in through :meth:`set_text` and :meth:`insert`. Ctrl+V / Shift+Insert pastes are taken
    exactly too (from the clipboard's own text) unless ``take_pastes`` is False (an editor that routes
    its pastes to :meth:`insert` itself).
    """

    def __init__(self, editor: QPlainTextEdit, *, take_pastes: bool = True):
        super().__init__(editor)
        self.editor = editor
        self._doc = editor.document()
        self._breaks: list[str] = ["\n"] * (self._doc.blockCount() - 1)
        self._text: str | None = None  # the exact text, while known without rebuilding
        self._incoming: list[str] | None = None  # breaks of the text being inserted through us
        self._replacing = False
        self._undoing = False
        self._typed_break: str | None = None  # a break character typed as such (an input method's U+2029)
        self._removed: dict[tuple[int, int], list[str]] = {}  # (first block, count) -> breaks an edit removed
        self._take_pastes = take_pastes
        self._doc.contentsChange.connect(self._on_change)
        editor.installEventFilter(self)

    # ---- reading --------------------------------------------------------------------------------
    def text(self) -> str:
        """The exact text: what was set, inserted and typed, every character and line break kept."""
        if self._text is None:
            self._text = join_blocks(self._doc.toRawText(), self._breaks)
        return self._text

    def document_position(self, index: int) -> int:
        """The document position (UTF-16 code units, one per line break) of character ``index`` of
        :meth:`text` (an emoji counts two, a "\\r\\n" one)."""
        prefix = self.text()[:index]
        return len(prefix.encode("utf-16-le")) // 2 - prefix.count("\r\n")

    def breaks(self) -> list[str]:
        """The line breaks, one per block boundary of the document (a copy)."""
        return list(self._breaks)

    # ---- writing --------------------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Replace the editor's whole text with ``text``, kept exactly."""
        self._replacing = True
        try:
            if text.startswith(BOM):
                # PySide passes a str to Qt as UTF-16 and Qt drops a leading U+FEFF as a byte-order
                # mark: put a guard character in front and take it away inside the document
                self.editor.setPlainText(GUARD + text)
                QTextCursor(self._doc).deleteChar()
            else:
                self.editor.setPlainText(text)
        finally:
            self._replacing = False
        self._breaks = line_breaks(text)
        self._removed.clear()
        self._text = text

    def insert(self, text: str) -> None:
        """Insert ``text`` at the editor's cursor (replacing its selection), kept exactly."""
        self._incoming = line_breaks(text)
        try:
            if text.startswith(BOM):  # see set_text: the guard goes in and out in one undo step
                cursor = self.editor.textCursor()
                start = cursor.selectionStart()
                cursor.beginEditBlock()
                cursor.insertText(GUARD + text)
                guard = QTextCursor(self._doc)
                guard.setPosition(start)
                guard.deleteChar()
                cursor.endEditBlock()
                self.editor.setTextCursor(cursor)
                self.editor.ensureCursorVisible()
            else:
                self.editor.insertPlainText(text)
        finally:
            self._incoming = None

    # ---- following the document -------------------------------------------------------------------
    def _on_change(self, position: int, removed: int, added: int) -> None:
        self._text = None
        if self._replacing:
            return  # set_text puts the whole list in place
        doc = self._doc
        delta = doc.blockCount() - 1 - len(self._breaks)
        first = doc.findBlock(position).blockNumber()
        if added:
            if self._incoming is not None and len(self._incoming) >= delta:
                n_added = len(self._incoming)
            else:
                end = min(position + added, doc.characterCount() - 1)
                cursor = QTextCursor(doc)
                cursor.setPosition(position)
                cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                n_added = cursor.selectedText().count(BLOCK_SEPARATOR)
        else:
            n_added = 0
        n_removed = n_added - delta
        if n_removed < 0 or first + n_removed > len(self._breaks):
            # a report that does not fit the list (should not happen): keep the count right
            self._breaks = (self._breaks + ["\n"] * max(0, delta))[: doc.blockCount() - 1]
            return
        gone = self._breaks[first : first + n_removed]
        if self._incoming is not None and len(self._incoming) == n_added:
            new = self._incoming
            self._incoming = None  # used once (a replaced selection may report its removal first)
        elif self._undoing and (first, n_added) in self._removed:
            new = self._removed[(first, n_added)]
        elif self._typed_break is not None and n_added == 1 and n_removed == 0:
            new = [self._typed_break]
        elif n_added == n_removed:
            new = gone  # the same boundaries reported again (a wider range than what changed)
        else:
            new = ["\n"] * n_added  # typed: Enter is "\n"
        if gone and gone != new:
            self._removed[(first, len(gone))] = gone
            while len(self._removed) > _UNDO_MEMORY:
                del self._removed[next(iter(self._removed))]
        self._breaks[first : first + n_removed] = new

    def eventFilter(self, watched, event) -> bool:  # noqa: N802
        if watched is self.editor and event.type() == QEvent.Type.KeyPress:
            if event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo):
                self._undoing = True
                QTimer.singleShot(0, self._end_key)
            elif event.text() and LINE_BREAK.fullmatch(event.text()) and event.text() not in ("\r", "\n"):
                self._typed_break = event.text()  # Enter sends "\r" but means a newline
                QTimer.singleShot(0, self._end_key)
            elif self._take_pastes and event.matches(QKeySequence.StandardKey.Paste):
                if not self.editor.isReadOnly():
                    self.insert(clipboard_text())
                return True
        return False

    def _end_key(self) -> None:
        self._undoing = False
        self._typed_break = None


def clipboard_text() -> str:
    """The clipboard's text as it is (the bytes of its text/plain data, not Qt's re-decoded copy)."""
    mime = QGuiApplication.clipboard().mimeData()
    if mime is None:
        return ""
    from tokviz.ui.inspect.views import mime_text

    return mime_text(mime)
