"""The display contract: markers for invisible characters, pieces and cut tokens, the token JSON."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tokviz.core import display, unicode
from tokviz.core.display import (
    TOKEN_FIELDS,
    encoding_json,
    invisible_marker,
    piece_segments,
    token_json,
    token_label,
    token_segments,
    visible_piece,
)
from tokviz.core.encoding import Encoding, Token, char_byte_starts


def test_every_invisible_character_of_the_contract_has_its_marker():
    expected = {
        " ": "·", "\t": "→", "\n": "↵", "\r": "⟨CR⟩", "\u00a0": "⍽", "\u200d": "⟨ZWJ⟩", "\ufeff": "⟨BOM⟩",
        "\u2028": "⟨LS⟩", "\u2029": "¶", "\x00": "⟨NUL⟩", "\x1b": "⟨ESC⟩", "\x7f": "⟨DEL⟩", "\x85": "⟨NEL⟩",
        "\x9f": "⟨9F⟩", "\u3000": "␣", "\u200b": "⟨ZWSP⟩", "\u3164": "⟨HF⟩", "\ufe0f": "⟨VS16⟩",
    }
    assert {ch: invisible_marker(ch) for ch in expected} == expected
    assert visible_piece("".join(expected)) == "".join(expected.values())
    # one owner: the code point layer reads the same table
    assert unicode.invisible_marker is display.invisible_marker
    assert unicode.code_point_name("\x1b") == "ESCAPE"


def test_joiners_inside_an_emoji_stay_part_of_the_picture_but_are_marked_alone():
    family = "👨\u200d👩\u200d👧"
    assert visible_piece(family) == family and visible_piece("👍\U0001F3FD") == "👍\U0001F3FD"
    assert visible_piece("\u200d👧") == "⟨ZWJ⟩👧" and visible_piece("\ufe0f") == "⟨VS16⟩"
    segs, line_break = piece_segments("a b\n")
    assert [(s.kind, s.text, s.char) for s in segs] == [("text", "a", 0), ("mark", "·", 1), ("text", "b", 2),
                                                        ("mark", "↵", 3)] and line_break
    assert visible_piece("\u0301a") == "◌\u0301a"  # a leading combining mark gets a circle to sit on


def test_a_cut_token_shows_the_bytes_of_the_characters_it_cuts():
    tok = Token(1, b"\x95\x88 \xea\xb0", 1, 6, 0, 3, True)  # ..안 | space | 값..
    assert [(s.kind, s.text) for s in token_segments(tok)] == [("hex", "95 88"), ("mark", "·"), ("hex", "EA B0")]
    assert token_label(tok) == "‹95 88›·‹EA B0›"
    assert token_label(Token(2, b"\xf0\x9f\x98", 0, 3, 0, 1, True)) == "‹F0 9F 98›"
    assert token_label(Token(3, b"\xff", 0, 1, 0, 1, True)) == "‹FF›"  # not UTF-8 at all


@given(st.text(alphabet="a가😀é한", min_size=1, max_size=12), st.data())
def test_cut_token_segments_give_back_the_tokens_exact_bytes(text, data):
    raw = text.encode("utf-8")
    i = data.draw(st.integers(0, len(raw) - 1))
    j = data.draw(st.integers(i + 1, len(raw)))
    tok = Token(0, raw[i:j], i, j, 0, 1, True)
    segs = token_segments(tok)
    back = b"".join(bytes.fromhex(s.text) if s.kind == "hex" else s.text.encode("utf-8") for s in segs)
    assert back == raw[i:j]
    # hex only for the characters cut at either end; every whole character inside is shown as text
    starts = char_byte_starts(text)
    whole = "".join(text[c] for c in range(len(text)) if starts[c] >= i and starts[c + 1] <= j)
    assert "".join(s.text for s in segs if s.kind == "text") == whole
    char_at = {b: c for c in range(len(text)) for b in range(starts[c], starts[c + 1])}
    cut = set()
    if i not in starts:
        cut.add(char_at[i])
    if j not in starts:
        cut.add(char_at[j - 1])
    assert sum(s.kind == "hex" for s in segs) == len(cut)


def test_token_json_schema():
    enc = Encoding.from_byte_tokens("demo", "안!", [(1, b"\xec\x95"), (2, b"\x88!")])
    doc = json.loads(json.dumps(encoding_json(enc)))
    assert set(doc) == {"encoder", "text", "ids", "tokens", "metrics"}
    assert doc["encoder"] == "demo" and doc["text"] == "안!" and doc["ids"] == [1, 2]
    assert [tuple(t) for t in doc["tokens"]] == [TOKEN_FIELDS] * 2
    assert doc["tokens"][0] == token_json(enc.tokens[0]) == {
        "id": 1, "bytes": "ec95", "piece": None, "byte_start": 0, "byte_end": 2, "start": 0, "end": 1,
        "partial": True, "kind": "normal",
    }
    assert b"".join(bytes.fromhex(t["bytes"]) for t in doc["tokens"]) == "안!".encode()
    assert doc["metrics"]["tokens"] == 2 and doc["metrics"]["partial_tokens"] == 2
