"""The number map's cells arrive computed by the job (off the GUI thread) and the heatmap shows
them exactly as it shows the cells it computes itself."""

from __future__ import annotations

import pytest

from tokviz.core.bpe.model import BPEModel
from tokviz.ui.vocab.jobs import run_request
from tokviz.ui.vocab.state import Request


def _model() -> BPEModel:
    # "12" and "123" are tokens: "1234" splits 123|4, "12" is one token, "5" is one byte
    merges = [(ord("1"), ord("2"), 256), (256, ord("3"), 257)]
    return BPEModel(mode="byte", pattern="gpt2", merges=merges, name="m")


@pytest.fixture(scope="module")
def maps():
    """Both maps of one small model, computed once (the 10,000 numbers take ~1 s to encode)."""
    get = {"m": _model()}.__getitem__
    return {kind: run_request(Request("maps", "m", param=kind), get).result for kind in ("numbers", "indentation")}


def test_the_number_map_job_hands_over_each_cells_token_count_and_cuts(maps):
    result = maps["numbers"]
    counts, ticks = result.cells
    rows = result.split_map.rows
    assert counts.shape == (100, 100)
    assert counts[12, 34] == len(rows[1234].ids) == 2  # 123|4
    assert counts[0, 12] == 1 and counts[0, 5] == 1
    assert [len(r.ids) for r in rows] == counts.ravel().tolist()
    assert [0.75] == [f for r, c, f in ticks if (r, c) == (12, 34)]  # the cut three quarters across 1234


def test_the_heatmap_shows_handed_over_cells_as_it_shows_its_own(qtbot, maps):
    from tokviz.ui.vocab.heatmap import SplitHeatmap

    for kind in ("numbers", "indentation"):
        result = maps[kind]
        own, given = SplitHeatmap(), SplitHeatmap()
        for widget in (own, given):
            qtbot.addWidget(widget)
            widget.resize(500, 420)
        own.set_map(result.split_map)
        given.set_map(result.split_map, cells=result.cells)
        assert own.grab().toImage() == given.grab().toImage(), kind
        assert given.cell_text(given.grid[-1][-1]) == own.cell_text(own.grid[-1][-1])
