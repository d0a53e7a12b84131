"""The lattice drawing's layout rules, without a widget: every label inside its arc, no two labels of a
lane overlapping, lanes stacked above the characters and the strips under them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.ui.lattice_layout import INSET, lay_out


@st.composite
def lattices(draw):
    n = draw(st.integers(1, 8))
    spans = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, 4)).map(
        lambda se: (se[0], min(n, se[0] + se[1]))), min_size=1, max_size=20, unique=True))
    widths = draw(st.lists(st.floats(8, 120), min_size=len(spans), max_size=len(spans)))
    symbols = draw(st.lists(st.floats(4, 30), min_size=n, max_size=n))
    return symbols, widths, spans


@settings(max_examples=200, deadline=None)
@given(lattices(), st.integers(0, 3))
def test_labels_fit_their_arcs_and_never_overlap_in_a_lane(lattice, strips):
    symbols, widths, spans = lattice
    g = lay_out(symbol_widths=symbols, label_widths=widths, spans=spans, char_height=18, label_line_height=12,
                strip_height=14, strip_title_width=40, strips=strips)
    boxes = [g.label_box(i) for i in range(len(spans))]
    for i, (x, _y, w, _h) in enumerate(boxes):
        xs, xe, base = g.arc_ends(i)
        assert xs - INSET <= x and x + w <= xe + INSET  # inside the arc's nodes
        assert base < g.char_top  # arcs stand on the character row
    for i in range(len(spans)):
        for j in range(i + 1, len(spans)):
            if g.lanes[i] == g.lanes[j]:
                (xi, _, wi, _), (xj, _, wj, _) = boxes[i], boxes[j]
                assert xi + wi <= xj or xj + wj <= xi
    if strips:
        assert g.strip_y(strips - 1) + g.strip_h <= g.height
    assert g.node_x(len(symbols)) <= g.width
