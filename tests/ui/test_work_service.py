"""The one background-work service: latest-wins channels over one pool, one shutdown policy that never
waits for a running call, and one owner of the garbage collector."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QObject, QThread

from tokviz.ui.common.collection import GarbageCollection
from tokviz.ui.common.work import WorkService

GUARD_S = 20  # only keeps a broken build from hanging: every wait below ends on a state


class Gate:
    """A job function that blocks in a call it cannot leave until the test opens the gate."""

    def __init__(self, value):
        self.value = value
        self.opened = threading.Event()
        self.started = threading.Event()
        self.returned = threading.Event()

    def __call__(self, state):
        self.started.set()
        self.opened.wait(GUARD_S)  # never looks at the cancel flag, as a native encode does not
        self.returned.set()
        return self.value


@pytest.fixture
def owners(qtbot):
    made = [QObject(), QObject()]
    yield made
    for owner in made:
        owner.deleteLater()


def test_latest_wins_in_each_channel_and_a_stuck_call_holds_up_no_channel(qtbot, owners):
    service = WorkService(threads=1)  # one thread: the stuck call would hold everything up if it kept it
    first, second = service.channel(owners[0], "rows"), service.channel(owners[1], "rows")
    assert service.channel(owners[0], "rows") is first and first is not second
    got = []
    stuck = Gate("old text")
    old = first.start(stuck, finished=got.append)
    assert stuck.started.wait(GUARD_S)
    newer = first.start(lambda state: "new text", finished=got.append)  # supersedes the stuck one
    other = second.start(lambda state: "other panel", finished=got.append)
    qtbot.waitUntil(lambda: not newer.running and not other.running, timeout=GUARD_S * 1000)
    assert sorted(got) == ["new text", "other panel"] and old.superseded and old.running
    stuck.opened.set()
    qtbot.waitUntil(lambda: service.running == 0, timeout=GUARD_S * 1000)
    qtbot.waitUntil(lambda: not first.busy, timeout=GUARD_S * 1000)
    assert sorted(got) == ["new text", "other panel"]  # the superseded result was dropped
    service.shutdown()


def test_a_closed_channel_delivers_nothing_and_runs_nothing_more(qtbot, owners):
    service = WorkService()
    channel = service.channel(owners[0], "corpus")
    outcomes = []
    stuck = Gate("partial")
    job = channel.start(stuck, finished=outcomes.append, failed=outcomes.append)
    assert stuck.started.wait(GUARD_S)
    channel.close()  # the panel closes mid-job
    assert job.cancelled and not stuck.returned.is_set()  # nothing waited for the call
    later = channel.start(lambda state: outcomes.append("ran") or "late", finished=outcomes.append)
    stuck.opened.set()
    qtbot.waitUntil(lambda: service.running == 0 and not job.running, timeout=GUARD_S * 1000)
    assert outcomes == [] and later.superseded
    service.shutdown()


def test_a_deleted_owner_drops_its_jobs_outcome(qtbot):
    service = WorkService()
    owner = QObject()
    stuck = Gate("for a panel that is gone")
    job = service.channel(owner, "encode").start(stuck)
    assert stuck.started.wait(GUARD_S)
    owner.deleteLater()
    qtbot.waitUntil(lambda: job.cancelled, timeout=GUARD_S * 1000)  # deleting the owner joined nothing
    assert not stuck.returned.is_set()
    stuck.opened.set()
    qtbot.waitUntil(lambda: service.running == 0, timeout=GUARD_S * 1000)
    service.shutdown()


def test_shutdown_waits_for_nothing_ends_child_processes_and_the_service_goes_when_its_call_returns(qtbot, owners):
    window = QObject()  # the service's owner, as the main window is
    service = WorkService(window)
    stuck = Gate("encoded")
    job = service.channel(owners[0], "encode").start(stuck, finished=lambda r: pytest.fail("delivered"))
    ended = []
    service.add_process(lambda: ended.append("template process"))
    assert stuck.started.wait(GUARD_S)
    service.shutdown()
    assert ended == ["template process"] and job.superseded and not stuck.returned.is_set()
    assert service.parent() is QCoreApplication.instance()  # deleting the window now would not join the pool
    window.deleteLater()
    qtbot.wait(10)
    with qtbot.waitSignal(service.destroyed, timeout=GUARD_S * 1000):
        stuck.opened.set()  # the call returns; the service that outlived its window goes


def test_the_process_exits_cleanly_with_a_call_still_running_at_close(tmp_path):
    script = textwrap.dedent("""
        import sys, threading, time
        from PySide6.QtCore import QCoreApplication, QObject, QTimer
        from tokviz.ui.common.work import WorkService

        app = QCoreApplication([])
        window = QObject()
        service = WorkService(window)
        started, opened = threading.Event(), threading.Event()

        def encode(state):  # a call that cannot be interrupted, still running at close
            started.set()
            opened.wait(10)
            time.sleep(0.2)
            print("call returned", flush=True)

        service.channel(window, "encode").start(encode)
        started.wait(10)
        service.shutdown()
        print("closed", flush=True)
        opened.set()
        window.deleteLater()
        QTimer.singleShot(0, app.quit)
        app.exec()
        print("quit", flush=True)
        sys.exit(0)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    # the close came back before the call returned; the exit waited for it instead of crashing
    assert done.stdout.split("\n")[:3] == ["closed", "quit", "call returned"]


# ---- the garbage collector: one owner, counted -------------------------------------------------------
@pytest.fixture
def collection():
    return GarbageCollection()  # never gc.unfreeze() here: the session froze its start-up heap on purpose


def test_nested_and_concurrent_pauses_are_counted(collection):
    inside, leave = threading.Event(), threading.Event()
    frozen = gc.get_freeze_count()

    def job():
        with collection.paused():
            inside.set()
            leave.wait(GUARD_S)

    worker = threading.Thread(target=job)
    worker.start()
    assert inside.wait(GUARD_S)
    with collection.paused():
        with collection.paused():
            assert collection.pauses == 3
        # nothing frozen while one still builds (a frozen object freed meanwhile by another thread only lowers
        # the count: it went 2 down once in a full run)
        assert collection.pauses == 2 and gc.get_freeze_count() <= frozen
    leave.set()
    worker.join(GUARD_S)
    assert collection.pauses == 0 and gc.get_freeze_count() > frozen  # the last one out froze what they built


def test_what_was_frozen_before_a_run_is_frozen_after_it(collection):
    with collection.paused():
        result = [[i] for i in range(1000)]  # a job's big result, frozen for good
    frozen = gc.get_freeze_count()
    first, second = collection.hold(), collection.hold()  # two training runs
    made_by_the_runs = [[i] for i in range(1000)]
    first.release()
    first.release()  # a second release of the same hold changes nothing
    assert collection.holds == 1
    second.release()
    assert collection.holds == 0
    # nothing thawed (gc.unfreeze thawed everything: 0) and the runs' 1000 lists not frozen for ever; a
    # frozen object freed by its last reference meanwhile leaves the count
    assert frozen - 100 < gc.get_freeze_count() < frozen + 100
    assert len(result) == len(made_by_the_runs)


class _Node:
    def __init__(self):
        self.me = self  # a cycle, as a trained model with its views holds: only the cyclic collector frees it


def test_a_session_of_runs_does_not_grow(collection):
    import weakref

    kept = {"result": [_Node() for _ in range(2000)]}
    for _ in range(8):
        before = [weakref.ref(node) for node in kept["result"][::100]]
        hold = collection.hold()
        kept["result"] = [_Node() for _ in range(2000)]  # the run replaces the last one's result
        hold.release()
        gc.collect()
        # freezing the heap for each run and never thawing it kept every run's garbage for good (the
        # last run's nodes, alive when the next run froze the heap)
        assert all(ref() is None for ref in before)


def test_while_a_run_holds_the_collector_only_the_young_generations_are_collected(qtbot):
    WorkService.collection.collect_on_gui_thread()
    young, middle, old = gc.get_threshold()
    started = []

    def on_gc(phase, info):
        if phase == "start":
            started.append(info["generation"])

    def due_for_a_full_collection():  # as the interpreter counts when no run holds the collector
        for _ in range(old + 1):
            gc.collect(1)  # each counts one toward generation 2's threshold
        for _ in range(middle + 1):
            gc.collect(0)
        started.clear()
        return [[] for _ in range(2 * young)]  # past the youngest generation's threshold

    gc.callbacks.append(on_gc)
    try:
        hold = WorkService().hold_full_collections()
        made = [due_for_a_full_collection()]  # kept: freeing them would take back the count they added
        qtbot.waitUntil(lambda: bool(started), timeout=GUARD_S * 1000)  # the GUI thread's collector ran
        assert 2 not in started
        hold.release()
        made.append(due_for_a_full_collection())
        qtbot.waitUntil(lambda: 2 in started, timeout=GUARD_S * 1000)  # held off no longer
    finally:
        gc.callbacks.remove(on_gc)


def test_the_service_is_the_collectors_one_owner():
    assert WorkService.collection is WorkService().collection
    hold = WorkService().hold_full_collections()
    assert WorkService.collection.holds >= 1
    hold.release()


class _StuckThread(QThread):
    """A run's own thread, still inside a call after it was told to stop."""

    def __init__(self, gate: Gate):
        super().__init__()
        self.gate = gate

    def run(self):
        self.gate(None)


def test_an_adopted_thread_outlives_its_panel_and_keeps_the_service_until_it_finishes(qtbot):
    service = WorkService()
    panel = QObject()
    run = QObject(panel)  # what owns the thread, as a TrainRun does
    gate = Gate(None)
    run.thread_ = _StuckThread(gate)
    run.thread_.start()
    assert gate.started.wait(GUARD_S)
    service.adopt(run, run.thread_)  # its stop timed out
    panel.deleteLater()
    qtbot.wait(10)
    assert run.parent() is None and run.thread_.isRunning() and service.adopted == 1
    service.shutdown()
    with qtbot.waitSignal(service.destroyed, timeout=GUARD_S * 1000):
        gate.opened.set()
    assert run.thread_.wait(GUARD_S * 1000)
