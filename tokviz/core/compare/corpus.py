"""Encoders over whole text sets (the sample files, a corpus file): running totals per encoder, so a
corpus's chars/token is total characters over total tokens. Long work takes a ``state`` for progress
and cancel (:class:`CompareState`), so the GUI runs it in a worker and tests call it directly."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from tokviz.core.compare.outcome import describe_failure
from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import CorpusError
from tokviz.core.metrics import Metrics, measure


@dataclass(frozen=True)
class TextSet:
    """A named list of texts compared as one unit (a sample file, a corpus file)."""

    name: str
    texts: tuple[str, ...]

    @property
    def characters(self) -> int:
        return sum(len(t) for t in self.texts)


SAMPLE_SET_ORDER = ("korean", "english", "code", "emoji", "numbers", "mixed")


def sample_sets(folder: Path | None = None) -> list[TextSet]:
    """The built-in sample sets (``resources/samples/*.txt``), each file one text (so code keeps
    its newlines and indentation). Known sets come first in a fixed order."""
    if folder is None:
        from tokviz.core.package_data import resources_dir

        folder = resources_dir() / "samples"
    files = sorted(Path(folder).glob("*.txt"), key=lambda p: (
        SAMPLE_SET_ORDER.index(p.stem) if p.stem in SAMPLE_SET_ORDER else len(SAMPLE_SET_ORDER), p.stem))
    out = []
    for p in files:
        text = _read_text(p)
        if text.strip():
            out.append(TextSet(p.stem, (text,)))
    if not out:
        raise CorpusError(f"no sample texts found in {folder}")
    return out


def corpus_set(path: str | Path, *, name: str | None = None, max_lines: int | None = None) -> TextSet:
    """A corpus file as one set, one text per non-empty line (how corpora like NSMC store one
    review per line)."""
    p = Path(path)
    lines = [ln for ln in _read_text(p).splitlines() if ln.strip()]
    if max_lines is not None:
        lines = lines[:max_lines]
    if not lines:
        raise CorpusError(f"{p}: the corpus has no text")
    return TextSet(name or p.stem, tuple(lines))


def _read_text(path: Path) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as err:
        raise CorpusError(f"{path}: not UTF-8 text (byte {err.start}: {err.reason})") from None
    except OSError as err:
        raise CorpusError(f"{path}: cannot read ({err.strerror or err})") from None


@dataclass
class CorpusTotals:
    """Running totals of one encoder over one text set; ratios are computed from the totals (a
    corpus's chars/token is total chars over total tokens, not a mean of per-line ratios)."""

    set_name: str
    encoder: str
    vocab_size: int | None = None
    texts: int = 0
    tokens: int = 0
    characters: int = 0
    bytes: int = 0
    words: int = 0
    partial_tokens: int = 0
    continued_words: int = 0
    fallback_tokens: int = 0
    unknown_tokens: int = 0
    round_trip_failures: int = 0
    failed_texts: int = 0
    first_error: str | None = None

    @property
    def chars_per_token(self) -> float:
        return self.characters / self.tokens if self.tokens else 0.0

    @property
    def bytes_per_token(self) -> float:
        return self.bytes / self.tokens if self.tokens else 0.0

    @property
    def fertility(self) -> float:
        return self.tokens / self.words if self.words else 0.0

    @property
    def continued_share(self) -> float:
        return self.continued_words / self.words if self.words else 0.0

    def add(self, metrics: Metrics) -> None:
        self.texts += 1
        self.tokens += metrics.tokens
        self.characters += metrics.characters
        self.bytes += metrics.bytes
        self.words += metrics.words
        self.continued_words += metrics.continued_words
        self.partial_tokens += metrics.partial_tokens
        self.fallback_tokens += metrics.fallback_tokens
        self.unknown_tokens += metrics.unknown_tokens
        self.round_trip_failures += 0 if metrics.round_trip else 1

    def add_failure(self, message: str) -> None:
        self.failed_texts += 1
        if self.first_error is None:
            self.first_error = message

    def copy(self) -> CorpusTotals:
        return CorpusTotals(**self.__dict__)

    def as_json(self) -> dict:
        out = dict(self.__dict__)
        out["chars_per_token"] = round(self.chars_per_token, 4)
        out["bytes_per_token"] = round(self.bytes_per_token, 4)
        out["fertility"] = round(self.fertility, 4)
        out["continued_share"] = round(self.continued_share, 4)
        return out


class CompareState(Protocol):
    """What long compare work reports to and asks of its caller (a GUI worker, a test, the CLI)."""

    def is_cancelled(self) -> bool: ...

    def progress(self, done: int, total: int, result: CorpusComparison) -> None:
        """``done`` of ``total`` characters are through every encoder; ``result`` holds the totals
        so far (read it now, in this call: it keeps changing afterwards)."""
        ...


class NoState:
    """A state that never cancels and ignores progress."""

    def is_cancelled(self) -> bool:
        return False

    def progress(self, done: int, total: int, result: CorpusComparison) -> None:
        pass


@dataclass
class CorpusComparison:
    """Totals per (set, encoder), in set order then encoder order."""

    totals: list[CorpusTotals] = field(default_factory=list)
    cancelled: bool = False
    seconds: float = 0.0

    def snapshot(self) -> list[CorpusTotals]:
        """Copies of the current totals (safe to hand to another thread)."""
        return [t.copy() for t in self.totals]

    def get(self, set_name: str, encoder: str) -> CorpusTotals:
        for t in self.totals:
            if t.set_name == set_name and t.encoder == encoder:
                return t
        raise KeyError((set_name, encoder))


def compare_corpus(
    encoders: Sequence[Encoder],
    sets: Iterable[TextSet],
    state: CompareState | None = None,
    *,
    report_every: float = 0.05,
) -> CorpusComparison:
    """Totals of every encoder over every text of every set.

    Each text goes through all encoders before the next one, so the totals of all encoders grow
    together (a live table reads fairly at any moment). ``state.progress`` is called at most every
    ``report_every`` seconds and once at the end; ``state.is_cancelled()`` is checked between texts,
    and a cancelled run returns what it counted so far with ``cancelled=True``.

    An encoder that fails on a text counts the failure (``failed_texts``, ``first_error``) and goes
    on with the next text.
    """
    state = state or NoState()
    sets = list(sets)
    started = time.perf_counter()
    result = CorpusComparison()
    names = [getattr(e, "name", str(e)) for e in encoders]
    vocab = []
    for e in encoders:
        try:
            vocab.append(e.vocab_size)
        except Exception:
            vocab.append(None)
    for s in sets:
        for name, v in zip(names, vocab, strict=True):
            result.totals.append(CorpusTotals(s.name, name, v))
    total = sum(s.characters for s in sets)
    done = 0
    last_report = time.perf_counter()
    row = 0
    for s in sets:
        row_totals = result.totals[row: row + len(encoders)]
        row += len(encoders)
        for text in s.texts:
            if state.is_cancelled():
                result.cancelled = True
                result.seconds = time.perf_counter() - started
                state.progress(done, total, result)
                return result
            for enc, totals in zip(encoders, row_totals, strict=True):
                try:
                    encoding = enc.encode(text)
                    totals.add(measure(encoding, enc.decode(encoding.ids)))
                except Exception as err:  # noqa: BLE001 - counted per encoder, the run goes on
                    totals.add_failure(describe_failure(err))
            done += len(text)
            now = time.perf_counter()
            if now - last_report >= report_every:
                last_report = now
                state.progress(done, total, result)
    result.seconds = time.perf_counter() - started
    state.progress(done, total, result)
    return result
