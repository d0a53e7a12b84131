"""The sample view's marked runs (a gap at both edges of a run with its left neighbour's colour): the
outlines are placed once per line and kept, so they must follow what moves the line on screen."""

from __future__ import annotations

import pytest

from tokviz.ui.train.sample import Run, TokenLinesView, mark_runs

WORDS = ["토큰", "토큰", "화를", " ", "배우", "배우", "자", " "]


def _runs(repeat: int) -> tuple[Run, ...]:
    """A line of ``repeat`` times WORDS; the second of two equal neighbours is marked."""
    runs = [Run(w, "" if w == " " else "#ffcc00", "#000000") for w in WORDS * repeat]
    return tuple(mark_runs(runs))


def _show(view: TokenLinesView, lines: list[tuple[Run, ...]], width: int) -> None:
    view.resize(width, 300)
    view.show()
    view.set_plain_lines(["x"] * len(lines))
    for i, runs in enumerate(lines):
        view.set_line(i, runs)


@pytest.fixture
def fresh(qtbot):
    """Where the outlines of ``lines`` are at ``width`` in a view that never placed any before."""

    def outlines(lines, like: TokenLinesView, i: int):
        view = TokenLinesView()
        qtbot.addWidget(view)
        _show(view, lines, like.width())
        qtbot.waitUntil(lambda: view.viewport().width() == like.viewport().width(), timeout=5_000)
        return view.mark_rects(i)

    return outlines


def test_kept_outlines_follow_a_line_above_that_wraps_anew_a_narrower_view_and_an_edit(qtbot, fresh):
    view = TokenLinesView()
    qtbot.addWidget(view)
    lines = [_runs(1), _runs(1), _runs(1)]
    _show(view, lines, 360)
    view.viewport().repaint()  # the outlines placed and kept
    before = view.mark_rects(2)
    assert before and before == fresh(lines, view, 2)
    lines[0] = _runs(6)
    view.set_line(0, lines[0])  # the first line now wraps: the lines below move down
    view.viewport().repaint()
    assert view.mark_rects(2) == fresh(lines, view, 2) and view.mark_rects(2)[0].top() > before[0].top()
    wide = [view.mark_rects(i) for i in range(3)]  # every line's outlines placed at this width
    view.resize(200, 300)  # narrower: every line may wrap anew
    qtbot.waitUntil(lambda: view.viewport().width() < 200, timeout=5_000)
    view.viewport().repaint()
    for i in range(3):
        assert view.mark_rects(i) == fresh(lines, view, i)
    assert view.mark_rects(0) != wide[0]  # the long line wrapped anew
    lines[1] = _runs(2)
    view.set_line(1, lines[1])  # the line itself changes: its marks are placed anew
    assert view.mark_rects(1) == fresh(lines, view, 1) and len(view.mark_rects(1)) == 4
