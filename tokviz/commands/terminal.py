"""What the measuring commands (parity, sweep) print through: text that survives any terminal, and
a progress line on stderr for long runs."""

from __future__ import annotations

import sys
import time


def write_out(text: str) -> None:
    """``text`` to stdout; a terminal that cannot show Hangul or emoji gets escapes, never an error."""
    codec = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(codec)
    except (UnicodeEncodeError, LookupError):
        text = text.encode(codec, "backslashreplace").decode(codec)
    sys.stdout.write(text)
    sys.stdout.flush()


class TerminalProgress:
    """A core ``state`` for the CLI: one redrawn stderr line on a terminal (at most 10 a second),
    nothing otherwise; never cancels (Ctrl-C ends the command)."""

    def __init__(self, enabled: bool = True, unit: str = ""):
        self.enabled = enabled and hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
        self.unit = unit
        self.last = 0.0

    def is_cancelled(self) -> bool:
        return False

    def progress(self, done: int, total: int, result) -> None:
        now = time.monotonic()
        if self.enabled and now - self.last >= 0.1:
            self.last = now
            phase = getattr(result, "phase", "measuring")
            sys.stderr.write(f"\r{phase:<10} {done:,}/{total:,}{self.unit}   ")
            sys.stderr.flush()

    def done(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()
