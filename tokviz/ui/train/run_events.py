"""Where the Train panel meets a run: the one place that knows how a run's events reach the panel
(today the signals of :class:`~tokviz.ui.train.worker.TrainRun`'s worker). The BPE transport and the
WordPiece/Unigram one both go through here, so a different runner (one worker process for every
trainer) changes this file, not the panel."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

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


def attach(run: TrainRun, handlers: RunHandlers) -> None:
    """Route ``run``'s events to ``handlers`` (before the run starts)."""
    worker = run.worker
    worker.batch.connect(handlers.batch)
    worker.progress.connect(handlers.progress)
    worker.failed.connect(handlers.failed)
    worker.finished.connect(handlers.finished)
    if handlers.noted is not None:
        worker.noted.connect(handlers.noted)
    if handlers.waiting is not None:
        worker.waiting.connect(handlers.waiting)


def detach(run: TrainRun) -> None:
    """Nothing more from ``run`` reaches the panel (a batch already queued may still arrive: the
    panel drops steps that do not continue its recording)."""
    worker = run.worker
    with warnings.catch_warnings():  # PySide warns (not raises) for a signal with nothing connected
        warnings.simplefilter("ignore", RuntimeWarning)
        for signal in (worker.batch, worker.progress, worker.failed, worker.finished, worker.noted, worker.waiting):
            try:
                signal.disconnect()
            except (RuntimeError, TypeError):  # nothing connected
                pass
