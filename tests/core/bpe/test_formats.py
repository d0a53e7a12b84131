"""Every export loads again and encodes the same; tiktoken and subword-nmt read ours exactly."""

from __future__ import annotations

import json

import pytest

from tests.support.corpora import emoji_text, english_text, korean_text, single_spaced
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.formats import FORMATS, byte_to_unicode, detect_format, gpt2_paths, load_model, save_model
from tokviz.core.bpe.model import BPEModel
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.errors import ModelFileError, TokvizError
from tokviz.core.pretokenize import PATTERNS

TEXT = korean_text(300) + english_text()[:3000] + emoji_text(80)
PROBE = ["영화 정말 재밌다 ㅋㅋㅋ 👍🏽", "Hello, world! It's 2024.\n\n  x", "👨‍👩‍👧‍👦🇰🇷 대박"]


def _train(mode: str, **cfg) -> BPEModel:
    t = BPETrainer(TrainerConfig(mode=mode, merges=250, min_frequency=2, **cfg))
    for _ in t.run([TEXT if mode == "byte" else single_spaced(TEXT)]):
        pass
    return t.model()


@pytest.fixture(scope="module")
def byte_model():
    return _train("byte", special_tokens=("<|endoftext|>",))


@pytest.fixture(scope="module")
def char_model():
    return _train("char", keep="hangul")


def _same_encoding(a, b, texts=PROBE):
    for text in texts:
        ea, eb = a.encode(text), b.encode(text)
        assert ea.ids == eb.ids, text
        assert [t.bytes for t in ea.tokens] == [t.bytes for t in eb.tokens]


def test_tokviz_json_round_trip(byte_model, char_model, tmp_path):
    for m, name in ((byte_model, "b.json"), (char_model, "c.json")):
        (path,) = save_model(m, tmp_path / name, "tokviz")
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["format"] == "tokviz-bpe" and data["mode"] == m.mode
        assert data["training"]["merges_requested"] == 250
        back = load_model(path)
        assert back.merges == m.merges and back.special_tokens() == m.special_tokens()
        assert back.keep == m.keep
        _same_encoding(m, back)
    assert load_model(tmp_path / "b.json").encode("a<|endoftext|>", allow_special=True).ids[-1] == 256 + 250


def test_tiktoken_file_loads_into_tiktoken_and_encodes_exactly(byte_model, tmp_path):
    import tiktoken

    from tokviz.core.encoders.tiktoken_family import load_rank_file, parse_tiktoken_ranks

    (path,) = save_model(byte_model, tmp_path / "m.tiktoken", "tiktoken")
    ranks = parse_tiktoken_ranks(path.read_bytes(), path)
    tt = tiktoken.Encoding("m", pat_str=PATTERNS["gpt4"], mergeable_ranks=ranks, special_tokens={})
    for text in PROBE + [TEXT, "def f(x):\n\treturn {'a': x}  # ok\r\n", "   ", "\n\n\n a"]:
        assert tt.encode_ordinary(text) == byte_model.encode(text).ids
    back = load_model(path)
    assert isinstance(back, BPEModel) and back.ranks() == byte_model.ranks()
    _same_encoding(byte_model, back)
    assert load_rank_file(path).encode(PROBE[0]).ids == byte_model.encode(PROBE[0]).ids


def test_gpt2_files_round_trip(byte_model, tmp_path):
    folder = tmp_path / "gpt2"
    folder.mkdir()
    vocab, merges = save_model(byte_model, folder, "gpt2")
    assert (vocab.name, merges.name) == ("vocab.json", "merges.txt")
    assert merges.read_text(encoding="utf-8").startswith("#version: 0.2\n")
    v = json.loads(vocab.read_text(encoding="utf-8"))
    assert v[byte_to_unicode()[ord(" ")]] == 32 and v["<|endoftext|>"] == 506
    for p in (folder, vocab, merges):
        back = load_model(p)
        assert back.merges == byte_model.merges
        _same_encoding(byte_model, back)
    new_dir = save_model(byte_model, f"{tmp_path}/new_dir/", "gpt2")  # trailing slash: a folder, created
    assert new_dir == [tmp_path / "new_dir" / "vocab.json", tmp_path / "new_dir" / "merges.txt"]
    files = save_model(byte_model, tmp_path / "base", "gpt2")
    assert [f.name for f in files] == ["base-vocab.json", "base-merges.txt"]
    assert load_model(files[1]).merges == byte_model.merges


def test_gpt2_files_that_do_not_belong_together_are_named(byte_model, tmp_path):
    vocab, merges = save_model(byte_model, tmp_path / "m", "gpt2")
    lines = merges.read_text(encoding="utf-8").splitlines(keepends=True)
    merges.write_text("".join(lines[:101]), encoding="utf-8")  # header + 100 of 250 merges
    with pytest.raises(ModelFileError, match="truncated or the two files do not belong together") as info:
        load_model(merges)
    assert str(merges) in str(info.value)
    merges.write_text("".join(lines[:1] + lines[2:]), encoding="utf-8")  # the first merge gone
    with pytest.raises(ModelFileError, match="makes .* which vocab.json does not list as token 256"):
        load_model(merges)


@pytest.mark.parametrize("special", ["<|endoftext|>", "END", "|||"])
def test_gpt2_export_with_any_special_token_loads_back_with_it(tmp_path, special):
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.bpe.trainer import BPETrainer

    trainer = BPETrainer(TrainerConfig(merges=40, min_frequency=1, special_tokens=(special,)))
    for _ in trainer.run(["low lower lowest newer newest\n" * 5]):
        pass
    model = trainer.model()
    vocab, merges = save_model(model, tmp_path / "m", "gpt2")
    back = load_model(merges)
    assert back.merges == model.merges
    assert back.special_tokens() == model.special_tokens() == {special: 256 + len(model.merges)}


def test_gpt2_files_load_in_hf_tokenizers(byte_model, tmp_path):
    from tokenizers import Tokenizer, models

    vocab, merges = save_model(byte_model, tmp_path / "hf", "gpt2")
    tok = Tokenizer(models.BPE.from_file(str(vocab), str(merges)))
    # HF sees the byte-to-unicode strings; one piece without pre-split equals ours with pattern none
    none_model = BPEModel(mode="byte", pattern="none", merges=byte_model.merges)
    enc = byte_to_unicode()
    for text in ["영화", "hello", "ㅋㅋㅋ"]:
        s = "".join(enc[b] for b in text.encode())
        assert [v for v in tok.encode(s).ids] == none_model.encode(text).ids


def test_subword_nmt_codes_round_trip(char_model, tmp_path):
    (path,) = save_model(char_model, tmp_path / "codes.txt", "subword-nmt")
    assert path.read_text(encoding="utf-8").startswith("#version: 0.2\n")
    back = load_model(path)
    assert [(back.token_piece(a), back.token_piece(b)) for a, b, _ in back.merges] == [
        (char_model.token_piece(a), char_model.token_piece(b)) for a, b, _ in char_model.merges
    ]
    texts = ["영화 정말 재밌다 최고", "배우 연기 좋았다"]
    for text in texts:
        assert [t.raw for t in back.encode(text).tokens] == [t.raw for t in char_model.encode(text).tokens]


def test_format_and_mode_mismatch(byte_model, char_model, tmp_path):
    with pytest.raises(TokvizError, match="byte-mode"):
        save_model(char_model, tmp_path / "x.tiktoken", "tiktoken")
    with pytest.raises(TokvizError, match="char-mode"):
        save_model(byte_model, tmp_path / "x.codes", "subword-nmt")
    with pytest.raises(TokvizError, match="unknown export format"):
        save_model(byte_model, tmp_path / "x", "bin")
    assert set(FORMATS) == {"tokviz", "tiktoken", "subword-nmt", "gpt2"}


def test_bad_files_are_model_file_errors(tmp_path):
    cases = {
        "empty.json": "",
        "broken.json": '{"format": "tokviz-bpe", "mode": "byte", "merges": [[1, 2',
        "damaged.json": '{"format": "tokviz-bpe", "mode": "byte", "merges": [[300, 2, 256]]}',
        "negative.json": '{"format": "tokviz-bpe", "mode": "byte", "merges": [[-1, 2, 256]]}',
        "char-no-base.json": '{"format": "tokviz-bpe", "mode": "char", "merges": [[1, 2, 3]]}',
        "char-bad-id.json": '{"format": "tokviz-bpe", "mode": "char", "base": ["a", "b</w>"], "merges": [[1, 9, 3]]}',
        "old.codes": "t h\nth e</w>\n",
        "bad.codes": "#version: 0.2\nonlyone\n",
        "noise.txt": "hello there\n",
    }
    for name, content in cases.items():
        p = tmp_path / name
        p.write_text(content, encoding="utf-8")
        with pytest.raises(ModelFileError) as info:
            load_model(p)
        assert name in str(info.value)
    with pytest.raises(ModelFileError):
        load_model(tmp_path / "missing.json")


def test_writes_are_atomic(byte_model, tmp_path, monkeypatch):
    path = tmp_path / "m.json"
    save_model(byte_model, path, "tokviz")
    before = path.read_bytes()
    import tokviz.core.bpe.formats as formats

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(formats.os, "replace", boom)
    with pytest.raises(ModelFileError, match="No space left"):
        save_model(byte_model, path, "tokviz")
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]  # no temp file left behind


def test_open_model_file_accepts_every_export(byte_model, char_model, tmp_path):
    from tokviz.core.encoders.builtin import open_model_file

    written = save_model(byte_model, tmp_path / "b.json", "tokviz")
    written += save_model(byte_model, tmp_path / "b.tiktoken", "tiktoken")
    written += save_model(byte_model, tmp_path / "g", "gpt2")
    written += save_model(char_model, tmp_path / "c.codes", "subword-nmt")
    written += save_model(char_model, tmp_path / "c.json", "tokviz")
    for path in written:
        # a rank file records no pre-split pattern: tokviz asks for it instead of guessing
        enc = open_model_file(path, pattern="gpt4" if path.suffix == ".tiktoken" else None)
        m = char_model if path.name.startswith("c.") else byte_model
        if path.suffix == ".codes":
            # codes files hold no base vocabulary, so ids differ; the segmentation must not
            assert [t.raw for t in enc.encode(PROBE[0]).tokens] == [t.raw for t in m.encode(PROBE[0]).tokens]
        else:
            assert enc.encode(PROBE[0]).ids == m.encode(PROBE[0]).ids, path.name
    folder = tmp_path / "gpt2dir"
    folder.mkdir()
    save_model(byte_model, folder, "gpt2")
    assert open_model_file(folder).encode(PROBE[0]).ids == byte_model.encode(PROBE[0]).ids
    assert detect_format(tmp_path / "g-merges.txt") == "gpt2"
    assert gpt2_paths(tmp_path)[0] == tmp_path / "vocab.json"
