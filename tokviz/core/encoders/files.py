"""Reading model files safely: what every family's parser reads through.

Opening a file of any supported format as an Encoder is
:func:`tokviz.core.encoders.builtin.open_model_file`, which knows every family's loader.

Model files come from anywhere (a download, a mail attachment, a hostile folder), so everything here
reads with limits: only regular files (a FIFO would block forever, a device never ends), at most
:data:`MAX_MODEL_BYTES`, and JSON parsed with a nesting-depth and number-size limit. Every problem is
a ModelFileError naming the file.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import numpy as np

from tokviz.core.errors import ModelFileError, TokvizError
from tokviz.core.pretokenize import PATTERNS

HEAD_BYTES = 64 * 1024  # how much of a file every sniff sees

# The pattern used for formats that do not record their own pre-split (tiktoken rank files).
DEFAULT_PATTERN = "gpt4"
_WHOLE_TEXT = r"[\s\S]+"  # the "none" pattern for regex-based encoders: the whole text is one piece

# The largest model file tokviz reads. Real ones are far smaller (o200k_base.tiktoken: 3.6 MB, a
# 256k-piece SentencePiece model: ~5 MB, a big tokenizer.json: ~20 MB); past this a file is not a
# tokenizer, and reading it would only exhaust memory.
MAX_MODEL_BYTES = 512 * 1024 * 1024
# Formats parsed into Python objects (tokenizer.json, tekken.json, vocab.json, merges.txt) cost ~20x
# their size in memory (Llama 3's 9 MB tokenizer.json: 170 MB): the largest real ones are ~35 MB, and
# 128 MB keeps a hostile one near 2.5 GB.
MAX_TEXT_MODEL_BYTES = 128 * 1024 * 1024
# Entries a vocabulary may have (rank-file lines, GGUF token arrays): the largest real vocabularies
# have a few hundred thousand; each entry costs ~200 bytes of Python objects.
MAX_VOCAB_ENTRIES = 1 << 22
# Special tokens a format may announce without listing them (tekken's count): Llama 4 has 2,048,
# Mistral 1,000; tiktoken builds one regex over all of them, so an absurd count is an absurd regex.
MAX_SPECIAL_TOKENS = 1 << 16
# JSON limits: tokviz's formats nest 3 levels deep; ids and ranks fit in 32 bits.
MAX_JSON_DEPTH = 64
MAX_NUMBER_DIGITS = 20
MAX_TOKEN_ID = 2**31 - 1
# every ASCII digit as b"1", every other byte as b"0": a run of digits longer than the limit is then a substring
_DIGITS_AS_ONES = bytes(49 if 48 <= b <= 57 else 48 for b in range(256))


def pattern_regex(name: str | None) -> str:
    """The regex for pattern ``name`` (None = the GPT-4 pattern); raises TokvizError for unknown names.

    >>> pattern_regex("gpt2") == PATTERNS["gpt2"]
    True
    """
    key = DEFAULT_PATTERN if name is None else name
    if key not in PATTERNS:
        raise TokvizError(f"Unknown pre-split pattern {name!r}; choose one of: {', '.join(PATTERNS)}")
    regex = PATTERNS[key]
    return _WHOLE_TEXT if regex is None else regex


# ---- reading with limits -----------------------------------------------------------------------
def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_regular_file(path: str | Path, what: str = "a model file") -> os.stat_result:
    """``os.stat`` of ``path`` after checking it is a regular file; ModelFileError otherwise.

    Checked before anything opens the file: opening a FIFO for reading blocks until a writer comes.

    >>> check_regular_file("/dev/null", "a rank file")
    Traceback (most recent call last):
    ...
    tokviz.core.errors.ModelFileError: /dev/null: is a device, not a regular file; tokviz reads only regular files as a rank file
    """  # noqa: E501 (a doctest's expected output line cannot be wrapped)
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as err:
        raise ModelFileError(p, f"cannot read ({err.strerror or err})") from None
    if not stat.S_ISREG(st.st_mode):
        kind = _kind_of(st.st_mode)
        if kind == "a folder":
            raise ModelFileError(p, f"is a folder, not {what}")
        raise ModelFileError(p, f"is {kind}, not a regular file; tokviz reads only regular files as {what}")
    return st


def read_regular_file(path: str | Path, *, limit: int | None = None, what: str = "a model file") -> bytes:
    """The bytes of the regular file at ``path`` (at most ``limit``, default :data:`MAX_MODEL_BYTES`).

    FIFOs, devices, sockets and folders are refused before they are opened, the file is opened
    non-blocking (in case it was swapped for a FIFO after the check) and checked again on the open
    descriptor, and a file larger than the limit is refused without being read.
    """
    p = Path(path)
    limit = MAX_MODEL_BYTES if limit is None else limit
    st = check_regular_file(p, what)
    if st.st_size > limit:
        raise ModelFileError(p, f"is {st.st_size:,} bytes; tokviz reads at most {limit:,} bytes as {what}")
    return _read_checked(p, limit, what)


def read_head(path: str | Path, n: int = HEAD_BYTES, what: str = "a model file") -> bytes:
    """The first ``n`` bytes of the regular file at ``path`` (same checks as :func:`read_regular_file`)."""
    p = Path(path)
    check_regular_file(p, what)
    return _read_checked(p, n, what, whole=False)


def _read_checked(p: Path, limit: int, what: str, whole: bool = True) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(p, flags)
    except OSError as err:
        raise ModelFileError(p, f"cannot read ({err.strerror or err})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ModelFileError(p, f"is {_kind_of(st.st_mode)}, not a regular file; tokviz reads only regular "
                                    f"files as {what}")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1 if whole else limit)
    except OSError as err:
        raise ModelFileError(p, f"cannot read ({err.strerror or err})") from None
    except MemoryError:
        raise ModelFileError(p, f"is too large to read as {what}") from None
    finally:
        os.close(fd)
    if whole and len(data) > limit:
        raise ModelFileError(p, f"is more than {limit:,} bytes; tokviz reads at most that as {what}")
    return data


def read_model_text(path: str | Path, *, limit: int | None = None, what: str = "a model file") -> str:
    """The regular file at ``path`` as strict UTF-8 text (a leading BOM is kept for the parser to see)."""
    p = Path(path)
    data = read_regular_file(p, limit=limit, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ModelFileError(p, f"is not UTF-8 text (byte {err.start})") from None


def parse_json(text: str, path: str | Path, *, max_depth: int = MAX_JSON_DEPTH) -> object:
    """JSON with limits: nesting at most ``max_depth``, integers of at most :data:`MAX_NUMBER_DIGITS`
    digits, finite floats only (``Infinity``/``NaN`` are refused). ModelFileError otherwise.

    Without them a hostile file turns into RecursionError (``[[[[...``), ValueError (a 5000-digit
    integer exceeds Python's int-string limit) or OverflowError (``1e999`` as a rank).

    >>> parse_json('{"a": [1, 2.5]}', "m.json")
    {'a': [1, 2.5]}
    >>> parse_json("[" * 100 + "]" * 100, "m.json")
    Traceback (most recent call last):
    ...
    tokviz.core.errors.ModelFileError: m.json: JSON nested deeper than 64 levels; not a tokenizer file
    """
    p = Path(path)
    depth = _json_depth(text)
    if depth > max_depth:
        raise ModelFileError(p, f"JSON nested deeper than {max_depth} levels; not a tokenizer file")

    def parse_int(s: str) -> int:
        if len(s.lstrip("-")) > MAX_NUMBER_DIGITS:
            raise ModelFileError(p, f"holds a {len(s.lstrip('-'))}-digit number; ids and ranks have at most "
                                    f"{MAX_NUMBER_DIGITS} digits")
        return int(s)

    def parse_float(s: str) -> float:
        value = float(s)
        if value in (float("inf"), float("-inf")):
            raise ModelFileError(p, f"holds the number {s[:40]}, too large to be an id, rank or score")
        return value

    def parse_constant(name: str) -> float:
        raise ModelFileError(p, f"holds {name}, which is not a JSON number (an id, rank or score must be finite)")

    # A Python call per integer was ~15% of loading a 150k-rank tekken.json: where no run of digits anywhere
    # in the text is longer than the limit, no integer can be, and json reads them at C speed.
    long_digits = b"1" * (MAX_NUMBER_DIGITS + 1) in text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ONES)
    ints = parse_int if long_digits else int
    try:
        return json.loads(text, parse_int=ints, parse_float=parse_float, parse_constant=parse_constant)
    except json.JSONDecodeError as err:
        raise ModelFileError(p, f"is not valid JSON ({err.msg} at line {err.lineno}, column {err.colno})") from None
    except RecursionError:  # a bound above the depth check, should the check ever be loosened
        raise ModelFileError(p, "JSON nested too deeply; not a tokenizer file") from None
    except ValueError as err:  # Python's own limit on converting long digit strings
        raise ModelFileError(p, f"holds a number JSON cannot read here ({err})") from None


# The depth scan works on a file's bytes with numpy, a slice at a time: the regex that blanked every
# string first took 0.6 s of a 19 MB tekken.json's 1 s load. A slice bounds the position arrays
# whatever the file holds.
_DEPTH_SLICE = 1 << 23
_NESTING_STEP = np.zeros(256, dtype=np.int8)
_NESTING_STEP[[ord("["), ord("{")]] = 1
_NESTING_STEP[[ord("]"), ord("}")]] = -1


def _escaped_quotes(part: np.ndarray, quotes: np.ndarray, carried: int) -> tuple[np.ndarray, int]:
    """Which of ``quotes`` (positions in ``part``) follow an odd run of backslashes (``\\"`` inside a
    string), given the run of ``carried`` backslashes the previous slice ended with; and the run this
    slice ends with."""
    at_start = (quotes == 0) & bool(carried & 1)
    slashes = np.flatnonzero(part == 92)
    if not len(slashes):
        return at_start, 0
    first = np.zeros(len(slashes), dtype=np.intp)  # per backslash: the index of its run's first backslash
    starts = np.flatnonzero(np.diff(slashes) != 1) + 1
    first[starts] = starts
    np.maximum.accumulate(first, out=first)
    run = slashes - slashes[first] + 1 + np.where(slashes[first] == 0, carried, 0)
    before = np.maximum(np.searchsorted(slashes, quotes) - 1, 0)  # the last backslash before each quote
    escaped = (slashes[before] == quotes - 1) & (run[before] % 2 == 1)
    return escaped | at_start, int(run[-1]) if slashes[-1] == len(part) - 1 else 0


def _json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings (a linear scan, no recursion).

    >>> _json_depth('{"a": [1, "]]", {"b": "\\\\"}]}')
    3
    """
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    in_string = depth = deepest = run = 0
    for at in range(0, len(data), _DEPTH_SLICE):
        part = data[at : at + _DEPTH_SLICE]
        quotes = np.flatnonzero(part == 34)
        escaped, run = _escaped_quotes(part, quotes, run)
        quotes = quotes[~escaped]
        steps = _NESTING_STEP[part]
        brackets = np.flatnonzero(steps)
        outside = (np.searchsorted(quotes, brackets) + in_string) % 2 == 0  # an even number of quotes before it
        levels = np.cumsum(steps[brackets[outside]], dtype=np.int64) + depth
        if len(levels):
            deepest, depth = max(deepest, int(levels.max())), int(levels[-1])
        in_string = (in_string + len(quotes)) % 2
    return deepest


def checked_id(value: object, path: str | Path, what: str) -> int:
    """``value`` as a token id or rank: an int (not a bool) in ``0..MAX_TOKEN_ID``; ModelFileError otherwise.

    >>> checked_id(7, "m", "rank")
    7
    >>> checked_id(4_000_000_000, "m", "rank")
    Traceback (most recent call last):
    ...
    tokviz.core.errors.ModelFileError: m: rank 4000000000 is out of range (0..2147483647)
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelFileError(path, f"{what} {str(value)[:40]!r} is not a whole number")
    if not 0 <= value <= MAX_TOKEN_ID:
        raise ModelFileError(path, f"{what} {value} is out of range (0..{MAX_TOKEN_ID})")
    return value
