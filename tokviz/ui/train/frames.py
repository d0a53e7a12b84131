"""The Train panel's one frame scheduler: one QTimer; each tick moves the playback on, takes ONE
snapshot of the model and draws every view (step label, banner, why-this-pair, sample, vocabulary,
tree, plots, probe) from it. No view can show another step than its neighbours.

While the trainer computes, a full frame costs the trainer CPU and the GUI its event loop, so frames
are drawn less often (:data:`BUSY_DRAW_S`); between two drawn frames the screen keeps showing the
older step everywhere, never a mix of old and new.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

FRAME_MS = 40  # 25 frames per second when animating recorded merges
# 10 ticks per second while following a computing trainer at full speed (it needs the CPU)
BUSY_FRAME_MS = 100
# while the trainer computes, a whole frame at most this often (a pyqtgraph repaint is the costliest part)
BUSY_DRAW_S = 0.5


class FrameScheduler:
    """Owns the frame timer of ``panel``; the panel supplies ``draw_frame(snapshot)`` and
    ``frame_tick(dt)`` (the playback's move) and says whether its trainer is computing."""

    def __init__(self, panel) -> None:
        self.panel = panel
        self.timer = QTimer(panel)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self.tick)
        self.dirty = True  # the model changed since the last frame drawn
        self.full = True  # the next frame redraws the views that follow the step even at the same step
        self._last_tick = time.monotonic()
        self._last_drawn = 0.0

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

    def draw_now(self, *, full: bool = True) -> None:
        """Draw a frame at once (the user moved: scrub, step, reset)."""
        full = full or self.full
        self.dirty = self.full = False
        self._last_drawn = time.monotonic()
        self.panel.draw_frame(self.panel.state.snapshot(), full=full)

    def tick(self, dt: float | None = None) -> None:
        """One frame, ``dt`` seconds after the last (default: the time that passed)."""
        now = time.monotonic()
        dt = now - self._last_tick if dt is None else dt
        self._last_tick = now
        panel = self.panel
        if panel.frame_tick(dt):
            self.dirty = True
        computing = panel.computing()
        if self.dirty and (not computing or now - self._last_drawn >= BUSY_DRAW_S):
            self.draw_now(full=False)
        interval = BUSY_FRAME_MS if computing and panel.following_at_full_speed() else FRAME_MS
        if self.timer.interval() != interval:
            self.timer.setInterval(interval)
        if panel.nothing_to_animate() and not self.dirty:
            self.timer.stop()
