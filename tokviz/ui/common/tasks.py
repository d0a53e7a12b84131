"""The one background-task runner of the interface.

A task is a plain function ``fn(state)`` run on a pool thread. ``state`` (a :class:`TaskState`) is
how it reports progress and partial results and notices a cancel; it is Qt-free, so tests call task
functions directly with ``TaskState()``. The function never touches widgets: it returns what the
panel shows, and the result arrives by signal on the GUI thread.

A :class:`TaskRunner` is one channel of work, latest wins: starting a task supersedes the one before
(its cancel flag is set and whatever it still returns or reports is dropped). A panel with
independent kinds of work (Compare: the rows, a corpus run, a vocabulary overlap) keeps one runner
per kind. ``task.cancel()`` on its own only asks the function to stop; what it returns then (a
partial result) is still delivered.

    runner = TaskRunner(self)
    runner.start(lambda state: encode(text, state), finished=self.show_tokens, failed=self.show_error)
"""

from __future__ import annotations

import atexit
import gc
import threading
import time
import weakref
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from tokviz.core.compare import describe_failure

_pause_lock = threading.Lock()
_pauses = [0]  # tasks inside collection_paused(); collection resumes when the last one leaves


@contextmanager
def collection_paused():
    """No automatic garbage collection while a task builds a big result, and what it built is kept
    out of later collections (``gc.freeze``).

    Building the Encoding and drawing of a 5 MB paste allocates millions of objects; each such burst
    set off collections up to a full one, which scans every object of the app while holding the GIL,
    so the GUI thread waited 100-200 ms at a time. The result lives until the next one replaces it
    and is freed by reference counting (it holds no cycles), so it need never be scanned. Nested and
    concurrent uses are counted.
    """
    with _pause_lock:
        _pauses[0] += 1
        if _pauses[0] == 1:
            was_enabled = gc.isenabled()
            gc.disable()
            _pauses.append(was_enabled)
    try:
        yield
    finally:
        with _pause_lock:
            _pauses[0] -= 1
            if _pauses[0] == 0:
                gc.freeze()  # the new objects join the permanent generation: no collection walks them
                if _pauses.pop():
                    gc.enable()


class _GuiThreadCollector(QObject):
    """Python's cycle collector, run on the GUI thread only.

    Left automatic, a collection starts in whichever thread allocates past the threshold, and a task
    building a result on a pool thread allocates a great deal. A cycle holding Qt objects collected
    there deletes QObjects on that thread: the pool thread then holds Qt's lock of an object while
    it waits for the GIL, and the GUI thread, deleting a widget with the GIL held, waits for that
    lock (a test session hung so). Automatic collection is turned off; a timer on the GUI thread
    collects a generation when its count passes the thresholds the interpreter would have used,
    except while a task keeps collection paused (:func:`collection_paused`).
    """

    INTERVAL_MS = 100

    def __init__(self, app: QCoreApplication):
        super().__init__(app)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(self.INTERVAL_MS)

    def check(self) -> None:
        if _pauses[0]:
            return
        if gc.isenabled():  # turned back on by code that saved and restored it: this policy stands
            gc.disable()
        counts = gc.get_count()
        if counts[0] <= self.thresholds[0]:
            return
        generation = 0
        while generation < 2 and counts[generation + 1] > self.thresholds[generation + 1]:
            generation += 1
        gc.collect(generation)


def collect_garbage_on_gui_thread() -> None:
    """Install the GUI-thread collector once for the running application (see _GuiThreadCollector)."""
    app = QCoreApplication.instance()
    if app is not None and app.findChild(_GuiThreadCollector) is None:
        _GuiThreadCollector(app)


def is_interrupt(err: BaseException) -> bool:
    """True for the BaseExceptions that must go on up (Ctrl-C, exit); any other failure of a task is a
    message in its panel, a Rust panic (pyo3's PanicException) or a MemoryError included."""
    return isinstance(err, (KeyboardInterrupt, SystemExit))


class TaskState:
    """What a running task sees. Thread-safe; satisfies ``tokviz.core.compare.CompareState``.

    >>> state = TaskState()
    >>> state.is_cancelled()
    False
    >>> state.cancel(); state.is_cancelled()
    True
    """

    def __init__(self, on_progress: Callable[[tuple], None] | None = None):
        self._cancel = threading.Event()
        self._on_progress = on_progress

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def progress(self, done: int, total: int, result: Any = None) -> None:
        """Report ``done`` of ``total`` and a partial result (an object with ``snapshot()`` is
        snapshotted here, in the worker, so the GUI gets a copy the worker no longer changes)."""
        if self._on_progress is None or self.is_cancelled():
            return
        snapshot = result.snapshot() if hasattr(result, "snapshot") else result
        self._on_progress((done, total, snapshot))


class Task(QObject):
    """One run of a task function. Its public signals fire on the GUI thread."""

    progressed = Signal(object)  # (done, total, partial result)
    finished = Signal(object)  # the function's return value
    failed = Signal(str)  # a one-line message for the user (the function raised)
    ended = Signal()  # after finished or failed (or at once for a superseded task)

    # emitted from the pool thread; they reach this object's (GUI) thread by queued connections.
    # Values travel wrapped in a tuple: PySide6 mishandles a bare None sent across threads.
    _done = Signal(object)
    _error = Signal(str)
    _progress = Signal(object)

    def __init__(self, fn: Callable[[TaskState], Any], parent: QObject | None = None):
        super().__init__(parent)
        self.fn = fn
        self.state = TaskState(self._progress.emit)
        self.running = True
        self.superseded = False
        self._done.connect(self._on_done)
        self._error.connect(self._on_error)
        self._progress.connect(self._on_progress)

    def cancel(self) -> None:
        """Ask the function to stop at its next check; its result is still delivered."""
        self.state.cancel()

    @property
    def cancelled(self) -> bool:
        return self.state.is_cancelled()

    def supersede(self) -> None:
        """Cancel and drop everything the function still sends (a newer task took its place)."""
        self.superseded = True
        self.state.cancel()

    def run_here(self) -> None:
        """Run the function in the calling thread (a pool or parse thread) and send its outcome.

        Every failure is sent as a message, BaseExceptions included: a Rust panic inside a model
        (pyo3's PanicException) or a MemoryError derives from BaseException, and letting it escape
        left the task running forever and its panel busy and silent. An interrupt or exit is still
        re-raised after the message.
        """
        if self.superseded:
            self._send(self._done, (None,))
            return
        try:
            result = self.fn(self.state)
        except BaseException as err:  # noqa: BLE001 - shown in the panel, never a traceback
            self._send(self._error, describe_failure(err))
            if is_interrupt(err):
                raise
        else:
            self._send(self._done, (result,))

    def _send(self, signal, payload) -> None:
        # a detached task may outlive its window: its Qt object is gone, and nobody waits for the outcome
        try:
            signal.emit(payload)
        except RuntimeError:
            pass

    @Slot(object)
    def _on_progress(self, payload) -> None:
        if not self.superseded and not self.cancelled:
            self.progressed.emit(payload)

    @Slot(object)
    def _on_done(self, wrapped) -> None:
        self.running = False
        if not self.superseded:
            self.finished.emit(wrapped[0])
        self.ended.emit()

    @Slot(str)
    def _on_error(self, message: str) -> None:
        self.running = False
        if not self.superseded:
            self.failed.emit(message)
        self.ended.emit()


class _TaskRunnable(QRunnable):
    def __init__(self, task: Task):
        super().__init__()
        self.task = task

    def run(self) -> None:
        self.task.run_here()


# Every runner's pool, so that interpreter exit waits for calls still running in them (a panel that
# closed without waiting hands its running call to the application): a worker thread still running
# Python while the interpreter finalises crashes the process at exit.
_LIVE_POOLS: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _join_running_tasks() -> None:
    for pool in list(_LIVE_POOLS):
        try:
            pool.clear()
            pool.waitForDone(60_000)
        except RuntimeError:  # its C++ object is already gone: nothing runs in it
            pass


class TaskRunner(QObject):
    """One channel of background work, latest wins (see the module docstring).

    ``threads`` is how many tasks may run at once: 2 by default, because a superseded task may be
    stuck in a call it cannot leave (an encoder's encode of a 5 MB text) while its successor, a
    short text typed after it, should be done at once beside it.
    """

    def __init__(self, parent: QObject | None = None, *, threads: int = 2):
        super().__init__(parent)
        self._pool = QThreadPool(self)
        _LIVE_POOLS.add(self._pool)
        self._pool.setMaxThreadCount(threads)
        self._tasks: set[Task] = set()
        self._threads: list[threading.Thread] = []  # detached tasks' threads (see start_detached)
        self.current: Task | None = None
        self._closed = False

    def start(self, fn: Callable[[TaskState], Any], *, finished=None, failed=None, progressed=None) -> Task:
        """Run ``fn(state)`` in the pool, superseding the runner's previous task; the callbacks are
        called on the GUI thread. After :meth:`shutdown` nothing runs (the task never ends)."""
        if self.current is not None and self.current.running:
            self.current.supersede()
        task = self._task(fn, finished, failed, progressed)
        self.current = task
        if self._closed:
            task.supersede()
            return task
        self._tasks.add(task)
        self._pool.start(_TaskRunnable(task))
        return task

    def start_detached(self, fn: Callable[[TaskState], Any], *, finished=None, failed=None,
                       progressed=None) -> Task:
        """Run ``fn(state)`` on a thread of its own, beside the runner's other tasks: it supersedes
        none and none supersedes it (opening a second model while the first still parses opens both).
        Nobody waits for it: :meth:`shutdown` drops its outcome without waiting, and interpreter exit
        does not join it (a daemon thread). For work that may block for a minute in a call it cannot
        leave, which must never hold up closing the window: parsing a model file."""
        task = self._task(fn, finished, failed, progressed)
        if self._closed:
            task.supersede()
            return task
        self._tasks.add(task)
        thread = threading.Thread(target=task.run_here, name="tokviz-detached-task", daemon=True)
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()
        return task

    def _task(self, fn, finished, failed, progressed) -> Task:
        task = Task(fn, self)
        if finished is not None:
            task.finished.connect(finished)
        if failed is not None:
            task.failed.connect(failed)
        if progressed is not None:
            task.progressed.connect(progressed)
        task.ended.connect(lambda t=task: self._forget(t))
        return task

    def cancel(self) -> None:
        """Ask the current task to stop (its partial result is still delivered)."""
        if self.current is not None:
            self.current.cancel()

    def _forget(self, task: Task) -> None:
        self._tasks.discard(task)
        if task is self.current:
            self.current = None
        task.deleteLater()

    @property
    def busy(self) -> bool:
        return any(t.running for t in self._tasks)

    def wait(self, ms: int = 30_000) -> bool:
        """Block until every started task has returned (results are still to be delivered)."""
        deadline = time.monotonic() + ms / 1000
        for thread in list(self._threads):
            thread.join(max(0.0, deadline - time.monotonic()))
        left = max(0, int((deadline - time.monotonic()) * 1000))
        return self._pool.waitForDone(left) and not any(t.is_alive() for t in self._threads)

    def shutdown(self, ms: int = 30_000) -> None:
        """Stop for good (the window is closing): queued tasks never run, running ones are
        superseded and waited for (a call that cannot be interrupted finishes; its result is dropped).
        Detached tasks are superseded and not waited for."""
        self._closed = True
        for task in list(self._tasks):
            task.supersede()
        self._pool.clear()
        self._pool.waitForDone(ms)
