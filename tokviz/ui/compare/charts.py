"""Compare panel charts (pyqtgraph): tokens per encoder for the current text, and a grouped bar
chart of one metric per text set and encoder for corpus comparisons.

Items are created once and updated with ``setOpts``/``setData`` (pyqtgraph's PlotSpeedTest habit).
"""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QFontMetrics

from tokviz.ui.theme import is_dark

# One colour per encoder position (row chip, bars and legend agree); Tableau 10.
ENCODER_COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                  "#9c755f", "#bab0ac"]


def encoder_color(position: int) -> QColor:
    return QColor(ENCODER_COLORS[position % len(ENCODER_COLORS)])


def restyle(widget: pg.PlotWidget) -> None:
    """Follow the current theme (background, axes) after a theme switch."""
    dark = is_dark()
    widget.setBackground("#1e1e1e" if dark else "w")
    fg = "#dddddd" if dark else "#333333"
    for side in ("left", "bottom"):
        ax = widget.getPlotItem().getAxis(side)
        ax.setTextPen(fg)
        ax.setPen(fg)
    widget._fg = "#dddddd" if dark else "#222222"
    for item in getattr(widget, "_labels", []):
        item.setColor(widget._fg)


def _style(plot: pg.PlotItem, dark: bool) -> None:
    # no context menu; the charts are also built with enableMenu=False, so none is made only to be dropped
    plot.showGrid(x=False, y=True, alpha=0.25)
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.getViewBox().setMouseEnabled(x=False, y=False)
    fg = "#dddddd" if dark else "#333333"
    for side in ("left", "bottom"):
        ax = plot.getAxis(side)
        ax.setTextPen(fg)
        ax.setPen(fg)


class TokenBarChart(pg.PlotWidget):
    """Tokens per encoder as horizontal bars (names read left of their bar, however long), one
    colour per encoder, the value written at the end of each bar; the first encoder on top."""

    def __init__(self, parent=None):
        dark = is_dark()
        super().__init__(parent, background="#1e1e1e" if dark else "w", enableMenu=False)
        self._fg = "#dddddd" if dark else "#222222"
        self.plot_item = self.getPlotItem()
        _style(self.plot_item, dark)
        self.plot_item.showGrid(x=True, y=False, alpha=0.25)
        self.plot_item.setLabel("bottom", self.tr("tokens"))
        self.plot_item.invertY(True)
        self.bars = pg.BarGraphItem(x0=[], y=[], height=0.7, width=[])
        self.plot_item.addItem(self.bars)
        self._labels: list[pg.TextItem] = []
        self.values: list[float] = []
        self._top = 1.0  # the longest bar

    def set_values(self, names: Sequence[str], values: Sequence[float | None], colors: Sequence[QColor],
                   label: str = "tokens") -> None:
        ys = list(range(len(names)))
        lengths = [v if v is not None else 0 for v in values]
        self.values = list(lengths)
        self.bars.setOpts(x0=[0] * len(names), y=ys, height=0.7, width=lengths,
                          brushes=[pg.mkBrush(c) for c in colors], pens=[pg.mkPen(c.darker(130)) for c in colors])
        self.plot_item.setLabel("bottom", label)
        short = [n if len(n) <= 24 else n[:23] + "…" for n in names]  # "tokviz BPE (demo corpus)" whole
        self.plot_item.getAxis("left").setTicks([[(i, n) for i, n in enumerate(short)]])
        while len(self._labels) < len(names):
            item = pg.TextItem(color=self._fg, anchor=(0.0, 0.5))
            self.plot_item.addItem(item)
            self._labels.append(item)
        top = max(lengths, default=0) or 1
        for i, item in enumerate(self._labels):
            if i < len(names):
                v = values[i]
                item.setText(self.tr("error") if v is None else f"{v:,.0f}" if float(v).is_integer() else f"{v:.2f}")
                item.setPos(lengths[i] + top * 0.01, i)
                item.setVisible(True)
            else:
                item.setVisible(False)
        self.plot_item.setYRange(-0.6, max(len(names) - 0.4, 0.6), padding=0)
        self._top = top
        self._fit_x()

    def _fit_x(self) -> None:
        """Room right of the longest bar for the widest value label, in pixels: a fixed share of the
        data was too little on a narrow chart at presentation scale ("198" was cut to "19")."""
        top = self._top
        label_px = max((item.textItem.boundingRect().width() for item in self._labels if item.isVisible()),
                       default=0.0)
        view = self.plot_item.getViewBox()
        view_px = view.width() if view is not None else 0  # (None while the widget is being deleted)
        # the labels start 1 % of the data past their bars and need a few pixels of air
        share = (label_px + 6) / view_px if view_px > 0 else 0.18
        self.plot_item.setXRange(0, top * 1.01 / (1 - min(max(share, 0.05), 0.6)), padding=0)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if getattr(self, "_labels", None):  # (pyqtgraph resizes the widget inside its own __init__)
            self._fit_x()


LEGEND_SHARE = 0.4  # at most this much of a grouped chart's height for its legend
MIN_LEGEND_POINTS = 7.0


class GroupedBarChart(pg.PlotWidget):
    """One group of bars per text set, one bar per encoder inside the group, with a legend."""

    def __init__(self, parent=None):
        dark = is_dark()
        super().__init__(parent, background="#1e1e1e" if dark else "w", enableMenu=False)
        self.plot_item = self.getPlotItem()
        _style(self.plot_item, dark)
        self.legend = self.plot_item.addLegend(offset=(-10, 4), labelTextColor="#dddddd" if dark else "#222222",
                                               colCount=3)
        self._bars: list[pg.BarGraphItem] = []
        self._shape: tuple | None = None
        self.matrix: list[list[float]] = []
        self._names: tuple[list[str], list[str]] = ([], [])  # the sets' names, and short ones for a narrow chart
        self._tallest = 1.0

    def set_matrix(self, sets: Sequence[str], encoders: Sequence[str], values: Sequence[Sequence[float]],
                   colors: Sequence[QColor], label: str, short_sets: Sequence[str] | None = None) -> None:
        """``values[e][s]`` = metric of encoder ``e`` on set ``s``. ``short_sets`` name the groups where
        their full names do not fit under them (a projector's large font, a narrow pane)."""
        self._names = (list(sets), list(short_sets) if short_sets is not None else list(sets))
        self._fit_ticks()
        self.matrix = [list(v) for v in values]
        n = max(len(encoders), 1)
        width = 0.8 / n
        self._tallest = max((max(v, default=0) for v in values), default=0) or 1
        shape = (tuple(sets), tuple(encoders), label)
        if shape == self._shape:
            # the same sets and encoders with new numbers (a running corpus comparison): only heights
            for bar, v in zip(self._bars, values, strict=True):
                bar.setOpts(height=list(v))
            self._fit_y()
            return
        self._shape = shape
        for bar in self._bars:
            self.plot_item.removeItem(bar)
        self._bars = []
        self.legend.clear()
        for e, name in enumerate(encoders):
            xs = [s - 0.4 + width * (e + 0.5) for s in range(len(sets))]
            bar = pg.BarGraphItem(x=xs, height=list(values[e]), width=width * 0.92,
                                  brush=pg.mkBrush(colors[e]), pen=pg.mkPen(colors[e].darker(130)))
            self.plot_item.addItem(bar)
            self.legend.addItem(bar, name)
            self._bars.append(bar)
        self._axis_title = label
        self._apply_text_size()
        self.plot_item.setXRange(-0.6, max(len(sets) - 0.4, 0.6), padding=0)
        self._fit_y()

    def _fit_y(self) -> None:
        """Room above the tallest bar for the legend, measured in pixels (a fixed share let a second row of
        names cover the tallest bars). The names are as large as the chart's font while the legend takes
        at most ``LEGEND_SHARE`` of the plot's height, smaller in a short chart (presentation mode at
        1366x768 leaves the chart about 130 px), and as many a row as fit across."""
        view = self.plot_item.getViewBox()
        if view is None or view.height() <= 0 or not self.legend.items:
            self.plot_item.setYRange(0, self._tallest * 1.6, padding=0)
            return
        points = self.font().pointSizeF()
        while True:
            self._legend_size(points)
            legend_px = self.legend.boundingRect().height()
            if legend_px <= LEGEND_SHARE * view.height() or points <= MIN_LEGEND_POINTS:
                break
            points = max(MIN_LEGEND_POINTS, points * 0.85)
        share = min((legend_px + 12) / view.height(), 0.8)
        self.plot_item.setYRange(0, self._tallest * 1.05 / (1 - share), padding=0)

    def _legend_size(self, points: float) -> None:
        """The legend's names in ``points``, laid out in as many columns as fit the plot's width."""
        size = f"{points:g}pt"
        if self.legend.opts.get("labelTextSize") != size:
            self.legend.setLabelTextSize(size)
            for _sample, name in self.legend.items:
                name.setText(name.text)  # drawn again in the new size
        width = self.plot_item.getViewBox().width()
        widest = max(
            sample.boundingRect().width() + name.boundingRect().width() + 12 for sample, name in self.legend.items
        )
        self.legend.setColumnCount(max(1, min(len(self.legend.items), int(width * 0.9 // widest))))
        self.legend.updateSize()

    def _apply_text_size(self) -> None:
        """The axis title in the widget's font size: pyqtgraph draws it in the size it was made with,
        which stayed small beside the ticks on a projector."""
        if getattr(self, "_axis_title", ""):
            self.plot_item.setLabel("left", self._axis_title, **{"font-size": f"{self.font().pointSizeF():g}pt"})

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and "legend" in vars(self):
            self._apply_text_size()
            if "_names" in vars(self):
                self._fit_ticks()
                self._fit_y()

    def tick_labels(self) -> list[str]:
        """The group names drawn under the bars."""
        full, short = self._names
        return full if self._full_names_fit() else short

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if "_names" in vars(self):  # the first resize comes from inside PlotWidget's constructor
            self._fit_ticks()
            self._fit_y()

    def _full_names_fit(self) -> bool:
        full = self._names[0]
        if not full:
            return True
        axis = self.plot_item.getAxis("bottom")
        metrics = QFontMetrics(axis.style.get("tickFont") or self.font())
        plot_px = self.viewport().width() - self.plot_item.getAxis("left").width()
        return max(metrics.horizontalAdvance(s) for s in full) + 8 <= plot_px / len(full)

    def _fit_ticks(self) -> None:
        """Full names when each fits its group's width, else the short ones (names ran into each other);
        the axis as tall as its font, descenders included (pyqtgraph's measure cut "ja" to "ia" at a
        projector's font size)."""
        axis = self.plot_item.getAxis("bottom")
        axis.setTicks([list(enumerate(self.tick_labels()))])
        metrics = QFontMetrics(axis.style.get("tickFont") or self.font())
        axis.setHeight(metrics.height() + axis.style["tickTextOffset"][1] + max(0, axis.style["tickLength"]) + 2)

