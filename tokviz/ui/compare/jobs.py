"""The Compare panel's work off the GUI thread: encoding the text with every listed encoder (with a
quick preview of a long text's start), and the demo BPE model trained on first use.

Task functions take a ``state`` (:class:`tokviz.ui.common.work.TaskState`) and return what the
panel shows; they never touch widgets.
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication

from tokviz.core.compare import EncoderOutcome, ParagraphCache, describe_failure, encode_outcome, safe_cut
from tokviz.ui.common.encoder_names import DEMO_BPE_NAME, TRAINED_PLACEHOLDER
from tokviz.ui.common.work import is_interrupt
from tokviz.ui.compare.alignment import RowData, prepare_rows
from tokviz.ui.compare.charts import encoder_color

DEMO_BPE_MERGES = 500
PREVIEW_CHARS = 2000  # a longer text shows its first part first (more than any window shows at once)


def _tr(text: str) -> str:
    return QCoreApplication.translate("ComparePanel", text)


class OutcomeCache:
    """What each encoder made of its last text, so that reordering, adding or removing rows encodes
    nothing again.

    Keyed by the encoder object itself, never by ``id()`` alone: the Train panel offers a new model
    at every step, a freed model's id is soon reused by the next one, and an id-keyed cache then
    served the tokens of an older step. Entries hold the encoder weakly and go with it. Safe to
    share between worker threads.

    >>> class Enc: pass
    >>> cache, enc = OutcomeCache(), Enc()
    >>> cache.put("toy", enc, "text", "outcome"); cache.get("toy", enc, "text")
    'outcome'
    >>> cache.get("toy", Enc(), "text") is None   # another encoder, whatever its id
    True
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # id(encoder) -> (weak reference to it, {row name: (text, outcome)})
        self._entries: dict[int, tuple[weakref.ref, dict[str, tuple[str, EncoderOutcome]]]] = {}

    def get(self, name: str, encoder, text: str):
        with self._lock:
            entry = self._entries.get(id(encoder))
            if entry is None or entry[0]() is not encoder:
                return None
            hit = entry[1].get(name)
        return hit[1] if hit is not None and hit[0] == text else None

    def put(self, name: str, encoder, text: str, outcome) -> None:
        key = id(encoder)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0]() is not encoder:
                try:
                    ref = weakref.ref(encoder, lambda dead, key=key: self._forget(key, dead))
                except TypeError:  # an encoder that cannot be referenced weakly is not cached
                    return
                entry = self._entries[key] = (ref, {})
            entry[1][name] = (text, outcome)

    def _forget(self, key: int, dead: weakref.ref) -> None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] is dead:
                del self._entries[key]

    def names_with(self, text: str) -> set[str]:
        """Rows whose cached outcome is for ``text``."""
        with self._lock:
            return {name for ref, rows in self._entries.values() if ref() is not None
                    for name, (t, _) in rows.items() if t == text}

    def __len__(self) -> int:
        with self._lock:
            return sum(1 for ref, _ in self._entries.values() if ref() is not None)


class WithSpecialTokens:
    """``encoder`` with its special-token strings read as single special tokens (a chat prompt's
    ``<|im_start|>`` is one token of Qwen, several plain tokens of GPT-2).

    >>> class E:
    ...     name = "e"
    ...     def encode(self, text, *, allow_special=False): return allow_special
    >>> WithSpecialTokens(E()).encode("x"), WithSpecialTokens(E()).name
    (True, 'e')
    """

    def __init__(self, encoder) -> None:
        self._encoder = encoder

    def encode(self, text: str, *, allow_special: bool = True):
        return self._encoder.encode(text, allow_special=True)

    def __getattr__(self, name: str):
        return getattr(self._encoder, name)


def changed_chars(before: str | None, after: str) -> int:
    """Characters of ``after`` outside the prefix and suffix it shares with ``before`` (all of them
    when there is no ``before``): how much of the text an edit brought in.

    >>> changed_chars("abcdef", "abXXdef"), changed_chars("abc", "abc"), changed_chars(None, "abc")
    (2, 0, 3)
    """
    if before is None:
        return len(after)
    limit = min(len(before), len(after))
    lo, hi = 0, limit  # longest common prefix, by halving (each test is one C-level compare)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if before[:mid] == after[:mid]:
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    lo, hi = 0, limit - prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if before[len(before) - mid:] == after[len(after) - mid:]:
            lo = mid
        else:
            hi = mid - 1
    return len(after) - prefix - lo


def preview_cut(text: str, at: int = PREVIEW_CHARS) -> int | None:
    r"""Where to cut a long text for a quick first view: after a newline that a non-space character
    follows, where no encoder's token can cross (regex pre-splitters end a piece there, SentencePiece
    splits on whitespace). None when the text is short or has no such place soon after ``at``.

    >>> preview_cut("a" * 10)
    >>> preview_cut("x" * 2500 + "\nnext line" + "y" * 3000)
    2501
    """
    if len(text) <= 2 * at:
        return None
    i = at
    while True:
        i = text.find("\n", i, 2 * at)
        if i < 0:
            return None
        if safe_cut(text, i + 1):
            return i + 1
        i += 1


def rows_for(result) -> list[RowData]:
    """One RowData per (name, outcome or None, note) entry, coloured by position."""
    rows = []
    for i, (name, outcome, note) in enumerate(result):
        color = encoder_color(i)
        if outcome is None:
            rows.append(RowData(name, None, note, False, color))
        elif outcome.ok:
            rows.append(RowData(name, outcome.encoding, None, False, color))
        else:
            rows.append(RowData(name, None, outcome.error, True, color))
    return rows


@dataclass
class RowsJob:
    """One pass over the listed encoders for one text (what :func:`encode_rows` needs to know)."""

    registry: object
    names: list[str]
    text: str
    cache: OutcomeCache
    paragraphs: ParagraphCache
    dark: bool = False
    mostly_new: bool = False  # a long, mostly new text: show its start first
    cut: int | None = None  # where that start ends (preview_cut)
    waiting: set[str] = field(default_factory=set)  # encoders still being made (the demo BPE)
    bpe_failed: str | None = None  # why the demo BPE could not be trained
    allow_special: bool = False  # each encoder reads its own special-token strings as single tokens


@dataclass
class RowsResult:
    rows: list  # (name, EncoderOutcome or None, note) per listed encoder
    prepared: object  # compare.rows.PreparedRows: colours, clusters and boundaries, made in the worker
    worker_seconds: float = 0.0
    encode_seconds: float = 0.0


def encode_row(job: RowsJob, name: str, piece: str, use_cache: bool):
    """(name, outcome or None, note) of encoder ``name`` on ``piece``."""
    registry = job.registry
    if name == TRAINED_PLACEHOLDER and name not in registry:
        return (name, None, _tr("no model: the Train panel was reset; train some merges and it shows here"))
    if name in job.waiting and name not in registry:
        return (name, None, _tr("training on the demo corpus…"))
    if name == DEMO_BPE_NAME and job.bpe_failed and name not in registry:
        return (name, EncoderOutcome(name, error=_tr("could not train: {err}").format(err=job.bpe_failed)), None)
    try:
        encoder = registry.get(name)
    except Exception as err:  # noqa: BLE001 - shown in the row
        return (name, EncoderOutcome(name, error=describe_failure(err)), None)
    if job.allow_special:
        # a fresh wrapper each pass: the caches (keyed by the encoder object) never mix the two readings
        encoder = WithSpecialTokens(encoder)
    hit = job.cache.get(name, encoder, piece) if use_cache else None
    if hit is not None:
        return (name, hit, None)  # same encoder, same text: reordering or adding rows
    try:
        outcome = encode_outcome(encoder, piece, job.paragraphs)
    except BaseException as err:  # noqa: BLE001 - a Rust panic in one model loses its row, not every row
        if is_interrupt(err):
            raise
        return (name, EncoderOutcome(name, error=describe_failure(err)), None)
    if use_cache:
        job.cache.put(name, encoder, piece, outcome)
    return (name, outcome, None)


def encode_rows(job: RowsJob, state) -> RowsResult | None:
    """Every listed encoder on the text (None when cancelled). A long, mostly new text first sends its
    start, cut where no token can cross, as a partial result (``state.progress(1, 2, RowsResult)``)."""
    started = time.perf_counter()
    text = job.text
    if job.mostly_new and not set(job.names) <= job.cache.names_with(text):
        head = text[:job.cut]
        out = [encode_row(job, n, head, False) for n in job.names]
        if state.is_cancelled():
            return None
        state.progress(1, 2, RowsResult(out, prepare_rows(head, rows_for(out), dark=job.dark)))
    full_started = time.perf_counter()
    out = []
    for name in job.names:
        if state.is_cancelled():
            return None
        out.append(encode_row(job, name, text, True))
    encode_seconds = time.perf_counter() - full_started
    # token colours, grapheme clusters and boundaries are computed here too, off the GUI thread
    prepared = prepare_rows(text, rows_for(out), dark=job.dark)
    return RowsResult(out, prepared, time.perf_counter() - started, encode_seconds)


def train_demo_bpe(state):
    """The demo BPE encoder: tokviz's trainer on the demo corpus (a second or two)."""
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.encoders.sentencepiece_train import demo_corpus_path
    from tokviz.core.training.factory import make_trainer

    text = demo_corpus_path().read_text(encoding="utf-8")
    trainer = make_trainer("bpe", TrainerConfig(mode="byte", merges=DEMO_BPE_MERGES, pattern="gpt4"))
    for _ in trainer.run(text.splitlines(keepends=True), cancel=state.is_cancelled):
        pass
    model = trainer.model()
    model.name = DEMO_BPE_NAME
    model.source = f"trained in tokviz on the demo corpus ({DEMO_BPE_MERGES} byte-level merges, gpt4 pattern)"
    return model
