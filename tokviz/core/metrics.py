"""Numbers that summarize how an encoder split a text: the Compare panel's table, ``tokviz encode --json``.

Counting choices (the same everywhere tokviz shows a metric):

* ``characters`` are code points (``len(text)``): 👨‍👩‍👧 counts 5. ``graphemes`` counts what a
  reader sees as characters (extended grapheme clusters): 👨‍👩‍👧 counts 1.
* ``bytes`` are the UTF-8 bytes of the text.
* ``words`` follow one rule per script (:mod:`tokviz.core.words`, docs/metrics.md), the same as
  parity's and the sweep's: Korean counts eojeol (space-separated units such as ``학교에서``),
  Chinese and Japanese count characters, a run of punctuation alone is no word.
* ``fertility`` is tokens per word; ``continued_words`` are the words two or more tokens overlap.
* ``partial_tokens`` are tokens that start or end inside a character (a Hangul syllable's three
  UTF-8 bytes cut between two tokens, for example).

>>> from tokviz.core.encoding import Encoding
>>> enc = Encoding.from_byte_tokens("demo", "안녕 hi", [(1, "안".encode()), (2, b"\\xeb\\x85"),
...                                                     (3, b"\\x95"), (4, b" hi")])
>>> m = measure(enc)
>>> (m.tokens, m.characters, m.bytes, m.words, m.partial_tokens, m.round_trip)
(4, 5, 9, 2, 2, True)
>>> m.as_json()["bytes_per_token"]
2.25
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Literal

import regex

from tokviz.core.encoding import Encoding
from tokviz.core.words import word_counts

RATIO_DIGITS = 4


def _ratio(numerator: int, denominator: int) -> float:
    # An empty text has no tokens; a ratio of 0.0 reads better in a table than a crash or NaN.
    return numerator / denominator if denominator else 0.0


_GRAPHEME = regex.compile(r"\X")
# Characters that can join the character before them into one cluster (UAX #29 rules GB3-GB13:
# CR LF, marks and other extenders, ZWJ, prepended marks, regional-indicator pairs, conjoining
# Hangul jamo). A text without any of them has one cluster per code point.
_JOINING = regex.compile(
    r"[\r\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}\p{GCB=Prepend}"
    r"\p{GCB=Regional_Indicator}\p{GCB=L}\p{GCB=V}\p{GCB=T}]"
)


def count_graphemes(text: str) -> int:
    """Extended grapheme clusters (what a reader counts as characters).

    >>> count_graphemes("👨\u200d👩\u200d👧 각"), len("👨\u200d👩\u200d👧 각")
    (3, 7)
    """
    if next(_joining_matches(text), None) is None:
        return len(text)  # 20x faster than walking the clusters; most plain text takes this path
    return _count_clusters(text)


def grapheme_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every extended grapheme cluster, as ``regex`` ``\\X`` finds them.

    Only the places near a character that can join a neighbour are walked with ``\\X``; the rest
    are one cluster per code point (10,000 mixed characters: ~7 ms -> ~1 ms). Two characters
    neither of which can join always have a boundary between them, so each walked window starts
    and ends on a boundary and gives the same clusters as walking the whole text.

    >>> grapheme_spans("a👍🏽b\\r\\n")
    [(0, 1), (1, 3), (3, 4), (4, 6)]
    """
    n = len(text)
    out: list[tuple[int, int]] = []
    pos = 0
    for w0, w1 in _joining_windows(text):
        out += zip(range(pos, w0), range(pos + 1, w0 + 1), strict=True)
        out += [m.span() for m in _GRAPHEME.finditer(text, w0, w1)]
        pos = w1
    out += zip(range(pos, n), range(pos + 1, n + 1), strict=True)
    return out


def _joining_windows(text: str):
    """Windows [w0, w1) around the characters that can join a neighbour, in order, each starting
    and ending on a cluster boundary (outside them every code point is its own cluster)."""
    n = len(text)
    pos = 0
    matches = _joining_matches(text)
    m = next(matches, None)
    while m is not None:
        first = last = m.start()
        m = next(matches, None)
        while m is not None and m.start() <= last + 2:  # one plain character between: same window
            last = m.start()
            m = next(matches, None)
        w0, w1 = max(pos, first - 1), min(n, last + 2)
        yield w0, w1
        pos = w1


_JOINING_SLICE = 1 << 17  # characters per regex call (~8 ms; one call holds the GIL throughout)


def _joining_matches(text: str):
    """``_JOINING.finditer(text)``, searched a slice at a time: one search through 8 million characters
    with none of them held the GIL for ~0.5 s (the Inspector's GUI thread waited). The pattern matches
    single characters, so a slice edge never cuts a match."""
    for a in range(0, len(text), _JOINING_SLICE):
        yield from _JOINING.finditer(text, a, a + _JOINING_SLICE)


@lru_cache(maxsize=8)
def _count_clusters(text: str) -> int:
    # Compare measures the same text once per encoder: walking 10,000 mixed characters takes ~6 ms,
    # so five encoders paid ~30 ms for one number. A str caches its hash, so a hit costs nothing.
    # Only the windows around joining characters are walked; outside them a code point is a cluster.
    count = len(text)
    for w0, w1 in _joining_windows(text):
        count -= (w1 - w0) - len(_GRAPHEME.findall(text, w0, w1))
    return count


@dataclass(frozen=True)
class Metrics:
    """Summary of one Encoding. Build it with :func:`measure`."""

    encoder: str
    tokens: int
    characters: int
    bytes: int
    words: int
    chars_per_token: float
    bytes_per_token: float
    fertility: float  # tokens per word
    partial_tokens: int
    fallback_tokens: int  # kind == "byte_fallback" (SentencePiece <0xNN> pieces)
    unknown_tokens: int
    special_tokens: int
    round_trip: bool
    graphemes: int = 0  # user-perceived characters (regex \\X)
    continued_words: int = 0  # words that two or more tokens overlap

    @property
    def continued_share(self) -> float:
        return _ratio(self.continued_words, self.words)

    def as_json(self) -> dict:
        """JSON-safe dict; ratios rounded to 4 decimal places."""
        out = asdict(self)
        out["continued_share"] = self.continued_share
        for key in ("chars_per_token", "bytes_per_token", "fertility", "continued_share"):
            out[key] = round(out[key], RATIO_DIGITS)
        return out


def measure(encoding: Encoding, decoded: str | None = None) -> Metrics:
    """Metrics of ``encoding``.

    ``decoded`` is what the encoder's ``decode(ids)`` gave back; when given, ``round_trip`` says
    whether it equals the original text exactly. Without it, ``round_trip`` says whether the token
    bytes join to the text's UTF-8 (true for byte-level encoders, false when a normalizer changed
    the text or tokens skip parts of it).
    """
    text = encoding.text
    n_tokens = len(encoding)
    n_chars = len(text)
    n_bytes = encoding.byte_length
    n_words, n_continued = word_counts(encoding)
    kinds = encoding.kind_counts()
    round_trip = (decoded == text) if decoded is not None else encoding.round_trip_exact()
    return Metrics(
        encoder=encoding.encoder,
        tokens=n_tokens,
        characters=n_chars,
        bytes=n_bytes,
        words=n_words,
        chars_per_token=_ratio(n_chars, n_tokens),
        bytes_per_token=_ratio(n_bytes, n_tokens),
        fertility=_ratio(n_tokens, n_words),
        partial_tokens=int(encoding.partial_array.sum()),
        fallback_tokens=kinds["byte_fallback"],
        unknown_tokens=kinds["unknown"],
        special_tokens=kinds["special"],
        round_trip=bool(round_trip),
        graphemes=count_graphemes(text),
        continued_words=n_continued,
    )


DiffOp = Literal["replace", "delete", "insert"]


@dataclass(frozen=True)
class TextDifference:
    """One place where a decoded text differs from the original.

    ``[start, end)`` is the character span in the original, ``[decoded_start, decoded_end)`` the
    span in the decoded text; ``original`` / ``decoded`` hold the differing text of each side.
    """

    op: DiffOp
    start: int
    end: int
    decoded_start: int
    decoded_end: int
    original: str
    decoded: str

    def describe(self) -> str:
        """One line for a tooltip or the CLI, e.g. ``at 3: 'ｈ' became 'h'``."""
        if self.op == "delete":
            return f"at {self.start}: {self.original!r} was lost"
        if self.op == "insert":
            return f"at {self.start}: {self.decoded!r} was added"
        return f"at {self.start}: {self.original!r} became {self.decoded!r}"

    def as_json(self) -> dict:
        return asdict(self)


# Splitting levels for round_trip_diff: lines, then words, then characters. difflib's matcher is
# quadratic in the worst case on long sequences of few distinct items (a character diff of a 10k
# character text took seconds, 100k took minutes); lines and words are many distinct items, so
# those levels stay fast and only small changed blocks are diffed character by character.
_UNIT_SPLITTERS = (
    re.compile(r"[^\n]*\n|[^\n]+"),  # lines, each with its newline
    re.compile(r"\s+|\S+\s*"),  # words with their trailing whitespace
)
CHAR_DIFF_LIMIT = 4_000  # longest side diffed character by character


def _common_affixes(a: str, b: str) -> tuple[int, int]:
    n = min(len(a), len(b))
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and a[len(a) - 1 - s] == b[len(b) - 1 - s]:
        s += 1
    return p, s


def _diff_block(a: str, b: str, a0: int, b0: int, level: int, out: list[TextDifference]) -> None:
    """Append the differences between ``a`` and ``b`` (which start at ``a0`` / ``b0``)."""
    p, s = _common_affixes(a, b)
    a, b = a[p : len(a) - s], b[p : len(b) - s]
    a0, b0 = a0 + p, b0 + p
    if not a and not b:
        return
    if not a or not b:
        out.append(TextDifference("insert" if not a else "delete", a0, a0 + len(a), b0, b0 + len(b), a, b))
        return
    if max(len(a), len(b)) <= CHAR_DIFF_LIMIT:
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "equal":
                out.append(TextDifference(op, a0 + i1, a0 + i2, b0 + j1, b0 + j2, a[i1:i2], b[j1:j2]))
        return
    if level >= len(_UNIT_SPLITTERS):
        # one huge changed run without lines or spaces: report it whole rather than stall
        out.append(TextDifference("replace", a0, a0 + len(a), b0, b0 + len(b), a, b))
        return
    split = _UNIT_SPLITTERS[level]
    ua, ub = split.findall(a), split.findall(b)
    if len(ua) == 1 and len(ub) == 1:
        _diff_block(a, b, a0, b0, level + 1, out)
        return
    oa, ob = _offsets(ua), _offsets(ub)
    matcher = difflib.SequenceMatcher(None, ua, ub, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal":
            _diff_block(a[oa[i1] : oa[i2]], b[ob[j1] : ob[j2]], a0 + oa[i1], b0 + ob[j1], level + 1, out)


def _offsets(units: list[str]) -> list[int]:
    offsets = [0]
    for u in units:
        offsets.append(offsets[-1] + len(u))
    return offsets


def round_trip_diff(original: str, decoded: str) -> list[TextDifference]:
    """Where ``decoded`` differs from ``original`` (empty list when they are equal).

    SentencePiece's NFKC normalizer, for example, turns the full-width ``ｈ`` into ``h`` and an
    ``<unk>`` piece loses the character it stood for. Texts are compared line by line, then word by
    word, then character by character inside the changed parts, so long texts stay fast; a single
    changed run longer than ``CHAR_DIFF_LIMIT`` characters with no line break or space in it is
    reported as one replacement.

    >>> [d.describe() for d in round_trip_diff("ｈi 😀!", "hi  ⁇ !")]
    ["at 0: 'ｈ' became 'h'", "at 3: '😀' became ' ⁇ '"]
    """
    out: list[TextDifference] = []
    if original != decoded:
        _diff_block(original, decoded, 0, 0, 0, out)
    return out
