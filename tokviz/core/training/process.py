"""Any trainer in a child process: the same events as the trainer run in place, without its GIL.

Why a process: the trainers are pure Python (plus numpy). Run in a thread of the GUI process, a
trainer holds the GIL most of the time, and every Python callback Qt makes while painting
(pyqtgraph's items, ``paintEvent`` overrides) must wait for it — up to the 5 ms switch interval each
time, many times per frame. Frames stalled 150-470 ms that way although the GUI thread itself worked
only 30-80 ms of them. In a child process the trainer has a GIL of its own.

How a run goes (:meth:`ProcessTrainer.run`, a generator like the trainer's own ``run``):

1. The child starts from :func:`tokviz.core.child_start.context` (a fork server that has the trainers
   imported, or ``spawn``; never ``fork`` of the GUI process: a forked copy of a process with threads
   can deadlock) and gets a copy of the fresh trainer (from
   :func:`~tokviz.core.training.factory.make_trainer`). It says ``("ready",)`` once imported.
2. The caller's thread streams the corpus lines to it in chunks of about 64K characters (pipes
   release the GIL while they wait) and meanwhile passes on what the child reports.
3. The child runs the trainer and sends its events in batches, every ``BATCH_SECONDS`` and at every
   Progress and Finished.
4. Flow control: the child may run at most ``lead`` steps ahead of the steps the caller has taken
   from the generator (a credit the caller tops up as it takes them). A caller that stops taking
   events - a paused demo - stops the child after those few steps, and it waits in a blocking read,
   using no CPU. BPE and WordPiece steps take a millisecond or less, so they may run 128 ahead;
   a Unigram step (an EM iteration or pruning round) takes seconds on a big corpus, so it runs one
   ahead, as it would in place.
5. The model at a step: BPE's is rebuilt here from the merges its steps carry plus the base symbols
   and corpus statistics the child sends when they change (:func:`trained_model`), so the child
   ends with the run. Other trainers' models are asked of the child (``("model", step)``; it
   answers between steps, or at once when it waits for credit or has finished), so after Finished
   that child stays, waiting in a blocking read, until :meth:`ProcessTrainer.close`, the next run,
   or the ProcessTrainer is dropped.
6. The end: on cancel, on ``close()`` of the generator or on an error the child is ended. BPE's is
   terminated (SIGTERM, then SIGKILL) and reaped within a second: it holds nothing that needs a
   graceful end. Another trainer's child is first asked to cancel (its trainer stops at its next
   cancel check and finishes "cancelled"), so that the steps it made keep their models; one that
   does not answer within ``CANCEL_SECONDS`` is terminated. A child whose parent died finds its
   pipe closed at its next read or write and exits.

Errors keep their kind: a TokvizError in the child (e.g. a corpus with no words) is raised in the
caller as the same class with the same message; any other exception as :class:`TrainerProcessCrash`
carrying the child's traceback; a child that dies without a word as :class:`TrainerProcessDied`.
"""

from __future__ import annotations

import importlib
import os
import signal
import threading
import time
import traceback
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from tokviz.core.bpe.corpus import line_pieces
from tokviz.core.bpe.events import MergeStep
from tokviz.core.bpe.trainer import BPETrainer, trained_model
from tokviz.core.child_start import context
from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import TokvizError
from tokviz.core.process_exit import describe_exit, end_process
from tokviz.core.training.events import Finished, StepEvent, TrainEvent

if TYPE_CHECKING:  # not at run time: the child imports only the trainer it runs
    from tokviz.core.training.factory import Trainer

LEAD_STEPS = {"bpe": 128, "wordpiece": 128}  # steps the child may run ahead (late BPE merges take ~0.5 ms)
DEFAULT_LEAD = 1  # any other algorithm: one step ahead (a Unigram step takes seconds)
BATCH_SECONDS = 0.025  # the child sends steps at least this often (pickling a batch stays cheap)
SEND_CHARS = 1 << 16  # corpus characters per message to the child (the trainers count 64K chunks)
WAIT_SECONDS = 0.05  # the caller's thread checks its cancel flag this often while it waits
STOP_SECONDS = 0.4  # per attempt (SIGTERM, then SIGKILL) to end the child
CANCEL_SECONDS = 1.0  # a child asked to cancel has this long to finish "cancelled" before it is ended
MODEL_SECONDS = 10.0  # a model request waits at most this long (the child answers between steps)
CONTROL_SECONDS = 0.01  # while it trains, the child looks for a cancel or a model request this often
CHILD_NICENESS = 10  # added to the child's nice value (see _child_main)


class TrainerProcessCrash(RuntimeError):
    """An unexpected exception in the training process (a bug, not bad input).

    ``kind`` is the exception's class name in the child, ``str(err)`` its message and
    ``child_traceback`` the child's formatted traceback.
    """

    def __init__(self, kind: str, message: str, child_traceback: str):
        super().__init__(message)
        self.kind = kind
        self.child_traceback = child_traceback


class TrainerProcessDied(TokvizError):
    """The training process ended without finishing or reporting an error (killed, crashed in C)."""


class ProcessTrainer:
    """A trainer's interface (``run``, ``model``, ``finished``, ``algorithm``, ``config``) with the
    training done in a child process; see the module docstring.

    ``trainer`` is a fresh trainer (:func:`~tokviz.core.training.factory.make_trainer`, or a
    stand-in in tests: its class must be importable by name); the child runs a copy of it. ``lead``
    bounds how many steps the child computes ahead of the caller (default: by algorithm).

    >>> from tokviz.core.training.factory import make_trainer
    >>> from tokviz.core.wordpiece.trainer import WordPieceConfig
    >>> t = ProcessTrainer(make_trainer("wordpiece", WordPieceConfig(vocab_size=16)))
    >>> [e.new_piece for e in t.run(["low lower lowest\\n"]) if isinstance(e, StepEvent)]
    ['##st', '##er', '##est', '##ow']
    >>> [tok.raw for tok in t.model(3).encode("lowest").tokens]  # built by the child, on request
    ['l', '##o', '##w', '##est']
    >>> t.close()
    """

    def __init__(self, trainer: Trainer, *, lead: int | None = None):
        lead = LEAD_STEPS.get(trainer.algorithm, DEFAULT_LEAD) if lead is None else lead
        if lead < 1:
            raise ValueError("lead must be at least 1")
        self.trainer = trainer
        self.algorithm = trainer.algorithm
        self.config = trainer.config
        self.lead = lead
        self._local_models = isinstance(trainer, BPETrainer)  # else the child builds them (module docstring, 5.)
        self._steps = 0
        self._merges: list[tuple[int, int, int]] = []
        self._base: list[str] = []
        self._stats: dict = {}
        self._models: dict[int, Encoder] = {}  # the last models received from the child, by step
        # one model request at a time: two threads asking for the same step would race for its reply
        self._model_lock = threading.Lock()
        self._finished: Finished | None = None
        self._link: _ChildLink | None = None
        self._end_link: weakref.finalize | None = None

    # ---- what a trainer offers ---------------------------------------------------------------
    @property
    def merges(self) -> list[tuple[int, int, int]]:
        """BPE: ``(left id, right id, new id)`` of every merge received so far, in rank order."""
        return list(self._merges)

    @property
    def steps(self) -> int:
        """Step events received so far."""
        return self._steps

    @property
    def finished(self) -> Finished | None:
        return self._finished

    @property
    def pid(self) -> int | None:
        """Process id of the child while it lives (it stays after Finished for models on request)."""
        link = self._link
        return link.process.pid if link is not None and link.alive else None

    def model(self, step: int | None = None) -> Encoder:
        """The model after the first ``step`` steps received (None = all so far); equal to the model
        the trainer gives in place after the same steps. Other trainers than BPE ask the child:
        raises TokvizError when it cannot answer (it has ended, or stays busy ``MODEL_SECONDS``)."""
        if self._local_models:
            return trained_model(
                self.config, self._merges, base=self._base, stats=self._stats, finished=self._finished, step=step
            )
        n = self._steps if step is None else step
        with self._model_lock:
            return self._model_from_child(n)

    def cached_model(self, step: int) -> Encoder | None:
        """The model after ``step`` steps when it is at hand (BPE's, or one the child already gave),
        else None: never waits for the child, so a GUI thread may call it."""
        if self._local_models:
            return self.model(step)
        return self._models.get(step)

    def _model_from_child(self, n: int) -> Encoder:
        if n in self._models:
            return self._models[n]
        link = self._link
        if link is None or not link.alive:
            raise TokvizError(f"The model at step {n:,} is gone: its training process has ended.")
        reply = link.request_model(n)
        if reply[0] == "error":
            raise _rebuild_error(*reply[1:])
        if len(self._models) >= 4:  # the few last asked (the step on screen and its neighbours)
            self._models.pop(next(iter(self._models)))
        self._models[n] = reply[1]
        return reply[1]

    def close(self) -> None:
        """End the child now (a finished run's child waits for model requests until then)."""
        if self._end_link is not None:
            self._end_link()
        self._link = None

    def run(
        self,
        lines: Iterable[str],
        *,
        cancel: Callable[[], bool] | None = None,
        total_bytes: int | None = None,
    ) -> Iterator[TrainEvent]:
        """Train on ``lines`` in a child process; yields what the trainer's ``run`` yields.

        ``lines`` are read in the calling thread. ``cancel`` is polled at least every
        ``WAIT_SECONDS`` while waiting for the child; when it returns True the child is ended (or
        asked to cancel) and the generator yields ``Finished("cancelled")``. Errors: see the module
        docstring.
        """
        self.close()
        self._steps = 0
        self._merges = []
        self._base = []
        self._stats = {}
        self._models = {}
        self._finished = None
        link = _ChildLink(self.trainer, total_bytes, self.lead)
        self._link = link
        self._end_link = weakref.finalize(self, link.stop, False)  # a dropped ProcessTrainer ends its child
        broken = False  # the child failed, died or could not be fed: it ends whatever the trainer
        try:
            yield from self._exchange(link, lines, cancel or (lambda: False))
        except GeneratorExit:
            raise
        except BaseException:
            broken = True
            raise
        finally:
            self._end_run(link, broken)
            close = getattr(lines, "close", None)
            if close is not None:
                close()  # release the corpus file now, in this thread

    # ---- helpers ---------------------------------------------------------------------------
    def _exchange(self, link: _ChildLink, lines: Iterable[str], cancelled: Callable[[], bool]) -> Iterator[TrainEvent]:
        """Feed the lines, pass on the events; the run's part that talks to the child."""
        if not link.wait_ready(cancelled):
            yield from self._cancelled_end(link)
            return
        for chunk in _line_chunks(lines):
            if cancelled():
                yield from self._cancelled_end(link)
                return
            if not link.send(("lines", chunk)):
                break  # the child is gone: what it said last (an error?) is read below
            for message in link.pending():
                yield from self._accept(message, link)
        else:
            link.send(("end",))
        while True:
            message = link.receive(cancelled)
            if message is None:
                yield from self._cancelled_end(link)
                return
            for event in self._accept(message, link):
                yield event
                if isinstance(event, Finished):
                    return

    def _accept(self, message: tuple, link: _ChildLink) -> Iterator[TrainEvent]:
        kind = message[0]
        if kind == "error":
            raise _rebuild_error(*message[1:])
        if kind != "events":
            return
        _, events, meta = message
        if meta is not None:
            self._base, self._stats = meta
        for event in events:
            if isinstance(event, StepEvent):
                self._steps += 1
                if isinstance(event, MergeStep):
                    self._merges.append((event.left, event.right, event.token_id))
                if link.granted - self._steps <= self.lead // 2:
                    link.grant(self._steps + self.lead)  # top up before the child runs out
            elif isinstance(event, Finished):
                self._finished = event
                link.child_finished = True
            yield event

    def _wait_for_cancel(self, link: _ChildLink) -> Iterator[TrainEvent]:
        """Ask the child to cancel and pass on what it sends until its Finished, for at most
        CANCEL_SECONDS (then nothing more: the caller ends it)."""
        if not link.send(("cancel",)):
            return
        deadline = time.monotonic() + CANCEL_SECONDS
        while not link.child_finished:
            message = link.receive_by(deadline)
            if message is None:
                return
            yield from self._accept(message, link)

    def _cancelled_end(self, link: _ChildLink) -> Iterator[TrainEvent]:
        """Cancel the run: BPE's child is ended (by ``_end_run``); another that has made steps is
        asked to finish "cancelled", so that their models stay."""
        if not self._local_models and self._steps:
            yield from self._wait_for_cancel(link)
            if link.child_finished:
                return
        n = self._steps
        if self._local_models:
            message = f"cancelled after {n} merges" if self._stats else "cancelled while counting the corpus"
        else:
            message = f"cancelled after {n} steps" if n else "cancelled while counting the corpus"
        self._finished = Finished("cancelled", n, message)
        yield self._finished

    def _end_run(self, link: _ChildLink, broken: bool) -> None:
        """Keep a child that serves models, else end it (see the module docstring, 5. and 6.)."""
        if not (self._local_models or broken or link.child_finished) and self._steps:
            try:  # closed mid-run: its steps keep their models if it cancels in time
                for _ in self._wait_for_cancel(link):
                    pass
            except Exception:  # noqa: BLE001 - it failed or died meanwhile: it is ended below, nothing to report
                pass
        if self._local_models or broken or not link.child_finished:
            link.stop(graceful=self._finished is not None and self._finished.reason != "cancelled")


class _ChildLink:
    """The parent's end: the child process and the two pipes to and from it.

    Two threads may use it at once: the run's (events) and the one asking for a model (the GUI's).
    One of them reads the pipe at a time and routes what it reads: model replies to ``_replies``,
    everything else to ``_queue`` for the run.
    """

    def __init__(self, trainer: Trainer, total_bytes: int | None, lead: int):
        ctx = context()
        inbox, self._to_child = ctx.Pipe(duplex=False)
        self._from_child, outbox = ctx.Pipe(duplex=False)
        self.granted = lead
        self.child_finished = False  # the child's own Finished has arrived
        self.stopped = False
        self._read_lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._queue: deque[tuple] = deque()
        self._replies: dict[int, tuple] = {}
        self.process = ctx.Process(
            target=_child_main,
            args=(trainer, inbox, outbox, total_bytes, lead),
            name=f"tokviz-{trainer.algorithm}-trainer",
            daemon=True,  # ended with the app even if nobody stops it
        )
        try:
            self.process.start()
        finally:
            inbox.close()  # the child's ends: closed here so that a dead child reads as EOF
            outbox.close()

    @property
    def alive(self) -> bool:
        return not self.stopped and self.process.is_alive()

    def send(self, message: tuple) -> bool:
        """Send to the child; False when it is gone."""
        try:
            with self._send_lock:
                self._to_child.send(message)
            return True
        except (BrokenPipeError, ConnectionError, OSError, ValueError):  # ValueError: closed here
            return False

    def grant(self, upto: int) -> None:
        self.granted = upto
        self.send(("credit", upto))  # a dead child shows up as EOF on the next receive

    def wait_ready(self, cancelled: Callable[[], bool]) -> bool:
        """Wait for the child's first word (it has imported the trainer): True, or False when
        cancelled meanwhile. Only then do corpus lines go out, so the caller never blocks on a
        full pipe while the child is still starting."""
        message = self.receive(cancelled)
        if message is None:
            return False
        if message[0] == "error":
            raise _rebuild_error(*message[1:])
        return True

    def pending(self) -> Iterator[tuple]:
        """The messages that have arrived, without waiting."""
        while self._read(0):
            pass
        while self._queue:
            yield self._queue.popleft()

    def receive(self, cancelled: Callable[[], bool]) -> tuple | None:
        """The next message; None when ``cancelled()`` turns True while waiting."""
        while not cancelled():
            if self._queue:
                return self._queue.popleft()
            self._read(WAIT_SECONDS)
        return None

    def receive_by(self, deadline: float) -> tuple | None:
        """The next message, or None when none came before ``deadline`` (time.monotonic)."""
        while not self._queue:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._read(min(left, WAIT_SECONDS))
        return self._queue.popleft()

    def request_model(self, step: int) -> tuple:
        """Ask the child for its model after ``step`` steps: ``("ok", model)`` or ``("error", ...)``."""
        self._replies.pop(step, None)
        if not self.send(("model", step)):
            raise self._died()
        deadline = time.monotonic() + MODEL_SECONDS
        while step not in self._replies:
            if self.stopped:  # ended meanwhile (a new corpus, the window closing): no answer will come
                raise TokvizError(f"The model at step {step:,} is gone: its training process has ended.")
            if time.monotonic() > deadline:
                raise TokvizError(
                    f"The training process did not give the model at step {step:,} in "
                    f"{MODEL_SECONDS:.0f} s; try again when it rests."
                )
            self._read(WAIT_SECONDS)
        return self._replies.pop(step)

    def _read(self, timeout: float) -> bool:
        """Read and route one message if one arrives within ``timeout``; False if none did."""
        with self._read_lock:
            if self.stopped or not self._from_child.poll(timeout):
                return False
            message = self._recv()
        if message[0] == "model":
            self._replies[message[1]] = message[2]
        else:
            self._queue.append(message)
        return True

    def _recv(self) -> tuple:
        try:
            return self._from_child.recv()
        except (EOFError, ConnectionError, OSError):
            raise self._died() from None

    def _died(self) -> TrainerProcessDied:
        return TrainerProcessDied(f"The training process ended unexpectedly ({describe_exit(self.process)}).")

    def stop(self, graceful: bool) -> None:
        """End and reap the child (once): a finished one gets a moment to exit by itself, any other
        is terminated at once (SIGTERM, then SIGKILL)."""
        with self._read_lock:
            if self.stopped:
                return
            self.stopped = True
        proc = self.process
        try:
            if graceful:
                proc.join(STOP_SECONDS)
            end_process(proc, STOP_SECONDS)
        finally:
            with self._send_lock:
                self._to_child.close()
            self._from_child.close()
        if not proc.is_alive():
            proc.close()


def _line_chunks(lines: Iterable[str]) -> Iterator[list[str]]:
    """The lines in lists of about SEND_CHARS characters (one message each). The child's trainer
    sees the same text: a long item (a block of many lines from ``read_corpus_blocks``) goes in
    pieces (:func:`~tokviz.core.bpe.corpus.line_pieces`): a megabyte block sent whole kept the child
    counting it for 0.2-0.4 s while the caller waited to send the next one, and a cancel waited with it."""
    chunk: list[str] = []
    size = 0
    for line in lines:
        for piece in line_pieces(line, SEND_CHARS):
            chunk.append(piece)
            size += len(piece)
            if size >= SEND_CHARS:
                yield chunk
                chunk, size = [], 0
    if chunk:
        yield chunk


def _rebuild_error(
    is_tokviz: bool, module: str, qualname: str, message: str, attrs: dict, child_traceback: str
) -> Exception:
    """The child's exception as one of the caller's: the same TokvizError class and message (its
    simple attributes too, e.g. ``path``), else a TrainerProcessCrash with the traceback."""
    if not is_tokviz:
        return TrainerProcessCrash(qualname, message, child_traceback)
    cls: type = TokvizError
    if module.split(".")[0] == "tokviz" and "." not in qualname:
        try:
            found = getattr(importlib.import_module(module), qualname)
        except (ImportError, AttributeError):
            found = None
        if isinstance(found, type) and issubclass(found, TokvizError):
            cls = found
    err = cls.__new__(cls)  # not cls(...): subclasses take other arguments (ModelFileError(path, problem))
    Exception.__init__(err, message)
    err.__dict__.update(attrs)
    err.child_traceback = child_traceback
    return err


def _error_report(err: BaseException) -> tuple:
    """What :func:`_rebuild_error` needs to rebuild ``err`` in the parent."""
    attrs = {k: v for k, v in vars(err).items() if v is None or isinstance(v, (str, int, float, bool))}
    text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    cls = type(err)
    return isinstance(err, TokvizError), cls.__module__, cls.__qualname__, str(err), attrs, text


# ---- the child's side ------------------------------------------------------------------------
class _ParentGone(Exception):
    """The parent closed its pipes (it ended the run or died): the child just exits."""


class _ParentChannel:
    """The child's end: reads lines, credit, cancel and model requests; sends batched events."""

    def __init__(self, inbox, outbox, lead: int, trainer: Trainer):
        self.inbox = inbox
        self.outbox = outbox
        self.lead = lead
        self.granted = lead
        self.merged = 0  # steps made
        self.fed = False  # all lines received: from now on only control messages come in
        self.cancelled = False
        self.trainer = trainer
        self._batch: list[TrainEvent] = []
        self._last_flush = self._last_look = time.monotonic()
        self._sent_stats: dict = {}

    def send(self, message: tuple) -> None:
        try:
            self.outbox.send(message)
        except (BrokenPipeError, ConnectionError, OSError):
            raise _ParentGone from None

    def _recv(self) -> tuple:
        try:
            return self.inbox.recv()
        except (EOFError, ConnectionError, OSError):
            raise _ParentGone from None

    def _control(self, message: tuple) -> None:
        kind = message[0]
        if kind == "credit":
            self.granted = max(self.granted, message[1])
        elif kind == "cancel":
            self.cancelled = True
        elif kind == "model":
            self._answer_model(message[1])

    def _answer_model(self, step: int) -> None:
        try:
            reply = ("ok", self.trainer.model(step))
        except Exception as err:  # noqa: BLE001 - the asker gets the error, the training goes on
            reply = ("error", *_error_report(err))
        self.send(("model", step, reply))

    def _take_control(self) -> None:
        """Act on the control messages that have arrived (only once fed: before, lines come too)."""
        while self.inbox.poll(0):
            self._control(self._recv())

    def lines(self) -> Iterator[str]:
        """The corpus lines as the parent streams them."""
        while True:
            message = self._recv()
            if message[0] == "lines":
                yield from message[1]
            elif message[0] == "end":
                self.fed = True
                return
            else:
                self._control(message)

    def hold(self) -> bool:
        """The trainer's cancel hook: True once the parent asked to cancel. Meanwhile it answers
        the parent's requests and waits, in a blocking read, while the child is out of credit."""
        if self.fed:
            now = time.monotonic()
            if now - self._last_look >= CONTROL_SECONDS:  # a poll per call would cost BPE's fast merges
                self._last_look = now
                self._take_control()
        if self.merged >= self.granted and not self.cancelled:
            self.flush()
            while self.merged >= self.granted and not self.cancelled:
                self._control(self._recv())
        return self.cancelled

    def add(self, event: TrainEvent) -> None:
        self._batch.append(event)
        now = time.monotonic()
        if isinstance(event, StepEvent):
            self.merged += 1
            # by time, and at half the credit so that the parent can top it up in time
            if now - self._last_flush < BATCH_SECONDS and self.granted - self.merged != self.lead // 2:
                return
        self.flush(now)  # Progress and Finished go at once: a new phase shows without delay

    def flush(self, now: float | None = None) -> None:
        meta = None
        if isinstance(self.trainer, BPETrainer):  # what the parent rebuilds BPE's models from
            stats = self.trainer.stats
            if stats != self._sent_stats:  # indexed (base and corpus size known) or finished
                meta = (self.trainer.base, stats)
                self._sent_stats = stats
        if self._batch or meta is not None:
            self.send(("events", self._batch, meta))
            self._batch = []
        self._last_flush = now if now is not None else time.monotonic()
        if self.fed:  # take in the credit sent meanwhile (the pipe never fills, the child rarely waits)
            self._take_control()

    def serve(self) -> None:
        """After the run: answer model requests until the parent closes the pipe."""
        while True:
            self._control(self._recv())

    def fail(self, err: BaseException) -> None:
        """Report ``err`` after the events so far (the steps before a crash stay usable)."""
        self.flush()
        self.send(("error", *_error_report(err)))


def _child_main(trainer: Trainer, inbox, outbox, total_bytes: int | None, lead: int) -> None:
    """The child process: train and report (see the module docstring)."""
    # Ctrl+C in a terminal reaches the whole process group: the parent decides when training ends
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A lower priority than the app's: when the cores are busy (the counting helper, other programs)
    # the GUI thread, which needs a few ms per frame, runs first instead of waiting its turn behind
    # this CPU-bound process; on an idle core this costs the training nothing.
    if hasattr(os, "nice"):
        try:
            os.nice(CHILD_NICENESS)
        except OSError:
            pass
    channel = _ParentChannel(inbox, outbox, lead, trainer)
    try:
        try:
            channel.send(("ready",))
            for event in trainer.run(channel.lines(), cancel=channel.hold, total_bytes=total_bytes):
                channel.add(event)
            channel.flush()
            if not isinstance(trainer, BPETrainer):  # its models are built here (module docstring, 5.)
                channel.serve()
        except _ParentGone:
            return
        except BaseException as err:  # noqa: BLE001 - every failure goes to the parent, with its kind
            try:
                channel.fail(err)
            except _ParentGone:
                pass
    finally:
        inbox.close()
        outbox.close()
