"""The Vocabulary panel's work in a child process (no Qt): it runs outside this process, a superseded
request's result is dropped, a child that dies is a message and the next request starts a new one.
One child serves the whole module."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from tests.support.processes import gone
from tests.support.vocab_encoders import small_encoder
from tokviz.core.encoders.registry import Registry
from tokviz.core.vocab.ranks import NoState, VocabCancelled
from tokviz.ui.vocab import jobs
from tokviz.ui.vocab.process import VocabProcessDied, VocabWorker, run_outside
from tokviz.ui.vocab.state import Request

TIMEOUT = 30.0  # only keeps a broken test from hanging: nothing here takes near that long


class Cancelled(NoState):
    def __init__(self):
        self.flag = threading.Event()

    def is_cancelled(self) -> bool:
        return self.flag.is_set()


@pytest.fixture(scope="module")
def worker():
    w = VocabWorker()
    yield w
    w.shutdown()


@pytest.fixture(scope="module")
def registry():
    reg = Registry()
    reg.add(small_encoder("small"))
    return reg


def test_the_work_runs_in_a_child_process_which_serves_request_after_request(worker, registry, monkeypatch):
    # computing here would fail: the result can only come from the child
    monkeypatch.setattr(jobs, "search_tokens", lambda *a: (_ for _ in ()).throw(AssertionError("computed here")))
    out = run_outside(Request("search", "small", param="것"), registry, NoState(), None, worker)
    assert out.result.matches == [(257, "것")]
    pid = worker.pid
    assert pid is not None and pid != os.getpid()
    tree = run_outside(Request("tree", "small", param="257"), registry, NoState(), None, worker)
    assert tree.result.tree.data == "것".encode()
    assert worker.pid == pid  # the same child, with the encoder it was sent
    # results are keyed by the registry entry's handle, the same for both requests
    assert out.encoders == tree.encoders and out.encoders[0].name == "small"


def test_a_built_in_encoder_is_loaded_by_the_child_never_here(worker, monkeypatch):
    import tiktoken

    from tokviz.core.encoders.builtin import default_registry

    def refuse(*_args, **_kwargs):
        raise AssertionError("tiktoken's encoder built in the GUI process")

    monkeypatch.setattr(tiktoken.Encoding, "__init__", refuse)
    out = run_outside(Request("maps", "gpt2", param="indentation"), default_registry(), NoState(), None, worker)
    assert out.result.split_map.encoder == "gpt2" and len(out.result.split_map.rows) == 64


def test_a_superseded_request_is_dropped_and_the_next_one_gets_its_own_result(worker, registry, tmp_path):
    fifo = tmp_path / "corpus.txt"
    os.mkfifo(fifo)  # the child blocks reading it until a line is written: the request is in flight
    state = Cancelled()
    outcome: list = []

    def use():
        try:
            run_outside(Request("use", "small", param=str(fifo)), registry, state, None, worker)
        except VocabCancelled as err:
            outcome.append(err)

    waiting = threading.Thread(target=use)
    waiting.start()
    state.flag.set()  # a newer request took its place
    waiting.join(TIMEOUT)
    assert not waiting.is_alive() and isinstance(outcome[0], VocabCancelled)
    with open(fifo, "w", encoding="utf-8") as f:  # the child goes on, and its result goes nowhere
        f.write("the abc\n")
    out = run_outside(Request("search", "small", param="abc"), registry, NoState(), None, worker)
    assert out.request.param == "abc" and [m[1] for m in out.result.matches][:1] == ["abc"]


def test_a_child_that_dies_mid_request_is_an_error_and_the_next_request_starts_another(registry, tmp_path):
    worker = VocabWorker()
    fifo = tmp_path / "corpus.txt"
    os.mkfifo(fifo)
    errors: list = []

    def use():
        try:
            run_outside(Request("use", "small", param=str(fifo)), registry, NoState(), None, worker)
        except VocabProcessDied as err:
            errors.append(err)

    waiting = threading.Thread(target=use)
    waiting.start()
    try:
        pause = threading.Event()
        while worker.pid is None and not pause.wait(0.01):
            pass
        first = worker.pid
        os.kill(first, signal.SIGKILL)
        waiting.join(TIMEOUT)
        assert not waiting.is_alive()
        assert "ended unexpectedly (killed by SIGKILL)" in str(errors[0])
        out = run_outside(Request("search", "small", param="것"), registry, NoState(), None, worker)
        assert out.result.matches == [(257, "것")] and worker.pid not in (None, first)
        second = worker.pid
    finally:
        worker.shutdown()
    # shut down: both children are gone, and nothing starts another
    assert gone(first) and gone(second) and worker.pid is None
    with pytest.raises(VocabCancelled):
        run_outside(Request("search", "small", param="ab"), registry, NoState(), None, worker)
    assert worker.pid is None


def test_an_encoder_that_cannot_be_sent_is_computed_here(worker):
    from tests.support.vocab_encoders import small_ranks
    from tokviz.core.encoders.rank_encoder import TiktokenEncoder
    from tokviz.core.pretokenize import GPT4_PATTERN

    class Unsendable(TiktokenEncoder):
        """A model holding something no pickle carries (a lock), as an opened native model may."""

        def __init__(self):
            super().__init__("unsendable", GPT4_PATTERN, small_ranks(), {}, "test")
            self.lock = threading.Lock()

    reg = Registry()
    reg.add(Unsendable())
    out = run_outside(Request("search", "unsendable", param="것"), reg, NoState(), None, worker)
    assert out.result.matches == [(257, "것")]
