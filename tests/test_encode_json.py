"""``tokviz encode --json`` streams the token JSON: byte for byte what ``json.dump(encoding_json(...), indent=2)``
printed before, without a dict per token; ``--ndjson`` gives one object per line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz import cli
from tokviz.core import display
from tokviz.core.display import encoding_json, encoding_json_chunks, encoding_ndjson_lines, token_json
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoding import Encoding
from tokviz.core.metrics import measure

MIXED = ('안녕하세요 👋 "quotes" \\back\\slash\n\t탭 👨\u200d👩\u200d👧 <|endoftext|> e\u0301 \u2028 \x00 \x7f '
         "뷁 café 🇰🇷 1234567 ")


def old_json(encoding, metrics, ensure_ascii: bool) -> str:
    """What ``tokviz encode --json`` printed before it streamed."""
    return json.dumps(encoding_json(encoding, metrics), ensure_ascii=ensure_ascii, indent=2)


def streamed(encoding, metrics, ensure_ascii: bool) -> str:
    return "".join(encoding_json_chunks(encoding, metrics, ensure_ascii=ensure_ascii))


@pytest.fixture(scope="module")
def cl100k():
    return default_registry().get("cl100k_base")


@pytest.mark.parametrize("ensure_ascii", [False, True])
@pytest.mark.parametrize("allow_special", [False, True])
def test_streamed_json_is_the_old_json_byte_for_byte(cl100k, ensure_ascii, allow_special, monkeypatch):
    enc = cl100k.encode(MIXED, allow_special=allow_special)
    metrics = measure(enc, decoded=cl100k.decode(enc.ids))
    want = old_json(enc, metrics, ensure_ascii)
    assert streamed(enc, metrics, ensure_ascii) == want
    monkeypatch.setattr(display, "_JSON_CHUNK", 3)  # many chunks: the joins between them
    assert streamed(enc, metrics, ensure_ascii) == want


def test_streamed_json_of_special_unknown_fallback_and_empty_encodings():
    kinds = Encoding.from_byte_tokens("d", "<s>a\xe9", [(1, b"<s>"), (2, b"a"), (3, b"\xc3"), (4, b"\xa9")],
                                      kinds=["special", "normal", "byte_fallback", "unknown"])
    spans = Encoding.from_spans("sp", " 안 x", [(5, b" \xec\x95\x88", 0, 4, "normal", "\u2581안"),
                                                (6, b"x", 5, 6, "normal", None)], normalized_text=" 안 x")
    empty = Encoding.from_byte_tokens("d", "", [])
    for enc in (kinds, spans, empty):
        m = measure(enc)
        for ascii_only in (False, True):
            assert streamed(enc, m, ascii_only) == old_json(enc, m, ascii_only), enc


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=40))
def test_streamed_json_equals_the_old_json_for_any_text(cl100k, text):
    enc = cl100k.encode(text)
    m = measure(enc)
    assert streamed(enc, m, False) == old_json(enc, m, False)
    assert streamed(enc, m, True) == old_json(enc, m, True)


def test_the_cli_prints_the_old_json_without_building_it(cl100k, capsys, monkeypatch):
    enc = cl100k.encode(MIXED)
    want = old_json(enc, measure(enc, decoded=cl100k.decode(enc.ids)), ensure_ascii=False) + "\n"

    def refuse(*_args, **_kw):
        raise AssertionError("encode --json built the whole document (a dict per token)")

    monkeypatch.setattr(display, "encoding_json", refuse)
    assert cli.main(["encode", "-e", "cl100k_base", "--json", MIXED]) == 0
    assert capsys.readouterr().out == want


def test_ndjson_is_one_object_per_line(cl100k, capsys):
    assert cli.main(["encode", "-e", "cl100k_base", "--ndjson", MIXED]) == 0
    lines = capsys.readouterr().out.splitlines()
    enc = cl100k.encode(MIXED)
    objects = [json.loads(line) for line in lines]
    assert objects[0] == {"encoder": "cl100k_base", "characters": len(MIXED), "bytes": len(MIXED.encode())}
    assert objects[1:-1] == [token_json(t) for t in enc.tokens]
    assert objects[-1] == {"metrics": measure(enc, decoded=cl100k.decode(enc.ids)).as_json()}
    assert lines[1] == json.dumps(token_json(enc.tokens[0]), ensure_ascii=False)


def test_ndjson_of_an_empty_text_and_json_with_ndjson_is_refused(capsys):
    lines = "".join(encoding_ndjson_lines(Encoding.from_byte_tokens("d", "", []))).splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["metrics"]["tokens"] == 0
    with pytest.raises(SystemExit) as info:
        cli.main(["encode", "-e", "gpt2", "--json", "--ndjson", "x"])
    assert info.value.code == 2 and "not allowed with" in capsys.readouterr().err
