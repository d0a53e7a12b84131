"""Where everything of a lattice drawing goes: lanes for the arcs, the cell width that fits every
label inside its arc, and the boxes of labels, arcs, characters and strips. Plain arithmetic on
measured widths (no Qt), so the layout rules are tested without a widget and the canvas
(:class:`tokviz.ui.lattice_view.LatticeCanvas`) only measures text and paints.

Boxes are ``(x, y, width, height)`` tuples in the canvas's pixels.

>>> g = lay_out(symbol_widths=[10, 10], label_widths=[30, 30, 50], spans=[(0, 1), (1, 2), (0, 2)],
...             char_height=20, label_line_height=12, strip_height=14, strip_title_width=0, strips=1)
>>> g.lanes, g.cell
([0, 0, 1], 40)
>>> g.node_x(2) - g.node_x(0) == 2 * g.cell
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

PAD = 4.0  # inside a label box
INSET = 3.0  # arcs stop this far from their nodes, so neighbours in a lane never touch
MARGIN = 10.0
LANE_GAP = 8.0  # between a label's top and the ends of the arcs one lane up

Box = tuple[float, float, float, float]


def log_prob_text(value: float) -> str:
    """A log-probability as shown on an arc: two decimals with a real minus sign.

    >>> log_prob_text(-6.654)
    '−6.65'
    """
    return f"{value:.2f}".replace("-", "\u2212")


def assign_lanes(spans: list[tuple[int, int]]) -> list[int]:
    """A lane for each ``[start, end)`` span so that spans in one lane never overlap (touching is fine).

    Shorter spans first, each in the lowest lane where it fits, so single characters sit nearest
    the character row and long pieces above them.

    >>> assign_lanes([(0, 1), (1, 2), (0, 2), (1, 3), (2, 3)])
    [0, 0, 1, 2, 0]
    """
    lanes: list[bytearray] = []
    n = max((e for _, e in spans), default=0)
    out = [0] * len(spans)
    for i in sorted(range(len(spans)), key=lambda i: (spans[i][1] - spans[i][0], spans[i][0])):
        s, e = spans[i]
        for lane, used in enumerate(lanes):  # noqa: B007 (the lane found is used after the break)
            if not any(used[s:e]):
                break
        else:
            lane = len(lanes)
            lanes.append(bytearray(n))
        lanes[lane][s:e] = b"\x01" * (e - s)
        out[i] = lane
    return out


def strip_tokens(lattice, path) -> list[tuple[int, int, int, str, bool]]:
    """The tokens of a path as a strip shows them: ``(start, end, token id, piece, unknown)``,
    consecutive unknown characters joined into one ``<unk>`` as the encoder joins them."""
    out: list[tuple[int, int, int, str, bool]] = []
    for ai in path:
        a = lattice.arcs[ai]
        if a.unknown and out and out[-1][4] and out[-1][1] == a.start:
            out[-1] = (out[-1][0], a.end, a.token_id, a.piece, True)
        else:
            out.append((a.start, a.end, a.token_id, a.piece, a.unknown))
    return out


@dataclass(frozen=True)
class LatticeGeometry:
    """The measured layout of one lattice drawing (see :func:`lay_out`)."""

    cell: int  # width of one character column
    left: float  # x of node 0 (strip titles sit left of it)
    top: float
    box_h: float  # height of an arc's label box
    lane_h: float  # height of one lane of arcs
    char_top: float
    char_h: float
    strip_h: float
    strips_top: float
    width: int
    height: int
    spans: list[tuple[int, int]] = field(repr=False)
    lanes: list[int]
    label_widths: list[float] = field(repr=False)

    def node_x(self, node: int) -> float:
        """The x of node ``node`` (the boundary before symbol ``node``)."""
        return self.left + node * self.cell

    def lane_base(self, lane: int) -> float:
        """The y where the arcs of ``lane`` start and end (lane 0 sits just above the characters)."""
        return self.char_top - 6 - lane * self.lane_h

    def label_box(self, index: int) -> Box:
        """Where arc ``index``'s label box is drawn: centred over its arc, clear of the lane above."""
        s, e = self.spans[index]
        cx = (self.node_x(s) + self.node_x(e)) / 2
        w = self.label_widths[index]
        top = self.lane_base(self.lanes[index]) - self.lane_h + LANE_GAP
        return (cx - w / 2, top, w, self.box_h)

    def arc_ends(self, index: int) -> tuple[float, float, float]:
        """``(x start, x end, base y)`` of arc ``index``'s legs."""
        s, e = self.spans[index]
        return self.node_x(s) + INSET, self.node_x(e) - INSET, self.lane_base(self.lanes[index])

    def arc_box(self, index: int) -> Box:
        """The bounding box of arc ``index`` (its legs and its label)."""
        xs, xe, base = self.arc_ends(index)
        top = self.label_box(index)[1]
        return (xs - 3, top, xe - xs + 6, base + 3 - top)

    def cell_box(self, symbol: int) -> Box:
        """Where symbol ``symbol``'s character cell is drawn."""
        return (self.node_x(symbol) + 1, self.char_top, self.cell - 2, self.char_h)

    def strip_y(self, k: int) -> float:
        """The top of strip ``k`` (0: the first segmentation under the characters)."""
        return self.strips_top + k * (self.strip_h + 4)


def lay_out(*, symbol_widths: list[float], label_widths: list[float], spans: list[tuple[int, int]],
            char_height: float, label_line_height: float, strip_height: float, strip_title_width: float,
            strips: int) -> LatticeGeometry:
    """The layout of a lattice: ``symbol_widths`` of the characters and ``label_widths`` of the arcs'
    labels (measured in the fonts they are drawn in, label padding included), the arcs' ``spans``
    (``[start, end)`` in symbols), the fonts' line heights, the widest strip title and how many
    strips are drawn. Every label fits inside its arc: the cell is as wide as the tightest arc needs."""
    lanes = assign_lanes(spans)
    cell = max([w + 14 for w in symbol_widths] + [char_height + 6])
    for (s, e), w in zip(spans, label_widths, strict=True):
        cell = max(cell, (w + 2 * INSET + 4) / (e - s))
    cell = math.ceil(cell)
    left = MARGIN + (strip_title_width + 12)
    box_h = 2 * label_line_height + 2 * PAD - 2
    lane_h = box_h + 16  # room for the arch's legs below the label
    top = MARGIN
    char_top = top + (max(lanes, default=-1) + 1) * lane_h + 6
    char_h = char_height + 14
    strip_h = strip_height + 10
    strips_top = char_top + char_h + 10
    height = strips_top + strips * (strip_h + 4) + MARGIN
    width = left + len(symbol_widths) * cell + MARGIN
    return LatticeGeometry(cell=cell, left=left, top=top, box_h=box_h, lane_h=lane_h, char_top=char_top,
                           char_h=char_h, strip_h=strip_h, strips_top=strips_top, width=math.ceil(width),
                           height=math.ceil(height), spans=list(spans), lanes=lanes,
                           label_widths=list(label_widths))
