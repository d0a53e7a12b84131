"""``tokviz vocab``: the JSON the issue names, the export that tokviz encode then reads with dropout,
Korean/emoji-safe output, and bad input as a message with exit status 2."""

from __future__ import annotations

import io
import json
import sys

import pytest

from tokviz.cli import main


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def available(name: str) -> None:
    from tokviz.core.encoders.builtin import default_registry

    status = {s.name: s for s in default_registry().statuses()}.get(name)
    if status is None or not status.available:
        pytest.skip(f"{name} is not available here")


def test_unreachable_json_lists_ids(capsys):
    available("o200k_base")
    code, out, _ = run(["vocab", "unreachable", "-e", "o200k_base", "--json"], capsys)
    doc = json.loads(out)
    assert code == 0 and 3914 in doc["unreachable"] and doc["encodes_as"]["3914"] == [198, 393]
    assert set(doc) >= {"unreachable", "partial_utf8", "rule", "checked"}


def test_diff_json_counts_and_lists(capsys):
    available("r50k_base")
    available("p50k_base")
    code, out, _ = run(["vocab", "diff", "-e", "r50k_base", "-e", "p50k_base", "--json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["shared"] == 50_256 == doc["same_id"] and len(doc["shared_tokens"]) == 50_256
    # p50k_base adds runs of 2-25 spaces, minus the ones r50k_base already had
    assert doc["only_second"] == len(doc["only_second_tokens"]) > 0 and doc["only_first_tokens"] == []
    assert all(set(row[0]) == {" "} for row in doc["only_second_tokens"])
    assert doc["specials"]["shared"] == ["<|endoftext|>"]


def test_tree_of_a_korean_token_prints_korean(capsys):
    available("o200k_base")
    code, out, _ = run(["vocab", "tree", "-e", "o200k_base", " 생각", "--json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["tree"]["token"] == " 생각" and "completes 생" in json.dumps(doc, ensure_ascii=False)
    code, out, _ = run(["vocab", "tree", "-e", "o200k_base", " 생각"], capsys)
    assert code == 0 and "생 bytes 1–2 of 3" in out


def test_output_on_a_terminal_that_is_not_utf8_escapes_instead_of_failing(capsys, monkeypatch):
    available("o200k_base")
    buffer = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(buffer, encoding="ascii"))
    assert main(["vocab", "tree", "-e", "o200k_base", "#45341"]) == 0
    sys.stdout.flush()
    assert b"\\uc0dd" in buffer.getvalue() or b"\\xec" in buffer.getvalue()


def test_export_then_encode_with_dropout(capsys, tmp_path):
    available("cl100k_base")
    out_file = tmp_path / "cl100k-merges.json"
    code, _, err = run(["vocab", "merges", "-e", "cl100k_base", "--export", "tokviz", str(out_file)], capsys)
    assert code == 0 and "wrote" in err and out_file.is_file()
    code, out, _ = run(["encode", "--model", str(out_file), "--json", "생각해 봅시다 🤖"], capsys)
    from tests.support.vocabularies import VARIED_PROMPTS
    from tokviz.core.bpe.formats import load_model
    from tokviz.core.encoders.builtin import default_registry

    tt = default_registry().get("cl100k_base").tiktoken
    original = json.loads(out_file.read_text(encoding="utf-8"))["training"]["original_ids"]
    assert code == 0 and [original[i] for i in json.loads(out)["ids"]] == tt.encode_ordinary("생각해 봅시다 🤖")
    model = load_model(out_file)
    for text in VARIED_PROMPTS:  # the recovered model encodes exactly like tiktoken
        assert [original[i] for i in model.encode(text).ids] == tt.encode_ordinary(text), text
    code, out, _ = run(["encode", "--model", str(out_file), "--dropout", "0.5", "--seed", "3", "--json", "생각"],
                       capsys)
    assert code == 0 and json.loads(out)["ids"]


def test_merges_json_reports_unbuilt_tokens(capsys):
    available("llama-3")
    code, out, _ = run(["vocab", "merges", "-e", "llama-3", "--json", "--limit", "2"], capsys)
    doc = json.loads(out)
    assert code == 0 and len(doc["merges"]) == 2 and doc["unbuilt_count"] == 678
    dotcolon = next(u for u in doc["unbuilt"] if u["token"] == ".:.:")
    assert len(dotcolon["stops_at"]) == 3 and dotcolon["context_splits"]


def test_maps_csv(capsys, tmp_path):
    available("o200k_base")
    target = tmp_path / "numbers.csv"
    code, out, _ = run(["vocab", "maps", "-e", "o200k_base", "--upto", "200", "--csv", str(target)], capsys)
    lines = target.read_text(encoding="utf-8").splitlines()
    assert code == 0 and len(lines) == 201 and lines[0].startswith("encoder,kind") and "o200k_base" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["vocab", "diff", "-e", "o200k_base"], "two encoders"),
    (["vocab", "tree", "-e", "o200k_base", "qqqqzzzzxxxx"], "no token matching"),
    (["vocab", "merges", "-e", "sp:demo_unigram"], "not a byte-level rank vocabulary"),
    (["vocab", "merges", "-e", "o200k_base", "--export", "gpt2", "x"], "tokviz format only"),
    (["vocab", "maps", "-e", "o200k_base", "--upto", "0"], "number map covers"),
    (["vocab", "use", "-e", "o200k_base", "--script", "klingon", "x.txt"], "unknown script"),
    (["vocab", "unreachable", "-e", "no-such-encoder"], "no-such-encoder"),
])
def test_bad_input_is_a_message_and_exit_2(capsys, argv, message):
    code, out, err = run(argv, capsys)
    assert code == 2 and message in err and "Traceback" not in err and out == ""


def test_use_with_a_non_utf8_corpus_is_refused(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe not utf-8")
    code, _, err = run(["vocab", "use", "-e", "o200k_base", str(bad)], capsys)
    assert code == 2 and "not UTF-8" in err


def test_use_counts_a_korean_corpus(capsys, tmp_path):
    available("o200k_base")
    corpus = tmp_path / "nsmc.txt"
    corpus.write_text("영화 정말 재밌어요\n별로였다\n\n최고의 영화!\n", encoding="utf-8")
    code, out, _ = run(["vocab", "use", "-e", "o200k_base", str(corpus), "--json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["texts"] == 3 and doc["script_tokens"] == 2360 and 0 < doc["script_used"] < 20


def test_encode_with_dropout_on_a_rank_vocabulary_keeps_its_ids(capsys):
    available("cl100k_base")
    from tokviz.core.encoders.builtin import default_registry

    tt = default_registry().get("cl100k_base").tiktoken
    text = "생각해 봅시다 indentation 🤖"
    code, out, _ = run(["encode", "-e", "cl100k_base", "--dropout", "0", "--json", text], capsys)
    assert code == 0 and json.loads(out)["ids"] == tt.encode_ordinary(text)  # p=0: exactly the encoder
    code, out, _ = run(["encode", "-e", "cl100k_base", "--dropout", "1", "--json", text], capsys)
    single = {tt.encode_single_token(bytes([b])) for b in text.encode()}
    assert code == 0 and set(json.loads(out)["ids"]) <= single  # p=1: every merge dropped, the byte tokens' ids
    code, out, _ = run(["encode", "-e", "cl100k_base", "--dropout", "0.4", "--seed", "5", "--json", text], capsys)
    doc = json.loads(out)
    assert code == 0 and b"".join(tt.decode_single_token_bytes(i) for i in doc["ids"]) == text.encode()
