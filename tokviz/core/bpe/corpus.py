"""Reading a training corpus: stream lines from a file (or stdin) of any size, decoded strictly.

Lines keep their ``\\n`` so the trainer sees the file as one document (the GPT-4 pattern treats
``"\\n\\n"`` differently from two separate ``"\\n"``). Decoding is strict by default: a corpus with
broken UTF-8 stops with a message naming the line and byte, and ``errors="replace"`` is the explicit
way to go on (each undecodable byte becomes U+FFFD).
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from tokviz.core.errors import CorpusError

_BOM = b"\xef\xbb\xbf"

# A line longer than this is handed on in parts, so a file with one enormous line (no newline in a
# gigabyte) still streams in bounded memory and the trainer can notice a cancel between the parts.
LINE_PART_BYTES = 1 << 20


class LinePart(str):
    """A piece of a line that continues in the next item (a very long line, cut at a character
    boundary). The trainer glues it to what follows instead of ending the line there.

    >>> LinePart("abc") == "abc", isinstance(LinePart("abc"), str)
    (True, True)
    """

    __slots__ = ()


def line_pieces(line: str, size: int) -> Iterator[str]:
    """``line`` (an item of the trainer's input: a line, or a block of lines) in pieces of at most
    ``size`` characters that the trainer reads as the same text: cut after a newline where there is
    one, else marked :class:`LinePart`; the last piece keeps the item's own kind.

    >>> [(type(p).__name__, p) for p in line_pieces("ab\\ncdefg\\nh", 4)]
    [('str', 'ab\\n'), ('LinePart', 'cdef'), ('str', 'g\\nh')]
    """
    n = len(line)
    if n <= size:
        yield line
        return
    start = 0
    while n - start > size:
        end = line.rfind("\n", start, start + size) + 1
        if end <= start:
            end = start + size
            yield LinePart(line[start:end])
        else:
            yield line[start:end]
        start = end
    rest = line[start:]
    yield LinePart(rest) if type(line) is LinePart else rest


def _char_boundary(data: bytes) -> int:
    """Length of the longest prefix of ``data`` that does not end inside a UTF-8 character.

    >>> _char_boundary("가나".encode()[:5])
    3
    """
    i = len(data)
    # step back over at most 3 continuation bytes to the lead byte of the last character
    j = i - 1
    while j >= 0 and i - j <= 4 and 0x80 <= data[j] < 0xC0:
        j -= 1
    if j < 0 or data[j] < 0xC0:
        return i  # ASCII or a stray continuation byte: nothing to hold back (decoding will judge)
    need = 2 if data[j] < 0xE0 else 3 if data[j] < 0xF0 else 4
    return i if i - j >= need else j


def read_corpus(path: str | Path, errors: str = "strict") -> Iterator[str]:
    """Stream the lines of the corpus at ``path`` (``"-"`` = stdin) as text, each with its ``\\n``.

    ``errors`` is ``"strict"`` (invalid UTF-8 raises CorpusError naming the line number and the byte)
    or ``"replace"`` (invalid bytes become U+FFFD). A UTF-8 byte order mark at the start is dropped.
    The file is read line by line, so a corpus of any size streams in constant memory; a line longer
    than ``LINE_PART_BYTES`` arrives as :class:`LinePart` pieces (cut between characters).

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
    return _closing_lines(_open_regular(Path(path), name), name, errors)


def read_corpus_blocks(path: str | Path, errors: str = "strict", block_bytes: int = 1 << 20) -> Iterator[str]:
    """Like :func:`read_corpus` but yields blocks of whole lines (about ``block_bytes`` each; a
    longer line arrives as :class:`LinePart` blocks).

    The trainer accepts these like lines (each block ends with ``\\n`` except possibly the last);
    decoding a megabyte at a time skips the per-line overhead, which matters for large files. A
    decoding error still names the line number.
    """
    if errors not in ("strict", "replace"):
        raise CorpusError(f"unknown errors mode {errors!r}: use 'strict' or 'replace'")
    name = "<stdin>" if str(path) == "-" else str(path)
    if str(path) == "-":
        return _decode_blocks(sys.stdin.buffer, name, errors, block_bytes)
    return _closing_blocks(_open_regular(Path(path), name), name, errors, block_bytes)


def _closing_blocks(f: BinaryIO, name: str, errors: str, block_bytes: int) -> Iterator[str]:
    with f:
        yield from _decode_blocks(f, name, errors, block_bytes)


def _decode_blocks(f: BinaryIO, name: str, errors: str, block_bytes: int) -> Iterator[str]:
    lines_before = 0
    line_bytes = 0  # bytes of the current line already handed on in LinePart blocks
    rest = b""
    first = True
    try:
        while True:
            data = f.read(block_bytes)
            partial = False
            if not data:
                block, rest = rest, b""
            else:
                data = rest + data  # rest holds less than one line's tail: no quadratic growth
                cut = data.rfind(b"\n", len(rest)) + 1
                if cut == 0:
                    # no newline in this read: part of one long line. Hand it on, cut at a character
                    # boundary, rather than buffering the whole line.
                    cut = _char_boundary(data)
                    partial = True
                block, rest = data[:cut], data[cut:]
            if not block:
                if not data:
                    return
                continue
            if first:
                first = False
                block = block.removeprefix(_BOM)
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError as err:
                if errors != "replace":
                    line_start = block.rfind(b"\n", 0, err.start) + 1
                    lineno = lines_before + block.count(b"\n", 0, err.start) + 1
                    offset = err.start - line_start + (line_bytes if line_start == 0 else 0)
                    raise CorpusError(
                        f"{name}: line {lineno} is not valid UTF-8 (byte 0x{block[err.start]:02X} at byte offset "
                        f"{offset} of the line). Fix the file or train with errors='replace' "
                        f"(CLI: --errors replace) to turn undecodable bytes into U+FFFD."
                    ) from None
                text = block.decode("utf-8", "replace")
            yield LinePart(text) if partial else text
            if partial:
                line_bytes += len(block)
            else:
                lines_before += block.count(b"\n")
                line_bytes = 0
            if not data:
                return
    except OSError as err:
        raise CorpusError(f"{name}: read failed after line {lines_before} ({err.strerror or err})") from None


def _open_regular(p: Path, name: str) -> BinaryIO:
    """``p`` opened for reading, when it is a regular file. Opening a FIFO for reading waits for a
    writer (forever, if none comes), so the file is opened without waiting and refused unless
    regular: folders, FIFOs, devices and sockets are a CorpusError."""
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise CorpusError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise CorpusError(f"{name} is a folder; give a text file (one document or one sentence per line)") from None
    except OSError as err:
        raise CorpusError(f"{name}: cannot read ({err.strerror or err})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise CorpusError(f"{name} is a folder; give a text file (one document or one sentence per line)")
        what = "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a device or socket, not a regular file"
        raise CorpusError(f"{name} is {what}; give a text file, or - to read standard input")
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def utf8_length(text: str) -> int:
    """Bytes of ``text`` as UTF-8; a lone surrogate (which has no UTF-8) is a CorpusError.

    >>> utf8_length("안녕 ok")
    9
    """
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError as err:
        raise CorpusError(
            f"The corpus contains a lone surrogate U+{ord(text[err.start]):04X} (half of a broken emoji); "
            f"it cannot be encoded as UTF-8. Replace it before training."
        ) from None


_WHITESPACE = re.compile(r"\s")  # the characters str.isspace() accepts


def last_space_end(text: str) -> int:
    """The index just after the last whitespace character of ``text`` (0 when it has none).
    Searched from the end in C: a 50 MB line without a space took minutes one character at a time.

    >>> last_space_end("ab cd"), last_space_end("abcd")
    (3, 0)
    """
    found = _WHITESPACE.search(text[::-1])
    return len(text) - found.start() if found else 0


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
    line_bytes = 0  # bytes of the current line already handed on as LinePart
    carry = b""  # the start of a character cut by the read limit
    first = True
    try:
        while True:
            raw = f.readline(LINE_PART_BYTES)
            if not raw:
                if not carry:
                    return
                raw, carry = carry, b""
                partial = False
            else:
                raw = carry + raw
                carry = b""
                partial = not raw.endswith(b"\n") and len(raw) >= LINE_PART_BYTES
                if partial:
                    keep = _char_boundary(raw)
                    raw, carry = raw[:keep], raw[keep:]
            if first:
                first = False
                raw = raw.removeprefix(_BOM)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                if errors != "replace":
                    bad = raw[err.start]
                    raise CorpusError(
                        f"{name}: line {lineno + 1} is not valid UTF-8 (byte 0x{bad:02X} at byte offset "
                        f"{line_bytes + err.start} of the line). Fix the file or train with errors='replace' "
                        f"(CLI: --errors replace) to turn undecodable bytes into U+FFFD."
                    ) from None
                text = raw.decode("utf-8", "replace")
            if partial:
                line_bytes += len(raw)
                yield LinePart(text)
            else:
                lineno += 1
                line_bytes = 0
                yield text
    except OSError as err:
        raise CorpusError(f"{name}: read failed at line {lineno + 1} ({err.strerror or err})") from None
