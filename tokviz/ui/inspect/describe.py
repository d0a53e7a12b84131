"""What the Inspector says about an Encoding in words: the selection's details, the JSON copy, and
the tokens a screenshot selects. Plain functions (Qt only for translation)."""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import QCoreApplication

from tokviz.core.encoding import Encoding
from tokviz.core.metrics import Metrics, measure
from tokviz.ui.inspect.token_view import describe_token, partial_piece


def encoding_json(encoding: Encoding, metrics: Metrics | None = None) -> dict:
    """The Encoding as JSON: tokens with ids, bytes in hex, pieces and spans (``Copy as JSON``)."""
    return {
        "encoder": encoding.encoder,
        "text": encoding.text,
        "ids": encoding.ids,
        "tokens": [
            {
                "id": t.id, "bytes": t.bytes.hex(), "piece": t.piece, "byte_start": t.byte_start,
                "byte_end": t.byte_end, "start": t.start, "end": t.end, "partial": t.partial, "kind": t.kind,
            }
            for t in encoding.tokens
        ],
        "metrics": metrics.as_json() if metrics is not None else measure(encoding).as_json(),
    }


def selection_details(encoding: Encoding, selection: tuple[int, int] | None, limit: int = 8) -> str:
    """What the details box beside the layers says about the selected tokens (plain text)."""
    if selection is None:
        return QCoreApplication.translate(
            "InspectPanel", "Click a token to see its id, bytes, piece and spans here. Shift-click selects a range; ← → move.")
    a, b = selection
    if a == b:
        return describe_token(encoding, a)
    toks = encoding.tokens[a:b + 1]
    nbytes = sum(len(t.bytes) for t in toks)
    lines = [QCoreApplication.translate("InspectPanel", "tokens {first}–{last}: {n} tokens, {bytes} bytes").format(
        first=a + 1, last=b + 1, n=len(toks), bytes=nbytes)]
    head_bytes = QCoreApplication.translate("InspectPanel", "bytes")
    # pad by display width: a Hangul header takes two columns per character in a monospace font
    wide = sum(1 for ch in head_bytes if unicodedata.east_asian_width(ch) in "WF")
    lines.append(f"{'id':>6}  {head_bytes:<{11 - wide}} " + QCoreApplication.translate("InspectPanel", "piece"))
    for k, t in enumerate(toks[:limit]):
        piece = t.piece
        shown = repr(piece) if piece is not None else partial_piece(encoding, a + k)
        lines.append(f"{t.id:>6}  {t.bytes.hex(' ').upper():<11} {shown}")
    if len(toks) > limit:
        lines.append(QCoreApplication.translate("InspectPanel", "… {n} more").format(n=len(toks) - limit))
    return "\n".join(lines)


def screenshot_selection(encoding: Encoding, demo: bool) -> tuple[int, int]:
    """Tokens to select for a screenshot: the demo's ``안녕 👋`` (two Hangul syllables and an emoji,
    all cut between tokens by cl100k), else the tokens around the first cut character."""
    if not encoding.tokens:
        return -1, -1
    if demo:
        first = encoding.tokens_at_char(0)
        last = encoding.tokens_at_char(3)
        if first and last:
            return first[0], last[-1]
    for i, t in enumerate(encoding.tokens):
        if t.partial:
            owners = encoding.tokens_at_char(t.start)
            return owners[0], owners[-1]
    # nothing cut: the first tokens that fit the layers comfortably (about 20 bytes)
    last = 0
    while last + 1 < len(encoding.tokens) and encoding.tokens[last + 1].byte_end <= 20:
        last += 1
    return 0, last
