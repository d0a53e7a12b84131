"""The Compare panel's tables: the stats of the current text and the corpus totals, as table cells
and as CSV rows (numbers unformatted), in the same column order."""

from __future__ import annotations

import csv
import html
import io
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QHeaderView, QTableWidget, QTableWidgetItem

from tokviz.core.atomic import write_atomic
from tokviz.core.compare import DIFF_LIMIT, CorpusTotals, EncoderOutcome
from tokviz.core.metrics import TextDifference
from tokviz.ui.common.encoder_names import shown_name
from tokviz.ui.compare.charts import encoder_color
from tokviz.ui.compare.rows import error_color
from tokviz.ui.token_colors import readable_on

translate = QCoreApplication.translate  # the panel's translation context, named in each call

# titles are translated when shown (lupdate reads the literals; the English stays the key)
STAT_COLUMNS = [
    QT_TRANSLATE_NOOP("ComparePanel", "Encoder"),
    QT_TRANSLATE_NOOP("ComparePanel", "Tokens"),
    QT_TRANSLATE_NOOP("ComparePanel", "Chars/token"),
    QT_TRANSLATE_NOOP("ComparePanel", "Bytes/token"),
    QT_TRANSLATE_NOOP("ComparePanel", "Tokens/word"),
    QT_TRANSLATE_NOOP("ComparePanel", "Continued words"),
    QT_TRANSLATE_NOOP("ComparePanel", "Partial"),
    QT_TRANSLATE_NOOP("ComparePanel", "Byte fallback"),
    QT_TRANSLATE_NOOP("ComparePanel", "Unknown"),
    QT_TRANSLATE_NOOP("ComparePanel", "Round trip"),
    QT_TRANSLATE_NOOP("ComparePanel", "Vocab size"),
]
CORPUS_COLUMNS = [
    QT_TRANSLATE_NOOP("ComparePanel", "Set"),
    QT_TRANSLATE_NOOP("ComparePanel", "Encoder"),
    QT_TRANSLATE_NOOP("ComparePanel", "Texts"),
    QT_TRANSLATE_NOOP("ComparePanel", "Tokens"),
    QT_TRANSLATE_NOOP("ComparePanel", "Chars/token"),
    QT_TRANSLATE_NOOP("ComparePanel", "Bytes/token"),
    QT_TRANSLATE_NOOP("ComparePanel", "Tokens/word"),
    QT_TRANSLATE_NOOP("ComparePanel", "Continued words"),
    QT_TRANSLATE_NOOP("ComparePanel", "Partial"),
    QT_TRANSLATE_NOOP("ComparePanel", "Byte fallback"),
    QT_TRANSLATE_NOOP("ComparePanel", "Unknown"),
    QT_TRANSLATE_NOOP("ComparePanel", "Round-trip failures"),
    QT_TRANSLATE_NOOP("ComparePanel", "Errors"),
]
ROUND_TRIP_COLUMN = STAT_COLUMNS.index("Round trip")
CORPUS_ERROR_COLUMN = CORPUS_COLUMNS.index("Errors")
CORPUS_METRICS = {
    QT_TRANSLATE_NOOP("ComparePanel", "chars per token"): "chars_per_token",
    QT_TRANSLATE_NOOP("ComparePanel", "tokens"): "tokens",
    QT_TRANSLATE_NOOP("ComparePanel", "bytes per token"): "bytes_per_token",
    QT_TRANSLATE_NOOP("ComparePanel", "tokens per word"): "fertility",
    QT_TRANSLATE_NOOP("ComparePanel", "partial tokens"): "partial_tokens",
}


def number(value: float, digits: int = 2) -> str:
    """A number as the tables show it: thousands separated, ``digits`` decimals (``1,234.50``)."""
    return f"{value:,.{digits}f}"


def share(value: float) -> str:
    """A share as the tables show it, one decimal (``37.5%``): continued words."""
    return f"{value:.1%}"


def table_item(text: str, *, align_right: bool = True, tip: str | None = None) -> QTableWidgetItem:
    """A read-only cell, numbers right-aligned."""
    it = QTableWidgetItem(text)
    it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsEditable)
    if align_right:
        it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if tip:
        it.setToolTip(tip)
    return it


def write_csv_atomic(path: str | Path, header: list[str], rows: list[list[str]]) -> Path:
    """Write a CSV file (UTF-8, with a BOM so spreadsheet programs read Hangul correctly) atomically."""
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(header)
    w.writerows(rows)
    return write_atomic(path, buf.getvalue(), encoding="utf-8-sig", newline="")


def name_color(index: int, palette: QPalette) -> QColor:
    """An encoder's colour for its name as text, darkened or lightened until it reads on the theme's
    base (a fixed darker(120) left gpt2's blue at ~2:1 on the dark base, orange at 3.4:1 on white)."""
    return readable_on(encoder_color(index), palette.color(QPalette.ColorRole.Base))


def difference_note(d: TextDifference) -> str:
    """One round-trip difference (core's ``describe()``) in the interface's language."""
    if d.op == "delete":
        template = translate("ComparePanel", "at {at}: {original} was lost")
    elif d.op == "insert":
        template = translate("ComparePanel", "at {at}: {decoded} was added")
    else:
        template = translate("ComparePanel", "at {at}: {original} became {decoded}")
    return template.format(at=d.start, original=repr(d.original), decoded=repr(d.decoded))


def set_name(name: str) -> str:
    """A text set's name (a sample file's, "demo corpus") in the interface's language when it has one."""
    return translate("ComparePanel", name) or name


@dataclass
class StatsShown:
    """What the stats table shows besides its cells: the token chart's bars and the round-trip notes."""

    names: list[str]
    tokens: list[int | None]  # None: the encoder failed
    colors: list[QColor]
    differences: list[str]  # one HTML line per encoder whose round trip differs


def fill_stats_table(t: QTableWidget, result) -> StatsShown:
    """Fill the stats table with ``result`` (name, outcome or None, note) rows, one per encoder."""
    # ResizeToContents re-measured a whole column on every setItem (50 cells: ~23 ms); measure
    # once, after the last cell
    header = t.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    try:
        return _fill_stats_cells(t, result)
    finally:
        fit_name_column(t)


def fit_name_column(t: QTableWidget) -> None:
    """Numbers and headers at their full width; the encoder names take the room left, elided in the
    middle (the whole name in the tooltip) when a long one would push the table past its view."""
    header = t.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    t.setTextElideMode(Qt.TextElideMode.ElideMiddle)


def _fill_stats_cells(t: QTableWidget, result) -> StatsShown:
    t.clearSpans()
    t.setRowCount(len(result))
    diffs = []
    names, values, colors = [], [], []
    for r, (name, outcome, note) in enumerate(result):
        name_item = table_item(shown_name(name), align_right=False, tip=shown_name(name))
        name_item.setForeground(name_color(r, t.palette()))
        t.setItem(r, 0, name_item)
        names.append(shown_name(name))
        colors.append(encoder_color(r))
        if outcome is None or not outcome.ok:
            msg = note if outcome is None else outcome.error
            err = table_item(msg or "", align_right=False, tip=msg)
            if outcome is not None:
                err.setForeground(error_color(t.palette()))
            t.setItem(r, 1, err)
            t.setSpan(r, 1, 1, len(STAT_COLUMNS) - 1)
            values.append(None)
            continue
        m = outcome.metrics
        rt_tip = "\n".join(map(difference_note, outcome.differences[:20])) or "decode(encode(text)) == text"
        cells = [
            f"{m.tokens:,}",
            number(m.chars_per_token),
            number(m.bytes_per_token),
            number(m.fertility),
            share(m.continued_share),
            f"{m.partial_tokens:,}",
            f"{m.fallback_tokens:,}",
            f"{m.unknown_tokens:,}",
            translate("ComparePanel", "exact")
            if m.round_trip
            else translate("ComparePanel", "differs ({n})").format(
                n=f"{len(outcome.differences)}{'+' if len(outcome.differences) >= DIFF_LIMIT else ''}"
            ),
            f"{outcome.vocab_size:,}" if outcome.vocab_size else "?",
        ]
        for c, value in enumerate(cells, start=1):
            item = table_item(value, tip=rt_tip if c == ROUND_TRIP_COLUMN else None)
            if c == ROUND_TRIP_COLUMN and not m.round_trip:
                item.setForeground(error_color(t.palette()))
            t.setItem(r, c, item)
        values.append(m.tokens)
        if outcome.differences:
            shown = "; ".join(map(difference_note, outcome.differences[:3]))
            more = (
                " " + translate("ComparePanel", "(+{n} more)").format(n=len(outcome.differences) - 3)
                if len(outcome.differences) > 3
                else ""
            )
            diffs.append(
                translate("ComparePanel", "<b>{name}</b> round trip: {diffs}").format(
                    name=html.escape(shown_name(name)), diffs=html.escape(shown) + more
                )
            )
    return StatsShown(names, values, colors, diffs)


def fill_corpus_table(t: QTableWidget, totals: list[CorpusTotals]) -> None:
    """One row per (text set, encoder) of a corpus comparison."""
    t.setRowCount(len(totals))
    for r, c in enumerate(totals):
        cells = [
            set_name(c.set_name),
            shown_name(c.encoder),
            f"{c.texts:,}",
            f"{c.tokens:,}",
            number(c.chars_per_token),
            number(c.bytes_per_token),
            number(c.fertility),
            share(c.continued_share),
            f"{c.partial_tokens:,}",
            f"{c.fallback_tokens:,}",
            f"{c.unknown_tokens:,}",
            f"{c.round_trip_failures:,}",
            f"{c.failed_texts:,}",
        ]
        for col, value in enumerate(cells):
            tip = c.first_error if col == CORPUS_ERROR_COLUMN else None
            t.setItem(r, col, table_item(value, align_right=col >= 2, tip=tip))


def stats_csv(outcomes: list[EncoderOutcome]) -> tuple[list[str], list[list]]:
    """The stats of the current text as CSV rows: numbers unformatted."""
    header = [
        "encoder",
        "tokens",
        "characters",
        "bytes",
        "words",
        "chars_per_token",
        "bytes_per_token",
        "fertility",
        "continued_words",
        "continued_share",
        "partial_tokens",
        "fallback_tokens",
        "unknown_tokens",
        "round_trip",
        "vocab_size",
        "error",
    ]
    rows = []
    for o in outcomes:
        if o.metrics is None:
            rows.append([o.encoder] + [""] * (len(header) - 2) + [o.error or ""])
            continue
        m = o.metrics
        rows.append(
            [
                o.encoder,
                m.tokens,
                m.characters,
                m.bytes,
                m.words,
                f"{m.chars_per_token:.4f}",
                f"{m.bytes_per_token:.4f}",
                f"{m.fertility:.4f}",
                m.continued_words,
                f"{m.continued_share:.4f}",
                m.partial_tokens,
                m.fallback_tokens,
                m.unknown_tokens,
                "exact" if m.round_trip else "differs",
                o.vocab_size or "",
                "",
            ]
        )
    return header, rows


def corpus_csv(totals: list[CorpusTotals]) -> tuple[list[str], list[list]]:
    """The corpus totals as CSV rows: numbers unformatted."""
    header = [
        "set",
        "encoder",
        "texts",
        "tokens",
        "characters",
        "bytes",
        "words",
        "chars_per_token",
        "bytes_per_token",
        "fertility",
        "continued_words",
        "continued_share",
        "partial_tokens",
        "fallback_tokens",
        "unknown_tokens",
        "round_trip_failures",
        "failed_texts",
        "first_error",
    ]
    rows = [
        [
            c.set_name,
            c.encoder,
            c.texts,
            c.tokens,
            c.characters,
            c.bytes,
            c.words,
            f"{c.chars_per_token:.4f}",
            f"{c.bytes_per_token:.4f}",
            f"{c.fertility:.4f}",
            c.continued_words,
            f"{c.continued_share:.4f}",
            c.partial_tokens,
            c.fallback_tokens,
            c.unknown_tokens,
            c.round_trip_failures,
            c.failed_texts,
            c.first_error or "",
        ]
        for c in totals
    ]
    return header, rows
