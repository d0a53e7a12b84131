"""Compare panel: the same text through several encoders, aligned row by row, with stats, charts,
corpus comparison, vocabulary overlap and in-app SentencePiece training.

Everything that can be slow (loading an encoder, encoding, a corpus, a 200k vocabulary, training)
runs as a background task (task functions in :mod:`tokviz.ui.compare.jobs`, run by the common
TaskRunner, one per kind of work); the panel only lays out and paints.
"""

from __future__ import annotations

import csv
import html
import io
import time
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QGridLayout,
    QHBoxLayout, QHeaderView, QLabel, QListWidget, QListWidgetItem, QPlainTextEdit, QProgressBar,
    QPushButton, QScrollArea, QSpinBox, QSplitter, QTableWidget, QTableWidgetItem, QTabWidget,
    QTextBrowser, QVBoxLayout, QWidget,
)

from tokviz.core.atomic import write_atomic
from tokviz.core.compare import (
    DIFF_LIMIT, CorpusTotals, EncoderOutcome, ParagraphCache, TextSet, alternative_segmentations, compare_corpus, corpus_set,
    overlap_of, sample_sets, vocabulary,
)
from tokviz.core.errors import TokvizError, check_text
from tokviz.ui.compare.charts import GroupedBarChart, TokenBarChart, encoder_color, restyle
from tokviz.ui.common.image_export import save_widget_png
from tokviz.ui.common.message_bar import MessageBar
from tokviz.ui.common.panel import PanelAction
from tokviz.ui.common.tasks import TaskRunner
from tokviz.ui.compare.jobs import (
    DEMO_BPE_NAME, PREVIEW_CHARS, TRAINED_PLACEHOLDER, OutcomeCache, RowsJob, changed_chars, encode_rows, preview_cut,
    train_demo_bpe,
)
from tokviz.ui.compare.rows import AlignedRowsView, error_color
from tokviz.ui.fonts import mono_font
from tokviz.ui.theme import is_dark
from tokviz.ui.token_colors import readable_on, text_color_on, token_color

DEFAULT_ENCODERS = ["gpt2", "cl100k_base", "o200k_base", "sp:demo_unigram", DEMO_BPE_NAME]
DEFAULT_TEXT = (
    "안녕하세요! gpt2 sees a Hangul syllable as 3 UTF-8 bytes: 안녕하세요 costs 14 tokens there, 2 in o200k_base.\n"
    "Emoji 👋🏽 🇰🇷 👨‍👩‍👧 · numbers 1234567.89 · code: def greet(name): return f\"Hi {name}\""
)

# titles are translated when shown (lupdate reads the literals; the English stays the key)
STAT_COLUMNS = [QT_TRANSLATE_NOOP("ComparePanel", "Encoder"), QT_TRANSLATE_NOOP("ComparePanel", "Tokens"),
                QT_TRANSLATE_NOOP("ComparePanel", "Chars/token"), QT_TRANSLATE_NOOP("ComparePanel", "Bytes/token"),
                QT_TRANSLATE_NOOP("ComparePanel", "Tokens/word"), QT_TRANSLATE_NOOP("ComparePanel", "Partial"),
                QT_TRANSLATE_NOOP("ComparePanel", "Byte fallback"), QT_TRANSLATE_NOOP("ComparePanel", "Unknown"),
                QT_TRANSLATE_NOOP("ComparePanel", "Round trip"), QT_TRANSLATE_NOOP("ComparePanel", "Vocab size")]
CORPUS_COLUMNS = [QT_TRANSLATE_NOOP("ComparePanel", "Set"), QT_TRANSLATE_NOOP("ComparePanel", "Encoder"),
                  QT_TRANSLATE_NOOP("ComparePanel", "Texts"), QT_TRANSLATE_NOOP("ComparePanel", "Tokens"),
                  QT_TRANSLATE_NOOP("ComparePanel", "Chars/token"), QT_TRANSLATE_NOOP("ComparePanel", "Bytes/token"),
                  QT_TRANSLATE_NOOP("ComparePanel", "Tokens/word"), QT_TRANSLATE_NOOP("ComparePanel", "Partial"),
                  QT_TRANSLATE_NOOP("ComparePanel", "Byte fallback"), QT_TRANSLATE_NOOP("ComparePanel", "Unknown"),
                  QT_TRANSLATE_NOOP("ComparePanel", "Round-trip failures"), QT_TRANSLATE_NOOP("ComparePanel", "Errors")]
CORPUS_METRICS = {QT_TRANSLATE_NOOP("ComparePanel", "chars per token"): "chars_per_token",
                  QT_TRANSLATE_NOOP("ComparePanel", "tokens"): "tokens",
                  QT_TRANSLATE_NOOP("ComparePanel", "bytes per token"): "bytes_per_token",
                  QT_TRANSLATE_NOOP("ComparePanel", "tokens per word"): "fertility",
                  QT_TRANSLATE_NOOP("ComparePanel", "partial tokens"): "partial_tokens"}


def _num(value: float, digits: int = 2) -> str:
    return f"{value:,.{digits}f}"


def _item(text: str, *, align_right: bool = True, tip: str | None = None) -> QTableWidgetItem:
    it = QTableWidgetItem(text)
    it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable)
    if align_right:
        it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if tip:
        it.setToolTip(tip)
    return it


def write_csv_atomic(path: str | Path, header: list[str], rows: list[list[str]]) -> Path:
    """Write a CSV file (UTF-8, with a BOM so spreadsheet programs read Hangul correctly) atomically."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(header)
    w.writerows(rows)
    return write_atomic(path, buf.getvalue(), encoding="utf-8-sig", newline="")


ROW_POINT_SIZE = 12  # token rows (times the app's font scale)
def name_color(index: int, palette: QPalette) -> QColor:
    """An encoder's colour for its name as text, darkened or lightened until it reads on the theme's
    base (a fixed darker(120) left gpt2's blue at ~2:1 on the dark base, orange at 3.4:1 on white)."""
    return readable_on(encoder_color(index), palette.color(QPalette.ColorRole.Base))


class ComparePanel(QWidget):
    """The Compare tab. Public methods are what tests, the benchmark and screenshots drive."""

    rowsUpdated = Signal()  # the aligned view and stats show the current text and encoders
    rowsPreviewed = Signal()  # a long text's first part is shown while the rest is encoded
    corpusFinished = Signal(object)  # CorpusComparison
    overlapFinished = Signal(object)  # VocabOverlap
    trainingFinished = Signal(object)  # the new encoder, or an error message (str)

    def __init__(self, session, parent: QWidget | None = None, *, encoders: list[str] | None = None):
        super().__init__(parent)
        self.session = session
        self.jobs = TaskRunner(self)  # the rows of the current text: the latest text wins
        self._corpus_tasks = TaskRunner(self, threads=1)
        self._side_tasks = TaskRunner(self, threads=1)  # a vocabulary overlap
        self._sp_tasks = TaskRunner(self, threads=1)  # SentencePiece training
        self._bpe_tasks = TaskRunner(self, threads=1)  # the demo BPE, trained on first use
        self.outcomes: list[EncoderOutcome] = []
        self.corpus_totals: list[CorpusTotals] = []
        self._generation = 0
        self._pending_bpe = False
        self._bpe_failed: str | None = None
        self._known = set(session.registry.names())
        self._corpus_job = None
        self._corpus_path: str | None = None
        self._last_update_ms = 0.0
        self._worker_seconds = 0.0
        self._full_seconds = 0.0
        self._last_full_text: str | None = None  # nothing encoded yet: a long text starts with a preview
        self.timings: dict[str, float] = {}
        self._preview_ms = 0.0
        self._charts_dark = is_dark()
        self._stale = False
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
        self._trained_name: str | None = trained.name if trained is not None else None
        renamed = getattr(session, "encoderRenamed", None)
        if renamed is not None:
            renamed.connect(self.rename_encoder)
        trained_signal = getattr(session, "trainedModelChanged", None)
        if trained_signal is not None:
            trained_signal.connect(self._on_trained_model)
        if encoders is None:
            encoders = self.remembered_encoders()
        self.set_encoders(encoders)
        self.editor.setPlainText(DEFAULT_TEXT)

    # ---- building -----------------------------------------------------------------------------
    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)

        top = QHBoxLayout()
        self.editor = QPlainTextEdit()
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
        self.sample_combo.addItems(list(self._samples))
        self.sample_combo.activated.connect(self._load_sample)
        side.addWidget(self.sample_combo)
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

        self.message_bar = MessageBar()
        outer.addWidget(self.message_bar)

        split = QSplitter(Qt.Orientation.Vertical)
        upper = QSplitter(Qt.Orientation.Horizontal)
        upper.addWidget(self._build_encoder_list())
        self.view = AlignedRowsView()
        self.scroll = QScrollArea()
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

    def _build_encoder_list(self) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(self.tr("Encoders (drag to reorder)")))
        self.encoder_list = QListWidget()
        self.encoder_list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.encoder_list.model().rowsMoved.connect(lambda *a: self._encoders_edited(remember=True))
        lay.addWidget(self.encoder_list, 1)
        self.add_combo = QComboBox()
        self.add_combo.setToolTip(self.tr("Encoders known to tokviz that are not in the list"))
        lay.addWidget(self.add_combo)
        grid = QGridLayout()
        add = QPushButton(self.tr("Add"))
        add.clicked.connect(lambda: self.add_encoder_name(self.add_combo.currentText()))
        remove = QPushButton(self.tr("Remove"))
        remove.clicked.connect(self._remove_selected)
        up = QPushButton(self.tr("▲ Up"))
        up.clicked.connect(lambda: self._move_selected(-1))
        down = QPushButton(self.tr("▼ Down"))
        down.clicked.connect(lambda: self._move_selected(1))
        grid.addWidget(add, 0, 0)
        grid.addWidget(remove, 0, 1)
        grid.addWidget(up, 1, 0)
        grid.addWidget(down, 1, 1)
        lay.addLayout(grid)
        open_btn = QPushButton(self.tr("Open model file…"))
        open_btn.clicked.connect(self._ask_open_model)
        lay.addWidget(open_btn)
        self._refresh_add_combo()
        return box

    def _build_stats(self) -> QWidget:
        w = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        lay = QVBoxLayout(left)
        lay.setContentsMargins(0, 0, 0, 0)
        self.stats_table = QTableWidget(0, len(STAT_COLUMNS))
        self.stats_table.setHorizontalHeaderLabels([self.tr(c) for c in STAT_COLUMNS])
        self.stats_table.verticalHeader().setVisible(False)
        self.stats_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.stats_table.setAlternatingRowColors(True)
        lay.addWidget(self.stats_table, 1)
        self.diff_label = QLabel()
        self.diff_label.setWordWrap(True)
        self.diff_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.diff_label)
        w.addWidget(left)
        self.token_chart = TokenBarChart()
        w.addWidget(self.token_chart)
        w.setStretchFactor(0, 3)
        w.setStretchFactor(1, 1)
        w.setSizes([900, 380])
        return w

    def _build_corpus(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        bar = QHBoxLayout()
        self.corpus_source = QComboBox()
        self.corpus_source.addItems([self.tr("Built-in sample sets"), self.tr("Demo corpus"), self.tr("Corpus file…")])
        self.corpus_source.activated.connect(self._corpus_source_changed)
        bar.addWidget(QLabel(self.tr("Texts:")))
        bar.addWidget(self.corpus_source)
        self.max_lines = QSpinBox()
        self.max_lines.setRange(1, 10_000_000)
        self.max_lines.setValue(200_000)
        self.max_lines.setPrefix(self.tr("at most "))
        self.max_lines.setSuffix(" lines")
        bar.addWidget(self.max_lines)
        self.corpus_run = QPushButton(self.tr("Compare corpus"))
        self.corpus_run.clicked.connect(lambda: self.run_corpus())
        self.corpus_cancel = QPushButton(self.tr("Cancel"))
        self.corpus_cancel.setEnabled(False)
        self.corpus_cancel.clicked.connect(self.cancel_corpus)
        bar.addWidget(self.corpus_run)
        bar.addWidget(self.corpus_cancel)
        self.corpus_progress = QProgressBar()
        self.corpus_progress.setRange(0, 1000)
        bar.addWidget(self.corpus_progress, 1)
        self.metric_combo = QComboBox()
        for label, attr in CORPUS_METRICS.items():
            self.metric_combo.addItem(self.tr(label), attr)
        self.metric_combo.currentIndexChanged.connect(lambda _: self._show_corpus(self.corpus_totals))
        bar.addWidget(QLabel(self.tr("Chart:")))
        bar.addWidget(self.metric_combo)
        lay.addLayout(bar)
        self.corpus_status = QLabel(self.tr("Compare every encoder in the list over the built-in sample sets or a corpus file."))
        lay.addWidget(self.corpus_status)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.corpus_table = QTableWidget(0, len(CORPUS_COLUMNS))
        self.corpus_table.setHorizontalHeaderLabels([self.tr(c) for c in CORPUS_COLUMNS])
        self.corpus_table.verticalHeader().setVisible(False)
        self.corpus_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        split.addWidget(self.corpus_table)
        self.corpus_chart = GroupedBarChart()
        split.addWidget(self.corpus_chart)
        split.setSizes([760, 560])
        lay.addWidget(split, 1)
        ov = QHBoxLayout()
        ov.addWidget(QLabel(self.tr("Vocabulary overlap:")))
        self.overlap_a = QComboBox()
        self.overlap_b = QComboBox()
        ov.addWidget(self.overlap_a)
        ov.addWidget(QLabel(self.tr("vs")))
        ov.addWidget(self.overlap_b)
        go = QPushButton(self.tr("Compute"))
        go.clicked.connect(lambda: self.compute_overlap(self.overlap_a.currentText(), self.overlap_b.currentText()))
        ov.addWidget(go)
        self.overlap_label = QLabel(self.tr("Shared token byte strings and Jaccard index of two vocabularies."))
        self.overlap_label.setWordWrap(True)
        self.overlap_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        ov.addWidget(self.overlap_label, 1)
        lay.addLayout(ov)
        return w

    def _build_sentencepiece(self) -> QWidget:
        w = QWidget()
        lay = QHBoxLayout(w)
        form_box = QWidget()
        form = QFormLayout(form_box)
        self.sp_type = QComboBox()
        self.sp_type.addItems(["unigram", "bpe"])
        self.sp_vocab = QSpinBox()
        self.sp_vocab.setRange(260, 200_000)
        self.sp_vocab.setValue(2000)
        self.sp_coverage = QDoubleSpinBox()
        self.sp_coverage.setDecimals(4)
        self.sp_coverage.setRange(0.9, 1.0)
        self.sp_coverage.setSingleStep(0.0005)
        self.sp_coverage.setValue(0.9995)
        self.sp_fallback = QCheckBox(self.tr("byte fallback (<0xNN> pieces instead of <unk>)"))
        self.sp_fallback.setChecked(True)
        form.addRow(self.tr("Model type"), self.sp_type)
        form.addRow(self.tr("Vocabulary size"), self.sp_vocab)
        form.addRow(self.tr("Character coverage"), self.sp_coverage)
        form.addRow("", self.sp_fallback)
        self.sp_train_button = QPushButton(self.tr("Train on the corpus (Corpus tab's texts)"))
        self.sp_train_button.clicked.connect(lambda: self.train_sentencepiece())
        form.addRow(self.sp_train_button)
        self.sp_status = QLabel(self.tr("The model is added as an encoder when training ends."))
        self.sp_status.setWordWrap(True)
        form.addRow(self.sp_status)
        lay.addWidget(form_box)
        right = QVBoxLayout()
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Unigram model:")))
        self.seg_model = QComboBox()
        bar.addWidget(self.seg_model, 1)
        self.seg_alpha = QDoubleSpinBox()
        self.seg_alpha.setRange(0.01, 1.0)
        self.seg_alpha.setSingleStep(0.05)
        self.seg_alpha.setValue(0.1)
        self.seg_alpha.setPrefix("alpha ")
        bar.addWidget(self.seg_alpha)
        seg_go = QPushButton(self.tr("Show segmentations"))
        seg_go.clicked.connect(lambda: self.show_segmentations())
        bar.addWidget(seg_go)
        right.addLayout(bar)
        self.seg_view = QTextBrowser()
        self.seg_view.setFont(mono_font(11))
        self.seg_view.setPlaceholderText(
            self.tr("N-best and sampled segmentations of the first line of the text by a SentencePiece unigram model."))
        right.addWidget(self.seg_view, 1)
        holder = QWidget()
        holder.setLayout(right)
        lay.addWidget(holder, 1)
        return w

    def _tab_changed(self, index: int) -> None:
        total = sum(self.splitter.sizes())
        share = 0.3 if index == 0 else 0.58
        self.splitter.setSizes([int(total * (1 - share)), int(total * share)])

    def changeEvent(self, event) -> None:  # noqa: N802
        super().changeEvent(event)
        if event.type() in (event.Type.PaletteChange, event.Type.ApplicationPaletteChange) and hasattr(self, "encoder_list"):
            for i in range(self.encoder_list.count()):
                # the panel's palette: children get theirs after this event
                self.encoder_list.item(i).setForeground(name_color(i, self.palette()))

    def _on_theme(self, *_args) -> None:
        self._encoders_edited()  # name colours have a dark variant
        self._charts_dark = is_dark()
        restyle(self.token_chart)
        restyle(self.corpus_chart)
        self._debounce.start()  # token colours have a dark variant

    def _on_font_scale(self, *_args) -> None:
        self.view.set_font_size(ROW_POINT_SIZE)
        self.editor.setFont(mono_font(11))
        self.seg_view.setFont(mono_font(11))

    # ---- encoder list -------------------------------------------------------------------------
    def encoder_names(self) -> list[str]:
        return [self.encoder_list.item(i).text() for i in range(self.encoder_list.count())]

    def set_encoders(self, names: list[str]) -> None:
        self.encoder_list.clear()
        for n in dict.fromkeys(names):
            self.encoder_list.addItem(QListWidgetItem(n))
        self._encoders_edited()

    def add_encoder_name(self, name: str) -> None:
        if name and name not in self.encoder_names():
            self.encoder_list.addItem(QListWidgetItem(name))
            self._encoders_edited(remember=True)

    def remove_encoder_name(self, name: str) -> None:
        for i in range(self.encoder_list.count()):
            if self.encoder_list.item(i).text() == name:
                self.encoder_list.takeItem(i)
                self._encoders_edited(remember=True)
                return

    def move_encoder(self, name: str, delta: int) -> None:
        names = self.encoder_names()
        if name not in names:
            return
        i = names.index(name)
        j = max(0, min(len(names) - 1, i + delta))
        if i != j:
            item = self.encoder_list.takeItem(i)
            self.encoder_list.insertItem(j, item)
            self.encoder_list.setCurrentRow(j)
            self._encoders_edited(remember=True)

    def _remove_selected(self) -> None:
        item = self.encoder_list.currentItem()
        if item is not None:
            self.remove_encoder_name(item.text())

    def _move_selected(self, delta: int) -> None:
        item = self.encoder_list.currentItem()
        if item is not None:
            self.move_encoder(item.text(), delta)

    def rename_encoder(self, old: str, new: str) -> None:
        """Show ``new`` where ``old`` was (the Train panel's model at another step), keeping its place."""
        names = self.encoder_names()
        if old not in names:
            return
        i = names.index(old)
        if new in names:  # listed twice would be one row twice
            self.encoder_list.takeItem(i)
        else:
            self.encoder_list.item(i).setText(new)
        self._encoders_edited()  # not saved: a trained model's name is gone in the next run anyway

    def _on_trained_model(self, encoder) -> None:
        previous, self._trained_name = self._trained_name, (encoder.name if encoder is not None else None)
        if encoder is None and previous is not None:
            # the Train panel was reset: the row says so instead of "no such encoder"
            self.rename_encoder(previous, TRAINED_PLACEHOLDER)
        elif encoder is not None:
            self.rename_encoder(TRAINED_PLACEHOLDER, encoder.name)

    def _available_names(self) -> set[str]:
        names = {s.name for s in self.session.registry.statuses() if s.available}
        return names | {DEMO_BPE_NAME}  # trained on first use

    def remembered_encoders(self) -> list[str]:
        """The list saved by the last run, without names no longer available (an opened file that
        moved, a trained model); the default list when none is left."""
        settings = getattr(self.session, "settings", None)
        saved = list(settings.last_encoders) if settings is not None else []
        available = self._available_names()
        names = [n for n in dict.fromkeys(saved) if n in available]
        return names or [n for n in DEFAULT_ENCODERS if n in available]

    def _encoders_edited(self, *, remember: bool = False) -> None:
        for i in range(self.encoder_list.count()):
            item = self.encoder_list.item(i)
            item.setForeground(name_color(i, self.palette()))
        self._refresh_add_combo()
        if remember:  # a user's add / remove / reorder is kept for the next run
            settings = getattr(self.session, "settings", None)
            if settings is not None:
                settings.last_encoders = [n for n in self.encoder_names() if n != TRAINED_PLACEHOLDER]
        self._debounce.start()

    def _refresh_add_combo(self) -> None:
        present = set(self.encoder_names()) if hasattr(self, "encoder_list") else set()
        names = [s.name for s in self.session.registry.statuses() if s.available and s.name not in present]
        if DEMO_BPE_NAME not in present and DEMO_BPE_NAME not in names:
            names.append(DEMO_BPE_NAME)
        self.add_combo.clear()
        self.add_combo.addItems(names)
        all_names = [s.name for s in self.session.registry.statuses() if s.available]
        if hasattr(self, "overlap_a"):
            for combo, default in ((self.overlap_a, "cl100k_base"), (self.overlap_b, "o200k_base")):
                current = combo.currentText()
                combo.clear()
                combo.addItems(all_names)
                if current in all_names:
                    combo.setCurrentText(current)
                elif default in all_names:
                    combo.setCurrentText(default)
            sp = [s.name for s in self.session.registry.statuses() if s.available and s.family == "sentencepiece"]
            current = self.seg_model.currentText()
            self.seg_model.clear()
            self.seg_model.addItems(sp)
            if current in sp:
                self.seg_model.setCurrentText(current)

    def _on_registry_changed(self) -> None:
        names = set(self.session.registry.names())
        new = names - self._known
        self._known = names
        for n in sorted(new):
            # a model opened from the File menu joins the comparison; the Train panel's model of the
            # moment (renamed every step) does not flood the list
            if not n.startswith("tokviz BPE (step") and n != DEMO_BPE_NAME:
                self.add_encoder_name(n)
        self._refresh_add_combo()
        # The Train panel offers its model at every step; a hidden Compare tab catches up when shown.
        if self.isVisible():
            self._debounce.start()
        else:
            self._stale = True

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if self._stale:
            self._stale = False
            self._debounce.start()

    def _ask_open_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open model file"), "",
                                              self.tr("Models (*.model *.tiktoken *.json);;All files (*)"))
        if path:
            self.open_model_file(path)

    def open_model_file(self, path: str) -> bool:
        """Add a model file as an encoder; a bad file gets a message in the panel, nothing else changes."""
        try:
            from tokviz.core.encoders.files import open_model_file

            encoder = open_model_file(path)
        except TokvizError as err:
            self.show_message(self.tr("Cannot open model: {err}").format(err=err))
            return False
        except Exception as err:  # noqa: BLE001 - a broken file must never take the panel down
            self.show_message(self.tr("Cannot open model {path}: {kind}: {err}").format(path=path, kind=type(err).__name__, err=err))
            return False
        self.show_message(None)
        self.session.add_encoder(encoder)
        self.add_encoder_name(encoder.name)
        return True

    def show_message(self, text: str | None) -> None:
        """An error in the message bar (None clears it)."""
        if text:
            self.message_bar.show_message(text, "error")
        else:
            self.message_bar.clear()

    # ---- the demo BPE encoder -----------------------------------------------------------------
    def _ensure_demo_bpe(self) -> None:
        if DEMO_BPE_NAME in self.session.registry or self._pending_bpe or self._bpe_failed:
            return
        self._pending_bpe = True

        def done(model):
            self._pending_bpe = False
            self.session.add_encoder(model)

        def failed(msg):
            self._pending_bpe = False
            self._bpe_failed = msg
            self._debounce.start()

        self._bpe_tasks.start(train_demo_bpe, finished=done, failed=failed)

    # ---- encoding -----------------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        self.editor.setPlainText(text)

    def _load_sample(self, index: int) -> None:
        name = self.sample_combo.itemText(index)
        if name in self._samples:
            self.set_text(self._samples[name])
        self.sample_combo.setCurrentIndex(0)

    def refresh_now(self) -> None:
        """Encode the current text with every listed encoder in the background; the view updates
        when all are done (``rowsUpdated``)."""
        self._debounce.stop()
        if not self.isVisible():
            # a tab nobody looks at does no work (the demo BPE trains on first use); showEvent catches up
            self._stale = True
            return
        text = self.editor.toPlainText()
        names = self.encoder_names()
        if DEMO_BPE_NAME in names:
            self._ensure_demo_bpe()
        try:
            check_text(text)
        except TokvizError as err:
            self.show_message(str(err))
            return
        self._generation += 1
        gen = self._generation
        started = time.perf_counter()
        registry = self.session.registry
        waiting = {DEMO_BPE_NAME} if self._pending_bpe else set()
        bpe_failed = self._bpe_failed
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
        mostly_new = cut is not None and changed_chars(self._last_full_text, text) > PREVIEW_CHARS
        job = RowsJob(registry, names, text, self._outcome_cache, self._paragraphs, dark=dark, mostly_new=mostly_new,
                      cut=cut, waiting=waiting, bpe_failed=bpe_failed)

        def preview(payload):
            if gen != self._generation:
                return
            prepared = payload[2].prepared
            self.view.set_prepared(prepared)
            self._preview_ms = (time.perf_counter() - started) * 1000
            self.status.setText(self.tr("showing the first {shown} of {total} characters; encoding the rest…").format(
                shown=f"{len(prepared.text):,}", total=f"{len(text):,}"))
            self.rowsPreviewed.emit()

        def done(result):
            if result is None or gen != self._generation:
                return  # a newer text or encoder list is on its way
            shown = time.perf_counter()
            self._last_full_text = text
            self._worker_seconds, self._full_seconds = result.worker_seconds, result.encode_seconds
            self._show_outcomes(result.rows, result.prepared)
            now = time.perf_counter()
            self._last_update_ms = (now - started) * 1000
            # where the time went: encoding (worker), showing (GUI thread), and waiting in between
            self.timings = {"worker_ms": self._worker_seconds * 1000, "gui_ms": (now - shown) * 1000,
                            "encode_ms": self._full_seconds * 1000, "total_ms": self._last_update_ms}
            self.status.setText(
                self.tr("{chars} characters · {encoders} encoders · updated in {ms} ms"
                        "  ·  hover a character: its token is outlined in every row"
                        "  ·  ▼ = encoders disagree on a boundary").format(
                    chars=f"{len(text):,}", encoders=len(names), ms=f"{self._last_update_ms:.0f}"))
            self.rowsUpdated.emit()

        def failed(msg):
            if gen == self._generation:
                self.show_message(msg)

        self.jobs.start(lambda state: encode_rows(job, state), finished=done, failed=failed, progressed=preview)

    def _show_outcomes(self, result, prepared) -> None:
        self.show_message(None)
        self.outcomes = [o for _, o, _ in result if o is not None]
        self.view.set_prepared(prepared)
        self._fill_stats(result)

    def _fill_stats(self, result) -> None:
        t = self.stats_table
        # ResizeToContents re-measured a whole column on every setItem (50 cells: ~23 ms); measure
        # once, after the last cell
        header = t.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        try:
            self._fill_stats_cells(t, result)
        finally:
            header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)

    def _fill_stats_cells(self, t, result) -> None:
        t.clearSpans()
        t.setRowCount(len(result))
        diffs = []
        names, values, colors = [], [], []
        for r, (name, outcome, note) in enumerate(result):
            name_item = _item(name, align_right=False)
            name_item.setForeground(name_color(r, t.palette()))
            t.setItem(r, 0, name_item)
            names.append(name)
            colors.append(encoder_color(r))
            if outcome is None or not outcome.ok:
                msg = note if outcome is None else outcome.error
                err = _item(msg or "", align_right=False, tip=msg)
                if outcome is not None:
                    err.setForeground(error_color(t.palette()))
                t.setItem(r, 1, err)
                t.setSpan(r, 1, 1, len(STAT_COLUMNS) - 1)
                values.append(None)
                continue
            m = outcome.metrics
            rt_tip = "\n".join(d.describe() for d in outcome.differences[:20]) or "decode(encode(text)) == text"
            cells = [f"{m.tokens:,}", _num(m.chars_per_token), _num(m.bytes_per_token), _num(m.fertility),
                     f"{m.partial_tokens:,}", f"{m.fallback_tokens:,}", f"{m.unknown_tokens:,}",
                     self.tr("exact") if m.round_trip else self.tr("differs ({n})").format(
                         n=f"{len(outcome.differences)}{'+' if len(outcome.differences) >= DIFF_LIMIT else ''}"),
                     f"{outcome.vocab_size:,}" if outcome.vocab_size else "?"]
            for c, value in enumerate(cells, start=1):
                item = _item(value, tip=rt_tip if c == 8 else None)
                if c == 8 and not m.round_trip:
                    item.setForeground(error_color(t.palette()))
                t.setItem(r, c, item)
            values.append(m.tokens)
            if outcome.differences:
                shown = "; ".join(d.describe() for d in outcome.differences[:3])
                more = (" " + self.tr("(+{n} more)").format(n=len(outcome.differences) - 3)
                        if len(outcome.differences) > 3 else "")
                diffs.append(self.tr("<b>{name}</b> round trip: {diffs}").format(
                    name=html.escape(name), diffs=html.escape(shown) + more))
        self.diff_label.setText("<br>".join(diffs))
        self.diff_label.setVisible(bool(diffs))
        self.token_chart.set_values(names, values, colors, self.tr("tokens"))

    # ---- corpus comparison --------------------------------------------------------------------
    def _corpus_source_changed(self, index: int) -> None:
        if self.corpus_source.itemText(index) == self.tr("Corpus file…"):
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Corpus file"), "", self.tr("Text (*.txt);;All files (*)"))
            if path:
                self.set_corpus_file(path)
            else:
                self.corpus_source.setCurrentIndex(0)

    def set_corpus_file(self, path: str) -> None:
        """Use ``path`` (one text per line) as the corpus for comparison and SentencePiece training."""
        self._corpus_path = path
        label = f"File: {Path(path).name}"
        if self.corpus_source.count() > 3:
            self.corpus_source.setItemText(3, label)
        else:
            self.corpus_source.addItem(label)
        self.corpus_source.setCurrentIndex(3)

    def _corpus_sets_loader(self):
        """A function (run in the worker) that reads the chosen texts."""
        choice = self.corpus_source.currentIndex()
        path = self._corpus_path
        max_lines = self.max_lines.value()

        def load() -> list[TextSet]:
            if choice == 0:
                return sample_sets()
            if choice == 1:
                from tokviz.core.encoders.sentencepiece_train import demo_corpus_path

                return [corpus_set(demo_corpus_path(), name="demo corpus", max_lines=max_lines)]
            if path is None:
                raise TokvizError("choose a corpus file first")
            return [corpus_set(path, max_lines=max_lines)]

        return load

    def run_corpus(self, sets: list[TextSet] | None = None) -> None:
        """Compare every listed encoder over ``sets`` (default: the Corpus tab's choice) in the
        background; the table fills while it runs."""
        if self._corpus_job is not None and self._corpus_job.running:
            return
        names = self.encoder_names()
        registry = self.session.registry
        load = (lambda: sets) if sets is not None else self._corpus_sets_loader()
        self._corpus_names = names
        self._corpus_errors: dict[str, str] = {}

        def work(state):
            text_sets = load()
            encoders = []
            for n in names:
                try:
                    encoders.append(registry.get(n))
                except Exception as err:  # noqa: BLE001
                    self._corpus_errors[n] = str(err)
            return compare_corpus(encoders, text_sets, state)

        self.corpus_run.setEnabled(False)
        self.corpus_cancel.setEnabled(True)
        self.corpus_progress.setValue(0)
        self.corpus_status.setText(self.tr("Comparing…"))
        self._corpus_started = time.perf_counter()
        self._corpus_job = self._corpus_tasks.start(work, finished=self._corpus_done, failed=self._corpus_failed,
                                           progressed=self._corpus_progress)

    def cancel_corpus(self) -> None:
        if self._corpus_job is not None:
            self._corpus_job.cancel()
            self.corpus_status.setText(self.tr("Cancelling…"))

    def _corpus_progress(self, payload) -> None:
        done, total, totals = payload
        self.corpus_progress.setValue(int(1000 * done / total) if total else 1000)
        elapsed = time.perf_counter() - self._corpus_started
        self.corpus_status.setText(self.tr("{done} of {total} characters through every encoder · {seconds} s").format(
            done=f"{done:,}", total=f"{total:,}", seconds=f"{elapsed:.1f}"))
        self._show_corpus(totals)

    def _corpus_done(self, result) -> None:
        self.corpus_run.setEnabled(True)
        self.corpus_cancel.setEnabled(False)
        self._show_corpus(result.snapshot())
        state = self.tr("Cancelled") if result.cancelled else self.tr("Done")
        if not result.cancelled:
            self.corpus_progress.setValue(1000)
        errors = "; ".join(f"{n}: {e}" for n, e in self._corpus_errors.items())
        self.corpus_status.setText(self.tr("{state} in {seconds} s.").format(state=state, seconds=f"{result.seconds:.1f}")
                                   + (" " + self.tr("Skipped: {errors}").format(errors=errors) if errors else ""))
        self.corpusFinished.emit(result)

    def _corpus_failed(self, msg: str) -> None:
        self.corpus_run.setEnabled(True)
        self.corpus_cancel.setEnabled(False)
        self.corpus_status.setText(self.tr("Could not compare: {err}").format(err=msg))
        self.corpusFinished.emit(None)

    def _show_corpus(self, totals: list[CorpusTotals]) -> None:
        self.corpus_totals = totals
        t = self.corpus_table
        t.setRowCount(len(totals))
        for r, c in enumerate(totals):
            cells = [c.set_name, c.encoder, f"{c.texts:,}", f"{c.tokens:,}", _num(c.chars_per_token),
                     _num(c.bytes_per_token), _num(c.fertility), f"{c.partial_tokens:,}", f"{c.fallback_tokens:,}",
                     f"{c.unknown_tokens:,}", f"{c.round_trip_failures:,}", f"{c.failed_texts:,}"]
            for col, value in enumerate(cells):
                t.setItem(r, col, _item(value, align_right=col >= 2, tip=c.first_error if col == 11 else None))
        if not totals:
            return
        sets = list(dict.fromkeys(c.set_name for c in totals))
        encs = list(dict.fromkeys(c.encoder for c in totals))
        attr = self.metric_combo.currentData()
        by = {(c.set_name, c.encoder): c for c in totals}
        values = [[float(getattr(by[(s, e)], attr)) for s in sets] for e in encs]
        names = self.encoder_names()
        colors = [encoder_color(names.index(e)) if e in names else encoder_color(i) for i, e in enumerate(encs)]
        self.corpus_chart.set_matrix(sets, encs, values, colors, self.metric_combo.currentText())

    # ---- vocabulary overlap -------------------------------------------------------------------
    def compute_overlap(self, a: str, b: str) -> None:
        registry = self.session.registry
        if not a or not b:
            return
        self.overlap_label.setText(self.tr("Reading the vocabularies of {a} and {b}…").format(a=a, b=b))

        def work(state):
            ea, eb = registry.get(a), registry.get(b)
            return overlap_of(a, vocabulary(ea, state), b, vocabulary(eb, state))

        def done(ov):
            def show(bs):
                return ", ".join(html.escape(repr(x.decode("utf-8"))) for x in bs[:6])

            self.overlap_label.setText(
                f"<b>{html.escape(ov.describe())}</b><br>"
                + self.tr("shared e.g. {shared}<br>only {a}: {only_a}<br>only {b}: {only_b}").format(
                    shared=show(ov.shared_examples), a=html.escape(ov.a), only_a=show(ov.only_a_examples),
                    b=html.escape(ov.b), only_b=show(ov.only_b_examples)))
            self.overlapFinished.emit(ov)

        def failed(msg):
            self.overlap_label.setText(self.tr("Could not compare vocabularies: {err}").format(err=html.escape(msg)))
            self.overlapFinished.emit(None)

        self._side_tasks.start(work, finished=done, failed=failed)

    # ---- SentencePiece ------------------------------------------------------------------------
    def train_sentencepiece(self, sets: list[TextSet] | None = None) -> None:
        """Train a SentencePiece model on the corpus (the Corpus tab's texts) in the background and
        add it as an encoder."""
        from tokviz.core.encoders.sentencepiece_train import SentencePieceConfig, train_sentencepiece

        config = SentencePieceConfig(self.sp_type.currentText(), self.sp_vocab.value(),
                                     self.sp_coverage.value(), self.sp_fallback.isChecked())
        try:
            config.check()
        except TokvizError as err:
            self.sp_status.setText(str(err))
            return
        load = (lambda: sets) if sets is not None else self._corpus_sets_loader()
        source = "texts" if sets is not None else self.corpus_source.currentText().removeprefix("File: ")
        stamp = time.strftime("%H%M%S")
        display = f"sp:{config.model_type}-{config.vocab_size} ({source})"

        def work(state):
            lines = [ln for s in load() for t in s.texts for ln in t.splitlines()]
            return train_sentencepiece(lines, config, name=f"{config.model_type}-{config.vocab_size}-{stamp}",
                                       display_name=display)

        def done(encoder):
            self.sp_train_button.setEnabled(True)
            self.sp_status.setText(self.tr("Trained {name}: {n} pieces ({config}).").format(
                name=encoder.name, n=f"{encoder.vocab_size:,}", config=config.describe()))
            self.session.add_encoder(encoder)
            self.add_encoder_name(encoder.name)
            self.seg_model.setCurrentText(encoder.name)
            self.trainingFinished.emit(encoder)

        def failed(msg):
            self.sp_train_button.setEnabled(True)
            self.sp_status.setText(self.tr("Training failed: {err}").format(err=msg))
            self.trainingFinished.emit(msg)

        self.sp_train_button.setEnabled(False)
        self.sp_status.setText(self.tr("Training {config}…").format(config=config.describe()))
        self._sp_tasks.start(work, finished=done, failed=failed)

    def show_segmentations(self, name: str | None = None, text: str | None = None) -> bool:
        """Fill the segmentation view for ``name`` (default: the chosen model) and ``text`` (default:
        the first line of the text, up to 120 characters)."""
        name = name or self.seg_model.currentText()
        if text is None:
            lines = self.editor.toPlainText().strip().splitlines()
            text = lines[0][:120] if lines else ""
        try:
            encoder = self.session.registry.get(name)
            seg = alternative_segmentations(encoder, text, alpha=self.seg_alpha.value())
        except TokvizError as err:
            color = error_color(self.seg_view.palette()).name()
            self.seg_view.setHtml(f"<p style='color:{color}'>{html.escape(str(err))}</p>")
            return False
        pieces_id = getattr(encoder, "processor", None)

        def row(pieces) -> str:
            out = []
            for p in pieces:
                pid = pieces_id.piece_to_id(p) if pieces_id is not None else hash(p) & 0xFFFF
                bg = token_color(pid)
                fg = text_color_on(bg)
                out.append(f"<span style='background:{bg.name()};color:{fg.name()}'>&nbsp;{html.escape(p)}&nbsp;</span>")
            return "&thinsp;".join(out) + f" <span style='color:gray'>({len(pieces)})</span>"

        parts = ["<p>" + self.tr("<b>{encoder}</b> on {text}").format(encoder=html.escape(seg.encoder),
                                                                        text=html.escape(repr(seg.text))) + "</p>",
                 "<p>" + self.tr("<b>N-best</b> (most likely first)") + "</p>"]
        parts += [f"<p>{i + 1}. {row(p)}</p>" for i, p in enumerate(seg.nbest)]
        parts.append("<p>" + self.tr("<b>Sampled</b> (alpha {alpha}, seeded)").format(alpha=f"{seg.alpha:g}") + "</p>")
        parts += [f"<p>{row(p)}</p>" for p in seg.samples]
        self.seg_view.setHtml("".join(parts))
        return True

    # ---- export -------------------------------------------------------------------------------
    def stats_rows(self) -> tuple[list[str], list[list[str]]]:
        """The stats table (current text) as CSV rows: numbers unformatted."""
        header = ["encoder", "tokens", "characters", "bytes", "words", "chars_per_token", "bytes_per_token",
                  "fertility", "partial_tokens", "fallback_tokens", "unknown_tokens", "round_trip", "vocab_size", "error"]
        rows = []
        for o in self.outcomes:
            if o.metrics is None:
                rows.append([o.encoder] + [""] * 12 + [o.error or ""])
                continue
            m = o.metrics
            rows.append([o.encoder, m.tokens, m.characters, m.bytes, m.words, f"{m.chars_per_token:.4f}",
                         f"{m.bytes_per_token:.4f}", f"{m.fertility:.4f}", m.partial_tokens, m.fallback_tokens,
                         m.unknown_tokens, "exact" if m.round_trip else "differs", o.vocab_size or "", ""])
        return header, rows

    def corpus_rows(self) -> tuple[list[str], list[list[str]]]:
        header = ["set", "encoder", "texts", "tokens", "characters", "bytes", "words", "chars_per_token",
                  "bytes_per_token", "fertility", "partial_tokens", "fallback_tokens", "unknown_tokens",
                  "round_trip_failures", "failed_texts", "first_error"]
        rows = [[c.set_name, c.encoder, c.texts, c.tokens, c.characters, c.bytes, c.words, f"{c.chars_per_token:.4f}",
                 f"{c.bytes_per_token:.4f}", f"{c.fertility:.4f}", c.partial_tokens, c.fallback_tokens,
                 c.unknown_tokens, c.round_trip_failures, c.failed_texts, c.first_error or ""]
                for c in self.corpus_totals]
        return header, rows

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
                self.export_csv(path)
            except OSError as err:
                self.show_message(self.tr("Could not write {path}: {err}").format(path=path, err=err.strerror or err))

    def _ask_save_png(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save view as PNG"), "compare.png", "PNG (*.png)")
        if path:
            try:
                self.save_png(path)
            except (OSError, TokvizError) as err:
                self.show_message(self.tr("Could not write {path}: {err}").format(path=path, err=err))

    # ---- app hooks ----------------------------------------------------------------------------
    def wait_until_idle(self, timeout: float = 60.0) -> bool:
        """Spin the event loop until no job runs and the view is current (screenshots, benchmark)."""
        from PySide6.QtWidgets import QApplication

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            QApplication.processEvents()
            if not self.busy() and not self._debounce.isActive() and not self._pending_bpe:
                QApplication.processEvents()
                if not self.busy():
                    return True
            time.sleep(0.005)
        return False

    def prepare_screenshot(self, args) -> None:
        names = getattr(args, "encoders", None)
        for path in getattr(args, "model", None) or []:
            self.open_model_file(path)
        if names:
            self.set_encoders(list(names) + [n for n in self.encoder_names() if n not in names and
                                              n not in DEFAULT_ENCODERS])
        text = getattr(args, "text", None)
        self.set_text(text if text is not None else DEFAULT_TEXT)
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

    def _runners(self) -> list[TaskRunner]:
        return [self.jobs, self._corpus_tasks, self._side_tasks, self._sp_tasks, self._bpe_tasks]

    # ---- the Panel protocol -------------------------------------------------------------------
    def menu_title(self) -> str:
        return QCoreApplication.translate("MainWindow", "&Compare")

    def menu_actions(self) -> list[PanelAction | None]:
        # the menu's words belong to the main window's translations
        return [
            PanelAction("add", QCoreApplication.translate("MainWindow", "&Add encoder"), lambda: self.add_encoder_name(self.add_combo.currentText()),
                        ("Ctrl+Shift+A",)),
            PanelAction("remove", QCoreApplication.translate("MainWindow", "&Remove encoder"), self._remove_selected, ("Ctrl+Shift+D",)),
            None,
            PanelAction("csv", QCoreApplication.translate("MainWindow", "Export &CSV…"), shortcuts=("Ctrl+Shift+E",), button=self.csv_button),
            PanelAction("png", QCoreApplication.translate("MainWindow", "Save &PNG…"), shortcuts=("Ctrl+E",), button=self.png_button),
        ]

    def auto_play(self, pace: float) -> bool:
        return False  # the rows stay as the presenter left them

    def stop_auto_play(self) -> None:
        pass

    def shutdown(self) -> None:
        """Stop every task (the window is closing): running encoder calls finish, their results are dropped."""
        self._debounce.stop()
        for runner in self._runners():
            runner.shutdown()
