"""The corpus-sample view: one paragraph per sample line, updated line by line.

Re-laying out the whole document for every frame (``setHtml``) costs ~100 ms for 40 lines of
coloured Hangul, far over the GUI's stall budget while training runs. Here only the lines whose
pieces changed are replaced (one block of the QTextDocument each), and the pieces are inserted as
formatted text runs rather than HTML, which Qt would have to parse first.
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtGui import QColor, QFont, QTextBlockFormat, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextBrowser


class Run(NamedTuple):
    """A stretch of a line drawn with one format: ``bg`` "" = no background (text between words);
    ``sub`` a small subscript after the text (the number of byte tokens of a split character)."""

    text: str
    bg: str = ""
    fg: str = ""
    bold: bool = False
    sub: str = ""


class TokenLinesView(QTextBrowser):
    """Read-only lines of coloured runs; ``set_line(i, runs)`` replaces one line in place."""

    LINE_GAP = 6.0

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self._lines: list[tuple[Run, ...] | str] = []
        self._formats: dict[tuple, QTextCharFormat] = {}

    def set_plain_lines(self, lines: list[str]) -> None:
        """Replace everything with uncoloured lines (new sample, reset)."""
        self._lines = list(lines)
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
        for run in runs:
            cur.insertText(run.text, self._format(run, False))
            if run.sub:
                cur.insertText(run.sub, self._format(run, True))
        cur.endEditBlock()

    def first_visible_line(self) -> int:
        return max(0, self.cursorForPosition(self.viewport().rect().topLeft()).blockNumber())
