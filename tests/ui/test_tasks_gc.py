"""Python's cycle collector runs on the GUI thread only: a cycle holding Qt objects collected in a pool
thread deleted QObjects there and deadlocked a test session (the pool thread held Qt's lock of an
object and waited for the GIL; the GUI thread held the GIL and waited for that lock)."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QWidget

from tokviz.ui.common import tasks
from tokviz.ui.common.tasks import TaskRunner, collect_garbage_on_gui_thread


class _Cycle(QObject):
    deleted_on_gui_thread: list = []

    def __init__(self):
        super().__init__()
        self.me = self  # a reference cycle: only the cyclic collector frees it

    def __del__(self):
        _Cycle.deleted_on_gui_thread.append(threading.current_thread() is threading.main_thread())


def _collector():
    collect_garbage_on_gui_thread()
    return QCoreApplication.instance().findChild(tasks._GuiThreadCollector)


def test_a_task_allocating_past_the_threshold_collects_nothing_itself(qtbot):
    assert _collector() is not None
    assert not gc.isenabled()  # no collection can start in whichever thread allocates
    _Cycle.deleted_on_gui_thread.clear()
    for _ in range(1000):  # past the first generation's threshold
        _Cycle()
    owner = QWidget()  # a runner lives as long as its panel, as in the app
    qtbot.addWidget(owner)
    runner = TaskRunner(owner, threads=1)
    # as counting a corpus does; with automatic collection it collected the cycles in the pool thread
    with qtbot.waitSignal(runner.start(lambda state: len([[i] for i in range(300_000)])).finished, timeout=30_000):
        pass
    assert all(_Cycle.deleted_on_gui_thread)  # whatever was collected meanwhile, on the GUI thread


def test_the_gui_thread_collects_a_generation_past_its_threshold(qtbot, monkeypatch):
    collector = _collector()
    monkeypatch.setattr(tasks, "_pauses", [0])  # no task of an earlier test keeps collection paused
    gc.collect()
    _Cycle.deleted_on_gui_thread.clear()
    for _ in range(20):
        _Cycle()
    monkeypatch.setattr(collector, "thresholds", (5, 10, 10))
    collector.check()
    assert _Cycle.deleted_on_gui_thread == [True] * 20
    monkeypatch.setattr(tasks, "_pauses", [1])  # while a task builds a big result: nothing collected
    _Cycle.deleted_on_gui_thread.clear()
    for _ in range(20):
        _Cycle()
    collector.check()
    assert _Cycle.deleted_on_gui_thread == []
    monkeypatch.undo()
    gc.collect()


def test_the_policy_stands_when_code_turns_collection_back_on(qtbot):
    _collector()
    gc.enable()  # code that saved and restored the collector's state around some work
    qtbot.waitUntil(lambda: not gc.isenabled(), timeout=2_000)
