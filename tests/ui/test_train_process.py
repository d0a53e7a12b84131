"""The Train panel with its default trainer, which trains in a child process: pausing stops the
child, Step lets exactly one merge through, cancel / close / a new corpus leave no child behind,
and the child's errors show in the window like any other."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from tests.support.corpora import english_text, korean_text
from tests.support.processes import wait_until_idle
from tests.support.stand_in_trainers import CrashingTrainer
from tokviz.core.training.process import ProcessTrainer
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.panel import default_trainer_factory
from tokviz.ui.train.views import SPEEDS

# long enough that 3000 merges with min frequency 1 are far from done when the tests step in
TEXT = korean_text(3000) + english_text()


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()


def _panel(window, *, merges=3000, text=TEXT):
    panel = window.show_view("train")
    assert panel.trainer_factory is default_trainer_factory
    panel.set_source(CorpusSource.paste(text))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    panel.minfreq_spin.setValue(1)
    panel.merges_spin.setValue(merges)
    return panel


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
def test_pause_stops_the_training_process_and_step_lets_one_merge_through(window, qtbot):
    panel = _panel(window)
    panel.speed_combo.setCurrentIndex(SPEEDS.index(("1 merge/s", 1.0)))
    panel.start_training()
    assert isinstance(panel.trainer, ProcessTrainer)
    panel.pause()  # the worker stops at the first merge; the child a few merges later
    qtbot.waitUntil(lambda: not panel.computing() and panel.replay is not None and len(panel.replay) >= 1,
                    timeout=10_000)
    pid = panel.trainer.pid
    assert pid is not None
    # the child computes the merges of its lead, then waits for credit: a paused demo burns no
    # CPU (a child without flow control would go on to 3000 merges)
    wait_until_idle(pid, between=lambda seconds: qtbot.wait(int(seconds * 1000)))
    recorded = len(panel.replay)
    assert panel.run is not None and recorded < 3000
    panel.set_step(recorded)
    panel.step()
    qtbot.waitUntil(lambda: panel.cursor == recorded + 1, timeout=3000)
    qtbot.wait(100)
    assert len(panel.replay) == recorded + 1
    assert panel.trainer.pid == pid  # the same run goes on
    panel.run_to_end()
    assert panel.wait_until_trained(60)
    assert panel.finished.reason in ("merges", "min_frequency", "exhausted")
    assert [(s.left, s.right, s.token_id) for s in panel.replay.steps] == panel.trainer.merges
    assert multiprocessing.active_children() == []


def test_cancel_close_and_a_new_corpus_leave_no_training_process(window, qtbot):
    panel = _panel(window)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.start_training()
    qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) >= 3, timeout=10_000)
    assert len(multiprocessing.active_children()) == 1
    panel.cancel()
    assert multiprocessing.active_children() == [] and panel.finished.reason == "cancelled"

    panel.start_training()
    qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) >= 1, timeout=10_000)
    old = panel.trainer.pid
    panel.set_source(CorpusSource.paste("새 코퍼스 새 코퍼스\nnew corpus new corpus\n"))
    assert multiprocessing.active_children() == []
    with pytest.raises(ProcessLookupError):
        os.kill(old, 0)

    panel.set_source(CorpusSource.paste(TEXT))
    panel.start_training()
    qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) >= 1, timeout=10_000)
    window.close()
    assert multiprocessing.active_children() == []


def test_errors_in_the_training_process_show_in_the_window_and_the_panel_keeps_working(window, qtbot):
    panel = _panel(window, merges=20, text=" \n\t\n")
    panel.start_training()
    assert panel.wait_until_trained(20)
    qtbot.waitUntil(panel.message.isVisible, timeout=3000)
    assert "no words to train on" in panel.message.label.text()
    assert not panel.message.action.isVisible()  # nothing to replace: not an encoding problem

    panel.trainer_factory = lambda config: ProcessTrainer(CrashingTrainer(config))
    panel.set_source(CorpusSource.paste(TEXT))
    panel.start_training()
    assert panel.wait_until_trained(20)
    qtbot.waitUntil(panel.message.isVisible, timeout=3000)
    text = panel.message.label.text()
    assert "ValueError: injected failure after merge 3" in text
    assert 'raise ValueError("injected failure after merge 3")' in text  # the child's traceback
    assert len(panel.replay) == 3  # the merges before the crash stay

    panel.trainer_factory = default_trainer_factory
    panel.merges_spin.setValue(10)
    panel.start_training()
    assert panel.wait_until_trained(20)
    qtbot.waitUntil(lambda: len(panel.replay) == 10, timeout=3000)
    assert multiprocessing.active_children() == []


def test_a_train_screenshot_fails_loudly_when_training_learned_nothing(window):
    import argparse

    from tests.support.stand_in_trainers import ModelFileErrorTrainer
    from tokviz.core.errors import TokvizError

    panel = window.show_view("train")
    panel.trainer_factory = lambda config: ProcessTrainer(ModelFileErrorTrainer(config))
    with pytest.raises(TokvizError, match="learned no merge: codes.txt: line 2 is not a merge"):
        panel.prepare_screenshot(argparse.Namespace(corpus=None, merges=20))
    assert multiprocessing.active_children() == []


def test_unigram_trains_in_the_training_process_and_a_cancel_keeps_its_model(window, qtbot):
    panel = window.show_view("train")
    panel.set_source(CorpusSource.paste(korean_text(100)))
    panel.algorithms.set_algorithm("unigram")
    panel.algorithms.vocab_spin.setValue(700)
    panel.train_button.click()
    panel.pause_button.click()  # the child stops one step ahead, waiting for credit
    qtbot.waitUntil(lambda: not panel.step_label.text().startswith("step 0 "), timeout=60_000)
    assert len(multiprocessing.active_children()) == 1  # Unigram trains in its own process, as BPE does
    panel.cancel_button.click()
    assert "cancelled" in panel.message.label.text()
    shown = panel.step_label.text().split()[1]  # "step N / M": N is on screen
    # the model at the step on screen is offered to Inspect and Compare: the child built it
    qtbot.waitUntil(lambda: window.session.trained_model is not None, timeout=10_000)
    assert f"(step {shown}," in window.session.trained_model.name
    assert len(multiprocessing.active_children()) == 1  # kept while its steps' models may be asked for
    panel.set_source(CorpusSource.paste(TEXT))  # a new corpus forgets the run and its process
    assert multiprocessing.active_children() == []


def test_training_run_starts_any_algorithm_in_the_training_process(qtbot):
    from tokviz.core.training import StepEvent
    from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceStep
    from tokviz.ui.common.work import WorkService
    from tokviz.ui.train.worker import training_run

    run = training_run(
        "wordpiece", WordPieceConfig(vocab_size=900), CorpusSource.paste(korean_text(100)), work=WorkService()
    )
    steps: list = []
    run.worker.batch.connect(steps.extend)
    with qtbot.waitSignal(run.worker.finished, timeout=60_000) as ended:
        run.start()
    finished, ok = ended.args
    assert ok and finished.reason == "merges" and run.trainer.pid is not None
    assert all(isinstance(e, WordPieceStep) and isinstance(e, StepEvent) for e in steps)
    assert [e.step for e in steps] == list(range(1, finished.merges + 1))
    assert len(run.trainer.model(3).vocab) == steps[2].vocab_size  # the child's model at a step
    run.stop()
    run.trainer.close()
    assert multiprocessing.active_children() == []
