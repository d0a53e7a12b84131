"""A byte-level rank table (``{token bytes: rank}``) read from a ``.tiktoken`` file, and the Encoder
tiktoken builds from one.

Every reader of rank files uses these: the OpenAI family (:mod:`.tiktoken_family`), the genuine
Llama/Qwen/Mistral files (:mod:`.rank_models`) and tokviz's own BPE formats
(:mod:`tokviz.core.bpe.formats`, which opens a rank file it cannot read as merges with this encoder),
so it sits below all of them.
"""

from __future__ import annotations

import base64
import binascii
import functools
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from tokviz.core.encoders.files import MAX_NUMBER_DIGITS, MAX_TOKEN_ID, MAX_VOCAB_ENTRIES, read_regular_file
from tokviz.core.encoders.native import is_fatal, is_native_panic, native_call
from tokviz.core.encoding import KIND_CODES, Encoding, EncodingMismatch
from tokviz.core.errors import EncodingFailed, ModelFileError, check_text
from tokviz.core.pretokenize import GPT4_PATTERN

# Ids may have holes (cl100k_base's specials sit past a gap), but a rank far beyond the token count
# makes every vocabulary view walk billions of empty ids: refused.
MAX_RANK_GAP = 1 << 16


def parse_tiktoken_ranks(data: bytes, path: str | Path = "<rank file>") -> dict[bytes, int]:
    """Parse a ``.tiktoken`` file (``base64-token rank`` per line) into {token bytes: rank}.

    Checked here, not left to tiktoken: its Rust core panics (an exception no ``except Exception``
    catches) when two tokens share a rank, and mid-encode when a single byte has no rank — both are
    what a truncated or hand-edited file looks like.

    >>> parse_tiktoken_ranks(b"IQ== 0\\nIg== 0\\n")
    Traceback (most recent call last):
    ...
    tokviz.core.errors.ModelFileError: <rank file>: rank 0 is given twice (lines 1 and 2): truncated or not a .tiktoken file
    """  # noqa: E501 (a doctest's expected output line cannot be wrapped)
    breaks = data.count(b"\n") + data.count(b"\r")
    if breaks > 2 * MAX_VOCAB_ENTRIES:  # counted first: splitting 500 MB of line breaks is a 4 GB list
        raise ModelFileError(path, f"has {breaks:,} line breaks; a rank file has one line per token and tokviz reads "
                                   f"at most {MAX_VOCAB_ENTRIES:,} tokens")
    ranks = _well_formed_ranks(data)
    if ranks is None:  # anything unusual goes line by line, which names the line at fault
        ranks = _rank_lines(data, path)
    return _checked_ranks(ranks, path)


def b64decode_strict(token: bytes) -> bytes:
    return base64.b64decode(token, validate=True)


if sys.version_info >= (3, 11):  # what b64decode(validate=True) calls, without its per-call overhead
    b64decode_strict = functools.partial(binascii.a2b_base64, strict_mode=True)  # noqa: F811


def _well_formed_ranks(data: bytes) -> dict[bytes, int] | None:
    """The ranks of a file laid out as OpenAI's and Meta's are (``token rank``, one space, ``\\n`` line
    ends, no blank line, distinct tokens and ranks in range), read in bulk: the line-by-line reader
    took half of a 200k-token file's load. None for any other file (it then goes line by line)."""
    if (
        not data
        or b"\n\n" in data
        or data.startswith(b"\n")
        or any(ch in data for ch in (b"\r", b"\t", b"\x0b", b"\x0c"))
    ):
        return None
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    fields = data.split()
    # one space per line, and two fields per line: the space sits between a token and its rank on every line
    if data.count(b" ") != lines or len(fields) != 2 * lines:
        return None
    rank_fields = fields[1::2]
    if not b"".join(rank_fields).isdigit() or max(map(len, rank_fields)) > MAX_NUMBER_DIGITS:
        return None
    try:
        tokens = list(map(b64decode_strict, fields[0::2]))
    except (ValueError, binascii.Error):
        return None
    numbers = list(map(int, rank_fields))
    ranks = dict(zip(tokens, numbers, strict=True))
    top = max(numbers)
    if len(ranks) != lines or len(set(numbers)) != lines or top > MAX_TOKEN_ID or top >= lines + MAX_RANK_GAP:
        return None
    return ranks


def _rank_lines(data: bytes, path: str | Path) -> dict[bytes, int]:
    """The ranks of any file, line by line; ModelFileError naming the first bad line."""
    ranks: dict[bytes, int] = {}
    line_of_rank: dict[int, int] = {}
    for lineno, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            tok, rank_text = line.split()
            if not rank_text.isdigit() or len(rank_text) > MAX_NUMBER_DIGITS:
                raise ValueError(rank_text)
            token = base64.b64decode(tok, validate=True)
            rank = int(rank_text)
        except (ValueError, base64.binascii.Error):
            raise ModelFileError(
                path, f"line {lineno} is not 'base64-token rank' (truncated or not a .tiktoken file)") from None
        if rank > MAX_TOKEN_ID:
            raise ModelFileError(path, f"line {lineno}: rank {rank} is out of range (0..{MAX_TOKEN_ID})")
        if rank in line_of_rank:
            raise ModelFileError(
                path, f"rank {rank} is given twice (lines {line_of_rank[rank]} and {lineno}): "
                "truncated or not a .tiktoken file"
            )
        if token in ranks:
            raise ModelFileError(path, f"line {lineno}: token {token!r} already has rank {ranks[token]}")
        ranks[token] = rank
        line_of_rank[rank] = lineno
    top = max(line_of_rank, default=0)
    if top >= len(ranks) + MAX_RANK_GAP:
        # every id below the highest rank is a slot tiktoken and the vocabulary views walk through
        raise ModelFileError(
            path, f"line {line_of_rank[top]}: rank {top:,} leaves {top + 1 - len(ranks):,} ids unused among "
            f"{len(ranks):,} tokens (corrupt or not a .tiktoken file)")
    return ranks


def _checked_ranks(ranks: dict[bytes, int], path: str | Path) -> dict[bytes, int]:
    """``ranks`` unless empty or missing a single byte (ModelFileError)."""
    if not ranks:
        raise ModelFileError(path, "no ranks in the file (empty or not a .tiktoken file)")
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        shown = " ".join(f"{b:02X}" for b in missing[:8]) + (" …" if len(missing) > 8 else "")
        raise ModelFileError(
            path,
            f"{len(missing)} of the 256 single bytes have no rank ({shown}): a byte-level rank file needs all of "
            f"them (truncated, or not a byte-level .tiktoken file)",
        )
    return ranks


class TiktokenEncoder:
    """An Encoder backed by a ``tiktoken.Encoding`` built from verified ranks."""

    family = "tiktoken"
    byte_level = True

    def __init__(self, name: str, pattern: str, ranks: Mapping[bytes, int], special_tokens: Mapping[str, int],
                 source: str):
        import tiktoken

        self.name = name
        self.source = source
        self.pattern = pattern
        self._specials = dict(special_tokens)
        self._special_ids = set(self._specials.values())
        try:
            with native_call():
                self._tt = tiktoken.Encoding(
                    name=f"tokviz:{name}", pat_str=pattern, mergeable_ranks=dict(ranks), special_tokens=self._specials
                )
        except BaseException as err:  # pyo3's PanicException derives from BaseException
            if is_fatal(err):
                raise
            raise ModelFileError(source, f"tiktoken cannot build an encoder from it ({err})") from None
        # byte length of every id (0 for holes in the id space): token spans are a cumsum over ids
        # (C-level fills: a Python loop over o200k's 200,000 ranks cost ~40 ms per load)
        lengths = np.zeros(self._tt.n_vocab, dtype=np.int64)
        lengths[np.fromiter(ranks.values(), dtype=np.int64, count=len(ranks))] = np.fromiter(
            map(len, ranks), dtype=np.int64, count=len(ranks))
        for special, rank in self._specials.items():
            lengths[rank] = len(special.encode("utf-8"))
        self._lengths = lengths

    @property
    def tiktoken(self):
        """The underlying ``tiktoken.Encoding``."""
        return self._tt

    @property
    def vocab_size(self) -> int:
        return self._tt.n_vocab

    def mergeable_ranks(self) -> Mapping[bytes, int]:
        """``{token bytes: rank}`` of the ordinary tokens (tiktoken's own table; do not modify)."""
        return self._tt._mergeable_ranks

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        """Tokens of ``text``, built as columns straight from tiktoken's ids (no per-token objects)."""
        data = check_text(text)
        allowed = "all" if allow_special else set()  # nothing allowed, nothing refused: encode_ordinary
        id_array = self._native_ids(text, allowed)
        lengths = self._lengths[id_array]
        ends = np.cumsum(lengths)
        covered = int(ends[-1]) if len(ends) else 0
        if covered != len(data):  # the token bytes are the text's bytes under each span: only lengths can be off
            raise EncodingMismatch(f"{self.name}: tokens cover {covered} of {len(data)} bytes")
        kinds = None
        if allow_special and self._special_ids:
            kinds = np.isin(id_array, list(self._special_ids)).astype(np.uint8) * KIND_CODES["special"]
        return Encoding.from_arrays(self.name, text, id_array, ends - lengths, ends, kinds=kinds, data=data)

    def _native_ids(self, text: str, allowed) -> np.ndarray:
        """tiktoken's ids for ``text``; a panic (a pattern that matches an empty piece) is EncodingFailed."""
        to_numpy = getattr(self._tt, "encode_to_numpy", None)
        try:
            with native_call():
                if to_numpy is not None:
                    # ids straight into an array: a list of two million ids costs ~90 MB of int objects at the peak
                    return to_numpy(text, allowed_special=allowed, disallowed_special=()).astype(np.int64)
                # tiktoken < 0.7
                return np.array(self._tt.encode(text, allowed_special=allowed, disallowed_special=()), dtype=np.int64)
        except BaseException as err:
            if is_fatal(err) or not is_native_panic(err):
                raise
            detail = (str(err).strip().splitlines() or ["a panic"])[0][:200]
            raise EncodingFailed(self.name, f"tiktoken gave up on this text ({detail}); the model's pre-split "
                                            "pattern cannot handle it") from None

    def decode(self, ids: Sequence[int]) -> str:
        return self._tt.decode(list(ids), errors="replace")

    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._specials)

    def token_bytes(self, token_id: int) -> bytes:
        return self._tt.decode_single_token_bytes(token_id)


def load_rank_file(path: str | Path, pattern: str = GPT4_PATTERN,
                   special_tokens: Mapping[str, int] | None = None) -> TiktokenEncoder:
    """An encoder from any ``.tiktoken`` rank file (``tokviz encode --model``); split with ``pattern``."""
    p = Path(path)
    ranks = parse_tiktoken_ranks(read_regular_file(p), p)
    specials = dict(special_tokens or {})
    return TiktokenEncoder(p.name, pattern, ranks, specials, str(p))
