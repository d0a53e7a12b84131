"""A channel with a service of its own, for code not yet handed the window's
:class:`~tokviz.ui.common.work.WorkService` (the Train panel's runners).

Everything else lives in :mod:`tokviz.ui.common.work` (jobs, channels, the shutdown policy) and
:mod:`tokviz.ui.common.collection` (the garbage collector); the names here are kept for that code.
New code asks its Session's service for a channel instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject

from tokviz.ui.common.collection import COLLECTION
from tokviz.ui.common.work import Job, TaskState, WorkService, is_interrupt

__all__ = ["Task", "TaskRunner", "TaskState", "collect_garbage_on_gui_thread", "collection_paused", "is_interrupt"]

Task = Job
collection_paused = COLLECTION.paused
collect_garbage_on_gui_thread = COLLECTION.collect_on_gui_thread


class TaskRunner(QObject):
    """One channel of work on a small service of its own, latest wins (see :class:`~tokviz.ui.common.work.Channel`).

    ``threads`` is how many jobs may run at once in its pool.
    """

    def __init__(self, parent: QObject | None = None, *, threads: int = 2):
        super().__init__(parent)
        self._service = WorkService(self, threads=threads)
        self._channel = self._service.channel(self, "tasks")

    @property
    def current(self) -> Job | None:
        return self._channel.current

    def start(self, fn: Callable[[TaskState], Any], *, finished=None, failed=None, progressed=None) -> Job:
        """See :meth:`~tokviz.ui.common.work.Channel.start`."""
        return self._channel.start(fn, finished=finished, failed=failed, progressed=progressed)

    def start_detached(self, fn: Callable[[TaskState], Any], *, finished=None, failed=None, progressed=None) -> Job:
        """See :meth:`~tokviz.ui.common.work.Channel.start_detached`."""
        return self._channel.start_detached(fn, finished=finished, failed=failed, progressed=progressed)

    def cancel(self) -> None:
        self._channel.cancel()

    @property
    def busy(self) -> bool:
        return self._channel.busy

    def wait(self, ms: int = 30_000) -> bool:
        """Block until every started pool job has returned (results are still to be delivered)."""
        return self._service.wait(ms)

    def shutdown(self, ms: int = 30_000) -> None:
        """Stop for good: every job is superseded (its outcome dropped), and running pool jobs are waited
        for up to ``ms`` (0: not at all; the service then outlives this runner until they return)."""
        self._channel.close()
        if ms:
            self._service.wait(ms)
        self._service.shutdown()
