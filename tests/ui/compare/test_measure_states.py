"""The Parity and Sweep tabs' states without Qt: intents, refusals, stale outcomes dropped, cancel."""

from __future__ import annotations

import pytest

import tokviz.ui.compare.parity_state as parity_module
import tokviz.ui.compare.sweep_state as sweep_module
from tokviz.core.compare.corpus import NoState
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.parity import measure_parity, read_parallel_corpus
from tokviz.core.sweep import SweepResult
from tokviz.ui.compare.parity_state import NO_ENCODERS, ParityRequest, ParityState, measure
from tokviz.ui.compare.sweep_state import BAD_SIZES, LOCKED, NO_SIZES, SweepProgress, SweepState


def _heard(state) -> list[tuple[str, object]]:
    heard: list[tuple[str, object]] = []
    state.events.connect(lambda name, value: heard.append((name, value)))
    return heard


@pytest.mark.parametrize("module", [parity_module, sweep_module])
def test_the_states_import_no_qt(module):
    source = open(module.__file__, encoding="utf-8").read()
    assert "PySide6" not in source and "pyqtgraph" not in source


@pytest.fixture(scope="module")
def parallel(tmp_path_factory):
    folder = tmp_path_factory.mktemp("parallel")
    (folder / "en.txt").write_text("Good morning.\nThe cat sleeps.\n", encoding="utf-8")
    (folder / "ko.txt").write_text("좋은 아침입니다.\n고양이가 잔다.\n", encoding="utf-8")
    return folder


def test_parity_refuses_no_encoders_and_an_unknown_metric():
    state = ParityState()
    heard = _heard(state)
    assert state.set_encoders([]) == NO_ENCODERS and ("refused", NO_ENCODERS) in heard
    assert state.encoders == ("gpt2", "cl100k_base", "o200k_base", "llama-3", "qwen")
    assert "unknown metric" in state.set_metric("speed")
    assert state.metric == "premium"
    assert state.set_metric("fertility") is None and ("metric", "fertility") in heard


def test_parity_drops_an_earlier_runs_outcome(parallel):
    state = ParityState(encoders=("gpt2",))
    state.choose_folder(str(parallel))
    first = state.start()
    second = state.start()
    result = measure_parity([], read_parallel_corpus(parallel))
    assert not state.finish(first.generation, result)  # the superseded run: dropped
    assert not state.fail(first.generation, "boom") and not state.report(first.generation, 1, 2)
    assert state.status == "running" and state.result is None
    assert state.finish(second.generation, result) and state.status == "done"
    assert not state.finish(second.generation, result)  # once only


def test_parity_measure_equals_core_and_keeps_an_unloadable_encoder_as_an_error(parallel):
    registry = default_registry()
    request = ParityRequest(1, str(parallel), ("gpt2", "no-such-encoder", "sp:demo_unigram"))
    result = measure(request, registry, NoState())
    core = measure_parity([registry.get("gpt2"), registry.get("sp:demo_unigram")], read_parallel_corpus(parallel))
    assert result.rows() == core.rows()
    assert result.encoders == ["gpt2", "no-such-encoder", "sp:demo_unigram"]
    assert "no-such-encoder" in result.errors
    state = ParityState()
    state.start()
    state.finish(state.generation, result)
    state.set_metric("tokens")
    languages, names, values = state.chart()
    assert languages == ["English", "한국어"] and names == ["gpt2", "sp:demo_unigram"]
    assert values[0] == [core.tokens("gpt2", "en"), core.tokens("gpt2", "ko")]
    assert state.csv_text().splitlines()[0].startswith("encoder,language,premium,tokens")


def test_parity_a_cancelled_run_reads_cancelled(parallel):
    class Cancelled(NoState):
        def is_cancelled(self):
            return True

    state = ParityState(encoders=("gpt2",))
    state.choose_folder(str(parallel))
    request = state.start()
    assert state.cancel()
    state.finish(request.generation, measure(request, default_registry(), Cancelled()))
    assert state.status == "cancelled"


def test_sweep_refuses_bad_sizes_and_changes_while_running():
    state = SweepState()
    heard = _heard(state)
    assert state.change(sizes="10,ten") == BAD_SIZES and state.options.sizes == "0,100,200,400,800,1600"
    assert state.change(sizes="10,-1") == BAD_SIZES
    assert "unknown algorithm" in state.change(algorithm="morfessor")
    assert state.change(sizes="0,50") is None and ("options", state.options) in heard
    state.start()
    assert state.change(mode="char") == LOCKED and state.options.mode == "byte"
    assert ("refused", LOCKED) in heard


def test_sweep_sizes_follow_the_algorithm_unless_typed():
    state = SweepState()
    assert state.change(algorithm="unigram") is None
    assert state.options.sizes == "300,500,800,1200,2000"  # merges mean nothing to Unigram
    assert state.change(sizes=" , ") == NO_SIZES
    state = SweepState()
    state.change(sizes="100")
    state.change(algorithm="wordpiece")  # typed sizes stay: they are the user's
    assert state.options.sizes == "100"


def test_sweep_drops_a_superseded_runs_outcome_and_cancel_marks_the_run():
    state = SweepState()
    first = state.start()
    second = state.start()
    partial = SweepProgress("training", 3, 10, (), ())
    assert not state.report(first.generation, partial) and state.report(second.generation, partial)
    assert not state.finish(first.generation, SweepResult("bpe", "byte"))
    assert state.running and state.result is None
    assert state.cancel() and state.status == "cancelling"
    assert not state.cancel()  # already asked
    cancelled = SweepResult("bpe", "byte", cancelled=True)
    assert state.finish(second.generation, cancelled) and state.status == "cancelled"
    assert state.change(mode="char") is None  # unlocked once the run has ended
