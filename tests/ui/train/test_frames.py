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
    panel.merges_spin.setValue(300)
    panel.frames.timer.blockSignals(True)  # the test's ticks are the only frames (no wall-clock pace)
    window.toggle_presentation(True, full_screen=False)  # plays by itself, trains as it goes
    panel.speed_combo.setCurrentIndex(SPEEDS.index(("100 merges/s", 100.0)))
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
    assert steps_seen > 100
