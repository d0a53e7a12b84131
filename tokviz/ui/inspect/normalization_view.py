"""The normalization view: which characters a normalization form changed, and into what.

Under the Inspector's toolbar while a form other than "none" is chosen. Each change is a card::

    ①      →  1          ㈜       →  (주)        ㅋ       →  ᄏ
    U+2460    U+0031     U+3239      U+0028 ...   U+314B      U+110F

with the character's position; above the cards the text itself with every changed cluster marked.
The changes come from :func:`tokviz.core.normalization.changes` (one per grapheme cluster), found in
a worker for a long text. Each side of a card is drawn one code point at a time, so conjoining jamo
(``한`` → ``ᄒ ᅡ ᆫ`` under NFD) stay apart instead of being shaped back into the syllable they make.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import QHBoxLayout, QLabel, QScrollArea, QToolButton, QToolTip, QVBoxLayout, QWidget

from tokviz.core.display import piece_marker, visible_piece
from tokviz.core.normalization import Change, changes
from tokviz.ui import fonts
from tokviz.ui.common.work import WorkService

MAX_CARDS = 200  # more cards than this say nothing more; the summary counts them all
CONTEXT_CHARS = 600  # the marked text shows this much of the start of the text
WORKER_CHARS = 5_000  # longer texts are compared in a worker


@dataclass(frozen=True)
class NormalizationReport:
    """What the view shows for one text and form: the changes (all of them) and the text."""

    text: str
    form: str
    changes: tuple[Change, ...]
    changed_chars: int = 0  # characters of the text inside a change (counted in the worker: NFD of a
    # Korean paste makes millions of changes, too many to add up on the GUI thread)


def find_changes(text: str, form: str, is_cancelled=lambda: False) -> NormalizationReport | None:
    """The report for ``text`` under ``form`` (``"none"``: no changes); None when cancelled.

    >>> [(c.before, c.after) for c in find_changes("①㈜ㅋ", "NFKC").changes]
    [('①', '1'), ('㈜', '(주)'), ('ㅋ', 'ᄏ')]
    """
    if form == "none" or not text:
        return NormalizationReport(text, form, ())
    found = changes(text, form)
    if is_cancelled():
        return None
    return NormalizationReport(text, form, tuple(found), sum(c.end - c.start for c in found))


def code_points_line(s: str) -> str:
    """``U+2460`` for each code point of ``s``, space separated."""
    return " ".join(f"U+{ord(c):04X}" for c in s)


def shown_points(s: str) -> list[str]:
    """The code points of ``s`` as drawn on a card, one glyph each: invisible ones as their marker
    (core.display), combining marks on a dotted circle."""
    out = []
    for ch in s:
        marker = piece_marker(ch)
        out.append(marker if marker is not None else visible_piece(ch))
    return out


def marked_text_html(report: NormalizationReport, highlight: QColor, limit: int = CONTEXT_CHARS) -> str:
    """The start of the text as rich text, each changed cluster on the highlight colour and
    followed by a small superscript with its card's number."""
    text = report.text[:limit]
    parts = []
    pos = 0
    bg = highlight.name()
    for n, change in enumerate(report.changes, 1):
        if change.start >= limit:
            break
        parts.append(html.escape(visible_piece(text[pos:change.start])))
        parts.append(f'<span style="background:{bg}"><b>{html.escape(visible_piece(change.before))}</b></span>'
                     f"<sup>{n}</sup>" if n <= MAX_CARDS else
                     f'<span style="background:{bg}">{html.escape(visible_piece(change.before))}</span>')
        pos = change.end
    parts.append(html.escape(visible_piece(text[pos:])))
    more = "…" if len(report.text) > limit else ""
    return "".join(parts).replace("↵", "↵<br>") + more


class ChangeCards(QWidget):
    """The changes as cards, wrapped into rows to the view's width."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMouseTracking(True)
        self.changes: tuple[Change, ...] = ()
        self._cards: list[tuple[QRectF, Change, int]] = []
        self._refresh_fonts()

    def _refresh_fonts(self) -> None:
        self._big = fonts.ui_font(17)
        self._small = fonts.mono_font(8.5)
        self._num = fonts.ui_font(8)

    def set_changes(self, found: tuple[Change, ...]) -> None:
        self.changes = found[:MAX_CARDS]
        self._refresh_fonts()
        self._lay_out(self.width())
        self.updateGeometry()
        self.update()

    def card_labels(self) -> list[str]:
        """``① → 1`` for every card drawn (tests and accessibility read what is shown)."""
        return [f"{c.before} → {c.after}" for _, c, _ in self._cards]

    def _side_width(self, s: str) -> float:
        big = QFontMetricsF(self._big)
        glyphs = sum(big.horizontalAdvance(g) for g in shown_points(s)) + 4 * max(0, len(s) - 1)
        return max(glyphs, QFontMetricsF(self._small).horizontalAdvance(code_points_line(s)))

    def _card_size(self, change: Change) -> QSize:
        arrow = QFontMetricsF(self._big).horizontalAdvance(" → ")
        w = self._side_width(change.before) + arrow + self._side_width(change.after) + 20
        h = QFontMetricsF(self._big).height() + QFontMetricsF(self._small).height() + \
            QFontMetricsF(self._num).height() + 10
        return QSize(int(w), int(h))

    def _lay_out(self, width: int) -> int:
        self._cards = []
        x = y = 4.0
        row_h = 0.0
        width = max(width, 200)
        for n, change in enumerate(self.changes, 1):
            size = self._card_size(change)
            if x > 4 and x + size.width() > width - 4:
                x, y = 4.0, y + row_h + 6
                row_h = 0.0
            self._cards.append((QRectF(x, y, size.width(), size.height()), change, n))
            x += size.width() + 6
            row_h = max(row_h, size.height())
        return int(y + row_h + 4) if self._cards else 0

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        cards = list(self._cards)
        h = self._lay_out(width)
        self._cards = cards
        return h

    def sizeHint(self) -> QSize:
        return QSize(600, self.heightForWidth(max(self.width(), 600)))

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._lay_out(self.width())

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        fg = pal.color(QPalette.ColorRole.Text)
        dim = QColor(fg)
        dim.setAlphaF(0.65)
        hl = QColor(pal.color(QPalette.ColorRole.Highlight))
        big = QFontMetricsF(self._big)
        num_h = QFontMetricsF(self._num).height()
        for rect, change, n in self._cards:
            p.setPen(QPen(hl, 1.5))
            p.setBrush(pal.color(QPalette.ColorRole.Base))
            p.drawRoundedRect(rect, 5, 5)
            p.setFont(self._num)
            p.setPen(dim)
            p.drawText(QRectF(rect.x() + 6, rect.y() + 2, rect.width() - 12, num_h), Qt.AlignmentFlag.AlignLeft,
                       f"{n} · [{change.start}, {change.end})")
            x = rect.x() + 10
            y = rect.y() + 2 + num_h
            for side, arrow in ((change.before, True), (change.after, False)):
                w = self._side_width(side)
                gx = x
                p.setFont(self._big)
                p.setPen(fg)
                glyphs = shown_points(side)
                total = sum(big.horizontalAdvance(g) for g in glyphs) + 4 * max(0, len(glyphs) - 1)
                gx = x + (w - total) / 2
                for g in glyphs:  # one code point at a time: jamo are not shaped into a syllable
                    p.drawText(QRectF(gx, y, big.horizontalAdvance(g) + 2, big.height()), Qt.AlignmentFlag.AlignLeft, g)
                    gx += big.horizontalAdvance(g) + 4
                p.setFont(self._small)
                p.setPen(dim)
                p.drawText(QRectF(x, y + big.height(), w, rect.bottom() - y - big.height()),
                           Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, code_points_line(side))
                x += w
                if arrow:
                    p.setFont(self._big)
                    p.setPen(hl)
                    aw = big.horizontalAdvance(" → ")
                    p.drawText(QRectF(x, y, aw, big.height()), Qt.AlignmentFlag.AlignCenter, "→")
                    x += aw

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        pos = event.position()
        for rect, change, _ in self._cards:
            if rect.contains(pos):
                points = f"{code_points_line(change.before)} → {code_points_line(change.after)}"
                QToolTip.showText(event.globalPosition().toPoint(), f"{change.label}\n{points}", self)
                return
        QToolTip.hideText()


class NormalizationView(QWidget):
    """The summary line, the marked text and the change cards for the Inspector's text and form."""

    shown = Signal()  # a report was shown (tests wait on it)

    def __init__(self, parent: QWidget | None = None, *, work: WorkService | None = None):
        """``work``: the window's service (the Inspector passes its session's); a view made on its
        own runs on a service of its own."""
        super().__init__(parent)
        self.report: NormalizationReport | None = None
        self._tasks = (work if work is not None else WorkService(self)).channel(self, "normalization")
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 2, 0, 2)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.marked = QLabel()
        self.marked.setTextFormat(Qt.TextFormat.RichText)
        self.marked.setWordWrap(True)
        self.cards = ChangeCards()
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.cards)
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        head = QHBoxLayout()
        # folds the marked text and the cards away, leaving the summary line
        self.fold = QToolButton()
        self.fold.setCheckable(True)
        self.fold.setChecked(True)
        self.fold.setArrowType(Qt.ArrowType.DownArrow)
        self.fold.setAutoRaise(True)
        self.fold.setToolTip(self.tr("Show or hide the marked text and the changes"))
        self.fold.toggled.connect(self._on_fold)
        head.addWidget(self.fold)
        head.addWidget(self.summary, 1)
        box.addLayout(head)
        box.addWidget(self.marked)
        box.addWidget(self.scroll)
        self.refresh_fonts()
        self.hide()

    def refresh_fonts(self) -> None:
        self.summary.setFont(fonts.ui_font(10.5))
        self.marked.setFont(fonts.ui_font(12))
        if self.report is not None and self.report.form != "none":
            self._show(self.report)

    def show_changes(self, text: str, form: str) -> None:
        """Find what ``form`` changes in ``text`` (in a worker for a long text) and show it; hidden
        for ``"none"``."""
        if form == "none":
            self._tasks.cancel()
            self.report = NormalizationReport(text, form, ())
            self.hide()
            self.shown.emit()
            return
        if len(text) <= WORKER_CHARS:
            self._show(find_changes(text, form))
            return
        self.summary.setText(self.tr("{form}: looking for changed characters…").format(form=form))
        self._tasks.start(lambda state: find_changes(text, form, state.is_cancelled), finished=self._on_found)

    def _on_found(self, report: NormalizationReport | None) -> None:
        if report is not None:
            self._show(report)

    def _show(self, report: NormalizationReport) -> None:
        self.report = report
        if report.form == "none":
            self.hide()
            self.shown.emit()
            return
        n = len(report.changes)
        if not n:
            self.summary.setText(self.tr("{form} changes nothing in this text.").format(form=report.form))
            self.marked.setText("")
            self.marked.hide()
            self.scroll.hide()
        else:
            count = self.tr("{form} changed {n} characters in {k} places; each is marked and numbered below.") \
                if n != 1 else self.tr("{form} changed {n} characters in {k} place; it is marked below.")
            self.summary.setText(count.format(form=report.form, n=f"{report.changed_chars:,}", k=f"{n:,}") + (
                " " + self.tr("The first {max} are shown as cards.").format(max=MAX_CARDS) if n > MAX_CARDS else ""))
            self.marked.setText(marked_text_html(report, self._mark_color()))
            self.marked.setVisible(self.fold.isChecked())
            self.cards.set_changes(report.changes)
            self.scroll.setVisible(self.fold.isChecked())
            self._fit_cards()
        self.show()
        self.shown.emit()

    def _on_fold(self, on: bool) -> None:
        self.fold.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        has_changes = self.report is not None and bool(self.report.changes)
        self.marked.setVisible(on and has_changes)
        self.scroll.setVisible(on and has_changes)

    def _fit_cards(self) -> None:
        """Room for the cards' rows at the view's width, two rows at most (more scroll)."""
        if self.report is None or not self.report.changes:
            return
        one_row = self.cards._card_size(self.report.changes[0]).height() + 6
        width = max(self.width(), 400) - 4
        self.scroll.setFixedHeight(int(min(self.cards.heightForWidth(width), 2 * one_row + 4)) + 2)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_cards()

    def _mark_color(self) -> QColor:
        """A tint of the highlight over the window colour (rich text has no alpha): the text on it
        stays in the window's own text colour, readable on a light and a dark theme."""
        pal = self.palette()
        hl, bg = pal.color(QPalette.ColorRole.Highlight), pal.color(QPalette.ColorRole.Window)
        k = 0.4
        return QColor.fromRgbF(*(k * a + (1 - k) * b for a, b in zip((hl.redF(), hl.greenF(), hl.blueF()),
                                                                         (bg.redF(), bg.greenF(), bg.blueF()),
                                                                         strict=True)))

    def card_labels(self) -> list[str]:
        return self.cards.card_labels()

    def shutdown(self) -> None:
        self._tasks.close()  # a search still running is dropped, never waited for
