"""The Train panel's one-label frames (:class:`tokviz.ui.train.views.LineFrame`) after a zoom and back: the
banner, "why this pair" and the tree's title are as high as in a window never zoomed."""

from __future__ import annotations

from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.views import LineFrame


def _window(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    panel = window.show_view("train")
    qtbot.waitUntil(lambda: panel.plots.height() > 0, timeout=5_000)
    return window, panel


def _heights(panel) -> list[tuple[str, int]]:
    frames = [f for f in panel.findChildren(LineFrame) if f.isVisible() and f.label.wordWrap()]
    return [(f.label.text()[:40], f.height()) for f in frames]


def test_a_zoom_and_back_leaves_every_line_as_high_as_before(qtbot):
    # The tree's title measured its one line with its own minimum in place (a label's height for a width is
    # never less than its minimum), so after a zoom it kept the zoomed height for good; and heights measured
    # while the fonts changed were remembered under the new font's name, so the next window's title started
    # 1.5 lines high and shrank at its first run, re-laying out the panel and every axis of its plots.
    window, panel = _window(qtbot)
    before = _heights(panel)
    assert len(before) >= 3  # the banner, "why this pair", the tree's title
    try:
        for scale in (1.5, 1.0):
            window.set_font_scale(scale)
            qtbot.wait(1)
        qtbot.waitUntil(lambda: _heights(panel) == before, timeout=5_000)
        other, other_panel = _window(qtbot)
        assert _heights(other_panel) == before
        other.close()
    finally:
        window.set_font_scale(1.0)
        window.close()
