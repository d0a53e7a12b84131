"""Fuzzed text through every encoder of the registry (skipping none) and through ``tokviz encode``.

Lone surrogates are a clear message (InvalidTextError, a TokvizError), never a traceback. Everything
else — NUL, bidi overrides, 500-mark combining stacks, ZWJ emoji runs, 10k- and 1M-character lines
without a break, arbitrary Unicode from hypothesis — encodes to tokens whose spans lie in order
inside the text; for byte-level encoders the token bytes tile the text's UTF-8 exactly and decode
gives the text back. tokviz's own trained models (BPE both modes, WordPiece, Unigram) are fuzzed too.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.packages import NOT_IN_TEST_EXTRA
from tests.support.trained_models import bpe_model, unigram_model, wordpiece_model
from tokviz.cli import main
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.errors import InvalidTextError, TokvizError

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = default_registry()
NAMES = [name for name in REGISTRY.names() if name not in NOT_IN_TEST_EXTRA]  # every one the tests install

HOSTILE = {
    "nul": "a\x00b\x00\x00 안녕\x00\n\x00",
    "bidi-overrides": "\u202eabc\u202d 안녕 \u2066x\u2069 \u200f\u202a\u202b\u202c\u061c",
    "combining-500": "e" + "\u0301" * 500 + " 가" + "\u0300\u0301" * 250 + "\u1161" * 100,
    "zwj-emoji": "👨\u200d👩\u200d👧\u200d👦" * 50 + "🏳\ufe0f\u200d🌈" + "\u200d" * 30,
    "controls": "".join(chr(c) for c in range(32)) + "\x7f\x85\u2028\u2029\ufeff\ufffe\uffff",
    "line-10k": ("안녕하세요😀abc" * 1000)[:10_000],
    "line-10k-one-char": "a" * 10_000,
    "noncharacters-astral": "\U0001ffff\U0010ffff\U000e0001\U000e0041",
}
# a 1,000,000-character line without a break: plain letters, then Hangul and emoji
LINE_1M = "a" * 500_000 + ("안녕하세요😀abc" * 62_500)[:500_000]
SURROGATES = {"high": "\ud800", "low-inside": "a\udc00b", "reversed-pair": "\udc00\ud800", "after-hangul": "안녕\udfff"}


def check_encoding(encoder, text: str) -> None:
    """Spans in order inside the text; byte-level: bytes tile the UTF-8 and decode round-trips."""
    enc = encoder.encode(text)
    data = text.encode("utf-8")
    bs, be = enc.byte_start_array, enc.byte_end_array
    s, e = enc.start_array, enc.end_array
    assert len(bs) == len(enc.ids)
    if len(bs):
        assert (bs[1:] >= be[:-1]).all() and (be >= bs).all() and be[-1] <= len(data) and bs[0] >= 0
        assert (e >= s).all() and s.min() >= 0 and e.max() <= len(text) and (s[1:] >= s[:-1]).all()
    if encoder.byte_level:
        assert enc.joined_bytes() == data
        if len(bs):
            assert bs[0] == 0 and (bs[1:] == be[:-1]).all() and be[-1] == len(data)
        assert encoder.decode(enc.ids) == text


@pytest.fixture(scope="module")
def own_models():
    """tokviz's own trained models, as encoders."""
    return {"bpe-byte": bpe_model("byte", 60), "bpe-char": bpe_model("char", 60),
            "wordpiece": wordpiece_model(1500), "unigram": unigram_model(1100)}


@pytest.mark.parametrize("kind", list(HOSTILE))
@pytest.mark.parametrize("name", NAMES)
def test_hostile_text_through_every_registry_encoder(name, kind):
    check_encoding(REGISTRY.get(name), HOSTILE[kind])


@pytest.mark.parametrize("kind", list(HOSTILE))
@pytest.mark.parametrize("model", ["bpe-byte", "bpe-char", "wordpiece", "unigram"])
def test_hostile_text_through_tokvizs_own_models(own_models, model, kind):
    check_encoding(own_models[model], HOSTILE[kind])


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_a_1m_character_line_through_every_registry_encoder(name):
    check_encoding(REGISTRY.get(name), LINE_1M)


@pytest.mark.parametrize("where", list(SURROGATES))
@pytest.mark.parametrize("name", NAMES + ["bpe-byte", "bpe-char", "wordpiece", "unigram"])
def test_a_lone_surrogate_is_a_clear_message(own_models, name, where):
    encoder = own_models[name] if name in own_models else REGISTRY.get(name)
    with pytest.raises(TokvizError) as err:
        encoder.encode(SURROGATES[where])
    assert isinstance(err.value, InvalidTextError), type(err.value)
    assert "surrogate" in str(err.value)


_interesting = st.sampled_from(list("안녕값\u1100\u1161\u11a8\u200d\ufe0f\u0301\u202e\u2066 \t\r\n\x00\x7f🇰🇷👍🏽▁"))
TEXT = st.text(alphabet=st.one_of(st.characters(blacklist_categories=("Cs",)), _interesting), max_size=60)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
def test_arbitrary_unicode_through_every_registry_encoder(name, text):
    check_encoding(REGISTRY.get(name), text)


@pytest.mark.parametrize("model", ["bpe-byte", "bpe-char", "wordpiece", "unigram"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
def test_arbitrary_unicode_through_tokvizs_own_models(own_models, model, text):
    check_encoding(own_models[model], text)


# ---- the CLI ------------------------------------------------------------------------------------
def _encode_cli(args: list, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tokviz", "encode", *args], input=stdin, capture_output=True,
                          cwd=ROOT, timeout=300)


def _assert_message(result: subprocess.CompletedProcess) -> str:
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, (result.returncode, err[-2000:])
    assert "Traceback" not in err and err.strip() and len(err.strip().splitlines()) <= 3, err[-2000:]
    return err


BAD_UTF8 = {"cesu-high-surrogate": b"ab\xed\xa0\x80cd", "cesu-low-surrogate": b"\xed\xb0\x80",
            "invalid-bytes": b"ok \xff\xfe", "cut-character": b"\xc3"}


def test_cli_bad_utf8_on_stdin_is_a_message():
    # the process itself: its stdin pipe, the message on stderr and exit status 2 with no traceback
    err = _assert_message(_encode_cli(["-e", "gpt2", "-"], BAD_UTF8["cesu-high-surrogate"]))
    assert "UTF-8" in err or "surrogate" in err


@pytest.mark.parametrize("kind", list(BAD_UTF8))
def test_every_kind_of_bad_utf8_on_stdin_is_a_message(kind, capsys, monkeypatch):
    # In-process, through the command's own entry point (a traceback would escape main() and fail the
    # test): a fresh interpreter per kind cost 0.5 s each, for what the process test above checks once.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD_UTF8[kind]), encoding="utf-8"))
    code = main(["encode", "-e", "gpt2", "-"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("tokviz: ") and len(err.strip().splitlines()) == 1, err
    assert "UTF-8" in err or "surrogate" in err


def test_cli_non_utf8_bytes_on_the_command_line_are_a_message():
    err = _assert_message(_encode_cli(["-e", "gpt2", b"caf\xe9 \xed\xa0\x80"]))
    assert "UTF-8" in err or "byte" in err


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_cli_hostile_text_through_every_registry_encoder(name, capsys, monkeypatch):
    # In-process: the point is the command's JSON for every encoder, and each encoder is then loaded
    # once for the module instead of in a fresh process per encoder (the process itself, its pipes
    # and exit status are what the bad-UTF-8 tests above check).
    text = "".join(HOSTILE.values())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))
    code = main(["encode", "-e", name, "--json", "-"])
    captured = capsys.readouterr()
    assert code == 0, captured.err[-2000:]
    out = json.loads(captured.out)
    spans = [(t["start"], t["end"]) for t in out["tokens"]]
    assert all(0 <= a <= b <= len(text) for a, b in spans)
    assert [a for a, _ in spans] == sorted(a for a, _ in spans)
