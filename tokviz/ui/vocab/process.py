"""The Vocabulary panel's work in a child process, so that the GUI process keeps its GIL.

Why a process: building tiktoken's encoder for a 200,000-rank file is one native call that holds the
GIL ~250 ms, and numpy conversions, sorts and dict builds over 200,000 tokens are more such calls; run
in a thread of the GUI process, each one froze the window for its whole length (up to 430 ms on a
loaded machine). In a child the work has a GIL of its own.

How it goes: one long-lived child per panel (:class:`VocabWorker`), started from
:func:`tokviz.core.child_start.context` (never a ``fork`` of the GUI process) on the first request. It
keeps every encoder it loaded, and the per-encoder caches of :mod:`tokviz.core.vocab` with them, between
requests: opening o200k twice loads it once. Each request says how to get each encoder
(:class:`Recipe`): a built-in one is loaded by name from the child's own registry; one that exists only
in this process (a model trained in the app, a file the user opened) is sent pickled, once per child (a
BPEModel is plain data; a rank encoder pickles its ranks). An encoder that cannot be pickled is computed
on the calling thread as before (:func:`run_outside` falls back; correct, only not stall-free).

The child runs requests one at a time, in order, and sends progress and the result; the result is
sent in slices that unpickle in short calls (:mod:`tokviz.ui.vocab.transfer`), on the caller's thread
(a pool thread, never the GUI thread). A caller whose job is cancelled (superseded) stops waiting at
once and tells the child, which skips that request or stops it at its next cancel check. A child that
dies becomes a :class:`VocabProcessDied` for the requests it had (a message in the panel); the next
request starts a new child. :meth:`VocabWorker.close` ends the child at once (the panel or the window
closes); a child whose parent died finds its pipe closed and exits.

Nothing here imports Qt: the child imports only the Qt-free job functions.
"""

from __future__ import annotations

import itertools
import pickle
import queue
import signal
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from tokviz.core.child_start import context
from tokviz.core.errors import EncoderUnavailable, TokvizError
from tokviz.core.process_exit import describe_exit, end_process
from tokviz.core.vocab.ranks import VocabCancelled
from tokviz.ui.vocab.jobs import run_request
from tokviz.ui.vocab.state import Outcome, Request
from tokviz.ui.vocab.transfer import PROTOCOL, packed

WAIT_SECONDS = 0.05  # a waiting caller checks its cancel flag this often
PROGRESS_SECONDS = 0.05  # the child sends progress at most this often
CONTROL_SECONDS = 0.02  # while it computes, the child looks for cancels this often
# as the training process's (tokviz.core.training.process, whose error helpers are used here too; it
# is imported only when an error travels: it costs the child's start ~0.2 s of imports)
STOP_SECONDS = 0.4  # per attempt (SIGTERM, then SIGKILL) to end the child


class VocabProcessDied(TokvizError):
    """The vocabulary process ended while it had work (killed, out of memory, crashed in C)."""


class NotSendable(Exception):
    """An encoder of the request cannot be pickled for the child (the caller computes in place)."""


@dataclass(frozen=True)
class Recipe:
    """How the child gets one encoder: ``key`` names it for the child's lifetime; ``encoder`` is the
    object to send (pickled, once per child) or None to load it by name from the built-in registry."""

    key: int
    encoder: object | None = None


class EncoderHandle:
    """What results are cached and delivered under in this process, for one registry entry: the
    panel's state keys its cache by encoder *object*, and this process need not hold the encoder.
    ``key`` names the encoder in the child."""

    __slots__ = ("name", "key", "__weakref__")

    def __init__(self, name: str, key: int):
        self.name = name
        self.key = key

    def __repr__(self) -> str:
        return f"EncoderHandle({self.name!r}, {self.key})"


# ---- the parent's side --------------------------------------------------------------------------------
class _Link:
    """One child process, its pipes and the thread that reads what it sends."""

    def __init__(self):
        ctx = context()
        inbox, self.to_child = ctx.Pipe(duplex=False)
        self.from_child, outbox = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=_child_main, args=(inbox, outbox), name="tokviz-vocabulary", daemon=True)
        try:
            self.process.start()
        finally:
            inbox.close()  # the child's ends: closed here so that a dead child reads as EOF
            outbox.close()
        self.sent: set[int] = set()  # keys of the encoders this child holds
        self.waiting: dict[int, queue.SimpleQueue] = {}
        self.lock = threading.Lock()  # sending, and the two fields above
        self.dead = False
        threading.Thread(target=self._read, name="tokviz-vocabulary-reader", daemon=True).start()

    def _read(self) -> None:
        """Route each message to the caller waiting for its request; at EOF tell every caller."""
        while True:
            try:
                message = self.from_child.recv()
            except Exception:  # noqa: BLE001 - EOF, or the pipe closed by stop(): the child is gone
                break
            with self.lock:
                box = self.waiting.get(message[1])
            if box is not None:
                box.put(message)
        with self.lock:
            self.dead = True
            boxes = list(self.waiting.values())
        for box in boxes:
            box.put(("died", None))

    def send(self, message: tuple) -> bool:
        """Send (under ``lock``); False when the child is gone."""
        try:
            self.to_child.send(message)
            return True
        except (BrokenPipeError, ConnectionError, OSError, ValueError):
            self.dead = True
            return False

    def died(self) -> VocabProcessDied:
        return VocabProcessDied(
            f"The vocabulary process ended unexpectedly ({describe_exit(self.process)}); "
            "the next request starts it again."
        )

    def stop(self) -> None:
        """End and reap the child (SIGTERM, then SIGKILL); it holds nothing that needs a graceful end."""
        proc = self.process
        with self.lock:
            self.dead = True
            self.to_child.close()
        end_process(proc, STOP_SECONDS)
        self.from_child.close()  # the reader thread sees EOF and tells the callers still waiting


class VocabWorker:
    """The parent's handle on the vocabulary process (see the module docstring). Thread-safe: several
    pool threads may wait on it at once, each for its own request."""

    def __init__(self):
        self._lock = threading.Lock()
        self._link: _Link | None = None
        self._handles: dict[int, tuple[weakref.ref, EncoderHandle]] = {}  # id(entry) -> (entry, its handle)
        self._next_key = itertools.count(1)
        self._next_job = itertools.count(1)
        self._gone: list[int] = []  # keys of encoders dropped here: the child may drop them too
        self.closed = False

    def handle(self, entry) -> EncoderHandle:
        """The one handle of registry entry ``entry`` (another entry, another handle: a model opened
        again under the same name is another encoder). It lives as long as the entry; when the
        entry goes, the child drops its encoder with the next request."""
        with self._lock:
            found = self._handles.get(id(entry))
            if found is not None and found[0]() is entry:
                return found[1]
            handle = EncoderHandle(entry.name, next(self._next_key))
            self._handles[id(entry)] = (weakref.ref(entry), handle)
            weakref.finalize(entry, self._forget, id(entry), handle.key)
            return handle

    def _forget(self, entry_id: int, key: int) -> None:
        found = self._handles.get(entry_id)
        if found is not None and found[1].key == key:
            del self._handles[entry_id]
        self._gone.append(key)

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs (tests, measurements)."""
        link = self._link
        return link.process.pid if link is not None and not link.dead and link.process.is_alive() else None

    @property
    def in_flight(self) -> int:
        """Requests sent to the child (or about to be) and not answered yet (tests, measurements)."""
        link = self._link
        return len(link.waiting) if link is not None else 0

    def _live_link(self) -> _Link:
        with self._lock:
            if self.closed:
                raise VocabCancelled("cancelled")
            if self._link is None or self._link.dead:
                if self._link is not None:
                    self._link.stop()
                self._link = _Link()
            return self._link

    def run(self, request: Request, recipes: dict[str, Recipe], state) -> object:
        """Compute ``request`` in the child; ``recipes`` by encoder name; ``state`` a VocabState
        (progress, cancel). Returns the result; raises what the child raised, VocabCancelled when
        ``state`` is cancelled meanwhile, NotSendable when an encoder cannot be pickled."""
        link = self._live_link()
        job = next(self._next_job)
        box: queue.SimpleQueue = queue.SimpleQueue()
        with link.lock:
            send = {n: r if r.key not in link.sent else Recipe(r.key) for n, r in recipes.items()}
            gone = []
            while self._gone:  # popped one by one: a finalizer may append meanwhile
                gone.append(self._gone.pop())
            try:
                message = pickle.dumps(("run", job, request, send, gone), PROTOCOL)
            except (pickle.PicklingError, TypeError, AttributeError) as err:
                raise NotSendable(str(err)) from None
            link.waiting[job] = box
            if not link.dead and link.send(("bytes", message)):
                link.sent.update(r.key for r in recipes.values())
            else:
                box.put(("died", None))
        try:
            return self._wait(link, job, box, state)
        finally:
            with link.lock:
                link.waiting.pop(job, None)

    def _wait(self, link: _Link, job: int, box: queue.SimpleQueue, state) -> object:
        while True:
            if state.is_cancelled():
                with link.lock:
                    if not link.dead:
                        link.send(("cancel", job))
                raise VocabCancelled("cancelled")
            try:
                message = box.get(timeout=WAIT_SECONDS)
            except queue.Empty:
                continue
            kind = message[0]
            if kind == "progress":
                state.progress(message[2], message[3])
            elif kind == "done":
                return pickle.loads(message[2])  # here, on the caller's thread: slices (see transfer)
            elif kind == "error":
                from tokviz.core.training.process import _rebuild_error

                raise _rebuild_error(*message[2:])
            elif kind == "cancelled":
                raise VocabCancelled("cancelled")
            else:  # died
                if self.closed:
                    raise VocabCancelled("cancelled")
                raise link.died()

    def close(self) -> None:
        """End the child now (requests in flight fail as if it died; the next request starts another).
        :meth:`shutdown` is the panel's: it closes for good, and what was in flight ends as cancelled."""
        with self._lock:
            link, self._link = self._link, None
        if link is not None:
            link.stop()

    def shutdown(self) -> None:
        """Close for good: nothing starts a child any more."""
        self.closed = True
        self.close()


def run_outside(
    request: Request,
    registry,
    state,
    cached: Callable[[Request, tuple], object] | None,
    worker: VocabWorker,
) -> Outcome:
    """:func:`~tokviz.ui.vocab.jobs.run_request` for the panel, computed in ``worker``'s child.

    Results are cached (``cached``) and delivered under each registry entry's :class:`EncoderHandle`,
    never the encoder object: this process need not load a built-in encoder at all. An encoder that cannot be
    pickled is computed here instead (see the module docstring).
    """
    names = [request.encoder] + ([request.second] if request.second is not None else [])
    entries = registry.entries()
    for name in names:
        if name not in entries:
            raise EncoderUnavailable(name, "no such encoder")
    handles = tuple(worker.handle(entries[n]) for n in names)
    hit = cached(request, handles) if cached is not None else None
    if hit is not None:
        return Outcome(request, handles, hit)
    recipes = {h.name: Recipe(h.key, None if _builtin(registry, h.name) else registry.get(h.name)) for h in handles}
    try:
        result = worker.run(request, recipes, state)
    except NotSendable:
        result = run_request(request, registry.get, state).result
    return Outcome(request, handles, result)


def _builtin(registry, name: str) -> bool:
    """True when the child loads ``name`` as this process would: the process-wide registry of built-in
    encoders, and not a model added to it at run time."""
    from tokviz.core.encoders.builtin import default_registry

    return not registry.added(name) and registry is default_registry()


# ---- the child's side ----------------------------------------------------------------------------------
class _ParentGone(Exception):
    """The parent closed its pipes (it closed the panel or died): the child just exits."""


class _Parent:
    """The child's end: requests come in, progress and results go out."""

    def __init__(self, inbox, outbox):
        self.inbox = inbox
        self.outbox = outbox
        self.queued: deque[tuple] = deque()
        self.cancelled: set[int] = set()
        self.encoders: dict[int, object] = {}
        self.registry = None
        self._last_look = 0.0

    def send(self, message: tuple) -> None:
        try:
            self.outbox.send(message)
        except (BrokenPipeError, ConnectionError, OSError):
            raise _ParentGone from None

    def _take(self, message: tuple) -> None:
        if message[0] == "cancel":
            self.cancelled.add(message[1])
        else:
            self.queued.append(pickle.loads(message[1]))

    def look(self) -> None:
        """Take in what arrived meanwhile, without waiting (at most every CONTROL_SECONDS)."""
        now = time.monotonic()
        if now - self._last_look < CONTROL_SECONDS:
            return
        self._last_look = now
        try:
            while self.inbox.poll(0):
                self._take(self.inbox.recv())
        except (EOFError, OSError):
            raise _ParentGone from None

    def next_request(self) -> tuple:
        while not self.queued:
            try:
                self._take(self.inbox.recv())
            except (EOFError, OSError):
                raise _ParentGone from None
        return self.queued.popleft()

    def encoder(self, recipes: dict[str, Recipe], name: str):
        recipe = recipes[name]
        found = self.encoders.get(recipe.key)
        if found is None:
            if recipe.encoder is not None:
                found = recipe.encoder
            else:
                if self.registry is None:
                    from tokviz.core.encoders.builtin import default_registry

                    self.registry = default_registry()
                found = self.registry.get(name)
            self.encoders[recipe.key] = found
        return found

    def serve(self, job: int, request: Request, recipes: dict[str, Recipe]) -> None:
        if job in self.cancelled:
            self.cancelled.discard(job)
            return
        state = _ChildState(self, job)
        try:
            outcome = run_request(request, lambda name: self.encoder(recipes, name), state)
            data = pickle.dumps(packed(outcome.result), PROTOCOL)
        except VocabCancelled:
            self.send(("cancelled", job))
        except _ParentGone:
            raise
        except Exception as err:  # noqa: BLE001 - the asker gets the error; the child serves on
            from tokviz.core.training.process import _error_report

            self.send(("error", job, *_error_report(err)))
        else:
            self.send(("done", job, data))
        self.cancelled.discard(job)


class _ChildState:
    """What :func:`run_request` reports to in the child: progress goes to the parent, cancels come from it."""

    def __init__(self, parent: _Parent, job: int):
        self.parent = parent
        self.job = job
        self._last = 0.0

    def is_cancelled(self) -> bool:
        self.parent.look()
        return self.job in self.parent.cancelled

    def progress(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._last >= PROGRESS_SECONDS or done >= total:
            self._last = now
            self.parent.send(("progress", self.job, done, total))


def _child_main(inbox, outbox) -> None:
    """The vocabulary process: serve requests until the parent closes the pipe."""
    # Ctrl+C reaches the whole process group; the parent decides. (No lower priority, unlike the
    # training process: the user waits for this work, and on a busy machine a niced child made the
    # first view take seconds longer.)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = _Parent(inbox, outbox)
    try:
        while True:
            _run, job, request, recipes, gone = parent.next_request()
            for key in gone:
                parent.encoders.pop(key, None)
            parent.serve(job, request, recipes)
    except _ParentGone:
        return
    finally:
        inbox.close()
        outbox.close()
