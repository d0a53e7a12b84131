"""Numbers that summarize how an encoder split a text: the Compare panel's table, ``tokviz encode --json``.

Counting choices (the same everywhere tokviz shows a metric):

* ``characters`` are code points (``len(text)``), not grapheme clusters: 👨‍👩‍👧 counts 5.
* ``bytes`` are the UTF-8 bytes of the text.
* ``words`` are runs of non-whitespace separated by whitespace (``str.split()``). For Korean this
  counts eojeol (space-separated units such as ``학교에서``), which is how Korean is written and how
  fertility for Korean is usually reported; punctuation attached to a word is part of it.
* ``fertility`` is tokens per word.
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
from dataclasses import asdict, dataclass
from typing import Literal

from tokviz.core.encoding import Encoding

RATIO_DIGITS = 4


def _ratio(numerator: int, denominator: int) -> float:
    # An empty text has no tokens; a ratio of 0.0 reads better in a table than a crash or NaN.
    return numerator / denominator if denominator else 0.0


def count_words(text: str) -> int:
    """Whitespace-separated words (for Korean: eojeol).

    >>> count_words("나는 학교에서  공부합니다.\\n  Hello, world!")
    5
    """
    return len(text.split())


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

    def as_json(self) -> dict:
        """JSON-safe dict; ratios rounded to 4 decimal places."""
        out = asdict(self)
        for key in ("chars_per_token", "bytes_per_token", "fertility"):
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
    n_tokens = len(encoding.tokens)
    n_chars = len(text)
    n_bytes = encoding.byte_length
    n_words = count_words(text)
    kinds = [t.kind for t in encoding.tokens]
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
        partial_tokens=sum(1 for t in encoding.tokens if t.partial),
        fallback_tokens=kinds.count("byte_fallback"),
        unknown_tokens=kinds.count("unknown"),
        special_tokens=kinds.count("special"),
        round_trip=bool(round_trip),
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


def round_trip_diff(original: str, decoded: str) -> list[TextDifference]:
    """Where ``decoded`` differs from ``original`` (empty list when they are equal).

    SentencePiece's NFKC normalizer, for example, turns the full-width ``ｈ`` into ``h`` and an
    ``<unk>`` piece loses the character it stood for.

    >>> [d.describe() for d in round_trip_diff("ｈi 😀!", "hi  ⁇ !")]
    ["at 0: 'ｈ' became 'h'", "at 3: '😀' became ' ⁇ '"]
    """
    if original == decoded:
        return []
    # autojunk off: with it, frequent characters (spaces, common syllables) in texts over 200
    # characters are ignored and the reported spans become needlessly large.
    matcher = difflib.SequenceMatcher(None, original, decoded, autojunk=False)
    out: list[TextDifference] = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        out.append(TextDifference(op, a0, a1, b0, b1, original[a0:a1], decoded[b0:b1]))
    return out
