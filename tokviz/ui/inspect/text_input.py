"""The Inspector's input: the editor's text, pastes and text files, held back with a message and a repair
action when they hold a lone surrogate or invalid UTF-8 (nothing is lost), and the chat composer tab."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QSizePolicy

from tokviz.core.encoders.files import read_regular_file
from tokviz.core.errors import InvalidTextError, TokvizError, find_lone_surrogate, replace_lone_surrogates

translate = QCoreApplication.translate  # the panel's translation context, named in each call


def read_text_file(path: str | Path, *, replace_invalid: bool = False) -> str:
    """The text of the UTF-8 file at ``path``, exactly (BOM, CR, CRLF and NUL kept). Only a regular
    file is read (TokvizError otherwise: a FIFO would block, a device never ends); invalid UTF-8
    raises UnicodeDecodeError unless ``replace_invalid`` (then U+FFFD)."""
    data = read_regular_file(path, what="text")
    return data.decode("utf-8", "replace" if replace_invalid else "strict")


class TextInput:
    """The text input (mixed into InspectPanel; the strings are InspectPanel's)."""

    def text(self) -> str:
        """The editor's exact text (every NBSP, CR, CRLF, U+2028/2029 as typed, pasted or opened)."""
        return self.exact_text.text()

    def set_text(self, text: str) -> bool:
        """Replace the editor's text. A text with a lone surrogate is held back with a message and a
        "Replace with U+FFFD" action (the editor keeps its text); returns whether it was shown."""
        if self._refuse_surrogates(text, self.exact_text.set_text, "text"):
            return False
        self.exact_text.set_text(text)
        return True

    def paste_text(self, text: str) -> bool:
        """Insert pasted ``text`` at the cursor (same lone-surrogate check as :meth:`set_text`)."""
        if self._refuse_surrogates(text, self.exact_text.insert, translate("InspectPanel", "pasted text")):
            return False
        self.exact_text.insert(text)
        return True

    def _refuse_surrogates(self, text: str, apply, what: str) -> bool:
        index = find_lone_surrogate(text)
        if index is None:
            return False
        self.state.hold(text)  # nothing is lost: the action inserts it repaired
        err = InvalidTextError(text, index)
        self.message_bar.show_message(
            translate("InspectPanel", "The {what} was not inserted. {err}").format(what=what, err=err),
            "error",
            translate("InspectPanel", "Replace with U+FFFD"),
            lambda: self._apply_pending(apply),
        )
        return True

    def _apply_pending(self, apply) -> None:
        text = self.state.take_held()
        if text is not None:
            apply(replace_lone_surrogates(text))

    def pending_text(self) -> str | None:
        """The text held back because of a lone surrogate (None when nothing is waiting)."""
        return self.state.held_text

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
            data = read_regular_file(p, what="text")  # a FIFO would block the window, a device never ends
        except TokvizError as err:
            self.message_bar.show_message(
                translate("InspectPanel", "Cannot read {path}: {err}").format(
                    path=p, err=getattr(err, "problem", err)
                ),
                "error",
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
        if self._refuse_surrogates(text, self.exact_text.set_text, "text"):
            return False  # a UTF-8 file cannot hold one, but the check costs nothing
        self.input_tabs.setCurrentWidget(self.editor)
        self.exact_text.set_text(text)
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
        chat = self._is_chat_page(self.input_tabs.widget(index))
        self.state.set_input("chat" if chat else "text")
        if chat:
            self._widen_for_chat()
            self._on_chat_rendered(self.composer.text)
        else:
            self.encode_now()  # back to the editor's own text

    def _widen_for_chat(self) -> None:
        """The composer's rows (role, message, template name) need more width than the editor: give
        the input side at least half the splitter, as much as it asks for (the user can narrow it)."""
        sizes = self.input_split.sizes()
        total = sum(sizes)
        wanted = min(max(total // 2, self.composer.sizeHint().width()), total - 200)
        if total > 0 and sizes[0] < wanted:
            self.input_split.setSizes([wanted, total - wanted])

    def _on_chat_rendered(self, text: str) -> None:
        # The chat view shows the rendered template in the token view; the editor keeps its own text.
        if self.state.input == "chat":
            self.state.set_allow_special(True)  # a template's tokens are special tokens
            self.special_check.setChecked(True)
            self._debounce.start()
