"""Open a model file of any supported format as an Encoder, recognising the format by its content.

File names lie (``tokenizer.model.v3``, ``vocab.txt`` that is really a rank file), so each format
has a *sniff* that looks at the first bytes, and the first loader whose sniff says yes loads it.

Built in: SentencePiece ``.model`` (a serialized ModelProto) and tiktoken ``.tiktoken`` rank files.
Other modules add their formats by appending to :data:`LOADERS` (or calling :func:`register_loader`)
when they are imported; :func:`open_model_file` imports ``tokviz.core.bpe.formats`` first so the
BPE core's formats (tokviz JSON, subword-nmt codes, GPT-2 vocab.json + merges.txt) take part.
"""

from __future__ import annotations

import base64
import importlib
import re
from pathlib import Path
from typing import Callable, NamedTuple

from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import ModelFileError, TokvizError
from tokviz.core.pretokenize import PATTERNS

HEAD_BYTES = 64 * 1024  # how much of a file every sniff sees

# The pattern used for formats that do not record their own pre-split (tiktoken rank files).
DEFAULT_PATTERN = "gpt4"
_WHOLE_TEXT = r"[\s\S]+"  # the "none" pattern for regex-based encoders: the whole text is one piece


class ModelLoader(NamedTuple):
    """One file format.

    ``sniff(path, head)`` gets the path and the file's first :data:`HEAD_BYTES` bytes and says whether
    this loader recognises the content. ``load(path, pattern)`` builds the Encoder; ``pattern`` is
    a key of ``tokviz.core.pretokenize.PATTERNS`` chosen by the user, or None for the format's own
    default (formats that record their pre-split should use theirs). ``description`` names the
    format in the "expected one of" message. A plain ``(name, sniff, load)`` tuple works too.
    """

    name: str
    sniff: Callable[[Path, bytes], bool]
    load: Callable[[Path, str | None], Encoder]
    description: str = ""


def pattern_regex(name: str | None) -> str:
    """The regex for pattern ``name`` (None = the GPT-4 pattern); raises TokvizError for unknown names.

    >>> pattern_regex("gpt2") == PATTERNS["gpt2"]
    True
    """
    key = DEFAULT_PATTERN if name is None else name
    if key not in PATTERNS:
        raise TokvizError(f"Unknown pre-split pattern {name!r}; choose one of: {', '.join(PATTERNS)}")
    regex = PATTERNS[key]
    return _WHOLE_TEXT if regex is None else regex


# ---- built-in formats ----------------------------------------------------------------------------
def _sniff_sentencepiece(path: Path, head: bytes) -> bool:
    from tokviz.core.encoders.sentencepiece_family import looks_like_model_proto

    return looks_like_model_proto(head)


def _load_sentencepiece(path: Path, pattern: str | None) -> Encoder:
    # SentencePiece models split text themselves; a pattern does not apply.
    from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder

    return SentencePieceEncoder(path)


# ``base64-token rank`` lines (rank 0 of OpenAI's files is byte 0x21, "IQ== 0").
_RANK_LINE = re.compile(rb"[A-Za-z0-9+/]+={0,2} [0-9]+\r?")


def _sniff_tiktoken(path: Path, head: bytes) -> bool:
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


def _load_tiktoken(path: Path, pattern: str | None) -> Encoder:
    from tokviz.core.encoders.tiktoken_family import load_rank_file

    return load_rank_file(path, pattern_regex(pattern))


# ---- the hook list --------------------------------------------------------------------------------
# Loaders tried in order; other modules append theirs (see register_loader). SentencePiece first:
# its binary sniff is the most specific.
LOADERS: list[ModelLoader | tuple] = [
    ModelLoader("sentencepiece", _sniff_sentencepiece, _load_sentencepiece,
                "a SentencePiece .model (serialized ModelProto)"),
    ModelLoader("tiktoken", _sniff_tiktoken, _load_tiktoken,
                "a tiktoken rank file (.tiktoken: 'base64-token rank' per line)"),
]

# Modules imported on first use so their loaders register themselves.
PLUGIN_MODULES = ("tokviz.core.bpe.formats",)


def register_loader(loader: ModelLoader | tuple) -> None:
    """Add a format (or replace the one with the same name), keeping the order of the others."""
    name = loader[0]
    for i, existing in enumerate(LOADERS):
        if existing[0] == name:
            LOADERS[i] = loader
            return
    LOADERS.append(loader)


def _import_plugins() -> None:
    for module in PLUGIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            # Only "this module does not exist (yet)" is expected; a broken plugin is a bug to see.
            if err.name is None or not module.startswith(err.name):
                raise


def _describe(loader: ModelLoader | tuple) -> str:
    return loader[3] if len(loader) > 3 and loader[3] else str(loader[0])


def open_model_file(path: str | Path, *, pattern: str | None = None) -> Encoder:
    """An Encoder for the model file at ``path``, whatever its supported format.

    ``pattern`` (a key of PATTERNS) picks the pre-split for formats that need one; None means the
    format's own (GPT-4's for ``.tiktoken`` files). Raises ModelFileError naming the file and the
    problem: unreadable, empty, of an unknown format, or broken inside.
    """
    p = Path(path)
    if pattern is not None:
        pattern_regex(pattern)  # an unknown name is the user's mistake: say so before reading anything
    if p.is_dir() and (p / "vocab.json").is_file() and (p / "merges.txt").is_file():
        p = p / "vocab.json"  # a GPT-2 style folder (`tokviz train --export gpt2 DIR/`); the BPE loader reads both
    if p.is_dir():
        raise ModelFileError(p, "is a folder, not a model file")
    try:
        with p.open("rb") as fh:
            head = fh.read(HEAD_BYTES)
    except OSError as err:
        raise ModelFileError(p, f"cannot read ({err.strerror or err})") from None
    if not head:
        raise ModelFileError(p, "the file is empty")
    _import_plugins()
    for loader in list(LOADERS):
        name, sniff, load = loader[0], loader[1], loader[2]
        try:
            recognised = bool(sniff(p, head))
        except Exception:  # a sniff that trips over odd bytes simply does not recognise them
            recognised = False
        if recognised:
            return load(p, pattern)
    expected = "; ".join(_describe(loader) for loader in LOADERS)
    raise ModelFileError(p, f"not a model format tokviz knows. Expected one of: {expected}")
