"""Reading a training corpus: stream lines from a file (or stdin) of any size, decoded strictly.

Lines keep their ``\\n`` so the trainer sees the file as one document (the GPT-4 pattern treats
``"\\n\\n"`` differently from two separate ``"\\n"``). Decoding is strict by default: a corpus with
broken UTF-8 stops with a message naming the line and byte, and ``errors="replace"`` is the explicit
way to go on (each undecodable byte becomes U+FFFD).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import BinaryIO, Iterator

from tokviz.core.errors import CorpusError

_BOM = b"\xef\xbb\xbf"


def read_corpus(path: str | Path, errors: str = "strict") -> Iterator[str]:
    """Stream the lines of the corpus at ``path`` (``"-"`` = stdin) as text, each with its ``\\n``.

    ``errors`` is ``"strict"`` (invalid UTF-8 raises CorpusError naming the line number and the byte)
    or ``"replace"`` (invalid bytes become U+FFFD). A UTF-8 byte order mark at the start is dropped.
    The file is read line by line, so a corpus of any size streams in constant memory.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "c.txt")
    >>> _ = open(p, "wb").write(b"ok\\n\\xff bad\\n")
    >>> list(read_corpus(p, errors="replace"))
    ['ok\\n', '\\ufffd bad\\n']
    >>> list(read_corpus(p))
    Traceback (most recent call last):
    ...
    tokviz.core.errors.CorpusError: ...line 2 is not valid UTF-8 (byte 0xFF at byte offset 0 of the line)...
    """
    if errors not in ("strict", "replace"):
        raise CorpusError(f"unknown errors mode {errors!r}: use 'strict' or 'replace'")
    name = "<stdin>" if str(path) == "-" else str(path)
    if str(path) == "-":
        return _decode_lines(sys.stdin.buffer, name, errors)
    p = Path(path)
    if p.is_dir():
        raise CorpusError(f"{name} is a folder; give a text file (one document or one sentence per line)")
    try:
        f = open(p, "rb")
    except FileNotFoundError:
        raise CorpusError(f"{name}: no such file") from None
    except OSError as err:
        raise CorpusError(f"{name}: cannot read ({err.strerror or err})") from None
    return _closing_lines(f, name, errors)


def corpus_size(path: str | Path) -> int | None:
    """Size in bytes of the corpus file for progress bars (None for stdin or when unknown)."""
    if str(path) == "-":
        return None
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def _closing_lines(f: BinaryIO, name: str, errors: str) -> Iterator[str]:
    with f:
        yield from _decode_lines(f, name, errors)


def _decode_lines(f: BinaryIO, name: str, errors: str) -> Iterator[str]:
    lineno = 0
    try:
        for raw in f:
            lineno += 1
            if lineno == 1 and raw.startswith(_BOM):
                raw = raw[len(_BOM):]
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as err:
                if errors == "replace":
                    yield raw.decode("utf-8", "replace")
                    continue
                bad = raw[err.start]
                raise CorpusError(
                    f"{name}: line {lineno} is not valid UTF-8 (byte 0x{bad:02X} at byte offset {err.start} "
                    f"of the line). Fix the file or train with errors='replace' (CLI: --errors replace) "
                    f"to turn undecodable bytes into U+FFFD."
                ) from None
    except OSError as err:
        raise CorpusError(f"{name}: read failed at line {lineno + 1} ({err.strerror or err})") from None
