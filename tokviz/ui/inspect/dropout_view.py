"""BPE-dropout in the Inspector: one re-rollable sample, and how often each boundary appears.

Shown when the selected encoder can skip merges (:func:`tokviz.core.dropout.supports_dropout`:
tokviz's own BPE models, trained in the Train panel or opened from a tokviz, subword-nmt or GPT-2
file), and, once the user asks (Inspect → Try BPE-dropout on a rank vocabulary), for a byte-level
rank vocabulary (cl100k_base, o200k_base, Llama 3/4, tekken) through its recovered merges
(:func:`tokviz.core.vocab.export.with_dropout`): recovering them costs seconds once per encoder, and
the Inspector's default encoder is one, so the view does not take its room unasked. A dropout
probability P (slider), a seed and a Re-roll button pick one segmentation
(``encoder.encode_dropout``); P = 0 is exactly the plain encoding, P = 1 leaves the base tokens.
Under it, a strip over the text's bytes::

    안        녕                 text, each character over its UTF-8 bytes
    [EC 95][88][EB 85 95]        this sample's tokens (same colours as the token view)
     ▮  ▂  █  ▁                  share of N samples with a token boundary at that byte

The bars are :func:`tokviz.core.dropout.boundary_frequencies` over N seeded samples; a boundary the
plain encoding also has is drawn in the highlight colour (blue), one that only dropout makes orange.
Both the sample and the statistics are computed in a worker (a :class:`~tokviz.ui.common.work.Channel`, latest wins).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.display import hex_bytes, shown_piece, visible_piece
from tokviz.core.dropout import BoundaryStats, boundary_frequencies, supports_dropout
from tokviz.core.encoding import Encoding
from tokviz.core.vocab.export import dropout_by_recovery, with_dropout
from tokviz.ui import fonts, theme
from tokviz.ui.common.work import WorkService
from tokviz.ui.token_colors import text_color_on, token_colors

# The dropout view works on the start of a longer text (cut at a space): 200 samples of 500 Korean
# characters take about 1.3 s with a 500-merge byte BPE (2,000 characters: 5 s), and the strip shows
# about that much anyway.
MAX_CHARS = 500
DRAWN_BYTES = 1_600  # the strip draws this many bytes (500 Hangul syllables are 1,500)
DEFAULT_SAMPLES = 200
DEBOUNCE_MS = 120


def dropout_text(text: str, limit: int = MAX_CHARS) -> str:
    """The part of ``text`` the dropout view encodes: all of it, or its start cut at the last
    whitespace before ``limit`` characters (so no word is cut in two).

    >>> dropout_text("ab cd ef", 6)
    'ab cd '
    """
    if len(text) <= limit:
        return text
    cut = max(text.rfind(" ", 0, limit), text.rfind("\n", 0, limit))
    return text[: cut + 1] if cut > 0 else text[:limit]


def token_text(token) -> str:
    """What the strip writes under a token's id: its piece (jamo recomposed where they form syllables),
    the jamo a jamo model's token holds of a syllable it cuts, else its bytes in hex.

    >>> from tokviz.core.encoding import Token
    >>> token_text(Token(1, b"\\xec\\x95", 0, 2, 0, 1, True))
    'EC 95'
    >>> token_text(Token(2, "\\u1100\\u1161".encode(), 0, 2, 0, 1, True))  # ᄀ ᅡ of a cut syllable
    '가'
    """
    if token.piece is not None:
        return shown_piece(token.piece)
    try:
        return shown_piece(token.bytes.decode("utf-8"))
    except UnicodeDecodeError:
        return hex_bytes(token.bytes)


@dataclass(frozen=True)
class DropoutResult:
    """One request's outcome: the sample, the statistics over many samples, and what was asked."""

    text: str
    p: float
    seed: int
    samples: int
    sample: Encoding
    stats: BoundaryStats | None  # None while the samples are still being counted


class _CancelOnly:
    """A task state for merge recovery: it may be cancelled; its progress is not the view's."""

    def __init__(self, state):
        self._state = state

    def is_cancelled(self) -> bool:
        return self._state is not None and self._state.is_cancelled()

    def progress(self, done: int, total: int) -> None:
        pass


def sample_and_count(encoder, text: str, p: float, seed: int, samples: int, allow_special: bool = False,
                     state=None) -> DropoutResult | None:
    """The sample for ``seed`` and the boundary statistics over ``samples`` samples (worker side).

    The statistics use seeds derived from ``seed`` (:func:`boundary_frequencies`), so one seed gives
    one picture. With a task ``state`` the sample is reported first (a re-roll shows at once, the
    bars follow); None when cancelled between the two.
    """
    if not supports_dropout(encoder):  # a rank vocabulary: through its recovered merges (cached)
        encoder = with_dropout(encoder, _CancelOnly(state))
    sample = encoder.encode_dropout(text, p, seed=seed, allow_special=allow_special)
    if state is not None:
        if state.is_cancelled():
            return None
        state.progress(0, 1, DropoutResult(text, p, seed, samples, sample, None))
    stats = boundary_frequencies(encoder, text, p=p, samples=samples, seed=seed, allow_special=allow_special)
    return DropoutResult(text, p, seed, samples, sample, stats)


class BoundaryStrip(QWidget):
    """The text over its bytes, the sample's tokens and the boundary bars, wrapped to the width."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMouseTracking(True)
        self.result: DropoutResult | None = None
        self.colors: list[QColor] = []
        self._col_w = 14.0
        self._rows: list[tuple[int, int, float]] = []  # (first byte, end byte, y)
        self._bars: list[tuple[QRectF, str]] = []
        self._char_bytes: list[tuple[int, int, str]] = []  # (byte start, byte end, char)
        self._refresh_fonts()

    def _refresh_fonts(self) -> None:
        # enlarged fonts (presentation mode) grow the glyphs by half the scale only: the strip sits
        # between the token view and the byte layers and must leave both their room
        s = fonts.scale()
        damped = (1 + (s - 1) * 0.5) / s if s > 1 else 1.0
        self._glyph = fonts.ui_font(15 * damped)
        self._mono = fonts.mono_font(9.5 * max(damped, 0.85))
        # a one-byte token's id (three digits) and hex stay readable in their own column
        self._col_w = max(18.0, QFontMetricsF(self._mono).horizontalAdvance("000") + 6)

    def set_result(self, result: DropoutResult | None, dark: bool = False) -> None:
        self.result = result
        self.colors = token_colors(result.sample.ids, dark=dark) if result is not None else []
        self._char_bytes = []
        if result is not None:
            pos = 0
            for ch in result.text:
                n = len(ch.encode("utf-8", "surrogatepass"))
                if pos + n > DRAWN_BYTES:
                    break
                self._char_bytes.append((pos, pos + n, ch))
                pos += n
        self._refresh_fonts()
        self._lay_out(self.width())
        self.updateGeometry()
        self.update()

    def drawn_bytes(self) -> int:
        return self._char_bytes[-1][1] if self._char_bytes else 0

    def bar_heights(self) -> dict[int, float]:
        """Bar height (0..1) at each byte offset drawn: the share of samples with a boundary there."""
        if self.result is None or self.result.stats is None:
            return {}
        end = self.drawn_bytes()
        return {b: self.result.stats.frequency(b) for b in self.result.stats.counts if 0 < b < end}

    def _band_heights(self) -> tuple[float, float, float]:
        glyph = QFontMetricsF(self._glyph).height()
        token = QFontMetricsF(self._mono).height() * 2 + 6
        return glyph, token, 34.0

    def _row_height(self) -> float:
        return sum(self._band_heights()) + 14

    def _lay_out(self, width: int) -> int:
        """Rows of whole characters that fit ``width``; returns the height they need."""
        self._rows = []
        cols = max(8, int((max(width, 200) - 8) // self._col_w))
        y = 2.0
        start = None
        for b0, b1, ch in self._char_bytes:
            if start is None:
                start = b0
            if b1 - start > cols or ch == "\n":
                if b0 > start:
                    self._rows.append((start, b0, y))
                    y += self._row_height()
                start = b0
        if start is not None and self._char_bytes and self._char_bytes[-1][1] > start:
            self._rows.append((start, self._char_bytes[-1][1], y))
            y += self._row_height()
        return int(y) + 2

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        rows = list(self._rows)
        h = self._lay_out(width)
        self._rows = rows
        return h

    def sizeHint(self) -> QSize:
        return QSize(600, self.heightForWidth(max(self.width(), 600)))

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._lay_out(self.width())

    def paintEvent(self, event) -> None:  # noqa: N802
        if self.result is None:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        fg = pal.color(QPalette.ColorRole.Text)
        dim = QColor(fg)
        dim.setAlphaF(0.55)
        plain_color = pal.color(QPalette.ColorRole.Highlight)
        extra_color = QColor("#e07b39")  # a boundary only dropout makes: warm, apart from the plain ones
        glyph_h, token_h, bar_h = self._band_heights()
        gfm = QFontMetricsF(self._glyph)
        mfm = QFontMetricsF(self._mono)
        stats = self.result.stats
        self._bars = []
        for r0, r1, y in self._rows:
            x_of = lambda b, r0=r0: 4 + (b - r0) * self._col_w  # noqa: E731
            # characters over their bytes
            p.setFont(self._glyph)
            for b0, b1, ch in self._char_bytes:
                if b0 < r0 or b1 > r1:
                    continue
                label = visible_piece(ch)
                p.setPen(fg)
                p.drawText(QRectF(x_of(b0), y, x_of(b1) - x_of(b0), glyph_h), Qt.AlignmentFlag.AlignCenter,
                           gfm.elidedText(label, Qt.TextElideMode.ElideRight, x_of(b1) - x_of(b0) + 8))
            # the sample's tokens
            ty = y + glyph_h + 2
            for i, t in enumerate(self.result.sample.tokens):
                b0, b1 = max(t.byte_start, r0), min(t.byte_end, r1)
                if b1 <= b0:
                    continue
                rect = QRectF(x_of(b0) + 1, ty, x_of(b1) - x_of(b0) - 2, token_h)
                bg = self.colors[i] if i < len(self.colors) else QColor("#cccccc")
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(bg)
                p.drawRoundedRect(rect, 3, 3)
                p.setPen(text_color_on(bg))
                p.setFont(self._mono)
                p.drawText(QRectF(rect.x(), ty + 2, rect.width(), mfm.height()), Qt.AlignmentFlag.AlignCenter,
                           mfm.elidedText(str(t.id), Qt.TextElideMode.ElideRight, rect.width()))
                p.drawText(QRectF(rect.x(), ty + 2 + mfm.height(), rect.width(), mfm.height()),
                           Qt.AlignmentFlag.AlignCenter,
                           mfm.elidedText(token_text(t),
                                          Qt.TextElideMode.ElideRight, rect.width()))
            # boundary bars
            by = ty + token_h + 4
            p.setPen(QPen(dim, 1))
            p.drawLine(int(x_of(r0)), int(by + bar_h), int(x_of(r1)), int(by + bar_h))
            if stats is None:
                continue  # still counting: the sample alone
            for b in range(r0 + 1, r1):
                f = stats.frequency(b)
                if f <= 0:
                    continue
                h = max(2.0, f * bar_h)
                x = x_of(b)
                rect = QRectF(x - 3, by + bar_h - h, 6, h)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(plain_color if b in stats.plain else extra_color)
                p.drawRect(rect)
                self._bars.append((rect.adjusted(-3, -(bar_h - h), 3, 0), self.tr(
                    "byte {offset}: a boundary in {n} of {samples} samples ({share:.0%}){plain}").format(
                    offset=b, n=stats.counts.get(b, 0), samples=stats.samples, share=f,
                    plain=self.tr(", and in the plain encoding") if b in stats.plain else "")))

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        pos = event.position()
        for rect, tip in self._bars:
            if rect.contains(pos):
                QToolTip.showText(event.globalPosition().toPoint(), tip, self)
                return
        QToolTip.hideText()


class DropoutView(QWidget):
    """P slider, seed, Re-roll and samples; the sample and the boundary strip (see the module doc).

    ``compact``: the title and P on one row, seed, Re-roll and samples on two rows under it that fold
    away with the title (the Train panel's probe sits in a third of a 1024×768 window)."""

    updated = Signal()  # a new result is shown (tests wait on it)

    def __init__(self, parent: QWidget | None = None, *, compact: bool = False, work: WorkService | None = None):
        """``work``: the window's service (the Inspector passes its session's); a view made on its
        own runs on a service of its own."""
        super().__init__(parent)
        self.compact = compact
        self.encoder = None
        self.text = ""
        self.allow_special = False
        # rank vocabularies get dropout through recovered merges once the user asks (allow_recovery)
        self.recovery_allowed = False
        self._offered: tuple = (None, "", False)  # the Inspector's last encoder and text, shown or not
        self.result: DropoutResult | None = None
        # a superseded count (it cannot be interrupted) lends its pool thread: the next one is not held up
        self._tasks = (work if work is not None else WorkService(self)).channel(self, "dropout")
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self.recompute)

        box = QVBoxLayout(self)
        box.setContentsMargins(0, 4, 0, 2)
        row = QHBoxLayout()
        # the title folds the sample and the bars away (a short projector screen needs the room)
        self.title = QToolButton()
        self.title.setText(self.tr("BPE-dropout"))
        self.title.setCheckable(True)
        self.title.setChecked(True)
        self.title.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.title.setArrowType(Qt.ArrowType.DownArrow)
        self.title.setAutoRaise(True)
        self.title.setToolTip(self.tr("Show or hide the sample and the boundary bars"))
        self.title.toggled.connect(self._on_expanded)
        row.addWidget(self.title)
        row.addWidget(QLabel(self.tr("P")))
        self.p_slider = QSlider(Qt.Orientation.Horizontal)
        self.p_slider.setRange(0, 100)
        self.p_slider.setValue(10)
        self.p_slider.setMinimumWidth(90 if compact else 160)
        self.p_slider.setToolTip(self.tr("Probability of skipping each applicable merge (0: plain encoding, "
                                         "1: base tokens only)"))
        self.p_slider.valueChanged.connect(self._on_p)
        row.addWidget(self.p_slider)
        self.p_label = QLabel()
        self.p_label.setMinimumWidth(40)
        row.addWidget(self.p_label)
        self.more_controls: QWidget | None = None  # compact: the rows under the first, folded with the title
        if compact:
            box.addLayout(row)
            self.more_controls = QWidget()
            more = QVBoxLayout(self.more_controls)
            more.setContentsMargins(0, 0, 0, 0)
            box.addWidget(self.more_controls)
            row = QHBoxLayout()
            more.addLayout(row)
        else:
            row.addSpacing(8)
        row.addWidget(QLabel(self.tr("Seed")))
        self.seed_spin = QSpinBox()
        self.seed_spin.setRange(0, 999_999)
        self.seed_spin.valueChanged.connect(self._debounce.start)
        row.addWidget(self.seed_spin)
        self.reroll_button = QPushButton(self.tr("Re-roll"))
        self.reroll_button.setToolTip(self.tr("Next seed: another dropout sample of the same text"))
        self.reroll_button.clicked.connect(self.reroll)
        row.addWidget(self.reroll_button)
        if compact:
            row.addStretch(1)
            row = QHBoxLayout()
            more.addLayout(row)
        else:
            row.addSpacing(8)
        row.addWidget(QLabel(self.tr("Samples")))
        self.samples_spin = QSpinBox()
        self.samples_spin.setRange(1, 10_000)
        self.samples_spin.setValue(DEFAULT_SAMPLES)
        self.samples_spin.setToolTip(self.tr("How many dropout samples the boundary bars count"))
        self.samples_spin.valueChanged.connect(self._debounce.start)
        row.addWidget(self.samples_spin)
        row.addStretch(1)
        if not compact:
            box.addLayout(row)
        self.summary = QLabel()  # one line, elided to the width (the whole sentence in its tooltip)
        self._summary_text = ""
        box.addWidget(self.summary)
        self.strip = BoundaryStrip()
        # two rows of the strip at most: the token view above keeps its room; more rows scroll
        self.strip_scroll = QScrollArea()
        self.strip_scroll.setWidget(self.strip)
        self.strip_scroll.setWidgetResizable(True)
        self.strip_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.strip_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        box.addWidget(self.strip_scroll)
        self._on_p(self.p_slider.value(), start=False)
        self.refresh_fonts()
        self._fit_strip()
        self.hide()

    def refresh_fonts(self) -> None:
        for w in (self.summary, self.p_label):
            w.setFont(fonts.ui_font(10.5))
        bold = fonts.ui_font(10.5)
        bold.setBold(True)
        self.title.setFont(bold)
        self.strip.set_result(self.result, theme.is_dark())
        if self.layout() is not None:
            self._fit_strip()

    @property
    def p(self) -> float:
        return self.p_slider.value() / 100

    def _on_p(self, value: int, start: bool = True) -> None:
        self.p_label.setText(f"{value / 100:.2f}")
        if start:
            self._debounce.start()

    def set_source(self, encoder, text: str, allow_special: bool = False) -> None:
        """The Inspector's encoder and (encoded) text; the view hides for an encoder without dropout."""
        self._offered = (encoder, text, allow_special)
        recovered = self.recovery_allowed and encoder is not None and dropout_by_recovery(encoder)
        if encoder is None or not (supports_dropout(encoder) or recovered):
            self.encoder = None
            self._tasks.cancel()
            self.hide()
            return
        changed = encoder is not self.encoder or text != self.text or allow_special != self.allow_special
        self.encoder, self.text, self.allow_special = encoder, text, allow_special
        self.show()
        if changed:
            self.recompute()

    def allow_recovery(self) -> None:
        """Offer dropout for rank vocabularies too (through their recovered merges), from now on."""
        self.recovery_allowed = True
        self.title.setChecked(True)
        self.set_source(*self._offered)

    def reroll(self) -> None:
        """Another sample: the next seed."""
        self.seed_spin.setValue((self.seed_spin.value() + 1) % (self.seed_spin.maximum() + 1))
        self.recompute()

    def recompute(self) -> None:
        """Sample and count in the worker for the current P, seed and samples (latest wins)."""
        self._debounce.stop()
        if self.encoder is None:
            return
        encoder, p, seed, n, special = self.encoder, self.p, self.seed_spin.value(), self.samples_spin.value(), \
            self.allow_special
        text = dropout_text(self.text)
        self._set_summary(self.tr("Sampling…"))
        self._tasks.start(lambda state: sample_and_count(encoder, text, p, seed, n, special, state),
                          finished=self._on_result, failed=self._on_failed, progressed=self._on_sample)

    def busy(self) -> bool:
        return self._tasks.busy or self._debounce.isActive()

    def _on_failed(self, message: str) -> None:
        self._set_summary(message)

    def _on_sample(self, payload) -> None:
        """The sample, before the bars: drawn at once (a re-roll must feel immediate)."""
        result = payload[2]
        self.strip.set_result(result, theme.is_dark())
        self._set_summary(self.tr("P = {p:.2f}, seed {seed}: {n} tokens; counting boundaries over {samples} "
                                  "samples…").format(p=result.p, seed=result.seed, n=len(result.sample.tokens),
                                                     samples=result.samples))

    def _on_result(self, result: DropoutResult | None) -> None:
        if result is None:
            return
        self.result = result
        self.strip.set_result(result, theme.is_dark())
        plain = len(result.stats.plain) + (1 if result.text else 0)
        parts = [self.tr("P = {p:.2f}, seed {seed}: {n} tokens (plain encoding: {plain}); over {samples} samples "
                         "{mean:.1f} tokens on average. Bars: share of samples with a boundary at that byte "
                         "(blue: the plain encoding has it too; orange: only dropout makes it).").format(
            p=result.p, seed=result.seed, n=len(result.sample.tokens), plain=plain, samples=result.samples,
            mean=result.stats.mean_tokens())]
        if len(result.text) < len(self.text):
            parts.append(self.tr("(the first {n} characters)").format(n=f"{len(result.text):,}"))
        if self.strip.drawn_bytes() < len(result.text.encode("utf-8", "surrogatepass")):
            parts.append(self.tr("The strip shows the first {n} bytes.").format(n=self.strip.drawn_bytes()))
        self._set_summary(" ".join(parts))
        self._fit_strip()
        self.updated.emit()

    def expanded(self) -> bool:
        return self.title.isChecked()

    def _on_expanded(self, on: bool) -> None:
        self.title.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.summary.setVisible(on)
        self.strip_scroll.setVisible(on)
        if self.more_controls is not None:
            self.more_controls.setVisible(on)
        self._fit_strip()

    def _set_summary(self, text: str) -> None:
        self._summary_text = text
        self.summary.setToolTip(text)
        self._elide_summary()

    def _elide_summary(self) -> None:
        fm = QFontMetricsF(self.summary.font())
        self.summary.setText(fm.elidedText(self._summary_text, Qt.TextElideMode.ElideRight, max(self.width(), 200) - 8))

    def _fit_strip(self) -> None:
        """One row of the strip in sight (the token view above keeps its room; more rows scroll), and
        the view's height fixed to its parts, so the panel's splitter cannot squeeze the strip away."""
        # always one row's room, result or not: the height only changes with the fonts, so the panel
        # fits its splitter once when the view appears, not again when a sample arrives
        strip_h = int(self.strip._row_height() + 6) + 2
        self.strip_scroll.setFixedHeight(strip_h)
        margins = self.layout().contentsMargins()
        controls = max(self.p_slider.sizeHint().height(), self.seed_spin.sizeHint().height(),
                       self.reroll_button.sizeHint().height(), self.title.sizeHint().height())
        if self.more_controls is not None:  # compact: P on the first row, the rest under it when unfolded
            controls = max(self.p_slider.sizeHint().height(), self.title.sizeHint().height())
            if self.expanded():
                controls += self.layout().spacing() + self.more_controls.sizeHint().height()
        spacing = self.layout().spacing()
        details = self.summary.sizeHint().height() + strip_h + 2 * spacing if self.expanded() else 0
        self.setFixedHeight(margins.top() + margins.bottom() + controls + details)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._elide_summary()
        self._fit_strip()

    def sample_bytes(self) -> list[str]:
        """The shown sample's tokens as hex (tests read what is shown)."""
        return [hex_bytes(t.bytes) for t in self.result.sample.tokens] if self.result is not None else []

    def shutdown(self) -> None:
        self._debounce.stop()
        self._tasks.close()  # a count still running is dropped, never waited for
