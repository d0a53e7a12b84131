"""One model's files through every implementation that reads them, line by line: do they agree?

A model folder often holds the same tokenizer more than once (``tokenizer.json`` beside
``tokenizer.model``, a GGUF converted from them), and each is read by its own library. Reports of
"transformers v4 and v5 give different ids" are this question; :func:`crosscheck` answers it with the
first token where each implementation leaves the first one's ids, per line.

Implementations: ``tokenizer.json`` through ``tokenizers`` itself and through tokviz; a SentencePiece
``.model`` through ``sentencepiece`` itself and through tokviz; every other model file tokviz opens
(rank files, ``tekken.json``, GGUF) through tokviz, and ``tekken.json`` through ``mistral-common`` too
when it is installed. Special-token strings in the text are plain text
everywhere, and nothing is added around a line (no bos).

For the Compare panel a catalogue model's readers are Encoders too (:func:`open_readers`): each
library's ids drawn with the model's own token bytes (:class:`ReaderEncoder`), so they line up as rows
beside tokviz's reading, and :func:`check_readers` says whether they agree.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tokviz.core.encoders import hf_cache
from tokviz.core.encoders.base import Encoder
from tokviz.core.encoders.builtin import model_in_folder, open_model_file
from tokviz.core.encoders.files import MAX_TEXT_MODEL_BYTES, read_head, read_model_text, read_regular_file
from tokviz.core.encoders.hf_json import looks_like_tokenizer_json
from tokviz.core.encoders.model_catalog import BY_NAME, verified_files
from tokviz.core.encoders.native import is_fatal, native_call
from tokviz.core.encoders.rank_models import looks_like_tekken
from tokviz.core.encoders.sentencepiece_family import looks_like_model_proto
from tokviz.core.encoding import Encoding
from tokviz.core.errors import EncodingFailed, ModelFileError, TokvizError

# What a model folder may hold, by name; GGUF and rank files by their suffix.
NAMED_FILES = ("tokenizer.json", "tekken.json", "tokenizer.model", "spiece.model")
SUFFIXES = (".gguf", ".tiktoken")
MAX_SUFFIX_FILES = 8  # a folder of many quantizations shares one vocabulary: a few are enough


@dataclass(frozen=True)
class Implementation:
    """One way to read one file: ``encode`` gives the ids of a line, ``token`` shows an id."""

    name: str  # "tokenizer.json via tokenizers"
    encode: Callable[[str], list[int]]
    token: Callable[[int], str]


@dataclass(frozen=True)
class Difference:
    """Where ``implementation`` first leaves ``reference`` on one line (ids None past a list's end)."""

    line: int  # 1-based
    implementation: str
    reference: str
    index: int
    ids: tuple[int | None, int | None]  # (reference's, implementation's)
    tokens: tuple[str | None, str | None]

    def as_json(self) -> dict:
        return {
            "line": self.line,
            "implementation": self.implementation,
            "reference": self.reference,
            "index": self.index,
            "ids": list(self.ids),
            "tokens": list(self.tokens),
        }


@dataclass
class Report:
    """The result: which implementations ran, how many lines, and every difference."""

    model: str
    implementations: list[str]
    lines: int = 0
    differences: list[Difference] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return not self.differences

    def as_json(self) -> dict:
        return {
            "model": self.model,
            "implementations": self.implementations,
            "lines": self.lines,
            "agree": self.agree,
            "differences": [d.as_json() for d in self.differences],
        }


def model_files(path: str | Path) -> list[Path]:
    """The model files to compare: those in a model folder (a ``models--*`` repo folder's current
    snapshot, or a repo id in the Hugging Face cache), or the one file given."""
    p = Path(path)
    if not p.exists() and hf_cache.looks_like_repo_id(str(path)):
        cached = hf_cache.find_cached(str(path))
        if cached is None:
            raise ModelFileError(
                p, f"no such file or folder, and no such repo in the Hugging Face cache ({hf_cache.cache_root()})"
            )
        p = cached.snapshot
    if not p.is_dir():
        read_head(p)  # a missing or unreadable file says so here
        return [p]
    folder = p
    if hf_cache.is_repo_folder(p):
        cached = hf_cache.cached_model_in(p)
        if cached is None:
            raise ModelFileError(p, "holds no snapshot with a tokenizer")
        folder = cached.snapshot
    found = [folder / n for n in NAMED_FILES if (folder / n).is_file()]
    try:
        extra = sorted(q for q in folder.iterdir() if q.suffix in SUFFIXES and q.is_file())
    except OSError as err:
        raise ModelFileError(folder, f"cannot list ({err.strerror or err})") from None
    found += extra[:MAX_SUFFIX_FILES]
    repo = hf_cache.repo_of(folder)
    if repo is not None:  # in the cache a snapshot's links are followed only into their own repo
        found = [f for f in found if hf_cache.within_repo(f, repo)]
    if not found and model_in_folder(folder) != folder:
        found.append(model_in_folder(folder))  # a GPT-2 style vocab.json + merges.txt
    return found


def implementations(files: Iterable[Path], pattern: str | None = None) -> list[Implementation]:
    """Every implementation that reads each of ``files``: its own library first, then tokviz (with the
    pre-split ``pattern`` for files that need one, as ``open_model_file`` takes it)."""
    out: list[Implementation] = []
    for f in files:
        own = _library_reader(f)
        if own is not None:
            out.append(own)
        out.append(_tokviz(f, pattern))
    return out


def _library_reader(path: Path) -> Implementation | None:
    """The file's own library (tokenizers, sentencepiece, mistral-common) reading it, when there is one."""
    head = read_head(path)
    if looks_like_tokenizer_json(head):
        return _tokenizers(path)
    if looks_like_model_proto(head):
        return _sentencepiece(path)
    if looks_like_tekken(head) and importlib.util.find_spec("mistral_common") is not None:
        return _tekkenizer(path)
    return None


def crosscheck(model: str, impls: list[Implementation], lines: Iterable[str]) -> Report:
    """Each line's ids from every implementation, each compared with the first implementation's."""
    if not impls:
        raise TokvizError(f"{model}: holds no model file tokviz reads; nothing to cross-check")
    if len(impls) < 2:
        raise TokvizError(
            f"{model}: only one implementation reads these files ({impls[0].name}); nothing to cross-check"
        )
    report = Report(model, [i.name for i in impls])
    ref = impls[0]
    for number, line in enumerate(lines, 1):
        report.lines += 1
        if not line:
            continue
        want = ref.encode(line)
        for other in impls[1:]:
            got = other.encode(line)
            if got != want:
                report.differences.append(_first_difference(number, ref, other, want, got))
    return report


def _first_difference(number, ref: Implementation, other: Implementation, want, got) -> Difference:
    i = next((k for k, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), min(len(want), len(got)))
    a = want[i] if i < len(want) else None
    b = got[i] if i < len(got) else None
    return Difference(
        number,
        other.name,
        ref.name,
        i,
        (a, b),
        (None if a is None else ref.token(a), None if b is None else other.token(b)),
    )


# ---- the implementations ---------------------------------------------------------------------------
def _guard(name: str, call):
    """``call()`` with a library's failure (a Rust panic, a C++ error) as EncodingFailed naming it."""
    try:
        with native_call():
            return call()
    except BaseException as err:
        if is_fatal(err) or isinstance(err, TokvizError):
            raise
        raise EncodingFailed(name, f"gave up on this text ({str(err).strip()[:200]})") from None


def _tokenizers(path: Path) -> Implementation:
    from tokenizers import Tokenizer

    name = f"{path.name} via tokenizers"
    text = read_model_text(path, limit=MAX_TEXT_MODEL_BYTES, what="a tokenizer.json")
    try:
        with native_call():
            tok = Tokenizer.from_str(text)
    except BaseException as err:
        if is_fatal(err):
            raise
        raise ModelFileError(path, f"tokenizers cannot read it ({str(err).strip()[:200]})") from None
    tok.encode_special_tokens = True  # special-token strings are text, as tokviz reads them

    def encode(line: str) -> list[int]:
        return _guard(name, lambda: tok.encode(line, add_special_tokens=False).ids)

    return Implementation(name, encode, lambda i: tok.id_to_token(i))


def _sentencepiece(path: Path) -> Implementation:
    import sentencepiece as spm

    name = f"{path.name} via sentencepiece"
    proto = read_regular_file(path, what="a SentencePiece model")
    try:
        sp = spm.SentencePieceProcessor(model_proto=proto)
    except Exception as err:
        raise ModelFileError(path, f"sentencepiece cannot load it ({str(err).strip()[:200]})") from None

    def encode(line: str) -> list[int]:
        return _guard(name, lambda: sp.encode(line))

    return Implementation(name, encode, lambda i: sp.id_to_piece(i))


def _tekkenizer(path: Path) -> Implementation:
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    name = f"{path.name} via mistral-common"
    with warnings.catch_warnings():  # its deprecation notes about special-token policies are not ours to show
        warnings.simplefilter("ignore")
        try:
            tek = Tekkenizer.from_file(str(path))
        except Exception as err:
            raise ModelFileError(path, f"mistral-common cannot load it ({str(err).strip()[:200]})") from None

    def encode(line: str) -> list[int]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _guard(name, lambda: tek.encode(line, bos=False, eos=False))

    return Implementation(name, encode, lambda i: tek.id_to_piece(i))


def _tokviz(path: Path, pattern: str | None) -> Implementation:
    enc = open_model_file(path, pattern=pattern)
    name = f"{path.name} via tokviz"

    def token(i: int) -> str:
        try:
            return enc.token_bytes(i).decode("utf-8", "backslashreplace")
        except (ValueError, KeyError, IndexError):
            return f"#{i}"

    return Implementation(name, lambda line: enc.encode(line).ids, token)


# ---- one catalogue model's readers as Encoders (the Compare panel's cross-check) -----------------------
class ReaderEncoder:
    """A library's reading of a model's file as an Encoder: its ids, drawn with ``reference``'s token bytes
    (the same vocabulary: the same file). Where its ids are the reference's, its tokens are the reference's
    tokens exactly; elsewhere each token is placed on the text where its bytes are next found (a
    SentencePiece ``▁`` may stand for no space of the text), and a token that cannot be placed covers none
    of it. Special-token strings are plain text, as everywhere in a cross-check."""

    def __init__(self, implementation: Implementation, reference: Encoder, model: str):
        library = implementation.name.rpartition(" via ")[2]
        # named by the model and the library ("mistral-sp-v7 via sentencepiece"), beside "mistral-sp-v7 via tokviz"
        self.implementation = Implementation(f"{model} via {library}", implementation.encode, implementation.token)
        self.reference = reference
        self.name = self.implementation.name
        self.family = reference.family
        self.source = implementation.name  # which file it reads
        self.byte_level = reference.byte_level

    @property
    def vocab_size(self) -> int:
        return self.reference.vocab_size

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        ids = self.implementation.encode(text)
        theirs = self.reference.encode(text)
        if ids == theirs.ids:
            return _renamed(theirs, self.name)
        return placed(self.name, text, ids, self.reference.token_bytes)

    def decode(self, ids) -> str:
        return self.reference.decode(ids)

    def special_tokens(self):
        return self.reference.special_tokens()

    def token_bytes(self, token_id: int) -> bytes:
        return self.reference.token_bytes(token_id)


def _renamed(encoding: Encoding, name: str) -> Encoding:
    tokens = encoding.tokens
    blob = [t.bytes for t in tokens]
    ends = np.cumsum([len(b) for b in blob], dtype=np.int64)
    return Encoding.from_arrays(
        name,
        encoding.text,
        encoding.id_array,
        encoding.byte_start_array,
        encoding.byte_end_array,
        kinds=encoding.kind_array,
        token_bytes=(b"".join(blob), ends - [len(b) for b in blob], ends),
        normalized_text=encoding.normalized_text,
    )


def placed(name: str, text: str, ids: list[int], token_bytes: Callable[[int], bytes]) -> Encoding:
    """An Encoding of ``ids`` over ``text``: each token where its bytes (``token_bytes``) come next in the
    text's UTF-8, a leading space it has and the text has not (SentencePiece's ``▁``) taken as covering
    nothing, and a token found nowhere next covering nothing.

    >>> enc = placed("sp", "ab", [1, 2], {1: b" a", 2: b"b"}.__getitem__)
    >>> [(t.bytes, t.start, t.end) for t in enc.tokens]
    [(b' a', 0, 1), (b'b', 1, 2)]
    """
    data = text.encode("utf-8", "surrogatepass")
    rows = []
    pos = 0
    for token_id in ids:
        piece = token_bytes(token_id)
        if piece and data.startswith(piece, pos):
            end = pos + len(piece)
        elif piece.startswith(b" ") and len(piece) > 1 and data.startswith(piece[1:], pos):
            end = pos + len(piece) - 1
        else:
            end = pos
        rows.append((token_id, piece, pos, end, "normal", None))
        pos = end
    return Encoding.from_spans(name, text, rows)


def catalogue_files(model: str) -> list[Path]:
    """The files of catalogue model ``model`` (checked against their pinned hashes), its configuration
    files left out. Raises TokvizError for a model the catalogue does not hold."""
    entry = BY_NAME.get(model)
    if entry is None:
        known = ", ".join(BY_NAME)
        raise TokvizError(
            f"{model}: a cross-check reads a model's own files, those of a model of tokviz's catalogue ({known}) "
            "or of a model file or folder you open; open its file to cross-check it"
        )
    paths, _ = verified_files(entry)
    tokenizers = {pinned.parts[-1] for pinned in entry.files if not pinned.optional}
    return [p for p in paths if p.name in tokenizers]


def open_readers(model: str, reference: Encoder, files: Iterable[Path] | None = None) -> list[ReaderEncoder]:
    """Every library that reads ``model``'s files, as Encoders beside ``reference`` (tokviz's own reading,
    the registry's encoder of that name). ``files``: those of the model file or folder it was opened from
    (:func:`model_files`); None for a catalogue model's own. Raises TokvizError when no library reads them
    here (then there is nothing to cross-check)."""
    readers = []
    for path in catalogue_files(model) if files is None else files:
        own = _library_reader(path)
        if own is not None:
            readers.append(ReaderEncoder(own, reference, model))
    if not readers:
        raise TokvizError(
            f"{model}: only tokviz reads its files here (no library such as tokenizers, sentencepiece or "
            "mistral-common does), so there is nothing to cross-check"
        )
    return readers


def check_readers(model: str, reference: Encoder, readers: list[ReaderEncoder], text: str) -> Report:
    """:func:`crosscheck` of ``text``'s lines: the first library reader is the reference, the others and
    tokviz's reading (``reference``) are compared with it."""

    def token(i: int) -> str:
        try:
            return reference.token_bytes(i).decode("utf-8", "backslashreplace")
        except (ValueError, KeyError, IndexError):
            return f"#{i}"

    ours = Implementation(f"{model} via tokviz", lambda line: reference.encode(line).ids, token)
    return crosscheck(model, [r.implementation for r in readers] + [ours], text.splitlines())
