"""What tokviz counts as a word: one definition behind every words, fertility and continued-words number
(``tokviz encode/compare --json``, the Compare and Inspect stats, parity, the sweep, their CSVs).

A word is a run of non-whitespace characters, except that every Han, Hiragana or Katakana character
(and the prolonged sound mark ー) is a word by itself, and a run of punctuation alone is no word. So
Korean counts eojeol (``학교에서`` is one word), Chinese and Japanese count characters, ``,`` between
spaces counts nothing and an emoji counts one (docs/metrics.md gives the rule per script and the
references). Whitespace, punctuation and the ideographic scripts are the ``regex`` module's ``\\s``,
``\\p{P}`` and script properties.

The characters are classified with one lookup table over all code points (numpy), not a regular
expression: a regex with this rule took ~1 s per MB. Long texts are worked through in slices cut just
before a whitespace or ideographic character, which never lies inside a word, so no single call
holds the GIL for a multi-megabyte paste and every slice size gives the same words.

>>> [("나는 학교에서 공부합니다."[a:b]) for a, b in word_spans("나는 학교에서 공부합니다.")]
['나는', '학교에서', '공부합니다.']
>>> count_words("東京に行きます。"), count_words("Hello , world!")
(7, 2)
"""

from __future__ import annotations

from functools import cache

import numpy as np
import regex

from tokviz.core.encoding import Encoding

_IDEOGRAPHIC = r"\p{Han}\p{Hiragana}\p{Katakana}ー"
# character classes; a word is an IDEOGRAPH, or a run of PUNCTUATION/OTHER holding at least one OTHER
SPACE, IDEOGRAPH, PUNCTUATION, OTHER = 0, 1, 2, 3
_WORD_SLICE = 1 << 18  # characters per slice (before moving on to the next boundary)
_BOUNDARY = regex.compile(rf"[\s{_IDEOGRAPHIC}]")  # a slice may end just before one of these


@cache
def _class_table() -> np.ndarray:
    """The class of every code point (1.1 MB, built once in ~0.1 s). Later rows win: an ideographic
    character is a word even where a property also calls it punctuation."""
    table = np.full(0x110000, OTHER, dtype=np.uint8)
    every = np.arange(0x110000, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    for cls, pattern in ((PUNCTUATION, r"\p{P}+"), (SPACE, r"\s+"), (IDEOGRAPH, rf"[{_IDEOGRAPHIC}]+")):
        for m in regex.finditer(pattern, every):
            table[m.start() : m.end()] = cls
    return table


def _slice_bounds(part: str) -> tuple[np.ndarray, np.ndarray]:
    """Starts and ends of the words of one slice, in text order."""
    if not part:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    points = np.frombuffer(part.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    classes = _class_table()[points]
    in_run = (classes >= PUNCTUATION).view(np.int8)
    edges = np.diff(in_run, prepend=np.int8(0), append=np.int8(0))
    run_starts, run_ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    others = np.concatenate(([0], np.cumsum(classes == OTHER)))
    keep = others[run_ends] > others[run_starts]  # a run of punctuation alone is no word
    ideographs = np.flatnonzero(classes == IDEOGRAPH)
    starts = np.concatenate((run_starts[keep], ideographs))
    ends = np.concatenate((run_ends[keep], ideographs + 1))
    order = np.argsort(starts, kind="stable")
    return starts[order].astype(np.int64), ends[order].astype(np.int64)


def _slices(text: str):
    """``(offset, slice)`` pieces of ``text``, each about ``_WORD_SLICE`` characters, cut only just
    before a whitespace or ideographic character (so no word is cut in two)."""
    i = 0
    while i < len(text):
        cut = _BOUNDARY.search(text, i + _WORD_SLICE) if i + _WORD_SLICE < len(text) else None
        j = cut.start() if cut is not None else len(text)
        yield i, text[i:j]
        i = j


def word_bounds(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Start and end character offsets of the words of ``text``, as two int64 arrays in text order.

    >>> [a.tolist() for a in word_bounds("ab, 東京")]
    [[0, 4, 5], [3, 5, 6]]
    """
    parts = [(s + offset, e + offset) for offset, part in _slices(text) for s, e in [_slice_bounds(part)]]
    if not parts:
        return _slice_bounds("")
    return np.concatenate([s for s, _ in parts]), np.concatenate([e for _, e in parts])


def word_spans(text: str) -> list[tuple[int, int]]:
    """Character spans ``[start, end)`` of the words of ``text``.

    >>> word_spans("GPT-4 in 東京")
    [(0, 5), (6, 8), (9, 10), (10, 11)]
    """
    starts, ends = word_bounds(text)
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def count_words(text: str) -> int:
    """How many words ``text`` has (the module docstring's rule), slice by slice.

    >>> count_words("나는 학교에서  공부합니다.\\n  Hello, world! 。")
    5
    """
    return sum(len(_slice_bounds(part)[0]) for _, part in _slices(text))


def tokens_per_word(encoding: Encoding, spans) -> np.ndarray:
    """For each word, how many tokens overlap its characters. ``spans`` is a list of ``(start, end)``
    or a ``(starts, ends)`` pair of arrays as :func:`word_bounds` gives. Spans of tokens tile the
    text in order, so two binary searches per word suffice.

    >>> enc = Encoding.from_byte_tokens("demo", "ab c", [(1, b"a"), (2, b"b"), (1, b" c")])
    >>> tokens_per_word(enc, [(0, 2), (3, 4)]).tolist()
    [2, 1]
    """
    if isinstance(spans, tuple):
        starts, ends = spans
    else:
        if not spans:
            return np.zeros(0, dtype=np.int64)
        starts = np.asarray([a for a, _ in spans], dtype=np.int64)
        ends = np.asarray([b for _, b in spans], dtype=np.int64)
    # tokens that start before the word ends, minus those that end at or before it starts
    begun = np.searchsorted(encoding.start_array, ends, side="left")
    over = np.searchsorted(encoding.end_array, starts, side="right")
    return np.maximum(begun - over, 0)


def word_counts(encoding: Encoding) -> tuple[int, int]:
    """``(words, continued words)`` of an Encoding's text: continued words are those two or more
    tokens overlap (Rust et al. 2021). Worked slice by slice, like :func:`count_words`.

    >>> enc = Encoding.from_byte_tokens("demo", "lowest 東", [(1, b"low"), (2, b"est"), (3, " 東".encode())])
    >>> word_counts(enc)
    (2, 1)
    """
    words = continued = 0
    for offset, part in _slices(encoding.text):
        starts, ends = _slice_bounds(part)
        per_word = tokens_per_word(encoding, (starts + offset, ends + offset))
        words += len(per_word)
        continued += int((per_word > 1).sum())
    return words, continued
