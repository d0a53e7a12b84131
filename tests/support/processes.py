"""Watching a child process from a test: its CPU time, and waiting until it idles (blocked in a
read) instead of sleeping a fixed time and hoping it got there."""

from __future__ import annotations

import os
import time
from pathlib import Path


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_idle(pid: int, *, quiet_polls: int = 5, poll: float = 0.1, guard: float = 60.0,
                    between=None) -> None:
    """Return once ``pid`` used no CPU for ``quiet_polls`` polls in a row (it is blocked, waiting);
    fail after ``guard`` seconds of work (a child that never stops is the bug being tested; the
    guard only bounds the test). ``between`` runs at every poll (for instance, to turn an event loop)."""
    last, quiet, deadline = cpu_seconds(pid), 0, time.monotonic() + guard
    while quiet < quiet_polls:
        assert time.monotonic() < deadline, f"process {pid} never went idle"
        if between is not None:
            between(poll)
        else:
            time.sleep(poll)
        now = cpu_seconds(pid)
        quiet = quiet + 1 if now == last else 0
        last = now


def gone(pid: int) -> bool:
    """No process ``pid`` exists any more (reaped, not just ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


# Ctrl-C as a terminal delivers it. A process started in the background of a non-interactive shell (a CI
# runner, `cmd &` in a script) inherits SIGINT *ignored*, and Python then installs no KeyboardInterrupt
# handler: a Ctrl-C test's child would never see the signal. A child that must react as at a terminal
# starts with this line (``python -c``), which puts Python's own handler back.
CTRL_C_AS_AT_A_TERMINAL = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
# ``python -m tokviz ...`` with a terminal's Ctrl-C: ``[sys.executable, "-c", TOKVIZ_AS_AT_A_TERMINAL, ...]``
TOKVIZ_AS_AT_A_TERMINAL = CTRL_C_AS_AT_A_TERMINAL + "import runpy; runpy.run_module('tokviz', run_name='__main__')"
