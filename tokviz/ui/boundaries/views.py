"""The six sub-views of the Boundaries panel. Each renders one hazard's result (from
:mod:`tokviz.ui.boundaries.jobs`) and its job status, and sends intents back by signal; none stores the
truth or computes anything core computes.

Tokens are drawn like everywhere else: rows aligned on characters (Compare's :class:`AlignedRowsView`,
cut characters' bytes in hex) and id cells in the token's colour (:func:`token_color`).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSlider,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.boundaries.chat_turns import LOOKAHEAD, MERGE, REWRITE, STABLE
from tokviz.core.display import hex_bytes, visible_piece
from tokviz.ui.boundaries.jobs import NOTHING_TO_CHECK, NOTHING_TO_SPLIT, ONE_MESSAGE
from tokviz.ui.boundaries.model import Status
from tokviz.ui.compare.alignment import RowData, prepare_rows
from tokviz.ui.compare.rows import AlignedRowsView, error_color
from tokviz.ui.fonts import mono_font
from tokviz.ui.i18n import in_language
from tokviz.ui.theme import is_dark
from tokviz.ui.token_colors import text_color_on, token_color

ROW_COLORS = ("#1f77b4", "#d62728")  # the gutter bars of the two rows a view compares
ROW_POINTS = 12  # token rows, as in Compare (times the font scale)
# the jobs' own messages, translated where they are shown (the jobs know no Qt); core's carry their sentence
JOB_MESSAGES = {
    NOTHING_TO_CHECK: QT_TRANSLATE_NOOP("HazardView", "Nothing to check: type a text or paste token ids."),
    ONE_MESSAGE: QT_TRANSLATE_NOOP("HazardView", "A turn needs two messages: add one more."),
    NOTHING_TO_SPLIT: QT_TRANSLATE_NOOP(
        "HazardView", "No token here can be written as two vocabulary tokens: type a longer text."
    ),
}


def shown_message(message: str) -> str:
    """A job's failure as the interface says it: the jobs' own sentences and core's translated."""
    if message in JOB_MESSAGES:
        return QCoreApplication.translate("HazardView", JOB_MESSAGES[message]) or message
    return in_language(message)


def _mono(widget: QWidget, points: float) -> None:
    """Set ``widget`` in the monospace font at ``points`` (times the font scale), and remember the size so
    :meth:`HazardView.refresh_fonts` can follow a zoom."""
    widget.setProperty("monoPoints", points)
    widget.setFont(mono_font(points))


def _label(text: str = "", *, mono: bool = False, selectable: bool = True) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if mono:
        _mono(label, 11)
    return label


def char_of_byte(text: str, byte: int) -> int:
    """The index of the character holding UTF-8 byte ``byte`` of ``text``.

    >>> char_of_byte("a안b", 2), char_of_byte("a안b", 4)
    (1, 2)
    """
    return len(text.encode("utf-8")[:byte].decode("utf-8", "ignore"))


class HazardView(QWidget):
    """A sub-view: a status line (running, or why the hazard cannot be shown) above its own widgets."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(6, 6, 6, 6)
        self.status_label = _label()
        self.status_label.hide()
        self.box.addWidget(self.status_label)

    def show_status(self, status: Status) -> None:
        """Running: a note; failed: the reason, in the error colour; done or idle: nothing."""
        if status.kind == "failed":
            self.status_label.setStyleSheet(f"color: {error_color(self.palette()).name()};")
            self.status_label.setText(shown_message(status.message))
            self.status_label.show()
        elif status.kind == "running":
            self.status_label.setStyleSheet("")
            # named context: self.tr here would look the string up under the subclass's name
            self.status_label.setText(QCoreApplication.translate("HazardView", "Working…"))
            self.status_label.show()
        else:
            self.status_label.hide()

    def refresh_fonts(self) -> None:
        """Zoom or presentation mode: token rows and monospace texts at the new font scale."""
        for w in self.findChildren(QWidget):
            points = w.property("monoPoints")
            if points:
                w.setFont(mono_font(float(points)))
        for rows in self.findChildren(AlignedRowsView):
            rows.set_font_size(ROW_POINTS)

    def show_result(self, result) -> None:  # pragma: no cover - every view overrides it
        raise NotImplementedError


def _rows(view: AlignedRowsView, text: str, rows: list[tuple[str, object]]) -> None:
    data = [RowData(name, enc, color=QColor(ROW_COLORS[k % 2])) for k, (name, enc) in enumerate(rows)]
    # the applied theme, not the view's palette: a view on a hidden tab gets the new palette only after
    # the theme's signal, and kept the light colours on the dark theme
    view.set_prepared(prepare_rows(text, data, dark=is_dark()))


def _scrolled(view: AlignedRowsView) -> QScrollArea:
    """The rows in a scroll area: a long prompt's bands scroll instead of pushing the inputs off the panel."""
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setWidget(view)
    return scroll


def _id_item(token_id: int, dark: bool) -> QTableWidgetItem:
    item = QTableWidgetItem(str(token_id))
    color = token_color(token_id, dark=dark)
    item.setBackground(QBrush(color))
    item.setForeground(QBrush(text_color_on(color)))
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def _table(headers: list[str]) -> QTableWidget:
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    _mono(table, 10)
    return table


class CanonicalView(HazardView):
    """Given ids beside the encoder's own for the same text, the first divergence marked, and the other
    segmentations of the stretch where they differ."""

    splitRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        top = QHBoxLayout()
        self.summary = _label()
        top.addWidget(self.summary, 1)
        self.split_button = QPushButton(self.tr("Split a token"))
        self.split_button.setToolTip(
            self.tr("Write the longest token as two vocabulary tokens: the same text, ids the encoder never gives")
        )
        self.split_button.clicked.connect(self.splitRequested)
        top.addWidget(self.split_button, 0, Qt.AlignmentFlag.AlignTop)
        self.box.addLayout(top)
        self.rows = AlignedRowsView()
        self.box.addWidget(_scrolled(self.rows), 1)
        self.stretch_label = _label()
        self.box.addWidget(self.stretch_label)
        self.examples = QListWidget()
        _mono(self.examples, 10)
        self.box.addWidget(self.examples, 1)

    def show_result(self, result) -> None:
        self.examples.clear()
        if result is None:
            self.summary.clear()
            self.stretch_label.clear()
            _rows(self.rows, "", [])
            return
        check = result.check
        d = check.divergence
        if d is None:
            summary = self.tr("Canonical: {encoder} writes this text with exactly these {n} ids.").format(
                encoder=check.encoder, n=len(check.ids)
            )
        else:
            summary = self.tr(
                "Not canonical: the ids part from the encoder's at token {index} (byte {start}) and "
                "meet again at byte {end}; re-encoding the text gives {m} ids instead of {n}."
            ).format(index=d.index_a, start=d.byte_start, end=d.byte_end, m=len(check.canonical_ids), n=len(check.ids))
        if not check.valid_utf8:
            summary += " " + self.tr("The ids' bytes break off inside a character: no text encodes back to them.")
        self.summary.setText(summary)
        if result.given is not None:
            _rows(
                self.rows,
                result.given.text,
                [(self.tr("given ids"), result.given), (self.tr("canonical ids"), result.canonical)],
            )
            if d is not None:  # the first divergence: the tokens over its first character, in both rows
                self.rows.set_hovered_char(char_of_byte(result.given.text, d.byte_start))
        else:
            _rows(self.rows, "", [])
            if check.valid_utf8:
                self.summary.setText(
                    summary
                    + " "
                    + self.tr(
                        "The rows are left out: their text is too long to "
                        "align here, or the ids do not spell it byte for byte."
                    )
                )
        if d is None:
            self.stretch_label.clear()
            return
        stretch = visible_piece(d.stretch.decode("utf-8", "replace"))
        if d.segmentations is None:
            self.stretch_label.setText(
                self.tr("The differing stretch {stretch} is {n} bytes long: its segmentations are not counted.").format(
                    stretch=stretch, n=len(d.stretch)
                )
            )
            return
        self.stretch_label.setText(
            self.tr("{count} segmentations of {stretch} by the vocabulary; the shortest {listed}:").format(
                count=f"{d.segmentations:,}", stretch=stretch, listed=len(d.examples)
            )
        )
        canonical = tuple(check.canonical_ids[d.index_b : d.end_b])
        given = tuple(check.ids[d.index_a : d.end_a])
        for seq in d.examples:
            mark = (
                "  ← " + self.tr("canonical")
                if seq == canonical
                else ("  ← " + self.tr("given") if seq == given else "")
            )
            pieces = " │ ".join(result.pieces.get(i, "?") for i in seq)
            self.examples.addItem(f"{' '.join(map(str, seq))}   {pieces}{mark}")


class StreamView(HazardView):
    """A model's ids replayed token by token: what an incremental UTF-8 decoder prints, beside a decoder
    that decodes each token on its own (and prints ``�`` for every piece of a character)."""

    playRequested = Signal()
    pauseRequested = Signal()
    stepRequested = Signal()
    resetRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        buttons = QHBoxLayout()
        self.play_button = QPushButton(self.tr("▶ Play"))
        self.step_button = QPushButton(self.tr("Step"))
        self.reset_button = QPushButton(self.tr("Reset"))
        for b in (self.play_button, self.step_button, self.reset_button):
            buttons.addWidget(b)
        self.position = _label(selectable=False)
        buttons.addWidget(self.position, 1)
        self.box.addLayout(buttons)
        self.play_button.clicked.connect(self._play_clicked)
        self.step_button.clicked.connect(self.stepRequested)
        self.reset_button.clicked.connect(self.resetRequested)
        grid = QGridLayout()
        self.incremental = _label(mono=True)
        self.naive = _label(mono=True)
        self.pending = _label(mono=True)
        grid.addWidget(
            _label(self.tr("Incremental decoder prints:"), selectable=False), 0, 0, Qt.AlignmentFlag.AlignTop
        )
        grid.addWidget(self.incremental, 0, 1)
        grid.addWidget(_label(self.tr("Pending bytes:"), selectable=False), 1, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.pending, 1, 1)
        grid.addWidget(_label(self.tr("Naive decoder prints:"), selectable=False), 2, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.naive, 2, 1)
        grid.setColumnStretch(1, 1)
        self.box.addLayout(grid)
        self.table = _table(
            [
                self.tr("#"),
                self.tr("id"),
                self.tr("token bytes"),
                self.tr("incremental prints"),
                self.tr("pending"),
                self.tr("naive prints"),
            ]
        )
        self.box.addWidget(self.table, 1)
        self._steps: tuple = ()
        self._total = 0
        self._playing = False

    def _play_clicked(self) -> None:
        (self.pauseRequested if self._playing else self.playRequested).emit()

    def set_playing(self, playing: bool) -> None:
        self._playing = playing
        self.play_button.setText(self.tr("⏸ Pause") if playing else self.tr("▶ Play"))

    def show_result(self, result) -> None:
        self._steps = result.steps if result is not None else ()
        self._total = result.total if result is not None else 0
        self.table.setRowCount(0)
        self.show_cursor(0)

    def show_cursor(self, cursor: int) -> None:
        """The replay after ``cursor`` tokens: both printers' output so far and one table row per token."""
        steps = self._steps[:cursor]
        self.incremental.setText(visible_piece("".join(s.emitted for s in steps)))
        self.naive.setText(visible_piece("".join(s.naive for s in steps)))
        self.pending.setText(hex_bytes(steps[-1].pending) if steps and steps[-1].pending else self.tr("(none)"))
        self.position.setText(self.tr("token {k} of {n}").format(k=cursor, n=len(self._steps)))
        if self._total > len(self._steps):
            self.position.setText(
                self.position.text()
                + " "
                + self.tr("(the first {n:,} of {total:,})").format(n=len(self._steps), total=self._total)
            )
        self.step_button.setEnabled(cursor < len(self._steps))
        self.play_button.setEnabled(bool(self._steps))
        shown = self.table.rowCount()
        if cursor < shown:
            self.table.setRowCount(cursor)
            return
        dark = is_dark()
        self.table.setRowCount(cursor)
        for k in range(shown, cursor):
            s = self._steps[k]
            self.table.setItem(k, 0, QTableWidgetItem(str(k + 1)))
            self.table.setItem(k, 1, _id_item(s.id, dark))
            self.table.setItem(k, 2, QTableWidgetItem(hex_bytes(s.bytes)))
            self.table.setItem(k, 3, QTableWidgetItem(visible_piece(s.emitted)))
            self.table.setItem(k, 4, QTableWidgetItem(hex_bytes(s.pending)))
            self.table.setItem(k, 5, QTableWidgetItem(visible_piece(s.naive)))
        if cursor:
            self.table.scrollToItem(self.table.item(cursor - 1, 0))

    def printed(self) -> str:
        """What the incremental decoder has printed so far, as shown (tests, scripts)."""
        return self.incremental.text()


class HealView(HazardView):
    """Token healing: the prompt's last tokens backed up, and the tokens that may replace them."""

    backChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Tokens to back up")))
        self.back_spin = QSpinBox()
        self.back_spin.setRange(1, 16)
        self.back_spin.valueChanged.connect(self.backChanged)
        row.addWidget(self.back_spin)
        row.addStretch(1)
        self.box.addLayout(row)
        grid = QGridLayout()
        self.removed = _label(mono=True)
        self.healed = _label(mono=True)
        self.count = _label()
        grid.addWidget(_label(self.tr("Removed:"), selectable=False), 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.removed, 0, 1)
        grid.addWidget(_label(self.tr("Healed prompt:"), selectable=False), 1, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.healed, 1, 1)
        grid.setColumnStretch(1, 1)
        self.box.addLayout(grid)
        self.box.addWidget(self.count)
        self.table = _table([self.tr("id"), self.tr("token")])
        self.box.addWidget(self.table, 1)

    def show_result(self, result) -> None:
        self.table.setRowCount(0)
        if result is None:
            for label in (self.removed, self.healed, self.count):
                label.clear()
            return
        h = result.healing
        self.removed.setText(
            self.tr("{text}  ({hex})  ids {ids}").format(
                text=" │ ".join(p for _, p in result.removed),
                hex=hex_bytes(h.removed_bytes),
                ids=" ".join(str(i) for i, _ in result.removed),
            )
        )
        self.healed.setText(
            self.tr("{text}  ids {ids}").format(
                text=visible_piece(result.healed_text), ids=" ".join(map(str, h.kept_ids)) or "—"
            )
        )
        count = self.tr(
            "{n} vocabulary tokens start with the removed bytes; the model picks the next token among "
            "them. The first {k} by id (merge order):"
        ).format(n=f"{h.candidates:,}", k=len(result.sample))
        if h.cuts_character:
            count += " " + self.tr("The healed prompt ends inside a character: back up one token more.")
        self.count.setText(count)
        dark = is_dark()
        self.table.setRowCount(len(result.sample))
        for k, (token_id, piece) in enumerate(result.sample):
            self.table.setItem(k, 0, _id_item(token_id, dark))
            self.table.setItem(k, 1, QTableWidgetItem(piece))


class TurnsView(HazardView):
    """Prefix stability: does the prompt of turn n+1 start with the tokens of turn n's prompt?"""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.summary = _label()
        self.box.addWidget(self.summary)
        self.table = _table(
            [self.tr("turn"), self.tr("tokens reused"), self.tr("why"), self.tr("turn n's tokens → turn n+1's")]
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.itemSelectionChanged.connect(self._show_turn)
        self.box.addWidget(self.table, 1)
        self.rows = AlignedRowsView()
        self.rows_scroll = _scrolled(self.rows)
        self.box.addWidget(self.rows_scroll, 2)
        self._turns: tuple = ()
        self.box.addWidget(
            _label(
                self.tr(
                    "Merge: a token of the longer prompt runs over the end of the shorter one. Retokenized: the text "
                    "is a prefix, but its last tokens split otherwise once text follows (a pre-tokenizer looking "
                    "ahead at whitespace). Rewritten: the template changes earlier turns (it drops a thinking "
                    "block, say). Each breaks a KV cache kept from turn n."
                ),
                selectable=False,
            )
        )

    def reason(self, reason: str) -> str:
        return {
            STABLE: self.tr("stable"),
            MERGE: self.tr("merge across the boundary"),
            LOOKAHEAD: self.tr("retokenized before the boundary"),
            REWRITE: self.tr("template rewrites earlier turns"),
        }.get(reason, reason)

    def show_result(self, result) -> None:
        self.table.setRowCount(0)
        self._turns = result.turns if result is not None else ()
        if result is None:
            self.summary.clear()
            _rows(self.rows, "", [])
            return
        turns = result.turns
        broken = [t for t in turns if t.error is None and not t.stable]
        self.summary.setText(
            self.tr("{broken} of {n} turn boundaries break the token prefix.").format(broken=len(broken), n=len(turns))
        )
        self.table.setRowCount(len(turns))
        err = error_color(self.palette())
        for k, t in enumerate(turns):
            if t.error is not None:
                reused, why, change = "—", self.tr("not rendered: {error}").format(error=in_language(t.error)), ""
            else:
                reused = f"{t.common:,} / {len(t.earlier.encoding):,}"
                why = self.reason(t.reason)
                change = (
                    ""
                    if t.stable
                    else "{}  →  {}".format(
                        " │ ".join(result.pieces.get(i, "?") for i in t.before) or "∅",
                        " │ ".join(result.pieces.get(i, "?") for i in t.after) or "∅",
                    )
                )
            for col, value in enumerate((str(t.turn), reused, why, change)):
                item = QTableWidgetItem(value)
                if not t.stable:
                    item.setForeground(QBrush(err))
                self.table.setItem(k, col, item)
        # the first turn that breaks the prefix, else the first: its two prompts aligned below
        first = next((k for k, t in enumerate(turns) if t.error is None and not t.stable), 0)
        if turns:
            self.table.selectRow(first)
        self._show_turn()

    def _show_turn(self) -> None:
        """The prompts of the selected turn and the next, aligned on the later one's characters, with
        the boundary marked (rows only when the earlier prompt's text is a prefix of the later one's)."""
        rows = self.table.selectionModel().selectedRows()
        k = rows[0].row() if rows else -1
        t = self._turns[k] if 0 <= k < len(self._turns) else None
        if t is None or t.earlier is None or t.later is None or not t.later.text.startswith(t.earlier.text):
            _rows(self.rows, "", [])
            return
        _rows(
            self.rows,
            t.later.text,
            [
                (self.tr("turn {n}").format(n=t.turn), t.earlier.encoding),
                (self.tr("turn {n}").format(n=t.turn + 1), t.later.encoding),
            ],
        )
        boundary = len(t.earlier.text) - 1 if t.earlier.text else 0
        self.rows.set_hovered_char(boundary)  # the earlier prompt's last character: where the tokens part
        # the band after the boundary too: where the later prompt's merged token goes on
        self.rows_scroll.ensureVisible(0, int(self.rows.char_center(boundary).y()) + 60, 0, 100)

    def cells(self) -> list[list[str]]:
        """The table's text, row by row (tests, scripts)."""
        return [
            [self.table.item(r, c).text() for c in range(self.table.columnCount())]
            for r in range(self.table.rowCount())
        ]


class InjectionView(HazardView):
    """The same conversation encoded safely (special-token strings in contents stay text) and as a
    pipeline that parses specials in content would, with the injected control tokens marked."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.summary = _label()
        self.box.addWidget(self.summary)
        self.rows = AlignedRowsView()
        self.box.addWidget(_scrolled(self.rows), 1)

    def show_result(self, result) -> None:
        if result is None:
            self.summary.clear()
            _rows(self.rows, "", [])
            return
        found = result.injection
        safe, unsafe = found.safe.encoding, found.unsafe.encoding
        if found.injected:
            names = ", ".join(
                self.tr("{token} in message {m}").format(token=t, m=m + 1)
                for t, (_k, m) in zip(result.injected_text, found.injected, strict=True)
            )
            text = self.tr(
                "{n} control tokens injected through message content: {names}. Safe: {safe} tokens; "
                "parsed: {parsed} tokens."
            ).format(n=len(found.injected), names=names, safe=len(safe), parsed=len(unsafe))
            self.summary.setStyleSheet(f"color: {error_color(self.palette()).name()};")
        else:
            text = self.tr(
                "No message content holds a special token of this encoder: both prompts are the same "
                "{n} tokens. Try a message with <|im_end|> or <|eot_id|>."
            ).format(n=len(safe))
            self.summary.setStyleSheet("")
        self.summary.setText(text)
        _rows(
            self.rows,
            safe.text,
            [(self.tr("safe (content as text)"), safe), (self.tr("parsed (specials in content)"), unsafe)],
        )
        if found.injected:  # the first injected token and the text tokens the safe prompt has there
            self.rows.set_hovered_char(unsafe.tokens[found.injected[0][0]].start)


class CutView(HazardView):
    """A token budget: where the first N tokens end, what they print, and what the cut breaks."""

    budgetChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Keep the first")))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.spin = QSpinBox()
        self.spin.setSuffix(self.tr(" tokens"))
        for w in (self.slider, self.spin):
            w.setRange(0, 1)
            w.valueChanged.connect(self._changed)
        row.addWidget(self.slider, 1)
        row.addWidget(self.spin)
        self.safe_button = QPushButton(self.tr("Go to the safe cut"))
        self.safe_button.clicked.connect(lambda: self._changed(self._safe))
        row.addWidget(self.safe_button)
        self.box.addLayout(row)
        self.rows = AlignedRowsView()
        self.box.addWidget(_scrolled(self.rows), 1)
        grid = QGridLayout()
        self.kept = _label(mono=True)
        self.verdict = _label()
        self.safe = _label()
        grid.addWidget(_label(self.tr("The first N tokens print:"), selectable=False), 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.kept, 0, 1)
        grid.addWidget(_label(self.tr("The cut:"), selectable=False), 1, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.verdict, 1, 1)
        grid.addWidget(_label(self.tr("Nearest safe cut:"), selectable=False), 2, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.safe, 2, 1)
        grid.setColumnStretch(1, 1)
        self.box.addLayout(grid)
        self.box.addStretch(1)
        self._safe = 0

    def set_budget(self, budget: int) -> None:
        for w in (self.slider, self.spin):
            if w.maximum() < budget:
                w.setMaximum(budget)
            w.blockSignals(True)
            w.setValue(budget)
            w.blockSignals(False)

    def _changed(self, value: int) -> None:
        self.set_budget(value)
        self.budgetChanged.emit(value)

    def show_result(self, result) -> None:
        if result is None:
            for label in (self.kept, self.verdict, self.safe):
                label.clear()
            _rows(self.rows, "", [])
            return
        cut = result.cut
        for w in (self.slider, self.spin):
            w.blockSignals(True)
            w.setMaximum(max(cut.total, 1))
            w.setValue(min(cut.tokens, cut.total))
            w.blockSignals(False)
        self.kept.setText(
            visible_piece(cut.kept_text)
            + (
                "  " + self.tr("(left out: {hex})").format(hex=hex_bytes(cut.dropped_bytes))
                if cut.dropped_bytes
                else ""
            )
        )
        parts = []
        if cut.splits_character:
            parts.append(self.tr("splits a character"))
        if cut.splits_grapheme:
            parts.append(self.tr("splits the grapheme {g}").format(g=visible_piece(cut.grapheme or "")))
        if cut.splits_word:
            parts.append(self.tr("splits a word"))
        where = self.tr("{n} of {total} tokens, byte {byte}").format(
            n=min(cut.tokens, cut.total), total=cut.total, byte=cut.byte_end
        )
        self.verdict.setText(where + ": " + (", ".join(parts) if parts else self.tr("breaks nothing")))
        self.verdict.setStyleSheet(f"color: {error_color(self.palette()).name()};" if parts else "")
        self._safe = cut.safe_tokens
        self.safe.setText(
            self.tr("{n} tokens print {text}; {w} tokens end on a word boundary.").format(
                n=cut.safe_tokens, text=visible_piece(cut.safe_text) or "∅", w=cut.word_tokens
            )
        )
        self.safe_button.setEnabled(cut.safe_tokens != min(cut.tokens, cut.total))
        if result.kept is None:  # a long text: the labels say it all
            _rows(self.rows, "", [])
            return
        _rows(
            self.rows,
            result.encoding.text,
            [(self.tr("every token"), result.encoding), (self.tr("first N tokens"), result.kept)],
        )

    def kept_text(self) -> str:
        """What the kept tokens print, as shown (tests, scripts)."""
        return self.kept.text()
