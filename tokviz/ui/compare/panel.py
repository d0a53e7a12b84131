"""Compare panel: the same text through several encoders, aligned row by row, with stats, charts,
corpus comparison, vocabulary overlap and in-app SentencePiece training.

Everything that can be slow (loading an encoder, encoding, a corpus, a 200k vocabulary, training)
runs as a background job (job functions in :mod:`tokviz.ui.compare.jobs`, run on the session's
WorkService, one channel per kind of work); the panel only lays out and paints.

This module wires the text and its rows; the encoder list (:mod:`~tokviz.ui.compare.encoder_list`), the
Corpus tab (:mod:`~tokviz.ui.compare.corpus_tab`), the SentencePiece tab
(:mod:`~tokviz.ui.compare.sentencepiece_tab`) and the tables (:mod:`~tokviz.ui.compare.tables`) live beside it.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.compare import CorpusTotals, EncoderOutcome, ParagraphCache, sample_sets
from tokviz.core.errors import TokvizError, check_text
from tokviz.ui.common.encoder_names import shown_name
from tokviz.ui.common.exact_text_edit import ExactTextEdit
from tokviz.ui.common.image_export import save_widget_png
from tokviz.ui.common.message_bar import MessageBar
from tokviz.ui.common.panel import PanelAction
from tokviz.ui.common.work import Channel
from tokviz.ui.compare.charts import TokenBarChart, restyle
from tokviz.ui.compare.corpus_tab import CorpusTab
from tokviz.ui.compare.encoder_list import DEFAULT_ENCODERS, EncoderList, item_key
from tokviz.ui.compare.jobs import (
    DEMO_BPE_NAME,
    PREVIEW_CHARS,
    TRAINED_PLACEHOLDER,
    OutcomeCache,
    RowsJob,
    changed_chars,
    encode_rows,
    preview_cut,
    train_demo_bpe,
)
from tokviz.ui.compare.measure_parts import LazyPage
from tokviz.ui.compare.model import CompareState
from tokviz.ui.compare.parity_tab import ParityTab
from tokviz.ui.compare.reader_check import ReaderCheck
from tokviz.ui.compare.rows import AlignedRowsView
from tokviz.ui.compare.sentencepiece_tab import SentencePieceTab
from tokviz.ui.compare.sweep_tab import SweepTab
from tokviz.ui.compare.tables import (
    STAT_COLUMNS,
    corpus_csv,
    fill_stats_table,
    fit_name_column,
    name_color,
    stats_csv,
    write_csv_atomic,
)
from tokviz.ui.fonts import mono_font
from tokviz.ui.i18n import follow_language
from tokviz.ui.theme import is_dark

COMPARE_CONTEXTS = ("ComparePanel", "MessageBar", "AlignedRowsView", "TokenBarChart")  # its strings' contexts
ROW_POINT_SIZE = 12  # token rows (times the app's font scale)
STATS_CHART_MIN = 260  # px: the bar chart beside the stats keeps room for its names and short bars
DEFAULT_TEXT = (
    "안녕하세요! gpt2 sees a Hangul syllable as 3 UTF-8 bytes: 안녕하세요 costs 14 tokens there, 2 in o200k_base.\n"
    'Emoji 👋🏽 🇰🇷 👨‍👩‍👧 · numbers 1234567.89 · code: def greet(name): return f"Hi {name}"'
)



def default_text() -> str:
    """The demo text in the interface's language (Korean sentences in the Korean interface)."""
    return QCoreApplication.translate("ComparePanel", DEFAULT_TEXT)



class ComparePanel(EncoderList, CorpusTab, SentencePieceTab, ReaderCheck, QWidget):
    """The Compare tab. Public methods are what tests, the benchmark and screenshots drive."""

    rowsUpdated = Signal()  # the aligned view and stats show the current text and encoders
    rowsPreviewed = Signal()  # a long text's first part is shown while the rest is encoded
    corpusFinished = Signal(object)  # CorpusComparison
    overlapFinished = Signal(object)  # VocabOverlap
    trainingFinished = Signal(object)  # the new encoder, or an error message (str)
    modelOpened = Signal(bool, str)  # a model file was opened (True, its name) or not (False, why)

    def __init__(self, session, parent: QWidget | None = None, *, encoders: list[str] | None = None):
        super().__init__(parent)
        self.session = session
        # the panel's truth: widgets render it and send it intents (see tokviz.ui.compare.model)
        self.state = CompareState(TRAINED_PLACEHOLDER)
        self.state.events.connect(self._on_state)
        work = session.work
        self.jobs = work.channel(self, "rows")  # the rows of the current text: the latest text wins
        self._corpus_tasks = work.channel(self, "corpus")
        self._side_tasks = work.channel(self, "overlap")  # a vocabulary overlap
        self._sp_tasks = work.channel(self, "sentencepiece")  # SentencePiece training
        self._bpe_tasks = work.channel(self, "demo-bpe")  # the demo BPE, trained on first use
        self._model_tasks = work.channel(self, "models")  # parsing a model file (seconds for a big one)
        self._reader_tasks = work.channel(self, "crosscheck")  # a model's readers opened, or checked on the text
        self.state.known = set(session.registry.names())
        self._last_update_ms = 0.0
        self._worker_seconds = 0.0
        self._full_seconds = 0.0
        self.timings: dict[str, float] = {}
        self._preview_ms = 0.0
        self._charts_dark = is_dark()
        # reordering, adding or removing rows re-encodes nothing (keyed by the encoder object)
        self._outcome_cache = OutcomeCache()
        # unchanged paragraphs of a long text are not re-encoded by byte-level encoders
        self._paragraphs = ParagraphCache()
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(self.refresh_now)
        self._build()
        session.encodersChanged.connect(self._on_registry_changed)
        font_signal = getattr(session, "fontScaleChanged", None)
        if font_signal is not None:  # zoom / presentation mode: rows and text follow the font scale
            font_signal.connect(self._on_font_scale)
        theme_signal = getattr(session, "themeChanged", None)
        if theme_signal is not None:  # token colours have a dark variant
            theme_signal.connect(self._on_theme)
        # The Train panel's model is re-listed under a new name at every step: a row showing it
        # follows it instead of asking the registry for a name that is gone.
        trained = getattr(session, "trained_model", None)
        self.state.trained_name = trained.name if trained is not None else None
        renamed = getattr(session, "encoderRenamed", None)
        if renamed is not None:
            renamed.connect(self.rename_encoder)
        trained_signal = getattr(session, "trainedModelChanged", None)
        if trained_signal is not None:
            trained_signal.connect(self._on_trained_model)
        if encoders is None:
            self.restore_encoders()
        else:
            self.set_encoders(encoders)
        self._default_text = default_text()
        self.set_text(self._default_text)
        follow_language(self, COMPARE_CONTEXTS, then=self.recompose_texts)

    @property
    def outcomes(self) -> list[EncoderOutcome]:
        """What each listed encoder made of the text the rows show (its error included)."""
        return self.state.outcomes

    @property
    def corpus_totals(self) -> list[CorpusTotals]:
        """The Corpus tab's totals (so far, while a run goes on)."""
        return self.state.corpus_totals

    def _on_state(self, name: str, value) -> None:
        if name == "encoders":
            self._render_encoders()
        elif name == "crosscheck":
            self._render_crosscheck()

    # ---- building -----------------------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)

        top = QHBoxLayout()
        self.editor = ExactTextEdit()
        self.editor.setFont(mono_font(11))
        self.editor.setPlaceholderText(self.tr("Type or paste a text; every encoder below splits it."))
        self.editor.setMaximumHeight(64)
        self.editor.textChanged.connect(self._debounce.start)
        top.addWidget(self.editor, 1)
        side = QVBoxLayout()
        self.sample_combo = QComboBox()
        self.sample_combo.addItem(self.tr("Sample text…"))
        try:
            self._samples = {s.name: s.texts[0] for s in sample_sets()}
        except TokvizError:
            self._samples = {}
        for name in self._samples:  # a sample's file name, in the interface's language when it has one
            self.sample_combo.addItem(self.tr(name) or name, name)
        self.sample_combo.activated.connect(self._load_sample)
        side.addWidget(self.sample_combo)
        self.special_check = QCheckBox(self.tr("Special tokens"))
        self.special_check.setToolTip(self.tr("Each encoder reads its own special tokens (<|im_start|>, "
                                              "<|eot_id|>…) as one token, as in a chat prompt"))
        self.special_check.toggled.connect(self._on_special_toggled)
        side.addWidget(self.special_check)
        row = QHBoxLayout()
        self.csv_button = QPushButton(self.tr("Export CSV…"))
        self.csv_button.clicked.connect(self._ask_export_csv)
        self.png_button = QPushButton(self.tr("Save PNG…"))
        self.png_button.clicked.connect(self._ask_save_png)
        row.addWidget(self.csv_button)
        row.addWidget(self.png_button)
        side.addLayout(row)
        top.addLayout(side)
        outer.addLayout(top)

        split = QSplitter(Qt.Orientation.Vertical)
        upper = QSplitter(Qt.Orientation.Horizontal)
        upper.addWidget(self._build_encoder_list())
        self.view = AlignedRowsView()
        self.scroll = QScrollArea()
        # floats over the rows: a message never moves a control, and the encoder list stays in reach
        self.message_bar = MessageBar.over(self.scroll, self)
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.view)
        upper.addWidget(self.scroll)
        upper.setStretchFactor(1, 1)
        upper.setSizes([210, 1100])
        split.addWidget(upper)

        self.tabs = QTabWidget()
        self.tabs.addTab(self._build_stats(), self.tr("Stats"))
        self.tabs.addTab(self._build_corpus(), self.tr("Corpus"))
        self.tabs.addTab(self._build_sentencepiece(), "SentencePiece")
        # Parity and Sweep are built when first shown: most sessions never open them, and each
        # build (chart, table, encoder list) slowed every window's start
        self._measure_pages = {
            # partial, not a lambda over self: a page holding the panel would keep it alive past its deletion
            "parity": LazyPage(
                partial(ParityTab, self.session), partial(QCoreApplication.translate, "ParityTab", "Parity")
            ),
            "sweep": LazyPage(
                partial(SweepTab, self.session), partial(QCoreApplication.translate, "SweepTab", "Vocabulary sweep")
            ),
        }
        for page in self._measure_pages.values():
            self.tabs.addTab(page, "")
            page.retitle()
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([620, 260])
        self.splitter = split
        # the Corpus and SentencePiece tabs need more room than the stats of one text
        self.tabs.currentChanged.connect(self._tab_changed)
        outer.addWidget(split, 1)
        self.status = QLabel()
        outer.addWidget(self.status)

    def _build_stats(self) -> QWidget:
        w = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        lay = QVBoxLayout(left)
        lay.setContentsMargins(0, 0, 0, 0)
        self.stats_table = QTableWidget(0, len(STAT_COLUMNS))
        self.stats_table.setHorizontalHeaderLabels([self.tr(c) for c in STAT_COLUMNS])
        self.stats_table.verticalHeader().setVisible(False)
        fit_name_column(self.stats_table)
        self.stats_table.setAlternatingRowColors(True)
        lay.addWidget(self.stats_table, 1)
        self.diff_label = QLabel()
        self.diff_label.setWordWrap(True)
        self.diff_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.diff_label)
        lay.addWidget(self._build_reader_check())
        self._render_crosscheck()
        w.addWidget(left)
        self.token_chart = TokenBarChart()
        w.addWidget(self.token_chart)
        w.setStretchFactor(0, 3)
        w.setStretchFactor(1, 1)
        w.setSizes([900, 380])
        self.stats_split = w
        return w

    def _fit_stats_split(self) -> None:
        """Widen the stats table until its encoder names are whole, taking the room from the bar chart
        (which names them too) down to the chart's smallest useful width; only a name longer than that
        stays elided. Called when the rows change and when the panel is resized, never on a drag of
        the splitter, so the user's own split stands until then."""
        table, split = self.stats_table, self.stats_split
        if not table.isVisible() or table.rowCount() == 0:
            return
        # the names' width plus the other columns' (sized to their contents), against the room the table has
        wanted = max(table.sizeHintForColumn(0), table.horizontalHeader().sectionSizeHint(0))
        wanted += sum(table.columnWidth(c) for c in range(1, table.columnCount()))
        deficit = wanted - table.viewport().width()
        sizes = split.sizes()
        room = sizes[1] - max(self.token_chart.minimumSizeHint().width(), STATS_CHART_MIN)
        give = min(deficit, room)
        if give > 0:
            split.setSizes([sizes[0] + give, sizes[1] - give])

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        QTimer.singleShot(0, self, self._fit_stats_split)  # after the splitter has shared out the new width

    def measure_tab(self, which: str):
        """The Parity (``which="parity"``) or Sweep tab, built now if it has not been shown yet."""
        return self._measure_pages[which].content()

    def _tab_changed(self, index: int) -> None:
        page = self.tabs.widget(index)
        if isinstance(page, LazyPage):
            page.content()
        total = sum(self.splitter.sizes())
        share = 0.3 if index == 0 else 0.58
        self.splitter.setSizes([int(total * (1 - share)), int(total * share)])

    def changeEvent(self, event) -> None:  # noqa: N802
        super().changeEvent(event)
        if event.type() in (event.Type.PaletteChange, event.Type.ApplicationPaletteChange) and hasattr(
            self, "encoder_list"
        ):
            for i in range(self.encoder_list.count()):
                # the panel's palette: children get theirs after this event
                self.encoder_list.item(i).setForeground(name_color(i, self.palette()))

    def _on_theme(self, *_args) -> None:
        self._encoders_edited()  # name colours have a dark variant
        self._charts_dark = is_dark()
        restyle(self.token_chart)
        restyle(self.corpus_chart)
        self._debounce.start()  # token colours have a dark variant

    def recompose_texts(self) -> None:
        """After a language change (the widgets' fixed strings are already retranslated): the encoder
        names, the demo text if it is still the demo text, and the tables, rows and status line."""
        for i in range(self.encoder_list.count()):
            item = self.encoder_list.item(i)
            item.setText(shown_name(item_key(item)))
        self._refresh_add_combo()
        self._retranslate_corpus()
        for page in self._measure_pages.values():
            page.retitle()
        if self.source_text() == self._default_text:
            self._default_text = default_text()
            self.set_text(self._default_text)
        self.view.set_font_size(ROW_POINT_SIZE)  # the gutter fits the names in the new language
        self.refresh_now()

    def _on_font_scale(self, *_args) -> None:
        self.view.set_font_size(ROW_POINT_SIZE)
        self.editor.setFont(mono_font(11))
        self.seg_view.setFont(mono_font(11))

    def show_message(self, text: str | None, level: str = "error") -> None:
        """A message in the message bar, an error unless ``level`` says otherwise (None clears it)."""
        if text:
            self.message_bar.show_message(text, level)
        else:
            self.message_bar.clear()

    # ---- the demo BPE encoder -----------------------------------------------------------------
    def _ensure_demo_bpe(self) -> None:
        if not self.state.demo_bpe_wanted(DEMO_BPE_NAME in self.state.encoders, DEMO_BPE_NAME in self.session.registry):
            return

        def done(model):
            self.state.demo_bpe_done()
            self.session.add_encoder(model)

        def failed(msg):
            self.state.demo_bpe_done(msg)
            self._debounce.start()

        self._bpe_tasks.start(train_demo_bpe, finished=done, failed=failed)

    # ---- encoding -----------------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Compare ``text`` exactly (CR, NBSP and all: see :mod:`~tokviz.ui.common.exact_text_edit`)."""
        self.editor.set_exact_text(text)

    def source_text(self) -> str:
        """The text every encoder gets: exactly what was set or pasted, or what the user typed."""
        return self.editor.exact_text()

    def _load_sample(self, index: int) -> None:
        name = self.sample_combo.itemData(index)
        if name in self._samples:
            self.set_text(self._samples[name])
        self.sample_combo.setCurrentIndex(0)

    def _on_special_toggled(self, on: bool) -> None:
        self.state.set_allow_special(on)
        self._debounce.start()

    def refresh_now(self) -> None:
        """Encode the current text with every listed encoder in the background; the view updates
        when all are done (``rowsUpdated``)."""
        self._debounce.stop()
        if not self.isVisible():
            # a tab nobody looks at does no work (the demo BPE trains on first use); showEvent catches up
            self.state.next_rows(visible=False)
            return
        text = self.source_text()
        self.state.set_text(text)
        names = self.encoder_names()
        self._ensure_demo_bpe()
        try:
            check_text(text)
        except TokvizError as err:
            self.show_message(str(err))
            return
        gen = self.state.next_rows()
        if gen is None:
            return  # shut down
        self._check_readers()
        started = time.perf_counter()
        registry = self.session.registry
        waiting = {DEMO_BPE_NAME} if self.state.demo_bpe_pending else set()
        bpe_failed = self.state.demo_bpe_failed
        dark = is_dark()
        if dark != self._charts_dark:  # the theme was applied after the panel was built
            self._charts_dark = dark
            restyle(self.token_chart)
            restyle(self.corpus_chart)

        cut = preview_cut(text)
        # A preview only for a text that is mostly new (the first look, a paste, a sample). An edit
        # re-uses the unchanged paragraphs, so the whole update is quick, and the rows on screen stay
        # until it comes; a preview there showed only the text's start and, painted on the GUI thread
        # while the worker encoded, competed with it for the GIL: 10,000 characters x 5 encoders took
        # ~390 ms instead of < 200. (Deciding by the last pass's time made that slowdown self-feeding.)
        mostly_new = cut is not None and changed_chars(self.state.last_full_text, text) > PREVIEW_CHARS
        job = RowsJob(
            registry,
            names,
            text,
            self._outcome_cache,
            self._paragraphs,
            dark=dark,
            mostly_new=mostly_new,
            cut=cut,
            waiting=waiting,
            bpe_failed=bpe_failed,
            allow_special=self.state.allow_special,
        )

        def preview(payload):
            if not self.state.is_latest(gen):
                return
            prepared = payload[2].prepared
            self.view.set_prepared(prepared)
            self._preview_ms = (time.perf_counter() - started) * 1000
            self.status.setText(
                self.tr("showing the first {shown} of {total} characters; encoding the rest…").format(
                    shown=f"{len(prepared.text):,}", total=f"{len(text):,}"
                )
            )
            self.rowsPreviewed.emit()

        def done(result):
            if result is None or not self.state.show_rows(gen, [o for _, o, _ in result.rows], text):
                return  # a newer text or encoder list is on its way
            shown = time.perf_counter()
            self._worker_seconds, self._full_seconds = result.worker_seconds, result.encode_seconds
            self._show_outcomes(result.rows, result.prepared)
            now = time.perf_counter()
            self._last_update_ms = (now - started) * 1000
            # where the time went: encoding (worker), showing (GUI thread), and waiting in between
            self.timings = {
                "worker_ms": self._worker_seconds * 1000,
                "gui_ms": (now - shown) * 1000,
                "encode_ms": self._full_seconds * 1000,
                "total_ms": self._last_update_ms,
            }
            self.status.setText(
                self.tr(
                    "{chars} characters · {encoders} encoders · updated in {ms} ms"
                    "  ·  hover a character: its token is outlined in every row"
                    "  ·  ▼ = encoders disagree on a boundary"
                ).format(chars=f"{len(text):,}", encoders=len(names), ms=f"{self._last_update_ms:.0f}")
            )
            self.rowsUpdated.emit()

        def failed(msg):
            if self.state.is_latest(gen):
                self.show_message(msg)

        self.jobs.start(lambda state: encode_rows(job, state), finished=done, failed=failed, progressed=preview)

    def _show_outcomes(self, result, prepared) -> None:
        self.show_message(None)
        self.view.set_prepared(prepared)
        shown = fill_stats_table(self.stats_table, result)
        QTimer.singleShot(0, self, self._fit_stats_split)  # once the table has laid out its new names
        self.diff_label.setText("<br>".join(shown.differences))
        self.diff_label.setVisible(bool(shown.differences))
        self.token_chart.set_values(shown.names, shown.tokens, shown.colors, self.tr("tokens"))

    # ---- export -------------------------------------------------------------------------------
    def stats_rows(self) -> tuple[list[str], list[list]]:
        """The stats table (current text) as CSV rows: numbers unformatted."""
        return stats_csv(self.outcomes)

    def corpus_rows(self) -> tuple[list[str], list[list]]:
        """The Corpus tab's table as CSV rows: numbers unformatted."""
        return corpus_csv(self.corpus_totals)

    def export_csv(self, path: str | Path, which: str | None = None) -> Path:
        """Write the stats table (or, on the Corpus tab / ``which="corpus"``, the corpus table)."""
        if which is None:
            which = "corpus" if self.tabs.currentIndex() == 1 else "stats"
        header, rows = self.corpus_rows() if which == "corpus" else self.stats_rows()
        return write_csv_atomic(path, header, [[str(c) for c in r] for r in rows])

    def save_png(self, path: str | Path) -> Path:
        """Save the aligned rows (the whole text, not just what is scrolled into view) as a PNG."""
        return save_widget_png(self.view, path)

    def _ask_export_csv(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export table as CSV"), "compare.csv", "CSV (*.csv)")
        if path:
            try:
                written = self.export_csv(path)
            except OSError as err:
                self.show_message(self.tr("Could not write {path}: {err}").format(path=path, err=err.strerror or err))
            else:
                self.show_message(self.tr("Saved {path}").format(path=written), "info")

    def _ask_save_png(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save view as PNG"), "compare.png", "PNG (*.png)")
        if path:
            try:
                written = self.save_png(path)
            except (OSError, TokvizError) as err:
                self.show_message(self.tr("Could not write {path}: {err}").format(
                    path=path, err=getattr(err, "strerror", None) or err))
            else:
                self.show_message(self.tr("Saved {path}").format(path=written), "info")

    # ---- app hooks ----------------------------------------------------------------------------
    def wait_until_idle(self, timeout: float = 60.0) -> bool:
        """Spin the event loop until no job runs and the view is current (screenshots, benchmark)."""
        from PySide6.QtWidgets import QApplication

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            QApplication.processEvents()
            if not self.busy() and not self._debounce.isActive() and not self.state.demo_bpe_pending:
                QApplication.processEvents()
                if not self.busy():
                    return True
            time.sleep(0.005)
        return False

    def prepare_screenshot(self, args) -> None:
        names = getattr(args, "encoders", None)
        for path in getattr(args, "model", None) or []:
            self.open_model_file_and_wait(path)
        if names:
            self.set_encoders(
                list(names) + [n for n in self.encoder_names() if n not in names and n not in DEFAULT_ENCODERS]
            )
        text = getattr(args, "text", None)
        self.set_text(text if text is not None else default_text())
        self.wait_until_idle()
        self.refresh_now()
        self.wait_until_idle()
        if self.view.rows:
            # hover the 안 of the first 안녕하세요 so the shot shows the cross-row highlight
            i = self.view.text.find("안녕하세요")
            if i >= 0:
                self.view.set_hovered_char(i)
        self.show_segmentations()

    def busy(self) -> bool:
        """Some background task still runs (or its result is on its way)."""
        return any(r.busy for r in self._runners())

    def _runners(self) -> list[Channel]:
        return [self.jobs, self._corpus_tasks, self._side_tasks, self._sp_tasks, self._bpe_tasks, self._model_tasks,
                self._reader_tasks]

    # ---- the Panel protocol -------------------------------------------------------------------
    def menu_actions(self) -> list[PanelAction | None]:
        # the menu's words belong to the main window's translations
        return [
            PanelAction(
                "add",
                QCoreApplication.translate("MainWindow", "&Add encoder"),
                lambda: self.add_encoder_name(self.add_combo.currentText()),
                ("Ctrl+Shift+A",),
            ),
            PanelAction(
                "remove",
                QCoreApplication.translate("MainWindow", "&Remove encoder"),
                self._remove_selected,
                ("Ctrl+Shift+D",),
            ),
            None,
            PanelAction(
                "csv",
                QCoreApplication.translate("MainWindow", "Export &CSV…"),
                shortcuts=("Ctrl+Shift+E",),
                button=self.csv_button,
            ),
            PanelAction(
                "png",
                QCoreApplication.translate("MainWindow", "Save &PNG…"),
                shortcuts=("Ctrl+E",),
                button=self.png_button,
            ),
        ]

    def auto_play(self, pace: float) -> bool:
        return False  # the rows stay as the presenter left them

    def stop_auto_play(self) -> None:
        pass

    def shutdown(self) -> None:
        """Stop every job without waiting for one (the window is closing).

        An encoder call cannot be interrupted (a 5 MB text, a 200k-rank model being parsed), and
        joining it here froze the closing window for as long as it ran (23 s). Each job is superseded
        (its result will be dropped); the pool is the service's, so nothing here waits for the call.
        """
        self._debounce.stop()
        self.state.close()
        for channel in self._runners():
            channel.close()
