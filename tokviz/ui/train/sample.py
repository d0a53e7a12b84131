"""The corpus-sample view: one paragraph per sample line, updated line by line.

Re-laying out the whole document for every frame (``setHtml``) costs ~100 ms for 40 lines of
coloured Hangul, far over the GUI's stall budget while training runs. Here only the lines whose
pieces changed are replaced (one block of the QTextDocument each), and the pieces are inserted as
formatted text runs rather than HTML, which Qt would have to parse first.

A run can be marked (``mark``): it has the same colour as its left neighbour (a repeated piece, a
palette collision), and the view cuts a 2 px gap of the page colour at both of its edges, so the
two never read as one piece. (The Inspector's cells already stand apart and get an outline there;
in running text an outline around a one-character piece looked like a stray cursor.)
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFont, QPainter, QTextBlockFormat, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextBrowser


class Run(NamedTuple):
    """A stretch of a line drawn with one format: ``bg`` "" = no background (text between words);
    ``sub`` a small subscript after the text (the number of byte tokens of a split character);
    ``mark`` gaps at its edges (same background as the run before it: see :func:`mark_runs`)."""

    text: str
    bg: str = ""
    fg: str = ""
    bold: bool = False
    sub: str = ""
    mark: bool = False


def mark_runs(runs: list[Run]) -> list[Run]:
    """``runs`` with ``mark`` set where a run would merge with its left neighbour: in every stretch
    of touching runs with the same background, every other run (the rule of ``token_marks``, applied
    to what is drawn, so two orange fresh pieces are told apart too). A run after a subscript needs
    none: the subscript already ends its neighbour (two grey split characters, ``토₃크₃``).

    >>> [r.mark for r in mark_runs([Run("ab", "#fff"), Run("ab", "#fff"), Run(" "), Run("ab", "#fff")])]
    [False, True, False, False]
    >>> [r.mark for r in mark_runs([Run("토", "#ddd", sub="3"), Run("크", "#ddd", sub="3")])]
    [False, False]
    """
    out: list[Run] = []
    for run in runs:
        prev = out[-1] if out else None
        mark = bool(run.bg) and prev is not None and prev.bg == run.bg and not prev.mark and not prev.sub
        out.append(run._replace(mark=mark) if mark != run.mark else run)
    return out


def _utf16_len(text: str) -> int:
    """Length in QString units (an emoji outside the BMP counts two)."""
    return len(text.encode("utf-16-le")) // 2


class TokenLinesView(QTextBrowser):
    """Read-only lines of coloured runs; ``set_line(i, runs)`` replaces one line in place."""

    LINE_GAP = 6.0

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self._lines: list[tuple[Run, ...] | str] = []
        self._formats: dict[tuple, QTextCharFormat] = {}
        # line -> (start, end, pen) of its marked runs, in QString units within the block
        self._marks: dict[int, list[tuple[int, int, QColor]]] = {}
        # line -> (its block's revision and wrapping, the marks' outlines within the block): placing a
        # mark asks the line's layout for x positions (~0.1 ms a line), which every repaint of the
        # lines no frame changed asked again (half the view's paint)
        self._outlines: dict[int, tuple[tuple, list[tuple[QRectF, QColor]]]] = {}

    def set_plain_lines(self, lines: list[str]) -> None:
        """Replace everything with uncoloured lines (new sample, reset)."""
        self._lines = list(lines)
        self._marks.clear()
        self._outlines.clear()
        bar = self.verticalScrollBar()
        pos = bar.value()
        self.setPlainText("\n".join(lines))
        cur = QTextCursor(self.document())
        cur.select(QTextCursor.SelectionType.Document)
        fmt = QTextBlockFormat()
        fmt.setBottomMargin(self.LINE_GAP)
        cur.mergeBlockFormat(fmt)
        bar.setValue(pos)

    def line_count(self) -> int:
        return len(self._lines)

    def line_runs(self, i: int):
        return self._lines[i]

    def _format(self, run: Run, sub: bool) -> QTextCharFormat:
        key = (run.bg, run.fg, run.bold, sub)
        fmt = self._formats.get(key)
        if fmt is None:
            fmt = QTextCharFormat()
            if run.bg:
                fmt.setBackground(QColor(run.bg))
            if run.fg:
                fmt.setForeground(QColor(run.fg))
            if run.bold:
                fmt.setFontWeight(QFont.Weight.Bold)
            if sub:
                fmt.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignSubScript)
            self._formats[key] = fmt
        return fmt

    def clear_formats(self) -> None:
        """Forget cached formats (theme change)."""
        self._formats.clear()

    def set_line(self, i: int, runs: tuple[Run, ...]) -> None:
        """Replace line ``i`` (a no-op when its runs are unchanged)."""
        if self._lines[i] == runs:
            return
        block = self.document().findBlockByNumber(i)
        if not block.isValid():
            return
        self._lines[i] = runs
        cur = QTextCursor(block)
        cur.beginEditBlock()
        cur.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
        cur.removeSelectedText()
        marks = []
        pos = 0
        for run in runs:
            cur.insertText(run.text, self._format(run, False))
            if run.sub:
                cur.insertText(run.sub, self._format(run, True))
            end = pos + _utf16_len(run.text) + _utf16_len(run.sub)
            if run.mark:
                marks.append((pos, end, QColor(run.fg) if run.fg else self.palette().text().color()))
            pos = end
        cur.endEditBlock()
        self._outlines.pop(i, None)
        if marks:
            self._marks[i] = marks
        else:
            self._marks.pop(i, None)

    def mark_rects(self, i: int) -> list[QRectF]:
        """Where the outlines of line ``i``'s marked runs go, in viewport coordinates (one rectangle
        per wrapped line a run covers)."""
        return [rect for rect, _pen in self._mark_outlines(i)]

    def _line_rect(self, i: int) -> QRectF:
        """Line ``i``'s block in viewport coordinates (empty when there is no such line)."""
        block = self.document().findBlockByNumber(i)
        if not block.isValid():
            return QRectF()
        rect = self.document().documentLayout().blockBoundingRect(block)
        return rect.translated(-self.horizontalScrollBar().value(), -self.verticalScrollBar().value())

    def _mark_outlines(self, i: int) -> list[tuple[QRectF, QColor]]:
        block = self.document().findBlockByNumber(i)
        if not block.isValid() or i not in self._marks:
            return []
        layout = block.layout()
        origin = self.document().documentLayout().blockBoundingRect(block).topLeft()
        shift = QPointF(origin.x() - self.horizontalScrollBar().value(), origin.y() - self.verticalScrollBar().value())
        # the block's text and wrapping (its width, its lines) as the outlines were placed for
        wrapped = (block.revision(), self.viewport().width(), layout.lineCount(), self.font().key())
        kept = self._outlines.get(i)
        if kept is None or kept[0] != wrapped:
            kept = self._outlines[i] = (wrapped, self._place_marks(i, layout))
        return [(rect.translated(shift), pen) for rect, pen in kept[1]]

    def _place_marks(self, i: int, layout) -> list[tuple[QRectF, QColor]]:
        """The outlines of line ``i``'s marked runs within its block: one per wrapped line a run covers."""
        out = []
        for a, b, pen in self._marks[i]:
            for k in range(layout.lineCount()):
                line = layout.lineAt(k)
                lo, hi = max(a, line.textStart()), min(b, line.textStart() + line.textLength())
                if lo >= hi:
                    continue
                x0, x1 = line.cursorToX(lo), line.cursorToX(hi)
                if isinstance(x0, tuple):  # some PySide6 versions return (x, cursorPos)
                    x0, x1 = x0[0], x1[0]
                out.append((QRectF(min(x0, x1), line.y(), abs(x1 - x0), line.height()), pen))
        return out

    MARK_GAP = 2.0  # px of page colour cut at each edge of a marked run

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        if not self._marks:
            return
        p = QPainter(self.viewport())
        page = self.viewport().palette().base().color()
        view = QRectF(event.rect())  # the part repainted: a frame that changed a few lines repaints those
        gap = self.MARK_GAP
        for i in self._marks:
            if not self._line_rect(i).intersects(view):
                continue  # (placing a line's marks asks its layout for every run's x: only where it shows)
            for rect, _pen in self._mark_outlines(i):
                if rect.intersects(view):
                    # a gap on each side: from the same-coloured run before it and the one after
                    p.fillRect(QRectF(rect.left() - gap / 2, rect.top(), gap, rect.height()), page)
                    p.fillRect(QRectF(rect.right() - gap / 2, rect.top(), gap, rect.height()), page)
        p.end()

    def first_visible_line(self) -> int:
        return max(0, self.cursorForPosition(self.viewport().rect().topLeft()).blockNumber())

    def last_visible_line(self) -> int:
        return max(0, self.cursorForPosition(self.viewport().rect().bottomLeft()).blockNumber())

    def visible_line_count(self) -> int:
        """Lines of text (as wrapped on screen) wholly inside the viewport: what a room can read."""
        top = self.verticalScrollBar().value()
        bottom = top + self.viewport().height()
        layout = self.document().documentLayout()
        count = 0
        block = self.document().begin()
        while block.isValid():
            y0 = layout.blockBoundingRect(block).top()
            lines = block.layout()
            for i in range(lines.lineCount()):
                line = lines.lineAt(i)
                if top <= y0 + line.y() and y0 + line.y() + line.height() <= bottom:
                    count += 1
            if y0 > bottom:
                break
            block = block.next()
        return count
