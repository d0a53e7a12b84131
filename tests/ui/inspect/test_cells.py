"""The token view's cells: a token of whole characters is read from the Encoding's columns, one that
cuts a character (or covers no text, or follows a gap) is worked out from its bytes. Both ways must
draw the same thing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoding import Encoding, char_byte_starts
from tokviz.ui.inspect import cells

PIECES = ["a", "b", " ", "  ", "\n", "\r\n", "\t", "\u00a0", "\x00", "안", "녕", "값", "ㅋ", "👋", "👨\u200d👩",
          "🇰🇷", "e\u0301", "hello", "토큰"]


def cells_from_bytes(encoding: Encoding, limit: int) -> list[cells.Cell]:
    """Every cell worked out from the bytes (the general path), as the view drew them before."""
    drawn = encoding.tokens[:limit]
    text = encoding.text
    if len(encoding.tokens) > limit and drawn:
        text = text[: max(t.end for t in drawn[-64:])]
    data = text.encode("utf-8", "surrogatepass")
    starts = char_byte_starts(text, data)
    out, cache, prev = [], {}, 0
    for ti, tok in enumerate(drawn):
        if tok.byte_start > prev:
            out.append(cells.byte_cell(-1, text, data, starts, prev, tok.byte_start, cache))
        if tok.byte_end == tok.byte_start:
            out.append(cells.Cell(ti, tok.start, (cells.Segment("mark", tok.raw or "∅", 0),), False))
        else:
            out.append(cells.byte_cell(ti, text, data, starts, tok.byte_start, tok.byte_end, cache))
        prev = max(prev, tok.byte_end)
    if len(encoding.tokens) <= limit and prev < len(data):
        out.append(cells.byte_cell(-1, text, data, starts, prev, len(data), cache))
    return out


def plain(cell_list) -> list[tuple]:
    return [(c.token, c.start, tuple((s.kind, s.text, s.char) for s in c.segments), c.line_break)
            for c in cell_list]


@pytest.fixture(scope="module")
def encoders():
    registry = default_registry()
    return [registry.get(name) for name in ("gpt2", "cl100k_base", "o200k_base")]


@settings(max_examples=150, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=30), which=st.integers(0, 2),
       limit=st.sampled_from([2, 10**6]))
def test_cells_read_from_the_columns_equal_the_cells_worked_out_from_the_bytes(encoders, pieces, which, limit):
    encoding = encoders[which].encode("".join(pieces))
    assert plain(cells.token_cells(encoding, limit)) == plain(cells_from_bytes(encoding, limit))


def test_tokens_with_gaps_and_empty_tokens_keep_their_cells():
    # bytes no token covers, a token of no text, a token cutting 안 (EC 95 | 88)
    enc = Encoding.from_arrays("d", "x 안b", [1, 2, 3, 4], [0, 2, 2, 4], [1, 2, 4, 6])
    shown = plain(cells.token_cells(enc))
    assert shown == plain(cells_from_bytes(enc, 10**6))
    assert [c[0] for c in shown] == [0, -1, 1, 2, 3]
    assert shown[3][2] == (("hex", "EC 95", 0),) and shown[4][2][0] == ("hex", "88", 0)


def test_cells_sharing_a_piece_are_measured_once_and_alike(qapp, encoders):
    enc = encoders[1].encode("안녕하세요 안녕 👋👋 hello hello\n" * 50)
    drawn = cells.token_cells(enc)
    measure = cells.CellMeasure(*cells.view_fonts()[:2])
    one_by_one = [sum(measure.segment(s.kind, s.text) for s in c.segments)
                  + measure.SEG_GAP * (len(c.segments) - 1) + 2 * measure.PAD for c in drawn]
    assert list(measure.widths(drawn)) == one_by_one
    assert len({id(c.segments) for c in drawn}) < len(drawn) / 10  # the same pieces share their segments
