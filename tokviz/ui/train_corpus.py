"""Where the Train panel's corpus comes from: the built-in demo, a text file (streamed by the core's
``read_corpus``, so large files are fine), or pasted text."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Literal

from PySide6.QtCore import QCoreApplication

import tokviz


def demo_corpus_path() -> Path:
    """The demo corpus written for tokviz (Korean, English, a little code and emoji)."""
    return tokviz.resources_dir() / "corpora" / "demo.txt"


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
    def demo(cls) -> "CorpusSource":
        return cls("demo", QCoreApplication.translate("CorpusSource", "Demo corpus (built-in)"), path=demo_corpus_path())

    @classmethod
    def file(cls, path: str | os.PathLike) -> "CorpusSource":
        p = Path(path)
        return cls("file", p.name, path=p)

    @classmethod
    def paste(cls, text: str) -> "CorpusSource":
        first = text.strip().splitlines()[0][:30] if text.strip() else ""
        return cls("paste", QCoreApplication.translate("CorpusSource", "Pasted: {first}…").format(first=first), text=text)

    def with_replacement(self) -> "CorpusSource":
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
        """The corpus line by line (called in the worker thread; files are streamed)."""
        if self.path is not None:
            from tokviz.core.bpe.corpus import read_corpus

            return read_corpus(self.path, errors=self.errors)
        return iter((self.text or "").splitlines(keepends=True))

    def sample_lines(self, n: int = 40, max_chars: int = 160) -> list[str]:
        """The first ``n`` non-empty lines, for the re-segmenting corpus view (read in the GUI thread,
        so only the file's head is read; undecodable bytes show as U+FFFD here)."""
        out: list[str] = []
        if self.path is not None:
            try:
                with open(self.path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        line = line.strip()
                        if line:
                            out.append(line[:max_chars])
                        if len(out) >= n:
                            break
            except OSError:
                return []
        else:
            for line in (self.text or "").splitlines():
                if line.strip():
                    out.append(line.strip()[:max_chars])
                if len(out) >= n:
                    break
        return out
