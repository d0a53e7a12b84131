"""Counting a big corpus on two cores: a helper process counts some of the chunks, the trainer the rest.

Why a process: counting is regex splitting and ``Counter.update`` (C code that holds the GIL), so a
thread would not run beside the trainer; a second process does. Why a plain ``subprocess`` rather than
:mod:`multiprocessing`: the trainer itself may run in a daemonic training process (the Train panel's),
which multiprocessing forbids to have children.

How: the trainer decides each chunk's cut itself (cheaply: the last whitespace in char mode, the last
safe cut of :func:`~tokviz.core.bpe.counting._safe_cuts` in byte mode), hands the text before the cut
to the helper whenever the helper's queue has room, and counts the chunk itself otherwise, so the two
share the work by speed without waiting for each other. The helper checks in byte mode that a piece
really ends at the cut it was given (the check the trainer does on its own chunks), then counts. At the
end the trainer adds the helper's counts to its own: counting is a sum, so the result is exactly the
one-process count. The helper caps its distinct words as the trainer does
(:class:`~tokviz.core.word_counts.WordSample`) and sends its threshold with its counts.

The chunks are pickled through the helper's stdin by a writer thread (a full pipe never blocks the
trainer) and the counts come back through its stdout, read by a reader thread, so waiting for them
can be cancelled. The helper exits when its stdin closes (the trainer ended or died).
"""

from __future__ import annotations

import os
import pickle
import queue
import subprocess
import sys
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Generator
from itertools import repeat
from operator import add
from pathlib import Path

import regex

from tokviz.core.errors import TokvizError

# The helper's start-up (a Python process importing regex, 0.1-0.3 s), sending it the chunks and
# adding up the two Counters cost ~0.25 s. From 32 MB on it always pays (a 100 MB corpus: counting
# 12.2 -> 6.8 s wall). From 8 MB it pays only when the second core is really free: on the 12.8 MB
# NSMC corpus counting went 1.06 -> 0.83-0.86 s wall on an idle machine, but 1.0 -> 1.2-2.3 s when
# other processes kept both cores busy. So between the two sizes the machine's idle time is sampled
# while the first chunk is counted (IdleCores).
HELPER_MIN_BYTES = 32 << 20
HELPER_IDLE_MIN_BYTES = 8 << 20
_IDLE_CORES = 0.7  # at least this much of a core idle while the first chunk was counted
_QUEUE_CHUNKS = 1  # chunks waiting for the helper at most (the trainer counts the rest itself)
_WAIT = 0.05  # seconds between cancel checks while waiting for the helper's counts
_ENV_PROCESSES = "TOKVIZ_COUNT_PROCESSES"  # "1": count in one process (benchmarks compare both)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def helper_allowed() -> bool:
    """Whether a counting helper may be started: two cores usable and not turned off by setting
    ``TOKVIZ_COUNT_PROCESSES=1``."""
    if os.environ.get(_ENV_PROCESSES, "").strip() == "1" or not sys.executable:
        return False
    return _cores() >= 2


class IdleCores:
    """How many cores the whole machine left idle since this was made (Linux's /proc/stat; 0.0
    where it cannot be read, so no helper is started there).

    >>> probe = IdleCores(); probe.since() >= 0.0
    True
    """

    def __init__(self):
        self._start = self._read()

    @staticmethod
    def _read() -> tuple[int, int] | None:
        try:
            with open("/proc/stat", encoding="utf-8") as f:
                fields = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return idle, sum(fields[:8])

    def since(self) -> float:
        now = self._read()
        if now is None or self._start is None or now[1] <= self._start[1]:
            return 0.0
        share = (now[0] - self._start[0]) / (now[1] - self._start[1])
        return share * (os.cpu_count() or 1)


def helper_pays(corpus_bytes: int, idle: IdleCores | None) -> bool:
    """Whether to count a corpus of ``corpus_bytes`` with a helper (see the sizes above)."""
    if corpus_bytes >= HELPER_MIN_BYTES:
        return True
    return corpus_bytes >= HELPER_IDLE_MIN_BYTES and idle is not None and idle.since() >= _IDLE_CORES


class CountingHelper:
    """The trainer's end of one helper process (see the module docstring).

    ``give(text, cut)`` queues a chunk (``cut`` is the byte-mode cut to check, None otherwise) when
    :meth:`has_room`; :meth:`counts` ends the input and returns the helper's Counter; :meth:`close`
    ends the process (always call it, e.g. in ``finally``).
    """

    def __init__(self, mode: str, pattern: str, cap: int | None = None):
        root = str(Path(__file__).resolve().parents[3])  # the folder holding the tokviz package
        env = dict(os.environ)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from tokviz.core.bpe.counting_process import helper_main; helper_main()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        self._queue: queue.Queue = queue.Queue(maxsize=_QUEUE_CHUNKS)
        self._reply = None
        self._replied = threading.Event()
        self._queue.put(("config", mode, pattern, cap))
        self._writer = threading.Thread(target=self._write, name="tokviz-count-writer", daemon=True)
        self._reader = threading.Thread(target=self._read, name="tokviz-count-reader", daemon=True)
        self._writer.start()
        self._reader.start()

    def has_room(self) -> bool:
        return not self._queue.full() and not self._replied.is_set()

    def give(self, text: str, cut: int | None) -> None:
        self._queue.put_nowait(("chunk", text, cut))

    def counts(self, cancelled: Callable[[], bool]) -> tuple[Counter, int] | None:
        """Wait for the helper's counts of everything given and its sample's threshold shift
        (None when cancelled meanwhile). Raises TokvizError when the helper failed."""
        steps = self.counts_steps(cancelled)
        while True:
            try:
                next(steps)
            except StopIteration as end:
                return end.value

    def counts_steps(self, cancelled: Callable[[], bool]) -> Generator[None, None, tuple[Counter, int] | None]:
        """:meth:`counts` as a generator that yields every ``_WAIT`` seconds while it waits (the
        trainer reports progress meanwhile: the helper may still be counting and sending a table
        of a million words)."""
        while True:
            try:
                self._queue.put(("end",), timeout=_WAIT)
                break
            except queue.Full:
                if cancelled():
                    return None
                if self._replied.is_set():
                    break  # the helper stopped early: its reply says why
                yield
        while not self._replied.wait(_WAIT):
            if cancelled():
                return None
            yield
        kind, value = self._reply
        if kind == "counts":
            return value
        raise TokvizError(f"Counting in a second process failed: {value}")

    def close(self) -> None:
        """End the helper process (at once if it is still counting) and release its pipes."""
        proc = self.proc
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    # ---- the two threads ------------------------------------------------------------------------
    def _write(self) -> None:
        out = self.proc.stdin
        try:
            while True:
                message = self._queue.get()
                pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
                if message[0] == "end":
                    out.close()
                    return
                out.flush()
        except (OSError, ValueError):
            return  # the helper is gone or was closed: the reader reports it

    def _read(self) -> None:
        try:
            self._reply = pickle.load(self.proc.stdout)
        except Exception:  # noqa: BLE001 - EOF, a killed helper, a broken pipe: all say "it died"
            self.proc.wait()
            try:
                err = self.proc.stderr.read().decode("utf-8", "replace").strip().splitlines()
            except (OSError, ValueError):
                err = []
            self._reply = ("error", f"the helper process ended (exit code {self.proc.returncode})"
                           + (f": {err[-1]}" if err else ""))
        self._replied.set()


def helper_main() -> None:
    """The helper process: read the mode, then chunks, until "end"; reply with the counts."""
    from tokviz.core.bpe.modes import pattern_regex  # not .model: the helper starts without numpy (0.1 s)
    from tokviz.core.word_counts import WordSample

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    counts: Counter = Counter()
    try:
        _, mode, pattern, cap = pickle.load(stdin)
        sample = WordSample(cap)
        rx = pattern_regex(pattern) if mode == "byte" else None
        while True:
            try:
                message = pickle.load(stdin)
            except EOFError:
                return  # the trainer is gone
            if message[0] == "end":
                break
            _, text, cut = message
            if mode == "char":
                counts.update(text.split())
            elif rx is None:
                counts.update(text.splitlines(keepends=True))
            else:
                found = _pieces_before_cut(rx.findall, text, [cut])
                if found is None:
                    raise RuntimeError(f"no pre-split piece of pattern {pattern!r} ends at the chunk's cut")
                counts.update(found[0])
            sample.check(counts)
        sample.finish(counts)
        reply = ("counts", (counts, sample.shift))
    except Exception as err:  # noqa: BLE001 - every failure goes back to the trainer as a message
        reply = ("error", "".join(traceback.format_exception_only(type(err), err)).strip())
    pickle.dump(reply, stdout, protocol=pickle.HIGHEST_PROTOCOL)
    stdout.flush()


_NON_SPACE = regex.compile(r"\S")


def _pieces_before_cut(findall, text: str, cuts: list[int]) -> tuple[list[str], int] | None:
    """Split ``text`` up to just past the first non-space after the last cut; return the pieces
    before the last candidate cut at which a piece really ends, and that cut (None if none does)."""
    seen = _NON_SPACE.search(text, cuts[0]).end()
    pieces = findall(text, 0, seen)
    # Every pattern of PATTERNS tiles any text (a letter, a digit, whitespace and anything else each
    # start a piece of some alternative; tests/core/bpe/test_trainer.py checks it), so the pieces end
    # at ``seen`` and walking back from there finds where each one ends. Adding up all their lengths
    # to check it cost 5-7% of counting. Only the few pieces after the chosen cut are looked at.
    end, i = seen, len(pieces)
    for cut in cuts:
        while end > cut and i:
            i -= 1
            end -= len(pieces[i])
        if end == cut:
            del pieces[i:]  # a few at the end: cheaper than copying the rest
            return pieces, cut
    return None


def add_counts(counts: Counter, more: Counter) -> None:
    """``counts += more`` in place, looped in C (``dict.update`` over a chain of ``map``): about 7x
    faster than ``Counter.update``'s Python loop on 350k words.

    >>> c = Counter(a=1, b=2); add_counts(c, Counter(b=3, d=4)); c
    Counter({'b': 5, 'd': 4, 'a': 1})
    """
    dict.update(counts, zip(more, map(add, map(counts.get, more, repeat(0)), more.values()), strict=True))
