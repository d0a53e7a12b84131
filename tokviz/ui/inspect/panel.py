"""The Inspector: type, paste or open a text and see exactly how an encoder splits it.

Layout: a toolbar (encoder, normalization, special tokens, text/ids, copy, export), a message bar for
problems with the input, the editor (or the chat composer) beside the token view, the counts bar and
the byte layers of the selected tokens.

Encoding runs off the GUI thread on a channel of the session's WorkService (latest wins: a new request
supersedes the one before): typing restarts a 150 ms debounce timer, each request carries a generation
number and the panel drops results that are not the latest. Encoding and layout are separate steps
(:mod:`tokviz.ui.inspect.jobs`): a font, theme or width change lays the last Encoding out again
without calling the encoder.

The panel's parts live beside it: which encoder (:mod:`~tokviz.ui.inspect.encoder_picker`), which text
(:mod:`~tokviz.ui.inspect.text_input`) and which tokens are selected, with their byte layers
(:mod:`~tokviz.ui.inspect.selection`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QWidget,
)

from tokviz.core.encoding import Encoding
from tokviz.core.errors import TokvizError
from tokviz.ui import fonts, theme
from tokviz.ui.common.exact_text import PREVIEW_CHARS, PREVIEW_LINE_CHARS
from tokviz.ui.common.image_export import save_widget_png
from tokviz.ui.common.panel import PanelAction
from tokviz.ui.i18n import follow_language, in_language
from tokviz.ui.inspect.cells import view_fonts
from tokviz.ui.inspect.describe import encoding_json, screenshot_selection
from tokviz.ui.inspect.encoder_picker import EncoderPicker
from tokviz.ui.inspect.jobs import (
    EncodeRequest,
    EncodeResult,
    encode_for_view,
    lay_out,
    relaid,
)
from tokviz.ui.inspect.model import InspectState
from tokviz.ui.inspect.panel_widgets import InspectWidgets
from tokviz.ui.inspect.release import SlicedRelease
from tokviz.ui.inspect.selection import TokenSelection
from tokviz.ui.inspect.text_input import TextInput
from tokviz.ui.token_colors import token_colors

# Up to this many drawn cells a font change is measured right here (at once, so the views never show
# old sizes); more are measured by the worker (tens of milliseconds per 10,000 cells).
GUI_MEASURE_LIMIT = 20_000
DEBOUNCE_MS = 150
# the translation contexts of the Inspector's strings (its own and those of its views)
INSPECT_CONTEXTS = ("InspectPanel", "ChatComposer", "_MessageRow", "DropoutView", "BoundaryStrip",
                    "NormalizationView", "CountsBar", "ByteLayersView", "TokenView", "MessageBar")

DEMO_TEXT = (
    "안녕 👋 이 커피 값은 얼마예요?\n"
    "Tokenizers split text into tokens: 👨‍👩‍👧‍👦 is one emoji but many tokens.\n"
    "def greet(name):\n"
    '    return f"Hello, {name}!"\n'
)


class InspectPanel(InspectWidgets, EncoderPicker, TextInput, TokenSelection, QWidget):
    """The Inspect tab. Built from the shared Session (its registry and change signals)."""

    resultShown = Signal(object)  # an EncodeResult was applied to the views (tests wait on it)

    def __init__(self, session, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        # the panel's truth: widgets render it and send it intents (see tokviz.ui.inspect.model)
        self.state = InspectState()
        self.state.events.connect(self._on_state)
        self._build()
        self._encoding_tasks = session.work.channel(self, "encode")
        self._model_tasks = session.work.channel(self, "models")
        self._release = SlicedRelease(self)
        self._relayout_timer = QTimer(self)  # a big view's new width: laid out by the worker, once resizing rests
        self._relayout_timer.setSingleShot(True)
        self._relayout_timer.setInterval(50)
        self._relayout_timer.timeout.connect(self.relayout)
        self.token_view.inline_layout_limit = GUI_MEASURE_LIMIT
        self.token_view.layoutWanted.connect(self._relayout_timer.start)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self.encode_now)
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._fit_layers)
        self._finishing: EncodeResult | None = None  # a big result whose second part is still to show
        self._finish_timer = QTimer(self)
        self._finish_timer.setSingleShot(True)
        self._finish_timer.setInterval(0)
        self._finish_timer.timeout.connect(self._finish_result)
        self.editor.textChanged.connect(self._debounce.start)
        # The Train panel's model is re-listed under a new name at each step and goes away on its
        # Reset: the panel follows it through the session's signals, not by guessing from names.
        trained = getattr(session, "trained_model", None)
        self.state.trained_name = trained.name if trained is not None else None
        self._reset_text: str | None = None
        renamed = getattr(session, "encoderRenamed", None)
        if renamed is not None:
            renamed.connect(self._on_encoder_renamed)
        trained_signal = getattr(session, "trainedModelChanged", None)
        if trained_signal is not None:
            trained_signal.connect(self._on_trained_model)
        session.encodersChanged.connect(self._fill_encoders)
        for name in ("fontScaleChanged", "themeChanged"):
            sig = getattr(session, name, None)
            if sig is not None:
                sig.connect(self._on_font_scale if name == "fontScaleChanged" else self._refresh_look)
        settings = getattr(session, "settings", None)
        saved = {"text": settings.inspect_text, "encoder": settings.inspect_encoder} if settings is not None else {}
        self.state.set_text(DEMO_TEXT if saved.get("text") is None else saved["text"])
        self.editor.blockSignals(True)
        self.exact_text.set_text(self.state.text)
        self.editor.blockSignals(False)
        self._fill_encoders()  # the first encoding, through the default encoder
        # a remembered encoder that is gone leaves the default; one that is there is encoded with
        if "encoder" in self.state.restore(saved, DEMO_TEXT):
            self._restore_encoder_index()
            self.encode_now()
        follow_language(self, INSPECT_CONTEXTS, then=self.recompose_texts)

    @property
    def result(self) -> EncodeResult | None:
        """The result the views show (None before the first one)."""
        return self.state.result

    def _on_state(self, name: str, value) -> None:
        # the model cleared the selection (a new result whose tokens differ there): the views follow
        if name == "selection" and value != self.token_view.selected_tokens():
            self.token_view.select_tokens(-1 if value is None else value[0], None if value is None else value[1])

    def _take_text(self) -> None:
        # the edit reaches the model when it is taken (debounced): mid-edit, Qt's document and the
        # exact text beside it do not agree yet
        self.state.set_text(self.exact_text.text())

    # ---- encoding -----------------------------------------------------------------------------------
    def source_text(self) -> str:
        """What is being encoded: the editor's text, or the rendered chat on the Chat tab."""
        self._take_text()
        return self.composer.text if self.state.input == "chat" else self.state.text

    def encode_now(self) -> int:
        """Send the current text to the worker at once (skips the debounce); returns the generation."""
        self._debounce.stop()
        asked = self.state.next_request(self.source_text())
        if asked is None:
            if not self.state.closed:  # shut down: no new work (a late signal while the window closes)
                self.token_view.set_cells(None, [], [])
                self.token_view.set_placeholder(
                    self.tr("No encoder is available. Install the packages named in the encoder list.")
                )
            return self.state.generation
        # the chat tab's prompt is built in the worker by core.chat, as `tokviz chat` builds it
        chat = self.composer.request() if asked.chat else None
        request = EncodeRequest(
            asked.generation,
            asked.text,
            asked.encoder,
            asked.normalization,
            asked.allow_special,
            theme.is_dark(),
            view_fonts()[:2],
            self.token_view.viewport().width(),
            self.token_view.mode,
            chat=chat,
        )
        registry = self.session.registry
        self._encoding_tasks.start(
            lambda state: encode_for_view(registry, request, state.is_cancelled,
                                          lambda done, total: state.progress(done, total)),
            finished=self._on_result, failed=lambda message: self._on_failed(request, message),
            progressed=lambda payload: self._on_progress(request, payload),
        )
        return asked.generation

    def relayout(self) -> int:
        """Lay the last Encoding out again in the worker for the view's current fonts, width, mode and
        theme, without calling the encoder; returns the generation. With no Encoding shown or on its
        way to a layout, the text is encoded (an encoding in flight measures with the old fonts)."""
        self._relayout_timer.stop()
        if self.state.closed:
            return self.state.generation
        generation = self.state.next_relayout()
        if generation is None:
            return self.encode_now()
        job = relaid(
            self.result,
            generation,
            fonts=view_fonts()[:2],
            view_width=self.token_view.viewport().width(),
            view_mode=self.token_view.mode,
            dark=theme.is_dark(),
        )
        self._encoding_tasks.start(lambda state: lay_out(job, state.is_cancelled), finished=self._on_result,
                                   failed=lambda message: self._on_failed(job.request, message))
        return generation

    def busy(self) -> bool:
        """A text is being encoded or laid out, or a model file opened (or its result is on its way)."""
        return self._encoding_tasks.busy or self._model_tasks.busy

    def is_current(self) -> bool:
        """True when the views show the result of the latest request."""
        return self.state.is_current() and self._finishing is None

    def wait_for_result(self, timeout: float = 30.0) -> bool:
        """Spin the event loop until the latest request's result is shown (screenshots, scripts)."""
        deadline = time.monotonic() + timeout
        while not self.is_current() and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.005)  # the worker thread runs meanwhile
        QApplication.processEvents()
        return self.is_current()

    def _on_progress(self, request: EncodeRequest, payload: tuple) -> None:
        # a big text is encoded a piece at a time: the counts bar says how far it got
        done, total, _ = payload
        if self.state.is_latest(request.generation) and total:
            error = self.result.error if self.result is not None else None
            if error and self.message_bar.text() == in_language(error):
                self.message_bar.clear()  # the last encoder's failure is not this encoding's
            self.counts.note.setText(self.tr("encoding {chars} characters with {encoder}… {percent}%").format(
                chars=f"{len(request.text):,}", encoder=request.encoder, percent=100 * done // total))

    def _on_failed(self, request: EncodeRequest, message: str) -> None:
        # the worker raised past encode_text's own checks (laying out, or a native failure): shown as an
        # error result, so the views never keep the previous encoder's tokens as if they were these
        self._on_result(EncodeResult(request, error=self.tr("{encoder} could not encode this text: {err}").format(
            encoder=request.encoder, err=message)))

    def _on_result(self, result: EncodeResult) -> None:
        previous = self.result
        if not self.state.show(result.request.generation, result, result.encoding):
            return  # stale: the text or the options changed since it was asked for
        self._finishing = None
        self._finish_timer.stop()
        self._release_later(previous)
        if result.request.chat is not None:
            self.composer.show_result(result)  # its counts, or why the template failed
        if result.error is not None:
            self.message_bar.show_message(in_language(result.error), "error")
            self.token_view.set_cells(None, [], [])
            self.token_view.set_placeholder(self.tr("No tokens: see the message above."))
            self.counts.show_metrics(None)
            self.counts.note.setText("")
            self._show_layers(None)
            self.dropout_view.set_source(None, "")
            self.resultShown.emit(result)
            return
        if (
            self.message_bar.isVisible()
            and getattr(self.message_bar, "level", "") == "error"
            and self.state.held_text is None
            and not self.message_bar.action_text()
        ):
            self.message_bar.clear()  # an old encoding error no longer applies
        enc = result.encoding
        self.token_view.set_cells(
            enc,
            result.cells,
            result.colors,
            dark=result.request.dark,
            widths=result.widths,
            marks=result.marks,
            layout=result.layout,
            measured_with=result.request.fonts,
        )
        self.token_view.set_placeholder(self.tr("Type or paste text to see its tokens."))
        self.counts.show_metrics(result.metrics)
        self.counts.note.setText(self._note_for(result))
        self._input_notes(result)
        if len(result.cells) > GUI_MEASURE_LIMIT:
            # a big result is shown in two event-loop turns: the tokens and counts are painted first,
            # the byte layers and the other views next, so no turn stalls the window for both
            self._finishing = result
            self._finish_timer.start()
        else:
            self._finish_result(result)

    def _finish_result(self, result: EncodeResult | None = None) -> None:
        """The second part of showing a result: normalization and dropout views, byte layers."""
        if result is None:
            result, self._finishing = self._finishing, None
            if result is None or result is not self.result:
                return  # a newer result or an error replaced it meanwhile
        enc = result.encoding
        self.norm_view.show_changes(result.request.text, result.request.normalization)
        self.dropout_view.set_source(self.session.registry.get(result.request.encoder)
                                     if result.request.encoder in self.session.registry else None,
                                     enc.text, result.request.allow_special)
        self._show_layers(self.state.selection)
        self.resultShown.emit(result)

    def _release_later(self, previous: EncodeResult | None) -> None:
        # the views have let go of the previous result; a big one is freed in slices (SlicedRelease)
        if previous is not None and previous.encoding is not None and len(previous.encoding.tokens) > 20_000:
            self._release.drop(previous)

    def _note_for(self, result: EncodeResult) -> str:
        req = result.request
        parts = []
        if req.normalization != "none":
            before = len(req.text)
            after = len(result.encoding.text)
            parts.append(
                self.tr("{form}: {before} → {after} characters, {tokens_before} → {tokens_after} tokens").format(
                    form=req.normalization,
                    before=f"{before:,}",
                    after=f"{after:,}",
                    tokens_before=f"{result.unnormalized_tokens:,}",
                    tokens_after=f"{len(result.encoding.tokens):,}",
                )
            )
        m = result.metrics
        if m is not None and m.special_tokens:
            parts.append(self.tr("{n} special").format(n=m.special_tokens))
        if m is not None and (m.fallback_tokens or m.unknown_tokens):
            parts.append(
                self.tr("{fallback} byte-fallback, {unknown} unknown").format(
                    fallback=m.fallback_tokens, unknown=m.unknown_tokens
                )
            )
        if m is not None and (m.special_tokens or m.fallback_tokens or m.unknown_tokens):
            parts.append(self.tr("(dashed boxes)"))
        self.counts.note.setToolTip(
            self.tr("encoded, measured and laid out in {ms} ms (worker thread)").format(
                ms=f"{result.seconds * 1000:.0f}"
            )
        )
        return " · ".join(parts)

    def _input_notes(self, result: EncodeResult) -> None:
        text = result.request.text
        if self.message_bar.isVisible() and self.message_bar.level == "error":
            return  # a pending problem with the input stays visible
        notes = []
        nul = text.count("\x00")
        if nul:
            notes.append(
                (
                    self.tr(
                        "The text contains {n} NUL characters (U+0000, shown as ⟨NUL⟩); "
                        "they are encoded like any other character."
                    )
                    if nul > 1
                    else self.tr(
                        "The text contains {n} NUL character (U+0000, shown as ⟨NUL⟩); "
                        "they are encoded like any other character."
                    )
                ).format(n=f"{nul:,}")
            )
        hidden = self.token_view.hidden_token_count()
        if hidden:
            notes.append(
                self.tr(
                    "Large text ({chars} characters, {tokens} tokens): the view draws the first {drawn} "
                    "tokens; the counts and copies cover everything."
                ).format(
                    chars=f"{len(text):,}",
                    tokens=f"{len(result.encoding.tokens):,}",
                    drawn=f"{len(result.encoding.tokens) - hidden:,}",
                )
            )
        if self.exact_text.previewing():
            notes.append(
                self.tr(
                    "A line of this text is too long to lay out in the editor (over {limit} characters): the editor "
                    "shows its first {shown} characters, read-only. The tokens, counts and copies cover all {chars} "
                    "characters; paste or open a text to replace it."
                ).format(limit=f"{PREVIEW_LINE_CHARS:,}", shown=f"{PREVIEW_CHARS:,}", chars=f"{len(text):,}")
            )
            self.message_bar.show_message(" ".join(notes), "info", self.tr("Clear the text"), lambda: self.set_text(""))
        elif notes:
            self.message_bar.show_message(" ".join(notes), "info")
        elif (
            self.message_bar.isVisible()
            and self.message_bar.level == "info"
            and not self.message_bar.action_text()
            and self.message_bar.text() != getattr(self, "_opening_text", None)
        ):
            self.message_bar.clear()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._refit.start()  # once the splitter has its new height (full screen arrives after F11)

    def fitting(self) -> bool:
        """The byte layers are still to be fitted to a new size (scripts and tests wait for it)."""
        return self._refit.isActive()

    # ---- view options -------------------------------------------------------------------------------
    def set_view_mode(self, mode: str) -> None:
        self.state.set_view_mode(mode)
        self.token_view.set_mode(mode)
        for b in self.mode_group.buttons():
            b.setChecked(b.property("mode") == mode)

    def set_normalization(self, form: str) -> None:
        self.norm_combo.setCurrentIndex(self.norm_combo.findData(form))  # -> _on_normalization_picked

    def set_allow_special(self, on: bool) -> None:
        self.special_check.setChecked(on)  # -> _on_special_toggled

    def _on_normalization_picked(self, _index: int) -> None:
        self.state.set_normalization(self.norm_combo.currentData())
        self.encode_now()

    def _on_special_toggled(self, on: bool) -> None:
        self.state.set_allow_special(on)
        self.encode_now()

    def _on_font_scale(self, *_args) -> None:
        # sizes the user chose for the old font sizes no longer fit the layers' rows (presentation
        # mode makes them 1.6 times taller): fit the splitter again, until the user moves it again
        self.split.user_sized = False
        self._refresh_look()

    def _refresh_look(self, *_args) -> None:
        self.editor.setFont(fonts.mono_font(13))
        self.layers_title.setFont(fonts.ui_font(10.5))
        self.details.setFont(fonts.mono_font(10.5))
        self.details.setFixedWidth(int(340 * fonts.scale()))
        self.layers_view.refresh_fonts()
        self.norm_view.refresh_fonts()
        self.dropout_view.refresh_fonts()
        self._fit_layers()
        self.counts.refresh_fonts()
        if len(self.token_view.cells) > GUI_MEASURE_LIMIT:
            # measuring that many cells would stall the GUI: the worker measures them with the new
            # fonts, from the Encoding already made (the encoder is not called again)
            self.token_view.refresh_fonts_only()
            self.relayout()
            return
        self.token_view.refresh_fonts()
        if self.result is not None and self.result.encoding is not None:
            dark = theme.is_dark()
            ids = self.result.encoding.id_array[: len(self.result.cells)].tolist()
            self.result.colors = token_colors(ids, dark=dark)
            self.token_view.set_cells(
                self.result.encoding, self.result.cells, self.result.colors, dark=dark, marks=self.result.marks
            )
            self._show_layers(self.state.selection)

    # ---- copy and export ----------------------------------------------------------------------------
    def _encoding(self) -> Encoding | None:
        return self.result.encoding if self.result is not None else None

    def copy_text(self) -> None:
        enc = self._encoding()
        QGuiApplication.clipboard().setText(enc.text if enc is not None else self.source_text())

    def copy_ids(self) -> None:
        enc = self._encoding()
        if enc is not None:
            QGuiApplication.clipboard().setText(" ".join(map(str, enc.id_array.tolist())))

    def copy_json(self) -> None:
        enc = self._encoding()
        if enc is not None:
            QGuiApplication.clipboard().setText(
                json.dumps(encoding_json(enc, self.result.metrics), ensure_ascii=False, indent=1)
            )

    def _choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export view as PNG"), "tokens.png", self.tr("PNG image (*.png)")
        )
        if path:
            self.export_png(path)

    def export_png(self, path: str | Path) -> bool:
        """Save the panel as a PNG, atomically (temp file in the same folder, then rename)."""
        p = Path(path)
        try:
            save_widget_png(self, p)
        except OSError as err:
            self.message_bar.show_message(
                self.tr("Cannot write {path}: {err}").format(path=p, err=err.strerror or err), "error"
            )
            return False
        return True

    # ---- the Panel protocol (menus, life cycle, screenshots) ------------------------------------------
    def menu_actions(self) -> list[PanelAction | None]:
        # the menu's words belong to the main window's translations
        return [
            PanelAction(
                "open", QCoreApplication.translate("MainWindow", "&Open text…"), self._choose_text_file, ("Ctrl+O",)
            ),
            None,
            PanelAction(
                "copy_text", QCoreApplication.translate("MainWindow", "Copy &text"), self.copy_text, ("Ctrl+Shift+C",)
            ),
            PanelAction(
                "copy_ids", QCoreApplication.translate("MainWindow", "Copy &IDs"), self.copy_ids, ("Ctrl+Shift+I",)
            ),
            PanelAction(
                "copy_json",
                QCoreApplication.translate("MainWindow", "Copy as &JSON"),
                self.copy_json,
                ("Ctrl+Shift+J",),
            ),
            None,
            PanelAction(
                "export_png", QCoreApplication.translate("MainWindow", "&Export PNG…"), self._choose_export, ("Ctrl+E",)
            ),
            PanelAction(
                "dropout",
                QCoreApplication.translate("MainWindow", "Try BPE-&dropout on a rank vocabulary"),
                self.dropout_view.allow_recovery,
            ),
        ]

    def auto_play(self, pace: float) -> bool:
        return False  # nothing plays here: the text stays as the presenter left it

    def stop_auto_play(self) -> None:
        pass

    def remember(self) -> None:
        """Keep the encoder and the text for the next run (the main window saves on close)."""
        settings = getattr(self.session, "settings", None)
        if settings is not None:
            self._take_text()
            kept = self.state.remembered()
            settings.inspect_encoder = kept["encoder"]
            settings.inspect_text = kept["text"]

    def recompose_texts(self) -> None:
        """After a language change (the widgets' fixed strings are already retranslated): the encoder
        list, the views' painted titles, and what an encoding composes (counts, notes)."""
        self._fill_encoders()
        self._refresh_look()
        self.encode_now()

    def shutdown(self) -> None:
        """Stop encoding (the main window calls this on close): every job is superseded and nothing is
        waited for (an encoder call cannot be interrupted: it finishes and its result is dropped)."""
        if not self.state.closed:
            self.remember()
        self.state.close()
        self._debounce.stop()
        self._relayout_timer.stop()
        self._finish_timer.stop()
        self._encoding_tasks.close()
        self.norm_view.shutdown()
        self.dropout_view.shutdown()
        self._model_tasks.close()  # model parses run detached: never waited for

    def prepare_screenshot(self, args) -> None:
        """Fill the panel for ``tokviz screenshot --view inspect``: the text, the encoder, and a
        selection whose byte layers show a character cut between tokens."""
        text = getattr(args, "text", None) or DEMO_TEXT
        encoders = getattr(args, "encoders", None) or []
        opened = None
        for path in getattr(args, "model", None) or []:
            self.open_model_path(path)
            deadline = time.monotonic() + 60
            while self.message_bar.text() == getattr(self, "_opening_text", None) and time.monotonic() < deadline:
                QApplication.processEvents()
                time.sleep(0.01)
            if not self.message_bar.isVisible():
                opened = self.state.encoder  # the model just added is the one to show
        self.input_tabs.setCurrentWidget(self.editor)
        self.editor.blockSignals(True)  # encoded once below, not per change
        text_file = getattr(args, "text_file", None)
        if text_file:
            ok = self.open_text_file(text_file)  # exactly what File → Open does
            if not ok:
                self.editor.blockSignals(False)
                raise TokvizError(self.message_bar.text())
            text = self.text()
        else:
            ok = self.set_text(text)
        self.editor.blockSignals(False)
        if encoders:
            self.set_encoder(encoders[0])
        elif opened is not None:
            self.set_encoder(opened)
        elif self.state.encoder != "cl100k_base" and "cl100k_base" in self.session.registry:
            self.set_encoder("cl100k_base")
        self.encode_now()
        self.wait_for_result()
        enc = self._encoding()
        if enc is None or not ok:
            return
        first, last = screenshot_selection(enc, text == DEMO_TEXT)
        if first >= 0:
            self.select_tokens(first, last)
        QApplication.processEvents()
