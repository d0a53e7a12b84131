"""open_model_file recognises formats by content, names the file on every problem, and tries the
loaders it is given (by default every built-in family's)."""

from __future__ import annotations

import pytest

from tests.support.packages import mistral_model
from tokviz.core.encoders import builtin, tiktoken_family
from tokviz.core.encoders.base import ModelLoader
from tokviz.core.encoders.builtin import open_model_file
from tokviz.core.errors import ModelFileError, TokvizError


def test_sentencepiece_model_recognised_by_content_not_name(tmp_path):
    src = mistral_model("tokenizer.model.v1")
    disguised = tmp_path / "vocab.txt"
    disguised.write_bytes(src.read_bytes())
    encoder = open_model_file(disguised)
    assert encoder.family == "sentencepiece" and encoder.name == "vocab.txt"
    assert encoder.encode("안녕").ids == open_model_file(src).encode("안녕").ids


def test_rank_file_recognised_by_content_and_split_with_the_chosen_pattern(tmp_path, genuine_rank_files,
                                                                          tokviz_tiktoken):
    disguised = tmp_path / "ranks.model"
    disguised.write_bytes(genuine_rank_files["cl100k_base"].read_bytes())
    encoder = open_model_file(disguised)
    assert encoder.family == "tiktoken"
    text = "Hello world123 안녕하세요!!\n\n  x"
    # the GPT-4 pattern by default: same ids as cl100k_base itself (which has no special tokens here)
    assert encoder.encode(text).ids == tokviz_tiktoken["cl100k_base"].encode(text).ids
    by_words = open_model_file(disguised, pattern="whitespace").encode(text)
    assert by_words.ids != encoder.encode(text).ids and by_words.round_trip_exact()
    whole = open_model_file(disguised, pattern="none").encode("ab cd")
    assert whole.round_trip_exact()


def test_unknown_pattern_name_is_a_clear_error(genuine_rank_files):
    with pytest.raises(TokvizError, match="choose one of: gpt2, gpt4"):
        open_model_file(genuine_rank_files["cl100k_base"], pattern="gpt5")


@pytest.mark.parametrize(
    "content",
    [b'{"model": {"type": "BPE", "vocab": {}}}', b"\x89PNG\r\n\x1a\n\x00\x00", "안녕하세요\n".encode()],
)
def test_unknown_format_says_what_was_expected(tmp_path, content):
    path = tmp_path / "mystery.bin"
    path.write_bytes(content)
    with pytest.raises(ModelFileError) as info:
        open_model_file(path)
    message = str(info.value)
    assert str(path) in message and "SentencePiece" in message and "tiktoken" in message


def test_empty_missing_and_folder(tmp_path):
    empty = tmp_path / "empty.model"
    empty.write_bytes(b"")
    with pytest.raises(ModelFileError, match="empty"):
        open_model_file(empty)
    with pytest.raises(ModelFileError, match="cannot read"):
        open_model_file(tmp_path / "missing.model")
    with pytest.raises(ModelFileError, match="folder"):
        open_model_file(tmp_path)


def test_truncated_files_are_named(tmp_path, genuine_rank_files):
    sp = tmp_path / "cut.model"
    sp.write_bytes(mistral_model("tokenizer.model.v1").read_bytes()[:200_000])
    with pytest.raises(ModelFileError, match="truncated") as info:
        open_model_file(sp)
    assert str(sp) in str(info.value)
    ranks = tmp_path / "cut.tiktoken"
    data = genuine_rank_files["o200k_base"].read_bytes()
    ranks.write_bytes(data[: data.index(b"\n", 10_000) + 4])
    with pytest.raises(ModelFileError, match="truncated") as info:
        open_model_file(ranks)
    assert str(ranks) in str(info.value)


def test_open_model_file_tries_the_loaders_it_is_given(tmp_path, tokviz_tiktoken):
    path = tmp_path / "model.custom"
    path.write_bytes(b"CUSTOM-FORMAT v1\n")
    seen = []

    def load(p, pattern):
        seen.append((p, pattern))
        return tokviz_tiktoken["gpt2"]

    custom = ModelLoader("custom", lambda p, head: head.startswith(b"CUSTOM-FORMAT"), load, "a custom test format")
    assert open_model_file(path, pattern="gpt2", loaders=[*builtin.model_loaders(), custom]) is tokviz_tiktoken["gpt2"]
    assert seen == [(path, "gpt2")]
    # not among the built-in formats; and a sniff that raises just does not recognise the file
    with pytest.raises(ModelFileError, match="Expected one of: .*tiktoken rank file"):
        open_model_file(path)
    broken = ModelLoader("custom", lambda p, head: 1 / 0, load, "a custom test format")
    with pytest.raises(ModelFileError, match="a custom test format"):
        open_model_file(path, loaders=[broken])


def test_every_family_offers_its_loaders_and_the_composition_lists_them_all():
    names = [loader.name for loader in builtin.model_loaders()]
    assert names == ["rank file", "tekken", "tiktoken", "sentencepiece", "tokviz-bpe", "subword-nmt", "gpt2-bpe",
                     "tokenizer.json", "gguf"]
    # OpenAI's five, then the catalogue's Llama 3, Llama 4, Qwen, Qwen 3.6 and Mistral Tekken
    assert [e.family for e in builtin.build_registry().statuses()].count("tiktoken") == 10


@pytest.mark.parametrize(
    "content, recognised",
    [
        (b"IQ== 0\nIg== 1\nIw== 2", True),  # no final newline
        (b"IQ== 0\r\nIg== 1\r\n", True),
        (b"#version: 0.2\nt h\nth e</w>\n", False),  # subword-nmt codes
        (b"\xc4\xa0 t\n\xc4\xa0 a\n", False),  # GPT-2 merges.txt
        (b"IQ== 0\nIg== 1\nnot a rank line\n", False),
        (b"I=Q= 0\n", False),  # invalid base64
    ],
)
def test_rank_file_sniff(content, recognised, tmp_path):
    assert tiktoken_family.sniff_rank_file(tmp_path / "x", content) is recognised


@pytest.mark.parametrize(
    ("text", "outcome"),
    [
        ('{"rank": 123456789012345678901}', "21-digit"),  # one digit over the limit: refused, not read
        ('{"rank": -123456789012345678901}', "21-digit"),
        ('{"rank": 12345678901234567890}', {"rank": 12345678901234567890}),  # at the limit: read
        ('{"piece": "123456789012345678901", "rank": 7}', {"piece": "123456789012345678901", "rank": 7}),
        ('{"rank": 7, "piece": "١٢٣"}', {"rank": 7, "piece": "١٢٣"}),  # non-ASCII digits are no JSON number
    ],
)
def test_json_numbers_are_held_to_the_digit_limit_whichever_way_they_are_read(text, outcome):
    """Integers are read at C speed unless a digit run in the text passes the limit; then each one is
    checked. A long run inside a string takes the checked way and still reads."""
    from tokviz.core.encoders.files import MAX_NUMBER_DIGITS, parse_json

    assert MAX_NUMBER_DIGITS == 20
    if isinstance(outcome, str):
        with pytest.raises(ModelFileError, match=outcome):
            parse_json(text, "m.json")
    else:
        assert parse_json(text, "m.json") == outcome
