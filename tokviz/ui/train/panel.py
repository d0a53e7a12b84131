"""The Train panel: watch tokviz's BPE learn, merge by merge.

The core trainer runs in a child process (``tokviz.core.bpe.trainer_process``: its own
interpreter, so its work never holds this process's GIL while the GUI paints); a worker thread
(``train_worker``) streams the corpus to it, takes its events and sends the MergeSteps to the panel
in batches by time. The panel records them and shows any recorded step: an animation plays them at
the chosen speed from ONE frame timer, the scrubber and the Step button jump to a step, and every
view (merge banner, corpus sample, probe, vocabulary table, plots, merge tree) is redrawn from that
timer for the current step — by replaying recorded events (``train_replay``), never by retraining.
"""

from __future__ import annotations

import gc
import html
import time
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QEventLoop, Qt, QTimer
from PySide6.QtGui import QColor, QFontMetrics, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSlider,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.bpe.events import Finished, MergeStep, Progress, TrainerConfig
from tokviz.core.pretokenize import PATTERNS
from tokviz.ui import theme
from tokviz.ui.fonts import mono_font, ui_font
from tokviz.ui.fonts import scale as font_scale
from tokviz.ui.token_colors import readable_on, text_color_on, token_colors
from tokviz.ui.common.message_bar import MessageBar
from tokviz.ui.common.panel import PanelAction
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.plots import MergeSeries, TrainPlots
from tokviz.ui.train_replay import MergeReplay, Segment, keep_hangul
from tokviz.ui.train.state import Playback
from tokviz.ui.train.sample import Run, TokenLinesView, mark_runs
from tokviz.ui.train.tree import MergeTreeView
from tokviz.ui.train.vocab import VocabFilter, VocabModel, token_length, visible_piece
from tokviz.ui.train.worker import TrainRun

FRAME_MS = 40  # the one redraw timer: 25 frames per second when animating recorded merges
BUSY_FRAME_MS = 100  # 10 per second while following a computing trainer at full speed (it needs the CPU)
SAMPLE_BUDGET = 0.008  # seconds of corpus-sample re-segmentation per frame while the trainer runs
# the four plots are separate views: while the trainer computes, one plot is repainted per frame
# (a repaint of all four when their axes first get ranges held the main thread ~120 ms)
HEAVY_VIEWS = ["sample", "plot:vocab", "vocab", "plot:count", "probe", "plot:corpus", "plot:length"]
# seconds between refreshes of each heavy view while the trainer computes (a pyqtgraph repaint
# is the costliest); when the trainer is paused or done, every view follows every step
HEAVY_INTERVAL = {"sample": 0.3, "vocab": 0.3, "probe": 0.5,
                  "plot:vocab": 0.5, "plot:count": 0.5, "plot:corpus": 0.5, "plot:length": 0.5}
SPEEDS = [(QT_TRANSLATE_NOOP("TrainPanel", "1 merge/s"), 1.0), (QT_TRANSLATE_NOOP("TrainPanel", "3 merges/s"), 3.0),
          (QT_TRANSLATE_NOOP("TrainPanel", "10 merges/s"), 10.0), (QT_TRANSLATE_NOOP("TrainPanel", "30 merges/s"), 30.0),
          (QT_TRANSLATE_NOOP("TrainPanel", "100 merges/s"), 100.0),
          (QT_TRANSLATE_NOOP("TrainPanel", "1000 merges/s"), 1000.0),
          (QT_TRANSLATE_NOOP("TrainPanel", "as fast as possible"), None)]
DEFAULT_SPEED = 2
FORMATS = [("tokviz", QT_TRANSLATE_NOOP("TrainPanel", "tokviz model (*.json)")),
           ("tiktoken", QT_TRANSLATE_NOOP("TrainPanel", "tiktoken rank file (*.tiktoken)")),
           ("subword-nmt", QT_TRANSLATE_NOOP("TrainPanel", "subword-nmt codes (*.codes *.txt)")),
           ("gpt2", QT_TRANSLATE_NOOP("TrainPanel", "GPT-2 vocab.json + merges.txt (*.json)"))]
PROBE_TEXT = "토크나이저는 글자를 조각으로 나눕니다. Tokenizers split words into pieces 🙂"
FRESH_BG = "#ff8c00"


def speed_index(pace: float) -> int:
    """Index in SPEEDS of the animated speed nearest to ``pace`` merges per second."""
    animated = [(i, v) for i, (_, v) in enumerate(SPEEDS) if v is not None]
    return min(animated, key=lambda iv: abs(iv[1] - pace))[0]


def default_trainer_factory(config: TrainerConfig):
    """tokviz's own BPE trainer, run in a child process so that the GUI process's GIL stays free
    for painting (see ``tokviz.core.bpe.trainer_process``; imported late: the panel opens even
    before a first run)."""
    from tokviz.core.bpe.trainer_process import ProcessTrainer

    return ProcessTrainer(config)


NEWLINE_MARK = "↵"  # the newline marker of the Inspector and Compare (core.unicode.invisible_marker)


def segment_runs(segments: list[Segment], *, dark: bool = False) -> tuple[Run, ...]:
    """Coloured runs for a segmented line (shared token colours); the tokens the current merge made
    stand out in orange.

    Byte tokens that hold only part of a character are drawn as one grey run per group of whole
    characters, with the number of tokens the run takes as a subscript (``영₃`` = three byte tokens):
    readable on a projector, and the subscript shrinks as merges assemble the bytes.
    Neighbours drawn in the same colour (a repeated piece, a palette collision, two fresh pieces)
    are told apart by an outline on every other one (``Run.mark``, as the Inspector's ``token_marks``).
    """
    ids = [s.token_id for s in segments if s.token_id is not None]
    colors = token_colors(ids, dark=dark)
    partial_bg, partial_fg = ("#3a3d44", "#c8c8c8") if dark else ("#e3e4e8", "#4a4d55")
    out: list[Run] = []
    k = 0  # index into colors
    i = 0
    while i < len(segments):
        seg = segments[i]
        if seg.token_id is None:
            out.append(Run(seg.text))
            i += 1
            continue
        if seg.partial:
            data = b""
            j = i
            fresh = False
            text = ""
            while j < len(segments) and segments[j].token_id is not None:
                data += segments[j].data
                fresh = fresh or segments[j].fresh
                j += 1
                try:
                    text = data.decode("utf-8")
                    break
                except UnicodeDecodeError:
                    text = data.decode("utf-8", "replace")
            bg, fg = (FRESH_BG, "#ffffff") if fresh else (partial_bg, partial_fg)
            out.append(Run(text.replace("\n", NEWLINE_MARK), bg, fg, fresh, str(j - i)))
            k += j - i
            i = j
            continue
        color = colors[k]
        k += 1
        i += 1
        text = seg.text.replace("\n", NEWLINE_MARK)
        if seg.fresh:
            out.append(Run(text, FRESH_BG, "#ffffff", True))
        else:
            out.append(Run(text, color.name(), text_color_on(color).name()))
    return tuple(mark_runs(out))


def muted_color(palette: QPalette) -> QColor:
    """Secondary-text colour for ``palette``'s theme: its placeholder grey, darkened (light theme) or
    lightened (dark theme) to a 4.5:1 contrast on the window colour. The plain greys were not
    readable enough: #808080 is ~3.6:1 on the light window, the light theme's placeholder ~2.9:1."""
    return readable_on(palette.color(QPalette.ColorRole.PlaceholderText), palette.color(QPalette.ColorRole.Window))


def _mute(label: QLabel) -> None:
    """Grey secondary text (call again on a theme change). A palette, not a style sheet: a label
    with its own style sheet kept its size when the app's font grew (presentation mode)."""
    pal = label.palette()
    pal.setColor(QPalette.ColorRole.WindowText, muted_color(pal))
    label.setPalette(pal)


class PasteDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Paste a corpus"))
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(self.tr("One document or sentence per line:")))
        self.edit = QPlainTextEdit()
        self.edit.setFont(mono_font())
        lay.addWidget(self.edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(600, 400)


class TrainPanel(QWidget):
    """Train BPE on a corpus and watch every merge (see the module docstring for the data flow)."""

    # the playback state's fields, as the panel's own (scripts and tests read them here)
    cursor = property(lambda self: self.playback.cursor, lambda self, v: setattr(self.playback, "cursor", v))
    playing = property(lambda self: self.playback.playing, lambda self, v: setattr(self.playback, "playing", v))
    fast_forward = property(lambda self: self.playback.fast_forward,
                            lambda self, v: setattr(self.playback, "fast_forward", v))

    def __init__(self, session, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.trainer_factory: Callable[[TrainerConfig], object] = default_trainer_factory
        self.source = CorpusSource.demo()
        self.sources: list[CorpusSource] = [self.source]
        self.run: TrainRun | None = None
        self.trainer = None
        self.config: TrainerConfig | None = None
        self.replay: MergeReplay | None = None
        self.series = MergeSeries()
        self.finished: Finished | None = None
        self.playback = Playback(pace=SPEEDS[DEFAULT_SPEED][1])  # the step on screen, playing, pace
        self._last_frame = time.monotonic()
        self._dirty = True
        self._gc_frozen = False  # gc.freeze() holds while a run trains (see start_training)
        self._speed_before_auto: int | None = None  # the user's speed while presentation mode plays
        self._worker_quiet = True  # the trainer is suspended (paused at a step, finished or no run)
        self._offer_pending = False
        self._quiet_callbacks: list[Callable[[], None]] = []
        self._sample: list[str] = []
        self._sample_steps: list[int] = []  # the step each sample line shows
        self._sample_keep = False  # the Hangul-only setting the sample lines were picked with
        self._probe_text: str | None = None  # the text the probe view holds (None: not set yet)
        self._view_step = {v: -1 for v in HEAVY_VIEWS}  # the step each heavy view shows
        self._next_heavy = 0
        self._view_drawn: dict[str, float] = {}  # when each heavy view was last refreshed
        self._selected_token: int | None = None
        self._dark = theme.is_dark()

        self._build()
        self.frame_timer = QTimer(self)
        self.frame_timer.setInterval(FRAME_MS)
        self.frame_timer.timeout.connect(self._on_frame)
        self.probe_timer = QTimer(self)
        self.probe_timer.setSingleShot(True)
        self.probe_timer.setInterval(150)  # debounce typing in the probe
        self.probe_timer.timeout.connect(self._render_probe)
        self.offer_timer = QTimer(self)
        self.offer_timer.setSingleShot(True)
        self.offer_timer.setInterval(300)  # offer the model when the step settles, not every merge
        self.offer_timer.timeout.connect(self._offer_model)
        if hasattr(session, "themeChanged"):
            session.themeChanged.connect(self._on_theme)
        if hasattr(session, "fontScaleChanged"):
            session.fontScaleChanged.connect(lambda _scale: self._apply_fonts())
        self._apply_fonts()
        self._offer_last_corpus()
        self._load_sample()
        self._update_buttons()
        self._render()

    # ================================================================ layout
    def _build(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(8, 6, 8, 6)
        root.setSpacing(6)

        # corpus and settings
        row1 = QHBoxLayout()
        row1.addWidget(QLabel(self.tr("Corpus")))
        self.corpus_combo = QComboBox()
        self.corpus_combo.setMinimumWidth(220)
        self.corpus_combo.addItem(self.source.label)
        self.corpus_combo.activated.connect(self._on_corpus_chosen)
        row1.addWidget(self.corpus_combo)
        self.open_button = QPushButton(self.tr("Open file…"))
        self.open_button.clicked.connect(self._open_file)
        self.paste_button = QPushButton(self.tr("Paste…"))
        self.paste_button.clicked.connect(self._paste)
        row1.addWidget(self.open_button)
        row1.addWidget(self.paste_button)
        # settings on a row of their own, so the panel fits a 1024-pixel-wide screen
        settings_row = QHBoxLayout()
        settings_row.addWidget(QLabel(self.tr("Mode")))
        self.mode_combo = QComboBox()
        self.mode_combo.addItem(self.tr("byte (UTF-8 bytes)"), "byte")
        self.mode_combo.addItem(self.tr("char (</w> words)"), "char")
        self.mode_combo.currentIndexChanged.connect(self._on_mode)
        settings_row.addWidget(self.mode_combo)
        self.pattern_label = QLabel(self.tr("Pattern"))
        settings_row.addWidget(self.pattern_label)
        self.pattern_combo = QComboBox()
        for name in PATTERNS:
            self.pattern_combo.addItem(name)
        self.pattern_combo.setCurrentText("gpt4")
        settings_row.addWidget(self.pattern_combo)
        self.hangul_check = QCheckBox(self.tr("Hangul only"))
        self.hangul_check.setToolTip(self.tr("Count only Hangul and spaces (the classic Korean BPE tutorial's preset)"))
        settings_row.addWidget(self.hangul_check)
        self.hangul_check.toggled.connect(self._on_keep_toggled)
        settings_row.addWidget(QLabel(self.tr("Merges")))
        self.merges_spin = QSpinBox()
        self.merges_spin.setRange(1, 1_000_000)
        self.merges_spin.setValue(300)
        settings_row.addWidget(self.merges_spin)
        settings_row.addWidget(QLabel(self.tr("Min freq")))
        self.minfreq_spin = QSpinBox()
        self.minfreq_spin.setRange(1, 1_000_000)
        self.minfreq_spin.setValue(2)
        settings_row.addWidget(self.minfreq_spin)
        settings_row.addStretch(1)
        row1.addStretch(1)
        self.save_button = QPushButton(self.tr("Save model…"))
        self.save_button.clicked.connect(self._save_model)
        row1.addWidget(self.save_button)
        root.addLayout(row1)
        root.addLayout(settings_row)

        # transport
        row2 = QHBoxLayout()
        self.train_button = QPushButton(self.tr("▶ Train"))
        self.pause_button = QPushButton(self.tr("⏸ Pause"))
        self.step_button = QPushButton(self.tr("Step"))
        self.end_button = QPushButton(self.tr("⏭ Run to end"))
        self.cancel_button = QPushButton(self.tr("■ Cancel"))
        self.reset_button = QPushButton(self.tr("Reset"))
        self.train_button.clicked.connect(self.train_or_play)
        self.pause_button.clicked.connect(self.pause)
        self.step_button.clicked.connect(self.step)
        self.end_button.clicked.connect(self.run_to_end)
        self.cancel_button.clicked.connect(self.cancel)
        self.reset_button.clicked.connect(self.reset)
        for b in (self.train_button, self.pause_button, self.step_button, self.end_button,
                  self.cancel_button, self.reset_button):
            row2.addWidget(b)
        row2.addSpacing(8)
        row2.addWidget(QLabel(self.tr("Speed")))
        self.speed_combo = QComboBox()
        for label, _ in SPEEDS:
            self.speed_combo.addItem(self.tr(label))
        self.speed_combo.setCurrentIndex(DEFAULT_SPEED)
        row2.addWidget(self.speed_combo)
        self.scrubber = QSlider(Qt.Orientation.Horizontal)
        self.scrubber.setRange(0, 0)
        self.scrubber.valueChanged.connect(self._on_scrub)
        row2.addWidget(self.scrubber, 1)
        self.step_label = QLabel(self.tr("step 0"))
        self.step_label.setMinimumWidth(150)
        row2.addWidget(self.step_label)
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(220)
        self.progress_bar.setFormat(self.tr("counting… %p%"))
        self.progress_bar.hide()
        row2.addWidget(self.progress_bar)
        root.addLayout(row2)

        self.message = MessageBar()
        root.addWidget(self.message)

        # the merge of the current step, big enough for a projector
        self.merge_banner = QLabel()
        self.merge_banner.setTextFormat(Qt.TextFormat.RichText)
        self.merge_banner.setFont(mono_font(20))
        self.merge_banner.setMinimumHeight(46)
        root.addWidget(self.merge_banner)

        split = QSplitter(Qt.Orientation.Horizontal)
        # left: corpus sample and probe
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        self.sample_title = QLabel(self.tr("<b>Corpus sample</b> — pieces at the current step; the merge just made in orange"))
        # captions wrap: a one-line caption would set the pane's minimum width, and in presentation
        # mode on a 1366-pixel projector it pushed the plots off the screen
        self.sample_title.setWordWrap(True)
        ll.addWidget(self.sample_title)
        # what the grey pieces' small numbers mean, on screen (a projector shows no tooltips)
        self.sample_legend = QLabel(self.tr("grey 영₃ = one character still split into 3 byte tokens"))
        _mute(self.sample_legend)
        self.sample_legend.setWordWrap(True)
        ll.addWidget(self.sample_legend)
        self.sample_view = TokenLinesView()
        self.sample_view.setFont(ui_font(13))
        self.sample_view.setToolTip(self.sample_legend.text())
        ll.addWidget(self.sample_view, 3)
        probe_title = QLabel(self.tr("<b>Probe</b> — type anything; it is segmented at the current step"))
        probe_title.setWordWrap(True)
        ll.addWidget(probe_title)
        self.probe_edit = QLineEdit(PROBE_TEXT)
        self.probe_edit.setFont(ui_font(12))
        self.probe_edit.setCursorPosition(0)
        self.probe_edit.textChanged.connect(lambda _=None: self.probe_timer.start())
        ll.addWidget(self.probe_edit)
        # the same line view as the sample: the probe's pieces are drawn (and readable) the same way
        self.probe_view = TokenLinesView()
        self.probe_view.setFont(ui_font(14))
        self.probe_view.setMaximumHeight(90)
        self.probe_view.setToolTip(self.sample_legend.text())
        ll.addWidget(self.probe_view, 1)
        self.probe_status = QLabel()
        _mute(self.probe_status)
        ll.addWidget(self.probe_status)
        split.addWidget(left)

        # middle: vocabulary and merge tree
        mid = QWidget()
        ml = QVBoxLayout(mid)
        ml.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        self.vocab_title = QLabel(self.tr("<b>Learned tokens</b>"))
        head.addWidget(self.vocab_title)
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(self.tr("search token or hex…"))
        self.search_edit.setClearButtonEnabled(True)
        head.addWidget(self.search_edit, 1)
        ml.addLayout(head)
        self.vocab_model = VocabModel(self)
        self.vocab_filter = VocabFilter(self)
        self.vocab_filter.setSourceModel(self.vocab_model)
        self.search_edit.textChanged.connect(self.vocab_filter.set_query)
        self.vocab_view = QTableView()
        self.vocab_view.setModel(self.vocab_filter)
        self.vocab_view.setSortingEnabled(False)
        self.vocab_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.vocab_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.vocab_view.verticalHeader().hide()
        self.vocab_view.verticalHeader().setDefaultSectionSize(22)
        hdr = self.vocab_view.horizontalHeader()
        hdr.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hdr.setStretchLastSection(True)
        self.vocab_view.selectionModel().currentRowChanged.connect(self._on_vocab_row)
        ml.addWidget(self.vocab_view, 3)
        self.tree_title = QLabel(self.tr("<b>Merge tree</b>"))
        self.tree_title.setWordWrap(True)
        ml.addWidget(self.tree_title)
        self.tree_view = MergeTreeView()
        self.tree_view.setMinimumHeight(180)
        ml.addWidget(self.tree_view, 2)
        split.addWidget(mid)

        # right: plots
        self.plots = TrainPlots(dark=self._dark)
        split.addWidget(self.plots)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 4)
        split.setSizes([460, 450, 490])
        root.addWidget(split, 1)
        self._on_mode()

    # ================================================================ settings
    def _on_mode(self, *_args) -> None:
        byte = self.mode_combo.currentData() == "byte"
        self.pattern_combo.setEnabled(byte)
        self.pattern_label.setEnabled(byte)
        self.sample_legend.setVisible(byte)  # char mode never splits a character

    def current_config(self) -> TrainerConfig:
        mode = self.mode_combo.currentData()
        return TrainerConfig(
            mode=mode,
            merges=self.merges_spin.value(),
            min_frequency=self.minfreq_spin.value(),
            pattern=self.pattern_combo.currentText(),
            keep="hangul" if self.hangul_check.isChecked() else None,
        )

    def set_source(self, source: CorpusSource) -> None:
        """Switch corpus: a run in progress is stopped cleanly and the views are cleared."""
        self._stop_run()
        self.reset()
        if source not in self.sources:
            self.sources.append(source)
            self.corpus_combo.addItem(source.label)
        self.source = source
        self.corpus_combo.setCurrentIndex(self.sources.index(source))
        self._load_sample()
        self._render()

    def _on_corpus_chosen(self, index: int) -> None:
        if 0 <= index < len(self.sources) and self.sources[index] is not self.source:
            self.set_source(self.sources[index])

    def _open_file(self) -> None:
        last = self._settings().last_corpus if self._settings() is not None else None
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a text corpus"), str(Path(last).parent) if last else "",
                                              self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.open_corpus_file(path)

    def open_corpus_file(self, path: str | Path) -> None:
        """Train on the text file ``path`` from now on, and remember it for the next start."""
        path = Path(path).resolve()  # one entry per file, however it was named
        self.set_source(CorpusSource.file(path))
        settings = self._settings()
        if settings is not None:
            settings.last_corpus = str(path)

    def _settings(self):
        return getattr(self.session, "settings", None)

    def _offer_last_corpus(self) -> None:
        """List the corpus file opened last time (if it still exists) under the demo corpus.

        The demo stays selected: a demo or a lecture then always starts the same way, and a large
        file of the last session is not read (even for its sample) until the user picks it."""
        settings = self._settings()
        path = settings.last_corpus if settings is not None else None
        if not path or not Path(path).is_file():
            return
        source = CorpusSource.file(path)
        if source in self.sources:
            return
        self.sources.append(source)
        self.corpus_combo.addItem(source.label)
        self.corpus_combo.setItemData(self.corpus_combo.count() - 1, str(path), Qt.ItemDataRole.ToolTipRole)

    def _paste(self) -> None:
        dialog = PasteDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.edit.toPlainText().strip():
            self.set_source(CorpusSource.paste(dialog.edit.toPlainText()))

    @property
    def sample_lines(self) -> list[str]:
        """The corpus lines the sample view shows."""
        return list(self._sample)

    def _on_keep_toggled(self, _checked: bool) -> None:
        # a run keeps the sample it started with; reset() and the next run pick it again
        if self.replay is None:
            self._load_sample()
            self._render()

    def _load_sample(self) -> None:
        lines = self.source.sample_lines(30)
        if self.hangul_check.isChecked():
            # the Hangul-only preset drops every other character: lines without Hangul would be blank
            lines = [line for line in lines if keep_hangul(line).strip()] or lines
        self._sample_keep = self.hangul_check.isChecked()
        self._sample = lines
        self._sample_steps = []
        self._view_step["sample"] = -1

    # ================================================================ transport
    def train_or_play(self) -> None:
        """Train (a new run), or continue playing a paused animation / run."""
        if self.replay is not None and self.playback.can_play_on(len(self.replay), self.run is not None):
            self.playback.play()
            if self.run is not None:
                self.run.worker.resume()
                self._worker_quiet = False
            self._ensure_timer()
            self._update_buttons()
            return
        self.start_training()

    def auto_play(self, pace: float) -> bool:
        """Presentation mode: play at ``pace`` merges per second, hands-free.

        With nothing trained yet, a run starts on the current corpus; a paused run or animation
        goes on; a finished recording shown at its end plays again from step 0 (no retraining).
        The speed box shows the pace and can still be changed; :meth:`stop_auto_play` gives the
        user's own speed back.
        """
        index = speed_index(pace)
        if self._speed_before_auto is None:
            self._speed_before_auto = self.speed_combo.currentIndex()
        self.speed_combo.setCurrentIndex(index)
        self.fast_forward = False
        if self.replay is not None and self.run is None and self.cursor >= len(self.replay) > 0:
            self.set_step(0)
        self.train_or_play()
        return True

    def stop_auto_play(self) -> None:
        """Leaving presentation mode: back to the speed the user had chosen (playing goes on)."""
        if self._speed_before_auto is not None:
            self.speed_combo.setCurrentIndex(self._speed_before_auto)
            self._speed_before_auto = None

    def start_training(self, source: CorpusSource | None = None) -> None:
        """Start a new run on ``source`` (default: the current corpus) with the current settings."""
        if source is not None:
            self.source = source
            self.sources[self.corpus_combo.currentIndex()] = source
        self._stop_run()
        self.reset()
        self.message.clear()
        config = self.current_config()
        try:
            trainer = self.trainer_factory(config)
        except Exception as err:  # noqa: BLE001 — shown in the window, the app keeps working
            self.message.show_message(self.tr("Cannot start training: {err}").format(err=err), "error")
            return
        self.config = config
        self.trainer = trainer
        self.replay = MergeReplay(config.mode, config.pattern, config.keep)
        self.vocab_model.reset(self.replay.steps, config.mode)
        self.plots.set_length_unit("chars" if config.mode == "char" else "bytes")
        self.plots.set_step_range(config.merges)
        source_now = self.source

        def make_events(cancel):
            return trainer.run(source_now.lines(), cancel=cancel, total_bytes=source_now.total_bytes)

        run = TrainRun(make_events, self)
        run.worker.batch.connect(self._on_batch)
        run.worker.progress.connect(self._on_progress)
        run.worker.failed.connect(self._on_failed)
        run.worker.waiting.connect(self._on_waiting)
        run.worker.finished.connect(self._on_finished)
        self.run = run
        self.playing = True
        self.progress_bar.setValue(0)
        self.progress_bar.show()
        self._update_buttons()
        # Show and paint step 0 in full BEFORE the worker starts. A trainer counting in the worker
        # thread (an injected one; the default trains in a child process) holds the GIL in
        # str.split/Counter.update calls of ~15 ms each, and every Python override a repaint calls
        # (pyqtgraph's paint/boundingRect, the sample view's paintEvent) waits for one: the first
        # repaint of a run took 700-900 ms there, 40 ms here. With the training process the
        # worker only streams corpus lines, in short GIL holds, but the paint still comes first.
        self._render()  # the worker is still quiet: every view follows step 0 on this frame
        self._paint_now()
        self._worker_quiet = False
        self._last_frame = time.monotonic()
        # A full (generation 2) garbage collection walks every object of the app - Qt wrappers,
        # pyqtgraph, the other panels' encoders - and holds the GIL 60-115 ms while a run's
        # allocations (events received, the replay; an in-thread trainer's counting) trigger it.
        # Frozen, they are skipped; the run's own objects are still collected. Thawed when the run
        # ends (_thaw_gc).
        if not self._gc_frozen:
            gc.freeze()
            self._gc_frozen = True
        run.start()
        self._ensure_timer()

    def _paint_now(self) -> None:
        """Paint the panel's pending changes now instead of from a later event-loop pass: the
        plots' scene updates and layout requests are queued events, flushed here so that the
        window's update request paints them. A pyqtgraph paint can ask for another one (auto-range
        and axis text sizes settle while painting), so the follow-up requests are served here too."""
        if not self.isVisible():
            return
        scene = self.plots.scene()

        def flush() -> None:
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            QCoreApplication.sendPostedEvents(scene, QEvent.Type.MetaCall)
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

        for _ in range(3):
            flush()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.UpdateRequest)  # paints only what is dirty

    def pause(self) -> None:
        """Stop the animation and the trainer where they are (the worker blocks between merges)."""
        self.playback.pause()
        if self.run is not None:
            self.run.worker.pause()
        self._update_buttons()
        self._request_offer()

    def step(self) -> None:
        """One merge forward: from the recording when it is ahead, else ask the trainer for one more."""
        if self.replay is None:
            self.playback.pause()
            return
        if self.playback.step_forward(len(self.replay)):
            self.set_step(self.cursor)
        elif self.run is not None:
            self.run.worker.pause()
            self.run.worker.step_once()
            self._worker_quiet = False
            self._ensure_timer()
        self._update_buttons()

    def run_to_end(self) -> None:
        """Show the last step and keep following the trainer as fast as it goes."""
        if self.replay is None:
            self.start_training()
        self.playback.play(fast=True)
        if self.run is not None:
            self.run.worker.resume()
            self._worker_quiet = False
        self._ensure_timer()
        self._update_buttons()

    def cancel(self) -> None:
        """Stop the trainer; what it learned so far stays (playable, scrubbable, savable)."""
        if self.run is not None:
            self._stop_run()
            self.finished = Finished("cancelled", len(self.replay or ()), self.tr("Training cancelled."))
            self.step_label.setToolTip(self.tr("cancelled"))
        # a playing animation goes on to the last merge learned; the trainer is gone
        self._dirty = True
        self._ensure_timer()
        self._update_buttons()
        self._request_offer()

    def reset(self) -> None:
        """Forget the run: stop the trainer, clear every view and withdraw the model offered to the
        other panels (it belonged to the run that is gone)."""
        self._stop_run()
        self.offer_timer.stop()
        self._offer_pending = False
        if getattr(self.session, "trained_model", None) is not None:
            self.session.offer_trained_model(None)
        self.replay = None
        self.trainer = None
        self.finished = None
        self.series.clear()
        self.playback.reset()
        self._selected_token = None
        self.vocab_model.reset([], self.mode_combo.currentData())
        self.plots.clear_data()
        self._view_step = {v: -1 for v in HEAVY_VIEWS}
        self.tree_view.set_tree(None)
        if self._sample_keep != self.hangul_check.isChecked():
            # Hangul-only was toggled during the run: the next run must not show lines it blanks
            self._load_sample()
        self.progress_bar.hide()
        self.scrubber.blockSignals(True)
        self.scrubber.setRange(0, 0)
        self.scrubber.blockSignals(False)
        self._dirty = True
        self._render()
        self._update_buttons()

    def set_step(self, step: int) -> None:
        """Show recorded step ``step`` (0 = before any merge)."""
        self.playback.seek(step, len(self.replay) if self.replay is not None else 0)
        self._dirty = True
        self._render()
        self._request_offer()

    def _on_scrub(self, value: int) -> None:
        self.playback.pause()
        self.set_step(value)
        self._update_buttons()

    def _stop_run(self) -> None:
        run = self.run
        if run is None:
            return
        self.run = None
        for sig in (run.worker.batch, run.worker.progress, run.worker.failed, run.worker.waiting, run.worker.finished):
            try:
                sig.disconnect()
            except (RuntimeError, TypeError):
                pass
        run.stop(1.0)
        self._thaw_gc()
        self._worker_quiet = True
        self.progress_bar.hide()

    def _thaw_gc(self) -> None:
        """Give the objects frozen at the start of a run back to the collector."""
        if self._gc_frozen:
            gc.unfreeze()
            self._gc_frozen = False

    def shutdown(self) -> None:
        """Called when the window closes: stop the worker within a second."""
        self.frame_timer.stop()
        self.offer_timer.stop()
        self._stop_run()

    def is_training(self) -> bool:
        return self.run is not None

    # ================================================================ worker events
    def _on_batch(self, steps: list) -> None:
        if self.replay is None:
            return
        self.progress_bar.hide()
        self.replay.add(steps)
        mode = self.replay.mode
        self.series.add(steps, [token_length(s, mode) for s in steps])
        self.scrubber.blockSignals(True)
        self.scrubber.setMaximum(len(self.replay))
        self.scrubber.blockSignals(False)
        self._dirty = True

    def _on_progress(self, progress: Progress) -> None:
        if progress.total:
            self.progress_bar.setMaximum(1000)
            self.progress_bar.setValue(int(1000 * min(progress.done, progress.total) / progress.total))
        else:
            self.progress_bar.setMaximum(0)  # busy indicator when the size is unknown
        phase = {"counting": self.tr("counting"), "indexing": self.tr("indexing")}.get(progress.phase, progress.phase)
        self.progress_bar.setFormat(self.tr("{phase}… %p%").format(phase=phase))

    def _on_failed(self, message: str, invalid_utf8: bool) -> None:
        if invalid_utf8 and self.source.errors == "strict":
            self.message.show_message(
                message + "\n" + self.tr("You can train anyway with each invalid byte replaced by U+FFFD."), "error",
                self.tr("Replace invalid bytes and train"),
                lambda: self.start_training(self.source.with_replacement()),
            )
        else:
            self.message.show_message(message, "error")

    def _on_waiting(self, merges: int) -> None:
        self._worker_quiet = True
        self._run_quiet_callbacks()

    def _on_finished(self, finished: Finished, ok: bool = True) -> None:
        run = self.run
        self.run = None
        if run is not None:
            run.thread.wait(1000)
        self._thaw_gc()
        self._worker_quiet = True
        self.progress_bar.hide()
        if not ok:  # failed: the message is already shown
            self.playing = False
        else:
            self.finished = finished
            if finished.reason in ("min_frequency", "exhausted") and finished.message:
                self.step_label.setToolTip(finished.message)
        self._dirty = True
        self._ensure_timer()
        self._update_buttons()
        self._run_quiet_callbacks()
        self._request_offer()

    def _run_quiet_callbacks(self) -> None:
        callbacks, self._quiet_callbacks = self._quiet_callbacks, []
        for cb in callbacks:
            cb()
        if self._offer_pending:
            self._offer_model()

    # ================================================================ the one frame timer
    def _ensure_timer(self) -> None:
        if not self.frame_timer.isActive():
            self._last_frame = time.monotonic()
            self.frame_timer.start()

    def _on_frame(self) -> None:
        now = time.monotonic()
        dt = now - self._last_frame
        self._last_frame = now
        n = len(self.replay) if self.replay is not None else 0
        self.playback.pace = SPEEDS[self.speed_combo.currentIndex()][1]
        moved = self.playback.advance(dt, n)
        if moved is not None:
            self._dirty = True
        if moved == "target":
            self._request_offer()
        if self._dirty:
            self._render()
        busy = self.run is not None and not self._worker_quiet and (
            self.fast_forward or SPEEDS[self.speed_combo.currentIndex()][1] is None)
        interval = BUSY_FRAME_MS if busy else FRAME_MS
        if self.frame_timer.interval() != interval:
            self.frame_timer.setInterval(interval)
        if self.playback.finished(n, self.run is not None):
            if self.playing:
                self.playback.pause()
                self._update_buttons()
                self._request_offer()
            self.frame_timer.stop()

    # ================================================================ rendering
    def _render(self) -> None:
        if theme.is_dark() != self._dark:  # the theme can be applied without a signal (start-up)
            self._on_theme(theme.is_dark())
            return
        self._dirty = False
        replay = self.replay
        step = self.cursor
        n = len(replay) if replay is not None else 0
        self.scrubber.blockSignals(True)
        self.scrubber.setMaximum(n)
        self.scrubber.setValue(step)
        self.scrubber.blockSignals(False)
        target = self.config.merges if self.config is not None else self.merges_spin.value()
        state = ""
        if self.finished is not None and step == n:
            state = " · " + {"merges": self.tr("done"), "cancelled": self.tr("cancelled"),
                             "min_frequency": self.tr("min frequency reached"),
                             "exhausted": self.tr("no pairs left")}[self.finished.reason]
        self.step_label.setText(self.tr("step {step} / {target}").format(step=f"{step:,}", target=f"{target:,}") + state)
        self._render_banner(step)
        if self._selected_token is not None and replay is not None:
            self.tree_view.set_tree(replay.merge_tree(self._selected_token, step))
        # The heavy views. While the trainer is computing, they take turns (one per frame) so
        # that no frame holds the main thread long (a pyqtgraph repaint alone takes 15-50 ms).
        # Otherwise they all follow on the same frame.
        stale = [v for v in HEAVY_VIEWS if self._view_step[v] != step]
        if not stale:
            return
        if self.run is not None and not self._worker_quiet:
            # while the trainer computes, each heavy view is refreshed a few times per second at
            # most: the training process needs a CPU core of its own (two cores are common), and
            # a trainer in the worker thread waits for every millisecond the GUI holds the GIL
            now = time.monotonic()
            stale = [v for v in stale if now - self._view_drawn.get(v, 0.0) >= HEAVY_INTERVAL[v]]
            if not stale:
                self._dirty = True
                return
            start = self._next_heavy
            order = HEAVY_VIEWS[start:] + HEAVY_VIEWS[:start]
            view = next(v for v in order if v in stale)
            self._next_heavy = (HEAVY_VIEWS.index(view) + 1) % len(HEAVY_VIEWS)
            self._render_heavy(view, step, budget=SAMPLE_BUDGET)
            if any(self._view_step[v] != step for v in HEAVY_VIEWS):
                self._dirty = True
        else:
            for view in stale:
                self._render_heavy(view, step, budget=None)

    def _render_heavy(self, view: str, step: int, budget: float | None) -> None:
        self._view_drawn[view] = time.monotonic()
        if view == "vocab":
            self.vocab_model.set_shown(step)
            self.vocab_title.setText(self.tr("<b>Learned tokens</b> ({n})").format(n=f"{step:,}"))
            done = True
        elif view.startswith("plot:"):
            self.plots.show_step(self.series, step, parts=(view[len("plot:"):],))
            done = True
        elif view == "probe":
            self._render_probe()
            done = True
        else:
            done = self._render_sample(budget)
        if done:
            self._view_step[view] = step

    def _piece_span(self, piece: str, token_id: int, bold: bool = False) -> str:
        from tokviz.ui.token_colors import token_color

        bg = token_color(token_id, dark=self._dark)
        weight = "font-weight:bold;" if bold else ""
        return (f'<span style="background:{bg.name()}; color:{text_color_on(bg).name()}; {weight}">'
                f"&nbsp;{html.escape(visible_piece(piece))}&nbsp;</span>")

    def _render_banner(self, step: int) -> None:
        if self.replay is None or step == 0:
            hint = (self.tr("Press ▶ Train to watch BPE learn merge by merge") if self.replay is None
                    else self.tr("step 0: no merges yet"))
            color = muted_color(self.palette()).name()
            self.merge_banner.setText(f'<span style="font-size:14pt; color:{color}">{hint}</span>')
            return
        s: MergeStep = self.replay.steps[step - 1]
        self.merge_banner.setText(
            f"{self._piece_span(s.left_piece, s.left)} + {self._piece_span(s.right_piece, s.right)} → "
            f"{self._piece_span(s.new_piece, s.token_id, True)}"
            + '&nbsp;&nbsp;<span style="font-size:13pt">'
            + self.tr("count <b>{count}</b> · rank <b>{rank}</b> · vocab {vocab} · corpus {corpus} tokens").format(
                count=f"{s.count:,}", rank=f"{s.step:,}", vocab=f"{s.vocab_size:,}", corpus=f"{s.corpus_tokens:,}")
            + "</span>"
        )

    def _render_sample(self, budget: float | None = None) -> bool:
        """Re-segment the sample at the current step, visible lines first, spending at most
        ``budget`` seconds; True when every line shows the current step."""
        view = self.sample_view
        if not self._sample:
            view.set_plain_lines([self.tr("(no sample lines)")])
            self._sample_steps = []
            return True
        if self.replay is None:
            view.set_plain_lines(self._sample)
            self._sample_steps = [-1] * len(self._sample)
            return True
        keep = self.replay.keep == "hangul"
        step = self.cursor
        n = len(self._sample)
        if len(self._sample_steps) != n or view.line_count() != n:
            view.set_plain_lines(self._sample)
            self._sample_steps = [-1] * n
        t0 = time.perf_counter()
        first = min(view.first_visible_line(), n - 1)
        for k in range(n):
            i = (first + k) % n
            if self._sample_steps[i] == step:
                continue
            line = keep_hangul(self._sample[i]) if keep else self._sample[i]
            view.set_line(i, segment_runs(self.replay.segment(line, step), dark=self._dark))
            self._sample_steps[i] = step
            if budget is not None and time.perf_counter() - t0 > budget:
                return all(s == step for s in self._sample_steps)
        return True

    def _render_probe(self) -> None:
        """Segment the probe sentence at the step on screen (after typing settles, and at every step)."""
        self.probe_timer.stop()
        text = self.probe_edit.text()
        if self.replay is None or text != self._probe_text or self.probe_view.line_count() != 1:
            # only for a new text: set_line below then replaces the line only when its pieces
            # change (a second document rebuild per frame during playback otherwise)
            self.probe_view.set_plain_lines([text])
            self._probe_text = text
        if self.replay is None:
            self.probe_status.setText(self.tr("{chars} characters").format(chars=len(text)))
            return
        segs = self.replay.segment(text, self.cursor)
        count = sum(1 for s in segs if s.token_id is not None)
        self.probe_view.set_line(0, segment_runs(segs, dark=self._dark))
        self.probe_status.setText(self.tr("{tokens} tokens · {chars} characters").format(tokens=count, chars=len(text)))

    def _on_vocab_row(self, current, _previous) -> None:
        if not current.isValid() or self.replay is None:
            return
        token_id = self.vocab_filter.data(current.siblingAtColumn(1), Qt.ItemDataRole.UserRole)
        self.select_token(token_id)

    def select_token(self, token_id: int) -> None:
        """Show the merge tree of ``token_id`` (as of the current step)."""
        if self.replay is None:
            return
        self._selected_token = token_id
        tree = self.replay.merge_tree(token_id, self.cursor)
        self.tree_title.setText(self.tr("<b>Merge tree</b> of {piece} — {leaves} base tokens, {levels} levels").format(
            piece=html.escape(visible_piece(tree.piece)), leaves=tree.leaves(), levels=tree.depth() - 1))
        self.tree_view.set_tree(tree)

    def _apply_fonts(self) -> None:
        """Fonts for the token views, sized by the window's zoom (Ctrl +/-, presentation mode)."""
        self.merge_banner.setFont(mono_font(20))
        self.sample_view.setFont(ui_font(13))
        self.probe_edit.setFont(ui_font(12))
        self.probe_view.setFont(ui_font(14))
        self.tree_view.set_fonts(mono_font(12), ui_font(8))
        self.plots.set_font_scale(font_scale())
        self.vocab_model.set_font(mono_font())
        fm = QFontMetrics(mono_font())
        pad = 14
        # the hex column holds six bytes (two Hangul syllables); longer tokens are elided, with the
        # full bytes in the tooltip
        for col, sample in enumerate(("00000", "MMMMMMMMMM", "00 00 00 00 00 00", "000000", "000")):
            self.vocab_view.setColumnWidth(col, fm.horizontalAdvance(sample) + pad)
        self.vocab_view.verticalHeader().setDefaultSectionSize(fm.height() + 6)
        self._sample_steps = []
        self._view_step = {v: -1 for v in HEAVY_VIEWS}
        self._dirty = True
        self._ensure_timer()

    def _on_theme(self, dark: bool) -> None:
        self._dark = dark
        self.vocab_model.dark = dark
        self.tree_view.dark = dark
        self.vocab_view.viewport().update()
        self.plots.apply_theme(dark)
        self._view_step = {v: -1 for v in HEAVY_VIEWS}
        self._sample_steps = []
        self.sample_view.clear_formats()
        for label in (self.sample_legend, self.probe_status):
            _mute(label)
        self._dirty = True
        self._render()

    def _update_buttons(self) -> None:
        has_run = self.run is not None
        has_steps = self.replay is not None and len(self.replay) > 0
        paused = self.replay is not None and not self.playing
        self.train_button.setText(self.tr("▶ Play") if (paused and (has_run or (has_steps and self.cursor < len(self.replay))))
                                  else self.tr("▶ Train"))
        self.train_button.setEnabled(not self.playing)
        self.pause_button.setEnabled(self.playing)
        self.step_button.setEnabled(has_run or (has_steps and self.cursor < len(self.replay)))
        self.end_button.setEnabled(has_run or (has_steps and self.cursor < len(self.replay)) or self.replay is None)
        self.cancel_button.setEnabled(has_run)
        self.reset_button.setEnabled(self.replay is not None)
        self.save_button.setEnabled(has_steps and self.trainer is not None)

    # ================================================================ the model at the current step
    def _request_offer(self) -> None:
        self._offer_pending = True
        self.offer_timer.start()

    def _offer_model(self) -> None:
        """Offer ``tokviz BPE (step N)`` to the other panels, once the trainer is suspended."""
        if not self._offer_pending:
            return
        if self.trainer is None or self.replay is None or self.cursor == 0:
            self._offer_pending = False
            return
        if not self._worker_quiet:
            return  # offered from _on_waiting / _on_finished
        if self.playing and self.run is not None:
            return  # still animating: offer when it settles
        self._offer_pending = False
        try:
            model = self.trainer.model(step=self.cursor)
        except Exception as err:  # noqa: BLE001
            self.message.show_message(self.tr("The model at step {step} is not available: {err}").format(step=self.cursor, err=err),
                                      "error")
            return
        offer = getattr(self.session, "offer_trained_model", None)
        if offer is not None:
            offer(model)

    def current_model(self):
        """The trained model at the step on screen (None before any merge)."""
        if self.trainer is None or self.cursor == 0:
            return None
        return self.trainer.model(step=self.cursor)

    def _when_quiet(self, callback: Callable[[], None]) -> None:
        if self._worker_quiet or self.run is None:
            callback()
            return
        self.pause()
        self._quiet_callbacks.append(callback)

    def _save_model(self) -> None:
        self._when_quiet(self._ask_and_save)

    def formats_for_mode(self) -> list[tuple[str, str]]:
        """The export formats that hold this run's mode (tiktoken and GPT-2 files are byte-level,
        subword-nmt codes are char-level; tokviz's own JSON holds both)."""
        mode = self.config.mode if self.config is not None else self.mode_combo.currentData()
        fits = {"byte": ("tokviz", "tiktoken", "gpt2"), "char": ("tokviz", "subword-nmt")}[mode]
        return [(name, self.tr(f)) for name, f in FORMATS if name in fits]

    def _ask_and_save(self) -> None:
        if self.trainer is None or self.cursor == 0:
            return
        formats = self.formats_for_mode()
        path, chosen = QFileDialog.getSaveFileName(
            self, self.tr("Save the model at step {step}").format(step=self.cursor), "", ";;".join(f for _, f in formats))
        if not path:
            return
        fmt = next((name for name, f in formats if f == chosen), "tokviz")
        self.save_model_to(path, fmt)

    def save_model_to(self, path: str, fmt: str) -> list:
        """Save the model at the current step (the core writes atomically); returns the files written.
        Errors go to the message area, never a traceback."""
        try:
            from tokviz.core.bpe.formats import save_model

            written = save_model(self.current_model(), path, fmt) or [path]
        except Exception as err:  # noqa: BLE001
            self.message.show_message(self.tr("Could not save the model: {err}").format(err=err), "error")
            return []
        names = ", ".join(str(p) for p in written)
        self.message.show_message(self.tr("Saved the model at step {step} ({fmt}): {names}").format(
            step=self.cursor, fmt=fmt, names=names), "info")
        return list(written)

    # ================================================================ the Panel protocol
    def menu_title(self) -> str:
        return QCoreApplication.translate("MainWindow", "&Train")

    def menu_actions(self) -> list[PanelAction | None]:
        # the menu's words belong to the main window's translations
        return [
            PanelAction("open", QCoreApplication.translate("MainWindow", "&Open corpus…"), shortcuts=("Ctrl+O",), button=self.open_button),
            PanelAction("paste", QCoreApplication.translate("MainWindow", "&Paste corpus…"), button=self.paste_button),
            None,
            # F5, not Space: Space belongs to the focused button, check box or text field.
            PanelAction("play", QCoreApplication.translate("MainWindow", "&Train / Pause"), self.train_or_pause, ("F5",)),
            PanelAction("step", QCoreApplication.translate("MainWindow", "&Step"), shortcuts=("F10", "."), button=self.step_button),
            PanelAction("end", QCoreApplication.translate("MainWindow", "&Run to end"), shortcuts=("Ctrl+F5",), button=self.end_button),
            PanelAction("cancel", QCoreApplication.translate("MainWindow", "&Cancel training"), shortcuts=("Esc",), button=self.cancel_button),
            PanelAction("reset", QCoreApplication.translate("MainWindow", "R&eset"), shortcuts=("Ctrl+R",), button=self.reset_button),
            None,
            PanelAction("save", QCoreApplication.translate("MainWindow", "Sa&ve model…"), shortcuts=("Ctrl+S",), button=self.save_button),
        ]

    def train_or_pause(self) -> None:
        """The play/pause toggle of the menu and F5: pause while playing, else train or play on."""
        (self.pause_button if self.pause_button.isEnabled() else self.train_button).click()

    # ================================================================ screenshot
    def wait_until_trained(self, timeout: float = 120.0) -> bool:
        """Spin the event loop until the current run ends (tests, screenshots)."""
        deadline = time.monotonic() + timeout
        while self.run is not None and time.monotonic() < deadline:
            loop = QEventLoop()
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        return self.run is None

    def prepare_screenshot(self, args) -> None:
        corpus = getattr(args, "corpus", None)
        merges = getattr(args, "merges", None) or 300
        if corpus:
            self.set_source(CorpusSource.file(corpus))
        self.merges_spin.setValue(merges)
        self.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
        self.start_training()
        self.run_to_end()
        self.wait_until_trained(300.0)
        if not self.replay and self.message.isVisible():
            # a Train screenshot without a single merge documents nothing; failing loudly also
            # lets the frozen-app smoke test catch a training process that cannot start
            from tokviz.core.errors import TokvizError

            raise TokvizError(f"training learned no merge: {self.message.label.text()}")
        self.playing = False
        self.set_step(len(self.replay) if self.replay is not None else 0)
        self._update_buttons()
        if self.replay is not None and len(self.replay):
            self.select_token(self._showcase_token())
            rows = [i for i, s in enumerate(self.replay.steps) if s.token_id == self._selected_token]
            if rows:
                self.vocab_view.selectRow(self.vocab_filter.mapFromSource(self.vocab_model.index(rows[0], 0)).row())
                self.vocab_view.scrollTo(self.vocab_filter.mapFromSource(self.vocab_model.index(rows[0], 0)))
        self._offer_pending = True
        self._offer_model()

    def _showcase_token(self) -> int:
        """A token with an interesting merge tree: prefer Hangul, several levels, still fits."""
        best, best_score = self.replay.steps[-1].token_id, -1.0
        for s in self.replay.steps:
            tree = self.replay.merge_tree(s.token_id)
            leaves = tree.leaves()
            if leaves > 7 or "<0x" in s.new_piece:
                continue
            hangul = any("\uac00" <= ch <= "\ud7a3" for ch in s.new_piece)
            score = tree.depth() + leaves * 0.3 + (2 if hangul else 0) + min(s.count, 1000) / 10000
            if score > best_score:
                best, best_score = s.token_id, score
        return best
