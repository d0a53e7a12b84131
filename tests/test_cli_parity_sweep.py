"""``tokviz parity`` and ``tokviz sweep``: the issue's JSON keys, counts equal the encoders', CSV
written, Hangul safe on a terminal that cannot show it, exit 1 for a failed encoder and 2 (a
message, nothing measured or written) for a bad request; neither imports Qt."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest

from tokviz import resources_dir
from tokviz.cli import main
from tokviz.core.encoders.builtin import default_registry

CORPUS = resources_dir() / "corpora" / "demo.txt"
PARALLEL = resources_dir() / "parallel"


def run_json(argv, capsys):
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else None, captured.err


def test_parity_json_has_the_issue_shape_and_genuine_counts(capsys):
    code, doc, _ = run_json(["parity", "-e", "gpt2", "-e", "o200k_base"], capsys)
    assert code == 0 and doc["reference"] == "en"
    assert list(doc["encoders"]) == ["gpt2", "o200k_base"]
    o200k = default_registry().get("o200k_base")
    lines = (PARALLEL / "ko.txt").read_text(encoding="utf-8").splitlines()
    ko = doc["encoders"]["o200k_base"]["ko"]
    assert ko["line_tokens"] == [len(o200k.encode(line)) for line in lines]
    assert ko["tokens"] == sum(ko["line_tokens"])
    assert ko["premium"] == round(ko["tokens"] / doc["encoders"]["o200k_base"]["en"]["tokens"], 4)
    assert {"fertility", "chars_per_token", "bytes_per_token", "continued_share", "renyi_efficiency", "gini",
            "line_premium"} <= set(ko)
    assert doc["encoders"]["gpt2"]["ko"]["premium"] > ko["premium"]  # o200k is fairer to Korean than gpt2


def test_parity_csv_and_a_failed_encoder(tmp_path, capsys):
    out = tmp_path / "parity.csv"
    code, doc, _ = run_json(["parity", "-e", "gpt2", "-e", "no-such", "--csv", str(out)], capsys)
    assert code == 1 and "no such encoder" in doc["encoders"]["no-such"]["error"]
    with open(out, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12 and {r["encoder"] for r in rows} == {"gpt2"}
    assert next(r for r in rows if r["language"] == "en")["premium"] == "1.0"


def test_parity_table_names_each_language_in_itself(capsys):
    assert main(["parity", "-e", "gpt2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    ko = next(line for line in lines if line.startswith("ko "))
    assert ko.endswith("한국어") and "(789)" in ko  # gpt2 spends 789 tokens on the Korean sentences
    assert any(line.startswith("en (reference)") and "1.00 (150)" in line for line in lines)


def test_parity_table_survives_a_terminal_that_cannot_show_hangul(tmp_path, monkeypatch, capsys):
    (tmp_path / "en.txt").write_text("one\n", encoding="utf-8")
    (tmp_path / "한국어.txt").write_text("하나 👋\n", encoding="utf-8")
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    assert main(["parity", "-e", "gpt2", "--corpus", str(tmp_path)]) == 0
    sys.stdout.flush()
    text = raw.getvalue().decode("ascii")
    assert "\\ud55c\\uad6d\\uc5b4" in text and "(reference)" in text


@pytest.mark.parametrize("argv, message", [
    (["--corpus", "{tmp}/none"], "no such folder"),
    (["--reference", "xx"], "no xx.txt"),
    (["--csv", "{tmp}"], "is a folder"),
])
def test_parity_bad_requests_exit_2(tmp_path, capsys, argv, message):
    argv = [a.format(tmp=tmp_path) for a in argv]
    assert main(["parity", "-e", "gpt2", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_sweep_json_points_and_encoder_points(tmp_path, capsys):
    out = tmp_path / "sweep.csv"
    code, doc, _ = run_json(["sweep", str(CORPUS), "--heldout", str(PARALLEL / "ko.txt"), "--merges", "20,200",
                             "-e", "gpt2", "--csv", str(out), "-q"], capsys)
    assert code == 0 and doc["algorithm"] == "bpe"
    assert [(p["merges"], p["vocab_size"]) for p in doc["points"]] == [(20, 276), (200, 456)]
    chars = len((PARALLEL / "ko.txt").read_text(encoding="utf-8"))
    assert all(p["chars"] == chars and p["tokens"] > 0 and "unused_share" in p for p in doc["points"])
    (gpt2,) = doc["encoders"]
    assert gpt2["label"] == "gpt2" and gpt2["vocab_size"] == 50257
    assert gpt2["tokens"] == len(default_registry().get("gpt2").encode((PARALLEL / "ko.txt").read_text("utf-8")))
    with open(out, encoding="utf-8", newline="") as f:
        assert [r["kind"] for r in csv.DictReader(f)] == ["trained", "trained", "encoder"]


def test_sweep_table(capsys):
    assert main(["sweep", str(CORPUS), "--heldout", str(PARALLEL / "en.txt"), "--algorithm", "wordpiece",
                 "--vocab-sizes", "1200", "-e", "gpt2", "-q"]) == 0
    out = capsys.readouterr().out
    assert "wordpiece 1,200" in out and "gpt2" in out and "chars/tok" in out


@pytest.mark.parametrize("argv, message", [
    (["--algorithm", "wordpiece", "--merges", "10"], "vocabulary sizes, not merges"),
    (["--mode", "char", "--vocab-sizes", "500"], "give merges"),
    (["--heldout", "{tmp}/none.txt", "--merges", "10"], "no such file"),
])
def test_sweep_bad_requests_exit_2_before_training(tmp_path, capsys, argv, message):
    argv = [a.format(tmp=tmp_path) for a in argv]
    if "--heldout" not in argv:
        argv += ["--heldout", str(PARALLEL / "en.txt")]
    assert main(["sweep", str(CORPUS), *argv]) == 2
    assert message in capsys.readouterr().err


def test_sweep_sizes_must_be_numbers(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["sweep", str(CORPUS), "--heldout", str(CORPUS), "--merges", "10,ten"])
    assert stop.value.code == 2 and "whole numbers" in capsys.readouterr().err


