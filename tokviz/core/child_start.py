"""How tokviz starts its Python child processes: the trainers, the vocabulary views' worker and the
corpus reader (:func:`context`).

Never ``fork`` from the app itself: a forked copy of a process with threads (Qt's, the work pool's) can
deadlock. ``spawn`` starts a fresh interpreter, which then imports numpy and the trainers before it
can do anything: ~0.4 CPU-s and as long a wait before the first merge, for every run. On Linux, run
from source, the children therefore come from a *fork server*: a process of its own, started fresh
(as with ``spawn``) the first time a child is asked for, which imports what the children need once
(:data:`PRELOAD`) and then forks a child for each request. The server runs no Qt and none of the
app's threads (numpy's BLAS library handles a fork itself, as in any Linux program that forks after
importing numpy), so a fork of it is safe, and a child starts in a few milliseconds. What a child
receives is pickled and sent to it exactly as with ``spawn``; like a spawned child it sees none of the
app's run-time changes to module state. Its environment is the server's, i.e. the app's when the
first child was started.

Elsewhere (Windows has no fork; on macOS system libraries may not survive one) and in the frozen app
(whose executable is not a Python interpreter that could run the server), children are spawned.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import sys

# imported once by the fork server: the trainers with numpy, which most children need
PRELOAD = ["tokviz.core.training.process"]


def uses_fork_server() -> bool:
    """Whether :func:`context` gives the fork server (Linux, run from source) rather than ``spawn``."""
    return (sys.platform.startswith("linux") and not getattr(sys, "frozen", False)
            and "forkserver" in multiprocessing.get_all_start_methods())


def context() -> multiprocessing.context.BaseContext:
    """The multiprocessing context every tokviz child process is started with (see the module docstring)."""
    if uses_fork_server():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)  # read when the server starts; no effect once it runs
        return ctx
    return multiprocessing.get_context("spawn")
