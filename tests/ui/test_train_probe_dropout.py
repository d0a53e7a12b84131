"""BPE-dropout in the Train panel's probe: the Inspector's dropout view, fed the model at the step on
screen. P = 0 is the plain probe, one seed one segmentation, and Re-roll draws another."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QApplication

from tests.support.train_panel import LINES, open_train_panel
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.views import SPEEDS

PROBE = "토크나이저는 글자를 조각으로 나눕니다 tokens"


@pytest.fixture
def panel(qtbot):
    panel = open_train_panel(qtbot)
    panel.trainer_factory = BPETrainer  # a tiny corpus: trained in the worker thread, no process
    panel.set_source(CorpusSource.paste("".join(LINES)))
    panel.merges_spin.setValue(80)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.probe_edit.setText(PROBE)
    yield panel
    panel.window().close()


def _sample_ids(panel, qtbot, *, p: float | None = None, seed: int | None = None, reroll: bool = False):
    view = panel.probe_dropout
    with qtbot.waitSignal(view.updated, timeout=20_000):
        if p is not None:
            view.p_slider.setValue(round(p * 100))
        if seed is not None:
            view.seed_spin.setValue(seed)
        if reroll:
            view.reroll()
        view.recompute()
    assert view.result.stats is not None and view.result.stats.samples == view.samples_spin.value()
    return view.result.sample.ids


def test_the_probe_dropout_fits_1024_by_768_and_rerolls_with_the_model_at_the_step_on_screen(panel, qtbot, monkeypatch):
    """One run for both (a run of its own cost ~0.7 s CPU): folded, the view keeps the panel within a
    1024×768 screen and samples nothing; unfolded, it rerolls with the model at the step on screen,
    which is built off the GUI thread (tens of ms at thousands of merges, at every step it rests on)."""
    built_on: list[bool] = []
    assert not panel.probe_dropout.isVisibleTo(panel)  # nothing trained: no model to drop merges of
    panel.start_training()
    panel.run_to_end()
    qtbot.waitUntil(lambda: panel.run is None, timeout=20_000)
    build = panel.trainer.model

    def counted(step=None):
        built_on.append(threading.current_thread() is threading.main_thread())
        return build(step)

    monkeypatch.setattr(panel.trainer, "model", counted)  # every model built from here on, by anyone
    panel.pause()
    panel.set_step(len(panel.replay))
    panel.segment_probe()
    _check_the_folded_view_fits_1024_by_768_and_unfolds(panel, qtbot)
    _check_rerolls_with_the_model_at_the_step_on_screen(panel, qtbot, build)
    assert built_on and not any(built_on)  # models were built, none of them on the GUI thread


def _check_the_folded_view_fits_1024_by_768_and_unfolds(panel, qtbot):
    assert panel.probe_dropout.isVisibleTo(panel)
    window = panel.window()
    QApplication.processEvents()  # the layouts take in the view just shown
    window.layout().activate()
    hint = window.minimumSizeHint().expandedTo(window.minimumSize())
    assert hint.width() <= 1024 and hint.height() <= 768, hint
    view = panel.probe_dropout
    assert not view.reroll_button.isVisibleTo(panel)  # folded: the title and P only
    assert view.encoder is None  # and nothing is sampled while nobody sees it (scrubbing stays light)
    with qtbot.waitSignal(view.updated, timeout=20_000):
        view.title.setChecked(True)  # unfolded: seed, Re-roll, samples, the summary and the bars
    assert view.strip_scroll.isVisibleTo(panel) and view.reroll_button.isVisibleTo(panel)
    assert view.result.text == PROBE and view.result.stats is not None


def _check_rerolls_with_the_model_at_the_step_on_screen(panel, qtbot, model_at):
    view = panel.probe_dropout
    with qtbot.waitSignal(view.updated, timeout=20_000):  # the model at step 50 comes, and is sampled
        panel.set_step(50)
        panel.segment_probe()
    assert view.isVisibleTo(panel) and view.text == PROBE
    model = model_at(50)  # the reference, built here (not counted as the view's)
    plain = panel.replay.model.encode(PROBE, max_rank=50).ids
    # P = 0 is exactly the probe's own segmentation at this step
    assert _sample_ids(panel, qtbot, p=0.0) == plain
    assert sum(1 for s in panel.replay.segment(PROBE, 50) if s.token_id is not None) == len(plain)
    # one seed, one sample: the view shows the core's seeded sample, again and again
    first = _sample_ids(panel, qtbot, p=0.5, seed=3)
    assert first == model.encode_dropout(PROBE, 0.5, seed=3).ids
    _sample_ids(panel, qtbot, seed=4)
    assert _sample_ids(panel, qtbot, seed=3) == first
    # Re-roll: the next seed, a new segmentation (seed 3 and 4 differ in the core: checked first)
    assert model.encode_dropout(PROBE, 0.5, seed=4).ids != first
    assert _sample_ids(panel, qtbot, reroll=True) == model.encode_dropout(PROBE, 0.5, seed=4).ids
    assert view.seed_spin.value() == 4
    # the scrubber moves the model: the dropout view follows the step on screen
    with qtbot.waitSignal(view.updated, timeout=20_000):
        panel.set_step(10)
        panel.segment_probe()
    assert _sample_ids(panel, qtbot, p=0.0) == panel.replay.model.encode(PROBE, max_rank=10).ids
