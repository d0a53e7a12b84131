"""Chat templates render in a child process that can be stopped.

Why a process: a template's one C call (a big-integer power, a ``sum`` of lists) holds the GIL, so no
deadline inside the interpreter fires and Ctrl-C waits for it; a separate process can always be
killed. The bounded sandbox (:mod:`tokviz.core.template_sandbox`) makes the known bombs fail fast
inside it; this module adds the limits nothing inside can escape:

- a hard wall-clock deadline: the parent kills the child ``KILL_GRACE`` seconds after the render's own
  deadline (which the sandbox's trace hook normally meets first, keeping the child alive);
- a memory limit (``RLIMIT_AS``, :data:`MEMORY_BYTES`) and a CPU-time limit set by the child on itself
  (Linux/macOS; elsewhere the wall clock only), so even an orphaned child cannot run on;
- a bound on the reply the parent reads.

Why a plain ``subprocess`` with a persistent worker: starting Python costs 0.1-0.3 s and the chat
composer renders as the user types, so one worker serves every render and is restarted only after a
kill. It starts with ``python -c`` (never ``fork`` from a Qt process, and usable from the Train
panel's daemonic process, where multiprocessing may not start children) and imports only jinja2; the
frozen app starts itself with an environment variable instead (:func:`worker_command`).

Waiting for the reply polls a queue filled by a reader thread, so Ctrl-C (KeyboardInterrupt) reaches
the waiting thread at once and a ``cancelled`` callback (the GUI's "a newer request came") is checked
every :data:`POLL` seconds; either kills the child. The child ignores SIGINT: the terminal sends it to
the whole process group, and the parent decides.

Messages travel as length-prefixed JSON (never pickle: the child runs untrusted templates).
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tokviz.core.errors import message_of, user_message
from tokviz.core.sentences import Sentence, SentenceText
from tokviz.core.template_sandbox import RENDER_CHARS, RENDER_SECONDS, TemplateFailure

MEMORY_BYTES = 1 << 30  # the child's address space: a template needs a few MB
KILL_GRACE = 0.5  # seconds past the render's deadline before the child is killed
START_SECONDS = 30.0  # a child that has not imported jinja2 by then is broken (generous: a loaded machine)
POLL = 0.05  # seconds between checks of the cancel callback while waiting
WORKER_ENV = "TOKVIZ_TEMPLATE_WORKER"  # the frozen app started as a template process (its memory limit)
_HEADER = struct.Struct(">I")


class TemplateCancelled(TemplateFailure):
    """The caller cancelled the render (a newer one replaces it); the child was stopped."""


def _reply_limit(max_chars: int) -> int:
    return 6 * max_chars + (64 << 10)  # JSON with \\uXXXX escapes, plus room for a message


def worker_command(memory_bytes: int) -> tuple[list[str], dict[str, str]]:
    """The command line and environment that start a template process.

    From a Python install: ``python -c`` importing only this module. In the frozen (PyInstaller) app
    the executable is tokviz itself and runs no ``-c``: it is started with :data:`WORKER_ENV` set, and
    ``tokviz.cli.main`` turns into :func:`worker_main` before it parses any argument.
    """
    env = dict(os.environ)
    if getattr(sys, "frozen", False):
        env[WORKER_ENV] = str(int(memory_bytes))
        return [sys.executable], env
    root = str(Path(__file__).resolve().parents[2])  # the folder holding the tokviz package
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop(WORKER_ENV, None)
    code = f"from tokviz.core.template_process import worker_main; worker_main({int(memory_bytes)})"
    return [sys.executable, "-c", code], env


def worker_from_environment() -> bool:
    """Run as the template process when started so by :func:`worker_command` (the frozen app's entry
    calls this first); False when this process is not one."""
    value = os.environ.pop(WORKER_ENV, None)
    if value is None:
        return False
    try:
        memory_bytes = int(value)
    except ValueError:
        memory_bytes = MEMORY_BYTES
    worker_main(max(1 << 26, min(memory_bytes, MEMORY_BYTES)))
    return True


# ---- the parent's side --------------------------------------------------------------------------------
class TemplateWorker:
    """One child process that renders templates, one at a time (a lock orders concurrent callers)."""

    def __init__(self, memory_bytes: int = MEMORY_BYTES):
        self.memory_bytes = memory_bytes
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._replies: queue.Queue | None = None
        self._ready = False
        self._reply_bytes = _reply_limit(RENDER_CHARS)  # the reader refuses a longer reply
        self._closing = False  # close() killed the child: a render in flight says "cancelled"

    # process life --------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the child now (it imports jinja2 while the caller does other work); no-op when it runs
        or a render holds it (never blocks: the GUI thread calls this)."""
        if not self._lock.acquire(blocking=False):
            return
        try:
            self._start()
        finally:
            self._lock.release()

    def _start(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            return
        self._discard()
        argv, env = worker_command(self.memory_bytes)
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, env=env)
        except OSError as err:
            raise TemplateFailure(user_message("the chat template could not be rendered: cannot start a process "
                                               "for it ({detail})", detail=str(err.strerror or err))) from None
        replies: queue.Queue = queue.Queue()
        threading.Thread(target=_read_replies, args=(proc.stdout, replies, lambda: self._reply_bytes),
                         name="tokviz-template-reader", daemon=True).start()
        self._proc, self._replies, self._ready = proc, replies, False

    def _discard(self) -> None:
        """Kill the child (if any) and forget it; the next render starts a new one."""
        proc, self._proc, self._replies, self._ready = self._proc, None, None, False
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def close(self) -> None:
        """End the child at once; a render in flight fails with a message (it is not waited for)."""
        proc = self._proc
        if proc is not None and proc.poll() is None:
            self._closing = True
            proc.kill()
        with self._lock:
            self._discard()
            self._closing = False

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs (tests, measurements)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    # rendering -----------------------------------------------------------------------------------------
    def render(self, source: str, context: dict, *, seconds: float = RENDER_SECONDS, max_chars: int = RENDER_CHARS,
               cancelled: Callable[[], bool] | None = None) -> str:
        """Render in the child (see :func:`render`)."""
        self._acquire(cancelled)
        try:
            try:
                reply = self._exchange(source, context, seconds, max_chars, cancelled)
            except BaseException:
                self._discard()  # stopped, cancelled, interrupted or broken: never reuse a child mid-render
                raise
            if reply.get("exit"):
                self._discard()  # it ran out of memory: a fresh child for the next render
        finally:
            self._lock.release()
        if "text" in reply:
            return reply["text"]
        raise TemplateFailure(_reply_error(reply))

    def _acquire(self, cancelled) -> None:
        while not self._lock.acquire(timeout=POLL):
            if cancelled is not None and cancelled():
                raise TemplateCancelled(user_message("the chat template's render was cancelled"))

    def _exchange(self, source, context, seconds, max_chars, cancelled) -> dict:
        """Send one request and wait for its reply (the child's text or message)."""
        request = json.dumps({"source": source, "context": context, "seconds": seconds, "max_chars": max_chars},
                             ensure_ascii=True).encode("ascii")
        self._reply_bytes = _reply_limit(max_chars)
        self._start()
        if not self._ready:
            self._wait(time.monotonic() + START_SECONDS, cancelled, max_chars, starting=True)
            self._ready = True
        try:
            self._proc.stdin.write(_HEADER.pack(len(request)) + request)
            self._proc.stdin.flush()
        except OSError:
            raise TemplateFailure(user_message("the chat template could not be rendered: its process ended")) from None
        return self._wait(time.monotonic() + seconds + KILL_GRACE, cancelled, max_chars, seconds=seconds)

    def _wait(self, deadline, cancelled, max_chars, *, starting=False, seconds=0.0) -> dict:
        while True:
            if cancelled is not None and cancelled():
                raise TemplateCancelled(user_message("the chat template's render was cancelled"))
            left = deadline - time.monotonic()
            if left <= 0:
                if starting:
                    raise TemplateFailure(user_message("the chat template could not be rendered: its process did "
                                                       "not start"))
                raise TemplateFailure(user_message("the chat template was stopped: it ran for over {seconds:g} s "
                                                   "and its process was ended", seconds=seconds))
            try:
                kind, value = self._replies.get(timeout=min(POLL, left))
            except queue.Empty:
                continue
            if kind == "reply":
                return _parse_reply(value, max_chars)
            code = self._proc.wait()
            if self._closing:
                raise TemplateCancelled(user_message("the chat template's render was cancelled"))
            raise TemplateFailure(_ended_message(code, value, self.memory_bytes))


def _parse_reply(data: bytes, max_chars: int) -> dict:
    try:
        reply = json.loads(data)
    except (ValueError, RecursionError):
        reply = None
    if not isinstance(reply, dict) or not isinstance(reply.get("text", ""), str):
        raise TemplateFailure(user_message("the chat template could not be rendered: its process sent a broken "
                                           "reply"))
    if "text" in reply and len(reply["text"]) > max_chars:
        raise TemplateFailure(user_message("the chat template was stopped: the template wrote over {max_chars:,} "
                                           "characters", max_chars=max_chars))
    return reply


def _reply_error(reply: dict) -> str:
    """The child's message: its sentence when it sent one (so a view can translate it), else its text."""
    sentence = Sentence.from_plain(reply.get("sentence"))
    if sentence is not None:
        return sentence.text()
    return str(reply.get("error", "the chat template failed"))


def _ended_message(code: int, why: str, memory_bytes: int) -> str:
    if why:
        return user_message("the chat template was stopped: {why}", why=why)
    fatal = {getattr(signal, name, None) for name in ("SIGKILL", "SIGSEGV", "SIGABRT", "SIGXCPU")} - {None}
    if code < 0 and -code in fatal:
        return user_message("the chat template was stopped: its process ended ({signal}), probably past its "
                            "{megabytes:,} MB memory or CPU-time limit",
                            signal=signal.Signals(-code).name, megabytes=memory_bytes >> 20)
    return user_message("the chat template could not be rendered: its process ended (exit code {code})", code=code)


def _read_replies(stream, replies: queue.Queue, limit: Callable[[], int]) -> None:
    """The reader thread: every frame from the child into ``replies``; ("ended", why) at the end."""
    try:
        while True:
            header = stream.read(_HEADER.size)
            if len(header) < _HEADER.size:
                break
            (size,) = _HEADER.unpack(header)
            if size > limit():
                replies.put(("ended", user_message("its process sent a reply of {size:,} bytes", size=size)))
                return
            data = stream.read(size)
            if len(data) < size:
                break
            replies.put(("reply", data))
    except (OSError, ValueError):
        pass
    replies.put(("ended", ""))


_WORKER = TemplateWorker()
atexit.register(_WORKER.close)


def prepare() -> None:
    """Start the template process ahead of the first render (it imports jinja2 meanwhile)."""
    try:
        _WORKER.start()
    except TemplateFailure:
        pass  # the render itself will say so


def render(source: str, context: dict, *, seconds: float = RENDER_SECONDS, max_chars: int = RENDER_CHARS,
           cancelled: Callable[[], bool] | None = None) -> str:
    """Render Jinja ``source`` with the JSON-able ``context`` in the template process.

    At most ``seconds`` of rendering (the child is killed :data:`KILL_GRACE` s later if it has not
    stopped itself), :data:`MEMORY_BYTES` of memory and ``max_chars`` characters of output. Raises
    TemplateFailure with the user's message; TemplateCancelled when ``cancelled()`` turned true;
    KeyboardInterrupt passes through after the child is killed. Thread-safe: renders take turns.
    """
    if not sys.executable:
        # an embedded interpreter has no executable to start a child with: the sandbox's bounds only
        from tokviz.core.template_sandbox import render_bounded

        return render_bounded(source, context, seconds=seconds, max_chars=max_chars)
    return _WORKER.render(source, context, seconds=seconds, max_chars=max_chars, cancelled=cancelled)


def worker_pid() -> int | None:
    """The template process's id while it runs (tests, measurements)."""
    return _WORKER.pid


def stop() -> None:
    """End the template process now (a render in flight fails); the next render starts a new one."""
    _WORKER.close()


# ---- the child's side ---------------------------------------------------------------------------------
def _limit_memory(memory_bytes: int) -> None:
    try:
        import resource
    except ImportError:  # Windows: the wall clock only
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = memory_bytes if hard == resource.RLIM_INFINITY else min(memory_bytes, hard)
    if soft == resource.RLIM_INFINITY or soft > cap:
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _limit_cpu(seconds: float) -> None:
    """CPU time for this render: if the parent died and nobody kills us, SIGXCPU does."""
    try:
        import resource
    except ImportError:
        return
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(usage.ru_utime + usage.ru_stime + seconds) + 5
    if hard == resource.RLIM_INFINITY or soft <= hard:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _send(stream, message: dict) -> None:
    data = json.dumps(message, ensure_ascii=True).encode("ascii")
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _receive(stream) -> dict | None:
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        return None
    data = stream.read(_HEADER.unpack(header)[0])
    return json.loads(data)


def _out_of_memory(memory_bytes: int) -> dict:
    return _failure(user_message("the chat template was stopped: it needed over {megabytes:,} MB of memory",
                                 megabytes=memory_bytes >> 20)) | {"exit": True}


def _failure(message: str) -> dict:
    """A reply that says why the render failed, with its sentence when it has one (see _reply_error)."""
    if isinstance(message, SentenceText):
        return {"error": str(message), "sentence": message.sentence.as_plain()}
    return {"error": str(message)}


def _render_one(request: dict, memory_bytes: int) -> dict:
    from tokviz.core.template_sandbox import TemplateOutOfMemory, render_bounded

    try:
        return {"text": render_bounded(request["source"], request["context"], seconds=request["seconds"],
                                       max_chars=request["max_chars"])}
    except (TemplateOutOfMemory, MemoryError):
        return _out_of_memory(memory_bytes)
    except TemplateFailure as err:
        return _failure(message_of(err))


def worker_main(memory_bytes: int = MEMORY_BYTES) -> None:
    """The template process: read requests until stdin closes, answer each with its text or message."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group; the parent decides
    _limit_memory(memory_bytes)
    import jinja2.sandbox  # noqa: F401

    import tokviz.core.template_sandbox  # noqa: F401 - jinja2 is imported before "ready", not in the first render

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the reply stream
    _send(stdout, {"ready": True})
    while True:
        request = _receive(stdin)
        if request is None:
            return
        _limit_cpu(request["seconds"])
        try:
            reply = _render_one(request, memory_bytes)
            _send(stdout, reply)
        except MemoryError:
            _send(stdout, _out_of_memory(memory_bytes))
            return
        if reply.get("exit"):
            return
