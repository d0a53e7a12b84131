"""The Train panel's model without Qt: what a user does, as intents and what the model then says."""

from __future__ import annotations

import tokviz.ui.train.model as model_module
from tokviz.ui.train.model import LOCKED, TrainState


def _heard(state: TrainState) -> list[tuple[str, object]]:
    heard: list[tuple[str, object]] = []
    state.events.connect(lambda name, value: heard.append((name, value)))
    return heard


def test_the_model_imports_no_qt():
    source = open(model_module.__file__, encoding="utf-8").read()
    assert "PySide6" not in source and "pyqtgraph" not in source


def test_a_mode_change_mid_run_is_refused_with_a_reason_and_the_run_keeps_its_mode():
    state = TrainState()
    heard = _heard(state)
    state.start_run()
    state.record(5)
    state.playback.pause()  # paused: the trainer is alive, waiting
    assert state.change(mode="char") == LOCKED
    assert ("refused", LOCKED) in heard
    assert state.options.mode == "byte" and state.snapshot().mode == "byte"
    assert state.locked_reason() == LOCKED


def test_after_the_run_ends_a_mode_change_applies_to_the_next_run():
    state = TrainState()
    state.start_run()
    state.record(3)
    state.finish("cancelled")
    assert state.locked_reason() is None
    assert state.change(mode="char") is None
    assert state.stale()  # the run on screen is byte: ▶ trains anew
    assert state.snapshot().mode == "byte"  # what is on screen still says what it was trained with
    state.start_run()
    assert state.snapshot().mode == "char" and not state.stale()


def test_bad_options_are_refused_not_stored():
    state = TrainState()
    assert "unknown mode" in state.change(mode="bits")
    assert "unknown algorithm" in state.change(algorithm="sentencepiece")
    assert state.options.mode == "byte" and state.options.algorithm == "bpe"


def test_scrubbing_shows_recorded_steps_only():
    state = TrainState()
    state.start_run()
    state.record(10)
    assert state.seek(4) == 4 and state.snapshot().step == 4
    assert state.seek(99) == 10  # past the recording: its last step
    assert state.seek(-3) == 0
    assert not state.snapshot().playing


def test_stepping_past_the_recording_waits_for_the_trainer_then_shows_the_step():
    state = TrainState()
    state.start_run()
    state.record(2)
    state.seek(2)
    assert state.step_forward() is False  # asked of the trainer
    assert state.snapshot().step == 2
    state.record(1)
    assert state.playback.advance(0.04, state.recorded) == "target"
    assert state.snapshot().step == 3


def test_stepping_past_a_finished_recording_goes_nowhere():
    state = TrainState()
    state.start_run()
    state.record(2)
    state.finish()
    state.seek(2)
    assert state.step_forward() is False
    state.playback.advance(0.04, state.recorded)
    assert state.snapshot().step == 2 and state.playback.step_target is None


def test_corpus_mode_and_algorithm_come_back_from_what_was_remembered():
    first = TrainState()
    first.change(algorithm="unigram", mode="char")
    first.choose_corpus("/data/nsmc.txt")
    saved = first.remembered()

    second = TrainState()
    heard = _heard(second)
    assert second.restore(saved) == ["algorithm", "mode", "corpus"]
    assert second.options.algorithm == "unigram" and second.options.mode == "char"
    assert second.corpus == "/data/nsmc.txt" and ("corpus", "/data/nsmc.txt") in heard


def test_a_remembered_value_that_no_longer_makes_sense_is_skipped():
    state = TrainState()
    restored = state.restore(
        {"corpus": "/gone.txt", "mode": "bits", "algorithm": "bpe"}, corpus_exists=lambda _key: False
    )
    assert restored == ["algorithm"] and state.corpus == "demo" and state.options.mode == "byte"


def test_a_new_corpus_forgets_the_run():
    state = TrainState()
    state.start_run()
    state.record(4)
    state.choose_corpus("/other.txt")
    assert state.run is None and state.snapshot().status == "idle" and state.snapshot().step == 0
