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


@pytest.mark.parametrize("args, message", [
    (["-e", "cl100k_base", "--dropout", "0.1"], "cannot encode with BPE-dropout"),
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


def test_jamo_text_reaches_a_jamo_model(tmp_path, capsys):
    corpus = tmp_path / "c.txt"
    corpus.write_text("갔다 갔다 갔다 갔어 갔어 가다 가다\n" * 5, encoding="utf-8")
    out = tmp_path / "jamo.json"
    assert main(["train", str(corpus), "--mode", "char", "--merges", "20", "--jamo", "-q",
                 "--export", "tokviz", str(out)]) == 0
    capsys.readouterr()
    assert main(["encode", "--model", str(out), "--jamo", "--json", "갔다"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "".join(t["piece"].removesuffix("</w>") for t in doc["tokens"]) == decompose("갔다")
    assert all(t["kind"] != "unknown" for t in doc["tokens"])
