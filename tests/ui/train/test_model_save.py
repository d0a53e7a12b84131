"""Save model… never freezes the window: the model is fetched from the trainer and written in the
background, the button says "Saving…" meanwhile, and a run reset before the model came writes nothing."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog

from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.encoders.builtin import open_model_file
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.corpus import CorpusSource

CORPUS = Path(__file__).parents[2] / "data" / "nsmc_ko_600.txt"
LINE = "영화가 정말 재밌어요 the lowest newer"


@pytest.fixture(scope="module")
def window(qapp):
    win = MainWindow()
    win.show()
    yield win
    win.close()
    win.deleteLater()


class Gate:
    """A trainer's ``model`` that waits until the test opens the gate, as a training process busy with
    a step answers only between two steps. Never opened within ``seconds``: the caller gets an error."""

    def __init__(self, model, seconds: float = 5.0):
        self.model = model
        self.seconds = seconds
        self.opened = threading.Event()

    def __call__(self, step=None):
        if not self.opened.wait(self.seconds):
            raise RuntimeError("the gate stayed shut: the window waited for the model")
        return self.model(step)


def _trained(window, qtbot, algorithm: str):
    """A finished run of ``algorithm`` on 60 NSMC lines, its model offered: (panel, trainer, step)."""
    panel = window.show_view("train")
    panel.algorithms.set_algorithm(algorithm)
    with open(CORPUS, encoding="utf-8") as f:
        panel.set_source(CorpusSource.paste("".join(f.readlines()[:60])))
    if algorithm == "bpe":
        panel.trainer_factory = BPETrainer  # in this process: no training process to start
        panel.merges_spin.setValue(40)
    else:
        panel.algorithms.vocab_spin.setValue(1000)  # the alphabet and specials are ~400
    panel.end_button.click()
    owner = panel if algorithm == "bpe" else panel.algorithms
    qtbot.waitUntil(lambda: owner.finished is not None and owner.run is None, timeout=60_000)
    session = window.session
    # the model on screen is offered once the step settles (built in the background): let it be
    qtbot.waitUntil(lambda: session.trained_model is not None and not panel.offer_timer.isActive(), timeout=10_000)
    qtbot.waitUntil(lambda: panel.save_button.isEnabled())
    return panel, owner.trainer, owner.cursor


def _save_to(monkeypatch, target: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(target), ""))


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
def test_the_window_keeps_turning_while_the_model_to_save_is_fetched(window, qtbot, monkeypatch, tmp_path, algorithm):
    panel, trainer, step = _trained(window, qtbot, algorithm)
    expected = trainer.model(step)
    gate = Gate(trainer.model)
    monkeypatch.setattr(trainer, "model", gate)
    target = tmp_path / "model.json"
    _save_to(monkeypatch, target)
    # only the event loop opens the gate: a Save that waited for the model on the GUI thread waits in vain
    QTimer.singleShot(0, gate.opened.set)
    button = panel.save_button
    button.click()
    while_saving = (button.text(), button.isEnabled(), panel.message.text())
    qtbot.waitUntil(lambda: button.text() == "Save model…", timeout=10_000)
    # the old Save fetched the model on the GUI thread: "Could not save the model: the gate stayed shut …"
    assert panel.message.text().startswith(f"Saved the model at step {step}") and target.is_file()
    assert while_saving == ("Saving…", False, f"Saving the model at step {step}…")
    assert button.isEnabled()
    loaded = open_model_file(target)  # tokviz's JSON for BPE, tokenizer.json for WordPiece
    assert list(loaded.encode(LINE).ids) == list(expected.encode(LINE).ids)


def test_a_run_reset_before_its_model_came_saves_nothing_and_says_so(window, qtbot, monkeypatch, tmp_path):
    panel, trainer, step = _trained(window, qtbot, "wordpiece")
    gate = Gate(trainer.model)
    monkeypatch.setattr(trainer, "model", gate)
    _save_to(monkeypatch, tmp_path / "model.json")
    panel.save_button.click()
    assert panel.save_button.text() == "Saving…"
    panel.reset_button.click()  # the run goes while its training process has not answered yet
    gate.opened.set()
    qtbot.waitUntil(lambda: panel.save_button.text() == "Save model…", timeout=10_000)
    assert panel.message.text() == f"The run was stopped before the model at step {step} came: nothing was saved."
    assert list(tmp_path.iterdir()) == []
    assert not panel.save_button.isEnabled()  # no run, nothing to save


def test_the_model_offered_when_a_step_settles_is_built_off_the_gui_thread(window, qtbot, monkeypatch):
    """Scrubbing back and letting the step settle offers that step's model to Inspect and Compare; its
    thousands of merges took 30-120 ms to build on the GUI thread each time."""
    panel, trainer, step = _trained(window, qtbot, "bpe")
    model, on_the_gui_thread = trainer.model, []

    def recorded(step=None):
        on_the_gui_thread.append(threading.current_thread() is threading.main_thread())
        return model(step)

    monkeypatch.setattr(trainer, "model", recorded)
    panel.set_step(step - 5)
    qtbot.waitUntil(lambda: window.session.trained_model.name == f"tokviz BPE (step {step - 5})", timeout=10_000)
    assert on_the_gui_thread == [False]
