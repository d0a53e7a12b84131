"""The one background-work service of the interface.

A job is a plain function ``fn(state)`` run on a worker thread. ``state`` (a :class:`TaskState`) is how
it reports progress and partial results and notices a cancel; it is Qt-free, so tests call job
functions directly with ``TaskState()``. The function never touches widgets: it returns what the panel
shows, and the result arrives by signal on the GUI thread.

The main window owns one :class:`WorkService` (through its Session): one thread pool for every panel.
Each consumer asks it for a :class:`Channel`, latest wins: starting a job supersedes the channel's one
before (its cancel flag is set and whatever it still returns or reports is dropped). A panel with
independent kinds of work (Compare: the rows, a corpus run, a vocabulary overlap) keeps one channel per
kind. ``job.cancel()`` on its own only asks the function to stop; what it returns then (a partial
result) is still delivered.

    rows = session.work.channel(self, "rows")
    rows.start(lambda state: encode(text, state), finished=self.show_tokens, failed=self.show_error)

Kinds of job: pool jobs (:meth:`Channel.start`); jobs on a thread of their own that nobody waits for
(:meth:`Channel.start_detached`: parsing a model file, which may block for a minute); and work in a
child process, which unlike a thread can always be stopped: the service ends such a process when it
shuts down (:meth:`WorkService.add_process`; the chat template process is one).

One shutdown policy (:meth:`WorkService.shutdown`, when the window closes): every job is cancelled and
its outcome dropped, queued jobs never run, child processes are ended, and nothing is waited for on the
GUI thread (an encoder's native call cannot be interrupted; joining it froze a closing window for 23 s).
The service outlives its window until its last running job returns; interpreter exit waits for those
(a pool thread still running Python while the interpreter finalises crashes the process).

The garbage collector has one owner too: ``WorkService.collection``
(:class:`~tokviz.ui.common.collection.GarbageCollection`).
"""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThread, QThreadPool, Signal, Slot
from shiboken6 import isValid

from tokviz.core.compare import describe_failure
from tokviz.ui.common.collection import COLLECTION, GarbageCollection, Hold


def is_interrupt(err: BaseException) -> bool:
    """True for the BaseExceptions that must go on up (Ctrl-C, exit); any other failure of a job is a
    message in its panel, a Rust panic (pyo3's PanicException) or a MemoryError included."""
    return isinstance(err, (KeyboardInterrupt, SystemExit))


class TaskState:
    """What a running job sees. Thread-safe; satisfies ``tokviz.core.compare.CompareState``.

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


class Job(QObject):
    """One run of a job function. Its public signals fire on the GUI thread."""

    progressed = Signal(object)  # (done, total, partial result)
    finished = Signal(object)  # the function's return value
    failed = Signal(object)  # a one-line message for the user (a str; a SentenceText when core worded it)
    ended = Signal()  # after finished or failed (or at once for a superseded job)

    # emitted from the worker thread; they reach this object's (GUI) thread by queued connections.
    # Values travel wrapped in a tuple: PySide6 mishandles a bare None sent across threads.
    _done = Signal(object)
    _error = Signal(object)  # object, not str: a SentenceText crosses threads as itself
    _progress = Signal(object)

    def __init__(self, fn: Callable[[TaskState], Any], parent: QObject | None = None):
        super().__init__(parent)
        self.fn = fn
        self.state = TaskState(self._progress.emit)
        self.running = True
        self.superseded = False
        self._on_supersede: Callable[[], None] | None = None  # set by the pool while the job runs there
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
        """Cancel and drop everything the function still sends (a newer job took its place)."""
        self.superseded = True
        self.state.cancel()
        hook = self._on_supersede
        if hook is not None:
            hook()

    def run_here(self) -> None:
        """Run the function in the calling thread (a worker thread) and send its outcome.

        Every failure is sent as a message, BaseExceptions included: a Rust panic inside a model
        (pyo3's PanicException) or a MemoryError derives from BaseException, and letting it escape
        left the job running forever and its panel busy and silent. An interrupt or exit is still
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
        # a job may outlive its channel's owner: its Qt object is gone, and nobody waits for the outcome
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

    @Slot(object)
    def _on_error(self, message: str) -> None:
        self.running = False
        if not self.superseded:
            self.failed.emit(message)
        self.ended.emit()


class _Returns(QObject):
    """Counts one service's running pool jobs; tells the service, on its thread, when one returns.

    Worker threads hold this object, never the service or its pool: a worker dropping the last
    reference to a pool would destroy it there, and a pool's destructor joins its own thread.
    """

    returned = Signal(bool)  # (worker thread) a job returned; True if it had lent its thread

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()
        self.running = 0


class _PoolRun(QRunnable):
    """A job on the service's pool. A superseded job still stuck in a call it cannot leave lends its
    thread back (the pool may start one more meanwhile), so a newer job never queues behind it."""

    def __init__(self, job: Job, service: WorkService):
        super().__init__()
        self.job = job
        self.returns = service._returns
        self._lock = threading.Lock()
        self._started = self._returned = self._lent = False
        service_ref = weakref.ref(service)
        job._on_supersede = lambda: self._lend(service_ref())  # called on the GUI thread

    def _lend(self, service: WorkService | None) -> None:
        with self._lock:
            if service is None or not self._started or self._returned or self._lent:
                return
            self._lent = True
        service.pool.releaseThread()  # one more thread may run until this call returns

    def run(self) -> None:
        with self._lock:
            self._started = True
        try:
            self.job.run_here()
        finally:
            with self._lock:
                self._returned = True
                lent = self._lent
            self.job._on_supersede = None  # no cycle between the job and this runnable is left behind
            with self.returns.lock:
                self.returns.running -= 1
            try:
                self.returns.returned.emit(lent)
            except RuntimeError:
                pass


class Channel(QObject):
    """One consumer's line of work on the service, latest wins (see the module docstring).

    It lives as long as its owner (a panel or view); when the owner goes, its jobs are superseded.
    """

    def __init__(self, service: WorkService, owner: QObject, name: str):
        super().__init__(owner)
        self.setObjectName(name)
        self.service = service
        self._jobs: set[Job] = set()
        self.current: Job | None = None
        self.closed = False
        jobs = self._jobs  # the owner deleted without closing: its jobs' outcomes have nowhere to go
        self.destroyed.connect(lambda *_: [job.supersede() for job in list(jobs)])

    def start(self, fn: Callable[[TaskState], Any], *, finished=None, failed=None, progressed=None) -> Job:
        """Run ``fn(state)`` on the pool, superseding the channel's previous job; the callbacks are
        called on the GUI thread. After :meth:`close` nothing runs (the job never ends)."""
        if self.current is not None and self.current.running:
            self.current.supersede()
        job = self._job(fn, finished, failed, progressed)
        self.current = job
        if not self._accepts(job):
            return job
        self.service._run_on_pool(job)
        return job

    def start_detached(self, fn: Callable[[TaskState], Any], *, finished=None, failed=None, progressed=None) -> Job:
        """Run ``fn(state)`` on a thread of its own, beside the channel's other jobs: it supersedes
        none and none supersedes it (opening a second model while the first still parses opens both).
        Nobody waits for it: closing drops its outcome without waiting, and interpreter exit does not
        join it (a daemon thread). For work that may block for a minute in a call it cannot leave,
        which must never hold up closing the window: parsing a model file."""
        job = self._job(fn, finished, failed, progressed)
        if not self._accepts(job):
            return job
        threading.Thread(target=job.run_here, name="tokviz-detached-task", daemon=True).start()
        return job

    def _accepts(self, job: Job) -> bool:
        if self.closed or self.service.closed:
            job.supersede()
            return False
        self._jobs.add(job)
        return True

    def _job(self, fn, finished, failed, progressed) -> Job:
        job = Job(fn, self)
        if finished is not None:
            job.finished.connect(finished)
        if failed is not None:
            job.failed.connect(failed)
        if progressed is not None:
            job.progressed.connect(progressed)
        job.ended.connect(lambda j=job: self._forget(j))
        return job

    def _forget(self, job: Job) -> None:
        self._jobs.discard(job)
        if job is self.current:
            self.current = None
        job.deleteLater()

    def cancel(self) -> None:
        """Ask the current job to stop (its partial result is still delivered)."""
        if self.current is not None:
            self.current.cancel()

    @property
    def busy(self) -> bool:
        """A job of this channel runs, or its outcome is still on its way."""
        return any(j.running for j in self._jobs)

    def close(self) -> None:
        """Stop for good (the owner is closing): every job is superseded, its outcome dropped; nothing
        is waited for, and nothing started later runs."""
        self.closed = True
        for job in list(self._jobs):
            job.supersede()


class WorkService(QObject):
    """One pool and the channels of every panel; see the module docstring.

    ``threads``: how many pool jobs run at once. One more than the machine's cores (3 on two cores): a
    job that waits (on a child process, a file) leaves its core to the others. A superseded job stuck
    in a native call does not count (its thread is lent back until it returns).
    """

    collection: GarbageCollection = COLLECTION  # the garbage collector is one per process, so is its owner

    def __init__(self, parent: QObject | None = None, *, threads: int | None = None):
        super().__init__(parent)
        self.pool = QThreadPool()  # not a Qt child: its destructor would join running calls (see shutdown)
        self.pool.setMaxThreadCount(threads or max(3, QThread.idealThreadCount() + 1))
        self._channels: list[Channel] = []
        self._stops: list[Callable[[], None]] = []
        self._returns = _Returns()
        self._returns.returned.connect(self._on_returned)
        self._adopted: list[tuple[QObject, QThread]] = []  # stopped threads still inside a call (see adopt)
        self.closed = False
        self._retiring = False
        _SERVICES.add(self)

    # ---- channels and jobs ----------------------------------------------------------------------------
    def channel(self, owner: QObject, name: str) -> Channel:
        """The channel ``name`` of ``owner`` (made on first use; the same one afterwards)."""
        for found in owner.findChildren(Channel, name):
            if found.parent() is owner and found.service is self:
                return found
        made = Channel(self, owner, name)
        self._channels = [c for c in self._channels if isValid(c)] + [made]
        return made

    def _run_on_pool(self, job: Job) -> None:
        with self._returns.lock:
            self._returns.running += 1
        self.pool.start(_PoolRun(job, self))

    @Slot(bool)
    def _on_returned(self, lent: bool) -> None:
        if lent:
            self.pool.reserveThread()  # the pool's size is back to what it was
        self._retire_if_idle()

    def adopt(self, holder: QObject, thread: QThread) -> None:
        """Keep ``holder``, the owner of ``thread`` (a QThread already told to stop), alive until the
        thread finishes: a QThread destroyed while it runs aborts the process. Interpreter exit waits
        for it. For a run stuck in a long native call past its stop's timeout (a training run)."""
        holder.setParent(None)  # its parent (a panel) may go first
        self._adopted.append((holder, thread))
        thread.finished.connect(self._forget_finished)  # queued: the receiver lives on the GUI thread
        self._forget_finished()  # it may have finished before the connection

    @Slot()
    def _forget_finished(self) -> None:
        self._adopted = [(h, t) for h, t in self._adopted if isValid(t) and not t.isFinished()]
        self._retire_if_idle()

    @property
    def adopted(self) -> int:
        """Stopped threads the service keeps until they finish (see :meth:`adopt`)."""
        return len(self._adopted)

    def _retire_if_idle(self) -> None:
        if self.closed and self.running == 0 and not self._adopted and not self._retiring:
            self._retiring = True
            self.deleteLater()

    @property
    def running(self) -> int:
        """Pool jobs running now (superseded ones included: their call has not returned yet)."""
        return self._returns.running

    def add_process(self, stop: Callable[[], None]) -> None:
        """Have :meth:`shutdown` call ``stop`` to end a child process (a render in flight in it then
        fails at once, so its job ends instead of running on). ``stop`` must not block for long."""
        self._stops.append(stop)

    def wait(self, ms: int = 30_000) -> bool:
        """Block until no pool job runs (tests and scripts only: the GUI never waits)."""
        deadline = time.monotonic() + ms / 1000
        while self.running and time.monotonic() < deadline:
            time.sleep(0.005)
        return self.running == 0

    # ---- the garbage collector (one owner, see tokviz.ui.common.collection) -------------------------------
    def collection_paused(self):
        """A context in which no garbage is collected (a job building a big result)."""
        return self.collection.paused()

    def hold_full_collections(self) -> Hold:
        """No full garbage collection until the hold is released (a training run; see
        :meth:`~tokviz.ui.common.collection.GarbageCollection.hold`)."""
        return self.collection.hold()

    # ---- the one shutdown policy --------------------------------------------------------------------------
    def shutdown(self) -> None:
        """The window is closing: cancel everything, wait for nothing (see the module docstring).

        A job still in a call it cannot leave keeps the service (and its pool) alive, parented to the
        application, until that call returns; then the service goes.
        """
        self.closed = True
        for channel in self._channels:
            if isValid(channel):
                channel.close()
        # Queued jobs were superseded with their channels: each returns at once when its turn comes
        # (a superseded running job lends its thread), so the count of running jobs stays exact.
        for stop in self._stops:
            stop()
        if self.running or self._adopted:
            app = QCoreApplication.instance()
            if app is not None:
                self.setParent(app)  # a window deleted now must not delete (and so join) the pool
            return  # retired when its last job returns (_on_returned) and its last thread ends


# Services whose pool may still run a call: interpreter exit waits for it (a pool thread still running
# Python while the interpreter finalises crashes the process). Weak: a service that is gone runs nothing.
_SERVICES: weakref.WeakSet = weakref.WeakSet()


@atexit.register
def _join_running_jobs() -> None:
    for service in list(_SERVICES):
        try:
            service.pool.clear()
            service.pool.waitForDone(60_000)
            for _holder, thread in list(service._adopted):
                thread.wait(60_000)
        except RuntimeError:  # its C++ object is already gone: nothing runs in it
            pass
