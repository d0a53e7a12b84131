"""SentencePiece models: ids equal sentencepiece's own, spans are exact, bad files are named."""

from __future__ import annotations

import json

import pytest
import sentencepiece

from tests.support.packages import mistral_model
from tokviz.core.encoders import sentencepiece_family
from tokviz.core.encoders.base import Encoder
from tokviz.core.encoders.registry import Registry
from tokviz.core.encoders.sentencepiece_family import (
    SentencePieceEncoder,
    looks_like_model_proto,
    read_model_info,
)
from tokviz.core.errors import InvalidTextError, ModelFileError

from .samples import SAMPLES

MODELS = ("tokenizer.model.v1", "mistral_instruct_tokenizer_240323.model.v3")


@pytest.fixture(scope="module")
def mistral():
    """tokviz encoder and sentencepiece's own processor for each genuine model, loaded once."""
    out = {}
    for name in MODELS:
        path = mistral_model(name)
        out[name] = (SentencePieceEncoder(path), sentencepiece.SentencePieceProcessor(model_file=str(path)))
    return out


@pytest.fixture(scope="module")
def tiny(tiny_unigram_model):
    path = tiny_unigram_model
    return SentencePieceEncoder(path), sentencepiece.SentencePieceProcessor(model_file=str(path))


def span_bytes(text: str, tok) -> bytes:
    return text.encode("utf-8")[tok.byte_start:tok.byte_end]


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("sample", list(SAMPLES))
def test_ids_equal_sentencepieces_own(model, sample, mistral):
    encoder, sp = mistral[model]
    text = SAMPLES[sample]
    enc = encoder.encode(text)
    assert enc.ids == sp.encode(text)
    assert enc.normalized_text is None  # identity normalizer
    data = text.encode("utf-8")
    # Identity normalizer + byte fallback: the non-empty spans tile the text, and every token's
    # bytes are its span's bytes (a leading dummy-prefix space aside).
    covered = b"".join(span_bytes(text, t) for t in enc.tokens)
    assert covered == data
    for i, tok in enumerate(enc.tokens):
        got = span_bytes(text, tok).replace("▁".encode(), b" ")
        assert tok.bytes in (got, b" " + got), (i, tok)
        if tok.bytes == b" " + got:
            assert tok.byte_start == 0, "only the dummy prefix adds a space"


def test_dummy_prefix_covers_no_text(mistral):
    encoder, _ = mistral["tokenizer.model.v1"]
    enc = encoder.encode("안녕")
    first = enc.tokens[0]
    assert (first.raw, first.bytes, first.byte_start, first.byte_end, first.start, first.end) == ("▁", b" ", 0, 0, 0, 0)
    assert not first.partial
    # "▁▁" at the start of "  x" holds the dummy prefix plus ONE space of the text
    enc = encoder.encode("  hello")
    assert (enc.tokens[0].raw, enc.tokens[0].byte_start, enc.tokens[0].byte_end) == ("▁▁", 0, 1)


def test_byte_fallback_pieces_each_cover_their_own_byte(mistral):
    encoder, _ = mistral["tokenizer.model.v1"]
    text = "안녕 똠"  # 녕 and 똠 are not pieces of this model: three <0xNN> pieces each
    enc = encoder.encode(text)
    fallback = [t for t in enc.tokens if t.kind == "byte_fallback"]
    assert [(t.raw, t.bytes, t.byte_start, t.byte_end, t.start, t.end, t.partial) for t in fallback] == [
        ("<0xEB>", b"\xeb", 3, 4, 1, 2, True),
        ("<0x85>", b"\x85", 4, 5, 1, 2, True),
        ("<0x95>", b"\x95", 5, 6, 1, 2, True),
        ("<0xEB>", b"\xeb", 7, 8, 3, 4, True),
        ("<0x98>", b"\x98", 8, 9, 3, 4, True),
        ("<0xA0>", b"\xa0", 9, 10, 3, 4, True),
    ]
    assert all(t.piece is None for t in fallback)
    assert enc.tokens_at_char(1) == [2, 3, 4]
    # a whole-character fallback (a newline) is not partial and has a piece
    newline = [t for t in encoder.encode("a\nb").tokens if t.raw == "<0x0A>"][0]
    assert (newline.bytes, newline.partial, newline.piece) == (b"\n", False, "\n")


def test_token_bytes_and_specials(mistral):
    encoder, sp = mistral["tokenizer.model.v1"]
    assert encoder.vocab_size == 32000
    assert encoder.token_bytes(sp.piece_to_id("▁hell")) == b" hell"
    assert encoder.token_bytes(sp.piece_to_id("<0xEB>")) == b"\xeb"
    assert encoder.token_bytes(1) == b"<s>" and encoder.token_bytes(0) == b"<unk>"
    assert encoder.special_tokens() == {"<s>": 1, "</s>": 2}
    with pytest.raises(ValueError):
        encoder.token_bytes(32000)
    with pytest.raises(ValueError):
        encoder.decode([0, 99999])
    assert isinstance(encoder, Encoder)
    assert (encoder.family, encoder.byte_level) == ("sentencepiece", False)
    assert "byte fallback" in encoder.source and "bpe" in encoder.source


def test_special_strings_are_plain_text_unless_allowed(mistral):
    encoder, sp = mistral["mistral_instruct_tokenizer_240323.model.v3"]
    text = "[INST] 안녕 [/INST]</s>"
    plain = encoder.encode(text)
    assert plain.ids == sp.encode(text) and all(t.kind != "special" for t in plain.tokens)
    allowed = encoder.encode(text, allow_special=True)
    specials = [(t.id, t.piece, t.byte_start, t.byte_end) for t in allowed.tokens if t.kind == "special"]
    n = len(text.encode("utf-8"))
    assert specials == [(3, "[INST]", 0, 6), (4, "[/INST]", n - 11, n - 4), (2, "</s>", n - 4, n)]
    # the text between is encoded on its own, as sentencepiece would
    middle = [t.id for t in allowed.tokens if t.kind != "special"]
    assert middle == sp.encode(" 안녕 ")


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_normalizing_model_with_unknowns(sample, tiny):
    encoder, sp = tiny
    text = SAMPLES[sample]
    enc = encoder.encode(text)
    assert enc.ids == sp.encode(text)
    data = text.encode("utf-8")
    prev = 0
    for tok in enc.tokens:
        assert prev <= tok.byte_start <= tok.byte_end <= len(data)
        prev = tok.byte_end
        if tok.kind == "unknown":
            assert tok.bytes == data[tok.byte_start:tok.byte_end] and tok.raw == "<unk>"


def test_normalized_text_and_unknown_pieces(tiny):
    encoder, _ = tiny
    enc = encoder.encode("ﬁne  Ｆｕｌｌ 值")
    assert enc.normalized_text == "fine Full 值"
    unknown = [t for t in enc.tokens if t.kind == "unknown"]
    assert [(t.bytes.decode(), t.start, t.end) for t in unknown] == [("值", 10, 11)]
    assert "nmt_nfkc" in encoder.source and "unigram" in encoder.source


@pytest.mark.parametrize("model", MODELS)
def test_lone_surrogate_and_empty_text(model, mistral):
    encoder, _ = mistral[model]
    with pytest.raises(InvalidTextError, match="lone surrogate"):
        encoder.encode("a\udc00b")
    empty = encoder.encode("")
    assert empty.tokens == () and encoder.decode([]) == ""


# ---- bad model files ------------------------------------------------------------------------------------
def _bad(tmp_path, content: bytes, name="bad.model"):
    path = tmp_path / name
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"", "empty"),
        (json.dumps({"model": {"type": "BPE"}}).encode(), "not a SentencePiece model"),
        (bytes(range(256)) * 20, "not a SentencePiece model"),
        (b"IQ== 0\nIg== 1\n", "not a SentencePiece model"),
    ],
)
def test_garbage_model_files_are_named(tmp_path, content, problem):
    path = _bad(tmp_path, content)
    with pytest.raises(ModelFileError) as info:
        SentencePieceEncoder(path)
    assert str(path) in str(info.value) and problem in str(info.value)


@pytest.mark.parametrize("keep", [10, 1000, 100_000, -3])
def test_truncated_model_is_named(tmp_path, keep):
    data = mistral_model("tokenizer.model.v1").read_bytes()
    path = _bad(tmp_path, data[:keep])
    with pytest.raises(ModelFileError) as info:
        SentencePieceEncoder(path)
    assert str(path) in str(info.value) and "truncated" in str(info.value)


def test_unreadable_model_paths(tmp_path):
    with pytest.raises(ModelFileError, match="cannot read"):
        SentencePieceEncoder(tmp_path / "missing.model")
    with pytest.raises(ModelFileError, match="folder"):
        SentencePieceEncoder(tmp_path)


def test_model_info_and_sniff():
    data = mistral_model("tokenizer.model.v1").read_bytes()
    info = read_model_info(data)
    assert (info.pieces, info.model_type, info.byte_fallback, info.normalizer) == (32000, "bpe", True, "identity")
    assert looks_like_model_proto(data[:64]) and looks_like_model_proto(data[:4096])
    assert not looks_like_model_proto(b"") and not looks_like_model_proto(b"\x0a")


# ---- bundled models in the registry ----------------------------------------------------------------------
def test_entries_list_bundled_models(tmp_path, monkeypatch, tiny_unigram_model):
    models = tmp_path / "models"
    models.mkdir()
    (models / "demo_unigram.model").write_bytes(tiny_unigram_model.read_bytes())
    (models / "broken.model").write_bytes(b"not a model")
    (models / "notes.txt").write_text("ignored", encoding="utf-8")
    from tokviz.core import package_data

    monkeypatch.setattr(package_data, "resources_dir", lambda: tmp_path)
    reg = Registry(sentencepiece_family.entries())
    statuses = {s.name: s for s in reg.statuses()}
    assert set(statuses) == {"sp:demo_unigram", "sp:broken"}
    assert statuses["sp:demo_unigram"].available and statuses["sp:demo_unigram"].family == "sentencepiece"
    assert not statuses["sp:broken"].available and "not a SentencePiece model" in statuses["sp:broken"].reason
    demo = reg.get("sp:demo_unigram")
    assert demo.name == "sp:demo_unigram" and demo.encode("안녕하세요").ids


def test_entries_without_models_folder(tmp_path, monkeypatch):
    from tokviz.core import package_data

    monkeypatch.setattr(package_data, "resources_dir", lambda: tmp_path)
    assert sentencepiece_family.entries() == []

    def missing():
        raise FileNotFoundError("no resources")

    monkeypatch.setattr(package_data, "resources_dir", missing)
    assert sentencepiece_family.entries() == []


@pytest.mark.parametrize("model", MODELS)
def test_serialized_proto_route_gives_the_same_tokens(model, mistral, tiny):
    # Older sentencepiece versions have no offset_mapping: the wire-format route must agree with it.
    for encoder in (mistral[model][0], tiny[0]):
        fallback = SentencePieceEncoder(encoder.path)
        fallback.__dict__["_route"] = "serialized_proto"
        for text in SAMPLES.values():
            assert fallback.encode(text).tokens == encoder.encode(text).tokens


def test_decode_inverts_encode_with_special_tokens(mistral):
    encoder, sp = mistral["mistral_instruct_tokenizer_240323.model.v3"]
    text = "[INST] 안녕 👋 [/INST] fine</s>"
    assert encoder.decode(encoder.encode(text, allow_special=True).ids) == text
    plain_ids = encoder.encode(text).ids
    assert encoder.decode(plain_ids) == sp.decode(plain_ids) == text


def test_byte_fallback_next_to_a_normalized_character(tiny_fallback_model):
    # ㈜ becomes "(주)" under NFKC (its byte pieces are not the text's bytes: SentencePiece's span is
    # kept), while 값 right after it is unchanged and still gets one byte per piece.
    encoder = SentencePieceEncoder(tiny_fallback_model)
    enc = encoder.encode("㈜값")
    assert enc.normalized_text == "(주)값"
    assert enc.ids == sentencepiece.SentencePieceProcessor(model_file=str(tiny_fallback_model)).encode("㈜값")
    last = enc.tokens[-3:]
    assert [(t.kind, t.bytes, t.byte_start, t.byte_end, t.start, t.end, t.partial) for t in last] == [
        ("byte_fallback", b"\xea", 3, 4, 1, 2, True),
        ("byte_fallback", b"\xb0", 4, 5, 1, 2, True),
        ("byte_fallback", b"\x92", 5, 6, 1, 2, True),
    ]
    assert all(t.byte_end <= 3 for t in enc.tokens[:-3])
