"""A training run in a thread stops with Finished("cancelled") whichever phase the cancel comes in.

The run goes in a thread, as in the Train panel and the CLI; the test thread sets the cancel flag once
the run reports the phase (the training thread waits for that hand-over, so the phase is exact) and
then waits for the Finished event. How fast the stop comes is measured by
benchmarks/cancel_latency.py, not here.
"""

from __future__ import annotations

import random
import threading

import pytest

from tests.support.corpora import code_text, english_text, korean_text
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.training import Finished, Progress
from tokviz.core.training.process import ProcessTrainer

MERGES = 5000


@pytest.fixture(scope="module")
def big_lines() -> list[str]:
    """~3 MB of Korean, English and code lines, shuffled with a fixed seed, with numbered words so
    that the vocabulary keeps growing (many counting chunks, a real indexing step)."""
    rng = random.Random(15)
    base = (korean_text() + english_text() + code_text()).splitlines(keepends=True)
    lines = []
    size = 0
    while size < 3_000_000:
        line = rng.choice(base)
        if rng.random() < 0.3:
            line = f"{line.rstrip()} w{rng.randrange(50_000)}\n"
        lines.append(line)
        size += len(line)
    return lines


def reached(phase: str, event) -> bool:
    if phase == "counting":
        return isinstance(event, Progress) and event.phase == "counting" and event.done > 0
    if phase == "indexing":
        return isinstance(event, Progress) and event.phase == "indexing" and event.done == 0
    return isinstance(event, MergeStep) and event.step == int(phase.split()[1])


def cancel_at(trainer, lines: list[str], phase: str) -> tuple[Finished, list]:
    flag = threading.Event()
    at_phase = threading.Event()
    done = threading.Event()
    events: list = []
    errors: list = []

    def train():
        try:
            for event in trainer.run(iter(lines), cancel=flag.is_set, total_bytes=None):
                events.append(event)
                if not at_phase.is_set() and reached(phase, event):
                    at_phase.set()
                    flag.wait()  # the hand-over: the run goes on only once the flag is up
        except BaseException as err:  # noqa: BLE001 - reported by the test thread
            errors.append(err)
        finally:
            at_phase.set()
            done.set()

    thread = threading.Thread(target=train, daemon=True)
    thread.start()
    at_phase.wait()
    flag.set()
    # a guard against a hang, not a timing check: the run normally ends within a fraction of a second
    assert done.wait(300), "the training thread never finished"
    thread.join()
    assert not errors, errors
    assert any(reached(phase, e) for e in events), f"the run never reached {phase}"
    assert isinstance(events[-1], Finished)
    return events[-1], events


@pytest.mark.parametrize("mode", ["char", "byte"])
@pytest.mark.parametrize("phase", ["counting", "indexing", "merge 1", "merge 300"])
def test_cancel_in_every_phase(big_lines, mode, phase):
    trainer = BPETrainer(TrainerConfig(mode=mode, merges=MERGES))
    fin, events = cancel_at(trainer, big_lines, phase)
    steps = [e for e in events if isinstance(e, MergeStep)]
    assert fin.reason == "cancelled"
    if phase == "counting":
        assert fin.message == "cancelled while counting the corpus" and not steps
    elif phase == "indexing":
        assert fin.message == "cancelled while indexing the corpus" and not steps
    else:
        k = int(phase.split()[1])
        assert fin.merges == len(steps) == k and fin.message == f"cancelled after {k} merges"
        assert trainer.model().steps == k


@pytest.mark.parametrize("phase", ["counting", "merge 300"])
def test_cancel_a_training_process(big_lines, phase):
    trainer = ProcessTrainer(BPETrainer(TrainerConfig(mode="byte", merges=MERGES)))
    fin, events = cancel_at(trainer, big_lines, phase)
    steps = [e for e in events if isinstance(e, MergeStep)]
    assert fin.reason == "cancelled" and fin.merges == len(steps) < MERGES
    if phase == "counting":
        assert not steps
    else:
        assert len(steps) >= 300  # merges already on their way in the last batch still arrive
    assert trainer.pid is None  # the child was ended and reaped
