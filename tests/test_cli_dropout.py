"""`tokviz encode --dropout P [--seed S] [--samples N]` and `--jamo`: BPE-dropout reachable from the CLI."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.cli import main
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.dropout import boundary_frequencies
from tokviz.core.jamo import decompose

TEXT = "영화 정말 재밌다 😀 ok"


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    from pathlib import Path

    from tokviz.core.bpe.formats import save_model

    corpus = (Path(__file__).resolve().parent / "data" / "nsmc_ko_600.txt").read_text(encoding="utf-8")
    trainer = BPETrainer(TrainerConfig(mode="byte", merges=400, min_frequency=2))
    list(trainer.run([corpus]))
    path = tmp_path_factory.mktemp("m") / "model.json"
    save_model(trainer.model(), path, "tokviz")
    return path, trainer.model()


def ids(capsys, *args):
    assert main(["encode", "--json", *args]) == 0
    return [t["id"] for t in json.loads(capsys.readouterr().out)["tokens"]]


def test_the_three_dropout_properties(model_file, capsys):
    path, model = model_file
    plain = ids(capsys, "--model", str(path), TEXT)
    assert ids(capsys, "--model", str(path), "--dropout", "0", TEXT) == plain  # p=0 is plain encoding
    # p=1 leaves the base tokens: the text's bytes one by one
    assert ids(capsys, "--model", str(path), "--dropout", "1", TEXT) == list(TEXT.encode("utf-8"))
    a = ids(capsys, "--model", str(path), "--dropout", "0.4", "--seed", "7", TEXT)
    assert a == ids(capsys, "--model", str(path), "--dropout", "0.4", "--seed", "7", TEXT)  # same seed, same result
    others = {tuple(ids(capsys, "--model", str(path), "--dropout", "0.4", "--seed", str(s), TEXT)) for s in range(8)}
    assert len(others) > 1 and all(model.decode(list(o)) == TEXT for o in others)


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("영화정말재밌다 ok😀\n")), max_size=30),
       p=st.floats(0, 1), seed=st.integers(0, 2**31))
def test_dropout_always_round_trips(model_file, text, p, seed):
    _, model = model_file
    enc = model.encode_dropout(text, p, seed=seed)
    assert model.decode(enc.ids) == text
    assert b"".join(t.bytes for t in enc.tokens) == text.encode("utf-8")


def test_samples_summary(model_file, capsys):
    path, model = model_file
    assert main(["encode", "--model", str(path), "--dropout", "0.3", "--seed", "1", "--samples", "100",
                 "--json", "영화 정말"]) == 0
    doc = json.loads(capsys.readouterr().out)
    stats = boundary_frequencies(model, "영화 정말", p=0.3, samples=100, seed=1)
    assert doc["samples"] == 100 and doc["mean_tokens"] == pytest.approx(stats.mean_tokens())
    by_byte = {b["byte"]: b for b in doc["boundaries"]}
    # the boundaries of plain encoding are there; a word boundary is never merged across
    assert {b for b, v in by_byte.items() if v["plain"]} == set(stats.plain)
    assert by_byte[6]["frequency"] == 1.0  # before the space: the pre-split never joins 화 and ' 정'
    assert any(0 < v["frequency"] < 1 for v in by_byte.values())
    assert main(["encode", "--model", str(path), "--dropout", "0.3", "--samples", "20", "영화 정말"]) == 0
    assert "inside 영 (bytes 1–1 | 2–3)" in capsys.readouterr().out


def test_samples_as_ndjson_are_the_json_document_one_row_per_line(model_file, capsys):
    """--ndjson with --samples used to print the text table: a script reading lines got no JSON."""
    path, _ = model_file
    common = ["encode", "--model", str(path), "--dropout", "0.3", "--seed", "1", "--samples", "50"]
    assert main([*common, "--json", "영화 정말 👍"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert main([*common, "--ndjson", "영화 정말 👍"]) == 0
    head, *rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert head == {k: doc[k] for k in ("encoder", "p", "samples", "mean_tokens")}
    assert rows == doc["boundaries"] and rows


@pytest.mark.parametrize("args, message", [
    (["-e", "sp:demo_unigram", "--dropout", "0.1"], "cannot encode with BPE-dropout"),
    (["-e", "qwen", "--dropout", "0.1"], "normalizes text to NFC"),  # rank files drop merges unless they cannot
    (["--dropout", "1.5"], "between 0 and 1"),
    (["--seed", "3"], "go with --dropout"),
    (["--dropout", "0.1", "--samples", "0"], "samples must be between"),
])
def test_bad_dropout_arguments(model_file, args, message, capsys):
    path, _ = model_file
    if "-e" not in args:
        args = ["--model", str(path), *args]
    assert main(["encode", *args, "x"]) == 2
    assert message in capsys.readouterr().err


@pytest.fixture(scope="module")
def jamo_exports(tmp_path_factory):
    """A byte BPE trained with --jamo, as a tokviz file (records jamo) and a tiktoken file (does not)."""
    tmp = tmp_path_factory.mktemp("jamo")
    corpus = tmp / "c.txt"
    corpus.write_text("갔다 갔다 갔다 갔어 갔어 가다 가다\n" * 5, encoding="utf-8")
    tokviz_file, rank_file = tmp / "jamo.json", tmp / "jamo.tiktoken"
    assert main(["train", str(corpus), "--merges", "20", "--jamo", "-q", "--export", "tokviz", str(tokviz_file),
                 "--export", "tiktoken", str(rank_file)]) == 0
    return tokviz_file, rank_file


def _encode_json(capsys, *args) -> tuple[dict, str]:
    capsys.readouterr()
    assert main(["encode", "--json", *args]) == 0
    got = capsys.readouterr()
    return json.loads(got.out), got.err


def test_a_tokviz_jamo_model_reads_the_users_text(jamo_exports, capsys):
    doc, err = _encode_json(capsys, "--model", str(jamo_exports[0]), "갔다")
    assert doc["text"] == "갔다"  # spans refer to what the user typed
    assert b"".join(bytes.fromhex(t["bytes"]) for t in doc["tokens"]) == decompose("갔다").encode()
    assert all(t["kind"] != "unknown" for t in doc["tokens"])
    assert doc["tokens"][-1]["end"] == 2 and err == ""
    # --jamo on such a file changes nothing but says it is not needed (decomposing twice lost the spans)
    again, err = _encode_json(capsys, "--model", str(jamo_exports[0]), "--jamo", "갔다")
    assert again == doc and "--jamo is not needed" in err


def test_jamo_flag_decomposes_for_a_file_that_does_not_record_it(jamo_exports, capsys):
    rank = ["--model", str(jamo_exports[1]), "--pattern", "gpt4"]
    doc, _ = _encode_json(capsys, *rank, "--jamo", "갔다")
    assert doc["text"] == decompose("갔다")
    assert b"".join(bytes.fromhex(t["bytes"]) for t in doc["tokens"]) == decompose("갔다").encode()
    plain, _ = _encode_json(capsys, *rank, "갔다")  # without it, the syllables' bytes meet jamo merges
    assert len(plain["ids"]) > len(doc["ids"])
