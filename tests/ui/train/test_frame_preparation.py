"""A frame prepared in slices while the trainer computes: the event loop runs between the slices, the
playback waits at the frame's step, nothing on screen changes until the one turn that draws it."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QLabel

from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.frames import FrameScheduler
from tokviz.ui.train.plots import MergeSeries, TrainPlots


class FollowingPanel(QObject):
    """What the scheduler asks of a panel: one following a computing trainer at full speed."""

    def __init__(self) -> None:
        super().__init__()
        self.step = 0
        self.log: list[str] = []
        self.state = SimpleNamespace(snapshot=lambda: SimpleNamespace(step=self.step))

    def frame_tick(self, _dt: float) -> bool:
        self.step += 100  # the playback follows the trainer's end
        self.log.append(f"tick {self.step}")
        return True

    def computing(self) -> bool:
        return True

    def following_at_full_speed(self) -> bool:
        return True

    def nothing_to_animate(self) -> bool:
        return False

    def prepare_frame(self):
        for k in range(3):
            self.log.append(f"slice {k} at {self.step}")
            yield True  # each slice ends its turn

    def draw_frame(self, snapshot, full: bool = True) -> None:
        self.log.append(f"draw {snapshot.step}")


def test_a_busy_frame_is_prepared_over_several_turns_then_drawn_at_the_step_it_was_prepared_for(qtbot):
    panel = FollowingPanel()
    frames = FrameScheduler(panel, panel.state.snapshot)
    frames.timer.blockSignals(True)  # the test's ticks are the only ones
    frames.tick(0.1)
    assert panel.log == ["tick 100", "slice 0 at 100"] and frames.preparing()  # the rest waits for the event loop
    frames.tick(0.1)  # a tick while preparing does not move the playback
    assert panel.log[-1] == "slice 0 at 100"
    qtbot.waitUntil(lambda: not frames.preparing(), timeout=5_000)
    assert panel.log == ["tick 100", "slice 0 at 100", "slice 1 at 100", "slice 2 at 100", "draw 100"]


def test_drawing_now_ends_a_preparation_and_the_preparation_draws_nothing_more(qtbot):
    panel = FollowingPanel()
    frames = FrameScheduler(panel, panel.state.snapshot)
    frames.timer.blockSignals(True)
    frames.tick(0.1)
    frames.draw_now()  # the user scrubbed: drawn at once
    assert not frames.preparing()
    for _ in range(5):
        QCoreApplication.processEvents()
    assert panel.log == ["tick 100", "slice 0 at 100", "draw 100"]


def test_a_prepared_frame_calls_back_once_drawn_and_a_stop_drops_the_call(qtbot):
    # a run's start: its worker begins once step 0 is on screen, never for a run stopped meanwhile
    panel = FollowingPanel()
    frames = FrameScheduler(panel, panel.state.snapshot)
    frames.timer.blockSignals(True)
    started = []
    frames.draw_prepared(lambda: started.append(panel.log[-1]))
    assert started == [] and panel.log == ["slice 0 at 0"]
    qtbot.waitUntil(lambda: bool(started), timeout=5_000)
    assert started == ["draw 0"]
    frames.draw_prepared(lambda: started.append("second"))
    frames.stop()
    for _ in range(5):
        QCoreApplication.processEvents()
    assert started == ["draw 0"] and panel.log[-1] == "slice 0 at 0"


class ShortSlices(FollowingPanel):
    """A panel whose frame is prepared in slices too short to end a turn each."""

    def prepare_frame(self):
        for k in range(3):
            self.log.append(f"slice {k} at {self.step}")
            yield None


def test_a_prepared_frame_is_drawn_in_a_turn_of_its_own_after_its_last_slices(qtbot):
    # drawn with the slices that ended its preparation, the frame's turn held the GUI thread up to
    # a slice's budget longer
    panel = ShortSlices()
    frames = FrameScheduler(panel, panel.state.snapshot)
    frames.timer.blockSignals(True)
    frames.tick(0.1)
    assert panel.log == ["tick 100", "slice 0 at 100", "slice 1 at 100", "slice 2 at 100"]
    assert frames.preparing()  # prepared, drawn in a later turn
    qtbot.waitUntil(lambda: not frames.preparing(), timeout=5_000)
    assert panel.log[-1] == "draw 100"


def _series(n: int) -> MergeSeries:
    steps = [
        SimpleNamespace(
            step=i, vocab_size=256 + i, count=max(1, 10**6 // i), corpus_tokens=10**6 - 50 * i, corpus_chars=800_000
        )
        for i in range(1, n + 1)
    ]
    series = MergeSeries()
    series.add(steps, [1 + i % 9 for i in range(n)])
    return series


def _shown_plots(qtbot, series: MergeSeries, step: int) -> TrainPlots:
    plots = TrainPlots()
    qtbot.addWidget(plots)
    plots.resize(600, 400)
    plots.show()
    plots.set_step_range(len(series.upto("step", 10**9)))
    plots.show_step(series, step)
    return plots


def _pixels(plots: TrainPlots):
    QCoreApplication.sendPostedEvents(plots.scene(), QEvent.Type.MetaCall)
    return plots.grab().toImage()


def test_the_plots_prepared_for_a_step_show_the_frame_before_until_the_frame_and_then_what_a_live_paint_shows(qtbot):
    """While the next frame is prepared, the plots take its data and axes and paint them into a picture;
    the screen keeps showing the frame before, and the frame then only swaps the pictures: no axis is
    rescaled in its turn, and what it shows is exactly what plots painted live at that step show."""
    series = _series(2000)
    plots = _shown_plots(qtbot, series, 50)
    before = _pixels(plots)
    for _ in plots.prepare(series, 1500):
        pass
    assert plots.shown_steps == dict.fromkeys(("vocab", "count", "corpus", "length"), 50)
    assert _pixels(plots) == before  # the screen still shows step 50
    ranges = [p.getViewBox().viewRange() for p in (plots.count_plot, plots.corpus_plot, plots.length_plot)]
    plots.show_step(series, 1500)
    assert plots.shown_steps == dict.fromkeys(("vocab", "count", "corpus", "length"), 1500)
    assert [p.getViewBox().viewRange() for p in (plots.count_plot, plots.corpus_plot, plots.length_plot)] == ranges
    assert len(plots.count_curve.getData()[1]) == 1500
    drawn_ahead = _pixels(plots)
    assert drawn_ahead != before
    live = _shown_plots(qtbot, series, 50)
    live.show_step(series, 1500)
    assert _pixels(live) == drawn_ahead


def test_a_step_other_than_the_prepared_one_or_a_resize_paints_the_plots_live_at_the_step_shown(qtbot):
    """A frame of another step than the one prepared (a scrub), or a resize while a frame is prepared,
    drops the pictures: the plots show their scene again, at the step the screen showed or was asked."""
    series = _series(2000)
    plots = _shown_plots(qtbot, series, 50)
    for _ in plots.prepare(series, 1500):
        pass
    plots.show_step(series, 700)  # not the prepared step
    assert plots.shown_steps == dict.fromkeys(("vocab", "count", "corpus", "length"), 700)
    assert len(plots.count_curve.getData()[1]) == 700
    live = _shown_plots(qtbot, series, 50)
    live.show_step(series, 1500)  # (the axes kept the room step 1500 took: they only grow in a run)
    live.show_step(series, 700)
    assert _pixels(plots) == _pixels(live)
    for _ in plots.prepare(series, 900):
        pass
    plots.resize(640, 420)  # while step 900 waits for its frame: the screen shows step 700, painted live
    assert len(plots.count_curve.getData()[1]) == 700
    assert plots.shown_steps == dict.fromkeys(("vocab", "count", "corpus", "length"), 700)


def _corpus() -> str:
    words = "low lower lowest newer wider 안녕하세요 안녕히 가세요 오늘은 날씨가 정말 좋습니다".split()
    return "\n".join(" ".join(f"{w}{i % 29}" for w in words[i % 9 : i % 9 + 4]) for i in range(300)) + "\n"


def _train_panel(qtbot, merges: int):
    """A shown 1280x800 window's Train panel set to train the core trainer on the test corpus."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.paste(_corpus()))
    panel.merges_spin.setValue(merges)
    return window, panel


def test_preparing_a_frame_of_the_panel_changes_no_view_and_the_frame_shows_its_step_everywhere(qtbot):
    window, panel = _train_panel(qtbot, 80)
    panel.end_button.click()  # train to the end
    qtbot.waitUntil(lambda: panel.run is None and panel.shown_steps()["label"] == 80, timeout=20_000)
    panel.scrubber.setValue(20)
    assert set(panel.shown_steps().values()) == {20}
    panel.frames.timer.blockSignals(True)  # no frame but the one the test draws
    panel.cursor = 70  # the playback moved on; the frame of step 70 is prepared, not drawn yet
    for _ in panel.prepare_frame():
        QCoreApplication.processEvents()  # the turns between the slices (their paints) too
    assert set(panel.shown_steps().values()) == {20}
    panel.redraw()
    assert set(panel.shown_steps().values()) == {70}
    window.close()


def _tree_area(panel):
    """The scroll area the merge tree is shown in (its viewport shrinks for scroll bars, legitimately)."""
    return panel.tree_view.parentWidget().parentWidget()


def test_the_plots_keep_their_size_from_a_runs_first_frame_to_its_last(qtbot):
    # a label above them that grew by a pixel when its text first held Hangul re-laid out the panel:
    # every axis of the plots was regenerated in that frame
    window, panel = _train_panel(qtbot, 40)
    qtbot.waitUntil(lambda: panel.plots.height() > 0, timeout=5_000)
    panel.frames.timer.blockSignals(True)  # step 0 stays on screen until the test lets the frames go
    panel.end_button.click()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    first = (panel.plots.size(), _tree_area(panel).size())
    panel.frames.timer.blockSignals(False)
    qtbot.waitUntil(lambda: panel.run is None and panel.shown_steps()["label"] == 40, timeout=20_000)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    assert (panel.plots.size(), _tree_area(panel).size()) == first
    window.close()


def test_the_banner_keeps_its_text_while_the_room_for_a_named_byte_merge_is_measured(qtbot, monkeypatch):
    # the room a byte merge named on two rows takes was measured by setting the banner's own text and
    # back: two more rich-text layouts in the turn that starts a run (now a hidden twin measures it)
    window, panel = _train_panel(qtbot, 40)
    banner = panel.merge_banner
    hint = banner.text()
    window.resize(1100, 800)  # another width: the room is measured again
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    texts = []
    set_text = QLabel.setText
    monkeypatch.setattr(QLabel, "setText", lambda label, text: texts.append(label) or set_text(label, text))
    panel.redraw()
    monkeypatch.undo()
    assert texts.count(banner) == 1 and banner.text() == hint  # set once, to the same words
    window.close()


def test_a_runs_first_frame_colours_the_sample_lines_shown_without_rebuilding_the_document(qtbot):
    # rebuilding the document of the sample's long lines held the turn of a run's first frame ~20 ms
    window, panel = _train_panel(qtbot, 20)
    qtbot.waitUntil(lambda: panel.sample_view.line_count() > 0, timeout=5_000)
    document = panel.sample_view.document()
    whole = document.characterCount() - 1
    changes = []
    document.contentsChange.connect(lambda _at, removed, _added: changes.append(removed))
    panel.end_button.click()
    # the sample too: at a run's end the view can grow, and lines that come into sight are drawn by the
    # frame that their scroll asks for (under load a turn or two after the label shows the last step)
    qtbot.waitUntil(lambda: panel.run is None and panel.shown_steps()["label"] == panel.shown_steps()["sample"] == 20,
                    timeout=20_000)
    assert changes and changes[0] < whole  # the first frame changed a line, not the whole text
    window.close()
