"""Training plots (pyqtgraph): vocabulary size, merged pair count (log y), corpus length in tokens with
chars/token on a second axis, and the token length histogram.

The panel redraws them from its one frame timer: the series live in numpy arrays grown in place as
batches arrive, and each redraw is a ``setData`` on plot items created once (the pyqtgraph
PlotSpeedTest way) — never one redraw per merge; a curve is a row of such items, of which a redraw
touches only the ones that grew.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPixmap, QRegion
from PySide6.QtWidgets import QGraphicsItem, QWidget

from tokviz.core.bpe.events import MergeStep

TITLE_PT = 11.0  # plot titles; axis labels and ticks are LABEL_PT (both times the app's font scale)
LABEL_PT = 9.0
TOKENS_COLOR, CPT_COLOR = "#2ca02c", "#9467bd"  # the corpus plot's two curves, and their axes
SERIES = ("step", "vocab", "count", "tokens", "chars_per_token", "length")
PLOT_PARTS = ("vocab", "count", "corpus", "length")  # the four plots, each redrawable alone
CACHED = QGraphicsItem.CacheMode.DeviceCoordinateCache


class MergeSeries:
    """Per-step numbers of the recorded merges, in growable numpy arrays."""

    def __init__(self) -> None:
        self.n = 0
        self._data = {name: np.zeros(1024, dtype=float) for name in SERIES}

    def clear(self) -> None:
        self.n = 0

    def add(self, steps: list[MergeStep], lengths: list[int]) -> None:
        need = self.n + len(steps)
        cap = len(self._data["step"])
        if need > cap:
            while cap < need:
                cap *= 2
            for name, arr in self._data.items():
                grown = np.zeros(cap, dtype=float)
                grown[: self.n] = arr[: self.n]
                self._data[name] = grown
        sl = slice(self.n, need)
        d = self._data
        d["step"][sl] = [s.step for s in steps]
        d["vocab"][sl] = [s.vocab_size for s in steps]
        d["count"][sl] = [max(s.count, 1) for s in steps]
        d["tokens"][sl] = [s.corpus_tokens for s in steps]
        d["chars_per_token"][sl] = [s.corpus_chars / s.corpus_tokens if s.corpus_tokens else 0.0 for s in steps]
        d["length"][sl] = lengths
        self.n = need

    def upto(self, name: str, step: int) -> np.ndarray:
        return self._data[name][: min(step, self.n)]


class GrowingCurve:
    """One curve of a plot drawn as pieces of :attr:`PIECE` points, so that a frame redraws only the piece
    that grew: a curve ``setData`` on the whole series made pyqtgraph stroke every point again and
    repaint the whole plot (its bounding rect). Measured (the four plots' update and paint, CPU, old and
    new alternated on a loaded machine): 20 steps a frame (an animation) 17-24 -> 7-10 ms; 400 steps a
    frame (following a trainer at full speed) no gain, 10-11 ms either way.

    A piece is a bare ``PlotCurveItem``: a ``PlotDataItem`` (downsampling, clipping to the view, log
    mapping, a scatter item) cost ~1 ms of Python per ``setData`` and more to make, while a piece holds
    only :attr:`PIECE` points and a full one is kept as pixels. ``log_y``: the plot's y axis is in log
    mode, so the piece gets log10 of the values (what a ``PlotDataItem`` did for it).

    The same ``setData(x, y)`` / ``getData()`` as a ``PlotDataItem``, given the whole series each time;
    the points already drawn must not change until the curve is cleared (a series only grows within a run).
    """

    PIECE = 256

    def __init__(self, add, pen, log_y: bool = False) -> None:
        self._add = add  # puts a new piece on the plot (or view box) the curve belongs to
        self._pen = pen
        self._log_y = log_y
        self._pieces: list[pg.PlotCurveItem] = []
        self._drawn: list[int] = []  # how many points each piece shows
        self._x = self._y = np.zeros(0)
        self.legend_item = self._piece(0)  # the legend's sample of the curve's pen

    def _piece(self, k: int) -> pg.PlotCurveItem:
        while len(self._pieces) <= k:
            item = pg.PlotCurveItem(pen=self._pen, skipFiniteCheck=True)
            self._add(item)
            self._pieces.append(item)
            self._drawn.append(0)
        return self._pieces[k]

    def setData(self, x: np.ndarray, y: np.ndarray) -> None:  # noqa: N802 (pyqtgraph naming)
        self._x, self._y = x, y
        n, size = len(x), self.PIECE
        for k in range(max(len(self._pieces), -(-n // size))):
            lo, hi = k * size, min(n, (k + 1) * size + 1)  # +1: a piece ends on the next one's first point
            want = max(0, hi - lo)
            if k < len(self._drawn) and self._drawn[k] == want:
                continue
            piece = self._piece(k)
            ys = y[lo:hi]
            piece.setData(x[lo:hi], np.log10(ys) if self._log_y else ys)
            self._drawn[k] = want
            # a full piece no longer changes: its strokes are kept as a pixmap, so the repaint of the
            # growing tip beside it (every frame) blits them instead of stroking them again
            full = want == size + 1
            piece.setCacheMode(CACHED if full else QGraphicsItem.CacheMode.NoCache)

    def prepare(self, n: int) -> Iterator[None]:
        """Make the (empty) pieces a curve of ``n`` points needs, one per ``yield``: making one is
        costlier than drawing it (a frame that made four in one go held the GUI thread ~20 ms)."""
        for k in range(len(self._pieces), -(-n // self.PIECE)):
            self._piece(k)
            yield

    def getData(self) -> tuple[np.ndarray, np.ndarray]:  # noqa: N802 (pyqtgraph naming)
        return self._x, self._y


def _style_plot(plot: pg.PlotItem) -> None:
    plot.showGrid(x=True, y=True, alpha=0.25)
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.getViewBox().setMouseEnabled(x=False, y=False)


class OneTwoFiveLogAxis(pg.AxisItem):
    """A log axis that labels only 1, 2 and 5 times a power of ten: pyqtgraph labels every minor tick
    (3·10², 4·10², ...) when the range spans less than a few decades, an unreadable stack."""

    _KEEP = (0.0, float(np.log10(2)), float(np.log10(5)))

    def tickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph naming)
        strings = super().tickStrings(values, scale, spacing)
        if not self.logMode:
            return strings
        keep = self._KEEP
        decades = float(self.range[1] - self.range[0]) if self.range is not None else 0.0
        if decades > 0 and self.height() > 0:
            # a squeezed axis (presentation mode, a short plot) keeps only the powers of ten when
            # 2·10² would sit closer than a text line and a half to 10² (they were drawn overlapping)
            line = QFontMetricsF(self.style.get("tickFont") or QFont()).height()
            if self.height() * (np.log10(5) - np.log10(2)) / decades < 1.5 * line:
                keep = (0.0,)
        return [
            s if any(abs((v - np.floor(v)) - k) < 1e-6 for k in keep) else ""
            for v, s in zip(values, strings, strict=True)
        ]


class TrainPlots(pg.GraphicsLayoutWidget):
    """Four plots in a 2x2 grid, each fed by ``show_step(series, step, ...)``.

    No plot has a context menu: built with ``enableMenu=False``, pyqtgraph never makes the view box
    menus that ``setMenuEnabled(False)`` would throw away (~10 ms each, on every panel build)."""

    def __init__(self, parent=None, dark: bool = False):
        # What the viewport shows while a frame is prepared (see :meth:`prepare`): pixels of the plots
        # as the frame on screen drew them, and the next frame's pixels once drawn.
        self._picture: QPixmap | None = None
        self._ahead: tuple[tuple, QPixmap] | None = None  # ((step, look), pixels)
        self._painting_scene = False  # a paint of the scene itself (into a picture, or live)
        self._look = 0  # counts the changes that make pictures stale (size, theme, texts, ranges of a run)
        self._series: MergeSeries | None = None
        self._scene_steps: dict[str, int] = {}  # the step each plot's items hold (the screen: shown_steps)
        self.shown_steps: dict[str, int] = {}
        super().__init__(parent)
        # smooth curves for the projector; x ranges fixed per run keep redraws cheap
        pg.setConfigOptions(antialias=True)
        blue, orange = "#1f77b4", "#ff7f0e"
        self._scale = 1.0
        self._dark = dark

        self.vocab_plot = self.addPlot(row=0, col=0, enableMenu=False)
        _style_plot(self.vocab_plot)
        self.vocab_curve = GrowingCurve(self.vocab_plot.addItem, pg.mkPen(blue, width=2))

        self.count_plot = self.addPlot(row=0, col=1, axisItems={"left": OneTwoFiveLogAxis("left")}, enableMenu=False)
        _style_plot(self.count_plot)
        self.count_plot.setLogMode(y=True)
        self.count_curve = GrowingCurve(self.count_plot.addItem, pg.mkPen(orange, width=2), log_y=True)

        self.corpus_plot = self.addPlot(row=1, col=0, enableMenu=False)
        _style_plot(self.corpus_plot)
        self.tokens_curve = GrowingCurve(self.corpus_plot.addItem, pg.mkPen(TOKENS_COLOR, width=2))
        # chars/token on a second y axis sharing the x axis (pyqtgraph's MultiplePlotAxes recipe)
        self.cpt_view = pg.ViewBox(enableMenu=False)
        self.corpus_plot.showAxis("right")
        self.corpus_plot.scene().addItem(self.cpt_view)
        self.corpus_plot.getAxis("right").linkToView(self.cpt_view)
        self.corpus_plot.getAxis("right").enableAutoSIPrefix(False)
        self.cpt_view.setXLink(self.corpus_plot)
        self.cpt_view.setMouseEnabled(x=False, y=False)
        self.cpt_curve = GrowingCurve(self.cpt_view.addItem, pg.mkPen(CPT_COLOR, width=2, style=Qt.PenStyle.DashLine))
        # two curves on two axes: a legend says which is which, and each axis takes its curve's colour
        # (middle right: the falling token curve is low there and the rising chars/token one high)
        # The legend sits in a row of its own under the x axis, never over the curves (inside the
        # view box it covered them wherever it was anchored, worst at presentation sizes).
        self.corpus_legend = pg.LegendItem(labelTextSize=f"{LABEL_PT}pt", colCount=2)
        self.corpus_plot.layout.addItem(self.corpus_legend, 4, 1)
        self.corpus_plot.getViewBox().sigResized.connect(self._sync_cpt_view)

        self.length_plot = self.addPlot(row=1, col=1, enableMenu=False)
        _style_plot(self.length_plot)
        self.length_hist = self.length_plot.plot(
            stepMode="center", fillLevel=0, brush=pg.mkBrush(31, 119, 180, 140), pen=pg.mkPen(blue, width=1)
        )
        for plot in (self.vocab_plot, self.count_plot, self.corpus_plot, self.length_plot):
            for axis in ("left", "bottom", "right"):
                plot.getAxis(axis).enableAutoSIPrefix(False)  # no label re-layout as values grow
                # an axis with a grid spans its whole plot, so every curve update repainted its
                # tick text (~5 ms per axis, most of a frame's paint): cached, it is redrawn only
                # when its range changes
                plot.getAxis(axis).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._unit = "bytes"
        self._set_texts()
        self.apply_theme(dark)  # the texts' colours and sizes
        self.clear_data()

    def retranslate(self) -> None:
        """Titles, axis labels and the legend in the interface's language, after a language switch (pyqtgraph
        draws them: they are no widgets' texts, which the panel's translation walks)."""
        self._set_texts()
        self._style_text()

    def _length_label(self) -> str:
        unit = {
            "bytes": QCoreApplication.translate("TrainPlots", "bytes"),
            "chars": QCoreApplication.translate("TrainPlots", "chars"),
        }.get(self._unit, self._unit)
        return QCoreApplication.translate("TrainPlots", "length ({unit})").format(unit=unit)

    def _set_texts(self) -> None:
        tokens = QCoreApplication.translate("TrainPlots", "tokens")
        step = QCoreApplication.translate("TrainPlots", "merge step")
        texts = (
            (self.vocab_plot, QCoreApplication.translate("TrainPlots", "Vocabulary size"), tokens, step),
            (
                self.count_plot,
                QCoreApplication.translate("TrainPlots", "Merged pair count"),
                QCoreApplication.translate("TrainPlots", "count (log)"),
                step,
            ),
            (self.corpus_plot, QCoreApplication.translate("TrainPlots", "Corpus length"), tokens, step),
            (self.length_plot, QCoreApplication.translate("TrainPlots", "Token lengths"), tokens, self._length_label()),
        )
        for plot, title, left, bottom in texts:
            plot.setTitle(title, size="11pt")
            plot.setLabel("left", left)
            plot.setLabel("bottom", bottom)
        self.corpus_plot.getAxis("right").setLabel(QCoreApplication.translate("TrainPlots", "chars / token"))

    def minimumSizeHint(self):  # noqa: N802 (Qt naming)
        """What the 2x2 grid really needs (axes, titles): the splitter then never gives the plots
        less, and they are squeezed rather than cut off at the right edge."""
        need = self.ci.effectiveSizeHint(Qt.SizeHint.MinimumSize)
        return QSize(int(need.width()) + 2, int(need.height()) + 2)

    def apply_theme(self, dark: bool) -> None:
        """Background, axis and title colours for the light or dark theme."""
        self._dark = dark
        self.setBackground("#16181c" if dark else "w")
        self._style_text()
        self._stale()

    def set_font_scale(self, scale: float) -> None:
        """Titles, axis labels, ticks and the legend follow the app's font scale (presentation mode)."""
        if scale == self._scale:
            return  # restyling at the same scale (as every panel build asks) redid ~10 ms of text layout
        self._scale = scale
        self._style_text()

    def _style_text(self) -> None:
        dark = self._dark
        # Titles grow with the scale; axis text grows half as much: the axes' width comes out of
        # the plots' (four plots share about a third of the window), and at the full 1.6x the
        # layout grew wider than its view and the right-hand plots were cut off.
        k = 1 + (self._scale - 1) / 2
        fg = "#d8d8d8" if dark else "#333333"
        tick_font = QFont()
        tick_font.setPointSizeF(LABEL_PT * k)
        for plot in (self.vocab_plot, self.count_plot, self.corpus_plot, self.length_plot):
            for axis in ("left", "bottom", "right"):
                ax = plot.getAxis(axis)
                colour = fg
                if plot is self.corpus_plot and axis != "bottom":
                    colour = TOKENS_COLOR if axis == "left" else CPT_COLOR
                ax.setPen(fg)
                ax.setTickFont(tick_font)
                ax.labelStyle["font-size"] = f"{LABEL_PT * k:.1f}pt"
                ax.setTextPen(colour)  # tick text and label; re-lays out the label with its size
            # room for "25000" and the axis title beside it, measured in the fonts in use: a fixed
            # width let the title run into the tick labels at presentation sizes
            fm = QFontMetricsF(tick_font)
            plot.getAxis("left").setWidth(int(fm.horizontalAdvance("25000") + fm.height() + 6))
            plot.titleLabel.setText(plot.titleLabel.text, color=fg, size=f"{TITLE_PT * self._scale:.1f}pt")
            plot.layout.setRowFixedHeight(0, 30 * self._scale)
            plot.titleLabel.setMaximumHeight(30 * self._scale)
        fm = QFontMetricsF(tick_font)
        self.corpus_plot.getAxis("right").setWidth(int(fm.horizontalAdvance("0.85") + fm.height() + 6))
        # re-added so that the legend's layout follows the new text size
        legend = self.corpus_legend
        legend.clear()
        legend.setLabelTextSize(f"{LABEL_PT * k:.1f}pt")
        legend.setLabelTextColor(fg)
        legend.addItem(self.tokens_curve.legend_item, QCoreApplication.translate("TrainPlots", "tokens"))
        legend.addItem(self.cpt_curve.legend_item, QCoreApplication.translate("TrainPlots", "chars / token"))
        self.updateGeometry()  # the minimum size changed with the text
        self._stale()

    def _sync_cpt_view(self) -> None:
        self.cpt_view.setGeometry(self.corpus_plot.getViewBox().sceneBoundingRect())
        self.cpt_view.linkedViewChanged(self.corpus_plot.getViewBox(), self.cpt_view.XAxis)

    def set_step_range(self, merges: int) -> None:
        """Fix the x axes to the run's merge count: the curves grow to the right, and the axes do not
        re-generate their ticks on every redraw (the largest cost of a pyqtgraph repaint)."""
        if getattr(self, "_x_merges", None) == merges:
            return  # set already (the panel presets it before a run): no repaint at the run's start
        self._x_merges = self._merges = merges
        self._stale()
        for plot in (self.vocab_plot, self.count_plot, self.corpus_plot):
            plot.disableAutoRange(axis="x")
            plot.setXRange(0, max(merges, 1), padding=0.02)

    def set_length_unit(self, unit: str) -> None:
        if self._unit == unit:
            return
        self._unit = unit
        self.length_plot.setLabel("bottom", self._length_label())
        self._stale()

    def clear_data(self) -> None:
        self._look += 1  # pictures of the run before are no use
        self._picture = self._ahead = self._series = None
        self.viewport().update()
        self.shown_steps = {}
        self._scene_steps = {}
        if getattr(self, "_clear", False):
            return  # nothing drawn since: clearing again would only repaint the empty plots
        self._clear = True
        empty = np.zeros(0)
        for curve in (self.vocab_curve, self.count_curve, self.tokens_curve, self.cpt_curve):
            curve.setData(empty, empty)
        self.length_hist.setData(np.array([0.5, 1.5]), np.array([0.0]), stepMode="center")
        self._ranges: dict[str, tuple[float, float]] = {}
        self._merges = getattr(self, "_merges", 0)
        for view in (self.vocab_plot, self.count_plot, self.corpus_plot, self.length_plot, self.cpt_view):
            view.enableAutoRange(axis="y")
        self.length_plot.enableAutoRange(axis="x")

    def _hold_range(self, name: str, view, lo: float, hi: float, *, grow: float, axis: str = "y") -> bool:
        """Set a y (or x) range that only changes when the data leaves it, then by a generous step:
        a changed range makes pyqtgraph regenerate the axis, the costliest part of a redraw."""
        cur = self._ranges.get(name)
        if cur is not None and cur[0] <= lo and hi <= cur[1]:
            return False
        span = max(hi - lo, abs(hi) * 0.05, 1e-9)
        if cur is None:
            new = (lo - span * 0.05, hi + span * 0.05)
        else:  # widen only the side the data crossed
            new = (cur[0] if lo >= cur[0] else lo - span * grow, cur[1] if hi <= cur[1] else hi + span * grow)
        self._ranges[name] = new
        if name == "cpt":
            self._sync_cpt_view()
        if axis == "y":
            view.setYRange(*new, padding=0)
        else:
            view.setXRange(*new, padding=0)
        return True

    # ---- frames drawn ahead ----------------------------------------------------------------------
    # A frame's turn used to set the plots' data and then paint them: ~15-20 ms of pyqtgraph (the
    # curves, the axes whose range changed, the scene's queued updates), the largest part of the turn
    # that draws a frame. While the frame scheduler prepares the next frame, the plots now take its
    # data and paint it into a picture; the viewport meanwhile shows the picture of the frame on
    # screen, and the frame's turn only swaps the pictures. So no plot ever shows another step than
    # the other views, and the paint is out of the frame's turn. Anything else that changes how the
    # plots look (a resize, the theme, the texts, a new run) drops the pictures: the plots are then
    # painted live, as before, until the next frame is prepared.

    def prepare(self, series: MergeSeries, step: int) -> Iterator[bool | None]:
        """Before a frame draws ``step``, in slices (a ``yield`` between two): the picture of what the
        screen shows (once, when the plots were painted live), the new curve pieces, each plot's data
        and axes for ``step`` (a changed axis costs ~10 ms: one plot per turn), the scene's queued
        updates, then each changed plot painted into the next frame's picture. The screen keeps
        showing the frame before until :meth:`show_step` is asked for ``step``."""
        self._series = series
        if step == 0 or series.n == 0 or not self.isVisible() or self.viewport().size().isEmpty():
            return  # nothing to draw ahead: the frame draws it live
        look = self._look_key()
        if self._picture is None:  # what the screen shows, kept while the scene takes the next step
            self._picture = self._paint_scene(None, self.viewport().rect())
            yield True
        n = min(step, series.n)
        for curve in (self.vocab_curve, self.count_curve, self.tokens_curve, self.cpt_curve):
            yield from curve.prepare(n)
        for part in PLOT_PARTS:
            if self._scene_steps.get(part) != step:
                self._set_scene(series, step, (part,))
                yield True
        QCoreApplication.sendPostedEvents(self.scene(), QEvent.Type.MetaCall)  # the scene's queued updates
        yield None
        if self._picture is None or look != self._look_key():
            return  # the plots changed how they look meanwhile: the frame paints them live
        pixels = QPixmap(self._picture)  # shares the pixels until the first plot is painted over them
        for part in PLOT_PARTS:
            if self.shown_steps.get(part) != step:
                pixels = self._paint_scene(pixels, self._plot_rect(part))
                yield True
        if self._picture is not None and look == self._look_key():
            self._ahead = ((step, look), pixels)

    def _look_key(self) -> tuple:
        size = self.viewport().size()
        return self._look, size.width(), size.height(), self.devicePixelRatioF()

    def _plot_rect(self, part: str) -> QRect:
        """Where plot ``part`` (its axes, title and legend) is in the viewport."""
        plot = {"vocab": self.vocab_plot, "count": self.count_plot, "corpus": self.corpus_plot}.get(
            part, self.length_plot
        )
        return self.mapFromScene(plot.sceneBoundingRect()).boundingRect().adjusted(-1, -1, 1, 1)

    def _paint_scene(self, pixels: QPixmap | None, rect: QRect) -> QPixmap:
        """The scene painted over ``rect`` of ``pixels`` (new pixels of the viewport's size if None),
        through the view's own painting (its item caches, background and device pixel ratio)."""
        viewport = self.viewport()
        if pixels is None:
            ratio = self.devicePixelRatioF()
            pixels = QPixmap(viewport.size() * ratio)
            pixels.setDevicePixelRatio(ratio)
        self._painting_scene = True
        try:
            viewport.render(pixels, rect.topLeft(), QRegion(rect), QWidget.RenderFlag.DrawWindowBackground)
        finally:
            self._painting_scene = False
        return pixels

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        picture = self._picture
        if picture is None or self._painting_scene:
            super().paintEvent(event)
            return
        painter = QPainter(self.viewport())
        painter.drawPixmap(0, 0, picture)
        painter.end()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        self._stale()

    def _stale(self) -> None:
        """How the plots look changed: pictures drawn before are no longer what the scene would paint."""
        self._look += 1
        self._go_live()

    def _go_live(self, series: MergeSeries | None = None, step: int | None = None, parts: tuple[str, ...] = ()) -> None:
        """Paint the scene again instead of pictures: each plot's items back at the step the screen shows
        (a frame being prepared may have moved them on), those in ``parts`` at ``step``."""
        if self._picture is None and self._ahead is None and not parts:
            return
        self._picture = self._ahead = None
        series = series if series is not None else self._series
        if series is not None and not getattr(self, "closed", False):  # (closing, pyqtgraph deletes the items)
            for part in PLOT_PARTS:
                self._set_scene(series, step if part in parts else self.shown_steps.get(part, 0), (part,))
        self.viewport().update()

    def show_step(self, series: MergeSeries, step: int, parts: tuple[str, ...] = PLOT_PARTS) -> None:
        """Show the plots named in ``parts`` (default: all of ``PLOT_PARTS``) for merges 1..``step``:
        the picture drawn ahead for ``step`` if there is one, else the plot items' data set and painted
        (one part at a time keeps each repaint small: the scene repaints only the plot that changed)."""
        self._series = series
        # a plot already at ``step`` shows its data (a series only grows within a run): setting the
        # histogram again repainted its plot
        parts = tuple(part for part in parts if self.shown_steps.get(part) != step)
        if not parts:
            return
        ahead = self._ahead
        if (
            ahead is not None
            and ahead[0] == (step, self._look_key())
            and all(self._scene_steps.get(part) == step for part in PLOT_PARTS)
        ):
            self._picture, self._ahead = ahead[1], None
            for part in PLOT_PARTS:
                self.shown_steps[part] = step  # what each plot shows, read back by tests and screenshots
            self.viewport().update()
            return
        for part in parts:
            self.shown_steps[part] = step
        self._go_live(series, step, parts)

    def _set_scene(self, series: MergeSeries, step: int, parts: tuple[str, ...]) -> None:
        """Set the plot items of ``parts`` to merges 1..``step`` and hold their axes around them."""
        parts = tuple(part for part in parts if self._scene_steps.get(part) != step)
        for part in parts:
            self._scene_steps[part] = step
        if not parts or (step == 0 and self._clear):
            return  # empty already: drawing nothing again would repaint the plots at a run's start
        self._clear = False
        x = series.upto("step", step)
        if "vocab" in parts:
            self.vocab_curve.setData(x, series.upto("vocab", step))
        if "count" in parts:
            self.count_curve.setData(x, series.upto("count", step))
        if "corpus" in parts:
            self.tokens_curve.setData(x, series.upto("tokens", step))
            self.cpt_curve.setData(x, series.upto("chars_per_token", step))
        if "length" in parts:
            lengths = series.upto("length", step).astype(int)
            if len(lengths):
                counts = np.bincount(lengths)
                edges = np.arange(len(counts) + 1) - 0.5
                self.length_hist.setData(edges, counts.astype(float), stepMode="center")
            else:
                self.length_hist.setData(np.array([0.5, 1.5]), np.array([0.0]), stepMode="center")
        for part in parts:
            self._fit_range(series, step, part)

    def _fit_range(self, series: MergeSeries, step: int, part: str) -> bool:
        """Hold the axes of plot ``part`` around merges 1..``step``; True when a range changed."""
        if step == 0 or series.n == 0:
            return False
        hold = self._hold_range
        if part == "vocab":
            vocab = series.upto("vocab", step)
            if "vocab" not in self._ranges and self._merges:  # the run's end is known: one range for all of it
                start = float(vocab[0]) - 1
                self._ranges["vocab"] = (start, start + self._merges)
                self.vocab_plot.setYRange(start, start + self._merges, padding=0.03)
                return True
            return hold("vocab", self.vocab_plot, float(vocab.min()), float(vocab.max()), grow=0.5)
        if part == "count":
            logc = np.log10(series.upto("count", step))
            return hold("count", self.count_plot, float(logc.min()), float(logc.max()), grow=0.3)
        if part == "corpus":
            tokens, cpt = series.upto("tokens", step), series.upto("chars_per_token", step)
            changed = hold("tokens", self.corpus_plot, float(tokens.min()), float(tokens.max()), grow=0.3)
            return hold("cpt", self.cpt_view, float(cpt.min()), float(cpt.max()), grow=0.3) or changed
        counts = np.bincount(series.upto("length", step).astype(int))
        changed = hold("hist_y", self.length_plot, 0.0, float(counts.max()) * 1.05, grow=0.5)
        return hold("hist_x", self.length_plot, -0.5, len(counts) - 0.5, grow=0.5, axis="x") or changed
