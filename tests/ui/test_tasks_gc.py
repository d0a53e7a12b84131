"""Python's cycle collector runs on the GUI thread only: a cycle holding Qt objects collected in a pool
thread deleted QObjects there and deadlocked a test session (the pool thread held Qt's lock of an
object and waited for the GIL; the GUI thread held the GIL and waited for that lock)."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject

from tokviz.ui.common.tasks import TaskRunner, collect_garbage_on_gui_thread


class _Cycle(QObject):
    deleted_on_gui_thread: list = []

    def __init__(self):
        super().__init__()
        self.me = self  # a reference cycle: only the cyclic collector frees it

    def __del__(self):
        _Cycle.deleted_on_gui_thread.append(threading.current_thread() is threading.main_thread())


def test_no_automatic_collection_and_the_gui_thread_collects_cycles(qtbot):
    collect_garbage_on_gui_thread()
    assert not gc.isenabled()  # no collection can start in whichever thread allocates
    _Cycle.deleted_on_gui_thread.clear()
    for _ in range(1000):  # past the first generation's threshold
        _Cycle()
    runner = TaskRunner(threads=1)
    # a task allocating far past the threshold, as counting a corpus does, collects nothing itself
    with qtbot.waitSignal(runner.start(lambda state: len([[i] for i in range(300_000)])).finished, timeout=30_000):
        pass
    qtbot.waitUntil(lambda: len(_Cycle.deleted_on_gui_thread) == 1000, timeout=5_000)
    assert all(_Cycle.deleted_on_gui_thread)
    runner.shutdown()


def test_the_policy_stands_when_code_turns_collection_back_on(qtbot):
    collect_garbage_on_gui_thread()
    gc.enable()  # code that saved and restored the collector's state around some work
    qtbot.waitUntil(lambda: not gc.isenabled(), timeout=2_000)
