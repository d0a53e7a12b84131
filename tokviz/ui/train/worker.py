"""The training worker: runs the core trainer's event generator on a QThread and sends its events to
the GUI in batches by time.

Data flow with a trainer in the training process (``tokviz.core.training.process.ProcessTrainer``,
any algorithm: :func:`training_run` builds such a run)::

    child process            this worker's QThread                      GUI thread
    trainer.run     ──events in batches (~25 ms), over a pipe──►  generator ──batch/progress signals──► panel
          ▲                 corpus lines in 64K-character chunks, credit  │
          └────────────────────────────────────────────────────────────────┘

The thread mostly waits on the pipe (which releases the GIL), so the GUI thread has the GIL to
itself while it paints; the training runs on the child's own interpreter. Injected trainers
(``TrainPanel.trainer_factory``, e.g. the tests' stand-ins) still run right in this thread.

The GUI never receives one signal per merge: a 3000-merge run that takes two seconds would otherwise
queue thousands of cross-thread events and the GUI would spend its time dispatching them. The worker
collects events and flushes them every ``BATCH_SECONDS`` (and always at the end).

Between two events it checks the cancel flag and the pause flag. While paused it waits on a
``threading.Condition`` (so it uses no CPU) but still wakes up regularly to notice a cancel; ``step_once``
lets exactly one more merge through. A paused worker takes no more events from the generator, and
the process trainer's child stops a few merges later (it may only run ``lead`` merges ahead of what
was taken). Closing the generator (always, in ``run``'s ``finally``) ends the child process.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator

from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot

from tokviz.core.errors import TokvizError
from tokviz.core.training import Finished, Progress, StepEvent
from tokviz.core.word_counts import CountingNote
from tokviz.ui.common.work import WorkService

BATCH_SECONDS = 0.05


def counting_note_text(note: CountingNote) -> str:
    """The note in the interface's language (core's ``note.text`` is the CLI's English)."""
    return QCoreApplication.translate(
        "TrainPanel",
        "Note: more than {cap} distinct words (about {about}); trained on the 1/{share} of them picked by a hash "
        "of each word ({kept} words), with exact counts. The others are left out to bound memory.",
    ).format(cap=f"{note.cap:,}", about=f"{note.about:,}", share=note.share, kept=f"{note.kept:,}")

# A run is a function taking the worker's cancel check and returning the trainer's event iterator.
RunFactory = Callable[[Callable[[], bool]], Iterable[object]]


class TrainWorker(QObject):
    """Iterates a trainer's events off the GUI thread.

    Signals: ``batch(list)`` — step events (:class:`~tokviz.core.training.StepEvent`) in order
    (Progress events are folded: only the latest of a batch is sent); ``progress(object)`` — the
    latest Progress; ``failed(str, bool)`` — a message for the window and whether the corpus had
    invalid UTF-8 (so the panel can offer replacement); ``noted(str)`` — a remark on how the corpus
    was counted, in the interface's language (:func:`counting_note_text` of a
    :class:`~tokviz.core.word_counts.CountingNote`: the distinct-word cap was reached);
    ``finished(object, bool)`` — the Finished event and False after a failure.

    No signal ever carries ``None`` across threads: PySide6 (seen with 6.12 on Python 3.11) then
    drops a reference to None it never took, and the interpreter aborts with ``none_dealloc``.
    """

    batch = Signal(list)
    progress = Signal(object)
    failed = Signal(str, bool)
    waiting = Signal(int)  # paused after this many merges: the trainer is suspended between steps
    noted = Signal(str)
    finished = Signal(object, bool)

    def __init__(self, make_events: RunFactory):
        super().__init__()
        self._make_events = make_events
        self._cond = threading.Condition()
        self._cancelled = False
        self._paused = False
        self._allowance = 0  # merges let through while paused (Step)
        self.merges_seen = 0

    # ---- control (called from the GUI thread; only touches the condition's state) --------
    def cancel(self) -> None:
        with self._cond:
            self._cancelled = True
            self._cond.notify_all()

    def is_cancelled(self) -> bool:
        return self._cancelled

    def pause(self) -> None:
        with self._cond:
            self._paused = True

    def resume(self) -> None:
        with self._cond:
            self._paused = False
            self._cond.notify_all()

    def step_once(self) -> None:
        """While paused, let one more merge through."""
        with self._cond:
            self._allowance += 1
            self._cond.notify_all()

    def _wait_while_paused(self) -> None:
        with self._cond:
            while self._paused and self._allowance == 0 and not self._cancelled:
                self._cond.wait(0.1)
            if self._paused and self._allowance > 0:
                self._allowance -= 1

    @Slot()
    def run(self) -> None:
        pending: list[StepEvent] = []
        last_progress: Progress | None = None
        sent_phase = ""
        last_flush = time.monotonic()
        finished: Finished | None = None
        events: Iterator[object] | None = None

        def flush() -> None:
            nonlocal pending, last_progress, last_flush
            if last_progress is not None:
                self.progress.emit(last_progress)
                last_progress = None
            if pending:
                self.batch.emit(pending)
                pending = []
            last_flush = time.monotonic()

        try:
            events = iter(self._make_events(self.is_cancelled))
            for event in events:
                if isinstance(event, StepEvent):
                    pending.append(event)
                    self.merges_seen = event.step
                elif isinstance(event, Progress):
                    new_phase = event.phase != sent_phase
                    last_progress = event
                    sent_phase = event.phase
                    if new_phase:
                        flush()  # show a new phase (e.g. indexing) at once, before its long first step
                elif isinstance(event, CountingNote):
                    self.noted.emit(counting_note_text(event))
                elif isinstance(event, Finished):
                    finished = event
                    break
                if self._cancelled:
                    finished = Finished("cancelled", self.merges_seen, _cancelled_message())
                    break
                if time.monotonic() - last_flush >= BATCH_SECONDS:
                    flush()
                if self._paused and isinstance(event, StepEvent):
                    flush()  # show everything done so far before blocking
                    self.waiting.emit(self.merges_seen)
                    self._wait_while_paused()
                    if self._cancelled:
                        finished = Finished("cancelled", self.merges_seen, _cancelled_message())
                        break
            else:
                finished = Finished("exhausted", self.merges_seen,
                                    QCoreApplication.translate("TrainWorker", "The trainer stopped."))
        except TokvizError as err:
            flush()
            self.failed.emit(str(err), _is_invalid_utf8(err))
            self.finished.emit(Finished("cancelled", self.merges_seen, str(err)), False)
            return
        except Exception as err:  # noqa: BLE001 — a bug in the trainer must not take the app down
            flush()
            failed = QCoreApplication.translate("TrainWorker", "Training failed: {kind}: {err}").format(
                kind=_error_kind(err), err=err)
            self.failed.emit(f"{failed}\n\n{_traceback_tail(err)}", False)
            self.finished.emit(Finished("cancelled", self.merges_seen,
                                        QCoreApplication.translate("TrainWorker", "Training failed.")), False)
            return
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                try:
                    close()  # let the generator release its file handles now, in this thread
                except Exception:  # noqa: BLE001
                    pass
            self._make_events = None  # nor hold the trainer (a training process) past its run
        flush()
        self.finished.emit(finished, True)


def _cancelled_message() -> str:
    return QCoreApplication.translate("TrainWorker", "Training cancelled.")


def _error_kind(err: Exception) -> str:
    """The exception's class name; for a crash in the training process, the child's exception's."""
    if getattr(err, "child_traceback", None) and isinstance(getattr(err, "kind", None), str):
        return err.kind
    return type(err).__name__


def _traceback_tail(err: Exception) -> str:
    """The last frames of where ``err`` was raised: in the training process when it came from
    there (its own traceback ends in the parent's receiving code, which says nothing)."""
    child = getattr(err, "child_traceback", None)
    if child:
        return "\n".join(child.strip().splitlines()[-5:])
    tb = traceback.format_exception(type(err), err, err.__traceback__)
    return "".join(tb[-3:]).strip()


def _is_invalid_utf8(err: Exception) -> bool:
    from tokviz.core.errors import CorpusError

    text = str(err).lower()
    return isinstance(err, CorpusError) and ("utf-8" in text or "utf8" in text)


class TrainRun(QObject):
    """One worker on its own QThread; ``stop()`` ends it within ``timeout`` seconds.

    A QThread object must outlive its thread: if a trainer is stuck in a long C call past the
    timeout, the run is handed to ``work`` (the window's service), which keeps it until the thread
    quits on its own, instead of it being destroyed while running.
    """

    def __init__(
        self, make_events: RunFactory, parent: QObject | None = None, *, work: WorkService,
        trainer: object | None = None,
    ):
        super().__init__(parent)
        self.work = work
        self.trainer = trainer  # the trainer whose events these are, when known (its model at a step)
        self.gate: QObject | None = None  # where its events go on the GUI thread (run_events.attach)
        self.thread = QThread()
        self.thread.setObjectName("tokviz-train")
        self.worker = TrainWorker(make_events)
        self.worker.moveToThread(self.thread)
        self.thread.started.connect(self.worker.run)
        self.worker.finished.connect(self.thread.quit)

    @classmethod
    def of(cls, trainer, source, parent: QObject | None = None, *, work: WorkService) -> TrainRun:
        """A run of ``trainer`` over ``source`` (``lines()`` and ``total_bytes``: a CorpusSource)."""

        def make_events(cancel: Callable[[], bool]) -> Iterable[object]:
            return trainer.run(source.lines(), cancel=cancel, total_bytes=source.total_bytes)

        return cls(make_events, parent, work=work, trainer=trainer)

    def start(self) -> None:
        self.thread.start()

    def stop(self, timeout: float = 1.0) -> bool:
        """Cancel and wait; True when the thread has ended."""
        self.worker.cancel()
        self.thread.quit()
        ended = self.thread.wait(int(timeout * 1000))
        if not ended:  # the cancel flag is set: the trainer ends at its next check
            self.work.adopt(self, self.thread)
        return ended


def training_run(
    algorithm: str, config: object | None, source, parent: QObject | None = None, *, work: WorkService
) -> TrainRun:
    """Any algorithm's run in the training process: the one call that starts BPE, WordPiece or Unigram.

    ``make_trainer(algorithm, config)`` (TokvizError for bad settings, raised here) in a
    :class:`~tokviz.core.training.process.ProcessTrainer`, on a TrainRun over ``source``. Connect the
    worker's signals, then ``start()``; ``run.worker`` pauses, steps, resumes and cancels;
    ``run.trainer.model(step)`` is the model after any step received (also after Finished or a
    cancel); ``run.trainer.close()`` ends the training process once its models are no longer needed
    (dropping the trainer does too).
    """
    # imported here: the trainers (numpy, the Unigram lattice) load when the first run starts
    from tokviz.core.training.factory import make_trainer
    from tokviz.core.training.process import ProcessTrainer

    return TrainRun.of(ProcessTrainer(make_trainer(algorithm, config)), source, parent, work=work)
