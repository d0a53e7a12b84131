"""`tokviz train --algorithm {bpe,wordpiece,unigram} [--vocab-size N] [--jamo]` and its exports."""

from __future__ import annotations

import io
import json
import unicodedata
from pathlib import Path

import pytest

from tokviz.cli import main
from tokviz.core.jamo import decompose, recompose

NSMC = Path(__file__).resolve().parent / "data" / "nsmc_ko_600.txt"


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "reviews.txt"
    with NSMC.open(encoding="utf-8") as f:
        path.write_text("".join(line for _, line in zip(range(300), f, strict=False)), encoding="utf-8")
    return path


def _probe() -> list[str]:
    with NSMC.open(encoding="utf-8") as f:
        return [line for i, line in enumerate(f) if i >= 500]


def test_wordpiece_exports_load_in_tokenizers_and_vocab_txt_is_in_learning_order(corpus, tmp_path, capsys):
    tokenizers = pytest.importorskip("tokenizers")
    tj, vt = tmp_path / "tokenizer.json", tmp_path / "vocab.txt"
    rc = main(["train", str(corpus), "--algorithm", "wordpiece", "--vocab-size", "1200", "-q",
               "--export", "tokenizer-json", str(tj), "--export", "vocab-txt", str(vt)])
    assert rc == 0
    out = capsys.readouterr().out
    assert "vocabulary    1,200 tokens" in out
    vocab = vt.read_text(encoding="utf-8").splitlines()
    assert vocab[:5] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] and len(vocab) == 1200
    from tokviz.core.wordpiece.model import WordPieceModel

    model = WordPieceModel(vocab)
    hf = tokenizers.Tokenizer.from_file(str(tj))
    for line in _probe()[:60]:
        assert hf.encode(line).ids == model.encode(line).ids


def test_unigram_export_encodes_like_the_trainer_model(corpus, tmp_path, capsys):
    tokenizers = pytest.importorskip("tokenizers")
    tj = tmp_path / "unigram.json"
    assert main(["train", str(corpus), "--algorithm", "unigram", "--vocab-size", "900", "-q",
                 "--export", "tokenizer-json", str(tj)]) == 0
    assert "vocabulary    900 tokens" in capsys.readouterr().out
    doc = json.loads(tj.read_text(encoding="utf-8"))
    assert doc["model"]["type"] == "Unigram" and len(doc["model"]["vocab"]) == 900
    hf = tokenizers.Tokenizer.from_file(str(tj))
    assert hf.encode("영화 정말 재밌다").tokens[0].startswith("▁")


def test_byte_bpe_vocab_size_counts_bytes_merges_and_specials(corpus, tmp_path, capsys):
    tj = tmp_path / "bpe.json"
    assert main(["train", str(corpus), "--vocab-size", "400", "--special", "<|endoftext|>", "-q",
                 "--export", "tokenizer-json", str(tj)]) == 0
    out = capsys.readouterr().out
    assert "merges        143 of 143" in out and "vocabulary    400 tokens" in out


@pytest.mark.parametrize("args, message", [
    (["--algorithm", "unigram", "--vocab-size", "5"], "smaller than the"),
    (["--algorithm", "wordpiece", "--export", "gpt2", "OUT"], "wordpiece models export as"),
    (["--algorithm", "unigram", "--special", "<x>"], "--special is for bpe and wordpiece"),
    (["--mode", "char", "--vocab-size", "300"], "give --merges N instead"),
    (["--vocab-size", "100"], "at least 256"),
])
def test_bad_choices_are_messages(corpus, args, message, capsys):
    assert main(["train", str(corpus), "-q", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_jamo_char_mode_equals_subword_nmt_on_nfd_text(corpus, tmp_path, capsys):
    from subword_nmt.learn_bpe import learn_bpe

    text = corpus.read_text(encoding="utf-8")
    single = "".join(" ".join(line.split()) + "\n" for line in text.splitlines() if line.strip())
    corpus.write_text(single, encoding="utf-8")
    codes = tmp_path / "codes.txt"
    assert main(["train", str(corpus), "--mode", "char", "--merges", "300", "--jamo", "-q",
                 "--export", "subword-nmt", str(codes)]) == 0
    nfd = unicodedata.normalize("NFD", single)
    assert decompose(single) == nfd  # the corpus has no other decomposable characters
    ref = io.StringIO()
    learn_bpe(io.StringIO(nfd), ref, 300, min_frequency=2)
    ours = codes.read_text(encoding="utf-8").splitlines()
    assert ours == ref.getvalue().splitlines()
    # the learned pieces are jamo strings; the summary shows them recomposed where they form syllables
    assert any("\u1100" <= ch <= "\u11ff" for line in ours[1:] for ch in line)
    out = capsys.readouterr().out
    assert "jamo" in out
    first = out.split("first merges", 1)[1].splitlines()[0]
    assert first == recompose(first)


def test_jamo_byte_mode_trains_on_jamo_bytes(corpus, tmp_path):
    out = tmp_path / "jamo.json"
    assert main(["train", str(corpus), "--mode", "byte", "--merges", "50", "--jamo", "-q",
                 "--export", "tokviz", str(out)]) == 0
    from tokviz.core.bpe.formats import load_model

    model = load_model(out)
    pieces = [model.token_bytes(t) for _, _, t in model.merges]
    # conjoining jamo are U+1100..U+11FF: UTF-8 lead byte E1 then 84..87; syllables (EA..ED) never appear
    assert any(p.startswith(b"\xe1") for p in pieces)
    assert not any(b in p for p in pieces for b in (b"\xea", b"\xeb", b"\xec", b"\xed"))
