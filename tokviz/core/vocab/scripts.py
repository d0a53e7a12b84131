"""Which script a token belongs to, for a per-script census of a vocabulary.

A token's script is read from its letters, ignoring spaces and punctuation around them, so `` 생각``
and ``생각.`` are Hangul. Bytes that are not valid UTF-8 are ``partial`` (byte-level tokens that hold
part of a character). The classes:

>>> [script_of(t) for t in (" 생각".encode(), b" the", "中文".encode(), b"2024", b"    ", b"\\xea\\xb2")]
['hangul', 'latin', 'cjk', 'digits', 'whitespace/code', 'partial']
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

SCRIPTS = ("hangul", "latin", "cjk", "digits", "whitespace/code", "partial", "other")


@lru_cache(maxsize=65_536)  # a census asks for millions of characters, a few thousand distinct ones
def _letter_script(ch: str) -> str:
    cp = ord(ch)
    if 0xAC00 <= cp <= 0xD7A3 or 0x1100 <= cp <= 0x11FF or 0x3130 <= cp <= 0x318F or 0xA960 <= cp <= 0xA97F \
            or 0xD7B0 <= cp <= 0xD7FF:
        return "hangul"
    if cp < 0x250 or 0x1E00 <= cp <= 0x1EFF:
        return "latin"
    if 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x3040 <= cp <= 0x30FF or 0x20000 <= cp <= 0x2FFFF \
            or 0xF900 <= cp <= 0xFAFF:
        return "cjk"
    return "other"


@lru_cache(maxsize=65_536)
def _char_script(ch: str) -> str | None:
    """A letter's or mark's script, None for any other character."""
    return _letter_script(ch) if unicodedata.category(ch)[0] in "LM" else None


_ASCII_LETTER = re.compile(rb"[A-Za-z]")


def script_of(data: bytes) -> str:
    """The script class of one token's bytes (see :data:`SCRIPTS` and the module docstring)."""
    if data.isascii():  # most of a vocabulary: its only letters are Latin (a census of 200k tokens took 2 s)
        if _ASCII_LETTER.search(data):
            return "latin"
        letters = set()
        text = data.decode("ascii")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return "partial"
        letters = set(map(_char_script, text))
        letters.discard(None)
    if len(letters) == 1:
        return letters.pop()
    if letters:
        return "other"
    core = text.strip()
    if core and all(ch.isdigit() for ch in core):
        return "digits"
    if all(ch.isspace() or (ch.isascii() and ch.isprintable()) for ch in text):
        return "whitespace/code"
    return "other"


def census(tokens: Iterable[bytes]) -> dict[str, int]:
    """How many tokens of each script class, every class listed (0 when none).

    >>> census([b"a", b" b", "값".encode()])["latin"]
    2
    """
    counts = Counter(script_of(t) for t in tokens)
    return {s: counts.get(s, 0) for s in SCRIPTS}
