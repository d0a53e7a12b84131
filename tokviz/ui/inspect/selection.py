"""The Inspector's selection: the selected tokens marked in the editor, their byte layers and details,
and the split between token view and byte layers fitted to the fonts and the screen (compact rows on a
short projector screen)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontMetricsF, QPalette, QTextCursor
from PySide6.QtWidgets import QTextEdit

from tokviz.ui import fonts, theme
from tokviz.ui.inspect.byte_layers import Layers, build_layers
from tokviz.ui.inspect.describe import selection_details
from tokviz.ui.inspect.views import CountsBar

translate = QCoreApplication.translate  # the panel's translation context, named in each call


class TokenSelection:
    """The selection and its byte layers (mixed into InspectPanel; the strings are InspectPanel's)."""

    def select_tokens(self, first: int, last: int | None = None) -> None:
        self.token_view.select_tokens(first, last)

    def _on_selection(self, first: int, last: int) -> None:
        self.state.select(None if first < 0 else (first, last))
        self._show_layers(None if first < 0 else (first, last))
        self._mark_in_editor(None if first < 0 else (first, last))

    def _mark_in_editor(self, selection: tuple[int, int] | None) -> None:
        """Highlight the selected tokens' characters in the editor (without moving its cursor)."""
        enc = self._encoding()
        marks = []
        if (
            selection is not None
            and enc is not None
            and self.input_tabs.currentWidget() is self.editor
            and self.result.request.normalization == "none"
        ):
            a, b = selection
            start, end = enc.tokens[a].start, max(enc.tokens[b].end, enc.tokens[a].start)
            to_units = self.exact_text.document_position  # emoji count two, CRLF one
            sel = QTextEdit.ExtraSelection()
            sel.cursor = QTextCursor(self.editor.document())
            sel.cursor.setPosition(to_units(start))
            sel.cursor.setPosition(to_units(end), QTextCursor.MoveMode.KeepAnchor)
            # a pale tint of the highlight on a light theme, a deep one on a dark theme (the text stays readable)
            hl = self.palette().color(QPalette.ColorRole.Highlight)
            sel.format.setBackground(hl.darker(180) if theme.is_dark() else hl.lighter(170))
            marks.append(sel)
        self.editor.setExtraSelections(marks)

    def _show_layers(self, selection: tuple[int, int] | None) -> None:
        enc = self.result.encoding if self.result is not None else None
        if enc is None or not enc.text:
            self.layers_view.set_layers(Layers(), [])
            self.layers_title.setText(translate("InspectPanel", "Byte layers"))
            self.details.setText("")
            return
        self.details.setText(selection_details(enc, selection))
        if selection is not None and selection[1] < len(enc.tokens):
            a, b = selection
            c0 = enc.tokens[a].start
            c1 = max(enc.tokens[b].end, c0 + 1 if enc.tokens[b].end <= c0 else enc.tokens[b].end)
            c1 = min(c1, len(enc.text))
            what = (
                translate("InspectPanel", "tokens {first}–{last} of {total}")
                if b > a
                else translate("InspectPanel", "token {first} of {total}")
            ).format(first=a + 1, last=b + 1, total=f"{len(enc.tokens):,}")
        else:
            c0, c1 = 0, len(enc.text)
            what = translate("InspectPanel", "the beginning of the text (click a token to choose)")
        layers = build_layers(enc, c0, c1)
        colors = self.result.colors
        self.layers_view.set_layers(layers, colors, selection, self.result.marks)
        shown = enc.text[layers.char_start : layers.char_end]
        more = " " + translate("InspectPanel", "(first bytes only)") if layers.truncated else ""
        title = (
            translate(
                "InspectPanel",
                "<b>Byte layers</b> — {what}: {n} code point, {bytes} UTF-8 bytes{more}. "
                "Each byte is owned by exactly one token (same colours as above).",
            )
            if len(shown) == 1
            else translate(
                "InspectPanel",
                "<b>Byte layers</b> — {what}: {n} code points, {bytes} UTF-8 bytes{more}. "
                "Each byte is owned by exactly one token (same colours as above).",
            )
        )
        self.layers_title.setText(title.format(what=what, n=len(shown), bytes=layers.columns, more=more))
        self._fit_layers()  # after the caption: its wrapped height counts
        span = self.layers_view.selection_x_range()
        if span is not None and span[1] - span[0] > self.layers_scroll.viewport().width() - 80:
            self.layers_scroll.horizontalScrollBar().setValue(max(0, int(span[0]) - 40))  # wide: show its start
        elif span is not None:
            self.layers_scroll.ensureVisible(int((span[0] + span[1]) / 2), 10, int((span[1] - span[0]) / 2) + 40, 0)
        else:
            self.layers_scroll.horizontalScrollBar().setValue(0)

    def _fit_layers(self) -> None:
        """Give the byte layers the height their rows need (large fonts in presentation mode), as
        long as the token view keeps a useful part of the panel. When the full rows would leave the
        token view fewer than three lines of cells (a 1366x768 projector in presentation mode), the
        layers switch to their compact rows, so the token ids and three token lines both fit."""
        sizes = self.split.sizes()
        total = sum(sizes)
        if total <= 0:
            return
        lv = self.layers_view
        scrollbar = (
            self.layers_scroll.horizontalScrollBar().sizeHint().height()
            if lv.sizeHint().width() > self.layers_scroll.width()
            else 0
        )
        # the caption wraps: its height at the panel's width (its sizeHint assumes a narrow label)
        title_h = self.layers_title.heightForWidth(max(self.split.width(), 400))
        extra = title_h + scrollbar + 12
        tv = self.token_view
        lines = tv.lines_height(min(3, max(1, tv.line_count())))
        # from quantities that hold while the counts move between layouts: the frame, and the counts
        # bar's one-row height (not the token view's viewport, whose new height comes later)
        chrome = tv.height() - tv.viewport().height()
        under_tokens = self._middle.spacing() + self.counts_row_height()
        # only with enlarged fonts: at normal size the full rows take 64% at most (1280x720) and the
        # details column keeps its room for the selection's table
        if self.split.user_sized:
            # the user's sizes stay; only the rows adapt: compact when the full ones do not fit
            self._set_compact(fonts.scale() > 1 and lv.height_for(False) + extra > sizes[1])
            return
        compact = fonts.scale() > 1 and lv.height_for(False) + extra > total - (chrome + under_tokens + lines)
        self._set_compact(compact)
        top_need = chrome + lines + (0 if compact else under_tokens)
        needed = lv.sizeHint().height() + extra
        if sizes[1] < needed:
            # up to 64%: at 1280x720 (and 1920x1080 in presentation mode) every row down to the
            # token ids fits, and the token view above keeps about three rows of tokens
            needed = min(needed, int(total * 0.64))
            # never below what the tokens' side needs (the dropout strip has a fixed height there)
            needed = min(needed, max(0, total - self.split.widget(0).minimumSizeHint().height()))
            self.split.setSizes([total - needed, needed])
        elif sizes[0] < top_need and sizes[1] > needed:
            # the layers have more than their rows need and the token lines are cut: give it back
            self.split.setSizes([total - max(needed, total - top_need), max(needed, total - top_need)])

    def counts_row_height(self) -> int:
        """Height of the counts bar in its one-row form (under the token view) at the current scale."""
        if self.counts.columns == len(CountsBar.FIELDS):
            return self.counts.sizeHint().height()
        return int(QFontMetricsF(fonts.ui_font(16)).height() + QFontMetricsF(fonts.ui_font(9)).height()) + 6

    def _set_compact(self, on: bool) -> None:
        """Compact look for a short screen: compact layer rows, and the counts move from under the
        token view to the column beside the layers, where the details leave room."""
        self.layers_view.set_compact(on)
        if on == (self.counts.columns < len(CountsBar.FIELDS)):
            return
        if on:
            self._middle.removeWidget(self.counts)
            self._side.insertWidget(0, self.counts)
            self.counts.set_columns(4)
        else:
            self._side.removeWidget(self.counts)
            self._middle.addWidget(self.counts)
            self.counts.set_columns(len(CountsBar.FIELDS))
