"""The one data model every view renders: an Encoding is a text plus the tokens that cover it.

Each token knows its id, its exact bytes, the byte span ``[byte_start, byte_end)`` it covers in the
text's UTF-8, the character span ``[start, end)`` of the characters those bytes touch, whether it
starts or ends inside a character (``partial``) and its kind. For byte-level encoders the byte spans
tile the text and the token bytes join to the text's UTF-8 exactly.

The tokens are held as columns, read-only numpy arrays (``id_array``, ``byte_start_array``,
``byte_end_array``, ``start_array``, ``end_array``, ``partial_array``, ``kind_array``), so that a
5 MB paste (two million tokens) is a handful of arrays rather than two million Python objects. Token
bytes are slices of one buffer: the text's own UTF-8 when the tokens spell the text (byte-level
encoders, char-mode BPE), else one joined blob. ``enc.tokens`` is a lazy sequence that makes a
:class:`Token` when one is asked for (``enc.tokens[i]``, ``enc.token(i)``, iteration, slices).

>>> enc = Encoding.from_byte_tokens("demo", "안!", [(1, b"\\xec\\x95"), (2, b"\\x88!")])
>>> [(t.start, t.end, t.partial, t.piece) for t in enc.tokens]
[(0, 1, True, None), (0, 2, True, None)]
>>> enc.byte_end_array.tolist(), enc.ids
([2, 4], [1, 2])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import compress, repeat
from typing import Literal, NamedTuple

import numpy as np

from tokviz.core.errors import TokvizError, check_text

TokenKind = Literal["normal", "special", "byte_fallback", "unknown"]
# kind_array holds the index of the kind's name here
KIND_NAMES: tuple[TokenKind, ...] = ("normal", "special", "byte_fallback", "unknown")
KIND_CODES: dict[str, int] = {name: code for code, name in enumerate(KIND_NAMES)}

_CHUNK = 4096  # tokens made per step when iterating: list conversions in C, one zip per chunk


class Token(NamedTuple):
    """One token of an Encoding (made on demand from its columns).

    ``bytes`` are the token's own bytes (for SentencePiece: ``▁`` as a space, ``<0xNN>`` as the byte).
    ``raw`` is the encoder's own surface form when it has one (SentencePiece piece ``▁안녕``), else None.
    ``kind`` marks special tokens, byte-fallback pieces and unknown pieces.
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


# How an Encoding draws itself in a notebook. The drawing (core.display) sits above this data model and
# imports it, so it registers itself here instead of being imported from here: no circle.
_html_view: Callable[[Encoding], str] | None = None


def register_html_view(view: Callable[[Encoding], str]) -> None:
    """Make ``view`` the HTML an Encoding shows in a notebook (core.display calls this on import)."""
    global _html_view
    _html_view = view



# Tokens per numpy call when Encoding.concat stitches pieces: a numpy call holds the GIL for its whole
# length, and stitching millions of tokens in one call kept the GUI thread waiting 100-200 ms.
STITCH_BLOCK = 1 << 18
TEXT_SLICE = 1 << 20  # characters per str.encode call when a whole text is compared (one call holds the GIL)


def _part_batches(counts: np.ndarray) -> list[tuple[int, int]]:
    """Consecutive ranges ``[i, j)`` of parts holding about :data:`STITCH_BLOCK` tokens (one part at least).

    >>> _part_batches(np.array([3, 0, 5, 1]))
    [(0, 4)]
    """
    bounds = np.cumsum(counts)
    out, i = [], 0
    while i < len(counts):
        before = int(bounds[i - 1]) if i else 0
        j = max(i + 1, int(np.searchsorted(bounds, before + STITCH_BLOCK, side="right")))
        out.append((i, j))
        i = j
    return out


def _stitched(arrays: list[np.ndarray], counts: np.ndarray, batches: list[tuple[int, int]],
              offsets: np.ndarray | None = None) -> np.ndarray:
    """``arrays`` end to end, each plus its ``offsets`` entry (int64 then), a batch of parts per call."""
    dtype = np.int64 if offsets is not None else np.result_type(*{a.dtype for a in arrays})
    ends = np.cumsum(counts)
    out = np.empty(int(ends[-1]) if len(ends) else 0, dtype=dtype)
    for i, j in batches:
        a, b = (int(ends[i - 1]) if i else 0), int(ends[j - 1])
        block = np.concatenate(arrays[i:j])
        if offsets is not None:
            block = block + np.repeat(offsets[i:j], counts[i:j])
        out[a:b] = block
    return out


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


def _frozen(a, dtype) -> np.ndarray:
    """``a`` as a read-only contiguous array (the same object when it already is one)."""
    a = np.ascontiguousarray(a, dtype=dtype)
    a.flags.writeable = False
    return a


_CUMSUM_SLICE = 1 << 20


def _char_columns(data: bytes, n_chars: int, bs: np.ndarray, be: np.ndarray):
    """(start, end, partial) columns of tokens with byte spans ``[bs, be)`` into ``data``."""
    total = len(data)
    if total == n_chars:  # ASCII: byte offsets are character offsets, nothing is cut
        return bs, be, np.zeros(len(bs), dtype=bool)
    raw = np.frombuffer(data, dtype=np.uint8)
    is_start = np.empty(total + 1, dtype=bool)
    np.not_equal(raw & 0xC0, 0x80, out=is_start[:total])
    is_start[total] = True
    # char_at[b]: the character holding byte b (for b == total: the number of characters); summed in
    # slices, since one numpy call over megabytes holds the GIL long enough to stall the GUI thread
    char_at = np.empty(total + 1, dtype=np.int32)
    before = -1
    for a in range(0, total + 1, _CUMSUM_SLICE):
        b = min(a + _CUMSUM_SLICE, total + 1)
        np.cumsum(is_start[a:b], dtype=np.int32, out=char_at[a:b])
        char_at[a:b] += before
        before = int(char_at[b - 1])
    s = char_at[bs].astype(np.int64)
    start_b, start_e = is_start[bs], is_start[be]
    # the first character starting at or after ``be`` (for an empty span at a character start,
    # SentencePiece's dummy prefix, that is the start itself: no characters)
    e = char_at[be].astype(np.int64) + ~start_e
    partial = ~(start_b & start_e)
    return s, e, partial


class Encoding:
    """A text and its tokens, held as columns. Build one with :meth:`from_byte_tokens`,
    :meth:`from_spans` or (adapters with arrays in hand) :meth:`from_arrays`.

    ``normalized_text`` is the text the encoder actually saw when it normalizes (SentencePiece
    NFKC); None means ``text``.
    """

    def __init__(self, encoder: str, text: str, *, id_array: np.ndarray, byte_start_array: np.ndarray,
                 byte_end_array: np.ndarray, start_array: np.ndarray, end_array: np.ndarray,
                 partial_array: np.ndarray, kind_array: np.ndarray, blob: bytes, blob_start: np.ndarray,
                 blob_end: np.ndarray, raw_table: Sequence[str | None] | None = None,
                 raw_index: np.ndarray | None = None, normalized_text: str | None = None,
                 n_bytes: int | None = None):
        """Low level: every column given, already checked (use the ``from_*`` constructors)."""
        self.encoder = encoder
        self.text = text
        self.normalized_text = normalized_text
        self.id_array = _frozen(id_array, np.int64)
        self.byte_start_array = _frozen(byte_start_array, np.int64)
        self.byte_end_array = _frozen(byte_end_array, np.int64)
        self.start_array = _frozen(start_array, np.int64)
        self.end_array = _frozen(end_array, np.int64)
        self.partial_array = _frozen(partial_array, bool)
        self.kind_array = _frozen(kind_array, np.uint8)
        # token i's bytes are blob[blob_start[i]:blob_end[i]]; the blob is the text's UTF-8 itself
        # when the tokens spell the text (then blob_start/blob_end are the byte span columns)
        self._blob = blob
        self._blob_start = _frozen(blob_start, np.int64)
        self._blob_end = _frozen(blob_end, np.int64)
        self._raw_table = tuple(raw_table) if raw_table is not None else None
        self._raw_index = _frozen(raw_index, np.int32) if raw_index is not None else None
        self._n_bytes = len(text.encode("utf-8", "surrogatepass")) if n_bytes is None else n_bytes
        self._columns = _Columns(encoder, self.id_array, self._blob, self._blob_start, self._blob_end,
                                 self.byte_start_array, self.byte_end_array, self.start_array, self.end_array,
                                 self.partial_array, self.kind_array, self._raw_table, self._raw_index)
        # A plain attribute (not a property): the Inspector's sliced release swaps it out.
        self.tokens: TokenSequence = TokenSequence(self._columns, 0, len(self.id_array))

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def from_arrays(
        cls,
        encoder: str,
        text: str,
        ids,
        byte_starts,
        byte_ends,
        *,
        kinds=None,
        token_bytes: tuple[bytes, Sequence[int], Sequence[int]] | None = None,
        raws: Sequence[str | None] | tuple[Sequence[str | None], Sequence[int]] | None = None,
        normalized_text: str | None = None,
        data: bytes | None = None,
    ) -> Encoding:
        """Encoding from columns: ids and byte spans into ``text``'s UTF-8 (ordered, not overlapping).

        ``kinds``: uint8 codes (index into :data:`KIND_NAMES`) or None for all normal.
        ``token_bytes``: ``(blob, starts, ends)`` when a token's bytes are not the text's bytes under
        its span (SentencePiece's ``▁``, normalizers); None means they are.
        ``raws``: the encoder's surface forms, a list, or ``(table, index)`` with index -1 for None.
        ``data``: ``text`` as UTF-8, when the caller has it.

        >>> Encoding.from_arrays("d", "ab", [7, 8], [0, 1], [1, 2]).tokens[1]
        Token(id=8, bytes=b'b', byte_start=1, byte_end=2, start=1, end=2, partial=False, kind='normal', raw=None)
        """
        data = check_text(text) if data is None else data
        ids = np.asarray(ids, dtype=np.int64)
        bs = np.asarray(byte_starts, dtype=np.int64)
        be = np.asarray(byte_ends, dtype=np.int64)
        n = len(ids)
        if len(bs) != n or len(be) != n:
            raise EncodingMismatch(f"{encoder}: {n} ids but {len(bs)} byte starts and {len(be)} byte ends")
        if n:
            prev_end = np.empty(n, dtype=np.int64)
            prev_end[0] = 0
            prev_end[1:] = be[:-1]
            bad = (bs < prev_end) | (be < bs) | (be > len(data))
            if bad.any():
                i = int(np.argmax(bad))
                raise EncodingMismatch(f"{encoder}: token {i} (id {int(ids[i])}) has byte span "
                                       f"[{int(bs[i])}, {int(be[i])}) out of order or outside the text")
        kind_array = np.zeros(n, dtype=np.uint8) if kinds is None else np.asarray(kinds, dtype=np.uint8)
        if token_bytes is None:
            blob, b0, b1 = data, bs, be
        else:
            blob, b0, b1 = token_bytes[0], np.asarray(token_bytes[1]), np.asarray(token_bytes[2])
        raw_table, raw_index = _raw_columns(raws, n)
        s, e, partial = _char_columns(data, len(text), bs, be)
        return cls(encoder, text, id_array=ids, byte_start_array=bs, byte_end_array=be, start_array=s,
                   end_array=e, partial_array=partial, kind_array=kind_array, blob=blob, blob_start=b0,
                   blob_end=b1, raw_table=raw_table, raw_index=raw_index, normalized_text=normalized_text,
                   n_bytes=len(data))

    @classmethod
    def from_byte_tokens(
        cls,
        encoder: str,
        text: str,
        tokens: Iterable[tuple[int, bytes]],
        kinds: Sequence[TokenKind] | None = None,
        raws: Sequence[str | None] | None = None,
    ) -> Encoding:
        """Encoding from ``(id, bytes)`` pairs whose bytes join to ``text``'s UTF-8 exactly.

        Raises InvalidTextError for a lone surrogate and EncodingMismatch if the bytes do not join
        to the text.
        """
        data = check_text(text)
        pairs = tokens if isinstance(tokens, (list, tuple)) else list(tokens)
        if b"".join(tb for _, tb in pairs) != data:
            _raise_mismatch(encoder, data, pairs)
        n = len(pairs)
        ids = np.fromiter((tid for tid, _ in pairs), dtype=np.int64, count=n)
        be = np.cumsum(np.fromiter((len(tb) for _, tb in pairs), dtype=np.int64, count=n))
        bs = be - np.fromiter((len(tb) for _, tb in pairs), dtype=np.int64, count=n)
        codes = None if kinds is None else np.fromiter((KIND_CODES[k] for k in kinds), dtype=np.uint8, count=n)
        return cls.from_arrays(encoder, text, ids, bs, be, kinds=codes, raws=raws, data=data)

    @classmethod
    def from_spans(
        cls,
        encoder: str,
        text: str,
        tokens: Iterable[tuple[int, bytes, int, int, TokenKind, str | None]],
        normalized_text: str | None = None,
    ) -> Encoding:
        """Encoding from ``(id, bytes, byte_start, byte_end, kind, raw)`` with explicit byte spans into
        ``text``'s UTF-8, for encoders whose tokens do not tile the text: char-mode BPE skips the
        whitespace between words, SentencePiece's dummy prefix covers no text (empty span) and its
        normalizer may change what the pieces say. Spans must be ordered and must not overlap.
        """
        data = check_text(text)
        rows = tokens if isinstance(tokens, (list, tuple)) else list(tokens)
        n = len(rows)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=n)
        bs = np.fromiter((r[2] for r in rows), dtype=np.int64, count=n)
        be = np.fromiter((r[3] for r in rows), dtype=np.int64, count=n)
        kinds = np.fromiter((KIND_CODES[r[4]] for r in rows), dtype=np.uint8, count=n)
        raws = [r[5] for r in rows]
        token_bytes = None
        # the text's own bytes under each span, unless some token says otherwise
        if any(r[1] != data[r[2]:r[3]] for r in rows):
            lengths = np.fromiter((len(r[1]) for r in rows), dtype=np.int64, count=n)
            ends = np.cumsum(lengths)
            token_bytes = (b"".join(r[1] for r in rows), ends - lengths, ends)
        return cls.from_arrays(encoder, text, ids, bs, be, kinds=kinds, token_bytes=token_bytes,
                               raws=raws if any(r is not None for r in raws) else None,
                               normalized_text=normalized_text, data=data)

    @classmethod
    def concat(cls, encoder: str, text: str, parts: Sequence[tuple[Encoding, int, int]]) -> Encoding:
        """One Encoding of ``text`` from encodings of its consecutive pieces: ``(encoding, character
        offset, byte offset)`` of each piece, in order (how the paragraph cache stitches paragraphs)."""
        data = check_text(text)
        if not parts:
            return cls.from_arrays(encoder, text, [], [], [], data=data)
        encs = [p[0] for p in parts]
        counts = np.array([len(e.id_array) for e in encs], dtype=np.int64)
        char_off = np.array([p[1] for p in parts], dtype=np.int64)
        byte_off = np.array([p[2] for p in parts], dtype=np.int64)
        batches = _part_batches(counts)

        def column(name, offsets=None):
            return _stitched([getattr(e, name) for e in encs], counts, batches, offsets)

        bs, be = column("byte_start_array", byte_off), column("byte_end_array", byte_off)
        spelled = all(e._spells_text() for e in encs)
        if spelled:
            blob, b0, b1 = data, bs, be
        else:
            blob_off = np.cumsum([0] + [len(e._blob) for e in encs[:-1]]).astype(np.int64)
            blob = b"".join(e._blob for e in encs)
            b0 = _stitched([e._blob_start for e in encs], counts, batches, blob_off)
            b1 = _stitched([e._blob_end for e in encs], counts, batches, blob_off)
        raw_table = raw_index = None
        if any(e._raw_table is not None for e in encs):
            raw_table, raw_index = _joined_raw_columns(encs, counts)
        return cls(encoder, text, id_array=column("id_array"), byte_start_array=bs, byte_end_array=be,
                   start_array=column("start_array", char_off), end_array=column("end_array", char_off),
                   partial_array=column("partial_array"), kind_array=column("kind_array"), blob=blob,
                   blob_start=b0, blob_end=b1, raw_table=raw_table, raw_index=raw_index, n_bytes=len(data))

    # ---- views --------------------------------------------------------------------------
    def token(self, index: int) -> Token:
        """Token ``index`` (negative counts from the end), made from the columns."""
        n = len(self.id_array)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"token index {index} out of range ({n} tokens)")
        return self._columns.token(index)

    def _raws_list(self) -> list[str | None]:
        n = len(self.id_array)
        if self._raw_index is None:
            return [None] * n
        table = self._raw_table + (None,)
        return [table[k] for k in self._raw_index.tolist()]

    def _spells_text(self) -> bool:
        """True when every token's bytes are the text's bytes under its span."""
        return self._blob_start is self.byte_start_array or (
            len(self._blob) == self._n_bytes and np.array_equal(self._blob_start, self.byte_start_array)
            and np.array_equal(self._blob_end, self.byte_end_array)
            and self._blob == self.text.encode("utf-8"))

    @property
    def ids(self) -> list[int]:
        """Token ids as a list (``id_array`` is the same, as a read-only array)."""
        return self.id_array.tolist()

    def __len__(self) -> int:
        return len(self.id_array)

    def __eq__(self, other: object) -> bool:
        """Same encoder name, text, normalized text and tokens (as the frozen dataclass it replaced)."""
        if not isinstance(other, Encoding):
            return NotImplemented
        if (self.encoder, self.text, self.normalized_text) != (other.encoder, other.text, other.normalized_text):
            return False
        columns = ("id_array", "byte_start_array", "byte_end_array", "start_array", "end_array", "partial_array",
                   "kind_array")
        if not all(np.array_equal(getattr(self, c), getattr(other, c)) for c in columns):
            return False
        if self._raws_list() != other._raws_list():
            return False
        # same text and spans: tokens that spell the text have the same bytes without looking
        return (self._spells_text() and other._spells_text()) or self._token_bytes() == other._token_bytes()

    __hash__ = None  # type: ignore[assignment]  # equal by value; hashing two million tokens is never wanted

    def _token_bytes(self) -> list[bytes]:
        bl = self._blob
        return [bl[x:y] for x, y in zip(self._blob_start.tolist(), self._blob_end.tolist(), strict=True)]

    def __repr__(self) -> str:
        return f"Encoding({self.encoder!r}, {len(self.text)} characters, {len(self)} tokens)"

    def _repr_html_(self) -> str | None:
        """Coloured tokens for Jupyter and other notebooks, drawn by core.display's ``encoding_html``
        (registered by that module; ``tokviz.encode`` and ``tokviz.open_model`` import it). Until it
        is imported a notebook shows the plain ``repr``."""
        return _html_view(self) if _html_view is not None else None

    @property
    def byte_length(self) -> int:
        return self._n_bytes

    def joined_bytes(self) -> bytes:
        """Every token's bytes, joined."""
        if self._blob_start is self.byte_start_array and len(self.id_array) and \
                not (self.byte_start_array[1:] != self.byte_end_array[:-1]).any():
            return self._blob[int(self.byte_start_array[0]):int(self.byte_end_array[-1])]
        # gathered in numpy: a bytes slice per token cost ~0.15 s for a million SentencePiece tokens
        lengths = self._blob_end - self._blob_start
        out_starts = np.cumsum(lengths) - lengths
        where = np.arange(int(lengths.sum()), dtype=np.int64) + np.repeat(self._blob_start - out_starts, lengths)
        return np.frombuffer(self._blob, dtype=np.uint8)[where].tobytes()

    def round_trip_exact(self) -> bool:
        """True when the token bytes join to the text's UTF-8 exactly.

        The text is encoded and compared a slice of :data:`TEXT_SLICE` characters at a time: encoding a
        20 MB paste in one call held the GIL ~50 ms while the Inspector's GUI thread waited. A str holds
        no surrogate pairs, so a slice never cuts a character."""
        joined, text = self.joined_bytes(), self.text
        at = 0
        for a in range(0, len(text), TEXT_SLICE):
            part = text[a : a + TEXT_SLICE].encode("utf-8", "surrogatepass")
            if not joined.startswith(part, at):
                return False
            at += len(part)
        return at == len(joined)

    def kind_counts(self) -> dict[str, int]:
        """How many tokens of each kind (every name of :data:`KIND_NAMES`, zeros included), counted
        :data:`STITCH_BLOCK` tokens per numpy call (one call over millions held the GIL ~40 ms)."""
        counts = np.zeros(len(KIND_NAMES), dtype=np.int64)
        kinds = self.kind_array
        for a in range(0, len(kinds), STITCH_BLOCK):
            counts += np.bincount(kinds[a : a + STITCH_BLOCK], minlength=len(KIND_NAMES))
        return {name: int(counts[code]) for code, name in enumerate(KIND_NAMES)}

    def tokens_at_char(self, index: int) -> list[int]:
        """Indices of the tokens whose character span holds character ``index``; two or more when
        the character is cut between tokens.

        >>> Encoding.from_byte_tokens("d", "안!", [(1, b"\\xec\\x95"), (2, b"\\x88!")]).tokens_at_char(0)
        [0, 1]
        """
        found = []
        starts, ends = self.start_array, self.end_array
        j = int(np.searchsorted(starts, index, side="right")) - 1
        while j >= 0:
            s, e = int(starts[j]), int(ends[j])
            if s <= index < e:
                found.append(j)
            elif e <= index and e > s:
                break  # spans are ordered: nothing earlier reaches ``index``
            j -= 1
        return found[::-1]

    def token_at_byte(self, offset: int) -> int | None:
        """Index of the token owning UTF-8 byte ``offset`` (None outside the text or in a gap)."""
        j = int(np.searchsorted(self.byte_end_array, offset, side="right"))
        if j < len(self.id_array) and self.byte_start_array[j] <= offset < self.byte_end_array[j]:
            return j
        return None


def _raw_columns(raws, n: int) -> tuple[tuple[str | None, ...] | None, np.ndarray | None]:
    """(table, index) for a list of raw forms, or a ``(table, index)`` pair given as it is."""
    if raws is None:
        return None, None
    if isinstance(raws, tuple) and len(raws) == 2 and isinstance(raws[1], np.ndarray):
        return tuple(raws[0]), raws[1]
    raws = list(raws)
    if len(raws) != n:
        raise EncodingMismatch(f"{len(raws)} raw forms for {n} tokens")
    code: dict[str, int] = {}
    index = np.fromiter((-1 if r is None else code.setdefault(r, len(code)) for r in raws), dtype=np.int32, count=n)
    return tuple(code), index


_RAW_SHARDS = 64


def _joined_raw_columns(encs: Sequence[Encoding], counts: np.ndarray) -> tuple[tuple[str, ...], np.ndarray]:
    """The (table, index) :func:`_raw_columns` gives for the raw forms of ``encs`` end to end (codes in
    order of first use), made from each piece's own table: a list of every raw form of a 20 MB paste
    (millions) was built, then freed in one call that held the GIL for tens of milliseconds.

    The distinct forms are kept in small dicts chosen by hash: one dict of them all grows by doubling,
    and each doubling rehashes every entry in one call that holds the GIL (63 ms at 700k entries,
    114 ms at 1.4M; the GUI thread waited on it)."""
    shards: list[dict[str, int]] = [{} for _ in range(_RAW_SHARDS)]
    table: list[str] = []
    index = np.empty(int(counts.sum()), dtype=np.int32)
    at = 0
    for e in encs:
        n = len(e.id_array)
        if e._raw_index is None:
            index[at:at + n] = -1
            at += n
            continue
        local = np.full(len(e._raw_table) + 1, -1, dtype=np.int32)  # the last entry reads index -1 (no form)
        used, first = np.unique(e._raw_index, return_index=True)
        for k in used[np.argsort(first, kind="stable")].tolist():  # this piece's forms in order of first use
            form = e._raw_table[k] if k >= 0 else None
            if form is None:
                continue
            shard = shards[hash(form) % _RAW_SHARDS]
            code = shard.get(form)
            if code is None:
                code = shard[form] = len(table)
                table.append(form)
            local[k] = code
        index[at:at + n] = local[e._raw_index]
        at += n
    return tuple(table), index


class _Columns:
    """The columns tokens are made from, shared by an Encoding and its token views.

    It holds no reference back to the Encoding: an Encoding whose tokens pointed back at it would be a
    reference cycle, outliving its last user until the cyclic collector runs (and the Inspector frees
    a big result piece by piece only once nothing else refers to it).
    """

    __slots__ = ("blob", "blob_end", "blob_start", "byte_ends", "byte_starts", "ends", "ids", "kinds", "name",
                 "partial", "raw_index", "raw_table", "starts")

    def __init__(self, name, ids, blob, blob_start, blob_end, byte_starts, byte_ends, starts, ends, partial, kinds,
                 raw_table, raw_index):
        self.name, self.ids, self.blob, self.blob_start, self.blob_end = name, ids, blob, blob_start, blob_end
        self.byte_starts, self.byte_ends, self.starts, self.ends = byte_starts, byte_ends, starts, ends
        self.partial, self.kinds = partial, kinds
        # index -1 (no raw form) reads the None appended at the end
        self.raw_table = raw_table + (None,) if raw_table is not None else None
        self.raw_index = raw_index

    def token(self, i: int) -> Token:
        raw = self.raw_table[self.raw_index[i]] if self.raw_index is not None else None
        return Token(int(self.ids[i]), self.blob[int(self.blob_start[i]):int(self.blob_end[i])],
                     int(self.byte_starts[i]), int(self.byte_ends[i]), int(self.starts[i]), int(self.ends[i]),
                     bool(self.partial[i]), KIND_NAMES[self.kinds[i]], raw)

    def between(self, a: int, b: int) -> list[Token]:
        """Tokens ``a`` to ``b - 1``: each column converted to a list in C, then one zip."""
        bl = self.blob
        blob = [bl[x:y] for x, y in zip(self.blob_start[a:b].tolist(), self.blob_end[a:b].tolist(), strict=True)]
        kinds = [KIND_NAMES[k] for k in self.kinds[a:b].tolist()]
        if self.raw_index is not None:
            table = self.raw_table
            raws: Iterable = [table[k] for k in self.raw_index[a:b].tolist()]
        else:
            raws = repeat(None)
        new = tuple.__new__  # Token(...) without the NamedTuple's Python-level __new__ frame
        return [new(Token, row) for row in zip(
            self.ids[a:b].tolist(), blob, self.byte_starts[a:b].tolist(), self.byte_ends[a:b].tolist(),
            self.starts[a:b].tolist(), self.ends[a:b].tolist(), self.partial[a:b].tolist(), kinds, raws,
            strict=False)]  # raws may be repeat(None)


class TokenSequence(Sequence[Token]):
    """The tokens of an Encoding (or a contiguous run of them), made on demand.

    Supports ``len``, indexing (negative too), slicing (a step-1 slice is again a lazy view), iteration
    and ``==`` with another sequence of tokens.
    """

    __slots__ = ("_a", "_b", "_columns")

    def __init__(self, columns: _Columns, a: int, b: int):
        self._columns, self._a, self._b = columns, a, b

    def __len__(self) -> int:
        return self._b - self._a

    def __getitem__(self, index):
        n = self._b - self._a
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step == 1:
                return TokenSequence(self._columns, self._a + start, self._a + max(start, stop))
            return tuple(self[i] for i in range(start, stop, step))
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"token index {index} out of range ({n} tokens)")
        return self._columns.token(self._a + index)

    def __iter__(self) -> Iterator[Token]:
        for a in range(self._a, self._b, _CHUNK):
            yield from self._columns.between(a, min(a + _CHUNK, self._b))

    def __reversed__(self) -> Iterator[Token]:
        for i in range(self._b - 1, self._a - 1, -1):
            yield self._columns.token(i)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (Sequence, TokenSequence)) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(x == y for x, y in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __delitem__(self, index: slice) -> None:
        """``del tokens[k:]`` shortens this view (the columns stay): how the Inspector's sliced
        release empties a big result step by step. Only a tail can be dropped."""
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("only a tail of the token view can be dropped (del tokens[k:])")
        start, stop, _ = index.indices(len(self))
        if stop != len(self):
            raise TypeError("only a tail of the token view can be dropped (del tokens[k:])")
        self._b = self._a + start

    def __repr__(self) -> str:
        return f"<{len(self)} tokens of {self._columns.name!r}>"


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
