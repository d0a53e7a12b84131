"""Ending a child process, and how one ended in words for a message: the training and the vocabulary
processes end their children and name an unexpected end the same way.

>>> class Ended:  # a multiprocessing.Process after the fact
...     def __init__(self, code): self.exitcode = code
...     def join(self, timeout=None): pass
>>> describe_exit(Ended(-9)), describe_exit(Ended(1)), describe_exit(Ended(None))
('killed by SIGKILL', 'exit code 1', 'it closed its pipe')
"""

from __future__ import annotations

import signal

REAP_SECONDS = 0.4  # how long to wait for the child's exit code


def describe_exit(process) -> str:
    """``process`` (a multiprocessing.Process) reaped for at most REAP_SECONDS, then how it ended."""
    process.join(REAP_SECONDS)
    code = process.exitcode
    if code is None:
        return "it closed its pipe"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def end_process(process, seconds: float = REAP_SECONDS) -> None:
    """End ``process`` and reap it: SIGTERM, then SIGKILL, waiting at most ``seconds`` after each."""
    if process.is_alive():
        process.terminate()
        process.join(seconds)
    if process.is_alive():
        process.kill()
        process.join(seconds)
