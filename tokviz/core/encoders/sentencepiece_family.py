"""SentencePiece models (any ``.model`` file) as tokviz Encoders, with exact byte spans.

SentencePiece itself reports, for every piece, the UTF-8 byte span ``[begin, end)`` of the
original text it came from (its ``SentencePieceText`` proto). tokviz builds the Encoding from those
spans and fixes the three places where a piece's text and its span disagree:

* ``▁`` stands for a space. The *dummy prefix* SentencePiece puts before the text is a ``▁`` that
  covers no text: its span is empty (``[0, 0)``), or it is folded into a piece such as ``▁▁``
  whose span then holds one space only.
* ``<0xNN>`` byte-fallback pieces stand for one byte each. SentencePiece gives the whole character
  to the last piece of the run; tokviz gives each piece its own byte, so a Hangul syllable that falls
  back to bytes shows as three partial tokens.
* A normalizer (NFKC, removal of extra spaces) changes the text the pieces spell; spans still point
  into the original, and the normalized text is kept in ``Encoding.normalized_text``.

The model file is checked before sentencepiece sees it: it must be a serialized ``ModelProto``
(protobuf) that is complete. Nothing here needs the ``protobuf`` package: the few fields tokviz reads
are decoded from protobuf's wire format directly.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from pathlib import Path

import numpy as np

from tokviz.core.encoders.base import EncoderEntry, ModelLoader
from tokviz.core.encoders.files import read_head, read_regular_file
from tokviz.core.encoders.sources import problem_of, said
from tokviz.core.encoding import KIND_CODES, Encoding, TokenKind, char_byte_starts
from tokviz.core.errors import ModelFileError, check_text

SPACE_MARK = "\u2581"  # ▁, SentencePiece's visible space
_BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


# ---- protobuf wire format (just enough to read SentencePiece's messages) ------------------------
class WireError(ValueError):
    """Bytes that are not a well-formed protobuf message; ``offset`` is where reading failed."""

    def __init__(self, message: str, offset: int):
        self.offset = offset
        super().__init__(message)


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise WireError("the data ends inside a number", pos)
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise WireError("a number is longer than 10 bytes", pos)


def iter_fields(data: bytes, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int, object, int]]:
    """Fields of a protobuf message: ``(field number, wire type, value, offset of the field)``.

    ``value`` is an int for varints, bytes for length-delimited and fixed-size fields.
    Raises WireError for anything malformed, including a field cut off by the end of the data.

    >>> [(f, w, v) for f, w, v, _ in iter_fields(b"\\x08\\x96\\x01\\x12\\x02hi")]
    [(1, 0, 150), (2, 2, b'hi')]
    """
    pos = start
    end = len(data) if end is None else end
    while pos < end:
        at = pos
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise WireError("field number 0 is not allowed", at)
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 2:
            n, pos = _varint(data, pos)
            if pos + n > end:
                raise WireError(f"a field claims {n} bytes but only {end - pos} remain", at)
            value = data[pos:pos + n]
            pos += n
        elif wire in (1, 5):
            n = 8 if wire == 1 else 4
            if pos + n > end:
                raise WireError("the data ends inside a fixed-size field", at)
            value = data[pos:pos + n]
            pos += n
        else:  # groups (3, 4) are not used by SentencePiece; 6, 7 do not exist
            raise WireError(f"wire type {wire} is not used by SentencePiece", at)
        yield number, wire, value, at


@dataclass(frozen=True)
class ModelInfo:
    """What tokviz reads from a ``.model`` file before handing it to sentencepiece."""

    pieces: int
    model_type: str  # unigram | bpe | word | char
    byte_fallback: bool
    normalizer: str  # e.g. nmt_nfkc, identity
    add_dummy_prefix: bool
    remove_extra_whitespaces: bool
    whitespace_as_suffix: bool

    def describe(self) -> str:
        """``unigram, 8,000 pieces, normalizer nmt_nfkc, byte fallback`` (translatable, see :mod:`.sources`)."""
        normalizer = self.normalizer or said("default")
        if self.byte_fallback:
            return said("{model_type}, {pieces:,} pieces, normalizer {normalizer}, byte fallback",
                        model_type=self.model_type, pieces=self.pieces, normalizer=normalizer)
        return said("{model_type}, {pieces:,} pieces, normalizer {normalizer}",
                    model_type=self.model_type, pieces=self.pieces, normalizer=normalizer)


_MODEL_TYPES = {1: "unigram", 2: "bpe", 3: "word", 4: "char"}


def _first_piece_ok(payload: bytes) -> bool:
    """A ModelProto.SentencePiece message starts with its piece string (field 1) in valid UTF-8."""
    for number, wire, value, _ in iter_fields(payload):
        if number == 1 and wire == 2:
            value.decode("utf-8")
            return True
        return False
    return False


def looks_like_model_proto(head: bytes) -> bool:
    """Cheap content sniff on a file's first bytes: does it start like a SentencePiece ModelProto?

    SentencePiece writes the pieces (field 1) first; the first piece message starts with its text.

    >>> looks_like_model_proto(b'\\n\\t\\n\\x05<unk>\\x18\\x02')
    True
    >>> looks_like_model_proto(b'{"model": 1}')
    False
    """
    try:
        key, pos = _varint(head, 0)
        if key != (1 << 3 | 2):
            return False
        n, pos = _varint(head, pos)
        if n == 0 or n > 1 << 16:  # one piece message is a short string, a float and an enum
            return False
        payload = head[pos:pos + n]
        if len(payload) < n:
            # the first piece reaches past the sniffed head: its first key must still be field 1
            return payload[:1] == b"\n"
        return _first_piece_ok(payload)
    except (WireError, UnicodeDecodeError):
        return False


def read_model_info(data: bytes, path: str | Path = "<model>") -> ModelInfo:
    """Check that ``data`` is a complete serialized SentencePiece ModelProto and read its settings.

    Raises ModelFileError naming ``path`` and the problem (empty, truncated, not a ModelProto).
    """
    if not data:
        raise ModelFileError(path, "the file is empty (expected a SentencePiece .model)")
    if not looks_like_model_proto(data[:4096]):
        raise ModelFileError(path, "not a SentencePiece model (expected a serialized ModelProto, e.g. tokenizer.model)")
    pieces = 0
    trainer: dict[int, object] = {}
    normalizer: dict[int, object] = {}
    try:
        for number, wire, value, _ in iter_fields(data):
            if number == 1 and wire == 2:
                pieces += 1
            elif number == 2 and wire == 2:
                trainer = {f: v for f, _, v, _ in iter_fields(value)}
            elif number == 3 and wire == 2:
                normalizer = {f: v for f, _, v, _ in iter_fields(value)}
    except WireError as err:
        raise ModelFileError(
            path, f"truncated or corrupt SentencePiece model: {err} (at byte {err.offset} of {len(data)})"
        ) from None
    if pieces == 0:
        raise ModelFileError(path, "the SentencePiece model has no pieces")
    name = normalizer.get(1, b"")
    return ModelInfo(
        pieces=pieces,
        model_type=_MODEL_TYPES.get(int(trainer.get(3, 1)), "unknown"),
        byte_fallback=bool(trainer.get(35, 0)),
        normalizer=name.decode("utf-8", "replace") if isinstance(name, bytes) else "",
        add_dummy_prefix=bool(normalizer.get(3, 1)),
        remove_extra_whitespaces=bool(normalizer.get(4, 1)),
        whitespace_as_suffix=bool(trainer.get(24, 0)),
    )


def _parse_pieces(serialized: bytes) -> list[tuple[int, str, int, int]]:
    """``(id, piece, begin, end)`` of each piece in a serialized ``SentencePieceText``."""
    out = []
    for number, wire, value, _ in iter_fields(serialized):
        if number == 2 and wire == 2:
            piece, tid, begin, end = "", 0, 0, 0
            for f, _, v, _ in iter_fields(value):
                if f == 1:
                    piece = v.decode("utf-8")
                elif f == 2:
                    tid = v
                elif f == 4:
                    begin = v
                elif f == 5:
                    end = v
            out.append((tid, piece, begin, end))
    return out


# ---- the encoder ------------------------------------------------------------------------------------
class SentencePieceEncoder:
    """An Encoder for any SentencePiece ``.model`` file.

    ``name`` defaults to the file name. Raises ModelFileError when the file cannot be read or is not
    a complete SentencePiece model.
    """

    family = "sentencepiece"
    # Not byte-level: the dummy prefix adds a space, normalizers change text, and models without
    # byte fallback turn unseen characters into <unk>.
    byte_level = False

    def __init__(self, model_path: str | Path, *, name: str | None = None):
        path = Path(model_path)
        data = read_regular_file(path, what="a SentencePiece .model file")
        self.info = read_model_info(data, path)
        import sentencepiece

        try:
            self._sp = sentencepiece.SentencePieceProcessor(model_proto=data)
        except (RuntimeError, OSError, ValueError) as err:
            # a file cut at a field boundary parses but contradicts itself: say what that usually is
            raise ModelFileError(path, f"sentencepiece cannot load it ({err}); the file is probably truncated or "
                                       f"damaged") from None
        self.path = path
        self.name = name or path.name
        self.source = said("{path} ({model})", path=path, model=self.info.describe())
        # The C++ processor is documented thread-safe for encoding, but the lazy tables are not.
        self._lock = threading.Lock()
        # Per-id caches (plain dicts: filling one twice from two threads is harmless).
        self._kinds: dict[int, TokenKind] = {}
        self._bytes: dict[int, bytes] = {}
        self._pieces: dict[int, str] = {}
        self._entries: dict[int, tuple[TokenKind, bytes, str]] = {}  # id -> (kind, bytes, piece)

    # ---- vocabulary -----------------------------------------------------------------------------
    @property
    def processor(self):
        """The underlying ``sentencepiece.SentencePieceProcessor``."""
        return self._sp

    @property
    def vocab_size(self) -> int:
        return self._sp.get_piece_size()

    def _check_id(self, token_id: int) -> None:
        if not 0 <= token_id < self._sp.get_piece_size():
            raise ValueError(f"token id {token_id} is outside {self.name}'s vocabulary (0..{self.vocab_size - 1})")

    def piece(self, token_id: int) -> str:
        """The vocabulary entry of ``token_id`` as SentencePiece writes it (``▁안녕``, ``<0xEB>``)."""
        self._check_id(token_id)
        return self._sp.id_to_piece(token_id)

    def kind(self, token_id: int) -> TokenKind:
        """``byte_fallback`` for ``<0xNN>`` pieces, ``unknown`` for ``<unk>``, ``special`` for control pieces."""
        self._check_id(token_id)
        return self._kind(token_id)

    def _kind(self, token_id: int) -> TokenKind:
        kind = self._kinds.get(token_id)
        if kind is None:
            sp = self._sp
            if sp.is_byte(token_id):
                kind = "byte_fallback"
            elif sp.is_unknown(token_id):
                kind = "unknown"
            elif sp.is_control(token_id):
                kind = "special"
            else:
                kind = "normal"
            self._kinds[token_id] = kind
        return kind

    def token_bytes(self, token_id: int) -> bytes:
        """Bytes ``token_id`` stands for: ``▁`` as a space, ``<0xNN>`` as that byte; control and
        unknown pieces as their own text (``<s>``, ``<unk>``)."""
        self._check_id(token_id)
        return self._token_bytes(token_id)

    def _token_bytes(self, token_id: int) -> bytes:
        found = self._bytes.get(token_id)
        if found is not None:
            return found
        piece = self._sp.id_to_piece(token_id)
        kind = self._kind(token_id)
        m = _BYTE_PIECE.fullmatch(piece) if kind == "byte_fallback" else None
        if m:
            found = bytes([int(m.group(1), 16)])
        elif kind in ("special", "unknown") or self._sp.is_unused(token_id):
            found = piece.encode("utf-8")
        else:
            found = piece.replace(SPACE_MARK, " ").encode("utf-8")
        self._bytes[token_id] = found
        return found

    @cached_property
    def _specials(self) -> dict[str, int]:
        sp = self._sp
        return {sp.id_to_piece(i): i for i in range(sp.get_piece_size()) if sp.is_control(i)}

    def special_tokens(self) -> Mapping[str, int]:
        """Control pieces (``<s>``, ``</s>``, ``[INST]``...) by text; they never come from plain text."""
        with self._lock:
            return dict(self._specials)

    @cached_property
    def _special_split(self) -> re.Pattern | None:
        names = sorted(self._specials, key=len, reverse=True)
        return re.compile("|".join(re.escape(n) for n in names)) if names else None

    # ---- encode / decode ----------------------------------------------------------------------------
    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        """Tokens of ``text`` with byte spans into its UTF-8.

        Ids equal ``SentencePieceProcessor.encode(text)``. With ``allow_special`` the text is first
        split at control-piece strings (``</s>``, ``[INST]``); each such string becomes one special
        token and the parts between are encoded on their own (each gets its own dummy prefix).
        """
        data = check_text(text)
        segments: list[tuple[str, int, int | None]] = []  # (text, byte offset, special id or None)
        if allow_special:
            with self._lock:
                split = self._special_split
            if split is not None:
                starts = char_byte_starts(text)
                pos = 0
                for m in split.finditer(text):
                    if m.start() > pos:
                        segments.append((text[pos:m.start()], starts[pos], None))
                    segments.append((m.group(), starts[m.start()], self._specials[m.group()]))
                    pos = m.end()
                if pos < len(text):
                    segments.append((text[pos:], starts[pos], None))
        if not segments:
            segments = [(text, 0, None)] if text else []

        normalized = self._normalized(text)
        id_parts, start_parts, end_parts = [], [], []
        for seg_text, offset, special_id in segments:
            if special_id is not None:
                id_parts.append(np.array([special_id], dtype=np.int64))
                start_parts.append(np.array([offset], dtype=np.int64))
                end_parts.append(np.array([offset + len(seg_text.encode("utf-8"))], dtype=np.int64))
                continue
            ids, spans = self._pieces_with_spans(seg_text)
            # fromiter over the flattened pairs: np.array on a list of a million tuples is ~3x slower
            span_array = np.fromiter(chain.from_iterable(spans), dtype=np.int64, count=2 * len(spans)).reshape(-1, 2)
            id_parts.append(np.fromiter(ids, dtype=np.int64, count=len(ids)))
            start_parts.append(span_array[:, 0] + offset)
            end_parts.append(span_array[:, 1] + offset)
        empty = np.zeros(0, dtype=np.int64)
        ids = np.concatenate(id_parts) if id_parts else empty
        bs = np.concatenate(start_parts) if start_parts else empty
        be = np.concatenate(end_parts) if end_parts else empty

        # per distinct id, not per token: kind, bytes and piece from the vocabulary. Distinct ids by
        # marking them in a vocabulary-sized table (linear; np.unique sorts a million ids in ~0.1 s).
        present = np.zeros(self._sp.get_piece_size(), dtype=bool)
        present[ids] = True
        distinct = np.flatnonzero(present)
        slot = np.zeros(len(present), dtype=np.int32)
        slot[distinct] = np.arange(len(distinct), dtype=np.int32)
        inverse = slot[ids]
        entries = [self._entry(t) for t in distinct.tolist()]
        kinds = np.array([KIND_CODES[e[0]] for e in entries], dtype=np.uint8)[inverse]
        lengths = np.array([len(e[1]) for e in entries], dtype=np.int64)
        vocab_blob = b"".join(e[1] for e in entries)
        b0 = (np.cumsum(lengths) - lengths)[inverse]
        b1 = b0 + lengths[inverse]
        if (kinds == KIND_CODES["byte_fallback"]).any():
            _spread_byte_fallback(bs, be, kinds, b0, b1, vocab_blob, data)
        unknown = kinds == KIND_CODES["unknown"]
        if unknown.any():
            # An unknown piece stands for the text it could not encode: show that text (the blob
            # carries the text's bytes after the vocabulary's).
            b0[unknown] = len(vocab_blob) + bs[unknown]
            b1[unknown] = len(vocab_blob) + be[unknown]
            vocab_blob += data
        if len(bs) > 1 and ((bs[1:] < be[:-1]).any() or (be < bs).any()):
            # Spans must be ordered and disjoint; SentencePiece's are, but a normalizer that reorders
            # (it never should) must not break the Encoding: clamp each span after the one before.
            be = np.maximum.accumulate(np.maximum(bs, be))
            bs = np.maximum(bs, np.concatenate(([0], be[:-1])))
        return Encoding.from_arrays(
            self.name, text, ids, bs, be, kinds=kinds, token_bytes=(vocab_blob, b0, b1),
            raws=(tuple(e[2] for e in entries), inverse), normalized_text=normalized, data=data,
        )

    def _pieces_with_spans(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """Ids and byte spans as sentencepiece reports them, by the fastest route this version has."""
        sp = self._sp
        if self._route == "offset_mapping":  # sentencepiece >= 0.2.1: offsets straight from C++
            found = sp.encode(text, return_type="offset_mapping", return_bytes=True)
            return found["ids"], found["offsets"]
        # older versions: the same spans from the serialized SentencePieceText, read here
        rows = _parse_pieces(sp.encode(text, out_type="serialized_proto"))
        return [r[0] for r in rows], [(r[2], r[3]) for r in rows]

    @cached_property
    def _route(self) -> str:
        sp = self._sp
        try:
            found = sp.encode("a b", return_type="offset_mapping", return_bytes=True)
            if isinstance(found, dict) and "offsets" in found:
                return "offset_mapping"
        except (TypeError, ValueError, RuntimeError):
            pass
        return "serialized_proto"

    def _entry(self, token_id: int) -> tuple[TokenKind, bytes, str]:
        """(kind, bytes, piece) of an id, cached (filling it twice from two threads is harmless)."""
        entry = self._entries.get(token_id)
        if entry is None:
            entry = self._entries[token_id] = (self._kind(token_id), self._token_bytes(token_id), self._piece(token_id))
        return entry

    def _piece(self, token_id: int) -> str:
        piece = self._pieces.get(token_id)
        if piece is None:
            piece = self._pieces[token_id] = self._sp.id_to_piece(token_id)
        return piece

    def _normalized(self, text: str) -> str | None:
        """The text as the normalizer saw it (▁ as space, dummy prefix dropped), when it differs."""
        normalize = getattr(self._sp, "normalize", None)
        if normalize is None or not text:
            return None
        try:
            norm = normalize(text)
        except (RuntimeError, TypeError, ValueError):
            return None
        norm = norm.replace(SPACE_MARK, " ")
        if self.info.add_dummy_prefix:
            if self.info.whitespace_as_suffix and norm.endswith(" "):
                norm = norm[:-1]
            elif not self.info.whitespace_as_suffix and norm.startswith(" "):
                norm = norm[1:]
        return None if norm == text else norm

    def decode(self, ids: Sequence[int]) -> str:
        """Text of ``ids``. Control pieces decode to their own text (``</s>``), as tiktoken's special
        tokens do, so ``decode(encode(x, allow_special=True)) == x`` wherever SentencePiece's own
        decode gives ``x`` back; the runs between them are decoded by sentencepiece as usual."""
        ids = [int(i) for i in ids]
        size = self._sp.get_piece_size()
        distinct = set(ids)
        if distinct and (min(distinct) < 0 or max(distinct) >= size):
            for i in ids:
                self._check_id(i)  # raises, naming the first bad id
        if not any(self._kind(i) == "special" for i in distinct):
            return self._sp.decode(ids)  # the common case, without a Python step per token
        out: list[str] = []
        run: list[int] = []
        for i in ids:
            if self._kind(i) == "special":
                if run:
                    out.append(self._sp.decode(run))
                    run = []
                out.append(self._piece(i))
            else:
                run.append(i)
        if run:
            out.append(self._sp.decode(run))
        return "".join(out)


def _spread_byte_fallback(bs: np.ndarray, be: np.ndarray, kinds: np.ndarray, b0: np.ndarray, b1: np.ndarray,
                          blob: bytes, data: bytes) -> None:
    """Give each ``<0xNN>`` piece its own byte of the text (spans changed in place).

    SentencePiece reports the byte pieces of one character with empty spans except the last, which
    gets the whole character. For each such group whose bytes are exactly the text's bytes under
    its span (no normalizer change), each piece gets a one-byte span; a group the normalizer
    changed keeps SentencePiece's spans, since its bytes are not the text's.
    """
    fb = kinds == KIND_CODES["byte_fallback"]
    closing = np.flatnonzero(fb & (be != bs))  # the last piece of each character
    if not len(closing):
        return
    # a group runs back from its closing piece over the empty-span byte pieces just before it
    open_piece = fb & (be == bs)
    last_other = np.maximum.accumulate(np.where(open_piece, -1, np.arange(len(kinds))))
    first = np.zeros(len(closing), dtype=np.int64)
    later = closing > 0
    first[later] = last_other[closing[later] - 1] + 1
    n = closing + 1 - first
    lo, hi = bs[first], be[closing]
    one_byte = np.cumsum((b1 - b0) == 1)
    ones = one_byte[closing] - one_byte[first] + ((b1[first] - b0[first]) == 1)
    fits = (hi - lo) == n
    # Vectorized for the usual groups (one byte per piece, one piece per byte of the span): a
    # Python loop over the groups cost ~0.3 s for a 5 MB paste with 30,000 emoji.
    simple = np.flatnonzero(fits & (ones == n))
    if len(simple):
        counts = n[simple]
        offset = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        token = np.repeat(first[simple], counts) + offset
        at = np.repeat(lo[simple], counts) + offset
        text_bytes = np.frombuffer(data, dtype=np.uint8)
        piece_bytes = np.frombuffer(blob, dtype=np.uint8)
        group = np.repeat(np.arange(len(simple)), counts)
        wrong = np.bincount(group, weights=text_bytes[at] != piece_bytes[b0[token]], minlength=len(simple))
        same = (wrong == 0)[group]
        bs[token[same]] = at[same]
        be[token[same]] = at[same] + 1
    for g in np.flatnonzero(fits & (ones != n)).tolist():  # pieces of other lengths (never seen)
        i, j, low = int(first[g]), int(closing[g]), int(lo[g])
        pieces = b"".join(blob[x:y] for x, y in zip(b0[i:j + 1].tolist(), b1[i:j + 1].tolist(), strict=True))
        if data[low:int(hi[g])] == pieces:
            bs[i:j + 1] = np.arange(low, low + j + 1 - i)
            be[i:j + 1] = bs[i:j + 1] + 1


# ---- built-in models ---------------------------------------------------------------------------------
def bundled_models() -> list[Path]:
    """The ``*.model`` files shipped in tokviz's resources (``resources/models``), sorted by name."""
    try:
        from tokviz.core.package_data import resources_dir

        folder = resources_dir() / "models"
    except FileNotFoundError:
        return []
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.model") if p.is_file())


def probe_model_file(path: Path) -> tuple[bool, str]:
    """(available, source or reason) for a .model file without loading it into sentencepiece."""
    try:
        head = read_head(path, 4096)
    except ModelFileError as err:
        return False, problem_of(err)
    if not head:
        return False, said("{path}: the file is empty", path=path)
    if not looks_like_model_proto(head):
        return False, said("{path}: not a SentencePiece model", path=path)
    return True, str(path)


# ---- what this family offers ---------------------------------------------------------------------
def entries() -> list[EncoderEntry]:
    """Every bundled ``resources/models/*.model`` as ``sp:<file stem>``."""
    out = []
    for path in bundled_models():
        name = f"sp:{path.stem}"
        try:
            vocab = read_model_info(read_regular_file(path), path).pieces
        except ModelFileError:
            vocab = None  # the probe reports the problem
        out.append(EncoderEntry(
            name, "sentencepiece",
            lambda p=path: probe_model_file(p),
            lambda p=path, n=name: SentencePieceEncoder(p, name=n),
            vocab,
            f"SentencePiece model {path.name}",
        ))
    return out


def _sniff(path: Path, head: bytes) -> bool:
    return looks_like_model_proto(head)


def _open_model(path: Path, pattern: str | None) -> SentencePieceEncoder:
    return SentencePieceEncoder(path)  # SentencePiece models split text themselves: no pattern


def loaders() -> list[ModelLoader]:
    """The model-file format this family opens: any SentencePiece ``.model`` (its sniff is the most
    specific of all, so the composition lists it first)."""
    return [ModelLoader("sentencepiece", _sniff, _open_model, "a SentencePiece .model (serialized ModelProto)")]
