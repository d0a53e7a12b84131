"""Work on the GUI thread split into turns of the event loop, so that input, paints and timers run
between two slices.

``QTimer.singleShot(0, ...)`` does not do that: Qt 6 posts a zero-delay single shot as a queued call,
and the event loop delivers calls posted while it delivers posted events in the same pass, before
any timer. A chain of 10 ms slices scheduled that way kept a 5 ms timer waiting 22 ms (two slices
back to back); scheduled with a 1 ms timer, 11.6 ms (one slice). :func:`next_turn` is that.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer


def next_turn(receiver: QObject, fn: Callable[[], None]) -> None:
    """Call ``fn`` in a later turn of the event loop, after the timers and events already due
    (never if ``receiver`` is deleted first).

    A timer that is ``receiver``'s child, not ``QTimer.singleShot(1, receiver, fn)``: PySide6 crashed
    (SIGSEGV) calling such a single shot whose receiver had been deleted meanwhile."""
    timer = QTimer(receiver)
    timer.setSingleShot(True)
    timer.setInterval(1)
    timer.timeout.connect(fn)
    timer.timeout.connect(timer.deleteLater)
    timer.start()
