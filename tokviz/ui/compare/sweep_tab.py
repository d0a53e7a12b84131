"""The Compare panel's Sweep tab: how a held-out text fares as a trained tokenizer's vocabulary grows,
beside the production encoders.

One plot, vocabulary size (log scale) against characters per token on the held-out text: the trained
sizes as a line, each production encoder as a labelled point on the same axes; a table of every
metric; progress and cancel; PNG and CSV export. The truth lives in
:class:`~tokviz.ui.compare.sweep_state.SweepState`; the sweep runs on the tab's work channel and trains
in a child process (:func:`~tokviz.ui.compare.sweep_state.sweep`).
"""

from __future__ import annotations

import math
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from tokviz.ui.common.encoder_names import shown_name
from tokviz.ui.compare.charts import encoder_color, restyle
from tokviz.ui.compare.measure_parts import (
    EncoderChecklist,
    MeasureTab,
    NumberItem,
    ask_and_save,
    text_item,
)
from tokviz.ui.compare.sweep_state import ALGORITHMS, MODES, SweepState, sweep
from tokviz.ui.i18n import follow_language
from tokviz.ui.theme import is_dark

CONTEXTS = ("SweepTab", "MeasureExport")
TRAINED_COLOR = "#4e79a7"
# the state's reasons, for lupdate (the tab shows them translated)
REFUSALS = (
    QT_TRANSLATE_NOOP("SweepTab", "Settings are locked while the sweep runs: cancel it to change them."),
    QT_TRANSLATE_NOOP("SweepTab", "Give the sizes as whole numbers separated by commas, e.g. 100,400,1600."),
    QT_TRANSLATE_NOOP("SweepTab", "Give at least one size."),
)
PHASES = {
    "training": QT_TRANSLATE_NOOP("SweepTab", "Training… step {done:,} of {total:,}"),
    "measuring": QT_TRANSLATE_NOOP("SweepTab", "Measuring the held-out text… size {done} of {total}"),
    "encoders": QT_TRANSLATE_NOOP("SweepTab", "Measuring the production encoders…"),
    "done": QT_TRANSLATE_NOOP("SweepTab", "Done"),
}
# (title, SweepPoint -> value, format)
COLUMNS = (
    (QT_TRANSLATE_NOOP("SweepTab", "Vocab size"), lambda p: p.vocab_size, "{:,}"),
    (QT_TRANSLATE_NOOP("SweepTab", "Tokens"), lambda p: p.stats.tokens, "{:,}"),
    (QT_TRANSLATE_NOOP("SweepTab", "Chars/token"), lambda p: p.stats.chars_per_token, "{:.3f}"),
    (QT_TRANSLATE_NOOP("SweepTab", "Tokens/word"), lambda p: p.stats.fertility, "{:.3f}"),
    (QT_TRANSLATE_NOOP("SweepTab", "Continued words"), lambda p: p.stats.continued_share, "{:.1%}"),
    (QT_TRANSLATE_NOOP("SweepTab", "Unused vocabulary"), lambda p: p.stats.unused_share(p.vocab_size), "{:.1%}"),
)


class SweepPlot(pg.PlotWidget):
    """Vocabulary size (log) against chars/token: the trained sizes as a line, encoders as labelled points."""

    def __init__(self, parent=None):
        dark = is_dark()
        super().__init__(parent, background="#1e1e1e" if dark else "w", enableMenu=False)
        self._fg = "#dddddd" if dark else "#222222"
        self.plot_item = self.getPlotItem()
        self.plot_item.setLogMode(x=True, y=False)
        self.plot_item.showGrid(x=True, y=True, alpha=0.25)
        self.plot_item.setMenuEnabled(False)
        self.plot_item.hideButtons()
        restyle(self)
        self.legend = self.plot_item.addLegend(offset=(10, 10), labelTextColor=self._fg)
        self.trained = self.plot_item.plot(
            [],
            [],
            pen=pg.mkPen(TRAINED_COLOR, width=2),
            symbol="o",
            symbolSize=7,
            symbolBrush=TRAINED_COLOR,
            name="trained",
        )
        self.encoders = self.plot_item.plot([], [], pen=None, symbol="d", symbolSize=12)
        self._labels: list[pg.TextItem] = []

    def set_points(
        self,
        trained: tuple[list[int], list[float]],
        encoders: list[tuple[str, int, float]],
        trained_name: str,
        x_label: str,
        y_label: str,
    ) -> None:
        xs, ys = trained
        self.trained.setData(xs, ys)
        self.legend.clear()
        self.legend.addItem(self.trained, trained_name)
        colors = [encoder_color(i + 1) for i in range(len(encoders))]  # 0 is the trained line's blue
        self.encoders.setData(
            [v for _, v, _ in encoders],
            [c for _, _, c in encoders],
            symbolBrush=[pg.mkBrush(c) for c in colors],
            symbolPen=[pg.mkPen(c.darker(140)) for c in colors],
        )
        while len(self._labels) < len(encoders):
            item = pg.TextItem()
            self.plot_item.addItem(item)
            self._labels.append(item)
        every_y = ys + [c for _, _, c in encoders]
        top = max(every_y, default=1.0) * 1.2 or 1.0
        markers = [(math.log10(max(size, 1)), chars) for _, size, chars in encoders]
        placed: list[tuple[float, float]] = []
        for i, item in enumerate(self._labels):
            if i >= len(encoders):
                item.setVisible(False)
                continue
            x, y = markers[i]  # a TextItem is placed in the log axis' units
            others = [m for j, m in enumerate(markers) if j != i] + placed
            anchor, centre = _label_place(x, y, top, others, right=x < max(m[0] for m in markers) - 0.3)
            placed.append(centre)
            item.setAnchor(anchor)
            item.setText(shown_name(encoders[i][0]), color=colors[i].darker(110))
            item.setPos(x, y)
            item.setVisible(True)
        self.plot_item.setLabel("bottom", x_label)
        self.plot_item.setLabel("left", y_label)
        self.plot_item.setYRange(0, top, padding=0)
        sizes = [v for v in xs + [v for _, v, _ in encoders] if v > 0]
        if sizes:
            low, high = math.log10(min(sizes)) - 0.2, math.log10(max(sizes)) + 0.35
            self.plot_item.setXRange(low, high, padding=0)
            self.plot_item.getAxis("bottom").setTicks([size_ticks(low, high), []])


def _label_place(x: float, y: float, top: float, taken: list[tuple[float, float]], right: bool = True):
    """(anchor, centre) for a point's label: above, below, left or (unless the point is the rightmost,
    whose label would leave the plot) right of it, whichever lies farthest from the other points and the
    labels placed so far (llama-3, qwen and o200k_base crowd together)."""
    candidates = [
        ((0.5, 1.3), (x, y + 0.05 * top)),
        ((0.5, -0.3), (x, y - 0.05 * top)),
        ((1.1, 0.5), (x - 0.2, y)),
    ]
    if right:
        candidates.append(((-0.1, 0.5), (x + 0.2, y)))

    def room(centre):
        cx, cy = centre
        return min((math.hypot((cx - tx) / 0.3, (cy - ty) / (0.08 * top)) for tx, ty in taken), default=9.0)

    best = max(candidates, key=lambda c: min(room(c[1]), 1.5))  # above wins whenever it has room enough
    return best


def size_ticks(low: float, high: float) -> list[tuple[float, str]]:
    """Ticks of a log axis from 10**low to 10**high at 1, 2 and 5 times the powers of ten, written in
    full (pyqtgraph's own log ticks label every minor step and run into each other).

    >>> [t for _, t in size_ticks(2.4, 3.5)]
    ['500', '1,000', '2,000']
    """
    ticks = []
    for power in range(math.floor(low), math.ceil(high) + 1):
        for step in (1, 2, 5):
            value = step * 10**power
            if low <= math.log10(value) <= high:
                ticks.append((math.log10(value), f"{value:,}"))
    return ticks


class SweepTab(MeasureTab):
    """See the module docstring. Public methods are what tests and screenshots drive."""

    screenshot_timeout = 300.0  # a sweep trains several sizes

    def __init__(self, session, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.state = SweepState()
        self._channel = session.work.channel(self, "sweep")
        self._build()
        self.state.events.connect(self._on_state)
        session.encodersChanged.connect(self._relist)
        theme = getattr(session, "themeChanged", None)
        if theme is not None:
            theme.connect(lambda *_: restyle(self.plot))
        follow_language(self, CONTEXTS, then=self._recompose)

    def title(self) -> str:
        return self.tr("Vocabulary sweep")

    # ---- building -----------------------------------------------------------------------------
    def _build(self) -> None:
        lay = QVBoxLayout(self)
        options = QHBoxLayout()
        options.addWidget(QLabel(self.tr("Train on:")))
        self.corpus_combo = QComboBox()
        self.corpus_combo.addItems([self.tr("Demo corpus"), self.tr("Corpus file…")])
        self.corpus_combo.activated.connect(lambda i: self._file_chosen("corpus", self.corpus_combo, i))
        options.addWidget(self.corpus_combo)
        options.addWidget(QLabel(self.tr("Held-out text:")))
        self.heldout_combo = QComboBox()
        self.heldout_combo.addItems([self.tr("Korean sample text"), self.tr("Text file…")])
        self.heldout_combo.activated.connect(lambda i: self._file_chosen("heldout", self.heldout_combo, i))
        options.addWidget(self.heldout_combo)
        self.algorithm_combo = QComboBox()
        self.algorithm_combo.addItems(["BPE", "WordPiece", "Unigram"])
        self.algorithm_combo.activated.connect(lambda i: self._change(algorithm=ALGORITHMS[i]))
        options.addWidget(self.algorithm_combo)
        self.mode_combo = QComboBox()
        self.mode_combo.addItems([self.tr("byte-level"), self.tr("characters")])
        self.mode_combo.activated.connect(lambda i: self._change(mode=MODES[i]))
        options.addWidget(self.mode_combo)
        self.sizes_label = QLabel()
        options.addWidget(self.sizes_label)
        self.sizes_edit = QLineEdit(self.state.options.sizes)
        self._shown_sizes = self.state.options.sizes
        self.sizes_edit.editingFinished.connect(lambda: self._change(sizes=self.sizes_edit.text()))
        options.addWidget(self.sizes_edit, 1)
        lay.addLayout(options)

        bar = QHBoxLayout()
        self.run_button = QPushButton(self.tr("Run sweep"))
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        bar.addWidget(self.run_button)
        bar.addWidget(self.cancel_button)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        bar.addWidget(self.progress, 1)
        self.png_button = QPushButton(self.tr("Save PNG…"))
        self.png_button.clicked.connect(lambda: self._report(ask_and_save(self, "png", "sweep.png", self.save_png)))
        self.csv_button = QPushButton(self.tr("Export CSV…"))
        self.csv_button.clicked.connect(lambda: self._report(ask_and_save(self, "csv", "sweep.csv", self.export_csv)))
        bar.addWidget(self.png_button)
        bar.addWidget(self.csv_button)
        lay.addLayout(bar)
        self.status = QLabel(self._hint())
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.status)

        split = QSplitter(Qt.Orientation.Horizontal)
        self.encoder_list = EncoderChecklist(
            self.session.registry.names(), self.state.options.encoders, lambda names: self._change(encoders=names)
        )
        self.encoder_list.setToolTip(self.tr("Production encoders drawn as points"))
        split.addWidget(self.encoder_list)
        self.plot = SweepPlot()
        split.addWidget(self.plot)
        self.table = QTableWidget(0, 1 + len(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the order measured
        self.table.setSortingEnabled(True)
        split.addWidget(self.table)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 2)
        split.setSizes([170, 700, 520])
        lay.addWidget(split, 1)
        self._show_options()
        self._show_points()

    def _hint(self) -> str:
        return self.tr(
            "Train once and measure a held-out text at every size: shorter sequences as the vocabulary "
            "grows, beside the production encoders (vocabulary size against characters per token)."
        )

    # ---- intents ------------------------------------------------------------------------------
    def _change(self, **changes) -> None:
        if self.state.change(**changes) is not None:
            self._show_options(refused=True)  # the widgets show the options that stand

    def _file_chosen(self, key: str, combo: QComboBox, index: int) -> None:
        if index == 0:
            self._change(**{key: None})
            return
        if index > 1:  # the file chosen before
            return
        path, _ = QFileDialog.getOpenFileName(self, combo.itemText(1), "", self.tr("Text files (*.txt);;All files (*)"))
        if path:
            self.choose_file(key, path)
        else:
            self._show_options()

    def choose_file(self, key: str, path: str | Path | None) -> None:
        """Train on (``key="corpus"``) or measure (``key="heldout"``) the UTF-8 file ``path`` (None: the default)."""
        self._change(**{key: None if path is None else str(path)})

    def set_encoders(self, names) -> None:
        self._change(encoders=tuple(names))

    def set_options(self, **changes) -> str | None:
        """Change options as the widgets would (``algorithm``, ``mode``, ``sizes`` …): the refusal, if any."""
        reason = self.state.change(**changes)
        self._show_options(refused=reason is not None)
        return reason

    def run(self) -> None:
        """Start a sweep with the options shown (latest wins), or show why it cannot start."""
        if self.sizes_edit.text() != self.state.options.sizes and self.set_options(sizes=self.sizes_edit.text()):
            return
        request = self.state.start()
        if isinstance(request, str):
            return
        registry = self.session.registry
        generation = request.generation
        self._channel.start(
            lambda state: sweep(request, registry, state),
            finished=lambda result: self.state.finish(generation, result),
            failed=lambda message: self.state.fail(generation, message),
            progressed=lambda p: self.state.report(generation, p[2]),
        )

    def cancel(self) -> None:
        if self.state.cancel():
            self._channel.cancel()

    def busy(self) -> bool:
        return self._channel.busy

    # ---- what the state says ------------------------------------------------------------------
    def _on_state(self, name: str, value) -> None:
        if name == "options":
            self._show_options()
        elif name == "run":
            self._show_running(True)
            self.progress.setValue(0)
            self.status.setText(self.tr("Starting the training process…"))
            self._show_points()
        elif name == "progress":
            self._show_progress(value)
            self._show_points()
        elif name == "cancelling":
            self.cancel_button.setEnabled(False)
            self.status.setText(self.tr("Cancelling…"))
        elif name in ("result", "failed"):
            self._show_running(False)
            self.progress.setValue(1000 if self.state.status == "done" else 0)
            self._show_points()
            self.status.setText(self._summary())
        elif name == "refused":
            self.status.setText(self.tr(value))

    def _show_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for widget in (
            self.corpus_combo,
            self.heldout_combo,
            self.algorithm_combo,
            self.mode_combo,
            self.sizes_edit,
            self.encoder_list,
        ):
            widget.setEnabled(not running)  # locked while it runs: the plot keeps the settings it was made with

    def _show_progress(self, progress) -> None:
        phase = PHASES.get(progress.phase)
        if progress.phase == "training":
            self.progress.setValue(int(1000 * progress.done / max(progress.total, 1)))
        if phase is not None:
            self.status.setText(self.tr(phase).format(done=progress.done, total=progress.total))

    def _summary(self) -> str:
        state = self.state
        if state.status == "failed":
            return self.tr("The sweep failed: {message}").format(message=state.message)
        result = state.result
        trained, encoders = state.points()
        text = self.tr("{sizes} trained sizes and {encoders} production encoders measured on the held-out text").format(
            sizes=len([p for p in trained if p.error is None]), encoders=len([p for p in encoders if p.error is None])
        )
        if state.status == "cancelled":
            text = self.tr("Cancelled: the points measured so far are shown.") + " " + text
        if result is not None and result.stopped_early:
            text += "\n" + self.tr("Training stopped before the largest size: {why}").format(why=result.stopped_early)
        for p in trained + encoders:
            if p.error is not None:
                text += "\n" + self.tr("{name}: {error}").format(name=shown_name(p.label), error=p.error)
        return text

    def _show_options(self, refused: bool = False) -> None:
        options = self.state.options
        self.algorithm_combo.setCurrentIndex(ALGORITHMS.index(options.algorithm))
        self.mode_combo.setCurrentIndex(MODES.index(options.mode))
        self.mode_combo.setVisible(options.algorithm == "bpe")
        self.sizes_label.setText(self.tr("Merges:") if options.algorithm == "bpe" else self.tr("Vocabulary sizes:"))
        if refused or options.sizes != self._shown_sizes:  # sizes typed but not yet confirmed stay
            self.sizes_edit.setText(options.sizes)
            self._shown_sizes = options.sizes
        for key, combo in (("corpus", self.corpus_combo), ("heldout", self.heldout_combo)):
            path = getattr(options, key)
            while combo.count() > 2:
                combo.removeItem(2)
            if path is not None:
                combo.addItem(Path(path).name)
                combo.setItemData(2, path, Qt.ItemDataRole.ToolTipRole)
            combo.setCurrentIndex(0 if path is None else 2)
        if self.encoder_list.checked() != list(options.encoders):
            self.encoder_list.set_names(self.session.registry.names(), options.encoders)

    def _show_points(self) -> None:
        request = self.state.request
        algorithm = (request.options if request is not None else self.state.options).algorithm
        name = self.tr("{algorithm} trained on the corpus").format(
            algorithm=self.algorithm_combo.itemText(ALGORITHMS.index(algorithm))
        )
        self.plot.set_points(
            self.state.curve(),
            self.state.encoder_points(),
            name,
            self.tr("vocabulary size (log scale)"),
            self.tr("characters per token (held-out text)"),
        )
        self._fill_table()

    def _fill_table(self) -> None:
        trained, encoders = self.state.points()
        table = self.table
        table.setSortingEnabled(False)
        table.setHorizontalHeaderLabels([self.tr("Model")] + [self.tr(t) for t, _, _ in COLUMNS])
        rows = [(self._trained_label(p), p) for p in trained]
        rows += [(shown_name(p.label), p) for p in encoders]
        table.setRowCount(len(rows))
        for r, (label, point) in enumerate(rows):
            table.setItem(r, 0, text_item(label))
            for c, (_, value_of, fmt) in enumerate(COLUMNS, start=1):
                failed = point.error is not None and c > 1
                value = None if failed else value_of(point)
                table.setItem(r, c, NumberItem(self.tr("error") if failed else fmt.format(value), value))
        table.setSortingEnabled(True)

    def _trained_label(self, point) -> str:
        if point.merges is None:
            return self.tr("trained {size}").format(size=f"{point.vocab_size:,}")
        return self.tr("trained {size} ({merges} merges)").format(size=f"{point.vocab_size:,}", merges=point.merges)

    def _relist(self) -> None:
        self.encoder_list.set_names(self.session.registry.names(), self.state.options.encoders)

    def _recompose(self) -> None:
        self._show_options()
        self._relist()
        self._show_points()
        self.status.setText(self._summary() if self.state.status in ("done", "cancelled", "failed") else self._hint())
        self.retitle()

    @property
    def figure(self):
        return self.plot
