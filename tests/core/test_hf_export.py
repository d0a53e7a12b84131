"""Exported tokenizer.json files load in HF tokenizers and give tokviz's ids; vocab.txt is BERT's layout."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordPiece
from tokenizers.pre_tokenizers import BertPreTokenizer

from tests.support.mixed_corpus import HELD_OUT, mixed_lines
from tokviz.core.errors import TokvizError
from tokviz.core.hf_export import tokenizer_json, write_tokenizer_json, write_vocab_txt
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer

TEXTS = HELD_OUT + [
    "안녕하세요 세계! Hello, world. 😀👍🏽 🇰🇷",
    "\t줄\n바꿈\u3000그리고\u00a0공백\x1f끝  ",
    "   ",
    "",
    "<unk> <s> [CLS] [UNK] 특수",
    "ㅋㅋㅋㅋㅋㅋㅋㅋㅋㅋㅋㅋ 재밌다재밌다재밌다 " + "가" * 130,
    "unknown Ωmega 漢字 かな ☃☃ é",
] + [line.rstrip("\n") for line in mixed_lines(30, seed=21)]


@pytest.fixture(scope="module")
def models():
    u = UnigramTrainer(UnigramConfig(vocab_size=300))
    list(u.run(mixed_lines()))
    w = WordPieceTrainer(WordPieceConfig(vocab_size=500))
    list(w.run(mixed_lines()))
    return {"unigram": u.model(), "unigram-step-1": u.model(1), "wordpiece": w.model()}


@pytest.mark.parametrize("which", ["unigram", "unigram-step-1", "wordpiece"])
def test_tokenizer_json_encodes_like_tokviz(models, which, tmp_path):
    model = models[which]
    path = write_tokenizer_json(model, tmp_path / "tokenizer.json")
    hf = Tokenizer.from_file(str(path))
    for text in TEXTS:
        assert hf.encode(text, add_special_tokens=False).ids == model.encode(text, allow_special=True).ids, text
    assert hf.get_vocab_size() == model.vocab_size
    json.loads(path.read_text(encoding="utf-8"))  # plain UTF-8 JSON


def test_vocab_txt_is_berts_layout(models, tmp_path):
    model = models["wordpiece"]
    path = write_vocab_txt(model, tmp_path / "vocab.txt")
    lines = path.read_text(encoding="utf-8").split("\n")[:-1]
    assert lines == model.vocab
    assert lines[:5] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    hf = Tokenizer(WordPiece.from_file(str(path), unk_token="[UNK]"))
    hf.pre_tokenizer = BertPreTokenizer()
    for text in TEXTS:
        assert hf.encode(text, add_special_tokens=False).ids == model.encode(text).ids


def test_other_models_are_refused(tmp_path):
    with pytest.raises(TokvizError):
        tokenizer_json(object())
    with pytest.raises(TokvizError):
        write_vocab_txt(object(), tmp_path / "v.txt")
    assert not (tmp_path / "v.txt").exists()
