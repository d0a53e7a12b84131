"""Calling the native tokenizer libraries (``tokenizers``, ``tiktoken``) so that their failures reach
the user as one sentence.

Both are Rust behind pyo3. A Rust panic (a regex that hits its backtracking limit, a merge naming a
token the vocabulary lacks, a pattern matching the empty string) arrives as
``pyo3_runtime.PanicException``, which derives from BaseException, so ``except Exception`` lets it
through; and Rust's panic hook has already printed the panic text (3 lines, ~90 with
RUST_BACKTRACE=1) on file descriptor 2 before Python sees the exception. So a native call runs inside
:func:`native_call`: file descriptor 2 goes to a private file for its duration, and what was written
there is passed on to the real stderr afterwards unless it is panic text; the panic becomes the
caller's TokvizError.

Long native calls hold no lock tokviz needs, but a ``tokenizers`` encode keeps the GIL: Python's
Ctrl-C handler cannot run until it returns. :func:`call_interruptibly` runs a call in a helper
thread (the encoders release the GIL, see ``HFTokenizerEncoder.encode``) so the main thread stays
free to take Ctrl-C.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

_PANIC_MARK = b"panicked at"


def is_native_panic(err: BaseException) -> bool:
    """True for pyo3's PanicException (its module ``pyo3_runtime`` cannot be imported by name)."""
    return type(err).__name__ == "PanicException"


def is_fatal(err: BaseException) -> bool:
    """Exceptions that must pass through a family boundary unchanged: the user's Ctrl-C and exits."""
    return isinstance(err, (KeyboardInterrupt, SystemExit, GeneratorExit))


class _Stderr:
    """File descriptor 2 redirected to a private file while any native call runs (counted, so threads
    that overlap share one redirect and the last one out restores it)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.saved: int | None = None
        self.capture = None
        self.panicked = False
        self.stale = False

    def enter(self) -> None:
        with self.lock:
            if self.depth == 0:
                self.panicked = False
                _flush_stderr()
                try:
                    if self.capture is None:
                        self.capture = tempfile.TemporaryFile()
                    elif self.stale:  # left behind by a released call
                        self.capture.seek(0)
                        self.capture.truncate()
                        self.stale = False
                    self.saved = os.dup(2)
                    os.dup2(self.capture.fileno(), 2)
                except OSError:  # no fd 2, no temp space: run without the redirect
                    self.saved = None
            self.depth += 1

    def leave(self, panicked: bool) -> None:
        with self.lock:
            self.panicked = self.panicked or panicked
            self.depth -= 1
            if self.depth or self.saved is None:
                return
            _flush_stderr()
            os.dup2(self.saved, 2)
            os.close(self.saved)
            self.saved = None
            written = self._take()
            if written and not self.panicked and _PANIC_MARK not in written:
                try:
                    os.write(2, written)
                except OSError:
                    pass

    def release(self) -> None:
        """Give file descriptor 2 back now, though a native call still runs (the process is about
        to report an interruption and exit); what the call writes from here on goes to the terminal."""
        with self.lock:
            if self.saved is not None:
                _flush_stderr()
                os.dup2(self.saved, 2)
                os.close(self.saved)
                self.saved = None
                self.stale = True

    def _take(self) -> bytes:
        fh = self.capture
        try:
            if os.fstat(fh.fileno()).st_size == 0:  # nearly always: nothing was written
                return b""
            fh.seek(0)
            data = fh.read(1 << 20)
            fh.seek(0)
            fh.truncate()
        except OSError:
            return b""
        return data


def _flush_stderr() -> None:
    stream = sys.stderr
    if stream is not None:
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass


_stderr = _Stderr()


@contextmanager
def native_call() -> Iterator[None]:
    """Run the block with native stderr held back: a Rust panic's text is dropped, other text is
    passed on when the block ends. The exception itself is the caller's to translate."""
    _stderr.enter()
    panicked = False
    try:
        yield
    except BaseException as err:
        panicked = is_native_panic(err)
        raise
    finally:
        _stderr.leave(panicked)


def call_interruptibly(fn: Callable[[], T], *, poll: float = 0.1) -> T:
    """``fn()`` in a daemon thread while this thread waits in short steps, so Ctrl-C (KeyboardInterrupt)
    ends the wait even while ``fn`` is busy in native code. Off the main thread, ``fn`` runs inline.

    The abandoned call runs on in its daemon thread until it returns; the process is exiting by then.
    """
    if threading.current_thread() is not threading.main_thread():
        return fn()
    box: dict[str, object] = {}

    def work() -> None:
        try:
            box["value"] = fn()
        except BaseException as err:  # noqa: BLE001 - handed to the waiting thread as it is
            box["error"] = err

    worker = threading.Thread(target=work, name="tokviz-native", daemon=True)
    try:
        worker.start()  # inside: Ctrl-C may land while start() waits and the call is already native
        while worker.is_alive():
            worker.join(poll)
    except KeyboardInterrupt:
        _stderr.release()  # the "interrupted" message must reach the terminal
        raise
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]
