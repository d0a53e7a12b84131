"""The Compare panel's Parity tab: what the same sentences cost in tokens in each language, per encoder.

A grouped bar chart (one group per language, one bar per encoder) of the premium (tokens over the
reference language's) or another metric, a sortable table of every metric, PNG and CSV export. The
truth lives in :class:`~tokviz.ui.compare.parity_state.ParityState`; the measuring runs on the tab's
work channel (:func:`~tokviz.ui.compare.parity_state.measure`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.parity import language_name
from tokviz.ui.common.encoder_names import shown_name
from tokviz.ui.compare.charts import GroupedBarChart, encoder_color, restyle
from tokviz.ui.compare.measure_parts import (
    EncoderChecklist,
    MeasureTab,
    NumberItem,
    ask_and_save,
    text_item,
)
from tokviz.ui.compare.parity_state import METRICS, ParityState, measure
from tokviz.ui.i18n import follow_language

CONTEXTS = ("ParityTab", "MeasureExport")
METRIC_LABELS = {
    "premium": QT_TRANSLATE_NOOP("ParityTab", "premium (tokens / reference tokens)"),
    "tokens": QT_TRANSLATE_NOOP("ParityTab", "tokens"),
    "fertility": QT_TRANSLATE_NOOP("ParityTab", "tokens per word (fertility)"),
    "chars_per_token": QT_TRANSLATE_NOOP("ParityTab", "characters per token"),
    "bytes_per_token": QT_TRANSLATE_NOOP("ParityTab", "bytes per token"),
    "continued_share": QT_TRANSLATE_NOOP("ParityTab", "continued words"),
    "renyi_efficiency": QT_TRANSLATE_NOOP("ParityTab", "Rényi efficiency (α = 2.5)"),
    "gini": QT_TRANSLATE_NOOP("ParityTab", "Gini of token counts"),
}
# the table's columns after encoder and language: (title, key of ParityResult.rows(), format)
COLUMNS = (
    (QT_TRANSLATE_NOOP("ParityTab", "Premium"), "premium", "{:.2f}"),
    (QT_TRANSLATE_NOOP("ParityTab", "Tokens"), "tokens", "{:,}"),
    (QT_TRANSLATE_NOOP("ParityTab", "Tokens/word"), "fertility", "{:.2f}"),
    (QT_TRANSLATE_NOOP("ParityTab", "Chars/token"), "chars_per_token", "{:.2f}"),
    (QT_TRANSLATE_NOOP("ParityTab", "Bytes/token"), "bytes_per_token", "{:.2f}"),
    (QT_TRANSLATE_NOOP("ParityTab", "Continued words"), "continued_share", "{:.1%}"),
    (QT_TRANSLATE_NOOP("ParityTab", "Rényi"), "renyi_efficiency", "{:.3f}"),
    (QT_TRANSLATE_NOOP("ParityTab", "Gini"), "gini", "{:.3f}"),
)
HEAD = (QT_TRANSLATE_NOOP("ParityTab", "Encoder"), QT_TRANSLATE_NOOP("ParityTab", "Language"))
REFUSALS = (QT_TRANSLATE_NOOP("ParityTab", "Choose at least one encoder."),)  # the state's reasons, for lupdate


class ParityTab(MeasureTab):
    """See the module docstring. Public methods are what tests and screenshots drive."""

    def __init__(self, session, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.state = ParityState()
        self._channel = session.work.channel(self, "parity")
        self._build()
        self.state.events.connect(self._on_state)
        session.encodersChanged.connect(self._relist)
        theme = getattr(session, "themeChanged", None)
        if theme is not None:
            theme.connect(lambda *_: restyle(self.chart))
        follow_language(self, CONTEXTS, then=self._recompose)

    def title(self) -> str:
        return self.tr("Parity")

    # ---- building -----------------------------------------------------------------------------
    def _build(self) -> None:
        lay = QVBoxLayout(self)
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Sentences:")))
        self.source = QComboBox()
        self.source.addItems([self.tr("tokviz's parallel sentences"), self.tr("Folder of LANG.txt files…")])
        self.source.activated.connect(self._source_chosen)
        bar.addWidget(self.source)
        bar.addWidget(QLabel(self.tr("Chart:")))
        self.metric_combo = QComboBox()
        for key in METRICS:
            self.metric_combo.addItem(self.tr(METRIC_LABELS[key]), key)
        self.metric_combo.currentIndexChanged.connect(lambda i: self.state.set_metric(self.metric_combo.itemData(i)))
        bar.addWidget(self.metric_combo)
        bar.addStretch(1)
        lay.addLayout(bar)
        # the run and export controls on a row of their own, as in the sweep tab: on one row the
        # tab was wider than the window's other panels, and showing Compare widened the window
        bar = QHBoxLayout()
        self.run_button = QPushButton(self.tr("Measure"))
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
        self.png_button.clicked.connect(lambda: self._report(ask_and_save(self, "png", "parity.png", self.save_png)))
        self.csv_button = QPushButton(self.tr("Export CSV…"))
        self.csv_button.clicked.connect(lambda: self._report(ask_and_save(self, "csv", "parity.csv", self.export_csv)))
        bar.addWidget(self.png_button)
        bar.addWidget(self.csv_button)
        lay.addLayout(bar)
        self.status = QLabel(self._hint())
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.status)

        split = QSplitter(Qt.Orientation.Horizontal)
        self.encoder_list = EncoderChecklist(self.session.registry.names(), self.state.encoders, self._encoders_chosen)
        self.encoder_list.setToolTip(self.tr("The encoders to measure"))
        split.addWidget(self.encoder_list)
        self.chart = GroupedBarChart()
        split.addWidget(self.chart)
        self.table = QTableWidget(0, len(HEAD) + len(COLUMNS))
        self._set_headers()
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

    def _set_headers(self) -> None:
        self.table.setHorizontalHeaderLabels([self.tr(t) for t in HEAD] + [self.tr(t) for t, _, _ in COLUMNS])

    def _hint(self) -> str:
        return self.tr(
            "The same sentences in every language: the premium of a language is its tokens over the "
            "reference language's (1.00 = the same cost). Choose encoders and press Measure."
        )

    # ---- intents ------------------------------------------------------------------------------
    def _source_chosen(self, index: int) -> None:
        if index == 0:
            self.state.choose_folder(None)
            return
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Folder of LANG.txt files (line N of each is the same sentence)")
        )
        if folder:
            self.choose_folder(folder)
        elif self.state.folder is None:
            self.source.setCurrentIndex(0)

    def choose_folder(self, folder: str | Path | None) -> None:
        """Measure ``folder``'s LANG.txt files (None: tokviz's own sentences) from the next run on."""
        self.state.choose_folder(None if folder is None else str(folder))
        if folder is not None:
            if self.source.count() > 2:
                self.source.removeItem(2)
            self.source.addItem(str(folder))
            self.source.setCurrentIndex(2)
        else:
            self.source.setCurrentIndex(0)

    def _encoders_chosen(self, names: list[str]) -> None:
        if self.state.set_encoders(names) is not None:
            self.encoder_list.set_names(self.session.registry.names(), self.state.encoders)

    def set_encoders(self, names) -> None:
        """Measure ``names`` (in that order) from the next run on."""
        if self.state.set_encoders(names) is None:
            self.encoder_list.set_names(self.session.registry.names(), self.state.encoders)

    def run(self) -> None:
        """Measure the corpus with the encoders chosen, in the background (latest run wins)."""
        request = self.state.start()
        registry = self.session.registry
        generation = request.generation
        self._channel.start(
            lambda state: measure(request, registry, state),
            finished=lambda result: self.state.finish(generation, result),
            failed=lambda message: self.state.fail(generation, message),
            progressed=lambda p: self.state.report(generation, p[0], p[1]),
        )

    def cancel(self) -> None:
        if self.state.cancel():
            self._channel.cancel()

    def busy(self) -> bool:
        return self._channel.busy

    # ---- what the state says ------------------------------------------------------------------
    def _on_state(self, name: str, value) -> None:
        if name == "run":
            self.run_button.setEnabled(False)
            self.cancel_button.setEnabled(True)
            self.progress.setValue(0)
            self.status.setText(self.tr("Measuring…"))
        elif name == "progress":
            done, total = value
            self.progress.setValue(int(1000 * done / max(total, 1)))
        elif name in ("result", "failed"):
            self.run_button.setEnabled(True)
            self.cancel_button.setEnabled(False)
            self.progress.setValue(1000 if name == "result" else 0)
            self._show_result()
        elif name == "metric":
            self._show_chart()
        elif name == "refused":
            self.status.setText(self.tr(value))

    def _show_result(self) -> None:
        self._fill_table()
        self._show_chart()
        self.status.setText(self._summary())

    def _summary(self) -> str:
        state = self.state
        if state.status == "failed":
            return self.tr("Could not measure: {message}").format(message=state.message)
        result = state.result
        if result is None:
            return self._hint()
        summary = self.tr("{lines} parallel lines in {languages} languages; premium = tokens / tokens of {reference}")
        text = summary.format(
            lines=f"{result.lines:,}", languages=len(result.languages), reference=language_name(result.reference)
        )
        if state.status == "cancelled":
            text += " · " + self.tr("cancelled: the lines measured so far")
        for name, why in state.errors().items():
            text += "\n" + self.tr("{encoder}: not measured ({why})").format(encoder=shown_name(name), why=why)
        return text

    def _fill_table(self) -> None:
        rows = self.state.rows()
        table = self.table
        table.setSortingEnabled(False)  # rows are filled in place; sorting meanwhile scrambles them
        table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            table.setItem(r, 0, text_item(shown_name(row["encoder"])))
            lang = row["language"]
            table.setItem(r, 1, text_item(f"{lang}  {language_name(lang)}" if language_name(lang) != lang else lang))
            for c, (_, key, fmt) in enumerate(COLUMNS, start=2):
                value = row.get(key)
                table.setItem(r, c, NumberItem("–" if value is None else fmt.format(value), value))
        table.setSortingEnabled(True)

    def _show_chart(self) -> None:
        languages, names, values = self.state.chart()
        colors = [encoder_color(i) for i in range(len(names))]
        # the column's short title: the chart is short, and the summary above says what the metric is
        # ("premium (tokens / reference tokens)" ran off the top of the axis at 1366x768 presentation)
        title = next((t for t, key, _ in COLUMNS if key == self.state.metric), METRIC_LABELS[self.state.metric])
        label = self.tr(title)
        codes = self.state.result.languages if self.state.result is not None else languages
        self.chart.set_matrix(languages, [shown_name(n) for n in names], values, colors, label, short_sets=codes)
        index = self.metric_combo.findData(self.state.metric)
        if index != self.metric_combo.currentIndex():
            self.metric_combo.setCurrentIndex(index)

    def _relist(self) -> None:
        self.encoder_list.set_names(self.session.registry.names(), self.state.encoders)

    def _recompose(self) -> None:
        self._set_headers()
        for i, key in enumerate(METRICS):
            self.metric_combo.setItemText(i, self.tr(METRIC_LABELS[key]))
        self._relist()
        if self.state.result is not None:
            self._show_result()
        else:
            self.status.setText(self._hint())
        self.retitle()

    @property
    def figure(self):
        return self.chart
