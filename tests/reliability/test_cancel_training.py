"""Cancel during training, for every algorithm and at several phases, and closing the Train panel mid-run.

A cancel ends the run with Finished("cancelled") and leaves the model of the last step it reported
(``model()`` equals ``model(k)`` for the k steps seen). Closing the window while the Train panel
trains — while it counts, mid-merges, paused, or just after a cancel — returns without a hang, leaves
no training thread or process, and raises nothing (pytest-qt fails the test on any exception that
escapes into Qt's event loop).
"""

from __future__ import annotations

import functools
import multiprocessing

import pytest

from tests.support.trained_models import corpus_lines
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.training import Finished, Progress
from tokviz.core.unigram import flat_lattice
from tokviz.core.unigram import state as unigram_state
from tokviz.core.unigram import trainer as unigram_trainer
from tokviz.core.unigram.events import EMStep, PruneStep
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer
from tokviz.core.wordpiece import merge_state as wordpiece_merge_state
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceStep, WordPieceTrainer

LINES = corpus_lines() * 3

TRAINERS = {
    "bpe-byte": lambda: BPETrainer(TrainerConfig(mode="byte", merges=200, min_frequency=2)),
    "bpe-char": lambda: BPETrainer(TrainerConfig(mode="char", merges=200, min_frequency=2)),
    "wordpiece": lambda: WordPieceTrainer(WordPieceConfig(vocab_size=1600)),
    "unigram": lambda: UnigramTrainer(UnigramConfig(vocab_size=1000)),
}


def _model_signature(algorithm: str, model):
    """What identifies a model of each algorithm: merges, vocabulary, or pieces with scores."""
    if algorithm.startswith("bpe"):
        return list(model.merges)
    if algorithm == "wordpiece":
        return list(model.vocab)
    return list(zip(model.pieces, model.scores, strict=True))


def _run_cancelled_after(make, after):
    """Run a trainer, setting its cancel flag once ``after(event, steps_seen)`` is true; returns
    (trainer, events, steps seen before the cancel)."""
    flag = {"cancel": False}
    trainer = make()
    events, steps = [], 0
    for event in trainer.run(LINES, cancel=lambda: flag["cancel"]):
        events.append(event)
        if not isinstance(event, (Progress, Finished)):
            steps += 1
        if not flag["cancel"] and after(event, steps):
            flag["cancel"] = True
            at = steps
    return trainer, events, at


@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_cancel_while_counting_finishes_cancelled_with_no_steps(algorithm):
    trainer, events, at = _run_cancelled_after(TRAINERS[algorithm], lambda e, n: isinstance(e, Progress))
    assert at == 0 and events[-1] == trainer.finished and trainer.finished.reason == "cancelled"
    assert not any(not isinstance(e, (Progress, Finished)) for e in events)


@pytest.mark.parametrize("k", [1, 2, 7])
@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_cancel_after_k_steps_keeps_the_model_of_step_k(algorithm, k):
    trainer, events, at = _run_cancelled_after(TRAINERS[algorithm], lambda e, n: n == k)
    assert at == k
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.reason == "cancelled", finished
    steps = [e for e in events if not isinstance(e, (Progress, Finished))]
    assert len(steps) == k and [e.step for e in steps] == list(range(1, k + 1))
    assert _model_signature(algorithm, trainer.model()) == _model_signature(algorithm, trainer.model(k))
    # and the model works
    trainer.model().encode("안녕하세요 hello 😀")


@pytest.mark.parametrize("phase", [EMStep, PruneStep])
def test_unigram_cancel_in_each_phase_keeps_that_steps_model(phase):
    trainer, events, at = _run_cancelled_after(TRAINERS["unigram"], lambda e, n: isinstance(e, phase))
    assert isinstance(events[-1], Finished) and events[-1].reason == "cancelled"
    assert isinstance([e for e in events if not isinstance(e, (Progress, Finished))][-1], phase)
    assert _model_signature("unigram", trainer.model()) == _model_signature("unigram", trainer.model(at))


def _indexing_steps(algorithm):
    """The ``done`` of every indexing Progress of a whole run."""
    return list(_indexing_steps_of_a_whole_run(algorithm))


@functools.cache  # one whole run per algorithm, not one per test: the steps depend on the corpus, not the clock
def _indexing_steps_of_a_whole_run(algorithm) -> tuple[int, ...]:
    events = TRAINERS[algorithm]().run(LINES)
    return tuple(e.done for e in events if isinstance(e, Progress) and e.phase == "indexing")


@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_indexing_reports_progress_between_its_steps(algorithm):
    # one Progress per step of indexing or seeding (each bounded), not one before and one after it all
    done = _indexing_steps(algorithm)
    assert len(done) >= 6 and done == sorted(done) and done[0] == 0


@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_cancel_lands_in_the_indexing_step_it_was_given_in(algorithm, where):
    steps = _indexing_steps(algorithm)[:-1]  # after the last one the first step is made
    k = {"first": steps[0], "middle": steps[len(steps) // 2], "last": steps[-1]}[where]
    trainer, events, at = _run_cancelled_after(
        TRAINERS[algorithm], lambda e, n: isinstance(e, Progress) and e.phase == "indexing" and e.done == k)
    assert at == 0
    hit = next(i for i, e in enumerate(events) if isinstance(e, Progress) and e.phase == "indexing" and e.done == k)
    # the generator stopped at that Progress: what it yields next is the end, in the same phase
    assert events[hit + 1:] == [trainer.finished] and trainer.finished.reason == "cancelled"
    assert "indexing" in trainer.finished.message or "seed" in trainer.finished.message


def _unigram_events_with_progress_at_every_step(monkeypatch, cancel_when=None, lines=LINES):
    """A Unigram run reporting Progress at every step inside EM and pruning (the interval lowered to 0,
    so the count depends on the steps, not on the clock); ``cancel_when(event, last step event)``
    sets the cancel flag. Returns (trainer, events, index of the event the cancel was set at)."""
    monkeypatch.setattr(unigram_trainer, "STEP_PROGRESS_SECONDS", 0.0)
    monkeypatch.setattr(flat_lattice, "ARC_SLICE", 1000)  # the E-step's elementwise work in many slices
    monkeypatch.setattr(unigram_state, "REMOVED_SLICE", 7)
    flag = {"cancel": False}
    trainer = TRAINERS["unigram"]()
    events, last_step, hit = [], None, None
    for event in trainer.run(lines, cancel=lambda: flag["cancel"]):
        events.append(event)
        if cancel_when is not None and hit is None and cancel_when(event, last_step):
            flag["cancel"], hit = True, len(events) - 1
        if isinstance(event, (EMStep, PruneStep)):
            last_step = event
    return trainer, events, hit


def test_unigram_em_iterations_and_pruning_rounds_report_progress_inside(monkeypatch):
    # issue 23: one EM iteration takes seconds on a big corpus; it reported nothing until its EMStep
    _, events, _ = _unigram_events_with_progress_at_every_step(monkeypatch)
    rounds, inside = [], 0
    for e in events:
        if isinstance(e, Progress) and e.phase == "training":
            inside += 1
        elif isinstance(e, (EMStep, PruneStep)):
            rounds.append((type(e).__name__, inside))
            inside = 0
    assert any(name == "PruneStep" for name, _ in rounds)
    assert all(n >= 5 for name, n in rounds if name in ("EMStep", "PruneStep")), rounds


@pytest.mark.parametrize("phase", ["em", "prune"])
def test_unigram_cancel_lands_inside_an_em_iteration_or_pruning_round(monkeypatch, phase):
    def inside(event, last):
        if not (isinstance(event, Progress) and event.phase == "training" and isinstance(last, EMStep)):
            return False
        return last.iteration == (1 if phase == "em" else UnigramConfig().num_sub_iterations)

    trainer, events, hit = _unigram_events_with_progress_at_every_step(monkeypatch, inside)
    assert hit is not None
    # the round stops at the next step: no EMStep or PruneStep comes, only the end
    assert events[hit + 1:] == [trainer.finished] and trainer.finished.reason == "cancelled"
    k = len([e for e in events if isinstance(e, (EMStep, PruneStep))])
    assert _model_signature("unigram", trainer.model()) == _model_signature("unigram", trainer.model(k))


def test_unigram_model_is_the_same_whatever_the_progress_interval(monkeypatch):
    # reporting inside the rounds (and slicing the work for it) changes no bit of pieces and scores
    lines = corpus_lines()
    plain = TRAINERS["unigram"]()
    list(plain.run(lines))
    reporting, _, _ = _unigram_events_with_progress_at_every_step(monkeypatch, lines=lines)
    assert _model_signature("unigram", reporting.model()) == _model_signature("unigram", plain.model())


def test_wordpiece_cancel_lands_inside_a_merge(monkeypatch):
    # an early merge of a big corpus took 0.64 s with no poll: the merge itself now polls every slice
    monkeypatch.setattr(wordpiece_merge_state, "MERGE_SLICE", 1)
    polls = {"since_step": None}

    def cancel():
        # after a step the first poll is the one before the next merge; a second one before the
        # next step can only come from inside that merge: cancel there
        if polls["since_step"] is None:
            return False
        polls["since_step"] += 1
        return polls["since_step"] > 1

    trainer = TRAINERS["wordpiece"]()
    events = []
    for event in trainer.run(LINES, cancel=cancel):
        events.append(event)
        if not isinstance(event, (Progress, Finished)):
            polls["since_step"] = 0
    assert trainer.finished.reason == "cancelled" and events[-1] == trainer.finished
    k = len([e for e in events if not isinstance(e, (Progress, Finished))])
    assert trainer.finished.merges == k and isinstance(events[-2], WordPieceStep)
    assert _model_signature("wordpiece", trainer.model()) == _model_signature("wordpiece", trainer.model(k))


# ---- the Train panel -------------------------------------------------------------------------------
@pytest.fixture
def window(qtbot):
    from tokviz.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()


def _start(window, mode: str):
    from tokviz.ui.train.corpus import CorpusSource
    from tokviz.ui.train.views import SPEEDS

    panel = window.show_view("train")
    panel.set_source(CorpusSource.paste("".join(LINES * 4)))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData(mode))
    panel.minfreq_spin.setValue(1)
    panel.merges_spin.setValue(3000)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.start_training()
    return panel


@pytest.mark.parametrize("phase", ["counting", "merging", "paused", "cancelled"])
@pytest.mark.parametrize("mode", ["byte", "char"])
def test_closing_the_window_mid_run_does_not_hang_or_raise(window, qtbot, mode, phase):
    panel = _start(window, mode)
    run = panel.run
    assert run is not None
    if phase != "counting":
        qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) >= 3, timeout=60_000)
    if phase == "paused":
        panel.pause()
        qtbot.waitUntil(lambda: panel._worker_quiet, timeout=30_000)
    if phase == "cancelled":
        panel.cancel()
        assert panel.finished.reason == "cancelled"
    # at full speed the worker runs ahead of the animation and may have sent all 3000 merges already
    # (a loaded machine): what closing must not do is train on from where the worker stood
    seen = run.worker.merges_seen
    window.close()  # returns: the hang this guards against never returned
    assert not run.thread.isRunning()
    qtbot.waitUntil(lambda: multiprocessing.active_children() == [], timeout=30_000)
    assert panel.run is None
    if phase == "paused":  # the worker was blocked between merges: closing did not let it go on
        assert len(panel.replay) <= seen
    elif panel.replay is not None and phase != "counting" and seen < 2900:
        assert len(panel.replay) < 3000  # stopped, not trained to the end first
