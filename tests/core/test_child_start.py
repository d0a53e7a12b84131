"""tokviz's child processes (trainers, vocabulary worker, corpus reader) start from a fork server that
has the trainers imported, on Linux from source; elsewhere and frozen they are spawned."""

from __future__ import annotations

import sys

import pytest

from tokviz.core import child_start

TRAINERS = ["numpy", "tokviz.core.training.process"]


def _what_the_child_has(pipe) -> None:
    pipe.send([name for name in TRAINERS if name in sys.modules])
    pipe.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is used on Linux")
def test_a_child_starts_with_the_trainers_already_imported():
    """Under spawn a child imports this module (for its target) and nothing else it was not given; a child
    of the fork server finds what the server imported once: numpy and the trainers."""
    assert child_start.uses_fork_server() and "tokviz.core.training.process" in child_start.PRELOAD
    ctx = child_start.context()
    assert ctx.get_start_method() == "forkserver"
    here, there = ctx.Pipe(duplex=False)
    process = ctx.Process(target=_what_the_child_has, args=(there,), daemon=True)
    process.start()
    there.close()
    try:
        assert here.recv() == TRAINERS
    finally:
        process.join(30)
    assert process.exitcode == 0


def test_the_frozen_app_and_other_systems_spawn(monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert not child_start.uses_fork_server() and child_start.context().get_start_method() == "spawn"
    monkeypatch.delattr(sys, "frozen")
    monkeypatch.setattr(sys, "platform", "win32")
    assert not child_start.uses_fork_server() and child_start.context().get_start_method() == "spawn"
