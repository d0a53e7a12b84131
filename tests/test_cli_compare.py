"""``tokviz compare``: JSON with the issue's keys, counts equal tiktoken's, error entries for
unknown encoders and bad model files, stdin, a readable table, and no Qt import."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from tokviz.cli import main
from tokviz.core.encoders.builtin import default_registry

KEYS = {"encoder", "tokens", "chars_per_token", "bytes_per_token", "fertility", "partial_tokens",
        "fallback_tokens", "round_trip"}
TEXT = "안녕하세요 world 👋🏽 1234"


def run_json(argv, capsys):
    code = main(["compare", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_json_has_the_issue_keys_and_genuine_counts(capsys):
    code, out = run_json(["-e", "gpt2", "-e", "cl100k_base", "-e", "o200k_base", TEXT], capsys)
    assert code == 0
    reg = default_registry()
    for entry in out["encoders"]:
        assert KEYS <= set(entry)
        assert entry["tokens"] == len(reg.get(entry["encoder"]).tiktoken.encode_ordinary(TEXT))
        assert entry["round_trip"] is True
    assert [e["encoder"] for e in out["encoders"]] == ["gpt2", "cl100k_base", "o200k_base"]


def test_anyonghaseyo_costs_14_tokens_in_gpt2_and_2_in_o200k(capsys):
    _, out = run_json(["-e", "gpt2", "-e", "o200k_base", "안녕하세요"], capsys)
    assert [e["tokens"] for e in out["encoders"]] == [14, 2]
    assert out["encoders"][0]["partial_tokens"] > 0


def test_unknown_encoder_and_bad_model_file_are_error_entries(tmp_path, capsys):
    bad = tmp_path / "broken.model"
    bad.write_bytes(b"\x00\x01 this is not a sentencepiece model")
    code, out = run_json(["-e", "gpt2", "-e", "no-such-encoder", "--model", str(bad), "hi"], capsys)
    assert code == 1
    entries = {e["encoder"]: e for e in out["encoders"]}
    assert entries["gpt2"]["tokens"] == 1
    assert "no such encoder" in entries["no-such-encoder"]["error"]
    assert str(bad) in entries and entries[str(bad)]["error"]


def test_model_file_is_compared(capsys):
    model = Path(__file__).resolve().parent.parent / "resources" / "models" / "demo_unigram.model"
    code, out = run_json(["--model", str(model), "안녕하세요"], capsys)
    assert code == 0
    assert out["encoders"][0]["tokens"] >= 1


def test_default_encoders_include_sentencepiece(capsys):
    _, out = run_json(["hello"], capsys)
    names = [e["encoder"] for e in out["encoders"]]
    assert names[:3] == ["gpt2", "cl100k_base", "o200k_base"] and "sp:demo_unigram" in names


def test_stdin_and_empty_text(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("줄 하나\n".encode()), encoding="utf-8"))
    code, out = run_json(["-e", "o200k_base", "-"], capsys)
    assert code == 0 and out["text_characters"] == 5
    code, out = run_json(["-e", "o200k_base", ""], capsys)
    assert code == 0 and out["encoders"][0]["tokens"] == 0


def test_bad_stdin_and_lone_surrogate_are_messages(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe"), encoding="utf-8"))
    assert main(["compare", "-e", "gpt2", "-"]) == 2
    assert "not UTF-8" in capsys.readouterr().err
    assert main(["compare", "-e", "gpt2", "a\udcffb"]) == 2
    assert "lone surrogate" in capsys.readouterr().err


def test_table_output(capsys):
    assert main(["compare", "-e", "gpt2", "-e", "nope", "안녕"]) == 1
    out = capsys.readouterr().out
    assert "chars/tok" in out and "gpt2" in out and "error: " in out


def test_an_error_entry_says_the_path_or_name_once(tmp_path, capsys):
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"junk")
    assert main(["compare", "-e", "gpt2", "-e", "nope", "--model", str(bad), "hi"]) == 1
    errors = [ln.strip() for ln in capsys.readouterr().out.splitlines() if ln.strip().startswith("error:")]
    assert len(errors) == 2
    assert errors[0].startswith("error: nope: no such encoder") and errors[0].count("nope") == 1
    assert errors[1].startswith(f"error: {bad}: not a model format") and errors[1].count(str(bad)) == 1


def test_exit_status_is_the_same_for_every_kind_of_encoder_failure(tmp_path, capsys):
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"junk")
    missing = tmp_path / "missing.tiktoken"
    cases = {
        ("-e", "nope"): 1, ("--model", str(bad)): 1, ("--model", str(missing)): 1,
        ("-e", "gpt2", "-e", "nope"): 1, ("-e", "gpt2", "--model", str(bad)): 1, ("-e", "gpt2"): 0,
    }
    for argv, status in cases.items():
        assert main(["compare", *argv, "hi"]) == status, argv
    assert main(["compare", "-e", "gpt2", "a\udcffb"]) == 2  # the command itself is wrong
    capsys.readouterr()


def test_help_documents_the_exit_status(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 every encoder was measured; 1 at least one encoder" in out
    assert "2 nothing was compared" in out
