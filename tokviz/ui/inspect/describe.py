"""What the Inspector says about an Encoding in words: the selection's details, the hover text and the
tokens a screenshot selects. Plain functions (Qt only for translation).

Pieces, markers and hex come from :mod:`tokviz.core.display` (the contract every view and the CLI
share: a piece ``" hi\\r"`` reads ``·hi⟨CR⟩`` here as in the token view, never ``' hi\\r'``); so does
the JSON of Copy as JSON (:func:`encoding_json`, re-exported for the panel)."""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import QCoreApplication

from tokviz.core.display import encoding_json, hex_bytes, piece_marker, shown_piece, visible_piece
from tokviz.core.encoding import Encoding
from tokviz.core.jamo_input import cut_jamo, reads_jamo, syllable_slots

__all__ = ["encoding_json", "selection_details", "screenshot_selection", "token_char_parts", "partial_piece",
           "describe_token", "shown_char"]


def shown_char(ch: str) -> str:
    """``ch`` as the views draw it on its own: its marker (core.display) when it is invisible.

    >>> shown_char("\\r"), shown_char("\\u00a0"), shown_char("안")
    ('⟨CR⟩', '⍽', '안')
    """
    return piece_marker(ch) or ch


def selection_details(encoding: Encoding, selection: tuple[int, int] | None, limit: int = 8) -> str:
    """What the details box beside the layers says about the selected tokens (plain text)."""
    if selection is None:
        return QCoreApplication.translate(
            "InspectPanel",
            "Click a token to see its id, bytes, piece and spans here. Shift-click selects a range; ← → move.")
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
        shown = shown_piece(piece) if piece is not None else partial_piece(encoding, a + k)
        lines.append(f"{t.id:>6}  {hex_bytes(t.bytes):<11} {shown}")
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
    for t in encoding.tokens:
        if t.partial:
            owners = encoding.tokens_at_char(t.start)
            return owners[0], owners[-1]
    # nothing cut: the first tokens that fit the layers comfortably (about 20 bytes)
    last = 0
    while last + 1 < len(encoding.tokens) and encoding.tokens[last + 1].byte_end <= 20:
        last += 1
    return 0, last


def token_char_parts(encoding: Encoding, index: int) -> list[tuple[int, bool]]:
    """(character index, wholly inside the token?) for every character token ``index`` touches.

    >>> from tokviz.core.encoding import Encoding, char_byte_starts
    >>> enc = Encoding.from_byte_tokens("d", "a안", [(1, b"a\\xec"), (2, b"\\x95\\x88")])
    >>> token_char_parts(enc, 0), token_char_parts(enc, 1)
    ([(0, True), (1, False)], [(1, False)])
    """
    t = encoding.tokens[index]
    text = encoding.text
    pos = len(text[:t.start].encode("utf-8", "surrogatepass"))  # C speed, even deep in a big text
    out = []
    for c in range(t.start, t.end):
        n = len(text[c].encode("utf-8", "surrogatepass"))
        out.append((c, t.byte_start <= pos and pos + n <= t.byte_end))
        pos += n
    return out


def partial_piece(encoding: Encoding, index: int) -> str:
    """A token that cuts a character, in words: ``· + part of 👋`` (whole characters drawn as
    core.display draws pieces); a syllable cut between its jamo by a model that reads jamo names the
    jamo: ``ᄀ of 갔``."""
    parts: list[str] = []
    run = ""
    jamo = reads_jamo(encoding)
    t = encoding.tokens[index]
    for c, whole in token_char_parts(encoding, index):
        if whole:
            run += encoding.text[c]
            continue
        if run:
            parts.append(visible_piece(run))
            run = ""
        ch = encoding.text[c]
        if jamo and syllable_slots(ch):
            at = len(encoding.text[:c].encode("utf-8", "surrogatepass"))
            held = cut_jamo(ch, t.byte_start - at, t.byte_end - at)
            parts.append(QCoreApplication.translate("TokenView", "{jamo} of {char}").format(jamo=held, char=ch))
            continue
        parts.append(QCoreApplication.translate("TokenView", "part of {char}").format(char=shown_char(ch)))
    if run:
        parts.append(visible_piece(run))
    return " + ".join(parts)


def describe_token(encoding: Encoding, index: int) -> str:
    """The hover text of token ``index``: id, bytes in hex, piece, byte and character span."""
    t = encoding.tokens[index]
    lines = [QCoreApplication.translate("TokenView", "token {n} of {total} · id {id}").format(
                 n=index + 1, total=len(encoding.tokens), id=t.id)
             + (f" · {t.kind}" if t.kind != "normal" else "")]
    shown_hex = hex_bytes(t.bytes) or QCoreApplication.translate("TokenView", "(none)")
    lines.append((QCoreApplication.translate("TokenView", "bytes: {hex}  ({n} byte)") if len(t.bytes) == 1 else
                  QCoreApplication.translate("TokenView", "bytes: {hex}  ({n} bytes)")).format(
                      hex=shown_hex, n=len(t.bytes)))
    piece = t.piece
    if piece is not None:
        lines.append(QCoreApplication.translate("TokenView", "piece: {piece}").format(piece=shown_piece(piece)))
    else:
        cut = [c for c, whole in token_char_parts(encoding, index) if not whole]
        chars = ", ".join(f"{shown_char(encoding.text[c])} U+{ord(encoding.text[c]):04X}" for c in cut)
        lines.append(QCoreApplication.translate("TokenView", "piece: {piece}").format(
            piece=partial_piece(encoding, index)))
        lines.append(QCoreApplication.translate("TokenView", "cuts {chars}").format(chars=chars))
    if t.raw is not None:
        lines.append(QCoreApplication.translate("TokenView", "raw piece: {raw}").format(raw=shown_piece(t.raw)))
    lines.append(QCoreApplication.translate(
        "TokenView", "byte span: [{byte_start}, {byte_end})  char span: [{start}, {end})").format(
        byte_start=t.byte_start, byte_end=t.byte_end, start=t.start, end=t.end))
    return "\n".join(lines)
