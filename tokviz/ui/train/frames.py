"""The Train panel's one frame scheduler: one QTimer; each tick moves the playback on, takes ONE
snapshot of the model and draws every view (step label, banner, why-this-pair, sample, vocabulary,
tree, plots, probe) from it. No view can show another step than its neighbours.

While the trainer computes, a full frame costs the trainer CPU and the GUI its event loop, so frames
are drawn less often (:data:`BUSY_DRAW_S`); between two drawn frames the screen keeps showing the
older step everywhere, never a mix of old and new. Such a frame is also prepared first: the panel's
``prepare_frame()`` does the frame's computing (segmenting the sample at the new step, the plots'
axes, ...) in slices, a generator whose each ``yield`` is a point where the event loop may run
(``yield True`` ends the turn), at most about :data:`PREPARE_SLICE_S` a turn, while the playback
waits at the frame's step. Then one turn of its own draws every view from what was prepared: the
views change together, and no turn of the GUI thread holds it long.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer

from tokviz.ui.common.turns import next_turn

FRAME_MS = 40  # 25 frames per second when animating recorded merges
# 10 ticks per second while following a computing trainer at full speed (it needs the CPU)
BUSY_FRAME_MS = 100
# while the trainer computes, a whole frame at most this often (a pyqtgraph repaint is the costliest part)
BUSY_DRAW_S = 0.5
# a turn of a frame's preparation at most about this long (a slice is finished once started)
PREPARE_SLICE_S = 0.008
# the frame after following a computing trainer is prepared too when it shows more merges than this
# (an animation's frame shows a few)
CATCH_UP_MERGES = 20


class Animated(Protocol):
    """What the scheduler asks of what it animates (the Train panel): the playback's move, a frame's
    computing and drawing, and whether its trainer computes."""

    def frame_tick(self, dt: float) -> bool: ...  # the playback's move; True when the step moved

    def prepare_frame(self) -> Iterable[bool]: ...  # a frame's computing, in slices

    def draw_frame(self, snapshot, full: bool = True) -> None: ...

    def computing(self) -> bool: ...

    def following_at_full_speed(self) -> bool: ...

    def nothing_to_animate(self) -> bool: ...


class FrameScheduler:
    """The frame timer of ``animated``: each frame drawn from one ``snapshot()`` of the model (the
    timer is a child of ``parent``, so it dies with the panel)."""

    def __init__(self, animated: Animated, snapshot: Callable[[], object], parent: QObject | None = None) -> None:
        self.animated = animated
        self.snapshot = snapshot
        self.timer = QTimer(parent)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self.tick)
        self.dirty = True  # the model changed since the last frame drawn
        self.full = True  # the next frame redraws the views that follow the step even at the same step
        self._last_tick = time.monotonic()
        self._last_drawn = 0.0
        self._preparing = None  # the frame being prepared: an iterator of slices, or None
        self._then = None  # called once the prepared frame is drawn (see draw_prepared)
        self._followed = False  # the last tick followed a computing trainer at full speed
        self._drawn_step = 0  # the step of the last frame drawn

    def request(self, *, all_views: bool = True) -> None:
        """Something on screen changed: the next tick draws a frame (``all_views=False``: only the
        views still behind the step, e.g. sample lines scrolled into sight)."""
        self.dirty = True
        self.full = self.full or all_views
        self.wake()

    def wake(self) -> None:
        if not self.timer.isActive():
            self._last_tick = time.monotonic()
            self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        self._preparing = self._then = None

    def draw_prepared(self, then) -> None:
        """Prepare a whole frame in slices as a busy frame is, draw it, then call ``then()`` (a run's
        start: its worker begins once step 0 is on screen, and segmenting the sample's lines at step 0
        no longer holds the click's turn)."""
        self.full = True
        self._then = then
        self._preparing = iter(self.animated.prepare_frame())
        self._prepare_slice()

    def preparing(self) -> bool:
        """A frame is being prepared: the playback waits at its step until it is drawn."""
        return self._preparing is not None

    def draw_now(self, *, full: bool = True) -> None:
        """Draw a frame at once (the user moved: scrub, step, reset)."""
        self._preparing = None  # what it prepared is only cached: drawing now uses what it can
        full = full or self.full
        self.dirty = self.full = False
        self._last_drawn = time.monotonic()
        snapshot = self.snapshot()
        self._drawn_step = snapshot.step
        self.animated.draw_frame(snapshot, full=full)
        then, self._then = self._then, None
        if then is not None:
            then()

    def tick(self, dt: float | None = None) -> None:
        """One frame, ``dt`` seconds after the last (default: the time that passed)."""
        now = time.monotonic()
        dt = now - self._last_tick if dt is None else dt
        self._last_tick = now
        animated = self.animated
        if self._preparing is not None:
            return  # the playback stays at the step being prepared (the slices go on by themselves)
        if animated.frame_tick(dt):
            self.dirty = True
        computing = animated.computing()
        busy = computing and animated.following_at_full_speed()
        # the frame after the trainer stops (or rests) still shows up to BUSY_DRAW_S of its merges at
        # once (the plots' new pieces, the sample segmented anew): prepared as a busy one, it holds no
        # turn long
        followed, self._followed = self._followed, busy
        if self.dirty and (not computing or now - self._last_drawn >= BUSY_DRAW_S):
            if busy or (followed and self.snapshot().step - self._drawn_step > CATCH_UP_MERGES):
                self._preparing = iter(animated.prepare_frame())
                self._prepare_slice()
            else:
                self.draw_now(full=False)
        interval = BUSY_FRAME_MS if busy else FRAME_MS
        if self.timer.interval() != interval:
            self.timer.setInterval(interval)
        if animated.nothing_to_animate() and not self.dirty:
            self.timer.stop()

    def _prepare_slice(self) -> None:
        """One turn's slice of the frame being prepared; the frame is drawn once all are done."""
        slices = self._preparing
        if slices is None:
            return  # drawn or stopped meanwhile
        deadline = time.perf_counter() + PREPARE_SLICE_S
        sliced = False
        try:
            for turn_done in slices:  # a slice that painted says so: the turn ends with it
                sliced = True
                if self._preparing is not slices:
                    return  # a slice drew a frame or stopped the timer
                if turn_done or time.perf_counter() >= deadline:
                    next_turn(self.timer, self._prepare_slice)  # input, paints and timers run between two slices
                    return
        except Exception:
            self.draw_now(full=False)  # a failed preparation must not stop the frames: draw without it
            raise
        if self._preparing is not slices:
            return
        if sliced:  # the frame's turn is its own: the last slices with it held the GUI thread that much longer
            next_turn(self.timer, self._prepare_slice)
        else:
            self.draw_now(full=False)
