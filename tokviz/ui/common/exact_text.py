"""The user's exact text behind a QPlainTextEdit.

Qt does not keep a plain text as it was given. ``QPlainTextEdit.toPlainText()`` turns NBSP into a space
and U+2028 into "\\n"; and already when text goes in (``setPlainText``, ``insertPlainText``, a paste)
every "\\r\\n", lone "\\r", "\\n", U+2029 (and Qt's frame markers U+FDD0/U+FDD1) becomes the same block
boundary, so which one the user had is lost. Everything else (NBSP, U+2028, BOM, tabs, NUL, controls)
stays in the document's raw text (``QTextDocument.toRawText()``, block boundaries as U+2029).

:class:`ExactText` therefore keeps one thing beside the document: the list of line breaks as they
really were, one per block boundary, updated from the document's ``contentsChange`` signal. The exact
text is the raw text with each boundary replaced by its own break::

    exact = ExactText(editor)
    exact.set_text("a\\u00a0b\\r\\nc\\rd")
    exact.text() == "a\\u00a0b\\r\\nc\\rd"  # True; editor.toPlainText() == "a b\\nc\\nd"

Any editor whose text is encoded uses it: build it beside the editor, put text in with ``set_text`` /
``insert`` instead of ``setPlainText`` / ``insertPlainText``, and read ``text()`` instead of
``toPlainText()``. Ctrl+V is taken exactly by the helper itself; for every other way of pasting (context
menu, middle click, drop) use :class:`tokviz.ui.inspect.views.TextEditor` as the editor and connect its
``pasted`` signal to ``insert`` (``ExactText(editor, take_pastes=False)``), as the Inspector does.

Enter typed by the user is "\\n"; text inserted through :meth:`ExactText.insert` (pastes, opened files)
keeps its own breaks (and a leading U+FEFF, which Qt would drop as a byte-order mark); an undo or redo
puts back the breaks the undone edit had.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QTextCursor, QTextOption
from PySide6.QtWidgets import QPlainTextEdit

# what Qt's text cursor turns into a block boundary (qtextcursor.cpp, insertText)
LINE_BREAK = re.compile("\r\n|[\r\n\u2029\ufdd0\ufdd1]")
BLOCK_SEPARATOR = "\u2029"  # how the document's raw text shows a block boundary
SLICE_CHARS = 150_000  # a longer text goes into the editor in slices of whole lines, one per event-loop turn
PREVIEW_LINE_CHARS = 100_000  # a longer line is not laid out: the editor shows the text's beginning, read-only
PREVIEW_CHARS = 20_000  # how much of such a text the editor shows
WRAP_ANYWHERE_LINE_CHARS = 5_000  # a longer line wraps anywhere, not at word boundaries
BOM = "\ufeff"
GUARD = "#"  # any character but a BOM (see ExactText.set_text)
_UNDO_MEMORY = 64  # removed runs of breaks kept for undo / redo


def line_breaks(text: str) -> list[str]:
    """The line breaks of ``text`` as Qt's document sees them (one per block boundary).

    >>> line_breaks("a\\r\\nb\\rc\\n")
    ['\\r\\n', '\\r', '\\n']
    """
    return LINE_BREAK.findall(text)


def longest_line(text: str) -> int:
    """Length of the longest line of ``text`` (in characters; line breaks as Qt's document sees them).

    >>> longest_line("ab\\r\\ncde\\rf")
    3
    """
    return max(map(len, LINE_BREAK.split(text)))


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

    Big texts never freeze the window: a text longer than :data:`SLICE_CHARS` goes into the editor in
    slices of whole lines, one per event-loop turn (the editor is read-only meanwhile, and :meth:`text`
    is the whole text at once); a text with a line longer than :data:`PREVIEW_LINE_CHARS` is not laid
    out at all (Qt lays a line out whole, a million emoji in seconds): the editor shows its beginning,
    read-only (:meth:`previewing`), and a paste replaces it.
    """

    loadingChanged = Signal(bool)  # slices of a big text are still going into the editor
    previewChanged = Signal(bool)  # the editor shows a read-only beginning of a text too long to lay out

    def __init__(self, editor: QPlainTextEdit, *, take_pastes: bool = True):
        super().__init__(editor)
        self.editor = editor
        self._doc = editor.document()
        self._breaks: list[str] = ["\n"] * (self._doc.blockCount() - 1)
        self._text: str | None = None  # the exact text, while known without rebuilding
        self._held: str | None = None  # the whole exact text while it is loading or previewed
        self._preview = False
        self._load_at = self._load_end = 0  # the part of _held still to go into the editor
        self._load_cursor: QTextCursor | None = None
        self._load_timer = QTimer(self)
        self._load_timer.setSingleShot(True)
        self._load_timer.setInterval(0)
        self._load_timer.timeout.connect(self._load_next)
        self._incoming: list[str] | None = None  # breaks of the text being inserted through us
        self._replacing = False
        self._undoing = False
        self._typed_break: str | None = None  # a break character typed as such (an input method's U+2029)
        self._removed: dict[tuple[int, int], list[str]] = {}  # (first block, count) -> breaks an edit removed
        self._take_pastes = take_pastes
        self.on_paste = None  # called with the clipboard's text for a paste into a preview (default: set_text)
        self._doc.contentsChange.connect(self._on_change)
        editor.installEventFilter(self)

    # ---- reading --------------------------------------------------------------------------------
    def text(self) -> str:
        """The exact text: what was set, inserted and typed, every character and line break kept."""
        if self._held is not None:
            return self._held
        if self._text is None:
            self._text = join_blocks(self._doc.toRawText(), self._breaks)
        return self._text

    def loading(self) -> bool:
        """Slices of a big text are still going into the editor (it is read-only meanwhile)."""
        return self._load_cursor is not None

    def previewing(self) -> bool:
        """The editor shows only the beginning of the text, read-only (a line too long to lay out)."""
        return self._preview

    def document_position(self, index: int) -> int:
        """The document position (UTF-16 code units, one per line break) of character ``index`` of
        :meth:`text` (an emoji counts two, a "\\r\\n" one)."""
        prefix = self.text()[:index]
        position = len(prefix.encode("utf-16-le")) // 2 - prefix.count("\r\n")
        return min(position, self._doc.characterCount() - 1)  # a preview or a loading text ends early

    def text_index(self, position: int) -> int:
        """The index in :meth:`text` of document ``position`` (the inverse of :meth:`document_position`)."""
        cursor = QTextCursor(self._doc)
        cursor.setPosition(min(position, self._doc.characterCount() - 1), QTextCursor.MoveMode.KeepAnchor)
        raw = cursor.selectedText()  # block boundaries as U+2029, astral characters whole
        n_breaks = raw.count(BLOCK_SEPARATOR)
        return len(raw) + sum(len(b) for b in self._breaks[:n_breaks]) - n_breaks

    def breaks(self) -> list[str]:
        """The line breaks, one per block boundary of the document (a copy)."""
        return list(self._breaks)

    # ---- writing --------------------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Replace the editor's whole text with ``text``, kept exactly."""
        self._stop_loading()
        self._end_preview()
        longest = longest_line(text) if len(text) <= SLICE_CHARS else 0
        if longest > PREVIEW_LINE_CHARS:
            self._start_preview(text)
            return
        self._wrap_for(longest)
        if len(text) <= SLICE_CHARS:
            self._set_now(text)
            return
        self._set_now("")
        self._start_loading(text, 0, len(text), QTextCursor(self._doc))

    def insert(self, text: str) -> None:
        """Insert ``text`` at the editor's cursor (replacing its selection), kept exactly."""
        if self._preview:
            self.set_text(text)  # a previewed text cannot be edited: a paste replaces it
            return
        self._finish_loading()
        if len(text) <= SLICE_CHARS and longest_line(text) <= PREVIEW_LINE_CHARS:
            self._insert_now(self.editor.textCursor(), text, move_editor_cursor=True)
            return
        cursor = self.editor.textCursor()
        whole = self.text()
        a, b = self.text_index(cursor.selectionStart()), self.text_index(cursor.selectionEnd())
        combined = whole[:a] + text + whole[b:]
        if len(text) <= SLICE_CHARS:  # a long line: the whole text becomes a preview
            self.set_text(combined)
            return
        cursor.removeSelectedText()
        self._start_loading(combined, a, a + len(text), cursor)

    # ---- putting text into the document -------------------------------------------------------------
    def _set_now(self, text: str) -> None:
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

    def _insert_now(self, cursor: QTextCursor, text: str, *, move_editor_cursor: bool = False) -> None:
        self._incoming = line_breaks(text)
        try:
            if text.startswith(BOM):  # see _set_now: the guard goes in and out in one undo step
                start = cursor.selectionStart()
                cursor.beginEditBlock()
                cursor.insertText(GUARD + text)
                guard = QTextCursor(self._doc)
                guard.setPosition(start)
                guard.deleteChar()
                cursor.endEditBlock()
            else:
                cursor.insertText(text)
            if move_editor_cursor:
                self.editor.setTextCursor(cursor)
                self.editor.ensureCursorVisible()
        finally:
            self._incoming = None

    def _start_loading(self, whole: str, start: int, end: int, cursor: QTextCursor) -> None:
        self._held = whole
        self._load_at, self._load_end = start, end
        self._load_cursor = cursor
        self.editor.setReadOnly(True)
        self._doc.setUndoRedoEnabled(False)  # slices are no undo steps (and the history would hold megabytes)
        self.loadingChanged.emit(True)
        self._load_timer.start()  # the first slice too: the paste's own event-loop turn stays short

    def _load_next(self) -> None:
        whole, i, end = self._held, self._load_at, self._load_end
        if self._load_cursor is None or whole is None:
            return
        cut = min(i + SLICE_CHARS, end)
        if cut < end:
            # cut after the slice's last line break: each slice adds whole blocks, which Qt lays out
            # once (a "\r\n" is never split: two breaks would come out of it)
            last = max(whole.rfind(ch, i, cut) for ch in "\n\r\u2029\ufdd0\ufdd1")
            if last < i:
                self._start_preview(whole)  # a line longer than a slice
                return
            cut = last + (2 if whole.startswith("\r\n", last) else 1)
        piece = whole[i:cut]
        longest = longest_line(piece)
        if longest > PREVIEW_LINE_CHARS:
            self._start_preview(whole)
            return
        if longest > WRAP_ANYWHERE_LINE_CHARS:
            self._wrap_for(longest)
        self._insert_now(self._load_cursor, piece)
        self._load_at = cut
        if cut < end:
            self._load_timer.start()
            return
        self._stop_loading()
        self._text = whole

    def _finish_loading(self) -> None:
        """Put the rest of a loading text in at once (an edit is about to follow)."""
        while self._load_cursor is not None and not self._preview:
            self._load_next()

    def _stop_loading(self) -> None:
        if self._load_cursor is None:
            return
        self._load_timer.stop()
        self._load_cursor = None
        self._held = None
        self._doc.setUndoRedoEnabled(True)
        self.editor.setReadOnly(False)
        self.loadingChanged.emit(False)

    def _start_preview(self, whole: str) -> None:
        self._stop_loading()
        self._wrap_for(PREVIEW_LINE_CHARS + 1)
        self._set_now(whole[:PREVIEW_CHARS])
        self._held = whole
        self._preview = True
        self.editor.setReadOnly(True)
        self.previewChanged.emit(True)

    def _end_preview(self) -> None:
        if not self._preview:
            return
        self._preview = False
        self._held = None
        self.editor.setReadOnly(False)
        self.previewChanged.emit(False)

    def _wrap_for(self, longest: int) -> None:
        # Qt's word wrapping of a long line without spaces is quadratic (80,000 characters: 0.7 s);
        # wrapping anywhere is linear
        mode = (
            QTextOption.WrapMode.WrapAnywhere
            if longest > WRAP_ANYWHERE_LINE_CHARS
            else QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
        )
        if self.editor.wordWrapMode() != mode:
            self.editor.setWordWrapMode(mode)

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
            self._end_key()  # what the key before meant is over (keys may come faster than the event loop)
            if event.matches(QKeySequence.StandardKey.Undo) or event.matches(QKeySequence.StandardKey.Redo):
                self._undoing = True
                QTimer.singleShot(0, self._end_key)
            elif event.text() and LINE_BREAK.fullmatch(event.text()) and event.text() not in ("\r", "\n"):
                self._typed_break = event.text()  # Enter sends "\r" but means a newline
                QTimer.singleShot(0, self._end_key)
            elif self._preview and event.matches(QKeySequence.StandardKey.Paste):
                (self.on_paste or self.set_text)(clipboard_text())
                return True
            elif self._take_pastes and event.matches(QKeySequence.StandardKey.Paste):
                if not self.editor.isReadOnly():
                    self.insert(clipboard_text())
                return True
        return False

    def _end_key(self) -> None:
        self._undoing = False
        self._typed_break = None


def mime_payload(source) -> tuple[memoryview, str] | None:
    """The raw bytes of a paste's plain text and the codec they are in (``"utf-8"``, ``"utf-16-le"``
    or ``"utf-16-be"``; a UTF-16 byte-order mark is left out), or None when it has no UTF-8 or UTF-16
    ``text/plain`` data (then Qt's own text is all there is)."""
    for fmt in source.formats():
        low = fmt.lower().replace(" ", "")
        if not low.startswith("text/plain"):
            continue
        data = memoryview(source.data(fmt))  # the bytes stay in their QByteArray: no copy
        if "utf-16" in low:
            tail = low.rsplit("utf-16", 1)[1]
            if bytes(data[:2]) in (b"\xff\xfe", b"\xfe\xff") and not tail:
                return data[2:], ("utf-16-le" if bytes(data[:2]) == b"\xff\xfe" else "utf-16-be")
            return data, ("utf-16-be" if "be" in tail else "utf-16-le")
        if low == "text/plain" or "charset=utf-8" in low:
            return data, "utf-8"
    return None


def mime_text(source) -> str:
    """Text of a paste, read from the clipboard's bytes so that a lone surrogate (half of a broken
    emoji) reaches the panel's check instead of vanishing silently on the way.

    Why bytes: PySide drops a lone surrogate when it turns a QString into a Python str (no error,
    the character is just gone), and Qt's own decoding turns one sent as UTF-8 bytes (``ED A0 BD``,
    as WTF-8 writers do) into three U+FFFD; a ``text/plain;charset=utf-16`` payload it ignores
    altogether (the paste inserts nothing). So UTF-16 payloads are decoded with ``surrogatepass``
    (honouring a byte-order mark) and UTF-8 ones too; bytes that are not even that fall back to
    Qt's text (with its U+FFFD).
    """
    payload = mime_payload(source)
    if payload is not None:
        data, codec = payload
        try:
            return str(data, codec, "surrogatepass")
        except UnicodeDecodeError:
            pass
    return source.text()


def clipboard_text() -> str:
    """The clipboard's text as it is (the bytes of its text/plain data, not Qt's re-decoded copy)."""
    mime = QGuiApplication.clipboard().mimeData()
    if mime is None:
        return ""
    return mime_text(mime)
