"""The Train panel's playback as plain Python (no Qt): which recorded step is on screen, whether the
animation plays and how fast, and a step asked of the trainer that is not recorded yet.

The panel's one frame timer calls :meth:`Playback.advance` with the time since the last frame and
the number of recorded steps; everything else (buttons, the scrubber, Step, Run to end) calls the
other methods. Tests drive it without a window:

>>> p = Playback(pace=10.0)
>>> p.play(); p.advance(0.25, recorded=100)
'playing'
>>> p.cursor
2
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Playback:
    cursor: int = 0  # the step on screen (0 = before any merge)
    playing: bool = False  # the animation advances the cursor
    fast_forward: bool = False  # Run to end: follow the trainer as fast as it goes
    pace: float | None = 10.0  # merges per second; None = as fast as the trainer records them
    step_target: int | None = None  # Step past the recording: the step waited for
    budget: float = 0.0  # merges owed to the animation (fractions of a merge carry over)

    def reset(self) -> None:
        """A new run, or none: step 0, stopped."""
        self.cursor = 0
        self.playing = self.fast_forward = False
        self.step_target = None
        self.budget = 0.0

    def play(self, *, fast: bool = False) -> None:
        self.playing = True
        self.fast_forward = fast

    def pause(self) -> None:
        self.playing = self.fast_forward = False

    def seek(self, step: int, recorded: int) -> int:
        """Show recorded step ``step``, clamped to what is recorded; returns the step shown."""
        self.cursor = max(0, min(step, recorded))
        return self.cursor

    def step_forward(self, recorded: int) -> bool:
        """One merge forward, paused: True when it came from the recording, False when it must be
        asked of the trainer first (``step_target`` is then the step to show once it is recorded)."""
        self.pause()
        if self.cursor < recorded:
            self.cursor += 1
            return True
        self.step_target = self.cursor + 1
        return False

    def effective_pace(self) -> float | None:
        return None if self.fast_forward else self.pace

    def advance(self, dt: float, recorded: int) -> str | None:
        """One frame ``dt`` seconds after the last: "target" when a step waited for was recorded and
        is now shown, "playing" when the animation moves on (it may show the same step a frame
        longer at a slow pace), None when nothing plays."""
        if self.step_target is not None and recorded >= self.step_target:
            self.cursor = self.step_target
            self.step_target = None
            return "target"
        moved = None
        if self.playing and self.cursor < recorded:
            pace = self.effective_pace()
            if pace is None:
                self.cursor = recorded
            else:
                self.budget += dt * pace
                k = int(self.budget)
                if k:
                    self.budget -= k
                    self.cursor = min(recorded, self.cursor + k)
            moved = "playing"
        if self.playing and self.cursor >= recorded:
            self.budget = min(self.budget, 1.0)  # no burst when the trainer catches up
        return moved

    def finished(self, recorded: int, running: bool) -> bool:
        """Nothing more to animate: no trainer, no step waited for, and paused or at the last step."""
        return not running and (not self.playing or self.cursor >= recorded) and self.step_target is None

    def can_play_on(self, recorded: int, running: bool) -> bool:
        """Play continues something (a run, or recorded steps after the cursor) rather than training anew."""
        return running or self.cursor < recorded
