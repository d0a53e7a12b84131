"""The Compare panel's Corpus tab: every listed encoder over the built-in sample sets, the demo corpus
or a corpus file (in the background, the table filling as it goes), and the overlap of two vocabularies."""

from __future__ import annotations

import html
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.compare import CorpusTotals, TextSet, compare_corpus, corpus_set, overlap_of, sample_sets, vocabulary
from tokviz.core.errors import TokvizError
from tokviz.ui.common.encoder_names import shown_name
from tokviz.ui.compare.charts import GroupedBarChart, encoder_color
from tokviz.ui.compare.tables import CORPUS_COLUMNS, CORPUS_METRICS, fill_corpus_table, set_name

translate = QCoreApplication.translate  # the panel's translation context, named in each call


def overlap_summary(ov) -> str:
    """The overlap's one line (core's ``describe()``) in the interface's language."""
    template = translate("ComparePanel", "{a}: {size_a} tokens · {b}: {size_b} tokens · shared {shared} · Jaccard {j}")
    return template.format(
        a=shown_name(ov.a), size_a=f"{ov.size_a:,}", b=shown_name(ov.b), size_b=f"{ov.size_b:,}",
        shared=f"{ov.shared:,}", j=f"{ov.jaccard:.3f}")


class CorpusTab:
    """The Corpus tab (mixed into ComparePanel; the strings are ComparePanel's)."""

    def _build_corpus(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        bar = QHBoxLayout()
        self.corpus_source = QComboBox()
        self.corpus_source.addItems(
            [
                translate("ComparePanel", "Built-in sample sets"),
                translate("ComparePanel", "Demo corpus"),
                translate("ComparePanel", "Corpus file…"),
            ]
        )
        self.corpus_source.activated.connect(self._corpus_source_changed)
        bar.addWidget(QLabel(translate("ComparePanel", "Texts:")))
        bar.addWidget(self.corpus_source)
        self.max_lines = QSpinBox()
        self.max_lines.setRange(1, 10_000_000)
        self.max_lines.setValue(200_000)
        self.max_lines.setPrefix(translate("ComparePanel", "at most "))
        self.max_lines.setSuffix(translate("ComparePanel", " lines"))
        bar.addWidget(self.max_lines)
        self.corpus_run = QPushButton(translate("ComparePanel", "Compare corpus"))
        self.corpus_run.clicked.connect(lambda: self.run_corpus())
        self.corpus_cancel = QPushButton(translate("ComparePanel", "Cancel"))
        self.corpus_cancel.setEnabled(False)
        self.corpus_cancel.clicked.connect(self.cancel_corpus)
        bar.addWidget(self.corpus_run)
        bar.addWidget(self.corpus_cancel)
        self.corpus_progress = QProgressBar()
        self.corpus_progress.setRange(0, 1000)
        bar.addWidget(self.corpus_progress, 1)
        self.metric_combo = QComboBox()
        for label, attr in CORPUS_METRICS.items():
            self.metric_combo.addItem(translate("ComparePanel", label), attr)
        self.metric_combo.currentIndexChanged.connect(lambda _: self._show_corpus(self.corpus_totals))
        bar.addWidget(QLabel(translate("ComparePanel", "Chart:")))
        bar.addWidget(self.metric_combo)
        lay.addLayout(bar)
        self.corpus_status = QLabel(
            translate(
                "ComparePanel", "Compare every encoder in the list over the built-in sample sets or a corpus file."
            )
        )
        lay.addWidget(self.corpus_status)
        split = QSplitter(Qt.Orientation.Horizontal)
        self.corpus_table = QTableWidget(0, len(CORPUS_COLUMNS))
        self.corpus_table.setHorizontalHeaderLabels([translate("ComparePanel", c) for c in CORPUS_COLUMNS])
        self.corpus_table.verticalHeader().setVisible(False)
        self.corpus_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        split.addWidget(self.corpus_table)
        self.corpus_chart = GroupedBarChart()
        split.addWidget(self.corpus_chart)
        split.setSizes([760, 560])
        lay.addWidget(split, 1)
        ov = QHBoxLayout()
        ov.addWidget(QLabel(translate("ComparePanel", "Vocabulary overlap:")))
        self.overlap_a = QComboBox()
        self.overlap_b = QComboBox()
        ov.addWidget(self.overlap_a)
        ov.addWidget(QLabel(translate("ComparePanel", "vs")))
        ov.addWidget(self.overlap_b)
        go = QPushButton(translate("ComparePanel", "Compute"))
        go.clicked.connect(lambda: self.compute_overlap(self.overlap_a.currentData(), self.overlap_b.currentData()))
        ov.addWidget(go)
        self.overlap_label = QLabel(
            translate("ComparePanel", "Shared token byte strings and Jaccard index of two vocabularies.")
        )
        self.overlap_label.setWordWrap(True)
        self.overlap_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        ov.addWidget(self.overlap_label, 1)
        lay.addLayout(ov)
        return w

    def _corpus_source_changed(self, index: int) -> None:
        if self.corpus_source.itemText(index) == translate("ComparePanel", "Corpus file…"):
            path, _ = QFileDialog.getOpenFileName(
                self,
                translate("ComparePanel", "Corpus file"),
                "",
                translate("ComparePanel", "Text (*.txt);;All files (*)"),
            )
            if path:
                self.set_corpus_file(path)
            else:
                self.corpus_source.setCurrentIndex(0)

    def set_corpus_file(self, path: str) -> None:
        """Use ``path`` (one text per line) as the corpus for comparison and SentencePiece training."""
        self.state.choose_corpus_file(path)
        label = self._corpus_file_label()
        if self.corpus_source.count() > 3:
            self.corpus_source.setItemText(3, label)
        else:
            self.corpus_source.addItem(label)
        self.corpus_source.setCurrentIndex(3)

    def _corpus_file_label(self) -> str:
        return translate("ComparePanel", "File: {name}").format(name=Path(self.state.corpus_path).name)

    def _retranslate_corpus(self) -> None:
        """The Corpus tab's composed texts in the interface's language (its fixed ones are retranslated
        with the panel's widgets)."""
        if self.state.corpus_path is not None and self.corpus_source.count() > 3:
            self.corpus_source.setItemText(3, self._corpus_file_label())
        self._show_corpus(self.corpus_totals)

    def _corpus_sets_loader(self):
        """A function (run in the worker) that reads the chosen texts."""
        choice = self.corpus_source.currentIndex()
        path = self.state.corpus_path
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
        if not self.state.start_corpus():
            return  # one runs already
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
        self.corpus_status.setText(translate("ComparePanel", "Comparing…"))
        self._corpus_started = time.perf_counter()
        self._corpus_tasks.start(
            work, finished=self._corpus_done, failed=self._corpus_failed, progressed=self._corpus_progress
        )

    def cancel_corpus(self) -> None:
        if self.state.corpus_running:
            self._corpus_tasks.cancel()  # its partial totals still arrive
            self.corpus_status.setText(translate("ComparePanel", "Cancelling…"))

    def _corpus_progress(self, payload) -> None:
        done, total, totals = payload
        self.corpus_progress.setValue(int(1000 * done / total) if total else 1000)
        elapsed = time.perf_counter() - self._corpus_started
        self.corpus_status.setText(
            translate("ComparePanel", "{done} of {total} characters through every encoder · {seconds} s").format(
                done=f"{done:,}", total=f"{total:,}", seconds=f"{elapsed:.1f}"
            )
        )
        self.state.show_corpus(totals)
        self._show_corpus(totals)

    def _corpus_done(self, result) -> None:
        self.corpus_run.setEnabled(True)
        self.corpus_cancel.setEnabled(False)
        self.state.show_corpus(result.snapshot(), ended=True)
        self._show_corpus(self.state.corpus_totals)
        state = translate("ComparePanel", "Cancelled") if result.cancelled else translate("ComparePanel", "Done")
        if not result.cancelled:
            self.corpus_progress.setValue(1000)
        errors = "; ".join(f"{n}: {e}" for n, e in self._corpus_errors.items())
        self.corpus_status.setText(
            translate("ComparePanel", "{state} in {seconds} s.").format(state=state, seconds=f"{result.seconds:.1f}")
            + (" " + translate("ComparePanel", "Skipped: {errors}").format(errors=errors) if errors else "")
        )
        self.corpusFinished.emit(result)

    def _corpus_failed(self, msg: str) -> None:
        self.state.corpus_failed()
        self.corpus_run.setEnabled(True)
        self.corpus_cancel.setEnabled(False)
        self.corpus_status.setText(translate("ComparePanel", "Could not compare: {err}").format(err=msg))
        self.corpusFinished.emit(None)

    def _show_corpus(self, totals: list[CorpusTotals]) -> None:
        fill_corpus_table(self.corpus_table, totals)
        if not totals:
            return
        sets = list(dict.fromkeys(c.set_name for c in totals))
        encs = list(dict.fromkeys(c.encoder for c in totals))
        attr = self.metric_combo.currentData()
        by = {(c.set_name, c.encoder): c for c in totals}
        values = [[float(getattr(by[(s, e)], attr)) for s in sets] for e in encs]
        names = self.encoder_names()
        colors = [encoder_color(names.index(e)) if e in names else encoder_color(i) for i, e in enumerate(encs)]
        self.corpus_chart.set_matrix(
            [set_name(s) for s in sets], [shown_name(e) for e in encs], values, colors, self.metric_combo.currentText()
        )

    def compute_overlap(self, a: str, b: str) -> None:
        registry = self.session.registry
        if not a or not b:
            return
        self.overlap_label.setText(
            translate("ComparePanel", "Reading the vocabularies of {a} and {b}…").format(a=a, b=b)
        )

        def work(state):
            ea, eb = registry.get(a), registry.get(b)
            return overlap_of(a, vocabulary(ea, state), b, vocabulary(eb, state))

        def done(ov):
            def show(bs):
                return ", ".join(html.escape(repr(x.decode("utf-8"))) for x in bs[:6])

            self.overlap_label.setText(
                f"<b>{html.escape(overlap_summary(ov))}</b><br>"
                + translate("ComparePanel", "shared e.g. {shared}<br>only {a}: {only_a}<br>only {b}: {only_b}").format(
                    shared=show(ov.shared_examples),
                    a=html.escape(ov.a),
                    only_a=show(ov.only_a_examples),
                    b=html.escape(ov.b),
                    only_b=show(ov.only_b_examples),
                )
            )
            self.overlapFinished.emit(ov)

        def failed(msg):
            self.overlap_label.setText(
                translate("ComparePanel", "Could not compare vocabularies: {err}").format(err=html.escape(msg))
            )
            self.overlapFinished.emit(None)

        self._side_tasks.start(work, finished=done, failed=failed)
