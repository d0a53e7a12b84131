"""What each hazard's job computes on a worker thread: core's answer (tokviz.core.boundaries) plus what the
views draw from it (the Encodings of aligned rows, the pieces of listed ids), so the GUI thread only shows.

:func:`compute` is a plain function of a :class:`~tokviz.ui.boundaries.model.Request`, an encoder and a
task state; tests call it with no event loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from tokviz.core.boundaries.canonical import CanonicalCheck, check_canonical
from tokviz.core.boundaries.chat_turns import Injection, TurnBoundary, injection, prefix_stability
from tokviz.core.boundaries.cut import BudgetCut, budget_cut
from tokviz.core.boundaries.healing import Healing, heal
from tokviz.core.boundaries.streaming import StreamStep, stream_ids
from tokviz.core.display import hex_bytes, visible_piece
from tokviz.core.encoding import Encoding
from tokviz.core.errors import TokvizError
from tokviz.ui.boundaries.model import STREAM_LIMIT, Request

HEAL_SAMPLE = 40  # candidates listed beside their count
# Rows aligned on characters are laid out on the GUI thread: a pasted book is answered in words, not rows
ROW_CHARS = 20_000
# what a job says when the inputs give it nothing to do (the views show these in the interface's language)
NOTHING_TO_CHECK = "Nothing to check: type a text or paste token ids."
ONE_MESSAGE = "A turn needs two messages: add one more."
NOTHING_TO_SPLIT = "No token here can be written as two vocabulary tokens: type a longer text."


def shown_bytes(data: bytes) -> str:
    """Bytes as a view writes a token: its text with invisible characters marked, and bytes that are only
    part of a character as hex in ⟨⟩.

    >>> shown_bytes(" 안".encode()[:3]), shown_bytes("👋".encode())
    ('·⟨EC 95⟩', '👋')
    """
    out: list[str] = []
    i = 0
    while i < len(data):
        try:
            out.append(visible_piece(data[i:].decode("utf-8")))
            break
        except UnicodeDecodeError as err:
            if err.start:
                out.append(visible_piece(data[i : i + err.start].decode("utf-8")))
            out.append(f"⟨{hex_bytes(data[i + err.start : i + err.end])}⟩")
            i += err.end
    return "".join(out)


def _pieces(encoder, ids) -> dict[int, str]:
    return {i: shown_bytes(encoder.token_bytes(i)) for i in set(ids)}


def _row(encoder, ids, text: str) -> Encoding | None:
    """ids as an Encoding of ``text`` (rows aligned on its characters), or None when their bytes are not
    exactly its UTF-8 (ids breaking off inside a character; SentencePiece's dummy-prefix space) or the
    text is too long to align (:data:`ROW_CHARS`)."""
    if len(text) > ROW_CHARS:
        return None
    try:
        return Encoding.from_byte_tokens(encoder.name, text, [(i, encoder.token_bytes(i)) for i in ids])
    except TokvizError:
        return None


@dataclass(frozen=True)
class CanonicalResult:
    check: CanonicalCheck
    given: Encoding | None  # the rows (None: the ids' bytes do not spell the text exactly)
    canonical: Encoding | None
    pieces: dict[int, str]  # id -> shown piece, for the divergence and the listed segmentations


@dataclass(frozen=True)
class StreamResult:
    steps: tuple[StreamStep, ...]
    total: int  # tokens in the whole sequence (steps holds at most STREAM_LIMIT)


@dataclass(frozen=True)
class HealResult:
    healing: Healing
    healed_text: str
    removed: tuple[tuple[int, str], ...]  # removed ids and their pieces
    sample: tuple[tuple[int, str], ...]  # candidates in id order, with their pieces


@dataclass(frozen=True)
class TurnsResult:
    turns: tuple[TurnBoundary, ...]
    pieces: dict[int, str]


@dataclass(frozen=True)
class InjectionResult:
    injection: Injection
    injected_text: tuple[str, ...]  # the injected control tokens as text, in order


@dataclass(frozen=True)
class CutResult:
    cut: BudgetCut
    encoding: Encoding  # every token of the text
    kept: Encoding | None  # the first N tokens over the same text (None: too long to align, see ROW_CHARS)


def compute(req: Request, encoder, state=None):
    """The result of ``req`` with ``encoder`` (any thread). Raises TokvizError with a message the view
    shows (an id the encoder lacks, a template that does not fit)."""
    return _JOBS[req.hazard](req, encoder, state)


def _canonical(req: Request, encoder, state) -> CanonicalResult:
    ids = req.ids if req.ids is not None else tuple(encoder.encode(req.text).ids)
    if not ids:
        raise TokvizError(NOTHING_TO_CHECK)
    check = check_canonical(encoder, ids, state=state)
    data = b"".join(encoder.token_bytes(i) for i in check.ids)
    given = canonical = None
    if check.valid_utf8:
        text = data.decode("utf-8")
        given = _row(encoder, check.ids, text)
        canonical = _row(encoder, check.canonical_ids, text) if given is not None else None
    shown = list(check.ids) + list(check.canonical_ids)
    if check.divergence is not None:
        shown += [i for seq in check.divergence.examples for i in seq]
    return CanonicalResult(check, given, canonical, _pieces(encoder, shown))


def _stream(req: Request, encoder, state) -> StreamResult:
    ids = req.ids if req.ids is not None else tuple(encoder.encode(req.text).ids)
    replay = stream_ids(encoder, ids[:STREAM_LIMIT])  # only the steps shown are checked and replayed
    steps = []
    for step in replay.iter_steps():
        if len(steps) >= STREAM_LIMIT or (state is not None and state.is_cancelled()):
            break
        steps.append(step)
    return StreamResult(tuple(steps), len(ids))


def _heal(req: Request, encoder, state) -> HealResult:
    healing = heal(encoder, req.text, req.back, state=state)
    healed = req.text.encode("utf-8")[: healing.kept_byte_end].decode("utf-8", "replace")
    removed = tuple((i, shown_bytes(encoder.token_bytes(i))) for i in healing.removed_ids)
    sample = tuple((i, shown_bytes(encoder.token_bytes(i))) for i in healing.sample(HEAL_SAMPLE))
    return HealResult(healing, healed, removed, sample)


def _messages_and_template(req: Request, encoder):
    chat = req.chat
    template, _kind = chat.resolve(encoder)  # the composer's choice, or the model's own
    return list(chat.messages), template, chat.add_generation_prompt


def _cancelled(state):
    return None if state is None else state.is_cancelled


def _turns(req: Request, encoder, state) -> TurnsResult:
    messages, template, gen = _messages_and_template(req, encoder)
    if len(messages) < 2:
        raise TokvizError(ONE_MESSAGE)
    turns = tuple(prefix_stability(encoder, messages, template, add_generation_prompt=gen, cancelled=_cancelled(state)))
    return TurnsResult(turns, _pieces(encoder, [i for t in turns for i in (*t.before, *t.after)]))


def _injection(req: Request, encoder, state) -> InjectionResult:
    messages, template, gen = _messages_and_template(req, encoder)
    found = injection(encoder, messages, template, add_generation_prompt=gen, cancelled=_cancelled(state))
    tokens = found.unsafe.encoding.tokens
    return InjectionResult(found, tuple(tokens[k].bytes.decode("utf-8", "replace") for k, _m in found.injected))


def _cut(req: Request, encoder, state) -> CutResult:
    cut = budget_cut(encoder, req.text, req.budget)
    encoding = encoder.encode(req.text)
    if len(encoding.text) > ROW_CHARS:
        return CutResult(cut, encoding, None)
    kept = Encoding.from_spans(
        encoding.encoder,
        encoding.text,
        [(t.id, t.bytes, t.byte_start, t.byte_end, t.kind, t.raw) for t in encoding.tokens[: len(cut.kept_ids)]],
        normalized_text=encoding.normalized_text,
    )
    return CutResult(cut, encoding, kept)


_JOBS = {
    "canonical": _canonical,
    "stream": _stream,
    "heal": _heal,
    "turns": _turns,
    "injection": _injection,
    "cut": _cut,
}


def split_a_token(encoder, ids, text: str, state=None) -> tuple[int, ...]:
    """``ids`` (the text's own when None) with its longest splittable token written as two vocabulary
    tokens: the same bytes, ids the encoder does not give. A split between whole characters is taken
    before one inside a character.

    >>> from tokviz.core.encoders.builtin import default_registry
    >>> enc = default_registry().get("cl100k_base")
    >>> split = split_a_token(enc, None, " hello")
    >>> enc.decode(list(split)), len(split)
    (' hello', 2)
    """
    from tokviz.core.boundaries.vocabulary import token_table

    ids = tuple(ids) if ids is not None else tuple(encoder.encode(text).ids)
    table = token_table(encoder, state)
    order = sorted(range(len(ids)), key=lambda k: -len(table.bytes_of.get(ids[k], b"")))
    for k in order:
        data = table.bytes_of.get(ids[k], b"")
        cuts = sorted(range(1, len(data)), key=lambda c: (data[c] & 0xC0 == 0x80, abs(2 * c - len(data))))
        for c in cuts:
            left, right = table.ids_of(data[:c]), table.ids_of(data[c:])
            if left and right:
                return ids[:k] + (left[0], right[0]) + ids[k + 1 :]
    raise TokvizError(NOTHING_TO_SPLIT)
