"""next_turn: a chain of slices lets a due timer run between two of them (QTimer.singleShot(0) chained
them back to back), and a receiver deleted meanwhile cancels the call."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, QTimer

from tokviz.ui.common.turns import next_turn


def busy(ms: float) -> None:
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


def test_a_due_timer_runs_between_two_slices(qtbot):
    owner = QObject()
    order: list[str] = []
    tick = QTimer()
    tick.setTimerType(Qt.TimerType.PreciseTimer)
    tick.setInterval(2)
    tick.timeout.connect(lambda: order.append("tick"))

    def work(k: int) -> None:
        busy(5)  # longer than the timer's interval: it is due when the slice ends
        order.append(f"slice {k}")
        if k < 5:
            next_turn(owner, lambda: work(k + 1))

    tick.start()
    next_turn(owner, lambda: work(0))
    qtbot.waitUntil(lambda: "slice 5" in order, timeout=5_000)
    tick.stop()
    slices = [i for i, what in enumerate(order) if what.startswith("slice")]
    assert all(order[a + 1] == "tick" for a in slices[:-1])  # never two slices in one go


def test_a_deleted_receiver_cancels_the_call(qtbot):
    owner = QObject()
    called = []
    next_turn(owner, lambda: called.append(1))
    owner.deleteLater()
    qtbot.wait(30)
    assert called == []
