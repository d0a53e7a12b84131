"""The BPE trainer in a child process: the same events as :class:`BPETrainer`, without its GIL.

Why a process: the trainer is pure Python (plus numpy). Run in a thread of the GUI process, it
holds the GIL most of the time, and every Python callback Qt makes while painting (pyqtgraph's
items, ``paintEvent`` overrides) must wait for it — up to the 5 ms switch interval each time, many
times per frame. Frames stalled 150-470 ms that way although the GUI thread itself worked only
30-80 ms of them. In a child process the trainer has a GIL of its own.

How a run goes (:meth:`ProcessTrainer.run`, a generator like :meth:`BPETrainer.run`):

1. The child starts with multiprocessing's ``"spawn"`` method (never ``fork`` in a GUI app: a
   forked copy of a process with threads can deadlock). It says ``("ready",)`` once imported.
2. The caller's thread streams the corpus lines to it in chunks of about 64K characters (pipes
   release the GIL while they wait) and meanwhile passes on what the child reports.
3. The child runs the real :class:`BPETrainer` and sends its events in batches, every
   ``BATCH_SECONDS`` and at every Progress and Finished, with the run's base symbols and corpus
   statistics when they change (all that :func:`trained_model` needs besides the merges, which the
   MergeSteps carry). So :meth:`ProcessTrainer.model` gives the same model as the trainer in-process.
4. Flow control: the child may run at most ``lead`` merges ahead of the merges the caller has
   taken from the generator (a credit the caller tops up as it takes them). A caller that stops
   taking events - a paused demo - stops the child after those few merges, and it waits in a
   blocking read, using no CPU.
5. The end: after Finished the child exits; on cancel, on ``close()`` of the generator or on an
   error the child is terminated (SIGTERM, then SIGKILL) and reaped within a second. It holds
   nothing that needs a graceful end: it writes no file. A child whose parent died finds its pipe
   closed at its next read or write and exits.

Errors keep their kind: a TokvizError in the child (e.g. a corpus with no words) is raised in the
caller as the same class with the same message; any other exception as :class:`TrainerProcessCrash`
carrying the child's traceback; a child that dies without a word as :class:`TrainerProcessDied`.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import time
import traceback
from collections.abc import Callable, Iterable, Iterator

from tokviz.core.bpe.corpus import line_pieces
from tokviz.core.bpe.events import Finished, MergeStep, TrainerConfig, TrainEvent
from tokviz.core.bpe.model import BPEModel
from tokviz.core.bpe.trainer import BPETrainer, trained_model
from tokviz.core.errors import TokvizError

LEAD_MERGES = 128  # merges the child may run ahead of the caller (late merges take ~0.5 ms each)
BATCH_SECONDS = 0.025  # the child sends merges at least this often (pickling a batch stays cheap)
SEND_CHARS = 1 << 16  # corpus characters per message to the child (the trainer counts 64K chunks)
WAIT_SECONDS = 0.05  # the caller's thread checks its cancel flag this often while it waits
STOP_SECONDS = 0.4  # per attempt (SIGTERM, then SIGKILL) to end the child
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
    """:class:`BPETrainer`'s interface (``run``, ``model``, ``merges``, ``finished``) with the
    training done in a child process; see the module docstring.

    ``lead`` bounds how many merges the child computes ahead of the caller; ``trainer_class`` is
    the trainer the child runs (a stand-in in tests; it must be importable by name).

    >>> t = ProcessTrainer(TrainerConfig(mode="char", merges=3, min_frequency=1))
    >>> [e.new_piece for e in t.run(["low lower lowest\\n"]) if isinstance(e, MergeStep)]
    ['lo', 'we', 'lowe']
    >>> [tok.raw for tok in t.model().encode("lowest").tokens]
    ['lowe', 's', 't</w>']
    """

    algorithm = "bpe"

    def __init__(self, config: TrainerConfig, *, lead: int = LEAD_MERGES, trainer_class: type = BPETrainer):
        if lead < 1:
            raise ValueError("lead must be at least 1")
        trainer_class(config)  # bad settings raise here, in the caller's thread, like BPETrainer's
        self.config = config
        self.lead = lead
        self.trainer_class = trainer_class
        self._merges: list[tuple[int, int, int]] = []
        self._base: list[str] = []
        self._stats: dict = {}
        self._finished: Finished | None = None
        self._process = None

    # ---- what BPETrainer offers ----------------------------------------------------------
    @property
    def merges(self) -> list[tuple[int, int, int]]:
        """``(left id, right id, new id)`` of every merge received so far, in rank order."""
        return list(self._merges)

    @property
    def finished(self) -> Finished | None:
        return self._finished

    @property
    def pid(self) -> int | None:
        """Process id of the running child (None before and after a run)."""
        proc = self._process
        return proc.pid if proc is not None else None

    def model(self, step: int | None = None) -> BPEModel:
        """The model made of the first ``step`` merges received (None = all so far); equal to the
        model a :class:`BPETrainer` gives after the same merges."""
        return trained_model(self.config, self._merges, base=self._base, stats=self._stats,
                             finished=self._finished, step=step)

    def run(
        self,
        lines: Iterable[str],
        *,
        cancel: Callable[[], bool] | None = None,
        total_bytes: int | None = None,
    ) -> Iterator[TrainEvent]:
        """Train on ``lines`` in a child process; yields what :meth:`BPETrainer.run` yields.

        ``lines`` are read in the calling thread. ``cancel`` is polled at least every
        ``WAIT_SECONDS`` while waiting for the child; when it returns True the child is ended and
        the generator yields ``Finished("cancelled")``. Errors: see the module docstring.
        """
        self._merges = []
        self._base = []
        self._stats = {}
        self._finished = None
        cancelled = cancel or (lambda: False)
        link = _ChildLink(self.config, total_bytes, self.lead, self.trainer_class)
        self._process = link.process
        try:
            if not link.wait_ready(cancelled):
                yield self._cancelled_end()
                return
            for chunk in _line_chunks(lines):
                if cancelled():
                    yield self._cancelled_end()
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
                    yield self._cancelled_end()
                    return
                for event in self._accept(message, link):
                    yield event
                    if isinstance(event, Finished):
                        return
        finally:
            link.stop(graceful=self._finished is not None and self._finished.reason != "cancelled")
            self._process = None
            close = getattr(lines, "close", None)
            if close is not None:
                close()  # release the corpus file now, in this thread

    # ---- helpers ---------------------------------------------------------------------------
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
            if isinstance(event, MergeStep):
                self._merges.append((event.left, event.right, event.token_id))
                taken = len(self._merges)
                if link.granted - taken <= self.lead // 2:
                    link.grant(taken + self.lead)  # top up before the child runs out
            elif isinstance(event, Finished):
                self._finished = event
            yield event

    def _cancelled_end(self) -> Finished:
        n = len(self._merges)
        message = f"cancelled after {n} merges" if self._stats else "cancelled while counting the corpus"
        self._finished = Finished("cancelled", n, message)
        return self._finished


class _ChildLink:
    """The parent's end: the child process and the two pipes to and from it."""

    def __init__(self, config: TrainerConfig, total_bytes: int | None, lead: int, trainer_class: type):
        ctx = multiprocessing.get_context("spawn")
        inbox, self._to_child = ctx.Pipe(duplex=False)
        self._from_child, outbox = ctx.Pipe(duplex=False)
        self.granted = lead
        self.process = ctx.Process(
            target=_child_main,
            args=(config, inbox, outbox, total_bytes, lead, trainer_class),
            name="tokviz-bpe-trainer",
            daemon=True,  # ended with the app even if nobody stops it
        )
        try:
            self.process.start()
        finally:
            inbox.close()  # the child's ends: closed here so that a dead child reads as EOF
            outbox.close()

    def send(self, message: tuple) -> bool:
        """Send to the child; False when it is gone."""
        try:
            self._to_child.send(message)
            return True
        except (BrokenPipeError, ConnectionError, OSError):
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
        while self._from_child.poll(0):
            yield self._recv()

    def receive(self, cancelled: Callable[[], bool]) -> tuple | None:
        """The next message; None when ``cancelled()`` turns True while waiting."""
        while not cancelled():
            if self._from_child.poll(WAIT_SECONDS):
                return self._recv()
        return None

    def _recv(self) -> tuple:
        try:
            return self._from_child.recv()
        except (EOFError, ConnectionError, OSError):
            raise self._died() from None

    def _died(self) -> TrainerProcessDied:
        self.process.join(STOP_SECONDS)
        code = self.process.exitcode
        if code is None:
            how = "it closed its pipe"
        elif code < 0:
            try:
                how = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exit code {code}"
        return TrainerProcessDied(f"The training process ended unexpectedly ({how}).")

    def stop(self, graceful: bool) -> None:
        """End and reap the child: a finished one gets a moment to exit by itself, any other is
        terminated at once (SIGTERM, then SIGKILL)."""
        proc = self.process
        try:
            if graceful:
                proc.join(STOP_SECONDS)
            if proc.is_alive():
                proc.terminate()
                proc.join(STOP_SECONDS)
            if proc.is_alive():
                proc.kill()
                proc.join(STOP_SECONDS)
        finally:
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


def _rebuild_error(is_tokviz: bool, module: str, qualname: str, message: str, attrs: dict,
                   child_traceback: str) -> Exception:
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


# ---- the child's side ------------------------------------------------------------------------
class _ParentGone(Exception):
    """The parent closed its pipes (it ended the run or died): the child just exits."""


class _ParentChannel:
    """The child's end: reads lines and credit, sends batched events."""

    def __init__(self, inbox, outbox, lead: int):
        self.inbox = inbox
        self.outbox = outbox
        self.lead = lead
        self.granted = lead
        self.merged = 0
        self.fed = False  # all lines received: from now on only credit comes in
        self.trainer = None
        self._batch: list[TrainEvent] = []
        self._last_flush = time.monotonic()
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
        if message[0] == "credit":
            self.granted = max(self.granted, message[1])

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
        """The trainer's cancel hook, called between merges: never cancels (the parent ends the
        process instead) but waits, in a blocking read, while the child is out of credit."""
        if self.merged >= self.granted:
            self.flush()
            while self.merged >= self.granted:
                self._control(self._recv())
        return False

    def add(self, event: TrainEvent) -> None:
        self._batch.append(event)
        now = time.monotonic()
        if isinstance(event, MergeStep):
            self.merged += 1
            # by time, and at half the credit so that the parent can top it up in time
            if now - self._last_flush < BATCH_SECONDS and self.granted - self.merged != self.lead // 2:
                return
        self.flush(now)  # Progress and Finished go at once: a new phase shows without delay

    def flush(self, now: float | None = None) -> None:
        stats = getattr(self.trainer, "stats", {})
        meta = None
        if stats != self._sent_stats:  # indexed (base and corpus size known) or finished
            meta = (getattr(self.trainer, "base", []), stats)
            self._sent_stats = stats
        if self._batch or meta is not None:
            self.send(("events", self._batch, meta))
            self._batch = []
        self._last_flush = now if now is not None else time.monotonic()
        if self.fed:  # take in the credit sent meanwhile (the pipe never fills, the child rarely waits)
            while self.inbox.poll(0):
                self._control(self._recv())

    def fail(self, err: BaseException) -> None:
        """Report ``err`` after the events so far (the merges before a crash stay usable)."""
        attrs = {k: v for k, v in vars(err).items() if v is None or isinstance(v, (str, int, float, bool))}
        text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
        cls = type(err)
        self.flush()
        self.send(("error", isinstance(err, TokvizError), cls.__module__, cls.__qualname__, str(err), attrs, text))


def _child_main(config: TrainerConfig, inbox, outbox, total_bytes: int | None, lead: int,
                trainer_class: type) -> None:
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
    channel = _ParentChannel(inbox, outbox, lead)
    try:
        try:
            channel.send(("ready",))
            channel.trainer = trainer_class(config)
            for event in channel.trainer.run(channel.lines(), cancel=channel.hold, total_bytes=total_bytes):
                channel.add(event)
            channel.flush()
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

