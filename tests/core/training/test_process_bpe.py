"""BPE in the training process: the same events and model as in-process, flow control that
stops a child whose caller stops taking events, no child left behind, errors that keep their kind."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from pathlib import Path

import pytest

from tests.support.corpora import english_text, korean_text
from tests.support.processes import wait_until_idle
from tests.support.stand_in_trainers import CrashingTrainer, ModelFileErrorTrainer
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.errors import CorpusError, ModelFileError, TokvizError
from tokviz.core.training import Finished, Progress
from tokviz.core.training.factory import make_trainer
from tokviz.core.training.process import ProcessTrainer, TrainerProcessCrash, TrainerProcessDied

LINES = (korean_text(300) + english_text()).splitlines(keepends=True)
PROBES = ["영화가 정말 재밌다 최고의 배우", "the lowest tokens of a Random number 🙂", "print(x)\n\n  y"]


def take_merges(events, n: int) -> list[MergeStep]:
    out = []
    for event in events:
        if isinstance(event, MergeStep):
            out.append(event)
            if len(out) == n:
                break
    return out


def no_child_left() -> bool:
    return multiprocessing.active_children() == []


def _drain_with_hang_guard(events, guard: float = 60.0) -> list:
    """All remaining events, raising what the generator raises; a hang fails instead of blocking
    the run (the guard is generous: it bounds a hang, it does not time anything)."""
    out: dict = {}

    def drain():
        try:
            out["events"] = list(events)
        except BaseException as err:  # handed to the caller's thread
            out["error"] = err

    worker = threading.Thread(target=drain, daemon=True)
    worker.start()
    worker.join(guard)
    assert not worker.is_alive(), f"the events did not end within {guard} s (a hang)"
    if "error" in out:
        raise out["error"]
    return out["events"]


@pytest.mark.parametrize("mode,keep", [("char", None), ("byte", None), ("byte", "hangul")])
def test_same_events_and_model_as_the_trainer_in_process(mode, keep):
    config = TrainerConfig(mode=mode, merges=300, min_frequency=2, keep=keep)
    local = BPETrainer(config)
    expected = list(local.run(LINES))
    remote = ProcessTrainer(BPETrainer(config))
    got = list(remote.run(LINES))
    assert [e for e in got if not isinstance(e, Progress)] == [e for e in expected if not isinstance(e, Progress)]
    assert [e.phase for e in got if isinstance(e, Progress)][-2:] == ["indexing", "indexing"]
    assert remote.merges == local.merges and remote.finished == local.finished
    for step in (None, 0, 1, 57):
        a, b = local.model(step), remote.model(step)
        assert (a.name, a.merges, a.settings, a.vocab_size) == (b.name, b.merges, b.settings, b.vocab_size)
        for text in PROBES + LINES[:20]:
            assert [(t.id, t.bytes) for t in a.encode(text).tokens] == [(t.id, t.bytes) for t in b.encode(text).tokens]
    assert no_child_left()


def test_lines_go_to_the_trainer_unchanged():
    # one item far larger than a message, items without their newline: the trainer's own rules apply
    config = TrainerConfig(mode="byte", merges=80)
    whole = ["".join(LINES)]
    bare = [line.rstrip("\n") for line in LINES]
    for lines in (whole, bare):
        expected = [e for e in BPETrainer(config).run(lines) if isinstance(e, MergeStep)]
        assert [e for e in ProcessTrainer(BPETrainer(config)).run(lines) if isinstance(e, MergeStep)] == expected


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU time from /proc")
def test_a_caller_that_stops_taking_events_stops_the_child():
    # 150 merges of this corpus take the child a few milliseconds and fit in the pipe: without the
    # credit it would be done and gone long before the checks below
    config = TrainerConfig(mode="byte", merges=150, min_frequency=1)
    expected = [e for e in BPETrainer(config).run(LINES) if isinstance(e, MergeStep)]
    trainer = ProcessTrainer(BPETrainer(config), lead=4)
    events = trainer.run(LINES)
    first = take_merges(events, 10)
    pid = trainer.pid
    # it computes the few merges of its lead, then waits in a blocking read, not merging; a child
    # without flow control would instead finish all 150 merges and exit
    wait_until_idle(pid)
    assert multiprocessing.active_children() and len(trainer.merges) <= 10 + 4
    # one more event is exactly the next merge; then the rest arrives as the caller takes it
    assert take_merges(events, 1) == expected[10:11]
    rest = [e for e in events if isinstance(e, MergeStep)]
    assert first + expected[10:11] + rest == expected
    assert no_child_left()


def test_closing_the_generator_mid_run_ends_the_child():
    trainer = ProcessTrainer(BPETrainer(TrainerConfig(mode="char", merges=2000, min_frequency=1)), lead=8)
    events = trainer.run(LINES)
    assert len(take_merges(events, 5)) == 5
    pid = trainer.pid
    assert pid is not None and multiprocessing.active_children()
    events.close()  # ends a child that waits for credit for 1995 more merges
    assert no_child_left() and trainer.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # reaped, not a zombie
    assert trainer.model(5).steps == 5  # what arrived stays usable


def test_cancel_ends_the_child_and_finishes_cancelled():
    flag = {"cancel": False}
    trainer = ProcessTrainer(BPETrainer(TrainerConfig(mode="byte", merges=2000, min_frequency=1)), lead=8)
    events = trainer.run(LINES, cancel=lambda: flag["cancel"])
    take_merges(events, 5)
    flag["cancel"] = True
    rest = list(events)
    assert rest[-1] == trainer.finished and trainer.finished.reason == "cancelled"
    assert trainer.finished.merges == len(trainer.merges) < 2000
    assert no_child_left()


def test_cancel_before_any_merge():
    trainer = ProcessTrainer(BPETrainer(TrainerConfig(mode="byte", merges=10)))
    events = list(trainer.run(LINES, cancel=lambda: True))
    assert events == [Finished("cancelled", 0, "cancelled while counting the corpus")]
    assert no_child_left()


def test_a_corpus_error_in_the_child_arrives_as_the_same_error():
    config = TrainerConfig(mode="char", merges=10)
    with pytest.raises(CorpusError) as local:
        list(BPETrainer(config).run([" \n", "\t\n"]))
    with pytest.raises(CorpusError) as remote:
        list(ProcessTrainer(BPETrainer(config)).run([" \n", "\t\n"]))
    assert str(remote.value) == str(local.value)
    assert no_child_left()


def test_an_error_reading_the_lines_in_the_callers_thread_ends_the_child():
    def lines():
        yield from LINES[:50]
        raise CorpusError("corpus.txt: line 51 is not valid UTF-8")

    with pytest.raises(CorpusError, match="line 51"):
        list(ProcessTrainer(BPETrainer(TrainerConfig(mode="char", merges=10))).run(lines()))
    assert no_child_left()


def test_a_tokviz_error_keeps_its_class_and_attributes():
    with pytest.raises(ModelFileError) as err:
        list(ProcessTrainer(ModelFileErrorTrainer(TrainerConfig())).run(LINES))
    assert err.value.path == "codes.txt" and str(err.value) == "codes.txt: line 2 is not a merge"
    assert no_child_left()


def test_a_crash_in_the_child_carries_its_traceback_and_the_merges_before_it():
    trainer = ProcessTrainer(CrashingTrainer(TrainerConfig(mode="byte", merges=50)))
    seen = []
    with pytest.raises(TrainerProcessCrash) as err:
        for event in trainer.run(LINES):
            seen.append(event)
    assert err.value.kind == "ValueError" and str(err.value) == "injected failure after merge 3"
    assert 'raise ValueError("injected failure after merge 3")' in err.value.child_traceback
    assert [e.step for e in seen if isinstance(e, MergeStep)] == [1, 2, 3]
    assert no_child_left()


def test_a_killed_child_gives_a_clear_message_not_a_hang():
    trainer = ProcessTrainer(BPETrainer(TrainerConfig(mode="byte", merges=500, min_frequency=1)), lead=4)
    events = trainer.run(LINES)
    take_merges(events, 2)
    os.kill(trainer.pid, signal.SIGKILL)
    with pytest.raises(TrainerProcessDied, match="SIGKILL"):
        _drain_with_hang_guard(events)
    assert isinstance(TrainerProcessDied("x"), TokvizError)  # shown as a message, like bad input
    assert no_child_left()


def test_bad_settings_raise_in_the_callers_thread():
    with pytest.raises(TokvizError, match="unknown training mode"):
        ProcessTrainer(make_trainer("bpe", TrainerConfig(mode="words")))


def test_long_items_go_in_pieces_that_the_child_sees_as_the_same_text(monkeypatch):
    """Items longer than a message are cut (after a newline, else as a LinePart) by the caller: the
    child trains on the same text, so its merges equal the in-process trainer's."""
    from tokviz.core.bpe.corpus import LinePart
    from tokviz.core.training import process

    monkeypatch.setattr(process, "SEND_CHARS", 50)
    items = ["low lower lowest\nnewer wider\n\n" * 7, LinePart("lowlowlow" * 12), "er est\nwidest", "newest"]
    pieces = [p for chunk in process._line_chunks(items) for p in chunk]
    assert max(map(len, pieces)) <= 50 and len(pieces) > len(items)
    assert any(type(p) is LinePart for p in pieces[:-1])
    for mode in ("char", "byte"):
        config = TrainerConfig(mode=mode, merges=20, min_frequency=1)
        expected = [e.new_piece for e in BPETrainer(config).run(items) if isinstance(e, MergeStep)]
        in_child = [e.new_piece for e in ProcessTrainer(BPETrainer(config)).run(items) if isinstance(e, MergeStep)]
        assert in_child == expected and len(expected) == 20
