"""Where the Train panel meets a run: the one place that knows how a run's events reach the panel
(today the signals of :class:`~tokviz.ui.train.worker.TrainRun`'s worker). The BPE transport and the
WordPiece/Unigram one both go through here, so a different runner (one worker process for every
trainer) changes this file, not the panel."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Slot

from tokviz.ui.train.worker import TrainRun


@dataclass(frozen=True)
class RunHandlers:
    """What the panel does with each event of a run (bound methods: they run on the GUI thread)."""

    batch: Callable[[list], None]  # recorded steps, in order
    progress: Callable[[object], None]  # counting/indexing progress
    failed: Callable[[str, bool], None]  # message, whether the corpus is invalid UTF-8
    finished: Callable[[object, bool], None]  # the Finished event, and False after a failure
    noted: Callable[[str], None] | None = None  # a note for the user (e.g. a capped corpus)
    waiting: Callable[[int], None] | None = None  # suspended between steps after this many


class _Gate(QObject):
    """Lives on the GUI thread between a run's worker and the panel: the worker's queued signals
    land here, and once the run is detached whatever was already queued is dropped instead of
    reaching the panel (a batch queued before a cancel would otherwise lengthen a recording the
    panel has already reported as finished)."""

    def __init__(self, handlers: RunHandlers, parent: QObject) -> None:
        super().__init__(parent)
        self.handlers = handlers
        self.open = True

    @Slot(list)
    def batch(self, steps: list) -> None:
        if self.open:
            self.handlers.batch(steps)

    @Slot(object)
    def progress(self, progress: object) -> None:
        if self.open:
            self.handlers.progress(progress)

    @Slot(str, bool)
    def failed(self, message: str, invalid_utf8: bool) -> None:
        if self.open:
            self.handlers.failed(message, invalid_utf8)

    @Slot(object, bool)
    def finished(self, event: object, ok: bool) -> None:
        if self.open:
            self.handlers.finished(event, ok)

    @Slot(str)
    def noted(self, note: str) -> None:
        if self.open and self.handlers.noted is not None:
            self.handlers.noted(note)

    @Slot(int)
    def waiting(self, after: int) -> None:
        if self.open and self.handlers.waiting is not None:
            self.handlers.waiting(after)


def attach(run: TrainRun, handlers: RunHandlers) -> None:
    """Route ``run``'s events to ``handlers`` (before the run starts), through a gate that
    :func:`detach` closes."""
    worker = run.worker
    gate = _Gate(handlers, run)
    run.gate = gate
    worker.batch.connect(gate.batch)
    worker.progress.connect(gate.progress)
    worker.failed.connect(gate.failed)
    worker.finished.connect(gate.finished)
    worker.noted.connect(gate.noted)
    worker.waiting.connect(gate.waiting)


def detach(run: TrainRun) -> None:
    """Nothing more from ``run`` reaches the panel, not even what its worker had already queued."""
    gate = run.gate
    if gate is not None:
        gate.open = False
    worker = run.worker
    with warnings.catch_warnings():  # PySide warns (not raises) for a signal with nothing connected
        warnings.simplefilter("ignore", RuntimeWarning)
        for signal in (worker.batch, worker.progress, worker.failed, worker.finished, worker.noted, worker.waiting):
            try:
                signal.disconnect()
            except (RuntimeError, TypeError):  # nothing connected
                pass
