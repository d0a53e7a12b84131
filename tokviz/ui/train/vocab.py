"""The learned-vocabulary table: one row per merge up to the current step, grown and shrunk in
batches (one beginInsertRows for many rows) so 10k rows stay fast, with a search box."""

from __future__ import annotations

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor

from tokviz.core.bpe.events import MergeStep
from tokviz.core.bpe.model import END_OF_WORD
from tokviz.core.byte_names import CharGuesser, byte_parts
from tokviz.core.display import hex_bytes, shown_piece, visible_piece  # noqa: F401 (render, tree use them)
from tokviz.core.jamo import recompose
from tokviz.ui.fonts import mono_font
from tokviz.ui.token_colors import token_color

# header titles, translated when shown (the English names stay the columns' identifiers)
COLUMNS = (QT_TRANSLATE_NOOP("VocabModel", "rank"), QT_TRANSLATE_NOOP("VocabModel", "token"),
           QT_TRANSLATE_NOOP("VocabModel", "bytes (hex)"), QT_TRANSLATE_NOOP("VocabModel", "count"),
           QT_TRANSLATE_NOOP("VocabModel", "length"))


def compact_label(data: bytes, guesser: CharGuesser | None = None) -> str:
    """A short name for a token's bytes where space is tight (table, tree): whole characters as the
    token views draw them, a partial character as ``것 1–2/3`` (bytes 1–2 of 3), unknown bytes as hex.

    >>> compact_label("a것".encode()[:3], CharGuesser({"것": 1}))
    'a 것 1–2/3'
    """
    return compact_parts(byte_parts(data, guesser=guesser))


def compact_parts(parts) -> str:
    """The short names of :class:`~tokviz.core.byte_names.BytePart` runs (see :func:`compact_label`)."""
    out = []
    for p in parts:
        if p.whole:
            out.append(visible_piece(p.char))
        elif p.char is not None and p.length:
            span = f"{p.first}" if p.first == p.last else f"{p.first}–{p.last}"
            out.append(f"{partial_char(p)} {span}/{p.length}")
        else:
            out.append(p.hex)
    # whole characters run together as in the token views; a partial one stands apart
    text = ""
    for i, piece in enumerate(out):
        if i and ("/" in piece or "/" in out[i - 1]):
            text += " "
        text += piece
    return text


def partial_char(part) -> str:
    """The character some of whose bytes ``part`` holds, drawn visible: a ZWJ or a variation selector cut
    between tokens is ``⟨ZWJ⟩``/``⟨VS16⟩`` and a combining mark sits on ``◌``, never an empty name.

    >>> from tokviz.core.byte_names import byte_parts
    >>> [partial_char(p) for p in byte_parts("\\u200d".encode()[:2], after=b"\\x8d")]
    ['⟨ZWJ⟩']
    """
    return visible_piece(part.char)


def part_label(part) -> str:
    """A part as a student reads it, in the interface's language: ``것 bytes 1–2 of 3``."""
    if part.whole:
        return part.char
    if part.char is None or not part.length:
        return part.hex
    if part.first == part.last:
        where = QCoreApplication.translate("TrainPanel", "byte {n} of {of}").format(n=part.first, of=part.length)
    else:
        where = QCoreApplication.translate("TrainPanel", "bytes {a}–{b} of {of}").format(
            a=part.first, b=part.last, of=part.length)
    return f"{partial_char(part)} {where}"


def piece_label(data: bytes, guesser: CharGuesser | None) -> str:
    """A token's bytes named by characters (``것 bytes 1–2 of 3``); whole characters as themselves."""
    return " · ".join(part_label(p) for p in byte_parts(data, guesser=guesser))


BANNER_PIECE_CHARS = 24  # longer pieces are elided in the banner (a projector line holds ~60 characters)


def elide_piece(text: str, most: int = BANNER_PIECE_CHARS) -> str:
    """``text`` shortened in the middle to ``most`` characters, so a long merge cannot widen the window.

    >>> elide_piece("abcdefghij", 7)
    'abc…hij'
    """
    if len(text) <= most:
        return text
    head = (most - 1) // 2
    return text[:head] + "…" + text[len(text) - (most - 1 - head):]


def token_length(step: MergeStep, mode: str) -> int:
    """Characters of the piece (char mode, without ``</w>``) or bytes (byte mode)."""
    if mode == "char":
        piece = step.new_piece
        return len(piece[: -len(END_OF_WORD)] if piece.endswith(END_OF_WORD) else piece)
    return len(step.new_bytes)


class VocabModel(QAbstractTableModel):
    """Rows are ``steps[:shown]``; the list is shared with the panel's MergeReplay (appended only)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._steps: list[MergeStep] = []
        self._shown = 0
        self.mode = "byte"
        self.dark = False
        self._guesser: CharGuesser | None = None
        self._font = mono_font()

    @property
    def guesser(self) -> CharGuesser | None:
        """Names byte pieces by their characters (per corpus; None: by their hex)."""
        return self._guesser

    @guesser.setter
    def guesser(self, guesser: CharGuesser | None) -> None:
        self._guesser = guesser
        if self._shown:  # the pieces' names change: the table measures its token column again
            self.dataChanged.emit(self.index(0, 1), self.index(self._shown - 1, 1))

    def set_font(self, font) -> None:
        self.beginResetModel()
        self._font = font
        self.endResetModel()

    def reset(self, steps: list[MergeStep], mode: str) -> None:
        self.beginResetModel()
        self._steps = steps
        self._shown = 0
        self.mode = mode
        self.endResetModel()

    def set_shown(self, n: int) -> None:
        """Show the first ``n`` recorded merges (one insert or remove notification per call)."""
        n = max(0, min(n, len(self._steps)))
        if n > self._shown:
            self.beginInsertRows(QModelIndex(), self._shown, n - 1)
            self._shown = n
            self.endInsertRows()
        elif n < self._shown:
            self.beginRemoveRows(QModelIndex(), n, self._shown - 1)
            self._shown = n
            self.endRemoveRows()

    def step_at(self, row: int) -> MergeStep | None:
        return self._steps[row] if 0 <= row < self._shown else None

    # ---- QAbstractTableModel ------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else self._shown

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if section == 4:
                return self.tr("chars") if self.mode == "char" else self.tr("bytes")
            return self.tr(COLUMNS[section])
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or index.row() >= self._shown:
            return None
        s = self._steps[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return s.step
            if col == 1:
                if self.mode == "byte" and "<0x" in s.new_piece:  # part of a character: name it
                    return compact_label(s.new_bytes, self.guesser)
                return shown_piece(s.new_piece)
            if col == 2:
                return hex_bytes(s.new_bytes)
            if col == 3:
                return s.count
            return token_length(s, self.mode)
        if role == Qt.ItemDataRole.EditRole:  # sort keys: numbers sort as numbers
            return (s.step, s.new_piece, s.new_bytes.hex(), s.count, token_length(s, self.mode))[col]
        if role == Qt.ItemDataRole.ToolTipRole and col in (1, 2):
            # the hex column shows about six bytes; longer tokens are elided there, complete here
            piece = shown_piece(s.new_piece)
            if self.mode == "byte" and "<0x" in s.new_piece:
                piece = piece_label(s.new_bytes, self.guesser)
            return self.tr("{piece}\n{n} bytes: {hex}").format(
                piece=piece, n=len(s.new_bytes), hex=hex_bytes(s.new_bytes))
        if role == Qt.ItemDataRole.BackgroundRole and col == 1:
            return token_color(s.token_id, dark=self.dark)
        if role == Qt.ItemDataRole.ForegroundRole and col == 1:
            return QColor("#f5f5f5") if self.dark else QColor("#111111")
        if role == Qt.ItemDataRole.FontRole and col in (1, 2):
            return self._font
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.UserRole:
            return s.token_id
        return None


class VocabFilter(QSortFilterProxyModel):
    """Search: a row matches when its token piece or its hex bytes contain the query."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._query = ""
        self.setSortRole(Qt.ItemDataRole.EditRole)

    def set_query(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.10: invalidate*Filter() is deprecated
            self.beginFilterChange()
            self._query = text.strip().lower()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._query = text.strip().lower()
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, row, parent) -> bool:  # noqa: N802
        if not self._query:
            return True
        src = self.sourceModel()
        step = src.step_at(row)
        if step is None:
            return False
        q = self._query
        # a jamo piece is found by the syllables it shows (갔 finds ᄀ ᅡ ᆻ)
        pieces = (step.new_piece.lower(), recompose(step.new_piece).lower())
        return any(q in p for p in pieces) or q in step.new_bytes.hex(" ") or q in step.new_bytes.hex()
