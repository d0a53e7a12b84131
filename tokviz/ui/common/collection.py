"""The one owner of Python's garbage collector in the interface.

The collector is one per process, so its policy is too: every pause, freeze and collection goes
through :data:`COLLECTION` (reached from code as ``WorkService.collection``). Three rules:

- Cycles are collected on the GUI thread only (:meth:`GarbageCollection.collect_on_gui_thread`).
- A job building a big result pauses collection while it allocates (:meth:`GarbageCollection.paused`);
  what it built is frozen afterwards, out of every later collection. Nothing here ever thaws what was
  frozen (``gc.unfreeze`` thaws everything, whoever froze it).
- A long run (training) holds off full collections while it runs (:meth:`GarbageCollection.hold`);
  the young generations are still collected. Holds are counted, so one user never undoes another's:
  full collections resume when the last hold is released.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QObject, QTimer

# While a run holds the collector, a full collection waits for this many times the usual count of
# younger collections: none in a run of thousands of merges, yet a run left paused for hours while
# the other panels work cannot keep its garbage for ever (about 3.5 million allocations apart).
HELD_FULL_COLLECTION_FACTOR = 50


class Hold:
    """One user's claim that no full collection runs now (see :meth:`GarbageCollection.hold`)."""

    def __init__(self, owner: GarbageCollection):
        self._owner = owner
        self.released = False

    def release(self) -> None:
        """Give up this claim (a second call does nothing); the last one lets full collections run again."""
        if not self.released:
            self.released = True
            self._owner._release(self)


class GarbageCollection:
    """Counts pauses and frozen holds; see the module docstring. Thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pauses = 0
        self._enabled_before_pause = False
        self._holds = 0
        self._thresholds_before_hold = gc.get_threshold()

    @property
    def pauses(self) -> int:
        """Jobs inside :meth:`paused` right now."""
        return self._pauses

    @property
    def holds(self) -> int:
        """Frozen holds not yet released."""
        return self._holds

    @contextmanager
    def paused(self):
        """No automatic garbage collection while a job builds a big result, and what it built is kept out
        of later collections (``gc.freeze``).

        Building the Encoding and drawing of a 5 MB paste allocates millions of objects; each such burst
        set off collections up to a full one, which scans every object of the app while holding the GIL,
        so the GUI thread waited 100-200 ms at a time. The result lives until the next one replaces it
        and is freed by reference counting (it holds no cycles), so it need never be scanned.
        """
        with self._lock:
            self._pauses += 1
            if self._pauses == 1:
                self._enabled_before_pause = gc.isenabled()
                gc.disable()
        try:
            yield
        finally:
            with self._lock:
                self._pauses -= 1
                if self._pauses == 0:
                    gc.freeze()  # the new objects join the permanent generation: no collection walks them
                    if self._enabled_before_pause:
                        gc.enable()

    def hold(self) -> Hold:
        """Full (generation 2) collections held off until the returned hold is released.

        For a long run (the Train panel's training): a full collection walks every object of the app and
        holds the GIL 60-115 ms, and a run's allocations (events received, the replay) can trigger one.
        Held, it waits for ``HELD_FULL_COLLECTION_FACTOR`` times its usual threshold. Generations 0 and 1
        are still collected, so the run's short-lived cycles still go; what reached generation 2 and died
        waits for the first full collection after the run.

        Not ``gc.freeze`` for the run: only ``gc.unfreeze`` can end a freeze, and it thaws everything in
        the permanent generation, also what others froze for good (a big result, the test session's
        start-up heap), after which every full collection walked the whole heap again; never thawing
        instead kept each run's garbage frozen for ever (a session of many runs grew).
        """
        with self._lock:
            self._holds += 1
            if self._holds == 1:
                self._thresholds_before_hold = gc.get_threshold()
                young, middle, old = self._thresholds_before_hold
                gc.set_threshold(young, middle, old * HELD_FULL_COLLECTION_FACTOR)
        return Hold(self)

    def _release(self, hold: Hold) -> None:
        with self._lock:
            self._holds -= 1
            if self._holds == 0:
                gc.set_threshold(*self._thresholds_before_hold)

    def freeze_survivors(self) -> None:
        """Collect everything, then freeze what survived: for a process that keeps what it built so far
        for good (the test session after each test), so that later collections walk only what is new."""
        gc.collect()  # not under the lock: a finaliser it runs may release a hold
        gc.freeze()

    def collect_on_gui_thread(self) -> None:
        """Install the GUI-thread collector once for the running application (see _GuiThreadCollector)."""
        app = QCoreApplication.instance()
        if app is not None and app.findChild(_GuiThreadCollector) is None:
            _GuiThreadCollector(app, self)


class _GuiThreadCollector(QObject):
    """Python's cycle collector, run on the GUI thread only.

    Left automatic, a collection starts in whichever thread allocates past the threshold, and a job
    building a result on a pool thread allocates a great deal. A cycle holding Qt objects collected
    there deletes QObjects on that thread: the pool thread then holds Qt's lock of an object while
    it waits for the GIL, and the GUI thread, deleting a widget with the GIL held, waits for that
    lock (a test session hung so). Automatic collection is turned off; a timer on the GUI thread
    collects a generation when its count passes the collector's thresholds (as the interpreter would;
    a run's hold raises the oldest one), except while a job keeps collection paused. When the window
    is idle, what survived young collections is moved on to the old generation (:meth:`_settle`).
    """

    INTERVAL_MS = 100
    # Idle: the young generation's count moved by fewer than this many objects a turn, this many turns
    # in a row (about half a second of a window nobody is using).
    IDLE_ALLOCATIONS = 200
    IDLE_TURNS = 5

    def __init__(self, app: QCoreApplication, owner: GarbageCollection):
        super().__init__(app)
        self.owner = owner
        self._young = 0  # the young generation's count at the last turn
        self._idle_turns = 0
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(self.INTERVAL_MS)

    def check(self) -> None:
        if self.owner.pauses:
            return
        if gc.isenabled():  # turned back on by code that saved and restored it: this policy stands
            gc.disable()
        counts, thresholds = gc.get_count(), gc.get_threshold()
        quiet = abs(counts[0] - self._young) < self.IDLE_ALLOCATIONS
        self._young = counts[0]
        self._idle_turns = self._idle_turns + 1 if quiet else 0
        if counts[0] <= thresholds[0]:
            if self._idle_turns >= self.IDLE_TURNS and counts[1] > 0:
                self._settle(counts, thresholds)
            return
        generation = 0
        while generation < 2 and counts[generation + 1] > thresholds[generation + 1]:
            generation += 1
        gc.collect(generation)
        self._young = gc.get_count()[0]  # the count starts again: the next turn compares with this

    def _settle(self, counts, thresholds) -> None:
        """While the window is idle, move what survived young collections into the old generation.

        Left in the middle generation, it waited for the next middle collection, which came once a run
        started allocating: a window's start-up heap or a panel just built (hundreds of thousands of
        objects) was walked then, 50-60 ms in the middle of a training animation. Now that walk happens
        while nothing moves on screen; a full collection that would be due right after it is done now
        too, rather than at the next burst of work."""
        gc.collect(2 if counts[2] + 1 > thresholds[2] else 1)
        self._young = gc.get_count()[0]


COLLECTION = GarbageCollection()  # the process's one collector, so its one policy
