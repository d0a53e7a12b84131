"""The aligned rows as data, built on the worker thread that encoded the text: each row's token spans,
the grapheme clusters every row shares, and where the rows' boundaries agree, disagree or cut a
cluster. Nothing here depends on fonts or widget size; :mod:`tokviz.ui.compare.rows` paints it."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import accumulate

from PySide6.QtGui import QColor

from tokviz.core.encoding import Encoding, char_byte_starts
from tokviz.core.metrics import grapheme_spans
from tokviz.ui.token_colors import text_color_on, token_color, token_marks


@dataclass
class RowData:
    """One encoder's row: its Encoding, or a message (an error, or "loading…") instead."""

    name: str
    encoding: Encoding | None = None
    message: str | None = None
    error: bool = False
    color: QColor = field(default_factory=lambda: QColor("#888888"))


@dataclass
class RowSpans:
    """One row's token byte spans, ids and outline marks, as the view paints them."""

    data: RowData
    starts: list[int] = field(default_factory=list)  # token byte starts
    ends: list[int] = field(default_factory=list)  # token byte ends
    ids: list[int] = field(default_factory=list)
    # token_marks(ids): which tokens get an outline because their left neighbour has the same colour
    # (made for the whole row on the worker: a token's mark depends on the run it ends)
    marks: list[bool] = field(default_factory=list)
    dark: bool = False
    # token index -> (background, text colour), filled for the tokens that get painted
    _colors: dict[int, tuple[QColor, QColor]] = field(default_factory=dict)

    def colors(self, lo: int, hi: int) -> None:
        """Make sure tokens ``lo..hi-1`` have their colours (their ids' colours, see
        :func:`token_color`), without colouring the 10,000 tokens nobody is looking at."""
        for i in range(lo, hi):
            if i not in self._colors:
                c = token_color(self.ids[i], dark=self.dark)
                self._colors[i] = (c, text_color_on(c))


@dataclass
class PreparedRows:
    """Everything about the rows that does not depend on fonts or widget size (so it can be
    computed on the worker thread that encoded the text)."""

    text: str
    rows: list[RowSpans]
    clusters: list[tuple[int, int]]  # (char start, char end) of each grapheme cluster
    char_cluster: list[int]  # cluster index of each character
    cluster_bytes: list[int]  # UTF-8 byte start of each cluster, plus the total
    byte_starts: tuple[int, ...]  # UTF-8 byte start of each character, plus the total
    agree: list[int]  # byte offsets where every row has a boundary
    disagree: list[int]  # byte offsets where some rows have a boundary and others do not
    cut_clusters: set[int]  # clusters some row cuts inside (they get wider, byte-divided cells)


def prepare_rows(text: str, rows: list[RowData], *, dark: bool = False) -> PreparedRows:
    """Token spans per row, which tokens get an outline, grapheme clusters, and where the rows'
    boundaries differ (token colours are made when a token is first painted)."""
    prepared = []
    for r in rows:
        row = RowSpans(r)
        enc = r.encoding
        if enc is not None:
            row.starts = [t.byte_start for t in enc.tokens]
            row.ends = [t.byte_end for t in enc.tokens]
            row.ids = enc.ids
            row.marks = token_marks(row.ids)
            row.dark = dark
        prepared.append(row)
    byte_starts = char_byte_starts(text)
    clusters = grapheme_spans(text)
    if len(clusters) == len(text):  # no character joins its neighbour: cluster i is character i
        char_cluster = list(range(len(text)))
    else:
        # 1 where a cluster starts, summed up: a C-level scan instead of a Python step per character
        first = bytearray(len(text))
        for s, _ in clusters:
            first[s] = 1
        char_cluster = list(accumulate(first, initial=-1))[1:]
    cluster_bytes = [byte_starts[s] for s, _ in clusters] + [byte_starts[len(text)]]
    sets = []
    for row in prepared:
        if row.data.encoding is None:
            continue
        b = set(row.starts)
        b.update(row.ends)
        sets.append(b)
    total = cluster_bytes[-1]
    union = set().union(*sets) if sets else set()
    common = set.intersection(*sets) if sets else set()
    union.discard(0)
    union.discard(total)
    # Boundaries not between clusters cut one; which one is read off a byte -> cluster map (a
    # C-level scan) rather than searched for (gpt2 cuts ~6,000 Hangul syllables in 10,000 characters).
    inside = union.difference(cluster_bytes)
    cut = set()
    if inside:
        first_byte = bytearray(total + 1)
        for b in cluster_bytes:
            first_byte[b] = 1
        cluster_at = list(accumulate(first_byte, initial=-1))[1:]
        cut = {cluster_at[b] for b in inside}
    return PreparedRows(
        text,
        prepared,
        clusters,
        char_cluster,
        cluster_bytes,
        byte_starts,
        sorted(common - {0, total}),
        sorted(union - common),
        cut,
    )
