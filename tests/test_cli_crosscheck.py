"""``tokviz crosscheck``: a model folder whose tokenizer.model and tokenizer.json hold the same Unigram
vocabulary, the JSON one without SentencePiece's NFKC normalizer: they agree on plain lines and part
where the normalizer acts (ﬁ, ①, a double space)."""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest

from tokviz.cli import main

DEMO = Path(__file__).resolve().parent.parent / "resources" / "models" / "demo_unigram.model"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    import sentencepiece as spm
    from tokenizers import Tokenizer, models, pre_tokenizers

    out = tmp_path_factory.mktemp("model")
    shutil.copy(DEMO, out / "tokenizer.model")
    sp = spm.SentencePieceProcessor(model_file=str(DEMO))
    vocab = [(sp.id_to_piece(i), sp.get_score(i)) for i in range(sp.get_piece_size())]
    tok = Tokenizer(models.Unigram(vocab, unk_id=sp.unk_id(), byte_fallback=True))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    (out / "tokenizer.json").write_text(tok.to_str(), encoding="utf-8")
    return out


def run(argv, capsys):
    code = main(["crosscheck", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_all_four_implementations_agree_on_plain_lines(folder, capsys):
    code, out, _ = run([str(folder), "hello world\n안녕하세요 여러분"], capsys)
    assert code == 0
    assert (
        "tokenizer.json via tokenizers, tokenizer.json via tokviz, tokenizer.model via sentencepiece, "
        "tokenizer.model via tokviz" in out
    )
    assert out.rstrip().endswith("2 lines: all agree")


def test_a_differing_line_names_the_first_differing_token(folder, tmp_path, capsys):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("hello world\nﬁne\n\nthe fox\n", encoding="utf-8")
    code, out, _ = run([str(folder), "--file", str(corpus), "--json"], capsys)
    doc = json.loads(out)
    assert code == 1 and not doc["agree"] and doc["lines"] == 4
    assert {d["line"] for d in doc["differences"]} == {2}
    first = doc["differences"][0]
    assert first["reference"] == "tokenizer.json via tokenizers"
    assert first["implementation"] == "tokenizer.model via sentencepiece"
    assert first["index"] == 0 and first["ids"][0] != first["ids"][1]
    code, out, _ = run([str(folder), "--file", str(corpus)], capsys)
    assert code == 1 and "line 2, token 0: tokenizer.model via sentencepiece gives" in out
    assert out.rstrip().endswith("4 lines: 1 differ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["no/such-repo", "x"], "no such repo in the Hugging Face cache"),
        (["{ranks}", "x", "--pattern", "gpt2"], "only one implementation"),
        (["{folder}", "x", "--file", "c.txt"], "either TEXT or --file"),
        (["{folder}", ""], "the text is empty"),
        (["{empty}", "x"], "holds no model file tokviz reads"),
    ],
)
def test_bad_input_is_a_message_and_status_2(argv, message, folder, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    (tmp_path / "empty").mkdir()
    ranks = tmp_path / "bytes.tiktoken"  # only tokviz reads a rank file
    ranks.write_bytes(b"".join(base64.b64encode(bytes([b])) + b" %d\n" % b for b in range(256)))
    code, out, err = run([a.format(folder=folder, ranks=ranks, empty=tmp_path / "empty") for a in argv], capsys)
    assert code == 2 and message in err and "Traceback" not in err


def test_tekken_is_checked_against_mistral_common(tmp_path, capsys):
    pytest.importorskip("mistral_common")
    from tests.support.packages import package_file

    doc = json.loads(package_file("mistral_common", "data", "tekken_240911.json").read_text(encoding="utf-8"))
    n = 1256  # the 256 bytes and the first 1,000 merges: enough to agree on, quick to load
    doc["vocab"] = doc["vocab"][:n]
    doc.pop("image", None)
    doc["config"].update(num_vocab_tokens=n, default_vocab_size=n + doc["config"]["default_num_special_tokens"])
    (tmp_path / "tekken.json").write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = run([str(tmp_path), "hello world\n안녕하세요 [INST]", "--json"], capsys)
    report = json.loads(out)
    assert report["implementations"] == ["tekken.json via mistral-common", "tekken.json via tokviz"]
    assert code == 0 and report["agree"] and report["lines"] == 2
