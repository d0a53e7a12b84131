"""tokenizer.json through tokenizers: ids equal to the library's, exact bytes per decoder style, spans tile."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from tests.support.prompts import PROMPTS
from tokviz.core.encoders.hf_json import (
    HFTokenizerEncoder,
    PieceStyle,
    find_tokenizer_json,
    looks_like_tokenizer_json,
    read_model_config,
)
from tokviz.core.encoding import Encoding
from tokviz.core.errors import ModelFileError


def reference_ids(ref: Tokenizer, text, allow_special):
    ref.encode_special_tokens = not allow_special
    return ref.encode(text, add_special_tokens=False).ids


def check_tiles(enc):
    data = enc.text.encode("utf-8")
    assert enc.joined_bytes() == data
    pos = 0
    for t in enc.tokens:
        assert t.byte_start == pos and data[t.byte_start:t.byte_end] == t.bytes
        pos = t.byte_end
    assert pos == len(data)


@pytest.mark.parametrize("allow_special", [False, True])
@pytest.mark.parametrize("which", ["llama3_json", "deepseek_json"])
def test_ids_equal_tokenizers_and_bytes_tile(which, allow_special, hf_encoder, hf_reference):
    enc, ref = hf_encoder(which), hf_reference(which)
    for text in PROMPTS:
        got = enc.encode(text, allow_special=allow_special)
        assert got.ids == reference_ids(ref, text, allow_special), text
        check_tiles(got)
        assert got.normalized_text is None
        assert enc.decode(got.ids) == text


def test_special_tokens_are_single_tokens_with_their_kind(hf_encoder):
    enc = hf_encoder("llama3_json")
    got = enc.encode("<|begin_of_text|>hi<|eot_id|>", allow_special=True)
    assert got.ids == [128000, 6151, 128009]
    assert [t.kind for t in got.tokens] == ["special", "normal", "special"]
    assert got.tokens[0].bytes == b"<|begin_of_text|>"
    plain = enc.encode("<|begin_of_text|>", allow_special=False)
    assert len(plain) > 1 and {t.kind for t in plain.tokens} == {"normal"}
    assert enc.special_tokens()["<|eot_id|>"] == 128009
    assert enc.vocab_size == 128256 + 1 or enc.vocab_size == 128256


def test_a_cut_hangul_syllable_shows_its_real_bytes(hf_encoder):
    enc = hf_encoder("llama3_json")
    got = enc.encode("뷁")  # rare syllable: byte pieces
    assert len(got) > 1
    assert all(t.partial for t in got.tokens)
    assert b"".join(t.bytes for t in got.tokens) == "뷁".encode()
    assert all(t.start == 0 and t.end == 1 for t in got.tokens)


def test_config_gives_bos_eos_from_added_token_objects(deepseek_json):
    cfg = read_model_config(deepseek_json.parent)
    assert cfg.bos_token == "<｜begin▁of▁sentence｜>" and cfg.eos_token == "<｜end▁of▁sentence｜>"


def test_folder_with_chat_template(tmp_path, llama3_json):
    (tmp_path / "tokenizer.json").write_bytes(llama3_json.read_bytes())
    (tmp_path / "tokenizer_config.json").write_text(
        json.dumps({"bos_token": "<|begin_of_text|>", "eos_token": {"content": "<|eot_id|>"},
                    "chat_template": [{"name": "default", "template": "{{ bos_token }}"},
                                      {"name": "tool_use", "template": "x"}]}),
        encoding="utf-8")
    assert find_tokenizer_json(tmp_path) == tmp_path / "tokenizer.json"
    enc = HFTokenizerEncoder.from_file(tmp_path)
    assert enc.config.chat_template == "{{ bos_token }}"
    assert enc.config.eos_token == "<|eot_id|>"
    (tmp_path / "chat_template.jinja").write_text("{{ eos_token }}", encoding="utf-8")
    assert read_model_config(tmp_path).chat_template == "{{ eos_token }}"


# ---- decoder styles, on small tokenizers trained here -----------------------------------------
CORPUS = ["hello world", "안녕하세요 세계", "low lower lowest newer wider", "the cat sat on the mat"] * 20


def save(tok, tmp_path, name="tokenizer.json"):
    p = tmp_path / name
    tok.save(str(p))
    return p


def test_byte_fallback_pieces_are_their_bytes(tmp_path):
    tok = Tokenizer(models.BPE(byte_fallback=True, unk_token=None))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
                                     decoders.Strip(" ", 1, 0)])
    trainer = trainers.BpeTrainer(vocab_size=300,
                                  special_tokens=["<unk>", "<s>"] + [f"<0x{b:02X}>" for b in range(256)])
    tok.train_from_iterator(CORPUS, trainer)
    enc = HFTokenizerEncoder.from_file(save(tok, tmp_path))
    assert enc.style.kind == "byte_fallback"
    text = "hello 뷁"
    got = enc.encode(text)
    assert got.ids == tok.encode(text, add_special_tokens=False).ids
    # the normalizer writes ▁ for spaces and a leading ▁: shown, not hidden
    assert got.normalized_text == "▁hello▁뷁"
    fallback = [t for t in got.tokens if t.kind == "byte_fallback"]
    assert b"".join(t.bytes for t in fallback) == "뷁".encode()
    assert [t.byte_end - t.byte_start for t in fallback] == [1, 1, 1]
    assert all(t.partial for t in fallback)
    spans = [(t.byte_start, t.byte_end) for t in got.tokens]
    assert spans == sorted(spans)


def test_wordpiece_and_a_lowercasing_normalizer(tmp_path):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    tok.train_from_iterator(CORPUS, trainers.WordPieceTrainer(vocab_size=200, special_tokens=["[UNK]", "[CLS]"]))
    enc = HFTokenizerEncoder.from_file(save(tok, tmp_path))
    assert enc.style == PieceStyle("wordpiece", "##")
    text = "Lowest WIDER ∰"
    got = enc.encode(text)
    assert got.ids == tok.encode(text, add_special_tokens=False).ids
    assert got.normalized_text == "lowest wider ∰"
    assert any(t.kind == "unknown" for t in got.tokens)
    assert all(not t.bytes.startswith(b"##") for t in got.tokens)
    assert b"".join(t.bytes for t in got.tokens if t.kind == "normal") == b"lowestwider"


def test_metaspace_unigram(tmp_path):
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    tok.train_from_iterator(CORPUS, trainers.UnigramTrainer(vocab_size=80, special_tokens=["<unk>"], unk_token="<unk>"))
    enc = HFTokenizerEncoder.from_file(save(tok, tmp_path))
    assert enc.style.kind == "metaspace"
    got = enc.encode("the cat")
    assert got.ids == tok.encode("the cat", add_special_tokens=False).ids
    assert b"".join(t.bytes for t in got.tokens) == b" the cat"  # the prefix space Metaspace adds


# ---- recognising and refusing -------------------------------------------------------------------
def test_sniff(llama3_json):
    head = llama3_json.read_bytes()[:65536]
    assert looks_like_tokenizer_json(head)
    assert not looks_like_tokenizer_json(b'{"config": {"pattern": ""}, "vocab": [{"rank": 0}]}')
    assert not looks_like_tokenizer_json(b"IQ== 0\n")


@pytest.mark.parametrize("content, expected", [
    (None, "truncated"),
    ('{"version": "1.0", "added_tokens": []}', "no \"model\""),
    ('{"version": "1.0", "model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a b"]}}', "not in the vocabulary"),
    ("", "empty"),
    ('[1, 2]', "no \"model\""),
])
def test_bad_tokenizer_json_is_a_clear_error(tmp_path, llama3_json, content, expected):
    p = tmp_path / "tokenizer.json"
    if content is None:
        p.write_bytes(llama3_json.read_bytes()[:100_000])
    else:
        p.write_text(content, encoding="utf-8")
    with pytest.raises(ModelFileError, match=expected):
        HFTokenizerEncoder.from_file(p)


def test_bad_config_is_a_clear_error(tmp_path, llama3_json):
    (tmp_path / "tokenizer.json").write_bytes(llama3_json.read_bytes())
    (tmp_path / "tokenizer_config.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelFileError, match="tokenizer_config.json: is not valid JSON"):
        HFTokenizerEncoder.from_file(tmp_path)


# ---- the column-wise Encoding (each distinct id looked up once) equals the token-by-token one ----------
COLUMN_TEXTS = [*PROMPTS, "", "a", "\ufffd x\x00y", "<|begin_of_text|>안녕<|eot_id|> <｜begin▁of▁sentence｜>", "😀" * 9]


def _token_by_token(encoder, text: str, allow: bool) -> Encoding:
    ids, _ = encoder._native_encode(text, allow)
    return Encoding.from_byte_tokens(
        encoder.name,
        text,
        [(i, encoder.token_bytes(i)) for i in ids],
        kinds=[encoder.kind(i) for i in ids],
        raws=[encoder.tokenizer.id_to_token(i) for i in ids],
    )


@pytest.mark.parametrize("which", ["llama3_json", "deepseek_json"])
def test_column_wise_encoding_equals_token_by_token(hf_encoder, which):
    encoder = hf_encoder(which)
    for text in COLUMN_TEXTS:
        for allow in (False, True):
            got, want = encoder.encode(text, allow_special=allow), _token_by_token(encoder, text, allow)
            assert got.tokens == want.tokens, text
            assert got.normalized_text is None
            assert [t.raw for t in got.tokens] == [encoder.tokenizer.id_to_token(i) for i in got.ids]
