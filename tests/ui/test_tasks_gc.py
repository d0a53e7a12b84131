"""Python's cycle collector runs on the GUI thread only: a cycle holding Qt objects collected in a pool
thread deleted QObjects there and deadlocked a test session (the pool thread held Qt's lock of an
object and waited for the GIL; the GUI thread held the GIL and waited for that lock)."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from tokviz.ui.common.work import WorkService

GUARD_MS = 10_000  # only keeps a broken build from hanging: the waits below end on a state


class _Cycle(QObject):
    deleted_on_gui_thread: list = []

    def __init__(self):
        super().__init__()
        self.me = self  # a reference cycle: only the cyclic collector frees it

    def __del__(self):
        _Cycle.deleted_on_gui_thread.append(threading.current_thread() is threading.main_thread())


def test_a_task_allocating_past_the_threshold_collects_nothing_itself(qtbot):
    WorkService.collection.collect_on_gui_thread()
    assert not gc.isenabled()  # no collection can start in whichever thread allocates
    _Cycle.deleted_on_gui_thread.clear()
    for _ in range(1000):  # past the first generation's threshold
        _Cycle()
    owner = QWidget()  # a channel lives as long as its panel, as in the app
    qtbot.addWidget(owner)
    channel = WorkService(owner).channel(owner, "count")
    # as counting a corpus does; with automatic collection it collected the cycles in the pool thread
    with qtbot.waitSignal(channel.start(lambda state: len([[i] for i in range(300_000)])).finished, timeout=30_000):
        pass
    assert all(_Cycle.deleted_on_gui_thread)  # whatever was collected meanwhile, on the GUI thread


def test_the_gui_thread_collects_past_the_threshold_except_while_a_job_pauses_it(qtbot):
    WorkService.collection.collect_on_gui_thread()
    gc.collect()
    _Cycle.deleted_on_gui_thread.clear()
    for _ in range(2 * gc.get_threshold()[0]):
        _Cycle()
    qtbot.waitUntil(lambda: len(_Cycle.deleted_on_gui_thread) > 0, timeout=GUARD_MS)  # the timer collected
    assert all(_Cycle.deleted_on_gui_thread)
    with WorkService.collection.paused():  # while a job builds a big result: nothing collected
        _Cycle.deleted_on_gui_thread.clear()
        for _ in range(2 * gc.get_threshold()[0]):
            _Cycle()
        qtbot.wait(300)  # three of the collector's turns
        assert _Cycle.deleted_on_gui_thread == []
    # the paused job's objects were frozen, these cycles with them: they stay (a few hundred kB), as
    # gc.unfreeze() would thaw the session's whole frozen heap too


def test_the_policy_stands_when_code_turns_collection_back_on(qtbot):
    WorkService.collection.collect_on_gui_thread()
    gc.enable()  # code that saved and restored the collector's state around some work
    qtbot.waitUntil(lambda: not gc.isenabled(), timeout=2_000)


def test_an_idle_window_moves_young_survivors_on_to_the_old_generation(qtbot):
    """A window's start-up heap, or a panel just built, waited in the middle generation for the next
    middle collection, which came once a training run allocated: 50-60 ms in the middle of the
    animation. While the window is idle the collector now moves them on."""
    WorkService.collection.collect_on_gui_thread()
    kept = [[i] for i in range(5000)]  # what a panel keeps
    gc.collect(0)  # survivors of a young collection, as the collector's timer makes them
    assert gc.get_count()[1] > 0
    qtbot.waitUntil(lambda: gc.get_count()[1] == 0, timeout=GUARD_MS)  # nothing allocates meanwhile
    assert not any(item is kept for item in gc.get_objects(generation=1))
