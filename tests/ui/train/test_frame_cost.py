"""What a frame of the Train panel costs the GUI thread: work done before the frame's turn stays done,
and a view fed what it already shows does nothing."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QImage

from tokviz.ui.train.frames import FrameScheduler
from tokviz.ui.train.plots import MergeSeries, TrainPlots
from tokviz.ui.train.tree import MergeTreeView
from tokviz.ui.train_replay import MergeNode


class TrainerThatStops(QObject):
    """A panel following a computing trainer at full speed until ``computing`` is set False."""

    def __init__(self) -> None:
        super().__init__()
        self.step = 0
        self.computing_now = True
        self.log: list[str] = []
        self.state = SimpleNamespace(snapshot=lambda: SimpleNamespace(step=self.step))

    def frame_tick(self, _dt: float) -> bool:
        self.step += 100
        return True

    def computing(self) -> bool:
        return self.computing_now

    def following_at_full_speed(self) -> bool:
        return True

    def nothing_to_animate(self) -> bool:
        return False

    def prepare_frame(self):
        self.log.append(f"slice at {self.step}")
        yield True

    def draw_frame(self, snapshot, full: bool = True) -> None:
        self.log.append(f"draw {snapshot.step}")


def test_the_frame_after_the_followed_trainer_stops_is_prepared_before_its_turn(qtbot):
    # it shows up to half a second of merges at once (the plots' new pieces, the sample segmented
    # anew): drawn at once, it held the GUI thread for ~100 ms at the end of every run
    panel = TrainerThatStops()
    frames = FrameScheduler(panel, panel.state.snapshot)
    frames.timer.blockSignals(True)  # the test's ticks are the only ones
    frames.tick(1.0)
    qtbot.waitUntil(lambda: not frames.preparing(), timeout=5_000)
    assert panel.log == ["slice at 100", "draw 100"]
    panel.computing_now = False  # the run ended
    frames.tick(1.0)
    assert panel.log[2:] == ["slice at 200"]  # prepared first: the draw waits for the next turn
    qtbot.waitUntil(lambda: not frames.preparing(), timeout=5_000)
    assert panel.log[2:] == ["slice at 200", "draw 200"]
    frames.tick(1.0)  # later frames of a resting trainer (an animation) are drawn at once as before
    assert panel.log[4:] == ["draw 300"]


class PaintCounter(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.paints = 0

    def eventFilter(self, _watched, event) -> bool:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def _flush(widget) -> None:
    """Paint what is pending now (the plots' scene updates are queued events, then the window's)."""
    for _ in range(2):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        if isinstance(widget, TrainPlots):
            QCoreApplication.sendPostedEvents(widget.scene(), QEvent.Type.MetaCall)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.UpdateRequest)


@pytest.fixture(scope="module")
def plots():
    view = TrainPlots()
    view.resize(600, 400)
    view.show()
    yield view
    view.close()


def _series(n: int) -> MergeSeries:
    steps = [
        SimpleNamespace(
            step=i, vocab_size=256 + i, count=max(1, 10**5 // i), corpus_tokens=10**6 - 40 * i, corpus_chars=8e5
        )
        for i in range(1, n + 1)
    ]
    series = MergeSeries()
    series.add(steps, [1 + i % 7 for i in range(n)])
    return series


def test_plots_fed_the_step_they_show_repaint_nothing(plots, qtbot):
    series = _series(700)
    plots.set_step_range(700)
    plots.show_step(series, 600)
    _flush(plots)
    shown = [c.getData()[1].copy() for c in (plots.vocab_curve, plots.count_curve, plots.tokens_curve)]
    counter = PaintCounter()
    plots.viewport().installEventFilter(counter)
    try:
        plots.show_step(series, 600)  # the same step again (a setting of another view changed)
        _flush(plots)
        assert counter.paints == 0
        assert [list(c.getData()[1]) for c in (plots.vocab_curve, plots.count_curve, plots.tokens_curve)] == [
            list(y) for y in shown
        ]
        plots.show_step(series, 700)  # a new step is drawn
        _flush(plots)
        assert counter.paints >= 1 and plots.shown_steps == dict.fromkeys(("vocab", "count", "corpus", "length"), 700)
        assert len(plots.count_curve.getData()[1]) == 700
    finally:
        plots.viewport().removeEventFilter(counter)


def _rgba(image: QImage) -> np.ndarray:
    """The image's pixels as an array of bytes (copied: the converted image is gone after the call)."""
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    return np.frombuffer(rgba.constBits(), np.uint8).copy()


def _tree(ids: list[int], pieces: str) -> MergeNode:
    """A left-leaning tree over the characters of ``pieces`` (ids of the merged tokens from ``ids``)."""
    node = MergeNode(ord(pieces[0]), pieces[0], None, None, None)
    for k, ch in enumerate(pieces[1:], start=1):
        leaf = MergeNode(ord(ch), ch, None, None, None)
        node = MergeNode(ids[k - 1], pieces[: k + 1], node, leaf, k)
    return node


@pytest.fixture(scope="module")
def tree_view():
    view = MergeTreeView()
    view.resize(420, 260)
    view.show()
    yield view
    view.close()


def test_a_tree_prepared_for_the_next_frame_changes_nothing_on_screen_and_is_then_shown_without_a_layout(
    tree_view, qtbot
):
    shown, upcoming = _tree([1001, 1002, 1003], "안녕하세"), _tree([2001, 2002], "토큰화")
    tree_view.set_tree(shown)
    _flush(tree_view)
    before = tree_view.grab().toImage()
    labels = tree_view.drawn_labels()
    tree_view.prepare(upcoming)  # in a slice of the frame's preparation
    _flush(tree_view)
    assert tree_view.tree is shown and tree_view.drawn_labels() == labels
    assert tree_view.grab().toImage() == before
    made = tree_view.layouts_made
    tree_view.set_tree(upcoming)  # the frame's turn
    _flush(tree_view)
    assert tree_view.layouts_made == made  # laid out already
    assert tree_view.drawn_labels() == [(2, "토"), (2, "큰"), (1, "토큰"), (1, "화"), (0, "토큰화")]
    tree_view.set_tree(upcoming)  # the same tree again (a frame at the same step)
    tree_view.repaint()
    assert tree_view.layouts_made == made


def test_a_tree_drawn_ahead_is_shown_by_copying_its_pixels_which_match_a_tree_drawn_in_the_turn(tree_view, qtbot):
    # drawing the boxes and texts took 1-6 ms of the frame's turn: the preparation draws them
    # taller than the view: it grows for the tree in the frame's turn, and the pixels fit its new size
    upcoming = _tree(list(range(3001, 3008)), "학습하자토큰화를")
    tree_view.set_tree(_tree([4001], "가나"))
    _flush(tree_view)
    before = tree_view.size()
    tree_view.prepare(upcoming)  # a slice of the frame's preparation
    drawn = tree_view.trees_drawn
    tree_view.set_tree(upcoming)  # the frame's turn
    tree_view.repaint()
    assert tree_view.trees_drawn == drawn  # copied, not drawn again
    assert tree_view.height() > before.height() and tree_view.width() == before.width()
    ahead = tree_view.grab().toImage()
    tree_view.dark = not tree_view.dark  # another look: the pixels drawn ahead no longer fit
    tree_view.repaint()
    assert tree_view.trees_drawn == drawn + 1
    tree_view.dark = not tree_view.dark
    tree_view.prepare(_tree([4001], "가나"))  # another tree drawn ahead: the one shown is drawn in the turn
    drawn = tree_view.trees_drawn
    tree_view.repaint()
    assert tree_view.trees_drawn == drawn + 1
    direct = tree_view.grab().toImage()
    assert ahead.size() == direct.size()
    a, b = _rgba(ahead), _rgba(direct)
    assert np.abs(a.astype(int) - b).max() <= 2  # the same picture (antialiased edges may round either way)
