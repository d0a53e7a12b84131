"""The step views of WordPiece and Unigram in the Train panel.

:class:`AlgorithmView` shows one recorded step of a run (see :mod:`tokviz.ui.train.algorithms`):

- a banner with what happened at the step, in the sentences of :func:`tokviz.core.step_text.describe`
  translated through Qt (context ``StepText``);
- two plots that fit the algorithm. Unigram: the vocabulary size after every step and the corpus
  log-likelihood of every EM iteration; WordPiece: the score of every merge and the three counts
  behind it, freq(ab), freq(a) and freq(b). A curve's name is written in its colour in the plot's
  title, so no legend box ever sits on the data;
- Unigram: the lattice (:class:`~tokviz.ui.lattice_view.LatticeView`) of the chosen sample line
  under the model at the step on screen;
- WordPiece: where BPE's count and WordPiece's score first choose different pairs on the same
  words, and the counts behind both choices (:mod:`tokviz.core.merge_criteria`).
"""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSlider,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.step_text import describe
from tokviz.core.unigram.events import EMStep, FinalStep, PruneStep
from tokviz.core.wordpiece.trainer import WordPieceStep
from tokviz.ui.fonts import ui_font
from tokviz.ui.lattice_view import LatticeView
from tokviz.ui.theme import is_dark
from tokviz.ui.train.plots import OneTwoFiveLogAxis

BLUE, ORANGE, GREEN, PURPLE = "#1f77b4", "#e8590c", "#2b9348", "#7048e8"


def step_lines(steps: list, cursor: int) -> list[str]:
    """The banner's lines for step ``cursor`` (1-based) of ``steps``, translated: the title first."""
    if not cursor:
        return []
    event = steps[cursor - 1]
    previous = steps[cursor - 2] if cursor >= 2 else None
    return describe(event, previous).lines(QCoreApplication.translate)


def _coloured_title(parts: list[tuple[str, str]]) -> str:
    """A plot title naming each curve in its colour (a legend that covers no data)."""
    return " · ".join(f"<span style='color:{colour}'>{html.escape(name)}</span>" for name, colour in parts)


def _style(plot: pg.PlotItem, left: str, bottom: str) -> None:
    plot.setLabel("left", left)
    plot.setLabel("bottom", bottom)
    plot.showGrid(x=True, y=True, alpha=0.25)
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.getViewBox().setMouseEnabled(x=False, y=False)
    for axis in ("left", "bottom"):
        plot.getAxis(axis).enableAutoSIPrefix(False)


class StepAxis(pg.AxisItem):
    """A bottom axis that labels whole steps only (pyqtgraph would label 1.5 on a short run)."""

    def tickValues(self, minVal, maxVal, size):  # noqa: N802, N803 (pyqtgraph naming)
        levels = super().tickValues(minVal, maxVal, size)
        return [(max(1.0, spacing), [v for v in values if float(v).is_integer()]) for spacing, values in levels]


class AlgorithmPlots(pg.GraphicsLayoutWidget):
    """Two stacked plots whose curves depend on the algorithm (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        # log axes labelled at 1, 2 and 5 only (the BPE plots' axis), whole steps below
        # no context menus (see _style): built without them, pyqtgraph makes none to throw away
        self.top = self.addPlot(
            row=0, col=0, axisItems={"bottom": StepAxis("bottom"), "left": OneTwoFiveLogAxis("left")}, enableMenu=False
        )
        self.bottom = self.addPlot(
            row=1, col=0, axisItems={"bottom": StepAxis("bottom"), "left": OneTwoFiveLogAxis("left")}, enableMenu=False
        )
        self.algorithm = ""
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.markers = [pg.InfiniteLine(angle=90, pen=pg.mkPen("#888888", width=1, style=Qt.PenStyle.DashLine))
                        for _ in range(2)]
        self.apply_theme(is_dark())

    def apply_theme(self, dark: bool) -> None:
        """The background and axis colours of the light or dark theme (as the BPE plots)."""
        self.setBackground("#16181c" if dark else "w")
        fg = "#d8d8d8" if dark else "#333333"
        for plot in (self.top, self.bottom):
            for axis in ("left", "bottom"):
                plot.getAxis(axis).setPen(fg)
                plot.getAxis(axis).setTextPen(fg)

    def set_algorithm(self, algorithm: str) -> None:
        if algorithm == self.algorithm:
            return
        self.algorithm = algorithm
        self.curves = {}
        for plot, marker in zip((self.top, self.bottom), self.markers, strict=True):
            plot.clear()
            plot.setRange(xRange=(0, 1), yRange=(0, 1))  # an old range read as powers of ten would overflow
            plot.setLogMode(y=False)
            plot.addItem(marker)
        step = QCoreApplication.translate("AlgorithmPlots", "step")
        if algorithm == "unigram":
            size = QCoreApplication.translate("AlgorithmPlots", "vocabulary size")
            ll = QCoreApplication.translate("AlgorithmPlots", "log-likelihood per EM iteration")
            self.top.setTitle(_coloured_title([(size, BLUE)]), size="11pt")
            _style(self.top, QCoreApplication.translate("AlgorithmPlots", "pieces"), step)
            self.curves["size"] = self.top.plot(pen=pg.mkPen(BLUE, width=2), symbol="o", symbolSize=6,
                                                symbolBrush=BLUE)
            self.bottom.setTitle(_coloured_title([(ll, ORANGE)]), size="11pt")
            _style(self.bottom, QCoreApplication.translate("AlgorithmPlots", "log-likelihood"), step)
            self.curves["ll"] = self.bottom.plot(pen=pg.mkPen(ORANGE, width=2), symbol="o", symbolSize=6,
                                                 symbolBrush=ORANGE)
        else:
            merge = QCoreApplication.translate("AlgorithmPlots", "merge")
            score = QCoreApplication.translate("AlgorithmPlots", "score freq(ab) / (freq(a) · freq(b))")
            self.top.setTitle(_coloured_title([(score, PURPLE)]), size="11pt")
            _style(self.top, QCoreApplication.translate("AlgorithmPlots", "score (log)"), merge)
            self.top.setLogMode(y=True)
            self.curves["score"] = self.top.plot(pen=pg.mkPen(PURPLE, width=2))
            self.bottom.setTitle(_coloured_title([("freq(ab)", ORANGE), ("freq(a)", BLUE), ("freq(b)", GREEN)]),
                                 size="11pt")
            _style(self.bottom, QCoreApplication.translate("AlgorithmPlots", "count (log)"), merge)
            self.bottom.setLogMode(y=True)
            self.curves["pair"] = self.bottom.plot(pen=pg.mkPen(ORANGE, width=2))
            self.curves["left"] = self.bottom.plot(pen=pg.mkPen(BLUE, width=1))
            self.curves["right"] = self.bottom.plot(pen=pg.mkPen(GREEN, width=1))

    def show(self, steps: list, cursor: int) -> None:  # noqa: A003 — the plots of steps 1..cursor
        """Plot steps 1..``cursor`` and mark the step on screen."""
        shown = steps[:cursor]
        if self.algorithm == "unigram":
            xs, sizes, em_x, lls = [], [], [], []
            for e in shown:
                if isinstance(e, EMStep):
                    xs.append(e.step)
                    sizes.append(e.vocab_size)
                    em_x.append(e.step)
                    lls.append(e.log_likelihood)
                elif isinstance(e, PruneStep):
                    xs.append(e.step)
                    sizes.append(e.vocab_size)
                elif isinstance(e, FinalStep):
                    xs.append(e.step)
                    sizes.append(e.vocab_size)
            self.curves["size"].setData(np.array(xs, float), np.array(sizes, float))
            self.curves["ll"].setData(np.array(em_x, float), np.array(lls, float))
        elif self.algorithm == "wordpiece":
            wp = [e for e in shown if isinstance(e, WordPieceStep)]
            x = np.array([e.step for e in wp], float)
            self.curves["score"].setData(x, np.array([e.score for e in wp], float))
            self.curves["pair"].setData(x, np.array([e.pair_count for e in wp], float))
            self.curves["left"].setData(x, np.array([e.left_count for e in wp], float))
            self.curves["right"].setData(x, np.array([e.right_count for e in wp], float))
        for marker in self.markers:
            marker.setValue(cursor)
            marker.setVisible(cursor > 0)
        for plot in (self.top, self.bottom):
            plot.enableAutoRange()

    def curve_data(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """The x and y of curve ``name`` as given (not log-transformed; tests)."""
        curve = self.curves[name]
        return curve.xData, curve.yData


class AlgorithmView(QWidget):
    """The step on screen of a WordPiece or Unigram run (see the module docstring)."""

    stepChosen = Signal(int)

    def __init__(self, session=None, parent=None):
        super().__init__(parent)
        self.session = session
        self.algorithm = ""
        self.sample_lines: list[str] = []
        self._model = None

        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.slider.valueChanged.connect(self.stepChosen.emit)
        self.banner = QLabel()
        self.banner.setTextFormat(Qt.TextFormat.RichText)
        self.banner.setWordWrap(True)
        self.banner.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # a long explanation scrolls instead of squeezing the lattice (presentation mode on a projector)
        self.banner_scroll = QScrollArea()
        self.banner_scroll.setWidget(self.banner)
        self.banner_scroll.setWidgetResizable(True)
        self.banner_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.banner_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        # left: the lattice (Unigram) or the comparison with BPE (WordPiece)
        self.left = QStackedWidget()
        lattice_page = QWidget()
        ll = QVBoxLayout(lattice_page)
        ll.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.line_label = QLabel(self.tr("<b>Lattice</b> of the sample line"))
        row.addWidget(self.line_label)
        self.line_combo = QComboBox()
        self.line_combo.setMinimumWidth(200)
        self.line_combo.currentIndexChanged.connect(self._on_line)
        row.addWidget(self.line_combo, 1)
        ll.addLayout(row)
        self.lattice = LatticeView(nbest=5)
        ll.addWidget(self.lattice, 1)
        self.left.addWidget(lattice_page)

        compare_page = QWidget()
        cl = QVBoxLayout(compare_page)
        cl.setContentsMargins(0, 0, 0, 0)
        self.compare_title = QLabel(self.tr("<b>WordPiece beside BPE</b> — the same words, two criteria"))
        cl.addWidget(self.compare_title)
        self.compare_text = QTextBrowser()
        cl.addWidget(self.compare_text, 1)
        self.left.addWidget(compare_page)

        self.plots = AlgorithmPlots()
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.left)
        split.addWidget(self.plots)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([760, 520])
        self.split = split

        step_row = QHBoxLayout()
        step_row.addWidget(QLabel(self.tr("Step")))
        step_row.addWidget(self.slider, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(step_row)
        lay.addWidget(self.banner_scroll)
        lay.addWidget(split, 1)
        self.apply_fonts()
        if session is not None and hasattr(session, "fontScaleChanged"):
            session.fontScaleChanged.connect(lambda _scale: self.apply_fonts())
        if session is not None and hasattr(session, "themeChanged"):
            session.themeChanged.connect(self.plots.apply_theme)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        self._fit_banner()

    def _fit_banner(self) -> None:
        """The banner is as tall as its text, but at most a third of the view."""
        wanted = self.banner.heightForWidth(max(100, self.banner_scroll.viewport().width())) + 4
        self.banner_scroll.setFixedHeight(max(60, min(wanted, self.height() // 3)))

    def apply_fonts(self) -> None:
        """Follow the font scale (presentation mode makes everything larger)."""
        self.banner.setFont(ui_font(13))
        self.compare_text.setFont(ui_font(12))
        self.line_combo.setFont(ui_font(11))
        self.lattice.apply_font_scale()
        self._fit_banner()

    def set_algorithm(self, algorithm: str, sample_lines: list[str]) -> None:
        """Show the views of ``algorithm``; the lattice offers ``sample_lines``."""
        self.algorithm = algorithm
        self.plots.set_algorithm(algorithm)
        self.left.setCurrentIndex(0 if algorithm == "unigram" else 1)
        lines = [line for line in sample_lines if line.strip()]
        if lines != self.sample_lines:
            self.sample_lines = lines
            self.line_combo.blockSignals(True)
            self.line_combo.clear()
            for line in lines:
                self.line_combo.addItem(line if len(line) <= 60 else line[:59] + "…", line)
            self.line_combo.blockSignals(False)
            self._on_line()
        if algorithm == "wordpiece" and not self.compare_text.toPlainText():
            self.compare_text.setPlainText(self.tr("Tick “Compare with BPE” and train to see where BPE's count and "
                                                   "WordPiece's score first choose different pairs."))

    def clear(self) -> None:
        self.slider.blockSignals(True)
        self.slider.setRange(0, 0)
        self.slider.blockSignals(False)
        self.banner.clear()
        self._model = None
        self.lattice.set_model(None)
        self.compare_text.clear()
        self.plots.show([], 0)

    def add_steps(self, steps: list) -> None:
        self.slider.blockSignals(True)
        self.slider.setMaximum(self.slider.maximum() + len(steps))
        self.slider.blockSignals(False)

    def selected_line(self) -> str:
        return self.line_combo.currentData() or ""

    def select_line(self, index: int) -> None:
        """Show the lattice of sample line ``index``."""
        self.line_combo.setCurrentIndex(index)

    def _on_line(self, *_args) -> None:
        self.lattice.set_text(self.selected_line())

    @property
    def lattice_model(self):
        """The Unigram model the lattice is drawn with (None: none yet)."""
        return self._model

    def show_step(self, steps: list, cursor: int, model, finished) -> None:
        """Show step ``cursor`` of ``steps``; ``model``: the Unigram model at that step (else None)."""
        self.slider.blockSignals(True)
        self.slider.setMaximum(len(steps))
        self.slider.setValue(cursor)
        self.slider.blockSignals(False)
        lines = step_lines(steps, cursor)
        if lines:
            title, rest = html.escape(lines[0]), "".join(f"<br>{html.escape(s)}" for s in lines[1:])
            self.banner.setText(f"<span style='font-size:130%'><b>{title}</b></span>{rest}")
            self._fit_banner()
        elif steps == [] and finished is None:
            self.banner.setText(html.escape(self.tr("Press Train: each step of the algorithm is explained here.")))
        if finished is not None and cursor == len(steps) and finished.message:
            self.banner.setToolTip(finished.message)
        self.plots.show(steps, cursor)
        if self.algorithm == "unigram" and model is not self._model:
            self._model = model
            self.lattice.set_model(model)

    # ---- WordPiece beside BPE ------------------------------------------------------------------
    def show_comparison_running(self) -> None:
        self.compare_text.setPlainText(self.tr("Running BPE and WordPiece side by side on the same words…"))

    def show_comparison_failed(self, message: str) -> None:
        self.compare_text.setPlainText(self.tr("The comparison failed: {message}").format(message=message))

    def show_comparison(self, result, steps: list = ()) -> None:
        """Show a :class:`~tokviz.core.merge_criteria.CriteriaComparison`: both trainers' merges
        step by step (``steps``: SideBySideStep), then the first disagreement and the counts behind
        both choices."""
        from tokviz.core.step_text import disagreement_text

        parts = []
        agreed = ", ".join(f"{a}+{b}" for a, b in result.agreed[:12]) + (" …" if len(result.agreed) > 12 else "")
        if result.agreed:
            parts.append("<p>" + html.escape(self.tr("Both criteria agree on the first {n} merges: {pairs}").format(
                n=len(result.agreed), pairs=agreed)) + "</p>")
        d = result.disagreement
        if d is None:
            parts.append("<p>" + html.escape(self.tr("No disagreement found: {why}").format(why=result.message))
                         + "</p>")
        else:
            lines = disagreement_text(d).lines(QCoreApplication.translate)
            parts.append(f"<p><b>{html.escape(lines[0])}</b></p><ul>"
                         + "".join(f"<li>{html.escape(s)}</li>" for s in lines[1:]) + "</ul>")
            parts.append(self._evidence_table(d))
        if steps:
            parts.append(self._steps_table(steps, d.step if d is not None else 0))
        self.compare_text.setHtml("".join(parts))

    def _steps_table(self, steps, first: int) -> str:
        """Both trainers' merges side by side; the first disagreement in bold on orange."""
        head = [self.tr("step"), self.tr("BPE merge (count)"), self.tr("WordPiece merge (score)")]
        out = "<p></p><table border='1' cellspacing='0'><tr>" + "".join(
            f"<th style='padding:2px 8px'>{html.escape(h)}</th>" for h in head) + "</tr>"
        for s in steps:
            b, w = s.bpe, s.wordpiece
            cells = [str(s.step), f"{b.left_piece} + {b.right_piece}  ({b.count:,})",
                     f"{w.left} + {w.right}  ({w.score:.4g})"]
            style = " style='background:#ffe8cc;font-weight:bold'" if s.step == first else (
                "" if s.same else " style='color:#888888'")
            out += f"<tr{style}>" + "".join(f"<td style='padding:2px 8px'>{html.escape(c)}</td>" for c in cells) \
                + "</tr>"
        return out + "</table>"

    def _evidence_table(self, d) -> str:
        head = [self.tr("choice"), self.tr("pair"), "freq(ab)", "freq(a)", "freq(b)", self.tr("WordPiece score"),
                self.tr("BPE count")]
        rows = []
        for who, ev in ((self.tr("BPE's"), d.bpe), (self.tr("WordPiece's"), d.wordpiece)):
            wp = ev.wordpiece[0] if ev.wordpiece else None
            pair = f"{wp.left} + {wp.right}" if wp else f"{ev.surface[0]} + {ev.surface[1]}"
            cells = [who, pair]
            cells += [f"{wp.pair_count:,}", f"{wp.left_count:,}", f"{wp.right_count:,}", f"{wp.score:.4g}"] if wp \
                else ["—"] * 4
            cells.append(f"{ev.bpe_count:,}" if ev.bpe else "—")
            rows.append(cells)
        cell = "<td style='padding:2px 8px'>{}</td>"
        out = "<table border='1' cellspacing='0'><tr>" + "".join(
            f"<th style='padding:2px 8px'>{html.escape(h)}</th>" for h in head) + "</tr>"
        for r in rows:
            out += "<tr>" + "".join(cell.format(html.escape(c)) for c in r) + "</tr>"
        return out + "</table>"
