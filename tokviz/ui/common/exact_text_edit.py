"""A plain-text editor that hands the encoders the exact text, not Qt's copy of it (Compare's text box,
the chat composer's messages).

A QPlainTextEdit cannot hold every character: a CR (alone or in CRLF) and U+2029 become block breaks,
and its ``toPlainText`` turns NBSP into a space. An inspector must encode what the user gave it, so
the exact text is kept beside the editor for as long as the editor shows it: set by :meth:`set_exact_text`,
or pasted (Ctrl+V) with such characters, it is spliced into the exact text at the selection. Typed
text is read raw (NBSP and U+2028 kept; the editor's block breaks are newlines).

>>> doc_length("a\\r\\nb😀"), char_index("a\\r\\nb😀", 2)   # CRLF is one position, the emoji two
(5, 3)
"""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit

LOSSY = ("\r", "\u2029")  # characters the editor turns into something else


def doc_length(text: str) -> int:
    """How many document positions ``text`` takes in the editor: a CRLF is one block break, a
    character beyond U+FFFF two UTF-16 units."""
    return len(text.encode("utf-16-le")) // 2 - text.count("\r\n")


def char_index(text: str, position: int) -> int:
    """The index in ``text`` of the editor's document ``position`` (a CRLF is one position)."""
    pos = 0
    i = 0
    while i < len(text) and pos < position:
        ch = text[i]
        if ch == "\r" and text[i + 1:i + 2] == "\n":
            i += 2
            pos += 1
            continue
        pos += 2 if ord(ch) > 0xFFFF else 1
        i += 1
    return i


class ExactTextEdit(QPlainTextEdit):
    """A QPlainTextEdit whose :meth:`exact_text` is the text as given, set or pasted."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._exact: str | None = None
        self._shown: str | None = None  # the document's raw text when _exact was last valid

    def set_exact_text(self, text: str) -> None:
        self._exact = text
        self.setPlainText(text)
        self._shown = self.document().toRawText()

    def exact_text(self) -> str:
        """The exact text while the editor still shows it, else the editor's own text read raw."""
        raw = self.document().toRawText()
        if self._exact is not None and raw == self._shown:
            return self._exact
        return raw.replace("\u2029", "\n")  # the editor writes its line breaks as U+2029

    def insertFromMimeData(self, source) -> None:  # noqa: N802 - Qt's name
        pasted = source.text() if source.hasText() else ""
        if not any(c in pasted for c in LOSSY):
            super().insertFromMimeData(source)
            return
        current = self.exact_text()
        cursor = self.textCursor()
        start = char_index(current, cursor.selectionStart())
        end = char_index(current, cursor.selectionEnd())
        self.set_exact_text(current[:start] + pasted + current[end:])
        cursor = self.textCursor()
        cursor.setPosition(doc_length(current[:start] + pasted))
        self.setTextCursor(cursor)
