"""Background jobs for the Compare panel: a plain function ``fn(state)`` run by a QObject worker on
its own QThread.

``state`` is the worker itself and satisfies ``tokviz.core.compare.CompareState``:
``is_cancelled()`` and ``progress(done, total, result)``. The core functions already call
``progress`` at most every ~50 ms, so the GUI gets batched updates, not one per text.
Signals reach the GUI thread through a :class:`Job` that lives there (queued connections).
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot

from tokviz.core.compare import describe_failure


class _Worker(QObject):
    progressed = Signal(object)
    done = Signal(object)
    error = Signal(str)

    def __init__(self, fn: Callable[["_Worker"], Any]):
        super().__init__()
        self._fn = fn
        self._cancel = threading.Event()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def progress(self, done: int, total: int, result: Any = None) -> None:
        snapshot = result.snapshot() if hasattr(result, "snapshot") else result
        self.progressed.emit((done, total, snapshot))

    @Slot()
    def run(self) -> None:
        try:
            result = self._fn(self)
        except Exception as err:  # noqa: BLE001 - shown in the panel, never a traceback
            self.error.emit(describe_failure(err))
        else:
            self.done.emit(result)


class Job(QObject):
    """One background run. Connect to ``progressed``/``finished``/``failed`` (GUI thread)."""

    progressed = Signal(object)  # (done, total, snapshot)
    finished = Signal(object)  # the function's result
    failed = Signal(str)  # a message for the user
    ended = Signal()  # after finished/failed, the thread has stopped

    def __init__(self, fn: Callable[[Any], Any], parent: QObject | None = None):
        super().__init__(parent)
        self._thread = QThread()
        self._worker = _Worker(fn)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.progressed.connect(self._on_progress)
        self._worker.done.connect(self._on_done)
        self._worker.error.connect(self._on_error)
        self.running = False

    def start(self) -> "Job":
        self.running = True
        self._thread.start()
        return self

    def cancel(self) -> None:
        self._worker._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._worker.is_cancelled()

    def wait(self, ms: int = 30000) -> bool:
        """Stop the thread (after its function returns) and wait for it."""
        self._thread.quit()
        return self._thread.wait(ms)

    @Slot(object)
    def _on_progress(self, payload) -> None:
        if not self.cancelled:
            self.progressed.emit(payload)

    @Slot(object)
    def _on_done(self, result) -> None:
        self._finish()
        self.finished.emit(result)
        self.ended.emit()

    @Slot(str)
    def _on_error(self, message: str) -> None:
        self._finish()
        self.failed.emit(message)
        self.ended.emit()

    def _finish(self) -> None:
        self.running = False
        self._thread.quit()
        self._thread.wait()


class JobRunner(QObject):
    """Keeps running jobs alive and stops them all on shutdown (the window waits for them)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._jobs: set[Job] = set()

    def start(self, fn: Callable[[Any], Any], *, finished=None, failed=None, progressed=None) -> Job:
        job = Job(fn, self)
        if finished is not None:
            job.finished.connect(finished)
        if failed is not None:
            job.failed.connect(failed)
        if progressed is not None:
            job.progressed.connect(progressed)
        self._jobs.add(job)
        job.ended.connect(lambda j=job: self._forget(j))
        return job.start()

    def _forget(self, job: Job) -> None:
        self._jobs.discard(job)
        job.deleteLater()

    @property
    def busy(self) -> bool:
        return any(j.running for j in self._jobs)

    def shutdown(self, ms: int = 30000) -> None:
        for job in list(self._jobs):
            job.cancel()
        for job in list(self._jobs):
            job.wait(ms)
        self._jobs.clear()
