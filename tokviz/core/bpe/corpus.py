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


def read_corpus_blocks(path: str | Path, errors: str = "strict", block_bytes: int = 1 << 20) -> Iterator[str]:
    """Like :func:`read_corpus` but yields blocks of whole lines (about ``block_bytes`` each).

    The trainer accepts these like lines (each block ends with ``\\n`` except possibly the last);
    decoding a megabyte at a time skips the per-line overhead, which matters for large files. A
    decoding error still names the line number.
    """
    if errors not in ("strict", "replace"):
        raise CorpusError(f"unknown errors mode {errors!r}: use 'strict' or 'replace'")
    name = "<stdin>" if str(path) == "-" else str(path)
    if str(path) == "-":
        return _decode_blocks(sys.stdin.buffer, name, errors, block_bytes)
    p = Path(path)
    if p.is_dir():
        raise CorpusError(f"{name} is a folder; give a text file (one document or one sentence per line)")
    try:
        f = open(p, "rb")
    except FileNotFoundError:
        raise CorpusError(f"{name}: no such file") from None
    except OSError as err:
        raise CorpusError(f"{name}: cannot read ({err.strerror or err})") from None
    return _closing_blocks(f, name, errors, block_bytes)


def _closing_blocks(f: BinaryIO, name: str, errors: str, block_bytes: int) -> Iterator[str]:
    with f:
        yield from _decode_blocks(f, name, errors, block_bytes)


def _decode_blocks(f: BinaryIO, name: str, errors: str, block_bytes: int) -> Iterator[str]:
    lines_before = 0
    rest = b""
    first = True
    try:
        while True:
            data = f.read(block_bytes)
            if not data:
                block, rest = rest, b""
            else:
                data = rest + data
                cut = data.rfind(b"\n") + 1
                if cut == 0:  # no newline yet: keep reading (one very long line)
                    rest = data
                    continue
                block, rest = data[:cut], data[cut:]
            if not block:
                return
            if first:
                first = False
                if block.startswith(_BOM):
                    block = block[len(_BOM):]
            try:
                yield block.decode("utf-8")
            except UnicodeDecodeError as err:
                if errors == "replace":
                    yield block.decode("utf-8", "replace")
                else:
                    line_start = block.rfind(b"\n", 0, err.start) + 1
                    lineno = lines_before + block.count(b"\n", 0, err.start) + 1
                    raise CorpusError(
                        f"{name}: line {lineno} is not valid UTF-8 (byte 0x{block[err.start]:02X} at byte offset "
                        f"{err.start - line_start} of the line). Fix the file or train with errors='replace' "
                        f"(CLI: --errors replace) to turn undecodable bytes into U+FFFD."
                    ) from None
            lines_before += block.count(b"\n")
            if not data:
                return
    except OSError as err:
        raise CorpusError(f"{name}: read failed after line {lines_before} ({err.strerror or err})") from None


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
