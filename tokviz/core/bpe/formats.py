"""Saving and loading BPE models: tokviz JSON, tiktoken rank files, subword-nmt codes, GPT-2 files.

============  ======  ===========================================================================
format        modes   files
============  ======  ===========================================================================
tokviz        both    one JSON file: mode, pattern, merges, base vocabulary, specials, settings
tiktoken      byte    ``base64-token rank`` per line (loads into ``tiktoken.Encoding``)
subword-nmt   char    ``#version: 0.2`` then ``left right`` per merge (``apply_bpe -c``)
gpt2          byte    ``vocab.json`` + ``merges.txt`` with GPT-2's byte-to-unicode characters
============  ======  ===========================================================================

For ``gpt2`` the path is a folder (existing, or ending in ``/``) that gets ``vocab.json`` and
``merges.txt``, or else a base name ``OUT`` that gets ``OUT-vocab.json`` and ``OUT-merges.txt``
(the prefix convention of HF tokenizers' ``model.save(folder, prefix)``).

tiktoken and GPT-2 files do not record the pre-split pattern; loading them assumes GPT-4's unless
told otherwise (``pattern=``). Every file is written atomically as UTF-8. The GPT-2 pair is replaced
as a pair: a failure (full disk, read-only folder, a target that is a folder) leaves both files as
they were. Only a kill -9 in the instant between the two renames can leave a new merges.txt beside
the old vocab.json; the loader then refuses the pair (each merge must make the vocab.json token of
its rank) and the export has to be run again. Opening a model never renames or deletes anything.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Sequence
from pathlib import Path

from tokviz.core.atomic import WriteError, write_atomic, write_atomic_together
from tokviz.core.bpe.model import UNK, BPEModel, merge_bytes
from tokviz.core.encoders.base import ModelLoader
from tokviz.core.encoders.files import MAX_TEXT_MODEL_BYTES, read_head, read_model_text, read_regular_file
from tokviz.core.errors import ModelFileError, TokvizError
from tokviz.core.pretokenize import PATTERNS

FORMATS = ("tokviz", "tiktoken", "subword-nmt", "gpt2")
TOKVIZ_FORMAT = "tokviz-bpe"
CODES_HEADER = "#version: 0.2"


# ---- writing -----------------------------------------------------------------------------------
def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 with ``\n`` line ends, atomically."""
    write_atomic(path, text)


def gpt2_paths(path: str | Path) -> tuple[Path, Path]:
    """(vocab.json, merges.txt) paths for a gpt2 export to ``path`` (folder or base name).

    >>> [p.name for p in gpt2_paths("out/model")]
    ['model-vocab.json', 'model-merges.txt']
    """
    p = Path(path)
    try:
        is_dir = p.is_dir()
    except OSError:  # a name too long to look up: the write says so
        is_dir = False
    if is_dir or str(path).endswith(("/", os.sep)):
        return p / "vocab.json", p / "merges.txt"
    return p.with_name(p.name + "-vocab.json"), p.with_name(p.name + "-merges.txt")


def save_model(model: BPEModel, path: str | Path, fmt: str = "tokviz") -> list[Path]:
    """Write ``model`` to ``path`` in format ``fmt`` (one of :data:`FORMATS`); returns the files written.

    Raises TokvizError when the format does not fit the model's mode (tiktoken and gpt2 need byte
    mode, subword-nmt needs char mode) and ModelFileError when the file cannot be written.
    """
    if fmt not in FORMATS:
        raise TokvizError(f"unknown export format {fmt!r}: use one of {', '.join(FORMATS)}")
    need = {"tiktoken": "byte", "gpt2": "byte", "subword-nmt": "char"}.get(fmt)
    if need and model.mode != need:
        raise TokvizError(f"the {fmt} format holds {need}-mode models; this model is {model.mode} mode (use 'tokviz')")
    p = Path(path)
    try:
        if fmt == "tokviz":
            _write_atomic(p, json.dumps(_tokviz_json(model), ensure_ascii=False, indent=1) + "\n")
            return [p]
        if fmt == "tiktoken":
            ranks = model.ranks()
            lines = [f"{base64.b64encode(tb).decode('ascii')} {r}"
                     for tb, r in sorted(ranks.items(), key=lambda x: x[1])]
            _write_atomic(p, "\n".join(lines) + "\n")
            return [p]
        if fmt == "subword-nmt":
            lines = [CODES_HEADER] + [
                f"{model.token_piece(a)} {model.token_piece(b)}" for a, b, _ in model.merges
            ]
            _write_atomic(p, "\n".join(lines) + "\n")
            return [p]
        vocab_path, merges_path = gpt2_paths(path)  # the raw argument: Path() drops a trailing "/"
        enc = byte_to_unicode()
        vocab: dict[str, int] = {}
        for tid in range(len(model.merges) + 256):
            vocab.setdefault("".join(enc[x] for x in model.token_bytes(tid)), tid)
        for s, tid in model.special_tokens().items():
            vocab.setdefault(s, tid)
        merges = [CODES_HEADER] + [
            "".join(enc[x] for x in model.token_bytes(a)) + " " + "".join(enc[x] for x in model.token_bytes(b))
            for a, b, _ in model.merges
        ]
        # the two files belong together: both are replaced, or neither. merges.txt goes first, so
        # a kill between the renames leaves merges the old vocab.json lacks, which the loader refuses
        write_atomic_together([(merges_path, "\n".join(merges) + "\n"),
                               (vocab_path, json.dumps(vocab, ensure_ascii=False, indent=1) + "\n")])
        return [vocab_path, merges_path]
    except WriteError as err:
        raise ModelFileError(err.path, err.problem) from None


def _tokviz_json(model: BPEModel) -> dict:
    out = {
        "format": TOKVIZ_FORMAT,
        "version": 1,
        "mode": model.mode,
        "pattern": model.pattern,
        "pattern_regex": PATTERNS.get(model.pattern) if model.mode == "byte" else None,
        "keep": model.keep,
        "special_tokens": dict(model.special_tokens()),
        "training": model.settings,
    }
    if model.mode == "char":
        out["base"] = list(model.base)
    out["merges"] = [list(m) for m in model.merges]
    return out


def byte_to_unicode() -> list[str]:
    """GPT-2's printable stand-in character for every byte (index = byte value).

    >>> b = byte_to_unicode(); b[ord("a")], b[ord(" ")], b[0]
    ('a', 'Ġ', 'Ā')
    """
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1))
                 + list(range(ord("®"), ord("ÿ") + 1)))
    out = [""] * 256
    n = 0
    for b in range(256):
        if b in printable:
            out[b] = chr(b)
        else:
            out[b] = chr(256 + n)
            n += 1
    return out


# ---- reading -----------------------------------------------------------------------------------
def _read_text(path: Path) -> str:
    # the model-file reader: regular files only, at most its size limit, strict UTF-8
    if not os.path.lexists(path):
        raise ModelFileError(path, "no such file")
    return read_model_text(path, limit=MAX_TEXT_MODEL_BYTES, what="a BPE model file")


def detect_format(path: str | Path) -> str:
    """Which of :data:`FORMATS` the file (or gpt2 folder) at ``path`` holds, judged by content."""
    p = Path(path)
    if p.is_dir():
        if (p / "vocab.json").is_file() and (p / "merges.txt").is_file():
            return "gpt2"
        raise ModelFileError(p, "is a folder without vocab.json and merges.txt")
    head = read_head(p, 4096, what="a BPE model file")  # a FIFO or device is refused, never opened blocking
    if not head.strip():
        raise ModelFileError(p, "the file is empty")
    fmt = _sniff(p, head)
    if fmt is None:
        raise ModelFileError(p, f"is not a BPE model file tokviz knows ({', '.join(FORMATS)})")
    return fmt


def _sibling(p: Path, name_from: str, name_to: str) -> Path | None:
    if p.name.endswith(name_from):
        q = p.with_name(p.name[: -len(name_from)] + name_to)
        if q.is_file():
            return q
    return None


def _sniff(p: Path, head: bytes) -> str | None:
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if text.startswith(b"{"):
        if TOKVIZ_FORMAT.encode() in head[:200]:
            return "tokviz"
        if _sibling(p, "vocab.json", "merges.txt"):
            return "gpt2"
        return None
    if text.startswith(b"#version"):
        return "gpt2" if _sibling(p, "merges.txt", "vocab.json") else "subword-nmt"
    first = text.split(b"\n", 1)[0].split()
    if len(first) == 2 and first[1].isdigit():
        try:
            base64.b64decode(first[0], validate=True)
            return "tiktoken"
        except ValueError:
            return None
    return None


def load_model(path: str | Path, *, pattern: str | None = None):
    """Load a model saved by :func:`save_model` (format detected from content).

    Returns a BPEModel; a rank file whose ids are not ``byte value`` then ``256 + merge`` (such as
    OpenAI's) comes back as a TiktokenEncoder instead. ``pattern`` sets the pre-split of formats
    that do not record one (tiktoken, gpt2; default GPT-4's). Raises ModelFileError for unreadable
    or malformed files, naming the file and the problem.
    """
    if pattern is not None and pattern not in PATTERNS:
        raise TokvizError(f"unknown pre-split pattern {pattern!r}: use one of {', '.join(PATTERNS)}")
    p = Path(path)
    fmt = detect_format(p)
    if fmt == "tokviz":
        return _load_tokviz(p)
    if fmt == "subword-nmt":
        return _load_codes(p)
    if fmt == "tiktoken":
        return _load_tiktoken(p, pattern or "gpt4")
    if p.is_dir():
        vocab_path, merges_path = p / "vocab.json", p / "merges.txt"
    elif p.name.endswith("vocab.json"):
        vocab_path, merges_path = p, _sibling(p, "vocab.json", "merges.txt")
    else:
        vocab_path, merges_path = _sibling(p, "merges.txt", "vocab.json"), p
    return _load_gpt2(vocab_path, merges_path, pattern or "gpt4")


def _load_tokviz(p: Path) -> BPEModel:
    try:
        data = json.loads(_read_text(p))
    except json.JSONDecodeError as err:
        raise ModelFileError(p, f"is not valid JSON ({err.msg} at line {err.lineno})") from None
    try:
        if data.get("format") != TOKVIZ_FORMAT:
            raise ModelFileError(p, "is JSON but not a tokviz BPE model")
        mode = data["mode"]
        pattern = data.get("pattern") or "gpt4"
        if mode == "byte" and pattern not in PATTERNS:
            raise ModelFileError(p, f"names an unknown pre-split pattern {pattern!r}")
        merges = [tuple(int(x) for x in m) for m in data["merges"]]
        return BPEModel(
            mode=mode,
            pattern=pattern,
            merges=merges,
            base=data.get("base"),
            special_tokens={str(k): int(v) for k, v in data.get("special_tokens", {}).items()},
            keep=data.get("keep"),
            settings=data.get("training") or {},
            name=p.name,
            source=str(p),
        )
    except ModelFileError:
        raise
    except TokvizError as err:
        raise ModelFileError(p, str(err)) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        raise ModelFileError(p, f"is a damaged tokviz model ({type(err).__name__}: {err})") from None


def _load_codes(p: Path) -> BPEModel:
    lines = _read_text(p).splitlines()
    if not lines or not lines[0].startswith("#version"):
        raise ModelFileError(p, "has no '#version: 0.2' header (only subword-nmt codes version 0.2 are supported)")
    if lines[0].strip() != CODES_HEADER:
        raise ModelFileError(p, f"is subword-nmt codes {lines[0].strip()!r}; only version 0.2 is supported")
    pairs = []
    for lineno, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        parts = line.rstrip("\r\n").split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise ModelFileError(p, f"line {lineno} is not 'left right' ({line[:40]!r})")
        pairs.append((parts[0], parts[1]))
    return char_model_from_pairs(pairs, name=p.name, source=str(p))


def char_model_from_pairs(pairs: Sequence[tuple[str, str]], *, name: str, source: str) -> BPEModel:
    """A char-mode model from merges given as piece strings. The base vocabulary is every piece
    used before any merge produced it (characters and ``x</w>``); other characters are unknown."""
    produced: set[str] = set()
    base: set[str] = set()
    for a, b in pairs:
        for x in (a, b):
            if x not in produced:
                base.add(x)
        produced.add(a + b)
    pieces = [UNK] + sorted(base)
    id_of = {s: i for i, s in enumerate(pieces)}
    merges = []
    for a, b in pairs:
        s = a + b
        t = id_of.get(s)
        if t is None:
            t = len(pieces)
            pieces.append(s)
            id_of[s] = t
        merges.append((id_of[a], id_of[b], t))
    return BPEModel(mode="char", pattern="whitespace", merges=merges, base=pieces[1:], name=name, source=source)


def _byte_model_from_ranks(ranks: dict[bytes, int], pattern: str, name: str, source: str,
                           specials=None) -> BPEModel | None:
    """Rebuild merges from ranks when ids are ``byte value`` then ``256 + merge`` (else None).

    Each token's two parents are what tiktoken's own merge makes of its bytes with the lower
    ranks only, so the tree is the one the encoder follows."""
    if any(ranks.get(bytes([i])) != i for i in range(256)):
        return None
    by_rank = sorted((r, tb) for tb, r in ranks.items() if r >= 256)
    if [r for r, _ in by_rank] != list(range(256, 256 + len(by_rank))):
        return None
    merges = []
    lower: dict[bytes, int] = {bytes([i]): i for i in range(256)}
    tokens = [bytes([i]) for i in range(256)]
    for r, tb in by_rank:
        # the whole token is not in ``lower`` yet, so this stops one merge short of it
        parts = merge_bytes(tb, lower)
        if len(parts) != 2:
            return None
        merges.append((parts[0], parts[1], r))
        lower[tb] = r
        tokens.append(tb)
    return BPEModel(mode="byte", pattern=pattern, merges=merges, special_tokens=specials or {}, name=name,
                    source=source)


def _load_tiktoken(p: Path, pattern: str):
    # tiktoken's wrapper (numpy, the Rust core) loads only when a rank file is read
    from tokviz.core.encoders.rank_encoder import load_rank_file, parse_tiktoken_ranks

    ranks = parse_tiktoken_ranks(read_regular_file(p, what="a rank file"), p)
    model = _byte_model_from_ranks(ranks, pattern, p.name, str(p))
    if model is not None:
        return model
    return load_rank_file(p, PATTERNS[pattern] or r"[\s\S]+")


def _load_gpt2(vocab_path: Path | None, merges_path: Path | None, pattern: str) -> BPEModel:
    if vocab_path is None or merges_path is None:
        raise ModelFileError(vocab_path or merges_path, "needs both vocab.json and merges.txt side by side")
    try:
        vocab = json.loads(_read_text(vocab_path))
    except json.JSONDecodeError as err:
        raise ModelFileError(vocab_path, f"is not valid JSON ({err.msg} at line {err.lineno})") from None
    if not isinstance(vocab, dict):
        raise ModelFileError(vocab_path, "is not a JSON object of token -> id")
    dec = {c: b for b, c in enumerate(byte_to_unicode())}
    lines = _read_text(merges_path).splitlines()
    pairs = []
    for lineno, line in enumerate(lines, 1):
        if lineno == 1 and line.startswith("#version") or not line.strip():
            continue
        parts = line.split(" ")
        if len(parts) != 2:
            raise ModelFileError(merges_path, f"line {lineno} is not 'left right'")
        pairs.append(parts)
    try:
        ids = {tok: int(i) for tok, i in vocab.items()}
    except (ValueError, TypeError) as err:
        raise ModelFileError(vocab_path, f"has an id that is not a number ({err})") from None
    # ids 0-255 are the bytes, 256 + k is merge k; anything past the merges is a special token
    n = 256 + len(pairs)
    ordinary = {bytes(dec[c] for c in tok): i for tok, i in ids.items() if i < n and all(c in dec for c in tok)}
    specials = {tok: i for tok, i in ids.items() if i >= n or not all(c in dec for c in tok)}
    if any(ordinary.get(bytes([i])) != i for i in range(256)):
        raise ModelFileError(vocab_path, "byte tokens are not ids 0-255 in byte order (not a tokviz export); "
                             "open it as a tiktoken/GPT-2 encoder instead")
    first_made: dict[bytes, int] = {}  # a token two merges make is listed once, with the first one's id
    try:
        merges = []
        for a, b in pairs:
            ab, bb = bytes(dec[c] for c in a), bytes(dec[c] for c in b)
            if ab not in ordinary or bb not in ordinary:
                missing = a if ab not in ordinary else b
                raise ModelFileError(
                    merges_path, f"merge {len(merges) + 1} ({a} {b}) uses {missing!r}, which vocab.json does not list "
                    f"(the two files do not belong together)")
            rank = 256 + len(merges)
            # a merges.txt beside another export's vocab.json (a kill between the two renames of an
            # export) shows here: the merge makes a token vocab.json lists under another id
            if ordinary.get(ab + bb) != 256 + first_made.setdefault(ab + bb, len(merges)):
                raise ModelFileError(
                    merges_path, f"merge {len(merges) + 1} ({a} {b}) makes {a + b!r}, which vocab.json does not "
                    f"list as token {rank}: the two files do not belong together (an export interrupted "
                    f"between them? export the model again)")
            merges.append((ordinary[ab], ordinary[bb], rank))
    except KeyError as err:  # a character outside GPT-2's byte alphabet
        raise ModelFileError(merges_path,
                             f"holds {err.args[0]!r}, which is not one of GPT-2's 256 byte characters") from None
    # merges.txt cut short: the token right after the last merge is then not a special token but
    # the product of the next merge, two listed tokens glued together (and not named like a
    # special token, <...> or [...], which a short special such as "END" = "E" + "ND" could mimic)
    next_token = next((tok for tok, i in ids.items() if i == n and all(c in dec for c in tok)), None)
    if next_token is not None and not (next_token[:1] in "<[" and next_token[-1:] in ">]"):
        glued = bytes(dec[c] for c in next_token)
        if any(glued[:k] in ordinary and glued[k:] in ordinary for k in range(1, len(glued))):
            raise ModelFileError(
                merges_path, f"has {len(merges)} merges, but vocab.json's token {n} ({next_token!r}) is what one more "
                f"merge would make: merges.txt is truncated or the two files do not belong together")
    try:
        return BPEModel(mode="byte", pattern=pattern, merges=merges, special_tokens=specials,
                        name=vocab_path.name, source=str(vocab_path))
    except TokvizError as err:
        raise ModelFileError(merges_path, str(err)) from None


# ---- the formats this family offers to `open_model_file` (listed in tokviz.core.encoders.builtin) ----
def _sniffer(fmt: str):
    def sniff(path: Path, head: bytes) -> bool:
        return _sniff(Path(path), head) == fmt
    return sniff


def _open(path: Path, pattern: str | None):
    from tokviz.core.jamo_input import reader_for

    return reader_for(load_model(path, pattern=pattern))  # a model trained on jamo reads the user's text


def loaders() -> list[ModelLoader]:
    """tokviz's own BPE formats as model-file loaders."""
    return [
        ModelLoader("tokviz-bpe", _sniffer("tokviz"), _open, "a tokviz BPE model (.json)"),
        ModelLoader("subword-nmt", _sniffer("subword-nmt"), _open,
                    "subword-nmt BPE codes ('#version: 0.2' then 'left right' lines)"),
        ModelLoader("gpt2-bpe", _sniffer("gpt2"), _open, "GPT-2 style vocab.json + merges.txt (give either file)"),
    ]


def entries() -> list:
    """No built-in encoders: tokviz's BPE models are trained or opened at run time."""
    return []
