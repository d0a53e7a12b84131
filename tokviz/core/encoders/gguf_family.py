"""GGUF model files (llama.cpp): the vocabulary embedded in the file, read with the ``gguf`` package's format.

A GGUF file carries its tokenizer as metadata (``tokenizer.ggml.*``): the model kind (``gpt2`` =
byte-level BPE, ``llama`` = SentencePiece BPE, ``bert`` = WordPiece, ``t5`` = SentencePiece Unigram),
the token strings, their scores and types (normal, control, user-defined, byte, ...), the merges,
bos/eos ids and ``tokenizer.ggml.pre``, the *name* of the pre-split llama.cpp applies. The name is
all there is, so each known name is mapped to its model's splits
(:data:`~tokviz.core.encoders.gguf_presplits.PRE_SPLITS`); an unknown name is refused with a message
naming it, never replaced by a guess.

Only the metadata is read: the file is memory-mapped and walked from the header through the
key/value pairs, every length checked against the bytes left, and the walk stops before the tensor
infos, so no tensor is ever touched (a 40 GB model costs what its vocabulary costs). The value types
and keys are the ``gguf`` package's; its ``GGUFReader`` is not used because it also indexes every
tensor (failing on quant types it does not know), keeps a numpy array per vocabulary entry, and
loops without end on an array whose count runs past the end of the file.

- ``gpt2`` vocabularies become a ``tokenizers`` BPE model, so the encoder is the tokenizer.json one
  (:class:`~tokviz.core.encoders.hf_json.HFTokenizerEncoder`): exact bytes per token, control tokens
  as single special tokens.
- ``llama`` vocabularies become a SentencePiece BPE ``ModelProto`` (pieces, scores and types as
  written, byte fallback when the file has byte tokens), so the encoder is the SentencePiece one;
  ``t5`` vocabularies a Unigram one with the file's precompiled charsmap as its normalizer.
- ``bert`` vocabularies become a tokenizer.json WordPiece model with BERT's lowercasing normalizer
  (:mod:`~tokviz.core.encoders.gguf_wordpiece`).

Either way the file's chat template and bos/eos tokens go to the composer (:class:`ModelConfig`).
"""

from __future__ import annotations

import json
import mmap
import os
import stat
import struct
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tokviz.core.encoders.base import EncoderEntry, ModelLoader
from tokviz.core.encoders.files import MAX_VOCAB_ENTRIES
from tokviz.core.encoders.gguf_presplits import PRE_SPLITS, pre_tokenizer_json
from tokviz.core.encoders.gguf_wordpiece import wordpiece_tokenizer_json
from tokviz.core.encoders.hf_json import HFTokenizerEncoder, ModelConfig
from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder
from tokviz.core.encoders.sources import said
from tokviz.core.errors import ModelFileError

FAMILY = "gguf"
MAGIC = b"GGUF"

# Token types as llama.cpp writes them (gguf.TokenType; the same numbers as SentencePiece's piece types).
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6

# The tokenizer models tokviz reads, and what each is.
MODELS = {"gpt2": "byte-level BPE", "llama": "SentencePiece BPE", "bert": "WordPiece",
          "t5": "SentencePiece Unigram"}


# ---- reading the metadata -------------------------------------------------------------------------
@dataclass(frozen=True)
class GGUFVocab:
    """The tokenizer metadata of a GGUF file (``types``/``scores`` filled in when the file omits them)."""

    model: str
    pre: str | None
    tokens: list[str]
    types: list[int]
    scores: list[float]
    merges: list[str]
    bos_id: int | None = None
    eos_id: int | None = None
    unk_id: int | None = None
    pad_id: int | None = None
    add_space_prefix: bool = True
    remove_extra_whitespaces: bool = False
    chat_template: str | None = None
    charsmap: bytes = b""  # SentencePiece's precompiled normalization rules (``t5`` files)
    metadata: dict = field(default_factory=dict)  # every tokenizer.* / general.* scalar, for the About box


# The keys whose values are kept; the others (model hyper-parameters, big unrelated arrays) are stepped over.
_KEPT_PREFIXES = ("tokenizer.", "general.")
_MAX_NESTING = 3  # arrays of arrays of ...: GGUF allows them, no tokenizer uses them
# The most items an array may hold when tokviz keeps it or walks it item by item (strings, arrays).
# The biggest real vocabularies have 262,144 tokens (Gemma 3); a count past this is a lie that would
# cost minutes of walking (10**8 empty strings: 73 s) or gigabytes of Python objects.
MAX_ARRAY_ITEMS = MAX_VOCAB_ENTRIES
# The bytes of all kept strings together (tokens, merges, chat template), checked as they are read.
MAX_KEPT_BYTES = 256 * 1024 * 1024
# The token list: every entry a distinct non-empty string (10**7 empty ones made a 1-token vocabulary
# that encoded any text to nothing).
_TOKENS_KEY = "tokenizer.ggml.tokens"
_CHARSMAP_KEY = "tokenizer.ggml.precompiled_charsmap"


class _MetadataWalk:
    """A bounds-checked walk over the key/value section of a memory-mapped GGUF file.

    Every length and count is checked against the bytes left before anything is read, so a damaged
    or hostile file ends in a ModelFileError after at most one pass over its bytes.
    """

    def __init__(self, buf, path: Path):
        from gguf import GGUFValueType

        self.buf = buf
        self.path = path
        self.pos = 0
        self.end = len(buf)
        self.order = "<"
        self.kept = 0  # bytes of the strings kept so far
        v = GGUFValueType
        self.STRING, self.ARRAY = v.STRING, v.ARRAY
        self.scalars = {v.UINT8: "B", v.INT8: "b", v.UINT16: "H", v.INT16: "h", v.UINT32: "I", v.INT32: "i",
                        v.FLOAT32: "f", v.BOOL: "?", v.UINT64: "Q", v.INT64: "q", v.FLOAT64: "d"}

    def fail(self, problem: str):
        raise ModelFileError(self.path, f"is truncated or damaged: {problem} (at byte {self.pos:,} of {self.end:,})")

    def refuse(self, problem: str):
        raise ModelFileError(self.path, f"{problem} (at byte {self.pos:,}; a damaged or hostile file)")

    def take(self, n: int, what: str) -> int:
        """Claim ``n`` bytes for ``what``; the offset where they start."""
        if n > self.end - self.pos:
            self.fail(f"{what} needs {n:,} bytes but the file ends {self.end - self.pos:,} bytes later")
        start = self.pos
        self.pos += n
        return start

    def scalar(self, code: str, what: str):
        size = struct.calcsize(code)
        return struct.unpack_from(self.order + code, self.buf, self.take(size, what))[0]

    def string(self, what: str, keep: bool = True) -> str | None:
        n = self.scalar("Q", f"the length of {what}")
        start = self.take(n, what)
        if not keep:
            return None
        self.kept += n
        if self.kept > MAX_KEPT_BYTES:  # a GGUF may be 40 GB: its size bounds nothing kept in memory
            self.refuse(f"its tokenizer metadata passes {MAX_KEPT_BYTES:,} bytes at {what}; real vocabularies, "
                        "merges and templates take a few MB")
        try:
            return bytes(self.buf[start:start + n]).decode("utf-8")
        except UnicodeDecodeError as err:
            self.pos = start + err.start
            self.fail(f"{what} is not UTF-8")

    def value(self, vtype: int, what: str, keep: bool, depth: int = 0, distinct: bool = False):
        if vtype == self.STRING:
            return self.string(what, keep)
        code = self.scalars.get(vtype)
        if code is not None:
            return self.scalar(code, what)
        if vtype != self.ARRAY:
            self.fail(f"{what} has the unknown value type {vtype}")
        if depth >= _MAX_NESTING:
            self.fail(f"{what} nests arrays more than {_MAX_NESTING} deep")
        itype = self.scalar("I", f"the item type of {what}")
        count = self.scalar("Q", f"the length of {what}")
        code = self.scalars.get(itype)
        if code is not None:
            size = struct.calcsize(code)
            start = self.take(count * size, f"{what} ({count:,} items)")
            if not keep:
                return None
            self.check_count(count, what)
            return list(struct.unpack_from(f"{self.order}{count}{code}", self.buf, start))
        # strings take at least their 8-byte length, arrays at least 12 bytes: a count past that is a lie
        least = {self.STRING: 8, self.ARRAY: 12}.get(itype)
        if least is None:
            self.fail(f"{what} holds items of the unknown type {itype}")
        if count > (self.end - self.pos) // least:
            self.fail(f"{what} claims {count:,} items, more than the rest of the file can hold")
        self.check_count(count, what)
        if itype == self.STRING:
            return self.strings(count, what, keep, distinct)
        items = [self.value(self.ARRAY, f"item {i} of {what}", keep, depth + 1) for i in range(count)]
        return items if keep else None

    def check_count(self, count: int, what: str) -> None:
        if count > MAX_ARRAY_ITEMS:
            self.refuse(f"{what} claims {count:,} items; tokviz reads at most {MAX_ARRAY_ITEMS:,} (the largest real "
                      "vocabularies have a few hundred thousand)")

    def strings(self, count: int, what: str, keep: bool, distinct: bool) -> list[str] | None:
        """``count`` strings; with ``distinct``, the walk stops at the first empty or repeated one.

        What :meth:`string` does for each, in one loop that names an item only when it is at fault:
        naming each of a vocabulary's strings (and a call per string) was most of reading a GGUF."""
        buf, end, length_at = self.buf, self.end, struct.Struct(self.order + "Q").unpack_from
        items: list[str | None] = []
        seen: dict[str, int] = {}
        pos, kept = self.pos, self.kept
        keep = keep or distinct  # the tokens are read to be checked, whether kept or not
        for i in range(count):
            item = None
            n = length_at(buf, pos)[0] if end - pos >= 8 else end
            stop = pos + 8 + n
            try:
                if stop > end or (keep and kept + n > MAX_KEPT_BYTES):
                    raise ValueError
                if keep:
                    item = buf[pos + 8 : stop].decode("utf-8")
                pos, kept = stop, kept + (n if keep else 0)
            except ValueError:  # UnicodeDecodeError too: string() says what is wrong, at the right byte
                self.pos, self.kept = pos, kept
                item = self.string(f"item {i} of {what}", keep)
                pos, kept = self.pos, self.kept
            if distinct:
                self.pos = pos
                if not item:
                    self.refuse(f"token {i:,} of {what} is an empty string; every token stands for some text")
                if item in seen:
                    self.refuse(f"token {i:,} of {what} repeats token {seen[item]:,} ({item[:40]!r}); a vocabulary's "
                                "tokens are distinct")
                seen[item] = i
            else:
                items.append(item)
        self.pos, self.kept = pos, kept
        if not keep:
            return None
        return list(seen) if distinct else items

    def read(self) -> dict[str, object]:
        """The kept metadata values by key; the walk stops where the tensor infos begin."""
        import gguf

        self.take(4, "the magic")
        version = struct.unpack_from("<I", self.buf, 4)[0]
        if version & 0xFFFF == 0 and version:  # written on a big-endian machine
            self.order = ">"
            version = struct.unpack_from(">I", self.buf, 4)[0]
        self.take(4, "the version")
        if version not in gguf.READER_SUPPORTED_VERSIONS:
            raise ModelFileError(self.path, f"is GGUF version {version}; tokviz reads versions "
                                            f"{', '.join(map(str, gguf.READER_SUPPORTED_VERSIONS))}")
        self.scalar("Q", "the tensor count")
        kv_count = self.scalar("Q", "the metadata count")
        found: dict[str, object] = {}
        for _ in range(kv_count):
            key = self.string("a metadata key")
            vtype = self.scalar("I", f"the type of {key!r}")
            keep = key.startswith(_KEPT_PREFIXES)
            value = self.value(vtype, repr(key), keep, distinct=key == _TOKENS_KEY)
            if key in found:
                self.fail(f"the key {key!r} appears twice")
            if keep:
                found[key] = value
        return found


def read_gguf_metadata(path: str | Path) -> dict[str, object]:
    """The ``tokenizer.*`` and ``general.*`` metadata of the GGUF file at ``path``, without touching its tensors.

    Raises ModelFileError for a file that is not a regular file, not GGUF, or truncated / damaged.
    """
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as err:
        raise ModelFileError(p, f"cannot read ({err.strerror or err})") from None
    if not stat.S_ISREG(st.st_mode):  # opening a FIFO would block; a device never ends
        raise ModelFileError(p, "is not a regular file; tokviz reads GGUF models only from regular files")
    if st.st_size < 8:
        raise ModelFileError(p, "is too short to be a GGUF file" if st.st_size else "the file is empty")
    try:
        import gguf  # noqa: F401  (its value types and versions define the format)
    except ImportError as err:
        raise ModelFileError(p, "reading GGUF files needs the 'gguf' package (pip install gguf)") from err
    try:
        with p.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            if buf[:4] != MAGIC:
                raise ModelFileError(p, "is not a GGUF file (it does not start with 'GGUF')")
            return _MetadataWalk(buf, p).read()
    except OSError as err:
        raise ModelFileError(p, f"cannot read ({err.strerror or err})") from None
    except MemoryError:
        raise ModelFileError(p, "declares metadata too large to hold in memory (damaged or hostile file)") from None


def _id(meta: dict, key: str, n: int, path: Path) -> int | None:
    value = meta.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise ModelFileError(path, f"{key} is {value!r}, not a token id of its {n:,}-token vocabulary")
    return value


def _list(meta: dict, key: str, kind: type, path: Path) -> list | None:
    value = meta.get(key)
    if value is None:
        return None
    # the walk yields exact str/int/float/bool values, so a set of types (at C speed) replaces an isinstance per
    # item: that per-item check was a third of reading a 150k-token vocabulary. bool is its own type here.
    if not isinstance(value, list) or not set(map(type, value)) <= {kind}:
        raise ModelFileError(path, f"{key} is not a list of {kind.__name__} values")
    return value


def read_gguf_vocab(path: str | Path) -> GGUFVocab:
    """Read the vocabulary of the GGUF file at ``path``.

    Raises ModelFileError for a file that is not GGUF, is truncated, or has no (consistent) tokenizer in it.
    """
    p = Path(path)
    meta = read_gguf_metadata(p)
    model = meta.get("tokenizer.ggml.model")
    tokens = _list(meta, "tokenizer.ggml.tokens", str, p)
    if not isinstance(model, str) or tokens is None:
        raise ModelFileError(p, "has no tokenizer (no tokenizer.ggml.model / tokenizer.ggml.tokens metadata)")
    if not tokens:
        raise ModelFileError(p, "has an empty token list")
    n = len(tokens)
    types = _list(meta, "tokenizer.ggml.token_type", int, p)
    scores = meta.get("tokenizer.ggml.scores")
    if scores is not None and (not isinstance(scores, list) or not set(map(type, scores)) <= {int, float}):
        raise ModelFileError(p, "tokenizer.ggml.scores is not a list of numbers")
    for key, values in (("tokenizer.ggml.token_type", types), ("tokenizer.ggml.scores", scores)):
        if values is not None and len(values) != n:
            raise ModelFileError(p, f"lists {n:,} tokens but {len(values):,} values in {key}")
    merges = _list(meta, "tokenizer.ggml.merges", str, p) or []
    pre = meta.get("tokenizer.ggml.pre")
    template = meta.get("tokenizer.chat_template")
    charsmap = meta.get(_CHARSMAP_KEY)
    if charsmap is not None and (not isinstance(charsmap, list)
                                 or not all(isinstance(b, int) and 0 <= b < 256 for b in charsmap)):
        raise ModelFileError(p, f"{_CHARSMAP_KEY} is not a list of bytes")
    flags = {k: meta.get(f"tokenizer.ggml.{k}") for k in ("add_space_prefix", "remove_extra_whitespaces")}
    return GGUFVocab(
        model, pre if isinstance(pre, str) else None, tokens,
        types if types is not None else [NORMAL] * n,
        [float(s) for s in scores] if scores is not None else [0.0] * n,
        merges,
        bos_id=_id(meta, "tokenizer.ggml.bos_token_id", n, p),
        eos_id=_id(meta, "tokenizer.ggml.eos_token_id", n, p),
        unk_id=_id(meta, "tokenizer.ggml.unknown_token_id", n, p),
        pad_id=_id(meta, "tokenizer.ggml.padding_token_id", n, p),
        add_space_prefix=flags["add_space_prefix"] if isinstance(flags["add_space_prefix"], bool) else True,
        remove_extra_whitespaces=bool(flags["remove_extra_whitespaces"]),
        chat_template=template if isinstance(template, str) else None,
        charsmap=bytes(charsmap or b""),
        metadata={k: v for k, v in meta.items() if not isinstance(v, list)},
    )


# ---- gpt2: a tokenizers BPE model ---------------------------------------------------------------------
def tokenizer_json(vocab: GGUFVocab, path: str | Path = "<gguf>") -> str:
    """The tokenizer.json equivalent of a byte-level BPE (``gpt2``) GGUF vocabulary.

    Raises ModelFileError for an unknown pre-split name (the regex decides the ids, so it is not guessed).
    """
    pre_name = vocab.pre or "default"
    if vocab.pre is None:
        raise ModelFileError(
            path, "its byte-level BPE vocabulary names no pre-split (no tokenizer.ggml.pre; llama.cpp's converters "
                  "write it since 2024) and the regex decides the ids, so it is not guessed. Convert it again, or "
                  "open the model's tokenizer.json")
    if pre_name not in PRE_SPLITS:
        raise ModelFileError(
            path, f"its pre-split is named {pre_name!r}, which tokviz does not know, and the regex decides the ids, "
                  f"so it is not guessed. Known names: {', '.join(PRE_SPLITS)}")
    split = PRE_SPLITS[pre_name]
    # As llama.cpp matches them: user-defined tokens always, control and unknown ones only as special tokens.
    added = [
        {"id": i, "content": tok, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False,
         "special": kind != USER_DEFINED}
        for i, (tok, kind) in enumerate(zip(vocab.tokens, vocab.types, strict=True))
        if kind in (CONTROL, USER_DEFINED, UNKNOWN)
    ]
    doc = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added, "normalizer": None,
        "pre_tokenizer": pre_tokenizer_json(split), "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        "model": {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
            "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
            "ignore_merges": split.ignore_merges,
            "vocab": {tok: i for i, tok in enumerate(vocab.tokens)},
            "merges": vocab.merges,
        },
    }
    return json.dumps(doc, ensure_ascii=False)


class GGUFEncoder(HFTokenizerEncoder):
    """A byte-level BPE (``gpt2``) GGUF vocabulary, encoded through ``tokenizers``."""

    family = FAMILY


# ---- llama: a SentencePiece BPE model -------------------------------------------------------------------
def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # negative int32 fields are written as 64-bit two's complement
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _tag(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


def _bytes_field(number: int, payload: bytes) -> bytes:
    return _tag(number, 2) + _varint(len(payload)) + payload


def _int_field(number: int, value: int) -> bytes:
    return _tag(number, 0) + _varint(int(value))


def sentencepiece_piece_types(vocab: GGUFVocab, path: str | Path = "<gguf>") -> tuple[list[int], int]:
    """The piece types for a SentencePiece model of ``vocab``, and its unknown id.

    SentencePiece takes exactly one unknown piece; llama.cpp takes the file's ``unknown_token_id`` and
    treats every other token typed unknown like a control token (matched in text only as a special
    token). Phi-3's converter marks its 53 ``[PADnnnnn]`` tokens unknown and its ``<unk>`` control, so
    the unknown piece is the file's ``unknown_token_id`` (else its first unknown-typed token), and the
    other unknown-typed tokens become control pieces.

    >>> v = GGUFVocab("llama", None, ["<unk>", "a", "[PAD]"], [CONTROL, NORMAL, UNKNOWN], [0.0] * 3, [], unk_id=0)
    >>> sentencepiece_piece_types(v)
    ([2, 1, 3], 0)
    """
    bad = next((i for i, t in enumerate(vocab.types) if not NORMAL <= t <= BYTE), None)
    if bad is not None:
        raise ModelFileError(path, f"token {bad} has the type {vocab.types[bad]}, which is not a SentencePiece "
                                   "piece type (1-6)")
    unk = vocab.unk_id if vocab.unk_id is not None else next(
        (i for i, t in enumerate(vocab.types) if t == UNKNOWN), None)
    if unk is None:
        raise ModelFileError(path, "its SentencePiece-style vocabulary has no unknown token (token type 2, or "
                                   "tokenizer.ggml.unknown_token_id), which SentencePiece needs")
    types = [CONTROL if t == UNKNOWN else t for t in vocab.types]
    types[unk] = UNKNOWN
    return types, unk


def sentencepiece_model_proto(vocab: GGUFVocab, path: str | Path = "<gguf>", *, unigram: bool = False) -> bytes:
    """A serialized SentencePiece ``ModelProto`` holding a ``llama`` (BPE) or ``t5`` (Unigram) GGUF vocabulary.

    Pieces and scores go in as the file has them, types as :func:`sentencepiece_piece_types` makes
    them (llama.cpp's token types are SentencePiece's piece types); byte fallback is on when the file
    has byte tokens. The normalizer is the file's precompiled charsmap (``t5`` files carry one) or
    the identity (llama.cpp normalizes ``llama`` vocabularies no further), with the dummy prefix and
    whitespace folding the file asks for.

    Raises ModelFileError for a token type SentencePiece does not have, or no unknown token.
    """
    types, unk = sentencepiece_piece_types(vocab, path)
    pieces = b"".join(
        _bytes_field(1, _bytes_field(1, tok.encode("utf-8")) + _tag(2, 5) + struct.pack("<f", score)
                     + _int_field(3, kind))
        for tok, score, kind in zip(vocab.tokens, vocab.scores, types, strict=True)
    )
    trainer = (_int_field(3, 1 if unigram else 2) + _int_field(4, len(vocab.tokens))
               + _int_field(35, BYTE in vocab.types)
               + _int_field(40, unk) + _int_field(41, -1 if vocab.bos_id is None else vocab.bos_id)
               + _int_field(42, -1 if vocab.eos_id is None else vocab.eos_id)
               + _int_field(43, -1 if vocab.pad_id is None else vocab.pad_id))
    rules = _bytes_field(1, b"identity") if not vocab.charsmap else (
        _bytes_field(1, b"precompiled") + _bytes_field(2, vocab.charsmap))
    normalizer = (rules + _int_field(3, vocab.add_space_prefix)
                  + _int_field(4, vocab.remove_extra_whitespaces) + _int_field(5, 1))
    return pieces + _bytes_field(2, trainer) + _bytes_field(3, normalizer)


class GGUFSentencePieceEncoder(SentencePieceEncoder):
    """A SentencePiece-style (``llama``) GGUF vocabulary, encoded by ``sentencepiece`` itself."""

    family = FAMILY

    def __init__(self, path: Path, proto: bytes, *, name: str, config: ModelConfig):
        # SentencePieceEncoder reads a .model file; the proto lives in a private temporary one only
        # for the moment sentencepiece reads it.
        fd, tmp = tempfile.mkstemp(suffix=".model", prefix="tokviz-gguf-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(proto)
            super().__init__(tmp, name=name)
        except ModelFileError as err:
            raise ModelFileError(path, f"its SentencePiece vocabulary cannot be loaded: {err.problem}") from None
        finally:
            os.unlink(tmp)
        self.path = path
        self.config = config
        self.source = said("{path} (GGUF, SentencePiece vocabulary: {model})", path=path, model=self.info.describe())


# ---- opening a file -------------------------------------------------------------------------------
def load_gguf(path: str | Path, *, name: str | None = None) -> GGUFEncoder | GGUFSentencePieceEncoder:
    """An encoder for the vocabulary embedded in the GGUF file at ``path``.

    Raises ModelFileError for a damaged file, a tokenizer kind other than those in :data:`MODELS`, or
    an unknown pre-split name.
    """
    p = Path(path)
    vocab = read_gguf_vocab(p)
    if vocab.model not in MODELS:
        known = ", ".join(f"{k!r} ({v})" for k, v in MODELS.items())
        raise ModelFileError(p, f"its tokenizer is {vocab.model!r}; tokviz reads GGUF vocabularies of kind {known}")

    def token(i):
        return None if i is None else vocab.tokens[i]

    config = ModelConfig(bos_token=token(vocab.bos_id), eos_token=token(vocab.eos_id),
                         chat_template=vocab.chat_template, source=str(p))
    if vocab.model in ("llama", "t5"):
        proto = sentencepiece_model_proto(vocab, p, unigram=vocab.model == "t5")
        return GGUFSentencePieceEncoder(p, proto, name=name or p.name, config=config)
    if vocab.model == "bert":
        return GGUFEncoder(name or p.name, _wordpiece_json(vocab, p), said("{path} (GGUF, WordPiece)", path=p), config)
    source = said("{path} (GGUF, pre-split {pre!r})", path=p, pre=vocab.pre)
    return GGUFEncoder(name or p.name, tokenizer_json(vocab, p), source, config)


def _wordpiece_json(vocab: GGUFVocab, path: Path) -> str:
    unk = vocab.unk_id if vocab.unk_id is not None else next(
        (i for i, t in enumerate(vocab.tokens) if t == "[UNK]"), None)
    if unk is None:
        raise ModelFileError(path, "its WordPiece vocabulary names no unknown token (tokenizer.ggml.unknown_token_id "
                                   "or a [UNK] token), which WordPiece needs for words it cannot cover")
    try:
        return wordpiece_tokenizer_json(vocab.tokens, [t in (CONTROL, UNKNOWN) for t in vocab.types], unk)
    except ValueError as err:
        raise ModelFileError(path, f"its WordPiece vocabulary is inconsistent: {err}") from None


def _load(path: Path, pattern: str | None):
    if pattern is not None:
        raise ModelFileError(path, "a GGUF file names its own pre-split; --pattern does not apply to it")
    return load_gguf(path)


def looks_like_gguf(head: bytes) -> bool:
    """The start of a GGUF file: its magic.

    >>> looks_like_gguf(b"GGUF\\x03\\x00\\x00\\x00"), looks_like_gguf(b"GGML")
    (True, False)
    """
    return head[:4] == MAGIC


def loaders() -> list[ModelLoader]:
    """The GGUF file format (recognised by its ``GGUF`` magic)."""
    return [ModelLoader("gguf", lambda p, head: looks_like_gguf(head), _load,
                        "a GGUF model file (llama.cpp; its embedded vocabulary, tensors untouched)")]


def entries() -> list[EncoderEntry]:
    """No built-in GGUF encoders (no GGUF model ships in a package)."""
    return []
