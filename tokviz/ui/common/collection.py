"""The one owner of Python's garbage collector in the interface.

The collector is one per process, so its policy is too: every pause, freeze and collection goes
through :data:`COLLECTION` (reached from code as ``WorkService.collection``). Three rules:

- Cycles are collected on the GUI thread only (:meth:`GarbageCollection.collect_on_gui_thread`).
- A job building a big result pauses collection while it allocates (:meth:`GarbageCollection.paused`);
  what it built is frozen afterwards, out of every later collection.
- A long run (training) may keep the objects that existed when it started frozen
  (:meth:`GarbageCollection.keep_frozen`) and gives them back when it ends. Pauses and holds are counted,
  so one user never undoes another's: the collector is thawed only when the last hold is released.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QObject, QTimer


class FrozenHold:
    """One user's claim that the objects alive now stay out of collections (see ``keep_frozen``)."""

    def __init__(self, owner: GarbageCollection):
        self._owner = owner
        self.released = False

    def release(self) -> None:
        """Give up this claim (a second call does nothing); the last one thaws the collector."""
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

    def keep_frozen(self) -> FrozenHold:
        """Freeze every object alive now until the returned hold is released.

        For a long run (the Train panel's training): a full collection walks every object of the app and
        holds the GIL 60-115 ms; frozen, the objects that existed before the run are skipped while the
        run's own are still collected. Holds are counted: the collector is thawed (``gc.unfreeze``) only
        when the last is released, so a second run or a pause in between is never undone by the first.
        """
        with self._lock:
            self._holds += 1
            gc.freeze()
        return FrozenHold(self)

    def _release(self, hold: FrozenHold) -> None:
        with self._lock:
            self._holds -= 1
            # what became garbage during the run can be collected again; while a job is paused its
            # result is about to be frozen too, so everything stays frozen (a missed thaw, not a stall)
            if self._holds == 0 and self._pauses == 0:
                gc.unfreeze()

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
    collects a generation when its count passes the thresholds the interpreter would have used,
    except while a job keeps collection paused.
    """

    INTERVAL_MS = 100

    def __init__(self, app: QCoreApplication, owner: GarbageCollection):
        super().__init__(app)
        self.owner = owner
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(self.INTERVAL_MS)

    def check(self) -> None:
        if self.owner.pauses:
            return
        if gc.isenabled():  # turned back on by code that saved and restored it: this policy stands
            gc.disable()
        counts = gc.get_count()
        if counts[0] <= self.thresholds[0]:
            return
        generation = 0
        while generation < 2 and counts[generation + 1] > self.thresholds[generation + 1]:
            generation += 1
        gc.collect(generation)


COLLECTION = GarbageCollection()  # the process's one collector, so its one policy
