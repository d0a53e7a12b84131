"""One frame, one step: every view of the Train panel shows the same step in every frame drawn."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.views import SPEEDS

WORDS = (
    "low lower lowest newer wider 안녕하세요 안녕히 가세요 오늘은 날씨가 정말 좋습니다 "
    "tokenization merges pairs counted ranked presentation projector lecture students"
).split()


def _corpus() -> str:
    # enough distinct words for 300 merges, small enough to train in a blink
    lines = [" ".join(f"{w}{i % 37}" for w in WORDS[i % 23 : i % 23 + 4]) for i in range(400)]
    return "\n".join(lines) + "\n"


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    yield win
    win.toggle_presentation(False)
    win.close()


def test_every_frame_of_a_presentation_run_shows_one_step_in_every_view(window, qtbot):
    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.paste(_corpus()))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    # 300 merges, 150 frames (~4 s): views taking turns showed two steps from the first frame whose step moved
    panel.merges_spin.setValue(300)
    panel.frames.timer.blockSignals(True)  # the test's ticks are the only frames (no wall-clock pace)
    window.toggle_presentation(True, full_screen=False)  # plays by itself, trains as it goes
    panel.speed_combo.setCurrentIndex(SPEEDS.index(("100 merges/s", 100.0)))
    # the trainer done before the first tick: while it computes, a frame is drawn every half second
    # of real time (the trainer keeps the CPU), and a loaded machine then showed a few frames only
    qtbot.waitUntil(lambda: panel.run is None and panel.replay is not None and len(panel.replay) == 300, timeout=30_000)
    assert panel.shown_steps()["label"] in (0, None)  # nothing played yet: the ticks below play it
    frames = steps_seen = 0
    why_height = None
    for _ in range(3000):  # a bound, never reached: the run ends long before
        QCoreApplication.processEvents()  # the trainer's batches arrive
        panel.frames.tick(0.02)  # two merges a frame at 100 merges/s
        frames += 1
        shown = panel.shown_steps()
        step = shown["label"]
        if step:
            assert set(shown.values()) == {step}, shown  # banner, why, sample, table, tree, plots alike
            assert panel.why_label.isVisible() and panel.why_label.text()
            why_height = why_height or panel.why_label.height()
            assert panel.why_label.height() >= why_height  # it never shrinks (the table would jump)
            steps_seen += 1
        if panel.run is None and panel.replay is not None and step == len(panel.replay):
            break
    assert len(panel.replay) == 300 and shown["label"] == 300
    assert steps_seen == 150  # two merges a frame: every frame drew its step


def test_a_frame_draws_the_lines_on_screen_and_those_out_of_sight_follow_over_the_next_frames(
    window, qtbot, monkeypatch
):
    from tokviz.ui.train import render

    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.paste(_corpus()))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    panel.merges_spin.setValue(60)
    panel.end_button.click()  # train to the end
    qtbot.waitUntil(lambda: panel.run is None and panel.shown_steps()["label"] == 60, timeout=20_000)
    view = panel.sample_view

    def shown():  # each sample line's text -> its runs, and which lines are on screen
        first, last = view.first_visible_line(), view.last_visible_line()
        out = {}
        for i in range(view.line_count()):
            runs = view.line_runs(i)
            text = runs if isinstance(runs, str) else "".join(r.text for r in runs)
            out[text] = (runs, first <= i <= last)
        return out

    def settled_at(step):  # every line drawn at ``step`` (those out of sight too)
        panel.scrubber.setValue(step)
        qtbot.waitUntil(lambda: not panel.frames.timer.isActive(), timeout=10_000)
        return {text: runs for text, (runs, _) in shown().items()}

    at_30, at_60 = settled_at(30), settled_at(60)
    # no time for the lines out of sight in a frame: the scrubbed frame moves those on screen only
    monkeypatch.setattr(render, "OFFSCREEN_BUDGET_S", -1.0, raising=False)
    panel.scrubber.setValue(30)
    assert panel.shown_steps()["sample"] == 30
    now = {text: v for text, v in shown().items() if text in at_30}
    assert all(runs == at_30[text] for text, (runs, on_screen) in now.items() if on_screen)
    assert any(runs != at_30[text] for text, (runs, on_screen) in now.items() if not on_screen)
    # the next frames bring them to the step on screen
    qtbot.waitUntil(
        lambda: all(runs == at_30[t] for t, (runs, _) in shown().items() if t in at_30 and t in at_60), timeout=10_000
    )
