"""Where the Train panel's corpus comes from: the built-in demo, a text file (streamed by the core's
``read_corpus_blocks``, so large files are fine), or pasted text."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import regex
from PySide6.QtCore import QCoreApplication

from tokviz.core.package_data import resources_dir
from tokviz.ui.train.corpus_facts import source_lines


def demo_corpus_path() -> Path:
    """The demo corpus written for tokviz (Korean, English, a little code and emoji)."""
    return resources_dir() / "corpora" / "demo.txt"


@dataclass(frozen=True)
class CorpusSource:
    """A corpus to train on. ``errors="replace"`` is the explicit repair of invalid UTF-8 the user
    accepted after seeing the message; it is never chosen silently."""

    kind: Literal["demo", "file", "paste"]
    label: str
    path: Path | None = None
    text: str | None = None
    errors: str = "strict"

    @classmethod
    def demo(cls) -> CorpusSource:
        return cls("demo", QCoreApplication.translate("CorpusSource", "Demo corpus (built-in)"),
                   path=demo_corpus_path())

    @classmethod
    def file(cls, path: str | os.PathLike) -> CorpusSource:
        p = Path(path)
        return cls("file", p.name, path=p)

    @classmethod
    def paste(cls, text: str) -> CorpusSource:
        first = text.strip().splitlines()[0][:30] if text.strip() else ""
        label = QCoreApplication.translate("CorpusSource", "Pasted: {first}…").format(first=first)
        return cls("paste", label, text=text)

    def with_replacement(self) -> CorpusSource:
        return CorpusSource(self.kind, self.label, self.path, self.text, "replace")

    @property
    def total_bytes(self) -> int | None:
        if self.path is not None:
            try:
                return self.path.stat().st_size
            except OSError:
                return None
        return len(self.text.encode("utf-8", "surrogatepass")) if self.text is not None else None

    def lines(self) -> Iterator[str]:
        """The corpus lines (called in the worker thread; files are streamed in blocks of whole
        lines: 150k lines one by one cost ~0.4 s more to decode and pickle to the training process)."""
        return source_lines(self.path, self.text, self.errors)

    def sample_lines(self, n: int = 30, max_chars: int = 160) -> list[str]:
        """About ``n`` lines that show the corpus's variety, for the re-segmenting sample view.

        Read in the GUI thread, so a large file is only sampled: lines at evenly spaced offsets,
        never the whole file. The lines are then picked by kind (Hangul, other letters, code,
        emoji: see :func:`line_kind`) in turns, so a mostly Korean corpus still shows its English,
        code and emoji lines near the top; the commonest kind gets two turns per round.
        Deterministic: the same corpus always gives the same sample. Undecodable bytes show as
        U+FFFD here.
        """
        if self.path is not None:
            candidates = _file_lines(self.path, 8 * n)
        else:
            candidates = (self.text or "").splitlines()
        return pick_varied([line[:max_chars] for line in candidates], n)


SAMPLE_FULL_READ = 1 << 20  # files up to 1 MB are read whole for the sample; larger ones are sampled
_CODE = regex.compile(r"^\s{2,}\S|[{}();=\[\]]|^\s*(def|class|return|import|for|if|print)\b|#include|=>|::")
_EMOJI = regex.compile(r"\p{Extended_Pictographic}")
_HANGUL = regex.compile(r"\p{Hangul}")
_LETTER = regex.compile(r"\p{L}")


def line_kind(line: str) -> str:
    """What a sample line mostly shows: "emoji", "code", "hangul", "letters" or "other".

    >>> [line_kind(s) for s in ["안녕 🙂", "    return x", "안녕하세요", "Hello", "12:30"]]
    ['emoji', 'code', 'hangul', 'letters', 'other']
    """
    if _EMOJI.search(line):
        return "emoji"
    if _CODE.search(line):
        return "code"
    if _HANGUL.search(line):
        return "hangul"
    if _LETTER.search(line):
        return "letters"
    return "other"


def pick_varied(lines: list[str], n: int) -> list[str]:
    """Up to ``n`` of ``lines`` (blank and very short ones skipped unless nothing else is left),
    taken kind by kind in turns, each kind's lines spread evenly over where they occur.

    >>> pick_varied(["가나다라마", "가나다라마바", "hello world", "}", "    return x", "라마바사아"], 4)
    ['가나다라마', '가나다라마바', 'hello world', '    return x']
    """
    lines = [line.rstrip() for line in lines]
    usable = [line for line in lines if len(line.strip()) >= 5] or [line for line in lines if line.strip()]
    by_kind: dict[str, list[str]] = {}
    for line in usable:
        by_kind.setdefault(line_kind(line), []).append(line)
    # each kind's lines spread over the corpus, not its first few
    queues = {k: _spread(v, n) for k, v in by_kind.items()}
    order = sorted(queues, key=lambda k: -len(by_kind[k]))  # commonest kind first, ties by appearance
    turns = {k: (2 if i == 0 else 1) for i, k in enumerate(order)}
    out: list[str] = []
    while len(out) < n and any(queues.values()):
        for k in order:
            for _ in range(turns[k]):
                if queues[k] and len(out) < n:
                    out.append(queues[k].pop(0))
    return out


def _spread(items: list[str], n: int) -> list[str]:
    """At most ``n`` items evenly spaced over ``items`` (first one included)."""
    if len(items) <= n:
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


def _file_lines(path: Path, windows: int) -> list[str]:
    """The lines of a small file; for a large one, one line after each of ``windows`` evenly spaced
    byte offsets (the partial line at the offset skipped), so the sample covers the whole file."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            if size <= SAMPLE_FULL_READ:
                return f.read().decode("utf-8", "replace").splitlines()
            out: list[str] = []
            for i in range(windows):
                f.seek(size * i // windows)
                if i:
                    f.readline()  # the rest of a line the offset fell into
                line = f.readline(4096)
                if line:
                    out.append(line.decode("utf-8", "replace").rstrip("\r\n"))
            return out
    except OSError:
        return []
