"""The Unigram lattice of a word or line: every candidate piece as an arc over the characters.

:class:`LatticeCanvas` paints a :class:`~tokviz.core.unigram.model.Lattice`: the characters the model
sees as a row of cells (``▁`` for each word's leading space), above them every vocabulary piece that
matches as an arc from the node before its first character to the node after its last, labelled
with the piece and its log-probability. Arcs are packed into lanes (shortest pieces nearest the
characters) so that arcs of one lane never overlap, and the cells are made wide enough that every
label fits inside its arc: no two labels overlap and none is cut. The Viterbi path is drawn thick,
a chosen n-best path and a sampled path in their own colours, and each also as a strip of coloured
pieces under the characters.

:class:`LatticeView` puts the canvas beside the n-best list, with a re-roll button that samples a
segmentation with probability ∝ P(path)^α (α from a slider; the seed box makes a roll repeatable and
counts up after each one).

Where everything goes (lanes, cell width, label and cell boxes) is plain arithmetic in
:mod:`tokviz.ui.lattice_layout`; this module measures text, paints and holds the controls.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QSplitter,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.unigram.model import Lattice, UnigramModel
from tokviz.ui.fonts import ui_font
from tokviz.ui.lattice_layout import MARGIN, PAD, LatticeGeometry, assign_lanes, lay_out, log_prob_text, strip_tokens
from tokviz.ui.theme import is_dark
from tokviz.ui.token_colors import text_color_on, token_color

VITERBI_COLOR = QColor("#1c6fd6")
NBEST_COLOR = QColor("#2b9348")
SAMPLE_COLOR = QColor("#e8590c")
UNKNOWN_COLOR = QColor("#c92a2a")
MAX_CHARS = 60  # a longer line is cut (at a space when there is one): ~60 columns still read on a projector
ALPHA_STEP = 0.05  # the slider moves α in these steps
ALPHA_MAX = 2.0
DEFAULT_ALPHA = 0.1  # SentencePiece's usual sampling α

@dataclass(frozen=True)
class Strip:
    """A segmentation drawn under the characters: a title and a path of arc indices."""

    title: str
    path: tuple[int, ...]
    color: QColor


class LatticeCanvas(QWidget):
    """Paints one lattice; its size follows the lattice (put it in a scroll area)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.lattice: Lattice | None = None
        self.message = ""
        self.selected: tuple[int, ...] = ()  # a chosen n-best path
        self.sampled: tuple[int, ...] = ()
        self.strips: list[Strip] = []
        self._lanes: list[int] = []
        self._geometry: LatticeGeometry | None = None
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)
        self._relayout()

    # ---- data ---------------------------------------------------------------------------------
    def set_lattice(self, lattice: Lattice | None, message: str = "") -> None:
        """Show ``lattice`` (None: show ``message`` instead); clears the chosen and sampled paths."""
        self.lattice = lattice if lattice is not None and lattice.symbols else None
        self.message = message
        self.selected, self.sampled = (), ()
        self._lanes = assign_lanes([(a.start, a.end) for a in lattice.arcs]) if self.lattice else []
        self._update_strips()

    def relayout(self) -> None:
        """Measure again (after the font scale changed: presentation mode, Ctrl +/−)."""
        self._relayout()

    def set_selected(self, path: tuple[int, ...]) -> None:
        """Draw ``path`` (arc indices, e.g. an n-best row) in the n-best colour; ``()`` clears it."""
        self.selected = tuple(path)
        self._update_strips()

    def set_sampled(self, path: tuple[int, ...]) -> None:
        """Draw ``path`` (arc indices) as the sampled segmentation."""
        self.sampled = tuple(path)
        self._update_strips()

    @property
    def viterbi(self) -> tuple[int, ...]:
        """The arcs drawn as the Viterbi path."""
        return self.lattice.viterbi if self.lattice else ()

    def lanes(self) -> list[int]:
        """The lane of each arc (0 nearest the characters)."""
        return list(self._lanes)

    def _update_strips(self) -> None:
        self.strips = []
        if self.lattice:
            self.strips.append(Strip(self.tr("Viterbi"), self.lattice.viterbi, VITERBI_COLOR))
            if self.selected and self.selected != self.lattice.viterbi:
                self.strips.append(Strip(self.tr("n-best"), self.selected, NBEST_COLOR))
            if self.sampled:
                self.strips.append(Strip(self.tr("sample"), self.sampled, SAMPLE_COLOR))
        self._relayout()

    # ---- geometry -----------------------------------------------------------------------------
    def _fonts(self):
        return ui_font(14), ui_font(8.5), ui_font(9)  # characters, arc labels, strips

    def arc_label(self, index: int) -> tuple[str, str]:
        """The two lines on arc ``index``: the piece and its log-probability."""
        a = self.lattice.arcs[index]
        return a.piece, log_prob_text(a.log_prob)

    def _relayout(self) -> None:
        char_font, label_font, strip_font = self._fonts()
        cfm, lfm, sfm = QFontMetricsF(char_font), QFontMetricsF(label_font), QFontMetricsF(strip_font)
        lat = self.lattice
        if lat is None:
            self._geometry = None
            self.setFixedSize(QSize(420, 120))
            self.update()
            return
        bold = QFont(label_font)
        bold.setBold(True)
        bfm = QFontMetricsF(bold)  # Viterbi labels are bold, and any arc may be on the path
        label_w = []
        for i in range(len(lat.arcs)):
            piece, lp = self.arc_label(i)
            label_w.append(max(bfm.horizontalAdvance(piece), bfm.horizontalAdvance(lp)) + 2 * PAD)
        g = self._geometry = lay_out(
            symbol_widths=[cfm.horizontalAdvance(s) for s in lat.symbols], label_widths=label_w,
            spans=[(a.start, a.end) for a in lat.arcs], char_height=cfm.height(), label_line_height=lfm.height(),
            strip_height=sfm.height(), strips=len(self.strips),
            strip_title_width=max([sfm.horizontalAdvance(s.title) for s in self.strips] + [0]))
        self._lanes = g.lanes
        self.setFixedSize(QSize(g.width, g.height))
        self.update()

    @property
    def geometry_of_lattice(self) -> LatticeGeometry | None:
        """The layout drawn (None without a lattice)."""
        return self._geometry

    def node_x(self, node: int) -> float:
        """The x of node ``node`` (the boundary before symbol ``node``)."""
        return self._geometry.node_x(node)

    def lane_base(self, lane: int) -> float:
        """The y where the arcs of ``lane`` start and end (lane 0 sits just above the characters)."""
        return self._geometry.lane_base(lane)

    def label_rect(self, index: int) -> QRectF:
        """Where arc ``index``'s label box is drawn."""
        return QRectF(*self._geometry.label_box(index))

    def arc_rect(self, index: int) -> QRectF:
        """The bounding box of arc ``index`` (its legs and its label)."""
        return QRectF(*self._geometry.arc_box(index))

    def cell_rect(self, symbol: int) -> QRectF:
        """Where symbol ``symbol``'s character cell is drawn."""
        return QRectF(*self._geometry.cell_box(symbol))

    def strip_tokens(self, path) -> list[tuple[int, int, int, str, bool]]:
        """The tokens of a path as a strip shows them (:func:`tokviz.ui.lattice_layout.strip_tokens`)."""
        return strip_tokens(self.lattice, path)

    def arc_at(self, pos: QPointF) -> int | None:
        """The arc whose label is under ``pos``."""
        if not self.lattice:
            return None
        for i in range(len(self.lattice.arcs)):
            if self.label_rect(i).contains(pos):
                return i
        return None

    # ---- painting -----------------------------------------------------------------------------
    def sizeHint(self) -> QSize:
        g = self._geometry
        return QSize(g.width, g.height) if g is not None else QSize(420, 120)

    def event(self, ev) -> bool:
        if ev.type() == QEvent.Type.ToolTip and self.lattice:
            i = self.arc_at(QPointF(ev.pos()))
            if i is None:
                QToolTip.hideText()
            else:
                a = self.lattice.arcs[i]
                chars = "".join(self.lattice.symbols[a.start:a.end])
                tip = self.tr("{piece} (id {id}) over “{chars}”: log P = {lp}, P = {p}").format(
                    piece=a.piece, id=a.token_id, chars=chars, lp=log_prob_text(a.log_prob),
                    p=f"{math.exp(a.log_prob):.3g}")
                if a.unknown:
                    tip += " " + self.tr("(no piece covers this character: the unknown piece's score)")
                QToolTip.showText(ev.globalPos(), tip, self)
            return True
        return super().event(ev)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        fg = pal.color(QPalette.ColorRole.Text)
        base_bg = pal.color(QPalette.ColorRole.Base)
        p.fillRect(self.rect(), base_bg)
        muted = QColor(fg)
        muted.setAlphaF(0.45)
        char_font, label_font, strip_font = self._fonts()
        lat = self.lattice
        if lat is None:
            p.setPen(fg)
            p.setFont(ui_font(10))
            p.drawText(QRectF(self.rect()), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.message)
            p.end()
            return
        g = self._geometry
        n = len(lat.symbols)
        # node lines: show which characters each arc spans
        grid = QColor(fg)
        grid.setAlphaF(0.12)
        for node in range(n + 1):
            x = self.node_x(node)
            word_start = node < n and lat.symbols[node] == "\u2581" and node > 0
            pen = QPen(muted if word_start else grid, 1.6 if word_start else 1.0)
            if not word_start:
                pen.setStyle(Qt.PenStyle.DotLine)
            p.setPen(pen)
            p.drawLine(QPointF(x, g.top), QPointF(x, g.char_top + g.char_h))
        viterbi, selected, sampled = set(lat.viterbi), set(self.selected), set(self.sampled)
        # plain arcs first, highlighted ones on top
        order = sorted(range(len(lat.arcs)), key=lambda i: (i in viterbi or i in selected or i in sampled, i))
        p.setFont(label_font)
        for i in order:
            self._paint_arc(p, i, fg, base_bg, i in viterbi, i in selected, i in sampled)
        # the characters
        p.setFont(char_font)
        for s, ch in enumerate(lat.symbols):
            r = self.cell_rect(s)
            p.setPen(QPen(muted, 1))
            p.setBrush(pal.color(QPalette.ColorRole.AlternateBase))
            p.drawRoundedRect(r, 4, 4)
            p.setPen(muted if ch == "\u2581" else fg)
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, ch)
        # strips: the segmentations, in the shared token colours
        p.setFont(strip_font)
        dark = is_dark()
        for k, strip in enumerate(self.strips):
            y = g.strip_y(k)
            p.setPen(strip.color)
            p.drawText(QRectF(MARGIN, y, g.left - MARGIN - 6, g.strip_h),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, strip.title)
            for start, end, token_id, piece, unknown in self.strip_tokens(strip.path):
                r = QRectF(self.node_x(start) + 1, y, self.node_x(end) - self.node_x(start) - 2, g.strip_h)
                bg = UNKNOWN_COLOR if unknown else token_color(token_id, dark=dark)
                p.setPen(QPen(strip.color, 1.5))
                p.setBrush(bg)
                p.drawRoundedRect(r, 4, 4)
                p.setPen(text_color_on(bg))
                text = QFontMetricsF(strip_font).elidedText(piece, Qt.TextElideMode.ElideRight, r.width() - 4)
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
        p.end()

    def _paint_arc(self, p: QPainter, i: int, fg: QColor, bg: QColor, on_viterbi: bool, on_selected: bool,
                   on_sampled: bool) -> None:
        a = self.lattice.arcs[i]
        label = self.label_rect(i)
        xs, xe, base = self._geometry.arc_ends(i)
        peak = label.center().y()
        c = (4 * peak - base) / 3  # a cubic through these control points peaks exactly at the label's middle
        path = QPainterPath(QPointF(xs, base))
        path.cubicTo(QPointF(xs, c), QPointF(xe, c), QPointF(xe, base))
        plain = QColor(fg)
        plain.setAlphaF(0.35)
        pens = []
        if on_viterbi:
            pens.append(QPen(VITERBI_COLOR, 3.2))
        if on_selected:
            pens.append(QPen(NBEST_COLOR, 2.2 if on_viterbi else 3.0))
        if on_sampled:
            pen = QPen(SAMPLE_COLOR, 2.0 if (on_viterbi or on_selected) else 3.0)
            pen.setStyle(Qt.PenStyle.DashLine)
            pens.append(pen)
        if not pens:
            pens.append(QPen(UNKNOWN_COLOR if a.unknown else plain, 1.2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for pen in pens:
            p.setPen(pen)
            p.drawPath(path)
        p.setBrush(pens[0].color())
        p.setPen(Qt.PenStyle.NoPen)
        for x in (xs, xe):
            p.drawEllipse(QPointF(x, base), 2.2, 2.2)
        # the label: an opaque box on the arch's top, bordered in the arc's colour
        border = QPen(pens[0].color(), 2.0 if on_viterbi or on_selected or on_sampled else 1.0)
        p.setPen(border)
        p.setBrush(bg)
        p.drawRoundedRect(label, 4, 4)
        font = p.font()
        font.setBold(on_viterbi)
        p.setFont(font)
        piece, lp = self.arc_label(i)
        half = label.height() / 2
        p.setPen(UNKNOWN_COLOR if a.unknown else fg)
        p.drawText(QRectF(label.left(), label.top() + 1, label.width(), half), Qt.AlignmentFlag.AlignCenter, piece)
        p.setPen(VITERBI_COLOR if on_viterbi else fg)
        p.drawText(QRectF(label.left(), label.top() + half - 1, label.width(), half), Qt.AlignmentFlag.AlignCenter, lp)
        font.setBold(False)
        p.setFont(font)


class LatticeView(QWidget):
    """A word or line typed (or set with :meth:`set_text`), its lattice under a Unigram model, the
    n-best list, and sampling with α (see the module docstring)."""

    pathsChanged = Signal()

    def __init__(self, model: UnigramModel | None = None, parent=None, *, nbest: int = 5):
        super().__init__(parent)
        self.model: UnigramModel | None = None
        self.text = ""
        self.cut = False  # the text was longer than MAX_CHARS
        self._nbest: list[tuple[tuple[int, ...], list[str], float]] = []
        self._sample: tuple[tuple[int, ...], list[str], float, float, int] | None = None

        self.edit = QLineEdit()
        self.edit.setPlaceholderText(self.tr("A word or a line to segment"))
        self.edit.setFont(ui_font(11))
        self._debounce = QTimer(self, singleShot=True, interval=150)
        self._debounce.timeout.connect(lambda: self._rebuild(self.edit.text()))
        self.edit.textChanged.connect(lambda _: self._debounce.start())

        self.canvas = LatticeCanvas()
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.canvas)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

        self.nbest_list = QListWidget()
        self.nbest_list.setFont(ui_font(10))
        self.nbest_list.currentRowChanged.connect(self._on_row)
        self.k_spin = QSpinBox(minimum=1, maximum=50, value=nbest)
        self.k_spin.valueChanged.connect(lambda _: self._rebuild(self.text))
        side = QWidget()
        side_lay = QVBoxLayout(side)
        side_lay.setContentsMargins(0, 0, 0, 0)
        k_row = QHBoxLayout()
        self.nbest_title = QLabel(self.tr("n-best segmentations"))
        k_row.addWidget(self.nbest_title, 1)
        k_row.addWidget(QLabel(self.tr("k")))
        k_row.addWidget(self.k_spin)
        side_lay.addLayout(k_row)
        side_lay.addWidget(self.nbest_list, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.scroll)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([700, 300])
        self.splitter = splitter

        self.alpha_slider = QSlider(Qt.Orientation.Horizontal)
        self.alpha_slider.setRange(0, round(ALPHA_MAX / ALPHA_STEP))
        self.alpha_slider.setValue(round(DEFAULT_ALPHA / ALPHA_STEP))
        self.alpha_slider.setToolTip(self.tr("Sampling sharpness: paths are drawn with probability ∝ P(path)^α; "
                                             "α → 0 samples almost uniformly, large α approaches Viterbi"))
        self.alpha_label = QLabel()
        self.alpha_label.setMinimumWidth(QFontMetricsF(self.alpha_label.font()).horizontalAdvance("α = 0.00 ") + 4)
        self.alpha_slider.valueChanged.connect(self._show_alpha)
        self.seed_spin = QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.seed_spin.setToolTip(self.tr("The seed of the next roll; it counts up after each roll"))
        self.reroll_button = QPushButton(self.tr("Re-roll"))
        self.reroll_button.clicked.connect(self.reroll)
        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("Sample")))
        controls.addWidget(self.alpha_slider, 1)
        controls.addWidget(self.alpha_label)
        controls.addWidget(QLabel(self.tr("seed")))
        controls.addWidget(self.seed_spin)
        controls.addWidget(self.reroll_button)
        self.sample_label = QLabel()
        self.sample_label.setFont(ui_font(10))
        self.sample_label.setWordWrap(True)
        self.sample_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.hide()

        lay = QVBoxLayout(self)
        lay.addWidget(self.edit)
        lay.addWidget(splitter, 1)
        lay.addWidget(self.note)
        lay.addLayout(controls)
        lay.addWidget(self.sample_label)
        self._show_alpha()
        self.set_model(model)

    # ---- public API ---------------------------------------------------------------------------
    def set_model(self, model: UnigramModel | None) -> None:
        """Show the lattices of ``model`` (None: a hint to train one); the text stays."""
        self.model = model
        self._rebuild(self.text)

    def set_text(self, text: str) -> None:
        """Show the lattice of ``text`` now (the text box follows without a second rebuild)."""
        self._debounce.stop()
        self.edit.blockSignals(True)
        self.edit.setText(text)
        self.edit.blockSignals(False)
        self._rebuild(text)

    @property
    def lattice(self) -> Lattice | None:
        """The lattice shown (None without a model or text)."""
        return self.canvas.lattice

    def apply_font_scale(self) -> None:
        """Follow :func:`tokviz.ui.fonts.set_scale`: larger type gets wider cells and taller lanes."""
        self.edit.setFont(ui_font(11))
        self.nbest_list.setFont(ui_font(10))
        self.sample_label.setFont(ui_font(10))
        self.canvas.relayout()
        QTimer.singleShot(0, self._show_characters)

    def alpha(self) -> float:
        """The sampling α the slider is set to."""
        return round(self.alpha_slider.value() * ALPHA_STEP, 10)

    def set_alpha(self, alpha: float) -> None:
        """Move the slider to ``alpha`` (rounded to its step, clamped to its range)."""
        self.alpha_slider.setValue(round(alpha / ALPHA_STEP))

    def viterbi_pieces(self) -> list[str]:
        """The pieces of the highlighted Viterbi path."""
        lat = self.canvas.lattice
        return self._pieces(lat, lat.viterbi) if lat else []

    def nbest_rows(self) -> list[tuple[list[str], float]]:
        """The n-best list as shown: each row's pieces and log-probability."""
        return [(pieces, score) for _, pieces, score in self._nbest]

    def sample_result(self) -> tuple[list[str], float, float, int] | None:
        """The last roll: its pieces, log-probability, α and seed (None before the first roll)."""
        return self._sample[1:] if self._sample else None

    def reroll(self) -> list[str]:
        """Sample a segmentation with the slider's α and the seed box's seed, as
        ``UnigramModel.sample(text, alpha, seed)`` does; then count the seed up. Returns the pieces."""
        lat = self.canvas.lattice
        if lat is None or self.model is None:
            return []
        alpha, seed = self.alpha(), self.seed_spin.value()
        path = lat.sample(alpha, random.Random(seed))
        pieces = self._pieces(lat, path)
        self._sample = (path, pieces, lat.path_score(path), alpha, seed)
        self.canvas.set_sampled(path)
        self._show_sample()
        self.seed_spin.setValue(seed + 1 if seed < self.seed_spin.maximum() else 0)
        self.pathsChanged.emit()
        return pieces

    # ---- internals ----------------------------------------------------------------------------
    def _pieces(self, lat: Lattice, path) -> list[str]:
        # the model's own Encoding of the path, so consecutive <unk> join exactly as in encode()
        return [t.raw for t in self.model.path_encoding(lat, path).tokens]

    def _rebuild(self, text: str) -> None:
        self.text = text
        self.cut = False
        self._sample = None
        self._nbest = []
        self.nbest_list.blockSignals(True)
        self.nbest_list.clear()
        self.nbest_list.blockSignals(False)
        self.sample_label.clear()
        self.note.clear()
        self.note.hide()
        if self.model is None:
            self.canvas.set_lattice(None, self.tr("Train a Unigram model to see its lattice."))
        elif not text.strip():
            self.canvas.set_lattice(None, self.tr("Type a word or a line to see every way the model can segment it."))
        else:
            shown = text
            if len(text) > MAX_CHARS:
                cut = text.rfind(" ", 0, MAX_CHARS + 1)
                shown = text[:cut] if cut > 0 else text[:MAX_CHARS]
                self.cut = True
                self.note.setText(self.tr("Showing the first {n} of {total} characters.").format(
                    n=len(shown), total=len(text)))
                self.note.show()
            self.text = shown
            lat = self.model.lattice(shown)
            self.canvas.set_lattice(lat)
            # a tall lattice scrolls: keep the characters and the segmentations (the bottom) in view
            QTimer.singleShot(0, self._show_characters)
            for rank, (path, score) in enumerate(lat.nbest(self.k_spin.value()), 1):
                pieces = self._pieces(lat, path)
                self._nbest.append((path, pieces, score))
                item = QListWidgetItem(f"{rank}.  {log_prob_text(score)}   {' | '.join(pieces)}")
                item.setToolTip(self.tr("log P = {lp}").format(lp=log_prob_text(score)))
                self.nbest_list.addItem(item)
            if self._nbest:
                self.nbest_list.item(0).setForeground(VITERBI_COLOR)
        self.pathsChanged.emit()

    def _show_characters(self) -> None:
        bar = self.scroll.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _on_row(self, row: int) -> None:
        if 0 <= row < len(self._nbest):
            self.canvas.set_selected(self._nbest[row][0])
        else:
            self.canvas.set_selected(())
        self.pathsChanged.emit()

    def _show_alpha(self) -> None:
        self.alpha_label.setText(f"α = {self.alpha():.2f}")

    def _show_sample(self) -> None:
        if self._sample is None:
            self.sample_label.clear()
            return
        _, pieces, score, alpha, seed = self._sample
        self.sample_label.setText(self.tr("Sample (α = {alpha}, seed {seed}): {pieces}   log P = {lp}").format(
            alpha=f"{alpha:.2f}", seed=seed, pieces=" | ".join(pieces), lp=log_prob_text(score)))
