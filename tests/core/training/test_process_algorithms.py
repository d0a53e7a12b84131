"""WordPiece and Unigram in the training process: the same steps and models as in place, the model
at a step asked of the child (while it waits for credit, after a cancel, after Finished), a cancel
that ends the run within a bounded wait, and no child left behind once the runner is closed or
dropped."""

from __future__ import annotations

import gc
import multiprocessing
import threading

import pytest

from tests.support.corpora import english_text, korean_text
from tests.support.processes import wait_until_idle
from tokviz.core.errors import TokvizError
from tokviz.core.training import Finished, Progress, StepEvent
from tokviz.core.training.factory import make_trainer
from tokviz.core.training.process import ProcessTrainer
from tokviz.core.unigram.trainer import UnigramConfig
from tokviz.core.wordpiece.trainer import WordPieceConfig

LINES = (korean_text(300) + english_text()).splitlines(keepends=True)
PROBES = ["영화가 정말 재밌다 최고의 배우", "the lowest tokens of a Random number", "print(x) 🙂"]
CONFIGS = {"wordpiece": WordPieceConfig(vocab_size=1200), "unigram": UnigramConfig(vocab_size=900)}
GUARD = 60.0  # bounds a hang; never a timing


def no_child_left() -> bool:
    return multiprocessing.active_children() == []


def same_model(a, b) -> bool:
    return (
        a.name == b.name
        and a.vocab_size == b.vocab_size
        and all(
            [(t.id, t.bytes) for t in a.encode(text).tokens] == [(t.id, t.bytes) for t in b.encode(text).tokens]
            for text in PROBES + LINES[:10]
        )
    )


def take_steps(events, n: int) -> list:
    out = []
    for event in events:
        if isinstance(event, StepEvent):
            out.append(event)
            if len(out) == n:
                break
    return out


def drained(events) -> list:
    """The remaining events, raising what the run raises; fails (not hangs) after GUARD seconds."""
    out: dict = {}

    def drain():
        try:
            out["events"] = list(events)
        except BaseException as err:  # handed to the test's thread
            out["error"] = err

    worker = threading.Thread(target=drain, daemon=True)
    worker.start()
    worker.join(GUARD)
    assert not worker.is_alive(), f"the run did not end within {GUARD} s"
    if "error" in out:
        raise out["error"]
    return out["events"]


@pytest.mark.parametrize("algorithm", sorted(CONFIGS))
def test_same_steps_and_models_as_the_trainer_in_place(algorithm):
    local = make_trainer(algorithm, CONFIGS[algorithm])
    expected = [e for e in local.run(LINES) if not isinstance(e, Progress)]
    remote = ProcessTrainer(make_trainer(algorithm, CONFIGS[algorithm]))
    got = [e for e in remote.run(LINES) if not isinstance(e, Progress)]
    assert got == expected and remote.finished == local.finished and remote.steps == local.finished.merges
    assert remote.pid is not None  # its child stays for the models
    for step in (1, 5, None):
        assert same_model(remote.model(step), local.model(step))
    remote.close()
    assert remote.pid is None and no_child_left()
    with pytest.raises(TokvizError, match="has ended"):
        remote.model(3)  # asked after close: a message, not a hang


def test_a_paused_caller_gets_models_and_a_cancel_ends_the_run_with_its_steps_kept():
    local = make_trainer("unigram", CONFIGS["unigram"])
    local_steps = [e for e in local.run(LINES) if isinstance(e, StepEvent)]
    flag = {"cancel": False}
    remote = ProcessTrainer(make_trainer("unigram", CONFIGS["unigram"]))
    events = remote.run(LINES, cancel=lambda: flag["cancel"])
    assert take_steps(events, 2) == local_steps[:2]
    # the caller stops taking events (a paused panel): the child makes its one step of lead, then
    # waits for credit in a blocking read, and answers model requests from there
    wait_until_idle(remote.pid)
    assert remote.steps <= 3
    assert same_model(remote.model(2), local.model(2)) and same_model(remote.model(1), local.model(1))
    flag["cancel"] = True
    rest = drained(events)
    assert isinstance(rest[-1], Finished) and rest[-1] == remote.finished and remote.finished.reason == "cancelled"
    assert [e for e in rest if isinstance(e, StepEvent)] == local_steps[2 : remote.steps]  # the step in flight
    assert remote.finished.merges == remote.steps < len(local_steps)
    assert same_model(remote.model(2), local.model(2))  # the child stayed for them
    remote.close()
    assert no_child_left()


def test_closing_the_run_mid_way_keeps_the_models_until_the_runner_is_dropped():
    # what the Train panel's worker does on Cancel: it stops iterating and closes the generator
    local = make_trainer("wordpiece", CONFIGS["wordpiece"])
    list(local.run(LINES))
    remote = ProcessTrainer(make_trainer("wordpiece", CONFIGS["wordpiece"]), lead=4)
    events = remote.run(LINES)
    take_steps(events, 5)
    events.close()
    assert remote.finished is not None and remote.finished.reason == "cancelled"
    assert 5 <= remote.steps <= 5 + 4 and same_model(remote.model(5), local.model(5))
    pid = remote.pid
    assert pid is not None
    del remote, events
    gc.collect()
    assert no_child_left()  # dropping the runner ends its child


def test_an_error_in_the_child_arrives_as_the_same_error_and_leaves_no_child():
    small = UnigramConfig(vocab_size=50)  # fewer than the characters the corpus needs
    with pytest.raises(TokvizError) as local:
        list(make_trainer("unigram", small).run(LINES))
    remote = ProcessTrainer(make_trainer("unigram", small))
    with pytest.raises(TokvizError) as err:
        drained(remote.run(LINES))
    assert type(err.value) is type(local.value) and str(err.value) == str(local.value)
    assert no_child_left() and remote.pid is None


def test_make_trainer_builds_each_algorithm_and_refuses_a_wrong_config():
    for algorithm, config in CONFIGS.items():
        trainer = make_trainer(algorithm, config)
        assert trainer.algorithm == algorithm and trainer.config == config
    assert make_trainer("bpe").algorithm == "bpe"
    with pytest.raises(TokvizError, match="UnigramConfig, not a WordPieceConfig"):
        make_trainer("unigram", CONFIGS["wordpiece"])
    with pytest.raises(TokvizError, match="unknown training algorithm 'bpe2'"):
        make_trainer("bpe2")
    with pytest.raises(TokvizError):
        make_trainer("wordpiece", WordPieceConfig(vocab_size=2))  # the trainer's own check
