"""tokviz's trained BPE models as tokenizer.json: the `tokenizers` library encodes them exactly as tokviz does."""

from __future__ import annotations

import inspect
import json
import random
from pathlib import Path

import pytest

tokenizers = pytest.importorskip("tokenizers")

# after the skip: hf_export needs the tokenizers library
from tokviz.core.bpe.events import TrainerConfig  # noqa: E402
from tokviz.core.bpe.trainer import BPETrainer  # noqa: E402
from tokviz.core.hf_export import tokenizer_json, write_tokenizer_json  # noqa: E402

NSMC = Path(__file__).resolve().parents[1] / "data" / "nsmc_ko_600.txt"


def _korean(lines: int) -> list[str]:
    with NSMC.open(encoding="utf-8") as f:
        return [line for _, line in zip(range(lines), f, strict=False)]


def _code() -> str:
    return inspect.getsource(json.decoder) + inspect.getsource(random)[:20000]


EXTRA = [
    "hello world\r\n", "a\u00a0b\u2028c\u2029d\ufeff\t\te", "😀😂👍🏽 ❤️ 👨‍👩‍👧‍👦 🇰🇷\n", "x<|endoftext|>y  \n",
    "ㅋㅋㅋㅋ ㅠㅠ 대박!!! 12345678 3.14159\n", "  trailing spaces   ", "\n\n\n", "", "\x00\x1c\x1f\x85 ok",
]


def _train(mode: str, pattern: str = "gpt4", merges: int = 600):
    lines = _korean(500) + [_code()]
    trainer = BPETrainer(TrainerConfig(mode=mode, pattern=pattern, merges=merges, min_frequency=2,
                                       special_tokens=("<|endoftext|>",)))
    list(trainer.run(lines))
    return trainer.model()


def _probe() -> list[str]:
    held_out = _korean(600)[500:]
    return held_out + _code()[20000:40000].splitlines(keepends=True) + EXTRA


@pytest.mark.parametrize("pattern", ["gpt4", "gpt2", "o200k"])
def test_byte_mode_tokenizer_json_equals_tokviz(pattern, tmp_path):
    model = _train("byte", pattern)
    path = write_tokenizer_json(model, tmp_path / "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(path))
    for text in _probe():
        assert hf.encode(text).ids == model.encode(text, allow_special=True).ids, text
    # the specials are single tokens, and decoding gives the text back byte for byte
    sample = "값 <|endoftext|> 😀"
    ids = hf.encode(sample).ids
    assert model.special_tokens()["<|endoftext|>"] in ids
    assert hf.decode(ids, skip_special_tokens=False) == sample


def test_char_mode_tokenizer_json_equals_tokviz():
    model = _train("char")
    hf = tokenizers.Tokenizer.from_str(json.dumps(tokenizer_json(model)))
    for text in _probe():
        assert hf.encode(text).ids == model.encode(text, allow_special=True).ids, text


def test_byte_mode_merges_cover_every_split_tiktoken_would_merge():
    # "abc" is made as (a, bc), but in "xabc" tiktoken first makes ab, then merges ab + c into abc
    # (it ranks the concatenation): the export must list that split too
    from tokviz.core.bpe.model import BPEModel

    model = BPEModel(mode="byte", merges=[(97, 98, 256), (98, 99, 257), (97, 257, 258)])
    assert model.encode("xabc").ids == [120, 258]
    doc = tokenizer_json(model)
    assert ["a", "bc"] in doc["model"]["merges"] and ["ab", "c"] in doc["model"]["merges"]
    hf = tokenizers.Tokenizer.from_str(json.dumps(doc))
    for text in ["abc", "xabc", "abcabc", "ab c", "aabc"]:
        assert hf.encode(text).ids == model.encode(text).ids
