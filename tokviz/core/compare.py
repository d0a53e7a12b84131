"""The same text (or corpus) through several encoders: per-encoder metrics, corpus totals, and how
much two vocabularies share.

Qt-free, like the rest of ``tokviz.core``: long work (a corpus, a 200k vocabulary) is a plain
function that takes a ``state`` object for progress and cancel (Orange3's pattern), so the GUI runs it
in a worker thread and tests call it directly.

One encoder failing never stops the others: its outcome carries the error message instead of
metrics.

>>> from tokviz.core.encoding import Encoding
>>> class Bytes:  # a toy byte-level encoder: one token per UTF-8 byte
...     name, family, source, byte_level, vocab_size = "bytes", "toy", "doctest", True, 256
...     def encode(self, text, *, allow_special=False):
...         return Encoding.from_byte_tokens(self.name, text, [(b, bytes([b])) for b in text.encode()])
...     def decode(self, ids):
...         return bytes(ids).decode("utf-8", "replace")
...     def special_tokens(self):
...         return {}
...     def token_bytes(self, token_id):
...         return bytes([token_id])
>>> [(o.encoder, o.metrics.tokens, o.metrics.partial_tokens) for o in compare_text([Bytes()], "a안")]
[('bytes', 4, 3)]
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from tokviz.core.encoders.base import Encoder
from tokviz.core.encoding import Encoding
from tokviz.core.errors import CorpusError, TokvizError, check_text
from tokviz.core.metrics import Metrics, TextDifference, measure, round_trip_diff

# ---- one text --------------------------------------------------------------------------------


def describe_failure(err: BaseException) -> str:
    """A one-line message for an encoder that failed: TokvizError messages are already for users;
    anything else is a bug in an adapter, named by its type so it can be reported."""
    if isinstance(err, TokvizError):
        return str(err)
    return f"{type(err).__name__}: {err}"


@dataclass(frozen=True)
class EncoderOutcome:
    """What one encoder made of one text: its Encoding and Metrics, or the error it raised."""

    encoder: str
    encoding: Encoding | None = None
    metrics: Metrics | None = None
    decoded: str | None = None
    differences: tuple[TextDifference, ...] = ()
    vocab_size: int | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def as_json(self) -> dict:
        """The CLI's JSON entry: metrics, or ``{"encoder", "error"}`` for a failing encoder."""
        if self.metrics is None:
            return {"encoder": self.encoder, "error": self.error}
        m = self.metrics.as_json()
        out = {
            "encoder": self.encoder,
            "tokens": m["tokens"],
            "chars_per_token": m["chars_per_token"],
            "bytes_per_token": m["bytes_per_token"],
            "fertility": m["fertility"],
            "partial_tokens": m["partial_tokens"],
            "fallback_tokens": m["fallback_tokens"],
            "unknown_tokens": m["unknown_tokens"],
            "round_trip": m["round_trip"],
            "vocab_size": self.vocab_size,
        }
        if self.differences:
            out["round_trip_differences"] = [d.describe() for d in self.differences]
        return out


def encode_outcome(encoder: Encoder, text: str, cache: ParagraphCache | None = None) -> EncoderOutcome:
    """Encode ``text`` with one encoder; any failure becomes an outcome with ``error`` set.

    ``cache`` (a :class:`ParagraphCache`) re-uses unchanged paragraphs of long texts.
    The round trip is judged on what ``decode(ids)`` gives back, so a normalizer (SentencePiece
    NFKC) or an ``<unk>`` shows up as a difference even when the token bytes look right.
    """
    name = getattr(encoder, "name", str(encoder))
    try:
        vocab = encoder.vocab_size
    except Exception:  # a broken adapter still gets its row
        vocab = None
    try:
        encoding = cache.encode(encoder, text) if cache is not None else encoder.encode(text)
        decoded = encoder.decode(encoding.ids)
        metrics = measure(encoding, decoded)
    except Exception as err:  # noqa: BLE001 - one encoder's failure must not stop the others
        return EncoderOutcome(name, vocab_size=vocab, error=describe_failure(err))
    diffs = tuple(local_differences(text, decoded)) if not metrics.round_trip else ()
    return EncoderOutcome(name, encoding, metrics, decoded, diffs, vocab)


DIFF_LIMIT = 50
DIFF_WINDOW = 48


def local_differences(original: str, decoded: str, *, limit: int = DIFF_LIMIT,
                      window: int = DIFF_WINDOW) -> list[TextDifference]:
    """The first ``limit`` places where ``decoded`` differs from ``original``, found window by window.

    A full diff (``round_trip_diff``) is quadratic and takes seconds on a 10,000-character text whose
    every newline a normalizer turned into a space. Round-trip differences are local (a normalized
    character, a lost ``<unk>``), so this walks both texts together: skip the equal run, diff only a
    small window at the first mismatch, record its first difference, resume after it. On short texts
    it gives the same answer as the full diff; on long ones it may pair characters differently
    where differences are dense, but every reported span is a true difference.

    >>> [d.describe() for d in local_differences("ｈi 😀!", "hi  ⁇ !")]
    ["at 0: 'ｈ' became 'h'", "at 3: '😀' became ' ⁇ '"]
    """
    if len(original) + len(decoded) <= 2 * window:
        return round_trip_diff(original, decoded)[:limit]
    out: list[TextDifference] = []
    i = j = 0
    n, m = len(original), len(decoded)
    while len(out) < limit and (i < n or j < m):
        while i < n and j < m and original[i] == decoded[j]:
            i += 1
            j += 1
        if i >= n and j >= m:
            break
        a, b = original[i:i + window], decoded[j:j + window]
        diffs = round_trip_diff(a, b)
        if not diffs:
            break
        d = diffs[0]
        out.append(TextDifference(d.op, i + d.start, i + d.end, j + d.decoded_start, j + d.decoded_end,
                                  d.original, d.decoded))
        i += d.end
        j += d.decoded_end
    return out


def compare_text(encoders: Sequence[Encoder], text: str) -> list[EncoderOutcome]:
    """Every encoder's outcome on ``text``, in the order given.

    Raises InvalidTextError (before encoding anything) when the text has a lone surrogate, since
    then no encoder can run and the message is about the text, not an encoder.
    """
    check_text(text)
    return [encode_outcome(e, text) for e in encoders]


# ---- corpora ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextSet:
    """A named list of texts compared as one unit (a sample file, a corpus file)."""

    name: str
    texts: tuple[str, ...]

    @property
    def characters(self) -> int:
        return sum(len(t) for t in self.texts)


SAMPLE_SET_ORDER = ("korean", "english", "code", "emoji", "numbers", "mixed")


def sample_sets(folder: Path | None = None) -> list[TextSet]:
    """The built-in sample sets (``resources/samples/*.txt``), each file one text (so code keeps
    its newlines and indentation). Known sets come first in a fixed order."""
    if folder is None:
        from tokviz import resources_dir

        folder = resources_dir() / "samples"
    files = sorted(Path(folder).glob("*.txt"), key=lambda p: (
        SAMPLE_SET_ORDER.index(p.stem) if p.stem in SAMPLE_SET_ORDER else len(SAMPLE_SET_ORDER), p.stem))
    out = []
    for p in files:
        text = _read_text(p)
        if text.strip():
            out.append(TextSet(p.stem, (text,)))
    if not out:
        raise CorpusError(f"no sample texts found in {folder}")
    return out


def corpus_set(path: str | Path, *, name: str | None = None, max_lines: int | None = None) -> TextSet:
    """A corpus file as one set, one text per non-empty line (how corpora like NSMC store one
    review per line)."""
    p = Path(path)
    lines = [ln for ln in _read_text(p).splitlines() if ln.strip()]
    if max_lines is not None:
        lines = lines[:max_lines]
    if not lines:
        raise CorpusError(f"{p}: the corpus has no text")
    return TextSet(name or p.stem, tuple(lines))


def _read_text(path: Path) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as err:
        raise CorpusError(f"{path}: not UTF-8 text (byte {err.start}: {err.reason})") from None
    except OSError as err:
        raise CorpusError(f"{path}: cannot read ({err.strerror or err})") from None


@dataclass
class CorpusTotals:
    """Running totals of one encoder over one text set; ratios are computed from the totals (a
    corpus's chars/token is total chars over total tokens, not a mean of per-line ratios)."""

    set_name: str
    encoder: str
    vocab_size: int | None = None
    texts: int = 0
    tokens: int = 0
    characters: int = 0
    bytes: int = 0
    words: int = 0
    partial_tokens: int = 0
    fallback_tokens: int = 0
    unknown_tokens: int = 0
    round_trip_failures: int = 0
    failed_texts: int = 0
    first_error: str | None = None

    @property
    def chars_per_token(self) -> float:
        return self.characters / self.tokens if self.tokens else 0.0

    @property
    def bytes_per_token(self) -> float:
        return self.bytes / self.tokens if self.tokens else 0.0

    @property
    def fertility(self) -> float:
        return self.tokens / self.words if self.words else 0.0

    def add(self, metrics: Metrics) -> None:
        self.texts += 1
        self.tokens += metrics.tokens
        self.characters += metrics.characters
        self.bytes += metrics.bytes
        self.words += metrics.words
        self.partial_tokens += metrics.partial_tokens
        self.fallback_tokens += metrics.fallback_tokens
        self.unknown_tokens += metrics.unknown_tokens
        self.round_trip_failures += 0 if metrics.round_trip else 1

    def add_failure(self, message: str) -> None:
        self.failed_texts += 1
        if self.first_error is None:
            self.first_error = message

    def copy(self) -> CorpusTotals:
        return CorpusTotals(**self.__dict__)

    def as_json(self) -> dict:
        out = dict(self.__dict__)
        out["chars_per_token"] = round(self.chars_per_token, 4)
        out["bytes_per_token"] = round(self.bytes_per_token, 4)
        out["fertility"] = round(self.fertility, 4)
        return out


class CompareState(Protocol):
    """What long compare work reports to and asks of its caller (a GUI worker, a test, the CLI)."""

    def is_cancelled(self) -> bool: ...

    def progress(self, done: int, total: int, result: CorpusComparison) -> None:
        """``done`` of ``total`` characters are through every encoder; ``result`` holds the totals
        so far (read it now, in this call: it keeps changing afterwards)."""
        ...


class NoState:
    """A state that never cancels and ignores progress."""

    def is_cancelled(self) -> bool:
        return False

    def progress(self, done: int, total: int, result: CorpusComparison) -> None:
        pass


@dataclass
class CorpusComparison:
    """Totals per (set, encoder), in set order then encoder order."""

    totals: list[CorpusTotals] = field(default_factory=list)
    cancelled: bool = False
    seconds: float = 0.0

    def snapshot(self) -> list[CorpusTotals]:
        """Copies of the current totals (safe to hand to another thread)."""
        return [t.copy() for t in self.totals]

    def get(self, set_name: str, encoder: str) -> CorpusTotals:
        for t in self.totals:
            if t.set_name == set_name and t.encoder == encoder:
                return t
        raise KeyError((set_name, encoder))


def compare_corpus(
    encoders: Sequence[Encoder],
    sets: Iterable[TextSet],
    state: CompareState | None = None,
    *,
    report_every: float = 0.05,
) -> CorpusComparison:
    """Totals of every encoder over every text of every set.

    Each text goes through all encoders before the next one, so the totals of all encoders grow
    together (a live table reads fairly at any moment). ``state.progress`` is called at most every
    ``report_every`` seconds and once at the end; ``state.is_cancelled()`` is checked between texts,
    and a cancelled run returns what it counted so far with ``cancelled=True``.

    An encoder that fails on a text counts the failure (``failed_texts``, ``first_error``) and goes
    on with the next text.
    """
    state = state or NoState()
    sets = list(sets)
    started = time.perf_counter()
    result = CorpusComparison()
    names = [getattr(e, "name", str(e)) for e in encoders]
    vocab = []
    for e in encoders:
        try:
            vocab.append(e.vocab_size)
        except Exception:
            vocab.append(None)
    for s in sets:
        for name, v in zip(names, vocab, strict=True):
            result.totals.append(CorpusTotals(s.name, name, v))
    total = sum(s.characters for s in sets)
    done = 0
    last_report = time.perf_counter()
    row = 0
    for s in sets:
        row_totals = result.totals[row: row + len(encoders)]
        row += len(encoders)
        for text in s.texts:
            if state.is_cancelled():
                result.cancelled = True
                result.seconds = time.perf_counter() - started
                state.progress(done, total, result)
                return result
            for enc, totals in zip(encoders, row_totals, strict=True):
                try:
                    encoding = enc.encode(text)
                    totals.add(measure(encoding, enc.decode(encoding.ids)))
                except Exception as err:  # noqa: BLE001 - counted per encoder, the run goes on
                    totals.add_failure(describe_failure(err))
            done += len(text)
            now = time.perf_counter()
            if now - last_report >= report_every:
                last_report = now
                state.progress(done, total, result)
    result.seconds = time.perf_counter() - started
    state.progress(done, total, result)
    return result


# ---- vocabularies -----------------------------------------------------------------------------


def vocabulary(encoder: Encoder, state: CompareState | None = None) -> frozenset[bytes]:
    """The byte strings of an encoder's ordinary tokens (special tokens and ids that stand for no
    bytes, such as SentencePiece's ``<unk>``/``<s>`` control pieces, are left out).

    Byte strings, not ids or surface forms, are what two vocabularies can share: SentencePiece's
    ``▁the`` and GPT's `` the`` are the same bytes.
    """
    specials = set(encoder.special_tokens().values())
    out = set()
    n = encoder.vocab_size
    for token_id in range(n):
        if token_id in specials:
            continue
        if state is not None and token_id % 8192 == 0 and state.is_cancelled():
            break
        try:
            b = encoder.token_bytes(token_id)
        except Exception:  # holes in the id space (cl100k_base has some) are not tokens
            continue
        if b:
            out.add(b)
    return frozenset(out)


@dataclass(frozen=True)
class VocabOverlap:
    """How much two vocabularies share, as sets of token byte strings."""

    a: str
    b: str
    size_a: int
    size_b: int
    shared: int
    jaccard: float
    shared_examples: tuple[bytes, ...]
    only_a_examples: tuple[bytes, ...]
    only_b_examples: tuple[bytes, ...]

    def describe(self) -> str:
        return (
            f"{self.a}: {self.size_a:,} tokens · {self.b}: {self.size_b:,} tokens · "
            f"shared {self.shared:,} · Jaccard {self.jaccard:.3f}"
        )

    def as_json(self) -> dict:
        def show(bs: tuple[bytes, ...]) -> list[str]:
            return [b.decode("utf-8", "backslashreplace") for b in bs]

        return {
            "a": self.a, "b": self.b, "size_a": self.size_a, "size_b": self.size_b,
            "shared": self.shared, "jaccard": round(self.jaccard, 6),
            "shared_examples": show(self.shared_examples),
            "only_a_examples": show(self.only_a_examples),
            "only_b_examples": show(self.only_b_examples),
        }


def _examples(tokens: Iterable[bytes], n: int) -> tuple[bytes, ...]:
    # Long word-like tokens say the most about a vocabulary (" tokenization", "습니다"); runs of one
    # repeated character ("--------") are long but say nothing.
    def readable(b: bytes) -> bool:
        try:
            s = b.decode("utf-8").strip()
        except UnicodeDecodeError:
            return False
        return len(set(s)) > 2 and sum(c.isalpha() for c in s) * 2 > len(s)

    return tuple(sorted((b for b in tokens if readable(b)), key=lambda b: (-len(b.decode("utf-8")), b))[:n])


def overlap_of(a_name: str, a: frozenset[bytes], b_name: str, b: frozenset[bytes], examples: int = 12) -> VocabOverlap:
    """Overlap of two token byte-string sets.

    >>> overlap_of("x", frozenset({b"a", b"b", b"ab"}), "y", frozenset({b"a", b"b", b"c"})).jaccard
    0.5
    """
    shared = a & b
    union = len(a | b)
    return VocabOverlap(
        a_name, b_name, len(a), len(b), len(shared), len(shared) / union if union else 0.0,
        _examples(shared, examples), _examples(a - b, examples), _examples(b - a, examples),
    )


def vocab_overlap(a: Encoder, b: Encoder, state: CompareState | None = None, examples: int = 12) -> VocabOverlap:
    """Shared token byte strings of two encoders and their Jaccard index |A∩B| / |A∪B|."""
    return overlap_of(a.name, vocabulary(a, state), b.name, vocabulary(b, state), examples)


# ---- other segmentations of a unigram model ---------------------------------------------------


@dataclass(frozen=True)
class Segmentations:
    """A SentencePiece unigram model's best segmentations of a text (most likely first) and random
    ones sampled from its lattice (subword regularization, smoothed by ``alpha``)."""

    encoder: str
    text: str
    nbest: tuple[tuple[str, ...], ...]
    samples: tuple[tuple[str, ...], ...]
    alpha: float


def alternative_segmentations(
    encoder: Encoder, text: str, *, nbest: int = 5, samples: int = 5, alpha: float = 0.1, seed: int = 0
) -> Segmentations:
    """N-best and sampled segmentations of ``text`` by a SentencePiece unigram model.

    Sampling is seeded (``seed``) so a screenshot or test shows the same samples every time.
    Raises TokvizError for other encoders: only a unigram model scores whole segmentations.
    """
    processor = getattr(encoder, "processor", None)
    info = getattr(encoder, "info", None)
    if processor is None or getattr(info, "model_type", None) != "unigram":
        raise TokvizError(
            f"{getattr(encoder, 'name', encoder)} is not a SentencePiece unigram model; "
            "n-best and sampled segmentations need one"
        )
    check_text(text)
    if not text.strip():
        return Segmentations(encoder.name, text, (), (), alpha)
    import sentencepiece

    best = tuple(tuple(p) for p in processor.nbest_encode_as_pieces(text, nbest))
    sentencepiece.set_random_generator_seed(seed)
    drawn = tuple(tuple(processor.sample_encode_as_pieces(text, -1, alpha)) for _ in range(samples))
    return Segmentations(encoder.name, text, best, drawn, alpha)


# ---- re-using the unchanged paragraphs of a long text -----------------------------------------


def safe_cut(text: str, i: int) -> bool:
    """True when every regex pre-splitter (gpt2, cl100k, o200k, tokviz BPE) ends a piece at ``i``
    whether or not the text goes on: ``i`` follows a newline that follows a non-space character,
    and a non-space character comes next. (After ``"  \\n"`` gpt2's pattern splits ``"  "`` +
    ``"\\n"`` inside a text but keeps ``"  \\n"`` whole at its end, so such places are not safe.)

    >>> [i for i in range(8) if safe_cut("ab\\ncd \\nx", i)]
    [3]
    """
    return (
        2 <= i < len(text)
        and text[i - 1] == "\n"
        and not text[i - 2].isspace()
        and not text[i].isspace()
    )


def paragraph_spans(text: str, min_chars: int = 400) -> list[tuple[int, int]]:
    """Cut ``text`` at safe places (:func:`safe_cut`) into spans of at least ``min_chars``."""
    spans = []
    start = 0
    pos = text.find("\n", min_chars)
    while pos >= 0:
        cut = pos + 1
        if safe_cut(text, cut) and cut - start >= min_chars:
            spans.append((start, cut))
            start = cut
            pos = text.find("\n", cut + min_chars - 1)
        else:
            pos = text.find("\n", cut)
    spans.append((start, len(text)))
    return spans


class ParagraphCache:
    """Encodes long texts paragraph by paragraph with byte-level encoders, re-using the paragraphs it
    has seen, so typing at one place of a 10,000-character text re-encodes one paragraph.

    Only for byte-level encoders (their tokens never cross a safe cut, so the stitched Encoding is
    exactly the whole-text one; a test checks this against direct encoding); other encoders are
    called on the whole text. Safe to share between worker threads.
    """

    def __init__(self, max_paragraphs: int = 2048, min_chars: int = 400):
        import threading

        self._lock = threading.Lock()
        # Keyed by a weak reference to the encoder, never by id(): the Train panel offers a new model
        # at every step, and a freed model's id is soon re-used by another one. A reference to a
        # dead encoder equals no other reference, and its entries are dropped (see _purge).
        self._cache: dict[tuple[weakref.ref, str], Encoding] = {}
        self._dead: list[weakref.ref] = []  # appended by weakref callbacks (any thread, any time)
        self.max_paragraphs = max_paragraphs
        self.min_chars = min_chars

    def _purge(self) -> None:
        """Drop the paragraphs of encoders that no longer exist (called with the lock held)."""
        if not self._dead:
            return
        dead, self._dead[:] = set(self._dead), []
        for key in [k for k in self._cache if k[0] in dead]:
            del self._cache[key]

    def encode(self, encoder: Encoder, text: str) -> Encoding:
        if not getattr(encoder, "byte_level", False) or len(text) < 2 * self.min_chars:
            return encoder.encode(text)
        try:
            ref = weakref.ref(encoder, self._dead.append)
        except TypeError:  # an encoder that cannot be weakly referenced is simply not cached
            return encoder.encode(text)
        spans = paragraph_spans(text, self.min_chars)
        if len(spans) < 2:
            return encoder.encode(text)
        from tokviz.core.encoding import char_byte_starts

        byte_at = char_byte_starts(text)
        parts: list[tuple[Encoding, int, int]] = []
        with self._lock:
            self._purge()
        for a, b in spans:
            piece = text[a:b]
            key = (ref, piece)
            with self._lock:
                enc = self._cache.pop(key, None)
            if enc is None:
                enc = encoder.encode(piece)
            with self._lock:
                self._cache[key] = enc  # most recently used last
            parts.append((enc, a, byte_at[a]))
        with self._lock:
            while len(self._cache) > self.max_paragraphs:
                self._cache.pop(next(iter(self._cache)))
        return Encoding.concat(getattr(encoder, "name", str(encoder)), text, parts)
