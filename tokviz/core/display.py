"""How characters, pieces and tokens are shown and exported: one contract for every view and the CLI.

- :func:`invisible_marker`: the visible stand-in for a character that draws nothing (space ``·``,
  tab ``→``, newline ``↵``, CR ``⟨CR⟩``, NBSP ``⍽``, ZWJ ``⟨ZWJ⟩``, BOM ``⟨BOM⟩``, U+2028 ``⟨LS⟩``,
  U+2029 ``¶``, NUL ``⟨NUL⟩`` ...);
- :func:`piece_marker`: the same for characters inside a token, which also marks code points that
  would draw as an anonymous box (private use, unassigned);
- :func:`piece_segments` / :func:`visible_piece`: a piece as text and marker runs (joiners inside an
  emoji stay part of the picture);
- :func:`token_segments` / :func:`token_label`: a token, with the bytes of characters it cuts in hex;
- :func:`token_json` / :func:`encoding_json`: the token JSON schema (``tokviz encode --json``, the
  Inspector's Copy as JSON).

>>> visible_piece(" a\\tb\\r\\n")
'·a→b⟨CR⟩↵'
>>> token_label(Token(1, b"\\x88 a", 2, 5, 0, 3, True))
'‹88›·a'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import regex

from tokviz.core.encoding import Encoding, Token, register_html_view
from tokviz.core.jamo import recompose
from tokviz.core.metrics import Metrics, measure

# Controls have no Unicode character name, only aliases (NameAliases.txt): the short abbreviation
# (the marker shows it) and the alias (core.unicode's code point names use it).
CONTROL_NAMES: dict[int, tuple[str, str]] = {
    0x00: ("NUL", "NULL"),
    0x01: ("SOH", "START OF HEADING"),
    0x02: ("STX", "START OF TEXT"),
    0x03: ("ETX", "END OF TEXT"),
    0x04: ("EOT", "END OF TRANSMISSION"),
    0x05: ("ENQ", "ENQUIRY"),
    0x06: ("ACK", "ACKNOWLEDGE"),
    0x07: ("BEL", "ALERT"),
    0x08: ("BS", "BACKSPACE"),
    0x09: ("HT", "CHARACTER TABULATION"),
    0x0A: ("LF", "LINE FEED"),
    0x0B: ("VT", "LINE TABULATION"),
    0x0C: ("FF", "FORM FEED"),
    0x0D: ("CR", "CARRIAGE RETURN"),
    0x0E: ("SO", "SHIFT OUT"),
    0x0F: ("SI", "SHIFT IN"),
    0x10: ("DLE", "DATA LINK ESCAPE"),
    0x11: ("DC1", "DEVICE CONTROL ONE"),
    0x12: ("DC2", "DEVICE CONTROL TWO"),
    0x13: ("DC3", "DEVICE CONTROL THREE"),
    0x14: ("DC4", "DEVICE CONTROL FOUR"),
    0x15: ("NAK", "NEGATIVE ACKNOWLEDGE"),
    0x16: ("SYN", "SYNCHRONOUS IDLE"),
    0x17: ("ETB", "END OF TRANSMISSION BLOCK"),
    0x18: ("CAN", "CANCEL"),
    0x19: ("EM", "END OF MEDIUM"),
    0x1A: ("SUB", "SUBSTITUTE"),
    0x1B: ("ESC", "ESCAPE"),
    0x1C: ("FS", "FILE SEPARATOR"),
    0x1D: ("GS", "GROUP SEPARATOR"),
    0x1E: ("RS", "RECORD SEPARATOR"),
    0x1F: ("US", "UNIT SEPARATOR"),
    0x7F: ("DEL", "DELETE"),
    0x85: ("NEL", "NEXT LINE"),
}

# Markers are chosen from glyphs the fonts tokviz relies on (DejaVu, Noto CJK) actually have:
# the Control Pictures block (U+2400, "␍") is in neither, so controls show their standard
# abbreviation in angle brackets instead ("⟨CR⟩", "⟨NUL⟩"), which reads the same on screen.
MARKERS: dict[str, str] = {
    " ": "·",
    "\t": "→",
    "\n": "↵",
    "\r": "⟨CR⟩",
    "\u00a0": "⍽",  # NO-BREAK SPACE
    "\u00ad": "⟨SHY⟩",  # SOFT HYPHEN
    "\u200b": "⟨ZWSP⟩",
    "\u200c": "⟨ZWNJ⟩",
    "\u200d": "⟨ZWJ⟩",
    "\u200e": "⟨LRM⟩",
    "\u200f": "⟨RLM⟩",
    "\u2028": "⟨LS⟩",  # LINE SEPARATOR
    "\u2029": "¶",  # PARAGRAPH SEPARATOR
    "\u2060": "⟨WJ⟩",  # WORD JOINER
    "\ufeff": "⟨BOM⟩",  # ZERO WIDTH NO-BREAK SPACE, the byte order mark
    "\u034f": "⟨CGJ⟩",  # COMBINING GRAPHEME JOINER
    "\u180e": "⟨MVS⟩",
    # Hangul fillers are letters (Lo) that draw nothing; they hide in Korean usernames and pastes.
    "\u115f": "⟨HCF⟩",
    "\u1160": "⟨HJF⟩",
    "\u3164": "⟨HF⟩",
    "\uffa0": "⟨HWHF⟩",
}


def invisible_marker(ch: str) -> str | None:
    """A visible stand-in for a character that draws nothing (or only moves the cursor).

    ``·`` space, ``→`` tab, ``↵`` newline, ``⍽`` no-break space, ``␣`` other spaces (ideographic,
    en, em...), ``⟨ZWJ⟩``-style abbreviations for zero-width and format characters, controls and
    variation selectors; None for characters that are visible on their own.

    Note: a VS16 or ZWJ inside an emoji is part of the picture; callers that draw whole grapheme
    clusters should mark only clusters that are invisible as a whole (:func:`piece_segments` does).

    >>> [invisible_marker(c) for c in " \\t\\n\\r\\u200d\\x00\\u3000가"]
    ['·', '→', '↵', '⟨CR⟩', '⟨ZWJ⟩', '⟨NUL⟩', '␣', None]
    """
    marker = MARKERS.get(ch)
    if marker is not None:
        return marker
    o = ord(ch)
    if 0xFE00 <= o <= 0xFE0F:
        return f"⟨VS{o - 0xFE00 + 1}⟩"
    if 0xE0100 <= o <= 0xE01EF:
        return f"⟨VS{o - 0xE0100 + 17}⟩"
    category = unicodedata.category(ch)
    if category == "Cc":
        if o in CONTROL_NAMES:
            return f"⟨{CONTROL_NAMES[o][0]}⟩"
        return f"⟨{o:02X}⟩"
    if category == "Zs":
        return "␣"
    if category in ("Cf", "Zl", "Zp"):
        return f"⟨U+{o:04X}⟩"
    return None


def piece_marker(ch: str) -> str | None:
    """:func:`invisible_marker`, and for a character inside a token also private-use, surrogate and
    unassigned code points, which a font draws as a box that says nothing about which one it is.

    >>> piece_marker(" "), piece_marker("a"), piece_marker("\\ue000")
    ('·', None, '⟨E000⟩')
    """
    marker = invisible_marker(ch)
    if marker is not None:
        return marker
    if unicodedata.category(ch) in ("Co", "Cs", "Cn"):
        return f"⟨{ord(ch):04X}⟩"
    return None


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of a drawn piece: ``text`` (whole characters), ``mark`` (the marker of an invisible
    character) or ``hex`` (the bytes of a character cut by a token boundary, ``EC 95``). ``char`` is
    the offset of the (first) character the run belongs to, from the piece's first character."""

    kind: str
    text: str
    char: int


# Characters that only make sense joined to their neighbour (emoji ZWJ sequences, presentation
# selectors, skin tones): after visible text of the same piece they stay text so the emoji renders
# as one picture; alone they get a marker.
JOINERS = frozenset({"\u200d", "\ufe0f", "\ufe0e"} | {chr(c) for c in range(0x1F3FB, 0x1F400)})

# Characters that may need a marker (a superset: piece_marker decides). One regex scan keeps the
# per-character work in C: a 100k-token text is split into runs in about a second.
_MAYBE_INVISIBLE = regex.compile(
    r"[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Co}\p{Cs}\p{Cn}\u115f\u1160\u3164\uffa0\ufe00-\ufe0f"
    r"\U000e0100-\U000e01ef]"
)


def piece_segments(run: str) -> tuple[tuple[Segment, ...], bool]:
    """Segments of a run of whole characters (offsets relative to the run) and whether it ends a line.

    Markers for spaces, newlines, ZWJ and the like, except joiners right after visible text of the
    same run, which stay text so that an emoji ZWJ sequence renders as one picture.

    >>> "".join(s.text for s in piece_segments(" a\\n")[0]), piece_segments(" a\\n")[1]
    ('·a↵', True)
    >>> [s.kind for s in piece_segments("👨\\u200d👩")[0]], [s.text for s in piece_segments("\\u200d")[0]]
    (['text'], ['⟨ZWJ⟩'])
    """
    segs: list[Segment] = []
    pos = 0
    line_break = False
    for m in _MAYBE_INVISIBLE.finditer(run):
        i = m.start()
        ch = run[i]
        joined = ch in JOINERS and i > pos  # right after visible text of this run
        marker = None if joined else piece_marker(ch)
        if marker is None:
            continue  # stays part of the surrounding text run
        if i > pos:
            segs.append(Segment("text", run[pos:i], pos))
        segs.append(Segment("mark", marker, i))
        if ch == "\n":
            line_break = True
        pos = i + 1
    if pos < len(run):
        segs.append(Segment("text", run[pos:], pos))
    return tuple(segs), line_break


def visible_piece(piece: str) -> str:
    """``piece`` with its invisible characters replaced by their markers; a piece that starts with
    a combining mark gets a dotted circle to sit on (else it fuses with whatever is drawn before it).

    >>> visible_piece(" the"), visible_piece(".\\n"), visible_piece("\\u0301")
    ('·the', '.↵', '◌́')
    """
    text = "".join(s.text for s in piece_segments(piece)[0])
    if text and unicodedata.category(text[0]) in ("Mn", "Mc", "Me"):
        text = "\u25cc" + text
    return text


def shown_piece(piece: str) -> str:
    """A learned piece as every view shows it: :func:`visible_piece` of the piece with its conjoining
    jamo recomposed where they form whole syllables (a model trained on jamo learns ``ᄀ ᅡ ᆻ``; it
    reads 갔), the rest kept as jamo. Pieces without conjoining jamo are just :func:`visible_piece`.

    >>> shown_piece("\u1100\u1161\u11bb\u1103\u1161</w>"), shown_piece("\u11bb\u1103\u1161"), shown_piece(" a")
    ('갔다</w>', 'ᆻ다', '·a')
    """
    return visible_piece(recompose(piece))


def hex_bytes(data: bytes) -> str:
    """Bytes as every view writes them.

    >>> hex_bytes("안".encode())
    'EC 95 88'
    """
    return data.hex(" ").upper()


def _utf8_length(lead: int) -> int:
    return 1 if lead < 0x80 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def token_segments(token: Token) -> tuple[Segment, ...]:
    """A token's bytes as segments: ``hex`` for the bytes of a character it cuts (at either end, or
    bytes that are not UTF-8), text and markers for the whole characters between.

    >>> [(s.kind, s.text) for s in token_segments(Token(2, b"\\x88 a\\xec", 2, 6, 0, 4, True))]
    [('hex', '88'), ('mark', '·'), ('text', 'a'), ('hex', 'EC')]
    """
    piece = token.piece
    if piece is not None:
        return piece_segments(piece)[0]
    data = token.bytes
    # continuation bytes before the first character start belong to a character cut at the start
    i = 0
    while i < len(data) and 0x80 <= data[i] < 0xC0:
        i += 1
    # a last character whose bytes run past the end of the token is cut at the end
    j = len(data)
    k = j - 1
    while k >= i and 0x80 <= data[k] < 0xC0:
        k -= 1
    if k >= i and k + _utf8_length(data[k]) > len(data):
        j = k
    try:
        middle = data[i:j].decode("utf-8")
    except UnicodeDecodeError:  # not UTF-8 at all (a byte-fallback run a normalizer changed)
        return (Segment("hex", hex_bytes(data), 0),)
    segs: list[Segment] = []
    if i:
        segs.append(Segment("hex", hex_bytes(data[:i]), 0))
    shift = 1 if i else 0
    segs.extend(Segment(s.kind, s.text, s.char + shift) for s in piece_segments(middle)[0])
    if j < len(data):
        segs.append(Segment("hex", hex_bytes(data[j:]), shift + len(middle)))
    return tuple(segs)


def token_label(token: Token) -> str:
    """A token as one line of plain text: its visible piece, with cut characters' bytes as ``‹EC 95›``.

    >>> token_label(Token(1, b"\\xec\\x95", 0, 2, 0, 1, True)), token_label(Token(2, b" hi\\n", 0, 4, 0, 4, False))
    ('‹EC 95›', '·hi↵')
    """
    if token.piece is not None:
        return visible_piece(token.piece)
    return "".join(f"‹{s.text}›" if s.kind == "hex" else s.text for s in token_segments(token))


# ---- the token JSON schema --------------------------------------------------------------------------
TOKEN_FIELDS = ("id", "bytes", "piece", "byte_start", "byte_end", "start", "end", "partial", "kind")


def token_json(token: Token) -> dict:
    """One token as JSON: ``id``, ``bytes`` (lowercase hex, exact), ``piece`` (its text, or null
    when it holds part of a character), ``byte_start``/``byte_end`` (UTF-8 span in the text),
    ``start``/``end`` (character span), ``partial`` (cuts a character) and ``kind`` (``normal``,
    ``special``, ``byte_fallback``, ``unknown``).

    >>> token_json(Token(7, b"\\xec\\x95", 0, 2, 0, 1, True))["bytes"]
    'ec95'
    """
    return {
        "id": token.id,
        "bytes": token.bytes.hex(),
        "piece": token.piece,
        "byte_start": token.byte_start,
        "byte_end": token.byte_end,
        "start": token.start,
        "end": token.end,
        "partial": token.partial,
        "kind": token.kind,
    }


def encoding_json(encoding: Encoding, metrics: Metrics | None = None) -> dict:
    """An Encoding as JSON: ``{"encoder", "text", "ids", "tokens": [token_json...], "metrics"}``.

    ``metrics``: the encoding's metrics, measured here when None.

    >>> doc = encoding_json(Encoding.from_byte_tokens("d", "hi", [(5, b"hi")]))
    >>> doc["ids"], doc["tokens"][0]["piece"], doc["metrics"]["tokens"]
    ([5], 'hi', 1)
    """
    if metrics is None:
        metrics = measure(encoding)
    return {
        "encoder": encoding.encoder,
        "text": encoding.text,
        "ids": encoding.ids,
        "tokens": [token_json(t) for t in encoding.tokens],
        "metrics": metrics.as_json(),
    }


# ---- HTML (notebooks) ---------------------------------------------------------------------------------
# The token colours of tokviz.ui.token_colors, without Qt (a test keeps the two equal): each id hashes to
# one of 12 colours; light ones carry black text, dark ones white.
LIGHT_PALETTE = ("#f7b6b6", "#1ed9e6", "#e6e61e", "#18dc81", "#a8b2f5", "#eead63",
                 "#d4e0be", "#f49aee", "#e9d5f6", "#85cf17", "#9af4d6", "#f7ddb6")
DARK_PALETTE = ("#8b1d25", "#0c6e0c", "#116b97", "#aa17cf", "#7e5d1b", "#1b5049",
                "#454186", "#9b4b70", "#a44e23", "#4d5328", "#4752eb", "#674432")
HTML_TOKEN_LIMIT = 5000  # tokens drawn in a notebook cell; a 2-million-token paste would stall the browser


def palette_index(token_id: int) -> int:
    """Which palette colour ``token_id`` gets (the same hash as the app's token views).

    >>> palette_index(243) != palette_index(230)
    True
    """
    return (((token_id * 2654435761) & 0xFFFFFFFF) >> 16) % len(LIGHT_PALETTE)


def _html_style() -> str:
    # Light chips with black text by default; dark chips with white text where the page is dark (the
    # browser's preference, JupyterLab's and VS Code's dark themes). Either way a chip sets both its
    # background and its text colour, so it reads on any page.
    light = "".join(f".tokviz-enc .c{k}{{background:{c}}}" for k, c in enumerate(LIGHT_PALETTE))
    dark = [(f".c{k}", f"background:{c}") for k, c in enumerate(DARK_PALETTE)]
    dark += [(".t", "color:#f5f5f5"), (".m", "color:#c8c8c8"), (".x", "color:#f5f5f5"),
             (".t.o", "outline-color:#f5f5f5")]

    def dark_rules(page: str) -> str:
        return "".join(f"{page}.tokviz-enc {sel}{{{decl}}}" for sel, decl in dark)

    return (
        "<style>"
        ".tokviz-enc{line-height:2.1;font-family:'Noto Sans','Noto Sans CJK KR','Noto Color Emoji',sans-serif}"
        ".tokviz-enc .h{opacity:.75;font-size:90%;margin-bottom:2px}"
        ".tokviz-enc .t{color:#111;padding:1px 2px;margin:0 1px;border-radius:3px;white-space:pre}"
        ".tokviz-enc .t.o{outline:1px solid #111;outline-offset:-1px}"
        ".tokviz-enc .t.s{font-weight:bold;outline:2px dashed currentColor;outline-offset:-2px}"
        ".tokviz-enc .m{color:#555}"
        ".tokviz-enc .x{font-family:'DejaVu Sans Mono',monospace;font-size:85%;border:1px solid currentColor;"
        "border-radius:3px;padding:0 2px}"
        # a character cut between tokens, above the tokens that share it
        ".tokviz-enc .g{display:inline-flex;flex-direction:column;align-items:center;vertical-align:bottom;"
        "line-height:1.5}"
        ".tokviz-enc .ch{align-self:stretch;text-align:center;margin:0 4px 2px;line-height:1.3;opacity:.85}"
        ".tokviz-enc .ch::after{content:'';display:block;height:4px;border:1px solid;border-bottom:none}"
        f"{light}@media (prefers-color-scheme:dark){{{dark_rules('')}}}"
        f"{dark_rules('[data-jp-theme-light=false] ')}{dark_rules('.vscode-dark ')}"
        "</style>"
    )


def _token_html(token: Token, outline: bool, text: str) -> str:
    import html

    parts = []
    for seg in token_segments(token):
        cls = {"mark": "m", "hex": "x"}.get(seg.kind)
        escaped = html.escape(seg.text)
        parts.append(f'<span class="{cls}">{escaped}</span>' if cls else escaped)
    title = f"id {token.id} · bytes {hex_bytes(token.bytes)}"
    if token.partial and token.end > token.start:  # which characters it cuts, as the Inspector shows
        cut = text[token.start:token.end]
        title += f" · cuts {visible_piece(cut)} ({hex_bytes(cut.encode('utf-8', 'surrogatepass'))})"
    if token.kind != "normal":
        title += f" · {token.kind.replace('_', ' ')}"
    classes = f"t c{palette_index(token.id)}" + (" o" if outline else "") + (" s" if token.kind == "special" else "")
    return f'<span class="{classes}" title="{html.escape(title)}">{"".join(parts)}</span>'


def encoding_html(encoding: Encoding, limit: int = HTML_TOKEN_LIMIT) -> str:
    """An Encoding as HTML for a notebook: one coloured chip per token (its id's colour, as in the app),
    the id and bytes on hover, invisible characters as markers, the bytes of a cut character in hex,
    line breaks kept; at most ``limit`` tokens. Everything from the text is HTML-escaped.

    >>> "&lt;b&gt;" in encoding_html(Encoding.from_byte_tokens("d", "<b>", [(1, b"<b>")]))
    True
    """
    import html

    n = len(encoding)
    text = encoding.text
    chips: list[str] = []
    group: list[Token] = []  # tokens that share a cut character, drawn under it as the Inspector does
    prev_colour, prev_outline = -1, False

    def flush() -> None:
        if len(group) > 1:
            cut = text[group[1].start:group[-2].end] or text[group[0].start:group[-1].end]
            chips.append(f'<span class="g"><span class="ch">{html.escape(visible_piece(cut))}</span>'
                         f'<span>{"".join(chips_of_group)}</span></span>')
        else:
            chips.extend(chips_of_group)
        group.clear()
        chips_of_group.clear()

    chips_of_group: list[str] = []
    for tok in encoding.tokens[:limit]:
        if group and not (group[-1].partial and tok.partial and tok.start < group[-1].end):
            flush()
        colour = palette_index(tok.id)
        # neighbours of one colour: every other one outlined, as the app's views do
        outline = colour == prev_colour and not prev_outline
        prev_colour, prev_outline = colour, outline
        group.append(tok)
        chips_of_group.append(_token_html(tok, outline, text))
        if tok.piece is not None and tok.piece.endswith("\n"):
            flush()
            chips.append("<br>")
    flush()
    more = f" · showing the first {limit:,}" if n > limit else ""
    head = (f'<div class="h">{html.escape(encoding.encoder)} · {n:,} tokens · {len(encoding.text):,} characters · '
            f"{encoding.byte_length:,} bytes{more}</div>")
    return f'{_html_style()}<div class="tokviz-enc">{head}<div>{"".join(chips)}</div></div>'


# ---- token JSON, streamed -----------------------------------------------------------------------------
_TOKEN_TEMPLATE = ('    {\n      "id": %d,\n      "bytes": "%s",\n      "piece": %s,\n      "byte_start": %d,\n'
                   '      "byte_end": %d,\n      "start": %d,\n      "end": %d,\n      "partial": %s,\n'
                   '      "kind": "%s"\n    }')
_JSON_CHUNK = 8192  # tokens per piece of output: big enough for C-speed joins, small enough to stream



register_html_view(encoding_html)  # Encoding._repr_html_ draws through this module

def _json_string(ensure_ascii: bool):
    # the string encoders json.dump itself uses (C-accelerated): the same escapes, byte for byte
    from json.encoder import encode_basestring, encode_basestring_ascii

    return encode_basestring_ascii if ensure_ascii else encode_basestring


def _piece_json(data: bytes, partial: bool, quote) -> str:
    if partial:
        return "null"
    try:
        return quote(data.decode("utf-8"))
    except UnicodeDecodeError:  # bytes that are not whole characters on their own (as Token.piece)
        return "null"


def _tokens_json(encoding: Encoding, a: int, b: int, quote) -> str:
    """Tokens ``a`` to ``b - 1`` as :func:`encoding_json`'s ``"tokens"`` items at indent 2, comma-joined."""
    rows = []
    for t in encoding.tokens[a:b]:
        rows.append(_TOKEN_TEMPLATE % (t.id, t.bytes.hex(), _piece_json(t.bytes, t.partial, quote), t.byte_start,
                                       t.byte_end, t.start, t.end, "true" if t.partial else "false", t.kind))
    return ",\n".join(rows)


def encoding_json_chunks(encoding: Encoding, metrics: Metrics | None = None, *, ensure_ascii: bool = True):
    """The text of ``json.dumps(encoding_json(encoding, metrics), ensure_ascii=..., indent=2)``, byte for byte,
    in pieces of a few thousand tokens: ``tokviz encode --json`` writes them as they come instead of
    building a dict per token and running json's pure-Python indenting encoder over them (5-10x slower).

    >>> enc = Encoding.from_byte_tokens("d", "안!", [(1, b"\\xec\\x95"), (2, b"\\x88!")])
    >>> import json; "".join(encoding_json_chunks(enc)) == json.dumps(encoding_json(enc), indent=2)
    True
    """
    import json

    if metrics is None:
        metrics = measure(encoding)
    quote = _json_string(ensure_ascii)
    yield f'{{\n  "encoder": {quote(encoding.encoder)},\n  "text": {quote(encoding.text)},\n  "ids": '
    n = len(encoding)
    if n == 0:
        yield '[],\n  "tokens": [],\n'
    else:
        yield "[\n"
        for a in range(0, n, _JSON_CHUNK):
            b = min(a + _JSON_CHUNK, n)
            yield "    " + ",\n    ".join(map(str, encoding.id_array[a:b].tolist())) + (",\n" if b < n else "\n")
        yield '  ],\n  "tokens": [\n'
        for a in range(0, n, _JSON_CHUNK):
            b = min(a + _JSON_CHUNK, n)
            yield _tokens_json(encoding, a, b, quote) + (",\n" if b < n else "\n")
        yield "  ],\n"
    # a nested value at indent 2 is the value dumped alone with every line after the first indented by 2
    yield '  "metrics": ' + json.dumps(metrics.as_json(), ensure_ascii=ensure_ascii, indent=2).replace("\n", "\n  ")
    yield "\n}"


def encoding_ndjson_lines(encoding: Encoding, metrics: Metrics | None = None, *, ensure_ascii: bool = True):
    """``tokviz encode --ndjson``: one JSON object per line, for inputs too large for one document.

    The first line is ``{"encoder", "characters", "bytes"}``, then one :func:`token_json` object per token,
    and the last line ``{"metrics": {...}}``. Each line is what ``json.dumps`` gives for that object.

    >>> print("".join(encoding_ndjson_lines(Encoding.from_byte_tokens("d", "hi", [(5, b"hi")]))).splitlines()[1])
    {"id": 5, "bytes": "6869", "piece": "hi", "byte_start": 0, "byte_end": 2, "start": 0, "end": 2, "partial": false, "kind": "normal"}
    """  # noqa: E501
    import json

    if metrics is None:
        metrics = measure(encoding)
    quote = _json_string(ensure_ascii)
    head = {"encoder": encoding.encoder, "characters": len(encoding.text), "bytes": encoding.byte_length}
    yield json.dumps(head, ensure_ascii=ensure_ascii) + "\n"
    template = ('{"id": %d, "bytes": "%s", "piece": %s, "byte_start": %d, "byte_end": %d, "start": %d, "end": %d, '
                '"partial": %s, "kind": "%s"}\n')
    n = len(encoding)
    for a in range(0, n, _JSON_CHUNK):
        yield "".join(template % (t.id, t.bytes.hex(), _piece_json(t.bytes, t.partial, quote), t.byte_start,
                                  t.byte_end, t.start, t.end, "true" if t.partial else "false", t.kind)
                      for t in encoding.tokens[a:min(a + _JSON_CHUNK, n)])
    yield json.dumps({"metrics": metrics.as_json()}, ensure_ascii=ensure_ascii) + "\n"
