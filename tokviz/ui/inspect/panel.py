"""The Inspector: type, paste or open a text and see exactly how an encoder splits it.

Layout: a toolbar (encoder, normalization, special tokens, text/ids, copy, export), a message bar for
problems with the input, the editor (or the chat composer) beside the token view, the counts bar and
the byte layers of the selected tokens.

Encoding runs off the GUI thread through the panel's TaskRunner (latest wins: a new request
supersedes the one before): typing restarts a 150 ms debounce timer, each request carries a generation
number and the panel drops results that are not the latest. Encoding and layout are separate steps
(:mod:`tokviz.ui.inspect.jobs`): a font, theme or width change lays the last Encoding out again
without calling the encoder.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFontMetricsF, QGuiApplication, QPalette, QStandardItem, QStandardItemModel, QTextCursor
from PySide6.QtWidgets import (
    QApplication, QButtonGroup, QCheckBox, QComboBox, QFileDialog, QFrame, QHBoxLayout, QLabel,
    QMenu, QPushButton, QScrollArea, QSizePolicy, QSplitter, QTabWidget, QTextEdit, QToolButton, QVBoxLayout, QWidget,
)

from tokviz.core.encoding import Encoding
from tokviz.core.errors import InvalidTextError, find_lone_surrogate, replace_lone_surrogates
from tokviz.ui import fonts, theme
from tokviz.ui.common.image_export import save_widget_png
from tokviz.ui.common.message_bar import MessageBar
from tokviz.ui.common.panel import PanelAction
from tokviz.ui.common.tasks import TaskRunner
from tokviz.ui.inspect.byte_layers import ByteLayersView, Layers, build_layers
from tokviz.ui.inspect.chat_composer import ChatComposer
from tokviz.ui.inspect.describe import encoding_json, screenshot_selection, selection_details
from tokviz.ui.inspect.jobs import EncodeRequest, EncodeResult, encode_for_view, lay_out, open_model, relaid
from tokviz.ui.inspect.release import SlicedRelease
from tokviz.ui.inspect.token_view import TokenView, view_fonts
from tokviz.ui.inspect.views import CountsBar, DetailsBox, LayersSplitter, TextEditor
from tokviz.ui.token_colors import token_colors

# Up to this many drawn cells a font change is measured right here (at once, so the views never show
# old sizes); more are measured by the worker (tens of milliseconds per 10,000 cells).
GUI_MEASURE_LIMIT = 20_000
DEBOUNCE_MS = 150
NORMALIZATIONS = ("none", "NFC", "NFD", "NFKC", "NFKD")
OPEN_MODEL = "\x00open-model"  # combo data of the "Open model file…" entry (never an encoder name)

DEMO_TEXT = (
    "안녕 👋 이 커피 값은 얼마예요?\n"
    "Tokenizers split text into tokens: 👨‍👩‍👧‍👦 is one emoji but many tokens.\n"
    "def greet(name):\n"
    "    return f\"Hello, {name}!\"\n"
)


class InspectPanel(QWidget):
    """The Inspect tab. Built from the shared Session (its registry and change signals)."""

    resultShown = Signal(object)  # an EncodeResult was applied to the views (tests wait on it)

    def __init__(self, session, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.result: EncodeResult | None = None
        self._generation = 0
        self._closed = False
        self._pending_paste: str | None = None
        self._current_encoder: str | None = None
        self._build()
        self._encoding_tasks = TaskRunner(self)
        self._model_tasks = TaskRunner(self, threads=1)
        self._release = SlicedRelease(self)
        self._pending_relayout = False  # the latest request only lays the shown Encoding out again
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
        self.editor.textChanged.connect(self._debounce.start)
        # The Train panel's model is re-listed under a new name at each step and goes away on its
        # Reset: the panel follows it through the session's signals, not by guessing from names.
        trained = getattr(session, "trained_model", None)
        self._trained_name: str | None = trained.name if trained is not None else None
        self._lost_trained = False  # showing the default because the Train panel was reset
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
        self.editor.blockSignals(True)
        self.editor.setPlainText(DEMO_TEXT)
        self.editor.blockSignals(False)
        self._fill_encoders()

    # ---- construction -----------------------------------------------------------------------------
    def _build(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(8, 8, 8, 8)
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Encoder")))
        self.encoder_combo = QComboBox()
        self.encoder_combo.setMinimumWidth(200)
        self.encoder_combo.setModel(QStandardItemModel(self.encoder_combo))
        self.encoder_combo.activated.connect(self._on_encoder_activated)
        bar.addWidget(self.encoder_combo)
        bar.addSpacing(12)
        bar.addWidget(QLabel(self.tr("Normalize")))
        self.norm_combo = QComboBox()
        self.norm_combo.addItems(NORMALIZATIONS)
        self.norm_combo.setToolTip(self.tr("Unicode normalization applied before encoding (NFD splits Hangul syllables into jamo)"))
        self.norm_combo.currentIndexChanged.connect(self.encode_now)
        bar.addWidget(self.norm_combo)
        bar.addSpacing(12)
        self.special_check = QCheckBox(self.tr("Special tokens"))
        self.special_check.setToolTip(self.tr("Parse special-token strings such as <|endoftext|> as single special tokens"))
        self.special_check.toggled.connect(self.encode_now)
        bar.addWidget(self.special_check)
        bar.addSpacing(12)
        self.mode_group = QButtonGroup(self)
        for mode, title in (("text", self.tr("Text")), ("ids", self.tr("IDs"))):
            b = QToolButton()
            b.setText(title)
            b.setCheckable(True)
            b.setChecked(mode == "text")
            b.setProperty("mode", mode)
            self.mode_group.addButton(b)
            bar.addWidget(b)
        self.mode_group.buttonClicked.connect(lambda b: self.set_view_mode(b.property("mode")))
        bar.addStretch(1)
        open_text = QPushButton(self.tr("Open text…"))
        open_text.clicked.connect(self._choose_text_file)
        bar.addWidget(open_text)
        copy = QToolButton()
        copy.setText(self.tr("Copy"))
        copy.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(copy)
        for title, slot in ((self.tr("Copy text"), self.copy_text), (self.tr("Copy ids"), self.copy_ids),
                            (self.tr("Copy as JSON"), self.copy_json)):
            act = QAction(title, menu)
            act.triggered.connect(slot)
            menu.addAction(act)
        copy.setMenu(menu)
        bar.addWidget(copy)
        export = QPushButton(self.tr("Export PNG…"))
        export.clicked.connect(self._choose_export)
        bar.addWidget(export)
        root.addLayout(bar)

        self.message_bar = MessageBar()
        root.addWidget(self.message_bar)

        self.editor = TextEditor()
        self.editor.setFont(fonts.mono_font(13))
        self.editor.setPlaceholderText(self.tr("Type or paste text here…"))
        self.editor.pasted.connect(self.paste_text)
        self.composer = ChatComposer()
        self.composer.renderedChanged.connect(self._on_chat_rendered)
        self.input_tabs = QTabWidget()
        self.input_tabs.addTab(self.editor, self.tr("Text"))
        self.input_tabs.addTab(self.composer, self.tr("Chat"))
        self.input_tabs.currentChanged.connect(self._on_input_tab)
        self._size_input_pages()

        self.token_view = TokenView()
        self.token_view.selectionChanged.connect(self._on_selection)

        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.input_tabs)
        top.addWidget(self.token_view)
        top.setStretchFactor(0, 2)
        top.setStretchFactor(1, 3)
        top.setSizes([420, 900])

        self.counts = CountsBar()

        layers_box = QWidget()
        lb = QVBoxLayout(layers_box)
        lb.setContentsMargins(0, 0, 0, 0)
        self.layers_title = QLabel()
        self.layers_title.setFont(fonts.ui_font(10.5))
        # wraps: one long unwrapped line would set the whole window's minimum width (wider than a
        # 1280 screen at normal size, than a 1920 projector in presentation mode)
        self.layers_title.setWordWrap(True)
        self.layers_view = ByteLayersView()
        self.layers_scroll = QScrollArea()
        self.layers_scroll.setWidget(self.layers_view)
        self.layers_scroll.setWidgetResizable(False)
        self.layers_scroll.setFrameShape(QFrame.Shape.NoFrame)
        lb.addWidget(self.layers_title)
        row = QHBoxLayout()
        row.addWidget(self.layers_scroll, 1)
        # the hover text, kept on screen for the selection: tooltips do not show on a projector
        self.details = DetailsBox()
        self.details.setFont(fonts.mono_font(10.5))
        self.details.setFixedWidth(340)
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.VLine)
        rule.setFrameShadow(QFrame.Shadow.Plain)
        rule.setForegroundRole(QPalette.ColorRole.Mid)
        row.addWidget(rule)
        # the column beside the layers: the details, and on a short screen the counts too (see _fit_layers)
        self._side = QVBoxLayout()
        self._side.setContentsMargins(0, 0, 0, 0)
        self._side.addWidget(self.details, 1)
        row.addLayout(self._side)
        lb.addLayout(row, 1)

        self.split = split = LayersSplitter(Qt.Orientation.Vertical)
        middle = QWidget()
        self._middle = ml = QVBoxLayout(middle)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(top, 1)
        ml.addWidget(self.counts)
        split.addWidget(middle)
        split.addWidget(layers_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([450, 380])
        root.addWidget(split, 1)

    # ---- encoder picker -----------------------------------------------------------------------------
    def _fill_encoders(self) -> None:
        """(Re)list every registry encoder; unavailable ones are disabled, the reason is the tooltip."""
        model: QStandardItemModel = self.encoder_combo.model()
        previous = self._current_encoder
        statuses = self.session.registry.statuses()
        names = [s.name for s in statuses]
        self.encoder_combo.blockSignals(True)
        model.clear()
        for s in statuses:
            label = s.name if s.vocab_size is None else f"{s.name}  ·  {s.vocab_size:,}"
            item = QStandardItem(label)
            item.setData(s.name, Qt.ItemDataRole.UserRole)
            item.setToolTip(s.reason if s.available else self.tr("Unavailable: {reason}").format(reason=s.reason))
            item.setEnabled(s.available)
            model.appendRow(item)
        opener = QStandardItem(self.tr("Open model file…"))
        opener.setData(OPEN_MODEL, Qt.ItemDataRole.UserRole)
        opener.setToolTip(self.tr("Add a .tiktoken, SentencePiece .model or tokviz model file as an encoder"))
        model.appendRow(opener)
        available = [s.name for s in statuses if s.available]
        if previous not in available:
            previous = "cl100k_base" if "cl100k_base" in available else (available[0] if available else None)
        if previous is not None:
            self.encoder_combo.setCurrentIndex(names.index(previous))
        self.encoder_combo.blockSignals(False)
        changed = previous != self._current_encoder
        self._current_encoder = previous
        if changed:
            self.encode_now()

    def _default_encoder(self) -> str | None:
        available = [s.name for s in self.session.registry.statuses() if s.available]
        return "cl100k_base" if "cl100k_base" in available else (available[0] if available else None)

    def _on_encoder_renamed(self, old: str, new: str) -> None:
        # the Train panel's model at another step: the registry already lists it under the new name
        if self._current_encoder == old:
            self._current_encoder = new
            self.encode_now()

    def _on_trained_model(self, encoder) -> None:
        previous, self._trained_name = self._trained_name, (encoder.name if encoder is not None else None)
        if encoder is None and previous is not None and self._current_encoder == previous:
            # Reset: the model shown is gone. Say so (the view changes under the user) and show
            # the default encoder; the next trained model is followed again.
            fallback = self._default_encoder()
            self._lost_trained = True
            self._reset_text = self.tr("The Train panel was reset, so its model ({name}) is gone; the tokens below "
                                       "are from {fallback}. Train again to see the new model here.").format(
                name=previous, fallback=fallback or "–")
            self.message_bar.show_message(self._reset_text, "warning")
            self._current_encoder = fallback
            self.encode_now()
        elif encoder is not None and self._lost_trained:
            self._lost_trained = False
            if self.message_bar.text() == self._reset_text:
                self.message_bar.clear()
            self._current_encoder = encoder.name
            self.encode_now()

    def _chose_encoder(self) -> None:
        """The user picked an encoder: no longer waiting for the Train panel's next model."""
        self._lost_trained = False
        if self._reset_text is not None and self.message_bar.text() == self._reset_text:
            self.message_bar.clear()

    def encoder_names(self) -> list[tuple[str, bool, str]]:
        """(name, enabled, tooltip) of every entry in the picker, in order."""
        model: QStandardItemModel = self.encoder_combo.model()
        return [
            (model.item(i).data(Qt.ItemDataRole.UserRole), model.item(i).isEnabled(), model.item(i).toolTip())
            for i in range(model.rowCount())
        ]

    def set_encoder(self, name: str) -> None:
        """Show the text through encoder ``name`` (must be listed and available)."""
        for i, (n, enabled, tip) in enumerate(self.encoder_names()):
            if n == name:
                if not enabled:
                    self.message_bar.show_message(self.tr("{name} is unavailable: {reason}").format(name=name, reason=tip), "warning")
                    return
                self.encoder_combo.setCurrentIndex(i)
                self._chose_encoder()
                self._current_encoder = name
                self.encode_now()
                return
        self.message_bar.show_message(self.tr("There is no encoder called {name}.").format(name=repr(name)), "warning")

    def current_encoder(self) -> str | None:
        return self._current_encoder

    def _on_encoder_activated(self, index: int) -> None:
        name = self.encoder_combo.itemData(index, Qt.ItemDataRole.UserRole)
        if name == OPEN_MODEL:
            self._restore_encoder_index()
            path, _ = QFileDialog.getOpenFileName(
                self, self.tr("Open model file"), "", self.tr("Models (*.model *.tiktoken *.json *.txt *.codes);;All files (*)")
            )
            if path:
                self.open_model_path(path)
            return
        self._chose_encoder()
        self._current_encoder = name
        self.encode_now()

    def _restore_encoder_index(self) -> None:
        names = [n for n, _, _ in self.encoder_names()]
        if self._current_encoder in names:
            self.encoder_combo.setCurrentIndex(names.index(self._current_encoder))

    def open_model_path(self, path: str) -> None:
        """Load a model file in the worker; it becomes an encoder for every panel, or a message says why not."""
        if self._closed:
            return
        # remembered so that the "still opening" checks do not depend on the language
        self._opening_text = self.tr("Opening {name}…").format(name=Path(path).name)
        self.message_bar.show_message(self._opening_text, "info")
        self._model_tasks.start(lambda _state: (path, *open_model(path)),
                                finished=lambda opened: self._on_model_opened(*opened))

    def _on_model_opened(self, path: str, encoder, error: str) -> None:
        if encoder is None:
            self.message_bar.show_message(self.tr("Cannot open the model file: {err}").format(err=error), "error")
            self._restore_encoder_index()
            return
        self.message_bar.clear()
        self._current_encoder = encoder.name
        self.session.add_encoder(encoder)  # -> _fill_encoders keeps it selected
        self.set_encoder(encoder.name)

    # ---- text input -------------------------------------------------------------------------------
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
        if self._refuse_surrogates(text, lambda fixed: self.editor.insertPlainText(fixed), self.tr("pasted text")):
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
            self.tr("The {what} was not inserted. {err}").format(what=what, err=err), "error",
            self.tr("Replace with U+FFFD"),
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
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open text file"), "",
                                              self.tr("Text (*.txt *.md *.py *.json);;All files (*)"))
        if path:
            self.open_text_file(path)

    def open_text_file(self, path: str | Path, *, replace_invalid: bool = False) -> bool:
        """Load a UTF-8 text file. Invalid bytes are reported (where, which byte) with an action to open
        it anyway with U+FFFD replacements; without that action the editor is left as it was."""
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as err:
            self.message_bar.show_message(self.tr("Cannot read {path}: {err}").format(path=p, err=err.strerror or err), "error")
            return False
        try:
            text = data.decode("utf-8", "replace" if replace_invalid else "strict")
        except UnicodeDecodeError as err:
            bad = data[err.start:err.end].hex(" ").upper()
            self.message_bar.show_message(
                (self.tr("{name} is not valid UTF-8: bytes {bad} at offset {offset} cannot be decoded ({reason}). "
                         "Nothing was loaded.") if err.end - err.start > 1 else
                 self.tr("{name} is not valid UTF-8: byte {bad} at offset {offset} cannot be decoded ({reason}). "
                         "Nothing was loaded.")).format(name=p.name, bad=bad, offset=f"{err.start:,}", reason=err.reason),
                "error", self.tr("Open with U+FFFD replacements"), lambda: self.open_text_file(p, replace_invalid=True),
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
            page.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred if shown else QSizePolicy.Policy.Ignored)
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

    # ---- encoding -----------------------------------------------------------------------------------
    def source_text(self) -> str:
        """What is being encoded: the editor's text, or the rendered chat on the Chat tab."""
        if self.input_tabs.currentWidget() is self.composer:
            return self.composer.text
        return self.editor.toPlainText()

    def encode_now(self) -> int:
        """Send the current text to the worker at once (skips the debounce); returns the generation."""
        self._debounce.stop()
        if self._closed:
            return self._generation  # shut down: no new work (a late signal while the window closes)
        if self._current_encoder is None:
            self.token_view.set_cells(None, [], [])
            self.token_view.set_placeholder(self.tr("No encoder is available. Install the packages named in the encoder list."))
            return self._generation
        self._generation += 1
        self._pending_relayout = False
        request = EncodeRequest(
            self._generation, self.source_text(), self._current_encoder, self.norm_combo.currentText(),
            self.special_check.isChecked(), theme.is_dark(), view_fonts()[:2],
            self.token_view.viewport().width(), self.token_view.mode,
        )
        registry = self.session.registry
        self._encoding_tasks.start(lambda state: encode_for_view(registry, request, state.is_cancelled),
                                   finished=self._on_result)
        return self._generation

    def relayout(self) -> int:
        """Lay the last Encoding out again in the worker for the view's current fonts, width, mode and
        theme, without calling the encoder; returns the generation. With no Encoding shown or on its
        way to a layout, the text is encoded (an encoding in flight measures with the old fonts)."""
        self._relayout_timer.stop()
        if self._closed:
            return self._generation
        base = self.result
        if base is None or base.encoding is None or not (self.is_current() or self._pending_relayout):
            return self.encode_now()
        self._generation += 1
        job = relaid(base, self._generation, fonts=view_fonts()[:2], view_width=self.token_view.viewport().width(),
                     view_mode=self.token_view.mode, dark=theme.is_dark())
        self._pending_relayout = True
        self._encoding_tasks.start(lambda state: lay_out(job, state.is_cancelled), finished=self._on_result)
        return self._generation

    def busy(self) -> bool:
        """A text is being encoded or laid out, or a model file opened (or its result is on its way)."""
        return self._encoding_tasks.busy or self._model_tasks.busy

    def is_current(self) -> bool:
        """True when the views show the result of the latest request."""
        return self.result is not None and self.result.request.generation == self._generation

    def wait_for_result(self, timeout: float = 30.0) -> bool:
        """Spin the event loop until the latest request's result is shown (screenshots, scripts)."""
        deadline = time.monotonic() + timeout
        while not self.is_current() and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.005)  # the worker thread runs meanwhile
        QApplication.processEvents()
        return self.is_current()

    def _on_result(self, result: EncodeResult) -> None:
        if result.request.generation != self._generation:
            return  # stale: the text or the options changed since it was asked for
        previous = self.result
        self.result = result
        self._release_later(previous)
        if result.error is not None:
            self.message_bar.show_message(result.error, "error")
            self.token_view.set_cells(None, [], [])
            self.token_view.set_placeholder(self.tr("No tokens: see the message above."))
            self.counts.show_metrics(None)
            self.counts.note.setText("")
            self._show_layers(None)
            self.resultShown.emit(result)
            return
        if self.message_bar.isVisible() and getattr(self.message_bar, "level", "") == "error" \
                and self._pending_paste is None and not self.message_bar.action_text():
            self.message_bar.clear()  # an old encoding error no longer applies
        enc = result.encoding
        self.token_view.set_cells(enc, result.cells, result.colors, dark=result.request.dark, widths=result.widths,
                                  marks=result.marks, layout=result.layout, measured_with=result.request.fonts)
        self.token_view.set_placeholder(self.tr("Type or paste text to see its tokens."))
        self.counts.show_metrics(result.metrics)
        self.counts.note.setText(self._note_for(result))
        self._input_notes(result)
        if self.input_tabs.currentWidget() is self.composer:
            self.composer.show_counts(enc, result.special_tokens, result.request.allow_special)
        sel = self.token_view.selected_tokens()
        self._show_layers(sel)
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
            parts.append(self.tr("{form}: {before} → {after} characters, {tokens_before} → {tokens_after} tokens").format(
                form=req.normalization, before=f"{before:,}", after=f"{after:,}",
                tokens_before=f"{result.unnormalized_tokens:,}", tokens_after=f"{len(result.encoding.tokens):,}"))
        m = result.metrics
        if m is not None and m.special_tokens:
            parts.append(self.tr("{n} special").format(n=m.special_tokens))
        if m is not None and (m.fallback_tokens or m.unknown_tokens):
            parts.append(self.tr("{fallback} byte-fallback, {unknown} unknown").format(fallback=m.fallback_tokens,
                                                                                    unknown=m.unknown_tokens))
        if m is not None and (m.special_tokens or m.fallback_tokens or m.unknown_tokens):
            parts.append(self.tr("(dashed boxes)"))
        self.counts.note.setToolTip(self.tr("encoded, measured and laid out in {ms} ms (worker thread)").format(
            ms=f"{result.seconds * 1000:.0f}"))
        return " · ".join(parts)

    def _input_notes(self, result: EncodeResult) -> None:
        text = result.request.text
        if self.message_bar.isVisible() and self.message_bar.level == "error":
            return  # a pending problem with the input stays visible
        notes = []
        nul = text.count("\x00")
        if nul:
            notes.append((self.tr("The text contains {n} NUL characters (U+0000, shown as ⟨NUL⟩); "
                                  "they are encoded like any other character.") if nul > 1 else
                          self.tr("The text contains {n} NUL character (U+0000, shown as ⟨NUL⟩); "
                                  "they are encoded like any other character.")).format(n=f"{nul:,}"))
        hidden = self.token_view.hidden_token_count()
        if hidden:
            notes.append(self.tr("Large text ({chars} characters, {tokens} tokens): the view draws the first {drawn} "
                                 "tokens; the counts and copies cover everything.").format(
                chars=f"{len(text):,}", tokens=f"{len(result.encoding.tokens):,}",
                drawn=f"{len(result.encoding.tokens) - hidden:,}"))
        if notes:
            self.message_bar.show_message(" ".join(notes), "info")
        elif self.message_bar.isVisible() and self.message_bar.level == "info" and not self.message_bar.action_text() \
                and self.message_bar.text() != getattr(self, "_opening_text", None):
            self.message_bar.clear()

    # ---- selection and byte layers ------------------------------------------------------------------
    def select_tokens(self, first: int, last: int | None = None) -> None:
        self.token_view.select_tokens(first, last)

    def _on_selection(self, first: int, last: int) -> None:
        self._show_layers(None if first < 0 else (first, last))
        self._mark_in_editor(None if first < 0 else (first, last))

    def _mark_in_editor(self, selection: tuple[int, int] | None) -> None:
        """Highlight the selected tokens' characters in the editor (without moving its cursor)."""
        enc = self._encoding()
        marks = []
        if (selection is not None and enc is not None and self.input_tabs.currentWidget() is self.editor
                and self.result.request.normalization == "none"):
            a, b = selection
            start, end = enc.tokens[a].start, max(enc.tokens[b].end, enc.tokens[a].start)
            # the editor counts UTF-16 code units: astral characters (emoji) count two
            to_units = lambda i: len(enc.text[:i].encode("utf-16-le")) // 2  # noqa: E731
            sel = QTextEdit.ExtraSelection()
            sel.cursor = QTextCursor(self.editor.document())
            sel.cursor.setPosition(to_units(start))
            sel.cursor.setPosition(to_units(end), QTextCursor.MoveMode.KeepAnchor)
            # a pale tint of the highlight on a light theme, a deep one on a dark theme (the text stays readable)
            hl = self.palette().color(QPalette.ColorRole.Highlight)
            sel.format.setBackground(hl.darker(180) if theme.is_dark() else hl.lighter(170))
            marks.append(sel)
        self.editor.setExtraSelections(marks)

    def _show_layers(self, selection: tuple[int, int] | None) -> None:
        enc = self.result.encoding if self.result is not None else None
        if enc is None or not enc.text:
            self.layers_view.set_layers(Layers(), [])
            self.layers_title.setText(self.tr("Byte layers"))
            self.details.setText("")
            return
        self.details.setText(selection_details(enc, selection))
        if selection is not None and selection[1] < len(enc.tokens):
            a, b = selection
            c0 = enc.tokens[a].start
            c1 = max(enc.tokens[b].end, c0 + 1 if enc.tokens[b].end <= c0 else enc.tokens[b].end)
            c1 = min(c1, len(enc.text))
            what = (self.tr("tokens {first}–{last} of {total}") if b > a else self.tr("token {first} of {total}")).format(
                first=a + 1, last=b + 1, total=f"{len(enc.tokens):,}")
        else:
            c0, c1 = 0, len(enc.text)
            what = self.tr("the beginning of the text (click a token to choose)")
        layers = build_layers(enc, c0, c1)
        colors = self.result.colors
        self.layers_view.set_layers(layers, colors, selection, self.result.marks)
        shown = enc.text[layers.char_start:layers.char_end]
        more = " " + self.tr("(first bytes only)") if layers.truncated else ""
        title = (self.tr("<b>Byte layers</b> — {what}: {n} code point, {bytes} UTF-8 bytes{more}. "
                         "Each byte is owned by exactly one token (same colours as above).") if len(shown) == 1 else
                 self.tr("<b>Byte layers</b> — {what}: {n} code points, {bytes} UTF-8 bytes{more}. "
                         "Each byte is owned by exactly one token (same colours as above)."))
        self.layers_title.setText(title.format(what=what, n=len(shown), bytes=layers.columns, more=more))
        self._fit_layers()  # after the caption: its wrapped height counts
        span = self.layers_view.selection_x_range()
        if span is not None and span[1] - span[0] > self.layers_scroll.viewport().width() - 80:
            self.layers_scroll.horizontalScrollBar().setValue(max(0, int(span[0]) - 40))  # wide: show its start
        elif span is not None:
            self.layers_scroll.ensureVisible(int((span[0] + span[1]) / 2), 10, int((span[1] - span[0]) / 2) + 40, 0)
        else:
            self.layers_scroll.horizontalScrollBar().setValue(0)

    def _fit_layers(self) -> None:
        """Give the byte layers the height their rows need (large fonts in presentation mode), as
        long as the token view keeps a useful part of the panel. When the full rows would leave the
        token view fewer than three lines of cells (a 1366x768 projector in presentation mode), the
        layers switch to their compact rows, so the token ids and three token lines both fit."""
        sizes = self.split.sizes()
        total = sum(sizes)
        if total <= 0:
            return
        lv = self.layers_view
        scrollbar = (self.layers_scroll.horizontalScrollBar().sizeHint().height()
                     if lv.sizeHint().width() > self.layers_scroll.width() else 0)
        # the caption wraps: its height at the panel's width (its sizeHint assumes a narrow label)
        title_h = self.layers_title.heightForWidth(max(self.split.width(), 400))
        extra = title_h + scrollbar + 12
        tv = self.token_view
        lines = tv.lines_height(min(3, max(1, tv.line_count())))
        # from quantities that hold while the counts move between layouts: the frame, and the counts
        # bar's one-row height (not the token view's viewport, whose new height comes later)
        chrome = tv.height() - tv.viewport().height()
        under_tokens = self._middle.spacing() + self.counts_row_height()
        # only with enlarged fonts: at normal size the full rows take 64% at most (1280x720) and the
        # details column keeps its room for the selection's table
        if self.split.user_sized:
            # the user's sizes stay; only the rows adapt: compact when the full ones do not fit
            self._set_compact(fonts.scale() > 1 and lv.height_for(False) + extra > sizes[1])
            return
        compact = fonts.scale() > 1 and lv.height_for(False) + extra > total - (chrome + under_tokens + lines)
        self._set_compact(compact)
        top_need = chrome + lines + (0 if compact else under_tokens)
        needed = lv.sizeHint().height() + extra
        if sizes[1] < needed:
            # up to 64%: at 1280x720 (and 1920x1080 in presentation mode) every row down to the
            # token ids fits, and the token view above keeps about three rows of tokens
            needed = min(needed, int(total * 0.64))
            self.split.setSizes([total - needed, needed])
        elif sizes[0] < top_need and sizes[1] > needed:
            # the layers have more than their rows need and the token lines are cut: give it back
            self.split.setSizes([total - max(needed, total - top_need), max(needed, total - top_need)])

    def counts_row_height(self) -> int:
        """Height of the counts bar in its one-row form (under the token view) at the current scale."""
        if self.counts.columns == len(CountsBar.FIELDS):
            return self.counts.sizeHint().height()
        return int(QFontMetricsF(fonts.ui_font(16)).height() + QFontMetricsF(fonts.ui_font(9)).height()) + 6

    def _set_compact(self, on: bool) -> None:
        """Compact look for a short screen: compact layer rows, and the counts move from under the
        token view to the column beside the layers, where the details leave room."""
        self.layers_view.set_compact(on)
        if on == (self.counts.columns < len(CountsBar.FIELDS)):
            return
        if on:
            self._middle.removeWidget(self.counts)
            self._side.insertWidget(0, self.counts)
            self.counts.set_columns(4)
        else:
            self._side.removeWidget(self.counts)
            self._middle.addWidget(self.counts)
            self.counts.set_columns(len(CountsBar.FIELDS))

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._refit.start()  # once the splitter has its new height (full screen arrives after F11)

    # ---- view options -------------------------------------------------------------------------------
    def set_view_mode(self, mode: str) -> None:
        self.token_view.set_mode(mode)
        for b in self.mode_group.buttons():
            b.setChecked(b.property("mode") == mode)

    def set_normalization(self, form: str) -> None:
        self.norm_combo.setCurrentText(form)

    def set_allow_special(self, on: bool) -> None:
        self.special_check.setChecked(on)

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
            self.result.colors = token_colors(self.result.encoding.ids[:len(self.result.cells)], dark=dark)
            self.token_view.set_cells(self.result.encoding, self.result.cells, self.result.colors, dark=dark,
                                      marks=self.result.marks)
            self._show_layers(self.token_view.selected_tokens())

    # ---- copy and export ----------------------------------------------------------------------------
    def _encoding(self) -> Encoding | None:
        return self.result.encoding if self.result is not None else None

    def copy_text(self) -> None:
        enc = self._encoding()
        QGuiApplication.clipboard().setText(enc.text if enc is not None else self.source_text())

    def copy_ids(self) -> None:
        enc = self._encoding()
        if enc is not None:
            QGuiApplication.clipboard().setText(" ".join(str(i) for i in enc.ids))

    def copy_json(self) -> None:
        enc = self._encoding()
        if enc is not None:
            QGuiApplication.clipboard().setText(
                json.dumps(encoding_json(enc, self.result.metrics), ensure_ascii=False, indent=1)
            )

    def _choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export view as PNG"), "tokens.png", self.tr("PNG image (*.png)"))
        if path:
            self.export_png(path)

    def export_png(self, path: str | Path) -> bool:
        """Save the panel as a PNG, atomically (temp file in the same folder, then rename)."""
        p = Path(path)
        try:
            save_widget_png(self, p)
        except OSError as err:
            self.message_bar.show_message(self.tr("Cannot write {path}: {err}").format(path=p, err=err.strerror or err), "error")
            return False
        return True

    # ---- the Panel protocol (menus, life cycle, screenshots) ------------------------------------------
    def menu_title(self) -> str:
        return QCoreApplication.translate("MainWindow", "&Inspect")

    def menu_actions(self) -> list[PanelAction | None]:
        # the menu's words belong to the main window's translations
        return [
            PanelAction("open", QCoreApplication.translate("MainWindow", "&Open text…"), self._choose_text_file, ("Ctrl+O",)),
            None,
            PanelAction("copy_text", QCoreApplication.translate("MainWindow", "Copy &text"), self.copy_text, ("Ctrl+Shift+C",)),
            PanelAction("copy_ids", QCoreApplication.translate("MainWindow", "Copy &IDs"), self.copy_ids, ("Ctrl+Shift+I",)),
            PanelAction("copy_json", QCoreApplication.translate("MainWindow", "Copy as &JSON"), self.copy_json, ("Ctrl+Shift+J",)),
            None,
            PanelAction("export_png", QCoreApplication.translate("MainWindow", "&Export PNG…"), self._choose_export, ("Ctrl+E",)),
        ]

    def auto_play(self, pace: float) -> bool:
        return False  # nothing plays here: the text stays as the presenter left it

    def stop_auto_play(self) -> None:
        pass

    def shutdown(self) -> None:
        """Stop encoding (the main window calls this on close): queued jobs are dropped, running
        ones finish (an encoder call cannot be interrupted) and their results are ignored."""
        self._closed = True
        self._debounce.stop()
        self._relayout_timer.stop()
        self._encoding_tasks.shutdown(120_000)
        self._model_tasks.shutdown(120_000)

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
                opened = self._current_encoder  # the model just added is the one to show
        self.input_tabs.setCurrentWidget(self.editor)
        self.editor.blockSignals(True)
        ok = self.set_text(text)
        self.editor.blockSignals(False)
        if encoders:
            self.set_encoder(encoders[0])
        elif opened is not None:
            self.set_encoder(opened)
        elif self._current_encoder != "cl100k_base" and "cl100k_base" in self.session.registry:
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
