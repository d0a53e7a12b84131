"""The Train panel's truth as plain Python (no Qt): the corpus chosen, the algorithm and its options,
the run on screen (what it recorded, whether it still trains, its progress and notes), the playback
cursor, the token selected and presentation mode.

Widgets send intents (:meth:`TrainState.change`, :meth:`TrainState.seek` …) and render what the model
says; the model validates each intent and tells its observers what changed. A change of mode, algorithm
or option while a trainer is alive is refused with a reason the panel shows: the run on screen keeps the
settings it trains with, and nothing learned is thrown away by a stray click. Once the trainer is done
(finished or cancelled) a change is accepted and the next ▶ trains anew with it.

>>> state = TrainState()
>>> state.start_run()
>>> state.change(mode="char")
'Settings are locked while the trainer runs: cancel or reset to change them.'
>>> state.options.mode
'byte'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

from tokviz.ui.common.emitter import Emitter
from tokviz.ui.train.state import Playback

ALGORITHMS = ("bpe", "wordpiece", "unigram")
MODES = ("byte", "char")

LOCKED = "Settings are locked while the trainer runs: cancel or reset to change them."


@dataclass(frozen=True)
class TrainOptions:
    """What the next run trains with."""

    algorithm: str = "bpe"
    mode: str = "byte"
    pattern: str = "gpt4"
    hangul_only: bool = False
    jamo: bool = False
    merges: int = 300
    min_frequency: int = 2


@dataclass
class Run:
    """The run on screen: the options it trains with and what it recorded so far."""

    options: TrainOptions
    status: str = "running"  # running | finished | cancelled | failed
    recorded: int = 0
    progress: tuple[str, int, int] | None = None  # (phase, done, total) while counting
    notes: list[str] = field(default_factory=list)

    @property
    def alive(self) -> bool:
        return self.status == "running"


@dataclass(frozen=True)
class Snapshot:
    """One frame's worth of the model: every view of a frame draws from the same one."""

    step: int
    recorded: int
    target: int
    status: str  # idle | running | finished | cancelled | failed
    playing: bool
    presenting: bool
    selected_token: int | None
    mode: str


class TrainState:
    """All the Train panel's state; see the module docstring."""

    def __init__(self, pace: float | None = 10.0) -> None:
        self.events = Emitter()
        self.corpus: str = "demo"
        self.options = TrainOptions()
        self.run: Run | None = None
        self.playback = Playback(pace=pace)
        self.selected_token: int | None = None
        self.presenting = False

    # ---------------------------------------------------------------- settings
    def locked_reason(self) -> str | None:
        """Why the settings cannot change now (None: they can)."""
        return LOCKED if self.run is not None and self.run.alive else None

    def change(self, **changes) -> str | None:
        """Change options (``mode="char"``, ``merges=40`` …): None when applied, else the reason
        it was refused (the options stay as they were)."""
        unknown = set(changes) - {f.name for f in fields(TrainOptions)}
        if unknown:
            raise TypeError(f"no such option: {', '.join(sorted(unknown))}")
        if changes.get("algorithm", self.options.algorithm) not in ALGORITHMS:
            return f"unknown algorithm {changes['algorithm']!r}"
        if changes.get("mode", self.options.mode) not in MODES:
            return f"unknown mode {changes['mode']!r}"
        new = replace(self.options, **changes)
        if new == self.options:
            return None
        reason = self.locked_reason()
        if reason is not None:
            self.events.emit("refused", reason)
            return reason
        self.options = new
        self.events.emit("options", new)
        return None

    def choose_corpus(self, key: str) -> None:
        """Another corpus: the run on screen (trained on the old one) is gone."""
        if key == self.corpus:
            return
        self.reset()
        self.corpus = key
        self.events.emit("corpus", key)

    def stale(self) -> bool:
        """The run on screen was trained with other options than those now chosen."""
        return self.run is not None and self.run.options != self.options

    # ---------------------------------------------------------------- the run
    def start_run(self) -> None:
        """A new run with the options chosen: step 0, nothing recorded."""
        self.run = Run(self.options)
        self.playback.reset()
        self.selected_token = None
        self.events.emit("run", self.run)

    def record(self, steps: int) -> None:
        if self.run is None:
            return
        self.run.recorded += steps
        self.run.progress = None
        self.events.emit("recorded", self.run.recorded)

    def set_recorded(self, recorded: int) -> None:
        """The recording's length as the panel's replay holds it."""
        if self.run is not None and recorded != self.run.recorded:
            self.record(recorded - self.run.recorded)

    def report_progress(self, phase: str, done: int, total: int) -> None:
        if self.run is not None:
            self.run.progress = (phase, done, total)
            self.events.emit("progress", self.run.progress)

    def note(self, text: str) -> None:
        if self.run is not None:
            self.run.notes.append(text)
        self.events.emit("note", text)

    def finish(self, status: str = "finished") -> None:
        """The trainer is done (``finished``), stopped by the user (``cancelled``) or crashed (``failed``)."""
        if self.run is None or not self.run.alive:
            return
        self.run.status = status
        self.run.progress = None
        if status == "failed":
            self.playback.pause()
        self.events.emit("run", self.run)

    def reset(self) -> None:
        """No run: every view empties."""
        self.run = None
        self.playback.reset()
        self.selected_token = None
        self.events.emit("run", None)

    # ---------------------------------------------------------------- playback
    @property
    def recorded(self) -> int:
        return self.run.recorded if self.run is not None else 0

    def seek(self, step: int) -> int:
        """Show recorded step ``step`` (clamped to the recording); the animation pauses."""
        self.playback.pause()
        shown = self.playback.seek(step, self.recorded)
        self.events.emit("step", shown)
        return shown

    def step_forward(self) -> bool:
        """One step forward: True when it was recorded, False when the trainer must be asked for it
        (the cursor then moves when it is recorded; nothing moves without a live trainer)."""
        moved = self.playback.step_forward(self.recorded)
        if not moved and not (self.run is not None and self.run.alive):
            self.playback.step_target = None
        self.events.emit("step", self.playback.cursor)
        return moved

    def select(self, token_id: int | None) -> None:
        self.selected_token = token_id
        self.events.emit("selection", token_id)

    def set_presenting(self, on: bool) -> None:
        if on != self.presenting:
            self.presenting = on
            self.events.emit("presenting", on)

    def snapshot(self) -> Snapshot:
        run = self.run
        options = run.options if run is not None else self.options
        return Snapshot(
            step=self.playback.cursor,
            recorded=self.recorded,
            target=options.merges,
            status=run.status if run is not None else "idle",
            playing=self.playback.playing,
            presenting=self.presenting,
            selected_token=self.selected_token,
            mode=options.mode,
        )

    # ---------------------------------------------------------------- remembered between sessions
    def remembered(self) -> dict[str, str]:
        """What the next start restores: the corpus, the algorithm and the mode."""
        return {"corpus": self.corpus, "algorithm": self.options.algorithm, "mode": self.options.mode}

    def restore(self, saved: dict[str, str], corpus_exists: Callable[[str], bool] = lambda _key: True) -> list[str]:
        """Take back what :meth:`remembered` gave (from tokviz.ini); a value that no longer makes sense
        (a corpus file gone, a mode renamed) is skipped. Returns the keys restored."""
        restored = []
        algorithm, mode = saved.get("algorithm"), saved.get("mode")
        if algorithm in ALGORITHMS and self.change(algorithm=algorithm) is None:
            restored.append("algorithm")
        if mode in MODES and self.change(mode=mode) is None:
            restored.append("mode")
        corpus = saved.get("corpus")
        if corpus and corpus_exists(corpus):
            self.choose_corpus(corpus)
            restored.append("corpus")
        return restored
