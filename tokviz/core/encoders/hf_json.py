"""Hugging Face ``tokenizer.json`` models (Llama 3.x, Qwen 2.5/3, Gemma, DeepSeek, BERT, ...) through ``tokenizers``.

The ``tokenizers`` library is the reference implementation, so it does the splitting; tokviz only
turns its answer into an Encoding. ``tokenizers`` reports each token as a vocabulary string and a
character span, which is not enough for an inspector: a byte-level token that holds half of ``안``
has the same span as the token holding the other half. So each token's exact bytes are rebuilt from
its vocabulary string, by the decoder style the file declares:

- ``ByteLevel`` (GPT-2, Llama 3, Qwen, DeepSeek): every byte is written as one printable character
  (``Ġ`` is the space); the map is inverted.
- ``ByteFallback`` (Llama 2, Gemma): ``<0xEC>`` is the byte 0xEC, ``▁`` is the space.
- ``Metaspace`` (T5, ALBERT-style Unigram): ``▁`` is the space.
- ``WordPiece`` (BERT): ``##`` marks a piece that continues a word and stands for no text.

When the token bytes join to the text's UTF-8, the byte spans tile the text exactly. When the model
normalizes (NFC, lowercasing, a ``▁`` prefix) they cannot; then the spans come from ``tokenizers``'
offsets and :attr:`Encoding.normalized_text` holds what the normalizer made of the text, so the change
is shown, never hidden.

A model folder (``tokenizer.json`` + ``tokenizer_config.json``, as models ship) also gives the
bos/eos tokens and the Jinja ``chat_template`` (or ``chat_template.jinja``), see :class:`ModelConfig`.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tokviz.core.encoders.base import EncoderEntry, ModelLoader
from tokviz.core.encoders.files import MAX_TEXT_MODEL_BYTES, parse_json, read_model_text, read_regular_file
from tokviz.core.encoders.native import is_fatal, is_native_panic, native_call
from tokviz.core.encoding import KIND_CODES, Encoding, TokenKind, char_byte_starts
from tokviz.core.errors import EncodingFailed, ModelFileError, check_text

FAMILY = "tokenizer.json"

_BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


def byte_level_decoder() -> dict[str, int]:
    """GPT-2's printable stand-in character for each byte, inverted: ``{"Ġ": 0x20, "a": 0x61, ...}``.

    >>> d = byte_level_decoder(); d["Ġ"], d["Ċ"], d["ì"]
    (32, 10, 236)
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    chars = {b: b for b in printable}
    n = 0
    for b in range(256):
        if b not in chars:
            chars[b] = 256 + n
            n += 1
    return {chr(c): b for b, c in chars.items()}


_BYTE_LEVEL = byte_level_decoder()


@dataclass(frozen=True)
class PieceStyle:
    """How a vocabulary string stands for bytes: ``byte_level``, ``byte_fallback``, ``metaspace``,
    ``wordpiece`` or ``plain``; ``marker`` is Metaspace's space character or WordPiece's prefix."""

    kind: str
    marker: str = ""

    def piece_bytes(self, piece: str) -> bytes:
        """The bytes a vocabulary string stands for.

        >>> PieceStyle("byte_level").piece_bytes("ĠìķĪ")
        b' \\xec\\x95\\x88'
        >>> PieceStyle("byte_fallback", "▁").piece_bytes("<0xEC>"), PieceStyle("byte_fallback", "▁").piece_bytes("▁hi")
        (b'\\xec', b' hi')
        >>> PieceStyle("wordpiece", "##").piece_bytes("##ing")
        b'ing'
        """
        if self.kind == "byte_level":
            try:
                return bytes(_BYTE_LEVEL[c] for c in piece)
            except KeyError:  # not byte-encoded (a token added as plain text)
                return piece.encode("utf-8")
        if self.kind == "byte_fallback":
            m = _BYTE_PIECE.fullmatch(piece)
            if m is not None:
                return bytes([int(m.group(1), 16)])
            return piece.replace(self.marker or "▁", " ").encode("utf-8")
        if self.kind == "metaspace":
            return piece.replace(self.marker or "▁", " ").encode("utf-8")
        if self.kind == "wordpiece":
            prefix = self.marker or "##"
            return (piece.removeprefix(prefix)).encode("utf-8")
        return piece.encode("utf-8")


def _components(node, key: str) -> list[dict]:
    """A tokenizer.json component and, for a ``Sequence``, its members (flattened)."""
    if not isinstance(node, dict):
        return []
    if node.get("type") == "Sequence":
        out: list[dict] = []
        for member in node.get(key, []) or []:
            out.extend(_components(member, key))
        return out
    return [node]


def piece_style(config: Mapping) -> PieceStyle:
    """The :class:`PieceStyle` a parsed tokenizer.json declares (decoder first, then model and pre-tokenizer).

    >>> piece_style({"decoder": {"type": "ByteLevel"}, "model": {"type": "BPE"}}).kind
    'byte_level'
    >>> piece_style({"decoder": {"type": "WordPiece", "prefix": "##"}, "model": {"type": "WordPiece"}})
    PieceStyle(kind='wordpiece', marker='##')
    """
    decoders = _components(config.get("decoder"), "decoders")
    pre = _components(config.get("pre_tokenizer"), "pretokenizers")
    model = config.get("model") or {}
    types = {d.get("type") for d in decoders}
    if "ByteLevel" in types or any(p.get("type") == "ByteLevel" for p in pre):
        return PieceStyle("byte_level")
    metaspace = next((d for d in decoders + pre if d.get("type") == "Metaspace"), None)
    space = (metaspace or {}).get("replacement", "▁")
    if "ByteFallback" in types or model.get("byte_fallback"):
        return PieceStyle("byte_fallback", space)
    if metaspace is not None or any(
        d.get("type") == "Replace" and (d.get("pattern") or {}).get("String") == "▁" for d in decoders
    ):
        return PieceStyle("metaspace", space)
    if "WordPiece" in types or model.get("type") == "WordPiece":
        wp = next((d for d in decoders if d.get("type") == "WordPiece"), {})
        return PieceStyle("wordpiece", wp.get("prefix") or model.get("continuing_subword_prefix") or "##")
    return PieceStyle("plain")


# ---- tokenizer_config.json ------------------------------------------------------------------------
# A tokenizer_config.json lists every added token (a few MB for the biggest vocabularies); a chat
# template is a page of Jinja. Past these sizes a file is not what its name says.
MAX_CONFIG_BYTES = 64 * 1024 * 1024
MAX_TEMPLATE_BYTES = 1024 * 1024


class ModelConfig:
    """What a model folder's ``tokenizer_config.json`` (and ``chat_template.jinja``) says.

    ``chat_template`` is the Jinja source (the ``default`` one when the file names several). A
    ``chat_template.jinja`` beside the config is read only when the template is asked for (an encode
    never needs it), and at most :data:`MAX_TEMPLATE_BYTES` of it.
    """

    def __init__(self, bos_token: str | None = None, eos_token: str | None = None, chat_template: str | None = None,
                 add_bos_token: bool | None = None, source: str | None = None, extra: dict | None = None,
                 template_file: Path | None = None):
        self.bos_token = bos_token
        self.eos_token = eos_token
        self.add_bos_token = add_bos_token
        self.source = source
        self.extra = dict(extra or {})
        self.template_file = template_file
        self._template = chat_template
        self._template_read = template_file is None
        self._lock = threading.Lock()

    @property
    def chat_template(self) -> str | None:
        """The Jinja source; raises ModelFileError when ``chat_template.jinja`` cannot be read."""
        with self._lock:
            if not self._template_read:
                self._template = read_model_text(self.template_file, limit=MAX_TEMPLATE_BYTES,
                                                 what="a chat template")
                self._template_read = True
            return self._template

    def __repr__(self) -> str:
        return (f"ModelConfig(bos_token={self.bos_token!r}, eos_token={self.eos_token!r}, "
                f"source={self.source!r}, template_file={self.template_file!r})")


def _token_text(value) -> str | None:
    # tokenizer_config.json writes a token either as a string or as an AddedToken object
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("content"), str):
        return value["content"]
    return None


def read_model_config(folder: str | Path) -> ModelConfig:
    """The bos/eos tokens and chat template of the model in ``folder`` (empty when it has no config).

    Raises ModelFileError for a tokenizer_config.json that is not valid JSON or larger than
    :data:`MAX_CONFIG_BYTES`.
    """
    folder = Path(folder)
    cfg_path = folder / "tokenizer_config.json"
    data: object = {}
    if cfg_path.is_file():
        data = parse_json(read_model_text(cfg_path, limit=MAX_CONFIG_BYTES, what="a tokenizer_config.json"),
                          cfg_path)
        if not isinstance(data, dict):
            raise ModelFileError(cfg_path, "is not a JSON object")
    template = data.get("chat_template")
    if isinstance(template, list):  # [{"name": "default", "template": ...}, {"name": "tool_use", ...}]
        named = {t.get("name"): t.get("template") for t in template if isinstance(t, dict)}
        template = named.get("default") or next(iter(named.values()), None)
    jinja = folder / "chat_template.jinja"
    # newer transformers saves the template beside the config; it is read when a chat asks for it
    template_file = jinja if jinja.exists() else None
    return ModelConfig(
        bos_token=_token_text(data.get("bos_token")),
        eos_token=_token_text(data.get("eos_token")),
        chat_template=template if isinstance(template, str) else None,
        add_bos_token=data.get("add_bos_token") if isinstance(data.get("add_bos_token"), bool) else None,
        source=str(cfg_path) if cfg_path.is_file() else None,
        extra={k: v for k, v in data.items() if k in ("model_max_length", "tokenizer_class")},
        template_file=template_file,
    )


# ---- the file an encoder was read from ----------------------------------------------------------------
def _file_state(path: Path) -> tuple[int, int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


@dataclass(frozen=True)
class LoadedFile:
    """The tokenizer.json an encoder was built from, and its state (device, inode, size, mtime) then."""

    path: Path
    state: tuple[int, int, int, int]

    def model(self) -> dict | None:
        """The file's ``"model"`` object if the file is still the one the encoder was built from, else None."""
        try:
            data = read_regular_file(self.path, limit=MAX_TEXT_MODEL_BYTES, what="a tokenizer.json")
        except ModelFileError:
            return None
        if _file_state(self.path) != self.state:  # rewritten since (or while) read: not the encoder's merges
            return None
        try:
            model = json.loads(data).get("model")
        except (ValueError, AttributeError):
            return None
        return model if isinstance(model, dict) else None


def read_tokenizer_json(path: Path) -> tuple[bytes, LoadedFile | None]:
    """The bytes of the tokenizer.json at ``path`` (bounded) and, if it did not change while read, the
    :class:`LoadedFile` that lets the encoder read its merges again later."""
    before = _file_state(path)
    data = read_regular_file(path, limit=MAX_TEXT_MODEL_BYTES, what="a tokenizer.json")
    unchanged = before is not None and _file_state(path) == before
    return data, LoadedFile(path, before) if unchanged else None


# ---- the encoder ----------------------------------------------------------------------------------
class HFTokenizerEncoder:
    """An Encoder backed by a ``tokenizers.Tokenizer`` built from a tokenizer.json.

    >>> enc = HFTokenizerEncoder.from_file(path)            # doctest: +SKIP
    >>> [t.bytes for t in enc.encode("안").tokens]          # doctest: +SKIP
    [b'\\xec\\x95\\x88']
    """

    family = FAMILY

    def __init__(self, name: str, json_text: str, source: str, config: ModelConfig | None = None,
                 file: LoadedFile | None = None):
        try:
            from tokenizers import Tokenizer
        except ImportError as err:  # a runtime dependency, but say so plainly if it is missing
            raise ModelFileError(
                source, "reading tokenizer.json needs the 'tokenizers' package (pip install tokenizers)") from err
        try:
            parsed = json.loads(json_text)
        except json.JSONDecodeError as err:
            raise ModelFileError(source, f"is not valid JSON (truncated?): {err}") from None
        if not isinstance(parsed, dict) or not isinstance(parsed.get("model"), dict):
            raise ModelFileError(source, "is not a tokenizer.json (no \"model\" object)")
        check_before_tokenizers(parsed, source)
        try:
            with native_call():
                tok = Tokenizer.from_str(json_text)
        except BaseException as err:  # tokenizers raises plain Exception; a Rust panic derives from BaseException
            if is_fatal(err):
                raise
            explain_merges(parsed, source)  # the usual cause, in words (checked only now: 0.5 s on 280k merges)
            raise ModelFileError(source, f"tokenizers cannot read it ({_first_line(err)})") from None
        # Nothing is added around the text by encode() (the chat composer adds bos explicitly), and the
        # ByteLevel post-processor's offset trimming would move spans off the spaces tokens hold.
        tok.post_processor = None
        tok.no_truncation()
        tok.no_padding()
        self.name = name
        self.source = source
        self.config = config or ModelConfig()
        self.style = piece_style(parsed)
        self._tok = tok
        self._lock = threading.Lock()  # encode_special_tokens is a switch on the shared tokenizer
        self._has_normalizer = bool(_components(parsed.get("normalizer"), "normalizers"))
        self.byte_level = self.style.kind == "byte_level" and not self._has_normalizer
        model = parsed["model"]
        unk = model.get("unk_token")
        self._unk_id = tok.token_to_id(unk) if isinstance(unk, str) else None
        if self._unk_id is None and isinstance(model.get("unk_id"), int):
            self._unk_id = model["unk_id"]
        self._added = {i: a for i, a in tok.get_added_tokens_decoder().items()}
        self._specials = {a.content: i for i, a in self._added.items() if a.special}
        self._bytes: dict[int, bytes] = {}
        self._file = file

    @classmethod
    def from_file(cls, path: str | Path, *, name: str | None = None) -> HFTokenizerEncoder:
        """Load ``path`` (a tokenizer.json, or a folder holding one); the sibling tokenizer_config.json
        gives bos/eos and the chat template."""
        p = Path(path)
        if p.is_dir():
            p = p / "tokenizer.json"
        data, file = read_tokenizer_json(p)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ModelFileError(
                p, f"is not UTF-8 text ({err.reason} at byte {err.start}): truncated or not a tokenizer.json") from None
        if not text.strip():
            raise ModelFileError(p, "the file is empty")
        config = read_model_config(p.parent)
        return cls(name or _display_name(p), text, str(p), config, file)

    def model_json(self) -> dict:
        """The tokenizer.json's ``"model"`` object (type, vocab, merges, ...).

        Read again from the file the encoder was loaded from while that file is unchanged (Llama 3: 0.2 s);
        otherwise, or for a vocabulary that never was a file (GGUF), written out by tokenizers (0.9 s: its
        ``to_str`` writes every merge as a pair list, slow to write and to parse)."""
        if self._file is not None:
            model = self._file.model()
            if model is not None:
                return model
        model = json.loads(self._tok.to_str()).get("model")
        return model if isinstance(model, dict) else {}

    @property
    def tokenizer(self):
        """The underlying ``tokenizers.Tokenizer`` (post-processor removed)."""
        return self._tok

    @property
    def vocab_size(self) -> int:
        return self._tok.get_vocab_size(with_added_tokens=True)

    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._specials)

    def added_tokens(self) -> Mapping[int, tuple[str, bool]]:
        """Every added token: ``{id: (content, special)}``."""
        return {i: (a.content, bool(a.special)) for i, a in self._added.items()}

    def _is_byte_piece(self, token_id: int) -> bool:
        if self.style.kind != "byte_fallback":
            return False
        piece = self._tok.id_to_token(token_id)
        return piece is not None and _BYTE_PIECE.fullmatch(piece) is not None

    def kind(self, token_id: int) -> TokenKind:
        # <0xNN> pieces first: some files list them among the added (special) tokens
        if self._is_byte_piece(token_id):
            return "byte_fallback"
        if token_id == self._unk_id:
            return "unknown"
        added = self._added.get(token_id)
        if added is not None:
            return "special" if added.special else "normal"
        return "normal"

    def token_bytes(self, token_id: int) -> bytes:
        found = self._bytes.get(token_id)
        if found is not None:
            return found
        piece = self._tok.id_to_token(token_id)
        if piece is None:
            raise ValueError(f"{self.name}: no token with id {token_id}")
        added = self._added.get(token_id)
        if (added is not None or token_id == self._unk_id) and not self._is_byte_piece(token_id):
            found = piece.encode("utf-8")
        else:
            found = self.style.piece_bytes(piece)
        self._bytes[token_id] = found
        return found

    def normalize(self, text: str) -> str:
        """What the model's normalizer makes of ``text`` (``text`` itself when it has none)."""
        norm = self._tok.normalizer
        if norm is None:
            return text
        return self._guarded(lambda: norm.normalize_str(text), "normalizer")

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        data = check_text(text)
        ids, offsets = self._native_encode(text, allow_special)
        normalized = self.normalize(text) if self._has_normalizer else text
        if normalized == text:
            found = self._tiling_encoding(text, data, ids)
            if found is not None:
                return found
        pieces = [self.token_bytes(i) for i in ids]
        kinds = [self.kind(i) for i in ids]
        raws = [self._tok.id_to_token(i) for i in ids]
        if normalized == text and "unknown" not in kinds and b"".join(pieces) == data:
            return Encoding.from_byte_tokens(self.name, text, list(zip(ids, pieces, strict=True)), kinds=kinds,
                                             raws=raws)
        rows = _rows_from_offsets(data, text, ids, pieces, offsets, kinds, raws)
        return Encoding.from_spans(self.name, text, rows, None if normalized == text else normalized)

    def _tiling_encoding(self, text: str, data: bytes, ids: list[int]) -> Encoding | None:
        """The Encoding when the tokens' bytes tile ``data`` and none is unknown, else None; each
        distinct id is looked up once (per token, the lookups were two thirds of a 1 MB encode)."""
        id_array = np.asarray(ids, dtype=np.int64)
        distinct, first, where = np.unique(id_array, return_index=True, return_inverse=True)
        distinct = distinct.tolist()
        kinds = [self.kind(i) for i in distinct]
        if "unknown" in kinds:
            return None
        pieces = [self.token_bytes(i) for i in distinct]
        where = where.reshape(-1)
        if b"".join([pieces[k] for k in where.tolist()]) != data:
            return None
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))[where]
        ends = np.cumsum(lengths)
        codes = np.fromiter((KIND_CODES[k] for k in kinds), dtype=np.uint8, count=len(kinds))[where]
        # raw forms numbered in order of first use, as Encoding numbers a list of them
        table: dict[str, int] = {}
        raw_code = np.full(len(distinct), -1, dtype=np.int32)
        for k in np.argsort(first, kind="stable").tolist():
            raw = self._tok.id_to_token(distinct[k])
            if raw is not None:
                raw_code[k] = table.setdefault(raw, len(table))
        return Encoding.from_arrays(self.name, text, id_array, ends - lengths, ends, kinds=codes,
                                    raws=(tuple(table), raw_code[where]), data=data)

    def _native_encode(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]]]:
        """ids and character offsets from tokenizers; its failures (a Rust panic, an error) become
        EncodingFailed. ``encode_batch`` rather than ``encode``: it lets go of the GIL, so a slow regex
        leaves the GUI and the CLI's Ctrl-C alive."""
        try:
            with self._lock, native_call():
                self._tok.encode_special_tokens = not allow_special
                out = self._tok.encode_batch([text], add_special_tokens=False)[0]
                return out.ids, out.offsets
        except BaseException as err:
            if is_fatal(err):
                raise
            if not is_native_panic(err):  # the model lacks what this text needs (an unknown token, ...)
                raise EncodingFailed(self.name, f"tokenizers cannot encode this text: {_first_line(err)}") from None
            raise EncodingFailed(self.name, f"tokenizers gave up on this text ({_first_line(err)}); the model's "
                                            "regex or normalizer cannot handle it") from None

    def decode(self, ids: Sequence[int]) -> str:
        return self._guarded(lambda: self._tok.decode(list(ids), skip_special_tokens=False), "decoder")

    def _guarded(self, call, part: str):
        """``call()`` into tokenizers, a Rust panic (a regex in the normalizer or decoder) as EncodingFailed."""
        try:
            with native_call():
                return call()
        except BaseException as err:
            if is_fatal(err) or not is_native_panic(err):
                raise
            raise EncodingFailed(self.name, f"tokenizers' {part} gave up on this text ({_first_line(err)})") from None


def _first_line(err: BaseException) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:300]


# ---- checks tokenizers would answer with a panic or a huge allocation ------------------------------
def check_before_tokenizers(parsed: Mapping, source: str) -> None:
    """Refuse, with a ModelFileError, what ``tokenizers`` would accept and then fail on, or meet with
    an allocation the machine cannot make: a WordPiece/WordLevel model without its unknown token (every
    word it cannot split fails at encode time), a Precompiled normalizer whose charsmap claims more
    bytes than it holds (tokenizers reserves the claimed size first)."""
    model = parsed["model"]
    vocab = model.get("vocab")
    kind = model.get("type")
    if kind in ("WordPiece", "WordLevel") and isinstance(vocab, dict):
        unk = model.get("unk_token", "[UNK]" if kind == "WordPiece" else "<unk>")
        if isinstance(unk, str) and unk not in vocab:
            raise ModelFileError(source, f"its {kind} model names the unknown token {str(unk)[:40]!r}, which is "
                                         "not in its vocabulary (every word it cannot split would fail)")
    for norm in _components(parsed.get("normalizer"), "normalizers"):
        if norm.get("type") == "Precompiled":
            _check_charsmap(norm.get("precompiled_charsmap"), source)


def explain_merges(parsed: Mapping, source: str) -> None:
    """ModelFileError naming the first merge of a BPE model that needs a token its vocabulary lacks
    (tokenizers panics on some of these: a slice past the end of the second token)."""
    model = parsed["model"]
    vocab = model.get("vocab")
    if model.get("type") in ("BPE", None) and isinstance(vocab, dict):
        _check_merges(model, vocab, source)


def _check_merges(model: Mapping, vocab: Mapping, source: str) -> None:
    prefix = model.get("continuing_subword_prefix") or ""
    merges = model.get("merges") or []
    cut = len(prefix.encode("utf-8")) if isinstance(prefix, str) else 0
    for n, merge in enumerate(merges, start=1):
        if isinstance(merge, str):
            parts = merge.split(" ")
        elif isinstance(merge, list):
            parts = merge
        else:
            raise ModelFileError(source, f"merge {n} is neither 'a b' nor [a, b]")
        if len(parts) != 2 or not all(isinstance(t, str) for t in parts):
            raise ModelFileError(source, f"merge {n} ({str(merge)[:60]!r}) is not a pair of tokens")
        a, b = parts
        # tokenizers names the merged token a + b without the prefix's bytes, sliced unchecked
        try:
            merged = a + b.encode("utf-8")[cut:].decode("utf-8") if len(b.encode("utf-8")) >= cut else None
        except UnicodeDecodeError:
            merged = None
        if merged is None:
            raise ModelFileError(source, f"merge {n} ({a[:30]!r} {b[:30]!r}): the second token does not start with "
                                         f"the continuing-subword prefix {prefix!r} the model declares")
        for token in (a, b, merged):
            if token not in vocab:
                raise ModelFileError(source, f"merge {n} ({a[:30]!r} {b[:30]!r}) needs the token {token[:60]!r}, "
                                             "which is not in the vocabulary (a damaged or mismatched file)")


def _check_charsmap(blob_b64, source: str) -> None:
    """A Precompiled charsmap is a 4-byte little-endian trie size, the trie, then the normalized
    strings; tokenizers reserves the declared trie size before reading it."""
    if not isinstance(blob_b64, str) or not blob_b64:
        return  # tokenizers says what is wrong with a missing one
    try:
        blob = base64.b64decode(blob_b64, validate=True)
    except ValueError:
        raise ModelFileError(source, "its Precompiled normalizer's charsmap is not base64") from None
    if len(blob) < 4:
        raise ModelFileError(source, f"its Precompiled normalizer's charsmap is {len(blob)} bytes, too short")
    trie = int.from_bytes(blob[:4], "little")
    if trie > len(blob) - 4:
        raise ModelFileError(source, f"its Precompiled normalizer's charsmap declares a {trie:,}-byte trie but "
                                     f"holds {len(blob) - 4:,} bytes (damaged or hostile file)")


def _rows_from_offsets(data: bytes, text: str, ids, pieces, offsets, kinds, raws) -> list[tuple]:
    """Byte spans from tokenizers' character offsets, ordered and without overlaps.

    A token whose bytes are the text's bytes where it starts holds exactly those: a byte-level token
    with part of ``Ⅻ`` (which NFC leaves alone) gets its two bytes and stays partial, however the
    rest of the text was normalized. Any other token was built from characters the normalizer changed:
    it covers them (from where the previous token ended to the end of its offsets, and over characters
    no token reports that follow it, such as the U+0301 NFC folded into its ``é``); a later token
    inside the same characters gets an empty span at their end, so nothing is claimed twice.
    """
    starts = char_byte_starts(text, data)
    n_chars = len(starts) - 1
    spans: list[list[int]] = []
    exact: list[bool] = []
    cursor = 0
    for k, piece in enumerate(pieces):
        s, e = offsets[k]
        lo = starts[min(max(s, 0), n_chars)]
        hi = starts[min(max(e, s, 0), n_chars)]
        at = max(lo, cursor)
        held = kinds[k] != "unknown" and piece and data.startswith(piece, at) and at + len(piece) <= max(hi, at)
        end = at + len(piece) if held else max(hi, at)
        spans.append([at, end])
        exact.append(bool(held))
        cursor = end
    for k, span in enumerate(spans):
        if exact[k] or span[0] == span[1] or kinds[k] == "unknown":  # an unknown token keeps its word's offsets
            continue
        j = k + 1  # past the empty spans the rest of its characters left at its end
        while j < len(spans) and spans[j][0] == spans[j][1] == span[1]:
            j += 1
        following = spans[j][0] if j < len(spans) else len(data)
        gap = data[span[1]:following].decode("utf-8", "surrogateescape")
        folded = re.match(r"\S*", gap).group()  # up to the next space: spaces are split points, not folded
        span[1] += len(folded.encode("utf-8", "surrogateescape"))
        for m in range(k + 1, j):
            spans[m] = [span[1], span[1]]
    return [(ids[k], pieces[k], a, b, kinds[k], raws[k]) for k, (a, b) in enumerate(spans)]


def _display_name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}" if path.parent.name else path.name


# ---- recognising the file -------------------------------------------------------------------------
_TOP_KEY = re.compile(rb'"(version|truncation|padding|added_tokens|normalizer|pre_tokenizer|post_processor|decoder)"'
                      rb'\s*:')


def looks_like_tokenizer_json(head: bytes) -> bool:
    """True for the start of a tokenizer.json: a JSON object whose first keys are tokenizers' own.

    >>> looks_like_tokenizer_json(b'{"version": "1.0", "truncation": null, "added_tokens": []')
    True
    >>> looks_like_tokenizer_json(b'{"config": {"pattern": "x"}, "vocab": []}')
    False
    """
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if not text.startswith(b"{"):
        return False
    found = {m.group(1) for m in _TOP_KEY.finditer(text[:4096])}
    if b"model" in text[:200] and b'"type"' in text[:400]:  # a model-first file written by hand
        found.add(b"model")
    return len(found) >= 2


def find_tokenizer_json(path: str | Path) -> Path | None:
    """``path`` itself when it is a file, ``path/tokenizer.json`` for a model folder, else None."""
    p = Path(path)
    if p.is_dir():
        inner = p / "tokenizer.json"
        return inner if inner.is_file() else None
    return p


def _sniff(path: Path, head: bytes) -> bool:
    return looks_like_tokenizer_json(head)


def _load(path: Path, pattern: str | None) -> HFTokenizerEncoder:
    if pattern is not None:
        raise ModelFileError(path, "a tokenizer.json records its own pre-tokenizer; --pattern does not apply to it")
    return HFTokenizerEncoder.from_file(path)


def loaders() -> list[ModelLoader]:
    """The tokenizer.json file format, for :func:`tokviz.core.encoders.builtin.open_model_file`.

    A model folder is opened through :func:`find_tokenizer_json` (the folder's tokenizer.json).
    """
    return [ModelLoader("tokenizer.json", _sniff, _load,
                        "a Hugging Face tokenizer.json (or a model folder holding one)")]


def entries() -> list[EncoderEntry]:
    """No built-in tokenizer.json encoders: the genuine ones are in :mod:`model_catalog`."""
    return []
