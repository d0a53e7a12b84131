"""Vocabulary-size sweep: how a held-out text fares as a trained tokenizer's vocabulary grows.

For each size the held-out text's tokens, chars/token, fertility, continued words, Rényi efficiency
and the share of the vocabulary it never uses (:class:`tokviz.core.token_stats.TokenStats`); the
production encoders measured on the same text are points on the same axes (vocabulary size vs
chars/token).

One training run gives every size where the algorithm allows it: BPE's merges are a prefix of a
longer run's merges, and WordPiece's vocabulary is a prefix of a larger one's, so the model after
``N`` steps of one long run *is* the model trained for ``N``. Unigram prunes towards its target, so
each size is its own run.

The held-out text is read in blocks of whole lines (about 1 MB) and each block encoded on its own,
so a 100 MB file streams. Long work takes a ``state`` with ``is_cancelled()`` and ``progress(done,
total, result)`` (``result.phase`` says what is running: ``"training"``, ``"measuring"``); a
cancelled sweep returns the points it has with ``cancelled=True``.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "train.txt").write_text("low lower lowest newer newest\\n" * 20, encoding="utf-8")
>>> _ = (d / "held.txt").write_text("lowest newer\\n", encoding="utf-8")
>>> r = run_sweep(d / "train.txt", d / "held.txt", algorithm="bpe", mode="char", merges=[0, 3, 6])
>>> [(p.merges, p.stats.tokens) for p in r.points]
[(0, 11), (3, 7), (6, 4)]
"""

from __future__ import annotations

import os
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tokviz.core.bpe.corpus import corpus_size, read_corpus_blocks
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.compare.outcome import describe_failure
from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.token_stats import TokenStats
from tokviz.core.training import Finished, StepEvent
from tokviz.core.training.factory import make_trainer
from tokviz.core.unigram.trainer import UnigramConfig
from tokviz.core.wordpiece.trainer import WordPieceConfig

ALGORITHMS = ("bpe", "wordpiece", "unigram")
BYTE_BASE = 256  # byte-mode BPE starts from the 256 bytes


@dataclass
class SweepPoint:
    """The held-out text through one model: a trained size or a production encoder."""

    label: str
    vocab_size: int
    stats: TokenStats
    merges: int | None = None  # BPE: merges in the model
    requested: int | None = None  # the merges or vocabulary size asked for (training may stop short)
    error: str | None = None

    def as_json(self) -> dict:
        out: dict = {"label": self.label}
        if self.merges is not None:
            out["merges"] = self.merges
        if self.requested is not None:
            out["requested"] = self.requested
        out["vocab_size"] = self.vocab_size
        if self.error is not None:
            out["error"] = self.error
            return out
        out.update(self.stats.as_json(self.vocab_size))
        out["chars"] = out.pop("characters")
        return out


@dataclass
class SweepResult:
    algorithm: str
    mode: str | None
    points: list[SweepPoint] = field(default_factory=list)
    encoders: list[SweepPoint] = field(default_factory=list)
    phase: str = "training"
    cancelled: bool = False
    stopped_early: str | None = None  # why training ended before the largest size
    seconds: float = 0.0

    def as_json(self) -> dict:
        return {"algorithm": self.algorithm, "mode": self.mode, "cancelled": self.cancelled,
                "stopped_early": self.stopped_early, "points": [p.as_json() for p in self.points],
                "encoders": [p.as_json() for p in self.encoders]}

    def rows(self) -> list[dict]:
        """One flat dict per point (trained sizes, then the encoders), every row with every key: what a
        CSV file shows."""
        doc = self.as_json()
        rows = [{"kind": "trained", **p} for p in doc["points"]] + [{"kind": "encoder", **p} for p in doc["encoders"]]
        keys = list(dict.fromkeys(k for row in rows for k in row))
        return [{k: row.get(k, "") for k in keys} for row in rows]


class _NoState:
    def is_cancelled(self) -> bool:
        return False

    def progress(self, done: int, total: int, result: SweepResult) -> None:
        pass


def measure_text_file(encode: Callable[[str], object], path: str | Path,
                      cancel: Callable[[], bool] | None = None) -> TokenStats | None:
    """TokenStats of a UTF-8 file encoded block by block (blocks of whole lines, ~1 MB each); None
    when ``cancel()`` turned true between blocks."""
    stats = TokenStats()
    for block in read_corpus_blocks(path):
        if cancel is not None and cancel():
            return None
        stats.add(encode(block))
    return stats


_heldout_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _file_key(path: str | Path) -> tuple:
    st = os.stat(path)
    return (str(Path(path).resolve()), st.st_size, st.st_mtime_ns)


def encoder_point(encoder: Encoder, heldout: str | Path, cancel: Callable[[], bool] | None = None) -> SweepPoint | None:
    """A production encoder as a sweep point, cached per encoder object and file version (None:
    cancelled; nothing is cached then)."""
    key = _file_key(heldout)
    try:
        cache = _heldout_cache.setdefault(encoder, {})
    except TypeError:
        cache = {}
    try:
        size = int(encoder.vocab_size)
    except Exception:  # noqa: BLE001 - no size, no point on a size axis
        return SweepPoint(encoder.name, 0, TokenStats(), error="the encoder does not say its vocabulary size")
    if key not in cache:
        try:
            stats = measure_text_file(encoder.encode, heldout, cancel)
            if stats is None:
                return None
            cache[key] = stats
        except TokvizError:
            raise
        except Exception as err:  # noqa: BLE001 - one encoder's failure is its own point's error
            return SweepPoint(encoder.name, size, TokenStats(), error=describe_failure(err))
    return SweepPoint(encoder.name, size, cache[key])


def check_sizes(algorithm: str, mode: str, merges: Sequence[int] | None,
                 vocab_sizes: Sequence[int] | None) -> list[int]:
    """The merges of every BPE point, or the vocabulary sizes of the others; TokvizError when the
    request cannot be met."""
    if algorithm not in ALGORITHMS:
        raise TokvizError(f"unknown algorithm {algorithm!r}: use {', '.join(ALGORITHMS)}")
    if (merges is None) == (vocab_sizes is None):
        raise TokvizError("give the sizes to try as merges or as vocabulary sizes (one of the two)")
    if merges is not None and algorithm != "bpe":
        raise TokvizError(f"{algorithm} grows by vocabulary size: give vocabulary sizes, not merges")
    sizes = list(merges if merges is not None else vocab_sizes)
    if not sizes or any(n < 0 for n in sizes):
        raise TokvizError("the sizes must be whole numbers, 0 or more")
    if algorithm == "bpe" and vocab_sizes is not None:
        if mode == "char":
            raise TokvizError("char-mode BPE's vocabulary is its alphabet plus the merges, which depends on the "
                              "corpus: give merges instead of vocabulary sizes")
        small = [v for v in sizes if v < BYTE_BASE]
        if small:
            raise TokvizError(f"a byte-mode vocabulary holds the 256 bytes: {small[0]} is too small")
        sizes = [v - BYTE_BASE for v in sizes]
    return sorted(set(sizes))


def run_sweep(
    corpus: str | Path,
    heldout: str | Path,
    *,
    algorithm: str = "bpe",
    mode: str = "byte",
    merges: Sequence[int] | None = None,
    vocab_sizes: Sequence[int] | None = None,
    encoders: Iterable[Encoder] = (),
    state=None,
    pattern: str = "gpt4",
    min_frequency: int = 2,
    trainer_factory: Callable[[str, object], object] = make_trainer,
) -> SweepResult:
    """Train on ``corpus`` and measure ``heldout`` at every size; the ``encoders`` as extra points.

    BPE takes ``merges`` (or, in byte mode, ``vocab_sizes`` = 256 + merges); WordPiece and Unigram
    take ``vocab_sizes``. ``trainer_factory(algorithm, config)`` makes each trainer (the GUI passes
    one that trains in a child process, so its GIL stays free for painting). Raises TokvizError
    (CorpusError for unreadable files) for a request that cannot be met, before any training.
    """
    sizes = check_sizes(algorithm, mode, merges, vocab_sizes)
    check_readable(heldout)
    state = state or _NoState()
    started = time.perf_counter()
    result = SweepResult(algorithm, mode if algorithm == "bpe" else None)
    if algorithm == "unigram":
        _unigram_points(corpus, heldout, sizes, state, result, trainer_factory)
    else:
        _one_run_points(corpus, heldout, algorithm, mode, sizes, state, result,
                        pattern=pattern, min_frequency=min_frequency, trainer_factory=trainer_factory)
    if not result.cancelled:
        result.phase = "encoders"
        for enc in encoders:
            if state.is_cancelled():
                result.cancelled = True
                break
            point = encoder_point(enc, heldout, state.is_cancelled)
            if point is None:
                result.cancelled = True
                break
            result.encoders.append(point)
    result.phase = "done"
    result.seconds = time.perf_counter() - started
    state.progress(1, 1, result)
    return result


def check_readable(path: str | Path) -> None:
    if not Path(path).is_file():
        raise CorpusError(f"{path}: no such file (the held-out text)")


def _train(trainer, corpus: str | Path, state, result: SweepResult, goal: int, on_step=None):
    """Run ``trainer`` on ``corpus``, reporting steps of ``goal``; the Finished event."""
    finished = None
    last = time.perf_counter()
    for event in trainer.run(read_corpus_blocks(corpus), cancel=state.is_cancelled, total_bytes=corpus_size(corpus)):
        if isinstance(event, Finished):
            finished = event
        elif isinstance(event, StepEvent) and on_step is not None:
            on_step(event)
        now = time.perf_counter()
        if now - last >= 0.05:
            last = now
            state.progress(event.step if isinstance(event, StepEvent) else 0, max(1, goal), result)
    return finished


def _one_run_points(corpus, heldout, algorithm: str, mode: str, sizes: list[int], state, result: SweepResult,
                    *, pattern: str, min_frequency: int, trainer_factory=make_trainer) -> None:
    """BPE (sizes are merges) or WordPiece (sizes are vocabulary sizes): one run to the largest size,
    then the model after the step that reached each size."""
    if algorithm == "bpe":
        config = TrainerConfig(mode=mode, merges=max(sizes), min_frequency=min_frequency, pattern=pattern)
    else:
        config = WordPieceConfig(vocab_size=max(sizes))
    trainer = trainer_factory(algorithm, config)
    vocab_after: list[int] = []  # the vocabulary size after each step
    finished = _train(trainer, corpus, state, result, max(sizes), on_step=lambda e: vocab_after.append(e.vocab_size))
    if finished is not None and finished.reason == "cancelled":
        result.cancelled = True
        return
    if finished is not None and finished.reason != "merges":
        result.stopped_early = finished.message or finished.reason
    result.phase = "measuring"
    for i, size in enumerate(sizes):
        if state.is_cancelled():
            result.cancelled = True
            return
        if algorithm == "bpe":
            model = trainer.model(min(size, len(vocab_after)))
            label, merges_done = f"{model.vocab_size:,} ({len(model.merges)} merges)", len(model.merges)
        else:
            step = sum(1 for v in vocab_after if v <= size)  # sizes only grow: the last step within size
            model = trainer.model(step)
            label, merges_done = f"{model.vocab_size:,}", None
        stats = measure_text_file(model.encode, heldout, state.is_cancelled)
        if stats is None:
            result.cancelled = True
            return
        result.points.append(SweepPoint(label, model.vocab_size, stats, merges=merges_done, requested=size))
        state.progress(i + 1, len(sizes), result)


def _unigram_points(corpus, heldout, sizes: list[int], state, result: SweepResult,
                    trainer_factory=make_trainer) -> None:
    """Unigram prunes towards its target, so every size is its own run."""
    for size in sizes:
        trainer = trainer_factory("unigram", UnigramConfig(vocab_size=size))
        result.phase = "training"
        try:
            finished = _train(trainer, corpus, state, result, size)
        except CorpusError:
            raise
        except TokvizError as err:  # a size this corpus cannot give (below its alphabet): that point says so
            result.points.append(SweepPoint(f"{size:,}", size, TokenStats(), requested=size, error=str(err)))
            continue
        if finished is not None and finished.reason == "cancelled":
            result.cancelled = True
            return
        result.phase = "measuring"
        model = trainer.model()
        stats = measure_text_file(model.encode, heldout, state.is_cancelled)
        if stats is None:
            result.cancelled = True
            return
        result.points.append(SweepPoint(f"{model.vocab_size:,}", model.vocab_size, stats, requested=size))
