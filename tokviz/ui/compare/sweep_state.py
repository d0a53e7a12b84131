"""The Sweep tab's truth as plain Python (no Qt): the training corpus, the held-out text, the
algorithm, mode and sizes, the production encoders drawn beside the trained sizes, and the run on
screen.

Widgets send intents (:meth:`SweepState.change`, :meth:`SweepState.start`, :meth:`SweepState.cancel`)
and render what the state says. Settings are locked while a sweep runs (the plot on screen keeps the
settings it was measured with); each run is stamped with a generation, and the outcome of any run but
the latest is dropped. :func:`sweep` is the work itself, a plain function of a request, a registry
and a ``state``: the training runs in a child process, as the Train panel's does.

>>> state = SweepState()
>>> state.change(sizes="100, lots")
'Give the sizes as whole numbers separated by commas, e.g. 100,400,1600.'
>>> state.change(algorithm="unigram")  # the sizes follow: merges mean nothing to Unigram
>>> state.options.sizes
'300,500,800,1200,2000'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from pathlib import Path

from tokviz.core.errors import TokvizError
from tokviz.core.sweep import ALGORITHMS, SweepPoint, SweepResult, check_sizes, run_sweep
from tokviz.core.token_stats import TokenStats, rows_csv
from tokviz.ui.common.emitter import Emitter
from tokviz.ui.compare.parity_state import DEFAULT_ENCODERS

MODES = ("byte", "char")
# the default sizes: BPE's are merges (byte mode: 256 more in the vocabulary), the others' vocabulary sizes
DEFAULT_SIZES = {
    "bpe": "0,100,200,400,800,1600",
    "wordpiece": "300,500,800,1200,2000",
    "unigram": "300,500,800,1200,2000",
}

# the reasons an intent is refused (the tab shows them translated)
LOCKED = "Settings are locked while the sweep runs: cancel it to change them."
BAD_SIZES = "Give the sizes as whole numbers separated by commas, e.g. 100,400,1600."
NO_SIZES = "Give at least one size."


@dataclass(frozen=True)
class SweepOptions:
    """What the next sweep trains and measures."""

    corpus: str | None = None  # None: the demo corpus
    heldout: str | None = None  # None: the Korean sample text
    algorithm: str = "bpe"
    mode: str = "byte"
    sizes: str = DEFAULT_SIZES["bpe"]  # as typed: merges for BPE, vocabulary sizes for the others
    encoders: tuple[str, ...] = DEFAULT_ENCODERS


@dataclass(frozen=True)
class SweepRequest:
    generation: int
    options: SweepOptions
    sizes: tuple[int, ...]


@dataclass(frozen=True)
class SweepProgress:
    """A copy of a running sweep's points (the worker keeps changing its own)."""

    phase: str  # training | measuring | encoders | done
    done: int
    total: int
    points: tuple[SweepPoint, ...]
    encoders: tuple[SweepPoint, ...]


def parse_sizes(text: str) -> list[int] | str:
    """The numbers typed (``"100, 1_000"`` → [100, 1000]), or why they are no sizes."""
    try:
        sizes = [int(part.strip().replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        return BAD_SIZES
    if any(n < 0 for n in sizes):
        return BAD_SIZES
    return sizes or NO_SIZES


def size_request(options: SweepOptions) -> tuple[list[int] | None, list[int] | None] | str:
    """``(merges, vocab_sizes)`` for core's sweep (one of them None), or why the options cannot run."""
    sizes = parse_sizes(options.sizes)
    if isinstance(sizes, str):
        return sizes
    merges, vocab = (sizes, None) if options.algorithm == "bpe" else (None, sizes)
    try:
        check_sizes(options.algorithm, options.mode, merges, vocab)
    except TokvizError as err:
        return str(err)
    return merges, vocab


class SweepState:
    """All the Sweep tab's state; see the module docstring.

    ``status``: idle | running | cancelling | done | cancelled | failed. Events: ``options``, ``run``,
    ``progress`` (a :class:`SweepProgress`), ``result`` (a SweepResult), ``failed`` (the message),
    ``refused`` (why an intent was not applied), ``cancelling``.
    """

    def __init__(self) -> None:
        self.events = Emitter()
        self.options = SweepOptions()
        self.status = "idle"
        self.generation = 0
        self.request: SweepRequest | None = None  # the run on screen
        self.progress: SweepProgress | None = None
        self.result: SweepResult | None = None
        self.message: str | None = None

    @property
    def running(self) -> bool:
        return self.status in ("running", "cancelling")

    # ---------------------------------------------------------------- intents
    def change(self, **changes) -> str | None:
        """Change options (``algorithm="unigram"``, ``sizes="100,400"`` …): None when applied, else
        the reason it was refused (the options stay as they were)."""
        unknown = set(changes) - {f.name for f in fields(SweepOptions)}
        if unknown:
            raise TypeError(f"no such option: {', '.join(sorted(unknown))}")
        new = replace(self.options, **changes)
        if "encoders" in changes:
            new = replace(new, encoders=tuple(dict.fromkeys(new.encoders)))
        if new.algorithm != self.options.algorithm and "sizes" not in changes:
            if self.options.sizes == DEFAULT_SIZES[self.options.algorithm] and new.algorithm in DEFAULT_SIZES:
                new = replace(new, sizes=DEFAULT_SIZES[new.algorithm])
        reason = self._refusal(new)
        if reason is not None:
            self.events.emit("refused", reason)
            return reason
        if new != self.options:
            self.options = new
            self.events.emit("options", new)
        return None

    def _refusal(self, new: SweepOptions) -> str | None:
        if new == self.options:
            return None
        if self.running:
            return LOCKED
        if new.algorithm not in ALGORITHMS:
            return f"unknown algorithm {new.algorithm!r}"
        if new.mode not in MODES:
            return f"unknown mode {new.mode!r}"
        if new.sizes != self.options.sizes:
            sizes = parse_sizes(new.sizes)
            if isinstance(sizes, str):
                return sizes
        return None

    def start(self) -> SweepRequest | str:
        """A new sweep with the options chosen, or why it cannot start (the sizes do not fit the
        algorithm); a sweep still running is superseded: its outcome will be dropped."""
        sizes = size_request(self.options)
        if isinstance(sizes, str):
            self.events.emit("refused", sizes)
            return sizes
        merges, vocab = sizes
        self.generation += 1
        self.status = "running"
        self.request = SweepRequest(self.generation, self.options, tuple(merges or vocab))
        self.progress = None
        self.result = None
        self.message = None
        self.events.emit("run", self.request)
        return self.request

    def cancel(self) -> bool:
        """Ask the sweep to stop: True when one was running (its points so far still arrive)."""
        if self.status != "running":
            return False
        self.status = "cancelling"
        self.events.emit("cancelling")
        return True

    # ---------------------------------------------------------------- what the run reports
    def _current(self, generation: int) -> bool:
        return generation == self.generation and self.running

    def report(self, generation: int, progress: SweepProgress) -> bool:
        if not self._current(generation):
            return False
        self.progress = progress
        self.events.emit("progress", progress)
        return True

    def finish(self, generation: int, result: SweepResult) -> bool:
        if not self._current(generation):
            return False
        self.result = result
        self.status = "cancelled" if result.cancelled else "done"
        self.events.emit("result", result)
        return True

    def fail(self, generation: int, message: str) -> bool:
        if not self._current(generation):
            return False
        self.status = "failed"
        self.message = message
        self.events.emit("failed", message)
        return True

    # ---------------------------------------------------------------- what views show
    def points(self) -> tuple[list[SweepPoint], list[SweepPoint]]:
        """(trained sizes, production encoders) on screen: the result, else the latest progress."""
        if self.result is not None:
            return list(self.result.points), list(self.result.encoders)
        if self.progress is not None:
            return list(self.progress.points), list(self.progress.encoders)
        return [], []

    def curve(self) -> tuple[list[int], list[float]]:
        """The trained sizes as (vocabulary sizes, chars/token on the held-out text)."""
        trained, _ = self.points()
        ok = [p for p in trained if p.error is None and p.stats.tokens]
        return [p.vocab_size for p in ok], [p.stats.chars_per_token for p in ok]

    def encoder_points(self) -> list[tuple[str, int, float]]:
        """Each production encoder measured as (name, vocabulary size, chars/token)."""
        _, encoders = self.points()
        return [
            (p.label, p.vocab_size, p.stats.chars_per_token) for p in encoders if p.error is None and p.stats.tokens
        ]

    def csv_text(self) -> str:
        return rows_csv(self.result.rows()) if self.result is not None else ""


class _Relay:
    """What core's sweep reports, passed on as copies (the worker keeps changing its own lists)."""

    def __init__(self, state):
        self._state = state

    def is_cancelled(self) -> bool:
        return self._state.is_cancelled()

    def progress(self, done: int, total: int, result: SweepResult) -> None:
        self._state.progress(
            done, total, SweepProgress(result.phase, done, total, tuple(result.points), tuple(result.encoders))
        )


def default_corpus() -> Path:
    from tokviz.core.package_data import resources_dir

    return resources_dir() / "corpora" / "demo.txt"


def default_heldout() -> Path:
    from tokviz.core.package_data import resources_dir

    return resources_dir() / "samples" / "korean.txt"


def sweep(request: SweepRequest, registry, state) -> SweepResult:
    """Train and measure as ``request`` says (in a worker; the training itself in a child process
    that ends with the sweep). An encoder that cannot be loaded is a point with its error."""
    from tokviz.core.training.factory import make_trainer
    from tokviz.core.training.process import ProcessTrainer

    options = request.options
    loaded, failed = [], []
    for name in options.encoders:
        try:
            loaded.append(registry.get(name))
        except TokvizError as err:
            failed.append(SweepPoint(name, 0, TokenStats(), error=str(err)))
    made: list[ProcessTrainer] = []

    def in_child(algorithm: str, config) -> ProcessTrainer:
        trainer = ProcessTrainer(make_trainer(algorithm, config))
        made.append(trainer)
        return trainer

    sizes = list(request.sizes)
    bpe = options.algorithm == "bpe"
    try:
        result = run_sweep(
            options.corpus or default_corpus(),
            options.heldout or default_heldout(),
            algorithm=options.algorithm,
            mode=options.mode,
            merges=sizes if bpe else None,
            vocab_sizes=None if bpe else sizes,
            encoders=loaded,
            state=_Relay(state),
            trainer_factory=in_child,
        )
    finally:
        for trainer in made:  # a finished WordPiece or Unigram child waits for model requests until closed
            trainer.close()
    result.encoders.extend(failed)
    return result
