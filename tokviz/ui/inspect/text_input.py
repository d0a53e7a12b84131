"""The Inspector's input: the editor's text, pastes and text files, held back with a message and a repair
action when they hold a lone surrogate or invalid UTF-8 (nothing is lost), and the chat composer tab."""

from __future__ import annotations

import errno
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QSizePolicy

from tokviz.core.errors import InvalidTextError, find_lone_surrogate, replace_lone_surrogates

translate = QCoreApplication.translate  # the panel's translation context, named in each call


class TextInput:
    """The text input (mixed into InspectPanel; the strings are InspectPanel's)."""

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str) -> bool:
        """Replace the editor's text. A text with a lone surrogate is held back with a message and a
        "Replace with U+FFFD" action (the editor keeps its text); returns whether it was shown."""
        if self._refuse_surrogates(text, lambda fixed: self.editor.setPlainText(fixed), "text"):
            return False
        self.editor.setPlainText(text)
        return True

    def paste_text(self, text: str) -> bool:
        """Insert pasted ``text`` at the cursor (same lone-surrogate check as :meth:`set_text`)."""
        if self._refuse_surrogates(
            text, lambda fixed: self.editor.insertPlainText(fixed), translate("InspectPanel", "pasted text")
        ):
            return False
        self.editor.insertPlainText(text)
        return True

    def _refuse_surrogates(self, text: str, apply, what: str) -> bool:
        index = find_lone_surrogate(text)
        if index is None:
            return False
        self._pending_paste = text  # nothing is lost: the action inserts it repaired
        err = InvalidTextError(text, index)
        self.message_bar.show_message(
            translate("InspectPanel", "The {what} was not inserted. {err}").format(what=what, err=err),
            "error",
            translate("InspectPanel", "Replace with U+FFFD"),
            lambda: self._apply_pending(apply),
        )
        return True

    def _apply_pending(self, apply) -> None:
        text, self._pending_paste = self._pending_paste, None
        if text is not None:
            apply(replace_lone_surrogates(text))

    def pending_text(self) -> str | None:
        """The text held back because of a lone surrogate (None when nothing is waiting)."""
        return self._pending_paste

    def _choose_text_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            translate("InspectPanel", "Open text file"),
            "",
            translate("InspectPanel", "Text (*.txt *.md *.py *.json);;All files (*)"),
        )
        if path:
            self.open_text_file(path)

    def open_text_file(self, path: str | Path, *, replace_invalid: bool = False) -> bool:
        """Load a UTF-8 text file. Invalid bytes are reported (where, which byte) with an action to open
        it anyway with U+FFFD replacements; without that action the editor is left as it was."""
        p = Path(path)
        try:
            if p.exists() and not p.is_file():  # reading a FIFO would block the window until a writer came
                raise OSError(errno.EINVAL, "not a regular file")
            data = p.read_bytes()
        except OSError as err:
            self.message_bar.show_message(
                translate("InspectPanel", "Cannot read {path}: {err}").format(path=p, err=err.strerror or err), "error"
            )
            return False
        try:
            text = data.decode("utf-8", "replace" if replace_invalid else "strict")
        except UnicodeDecodeError as err:
            bad = data[err.start : err.end].hex(" ").upper()
            self.message_bar.show_message(
                (
                    translate(
                        "InspectPanel",
                        "{name} is not valid UTF-8: bytes {bad} at offset {offset} cannot be decoded ({reason}). "
                        "Nothing was loaded.",
                    )
                    if err.end - err.start > 1
                    else translate(
                        "InspectPanel",
                        "{name} is not valid UTF-8: byte {bad} at offset {offset} cannot be decoded ({reason}). "
                        "Nothing was loaded.",
                    )
                ).format(name=p.name, bad=bad, offset=f"{err.start:,}", reason=err.reason),
                "error",
                translate("InspectPanel", "Open with U+FFFD replacements"),
                lambda: self.open_text_file(p, replace_invalid=True),
            )
            return False
        self.input_tabs.setCurrentWidget(self.editor)
        self.editor.setPlainText(text)
        return True

    def _size_input_pages(self) -> None:
        """Only the shown input page counts for the panel's minimum height: the hidden chat
        composer (its counts table wants six rows) would otherwise push the byte layers' token row
        off a 720-pixel-high window."""
        for i in range(self.input_tabs.count()):
            page = self.input_tabs.widget(i)
            shown = page is self.input_tabs.currentWidget()
            page.setSizePolicy(
                QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred if shown else QSizePolicy.Policy.Ignored
            )
        self.input_tabs.updateGeometry()

    def _on_input_tab(self, index: int) -> None:
        self._size_input_pages()
        if self.input_tabs.widget(index) is self.composer:
            self._on_chat_rendered(self.composer.text)
        else:
            self.encode_now()  # back to the editor's own text

    def _on_chat_rendered(self, text: str) -> None:
        # The chat view shows the rendered template in the token view; the editor keeps its own text.
        if self.input_tabs.currentWidget() is self.composer:
            self.special_check.setChecked(True)
            self._debounce.start()
