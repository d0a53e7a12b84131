"""The one data model every view renders: an Encoding is a text plus the tokens that cover it.

Each token knows its id, its exact bytes, the byte span ``[byte_start, byte_end)`` it covers in the
text's UTF-8, the character span ``[start, end)`` of the characters those bytes touch, and whether it
starts or ends inside a character (``partial``). For byte-level encoders the byte spans tile the text
and the token bytes join to the text's UTF-8 exactly.

>>> enc = Encoding.from_byte_tokens("demo", "안!", [(1, b"\\xec\\x95"), (2, b"\\x88!")])
>>> [(t.start, t.end, t.partial, t.piece) for t in enc.tokens]
[(0, 1, True, None), (0, 2, True, None)]
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate, compress
from typing import Iterable, Literal, NamedTuple, Sequence

from tokviz.core.errors import TokvizError, check_text

TokenKind = Literal["normal", "special", "byte_fallback", "unknown"]


class Token(NamedTuple):
    """One token of an Encoding.

    ``bytes`` are the token's own bytes (for SentencePiece: ``▁`` as a space, ``<0xNN>`` as the byte).
    ``raw`` is the encoder's own surface form when it has one (SentencePiece piece ``▁안녕``), else None.
    ``kind`` marks special tokens, byte-fallback pieces and unknown pieces.

    A NamedTuple rather than a frozen dataclass: encodings of long texts build hundreds of thousands
    of tokens, and a frozen dataclass's ``__init__`` made construction ~4x slower.
    """

    id: int
    bytes: bytes
    byte_start: int
    byte_end: int
    start: int
    end: int
    partial: bool
    kind: TokenKind = "normal"
    raw: str | None = None

    @property
    def piece(self) -> str | None:
        """The token's text, or None when it holds only part of a character."""
        if self.partial:
            return None
        try:
            return self.bytes.decode("utf-8")
        except UnicodeDecodeError:  # bytes that do not form whole characters on their own
            return None

    @property
    def byte_len(self) -> int:
        return self.byte_end - self.byte_start


class EncodingMismatch(TokvizError):
    """An encoder's tokens do not reproduce the text (a bug in an adapter, never user error)."""


def _raise_mismatch(encoder: str, data: bytes, pairs: Sequence[tuple[int, bytes]]) -> None:
    pos = 0
    for i, (tid, tb) in enumerate(pairs):
        if data[pos : pos + len(tb)] != tb:
            raise EncodingMismatch(
                f"{encoder}: token {i} (id {tid}, bytes {tb.hex(' ')}) does not match the text at byte {pos}"
            )
        pos += len(tb)
    raise EncodingMismatch(f"{encoder}: tokens cover {pos} of {len(data)} bytes")


@dataclass(frozen=True)
class Encoding:
    """A text and its tokens. Build byte-level encodings with :meth:`from_byte_tokens`."""

    encoder: str
    text: str
    tokens: tuple[Token, ...]
    # The text the encoder actually saw, when it normalizes (SentencePiece NFKC); None = ``text``.
    normalized_text: str | None = None

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def from_byte_tokens(
        cls,
        encoder: str,
        text: str,
        tokens: Iterable[tuple[int, bytes]],
        kinds: Sequence[TokenKind] | None = None,
        raws: Sequence[str | None] | None = None,
    ) -> "Encoding":
        """Encoding from ``(id, bytes)`` pairs whose bytes join to ``text``'s UTF-8 exactly.

        Raises InvalidTextError for a lone surrogate and EncodingMismatch if the bytes do not join
        to the text.
        """
        data = check_text(text)
        pairs = tokens if isinstance(tokens, (list, tuple)) else list(tokens)
        if b"".join(tb for _, tb in pairs) != data:
            _raise_mismatch(encoder, data, pairs)
        n = len(pairs)
        kinds = kinds if kinds is not None else ("normal",) * n
        raws = raws if raws is not None else (None,) * n
        out: list[Token] = []
        append = out.append
        new = tuple.__new__  # Token(...) without the NamedTuple's Python-level __new__ frame
        pos = 0
        if len(data) == len(text):  # ASCII: byte offsets are character offsets, nothing is cut
            for (tid, tb), kind, raw in zip(pairs, kinds, raws):
                end = pos + len(tb)
                append(new(Token, (tid, tb, pos, end, pos, end, False, kind, raw)))
                pos = end
            return cls(encoder, text, tuple(out))
        starts = char_byte_starts(text, data)
        right, left = bisect.bisect_right, bisect.bisect_left
        for (tid, tb), kind, raw in zip(pairs, kinds, raws):
            end = pos + len(tb)
            c0 = right(starts, pos) - 1
            c1 = left(starts, end, c0)
            append(new(Token, (tid, tb, pos, end, c0, c1, starts[c0] != pos or starts[c1] != end, kind, raw)))
            pos = end
        return cls(encoder, text, tuple(out))

    @classmethod
    def from_spans(
        cls,
        encoder: str,
        text: str,
        tokens: Iterable[tuple[int, bytes, int, int, TokenKind, str | None]],
        normalized_text: str | None = None,
    ) -> "Encoding":
        """Encoding from ``(id, bytes, byte_start, byte_end, kind, raw)`` with explicit byte spans into
        ``text``'s UTF-8, for encoders whose tokens do not tile the text: char-mode BPE skips the
        whitespace between words, SentencePiece's dummy prefix covers no text (empty span) and its
        normalizer may change what the pieces say. Spans must be ordered and must not overlap.
        """
        data = check_text(text)
        total = len(data)
        # is_start[b]: byte b starts a character; char_at[b]: the character holding byte b. Two C-level
        # scans instead of two bisections per token (a 10,000-character text: 20 ms -> 6 ms).
        is_start = data.translate(_STARTS_CHAR) + b"\x01"
        char_at = list(accumulate(is_start, initial=-1))[1:]
        out: list[Token] = []
        append = out.append
        new = tuple.__new__  # Token(...) without the NamedTuple's Python-level __new__ frame
        prev_end = 0
        for i, (tid, tb, bs, be, kind, raw) in enumerate(tokens):
            if not (prev_end <= bs <= be <= total):
                raise EncodingMismatch(
                    f"{encoder}: token {i} (id {tid}) has byte span [{bs}, {be}) out of order or outside the text"
                )
            c0 = char_at[bs]
            # the first character starting at or after ``be`` (for an empty span, SentencePiece's dummy
            # prefix, that is c0 itself when ``bs`` starts a character: no characters)
            c1 = char_at[be] if is_start[be] else char_at[be] + 1
            append(new(Token, (tid, tb, bs, be, c0, c1, not is_start[bs] or not is_start[be], kind, raw)))
            prev_end = be
        return cls(encoder, text, tuple(out), normalized_text)

    # ---- views --------------------------------------------------------------------------
    @property
    def ids(self) -> list[int]:
        return [t.id for t in self.tokens]

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def byte_length(self) -> int:
        return len(self.text.encode("utf-8", "surrogatepass"))

    def joined_bytes(self) -> bytes:
        return b"".join(t.bytes for t in self.tokens)

    def round_trip_exact(self) -> bool:
        """True when the token bytes join to the text's UTF-8 exactly."""
        return self.joined_bytes() == self.text.encode("utf-8", "surrogatepass")

    @cached_property
    def _starts(self) -> list[int]:
        return [t.start for t in self.tokens]

    @cached_property
    def _byte_ends(self) -> list[int]:
        return [t.byte_end for t in self.tokens]

    def tokens_at_char(self, index: int) -> list[int]:
        """Indices of the tokens whose character span holds character ``index``; two or more when
        the character is cut between tokens.

        >>> Encoding.from_byte_tokens("d", "안!", [(1, b"\\xec\\x95"), (2, b"\\x88!")]).tokens_at_char(0)
        [0, 1]
        """
        found = []
        j = bisect.bisect_right(self._starts, index) - 1
        while j >= 0:
            t = self.tokens[j]
            if t.start <= index < t.end:
                found.append(j)
            elif t.end <= index and t.end > t.start:
                break  # spans are ordered: nothing earlier reaches ``index``
            j -= 1
        return found[::-1]

    def token_at_byte(self, offset: int) -> int | None:
        """Index of the token owning UTF-8 byte ``offset`` (None outside the text or in a gap)."""
        j = bisect.bisect_right(self._byte_ends, offset)
        if j < len(self.tokens) and self.tokens[j].byte_start <= offset < self.tokens[j].byte_end:
            return j
        return None


# 1 for bytes that start a character (ASCII and lead bytes), 0 for continuation bytes 0x80-0xBF.
_STARTS_CHAR = bytes(0 if 0x80 <= b < 0xC0 else 1 for b in range(256))


def char_byte_starts(text: str, data: bytes | None = None) -> list[int]:
    """UTF-8 byte offset where each character starts, plus the total length at the end.

    ``data`` is ``text`` already encoded, when the caller has it.

    >>> char_byte_starts("a값😀")
    [0, 1, 4, 8]
    """
    if data is None:
        data = text.encode("utf-8", "surrogatepass")
    # C-level scan (translate + compress): ~20x faster than a Python loop over characters
    starts = list(compress(range(len(data)), data.translate(_STARTS_CHAR)))
    starts.append(len(data))
    return starts

