"""The Train panel's plumbing (worker thread, batching, pause/step/scrub, cancel, close, failures),
driven by a naive stand-in trainer whose speed and failures the tests control."""

from __future__ import annotations

import dataclasses
import gc
import threading

import pytest
from PySide6.QtCore import QEvent, QObject

from tests.support.naive_trainer import TEXT, NaiveTrainer
from tests.support.train_panel import banner_text, merge_banner_line
from tokviz.core.training import Finished, Progress
from tokviz.ui.common.work import WorkService
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.panel import TrainPanel
from tokviz.ui.train.views import SPEEDS
from tokviz.ui.train.worker import TrainRun


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()


def _panel(window, *, merges=30, **trainer_kw) -> tuple[TrainPanel, list[NaiveTrainer]]:
    panel = window.show_view("train")
    made: list[NaiveTrainer] = []

    def factory(config):
        made.append(NaiveTrainer(config, **trainer_kw))
        return made[-1]

    panel.trainer_factory = factory
    panel.set_source(CorpusSource.paste(TEXT))
    panel.merges_spin.setValue(merges)
    return panel, made


def _plot_len(item) -> int:
    x, _ = item.getData()
    return 0 if x is None else len(x)


def test_train_pause_step_scrub_and_the_merges_shown_are_the_trainers(window, qtbot):
    # slow enough (2 s in all) that the trainer is still running when the test pauses it
    panel, made = _panel(window, merges=30, delay=0.06)
    panel.speed_combo.setCurrentIndex(SPEEDS.index(("100 merges/s", 100.0)))
    panel.start_training()
    qtbot.waitUntil(lambda: panel.cursor >= 5, timeout=5000)
    panel.pause()
    qtbot.waitUntil(lambda: not panel.computing(), timeout=2000)
    assert panel.run is not None  # paused, not finished
    trainer = made[-1]
    assert trainer.thread_names and "MainThread" not in trainer.thread_names  # trained off the GUI thread
    recorded = len(panel.replay)
    # paused: the worker stopped taking merges from the trainer; every merge it made is recorded
    # (a fixed wait here proved nothing on a machine slower than the trainer's 60 ms per merge)
    assert len(trainer.merges) == recorded
    shown = panel.cursor

    # Step from the recording, then beyond it (the trainer makes exactly one more merge)
    panel.set_step(recorded)
    panel.step()
    qtbot.waitUntil(lambda: panel.cursor == recorded + 1, timeout=3000)
    assert len(panel.replay) == recorded + 1
    assert shown <= recorded

    # scrub back: every view follows the step (table rows, plots, banner)
    panel.scrubber.setValue(3)
    assert panel.cursor == 3
    assert panel.vocab_model.rowCount() == 3
    assert _plot_len(panel.plots.vocab_curve) == 3
    assert _plot_len(panel.plots.count_curve) == 3
    assert _plot_len(panel.plots.tokens_curve) == 3
    # the banner shows the merge of step 3 - its pair, count and rank - as the trainer made it
    step3 = panel.replay.steps[2]
    assert (step3.left, step3.right, step3.token_id) == trainer.merges[2]
    assert banner_text(panel) == merge_banner_line(step3, panel)

    panel.run_to_end()
    assert panel.wait_until_trained(10)
    qtbot.waitUntil(lambda: panel.cursor == 30, timeout=3000)
    assert [(s.left, s.right, s.token_id) for s in panel.replay.steps] == trainer.merges
    assert panel.vocab_model.rowCount() == 30
    assert _plot_len(panel.plots.cpt_curve) == 30
    x, y = panel.plots.length_hist.getData()
    assert y is not None and y.sum() == 30
    # the model at the shown step is offered to the other panels
    def offered():
        model = panel.session.trained_model
        return model is not None and model.name == "tokviz BPE (step 30)"

    qtbot.waitUntil(offered, timeout=3000)
    assert "tokviz BPE (step 30)" in panel.session.registry


def test_worker_sends_batches_by_time_not_one_signal_per_merge(window, qtbot):
    panel, _ = _panel(window, merges=50, delay=0.003)
    batches: list[int] = []
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.start_training()
    panel.run.worker.batch.connect(lambda steps: batches.append(len(steps)))
    assert panel.wait_until_trained(20)
    assert sum(batches) == len(panel.replay) == 50
    assert 2 <= len(batches) < 50 / 3  # several merges per signal (batched every ~50 ms)


def test_while_the_trainer_computes_whole_frames_follow_it_and_every_view_ends_on_the_last_step(window, qtbot):
    # Views that took turns showed different steps in one frame (the why-this-pair block came and
    # went); now every frame drawn shows one step everywhere, fewer frames while the trainer computes.
    panel, _ = _panel(window, merges=50, delay=0.06)  # 3 s
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)  # follow the trainer as fast as it goes
    seen: list[dict] = []

    def record_until_trained() -> bool:
        shown = panel.shown_steps()
        if shown["label"]:
            seen.append(shown)
        return panel.run is None

    panel.start_training()
    qtbot.waitUntil(record_until_trained, timeout=30_000)
    qtbot.waitUntil(lambda: not panel.frame_timer.isActive(), timeout=5000)  # and the frames stopped
    assert len({s["label"] for s in seen}) > 3  # the views followed the run
    mixed = [s for s in seen if len(set(s.values())) != 1]
    assert not mixed, mixed[:3]
    assert set(panel.shown_steps().values()) == {50}  # all show the last step at the end


def test_cancel_and_close_mid_run_stop_the_thread(window, qtbot):
    panel, made = _panel(window, merges=5000, delay=0.005)
    panel.speed_combo.setCurrentIndex(SPEEDS.index(("1000 merges/s", 1000.0)))
    panel.start_training()
    qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) >= 3, timeout=5000)
    run: TrainRun = panel.run
    panel.cancel()
    assert not run.thread.isRunning()
    assert panel.finished.reason == "cancelled"
    kept = len(panel.replay)
    qtbot.waitUntil(lambda: panel.cursor == kept, timeout=3000)  # the animation plays what was learned
    assert kept >= 3 and not panel.cancel_button.isEnabled()

    panel.start_training()
    qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) >= 2, timeout=5000)
    run = panel.run
    window.close()
    assert not run.thread.isRunning()
    # the close cancelled the run between merges; it did not wait for all 5000 (~25 s of work)
    assert len(made[-1].merges) < 5000


def test_a_batch_queued_before_a_cancel_does_not_reach_the_panel(window, qtbot):
    # on a loaded machine the worker's last batch can still be in the GUI thread's queue when the
    # user cancels: the recording must stay what the cancel reported, or the animation's end moves
    panel, _ = _panel(window, merges=5000, delay=0.005)
    panel.start_training()
    qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) >= 3, timeout=5000)
    run: TrainRun = panel.run
    last = panel.replay.steps[-1]
    late = dataclasses.replace(last, step=last.step + 1)
    # queued for the GUI thread exactly as the worker's thread queues a batch (no event loop runs
    # between this and the cancel: the slot cannot have run yet)
    sender = threading.Thread(target=run.worker.batch.emit, args=([late],))
    sender.start()
    sender.join()
    panel.cancel()
    kept = len(panel.replay)
    assert panel.finished.merges == kept
    qtbot.wait(50)  # the queued batch is delivered now, to a closed gate
    assert len(panel.replay) == kept


def test_switching_corpus_mid_run_stops_the_old_run(window, qtbot):
    panel, _ = _panel(window, merges=5000, delay=0.005)
    panel.start_training()
    qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) >= 2, timeout=5000)
    run = panel.run
    panel.set_source(CorpusSource.paste("새 코퍼스 새 코퍼스\nnew corpus new corpus\n"))
    assert not run.thread.isRunning()
    assert panel.run is None and panel.replay is None and panel.cursor == 0
    assert "새 코퍼스" in panel.sample_view.toPlainText()


def test_a_failure_inside_the_worker_shows_in_the_window_and_training_starts_again(window, qtbot):
    panel, _ = _panel(window, merges=20, fail_at=6)
    panel.start_training()
    assert panel.wait_until_trained(10)
    qtbot.waitUntil(lambda: panel.message.isVisible(), timeout=3000)
    assert "injected failure" in panel.message.label.text()
    assert len(panel.replay) == 5  # the merges before the failure are kept
    assert panel.train_button.isEnabled()

    panel.trainer_factory = lambda config: NaiveTrainer(config)
    panel.start_training()
    assert not panel.message.isVisible()
    assert panel.wait_until_trained(10)
    assert len(panel.replay) == 20


def test_a_session_of_runs_keeps_what_was_frozen_and_does_not_grow(window, qtbot):
    """A run holds off full collections while it trains; it must neither thaw what others froze (the
    whole permanent generation went back to every collection when a run ended) nor keep its own
    objects out of collections for ever (a session of many runs grew)."""
    panel, made = _panel(window, merges=20)
    WorkService.collection.freeze_survivors()  # as the session does after each test: its heap for good
    frozen = gc.get_freeze_count()
    tracked = []
    for run in range(4):
        panel.start_training()
        assert panel.wait_until_trained(10) and len(made) == run + 1 and len(panel.replay) == 20
        assert WorkService.collection.holds == 0  # the run ended: full collections run again
        assert frozen - 1000 < gc.get_freeze_count() < frozen + 1000  # a frozen object freed may leave it
        gc.collect()
        tracked.append(len(gc.get_objects()) + gc.get_freeze_count())
    assert max(tracked[1:]) - tracked[1] < 2000, tracked


def test_vocab_search_filters_rows(window, qtbot):
    panel, _ = _panel(window, merges=40)
    panel.run_to_end()
    assert panel.wait_until_trained(10)
    qtbot.waitUntil(lambda: panel.cursor == 40, timeout=3000)
    piece = next(s.new_piece for s in panel.replay.steps if "안" in s.new_piece)
    panel.search_edit.setText("안")
    rows = panel.vocab_filter.rowCount()
    assert 0 < rows < 40
    panel.search_edit.setText("")
    assert panel.vocab_filter.rowCount() == 40
    assert piece


def test_a_run_stuck_past_the_timeout_is_parked_not_destroyed(qtbot):
    """A trainer stuck in a long step outlives stop(): the work service keeps the QThread object
    alive (no "QThread destroyed while running") and lets it go once the trainer notices the cancel."""
    release = threading.Event()

    def stuck(cancel):
        yield from ()
        release.wait(5)  # a long uninterruptible step

    work = WorkService()
    run = TrainRun(lambda cancel: (e for e in stuck(cancel)), work=work)
    run.start()
    qtbot.waitUntil(run.thread.isRunning, timeout=2000)
    assert run.stop(timeout=0.1) is False
    assert work.adopted == 1
    release.set()
    qtbot.waitUntil(lambda: work.adopted == 0, timeout=5000)
    assert not run.thread.isRunning()


class _CountingUntilReleased:
    """A trainer that stays in its counting phase until the test releases it."""

    def __init__(self, config):
        self.config = config
        self.release = threading.Event()
        self.started = threading.Event()

    def run(self, lines, *, cancel=None, total_bytes=None):
        self.started.set()
        yield Progress("counting", 0, 100)
        while not self.release.wait(0.02):
            if cancel is not None and cancel():
                yield Finished("cancelled", 0, "cancelled while counting")
                return
        yield Finished("exhausted", 0, "nothing to merge")


class _PaintCounter(QObject):
    def __init__(self):
        super().__init__()
        self.paints = 0
        self.painted: list[str] = []

    def eventFilter(self, obj, event):  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
            self.painted.append(f"{type(obj).__name__} {type(obj.parent()).__name__} {event.rect()}")
        return False


def test_a_run_paints_step_0_before_the_worker_starts_counting(window, qtbot):
    """While the char-mode trainer counts, it holds the GIL in ~15 ms C calls and every Python paint
    override (pyqtgraph's items, the sample view) waits for one: a repaint of the plots there took
    700-900 ms. So every view is rendered and painted for step 0 before the worker starts, and
    nothing heavy is repainted while it counts."""
    panel = window.show_view("train")
    made: list[_CountingUntilReleased] = []
    panel.trainer_factory = lambda config: made.append(_CountingUntilReleased(config)) or made[-1]
    panel.set_source(CorpusSource.paste(TEXT))
    qtbot.waitExposed(window)
    qtbot.wait(100)  # the paints of showing the panel
    counter = _PaintCounter()
    heavy = [panel.plots.viewport(), panel.sample_view.viewport(), panel.probe_view.viewport(),
             panel.vocab_view.viewport(), panel.tree_view]
    for widget in heavy:
        widget.installEventFilter(counter)
    try:
        panel.start_training()
        # step 0 is prepared in slices (a turn of the event loop each) and the worker starts once it is
        # drawn; the counting trainer sends no step, so what is shown now is what was drawn before it
        qtbot.waitUntil(lambda: bool(made) and made[-1].started.is_set(), timeout=10_000)
        assert set(panel.shown_steps().values()) <= {0, None}, panel.shown_steps()
        counter.paints, counter.painted = 0, []
        qtbot.waitUntil(lambda: "counting" in panel.progress_bar.format(), timeout=3000)
        frames: list[int] = []
        panel.frame_timer.timeout.connect(lambda: frames.append(1))
        qtbot.waitUntil(lambda: len(frames) >= 5, timeout=10_000)  # several frames while the trainer counts
        assert panel.run is not None and not panel.replay
        assert counter.paints == 0, counter.painted
    finally:
        for widget in heavy:
            widget.removeEventFilter(counter)
        if made:
            made[-1].release.set()
    qtbot.waitUntil(lambda: panel.run is None, timeout=3000)


def _presenting_window(qtbot, tmp_path, pace):
    from tokviz.ui.settings import Settings

    settings = Settings.at(tmp_path / "s.ini")
    settings.presentation_pace = pace
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    win.show()
    return win


def test_presentation_mode_plays_training_by_itself_at_the_chosen_pace(qtbot, tmp_path):
    win = _presenting_window(qtbot, tmp_path, 30.0)
    try:
        panel, made = _panel(win, merges=12)
        panel.speed_combo.setCurrentIndex(SPEEDS.index(("1000 merges/s", 1000.0)))
        assert win.pace_actions[30.0].isChecked()
        # every frame records the time it was given and the step it shows: the animation may
        # never run ahead of 30 merges/s of the frames' own time (however slow the machine is)
        frames: list[tuple[float, int]] = []
        advance = panel.playback.advance

        def recording_advance(dt, recorded):
            moved = advance(dt, recorded)
            frames.append((dt, panel.playback.cursor))
            return moved

        panel.playback.advance = recording_advance
        win.presentation_action.trigger()  # F11 on the Train tab: it starts on its own
        assert panel.playing and made, "presentation mode did not start training"
        assert SPEEDS[panel.speed_combo.currentIndex()][1] == 30.0
        # the animation advances at the pace: 12 merges at 30/s take ~0.4 s of frames, not one
        qtbot.waitUntil(lambda: panel.cursor == 12, timeout=8000)
        del panel.playback.advance
        played = 0.0
        for dt, cursor in frames:
            played += dt
            assert cursor <= 1 + 30.0 * played + 1e-6, (cursor, played)  # one step of budget at most
        # at the end, leaving and re-entering plays the recording again from step 0 (no retraining)
        win.presentation_action.trigger()
        assert SPEEDS[panel.speed_combo.currentIndex()][1] == 1000.0  # the user's own speed is back
        win.presentation_action.trigger()
        assert panel.playing and panel.cursor < 12 and len(made) == 1
        qtbot.waitUntil(lambda: panel.cursor == 12, timeout=5000)
        win.presentation_action.trigger()
    finally:
        win.close()


def test_presentation_mode_plays_once_per_show_and_not_at_all_when_off(qtbot, tmp_path):
    win = _presenting_window(qtbot, tmp_path, 0.0)
    try:
        panel, made = _panel(win, merges=12)
        win.show_view("inspect")
        win.presentation_action.trigger()
        win.show_view("train")
        assert not panel.playing and not made  # "No auto-play": the presenter presses Train
        win.set_presentation_pace(3.0)  # choosing a pace while presenting starts it
        assert panel.playing and SPEEDS[panel.speed_combo.currentIndex()][1] == 3.0
        assert win.settings.presentation_pace == 3.0
        panel.pause()
        win.show_view("compare")
        win.show_view("train")
        assert not panel.playing  # paused by the presenter stays paused
        win.presentation_action.trigger()
    finally:
        win.close()


def test_hangul_only_ticked_after_a_run_takes_effect_on_the_next_run_and_on_reset(window, qtbot):
    from tokviz.ui.train_replay import keep_hangul

    panel, _ = _panel(window, merges=5)
    has_latin = [line for line in panel.sample_lines if not keep_hangul(line).strip()]
    assert has_latin  # "low lower lowest ..." would be blank with Hangul only
    panel.start_training()
    assert panel.wait_until_trained(10)
    before = panel.sample_lines
    panel.hangul_check.setChecked(True)
    assert panel.sample_lines == before  # the run on screen keeps the sample it trained with
    panel.start_training()
    assert panel.wait_until_trained(10)
    qtbot.waitUntil(lambda: panel.cursor == len(panel.replay) > 0, timeout=10_000)
    lines = panel.sample_lines
    assert lines and all(keep_hangul(line).strip() for line in lines)
    view = panel.sample_view

    def every_line_shows_pieces() -> bool:
        # The view shows the corpus lines that make the merge on screen first (a worker finds them, so
        # they may arrive at any frame, and their copies leave the sample below), then the sample.
        followed = panel.followed_lines()
        shown = followed + [line for line in lines if line not in followed]
        runs = [view.line_runs(i) for i in range(view.line_count())]
        return len(runs) == len(shown) and all(
            not isinstance(r, str) and any(run.bg and run.text.strip() for run in r) for r in runs)

    qtbot.waitUntil(every_line_shows_pieces, timeout=10_000)  # every line shows pieces, none is blank

    panel.hangul_check.setChecked(False)
    assert panel.sample_lines == lines  # still the run's sample
    panel.reset()
    assert any(line in panel.sample_lines for line in has_latin)
    assert set(has_latin) <= set(view.toPlainText().split("\n"))


def test_a_mode_picked_mid_run_is_refused_visibly_and_applies_to_the_next_run(window, qtbot):
    panel, _made = _panel(window, merges=30, delay=0.05)
    panel.start_training()
    qtbot.waitUntil(lambda: panel.cursor >= 2, timeout=5000)
    panel.pause()
    reason = panel.options_view.reason
    # paused, the trainer still alive: the mode box is locked and the row says why
    assert not panel.mode_combo.isEnabled() and reason.isVisible() and "Reset" in reason.text()
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))  # a script or shortcut tries anyway
    assert panel.mode_combo.currentData() == "byte"  # the box keeps saying what the run trains with
    panel.train_or_play()
    qtbot.waitUntil(lambda: panel.cursor >= 4, timeout=5000)
    assert panel.replay.mode == "byte"
    panel.cancel()
    assert panel.mode_combo.isEnabled() and not reason.isVisible()
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    panel.train_or_play()  # the settings changed: ▶ trains anew with them instead of replaying
    assert panel.replay.mode == "char" and len(panel.replay) == 0
    panel.cancel()
