"""Model files built to exhaust memory, panic the native libraries or hold the CLI: each one is a
message, found before anything big is allocated, and Rust's panic text never reaches the terminal.

Sizes that only a header announces (tekken's special-token count, a Precompiled charsmap's trie, a
GGUF token array) are checked against the file and a ceiling first; files are read only when needed
and never past a limit (sparse files stand in for huge ones: they cost no disk); a regex that makes
``tokenizers`` or ``tiktoken`` panic is an EncodingFailed for that text, and compare keeps the other
encoders' rows. Where the old behaviour was an abort, the CLI runs under a memory cap.
"""

from __future__ import annotations

import base64
import json
import os
import resource
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.processes import TOKVIZ_AS_AT_A_TERMINAL
from tokviz.core.compare import compare_text
from tokviz.core.encoders import files as model_files
from tokviz.core.encoders import gguf_family
from tokviz.core.encoders.builtin import open_model_file
from tokviz.core.encoders.gguf_family import read_gguf_vocab
from tokviz.core.encoders.hf_json import HFTokenizerEncoder
from tokviz.core.encoders.rank_models import load_tekken
from tokviz.core.encoders.tiktoken_family import TiktokenEncoder
from tokviz.core.errors import EncodingFailed, ModelFileError

ROOT = Path(__file__).resolve().parents[2]
CAP = 1 << 30  # address space of a CLI child where the old code aborted (it reserved 4-8 GB)
GUARD = 120  # seconds: only keeps a broken child from hanging the suite
BACKTRACKS = "a" * 40 + "!"  # onig gives up on (a+)+$ here: "retry-limit-in-match over"


# ---- files ------------------------------------------------------------------------------------------
def tokenizer_json(*, pre=None, normalizer=None, merges=(), model_type="BPE", vocab=None) -> dict:
    """A small tokenizer.json: printable ASCII as its vocabulary."""
    vocab = dict(vocab or {chr(c): i for i, c in enumerate(range(32, 127))})
    model: dict = {"type": model_type, "vocab": vocab}
    if model_type == "BPE":
        model.update(merges=list(merges), dropout=None, unk_token=None, fuse_unk=False, byte_fallback=False)
    elif model_type == "WordPiece":
        model.update(unk_token="[UNK]", continuing_subword_prefix="##", max_input_chars_per_word=100)
    else:
        model.update(unk_token="[UNK]")
    return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": normalizer,
            "pre_tokenizer": pre, "post_processor": None, "decoder": None, "model": model}


def write_json(path: Path, doc: dict) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def split(regex: str) -> dict:
    return {"type": "Split", "pattern": {"Regex": regex}, "behavior": "Isolated", "invert": False}


def tekken(num_special: int = 1000, pattern: str = r"\S+|\s+") -> dict:
    vocab = [{"rank": i, "token_bytes": base64.b64encode(bytes([i])).decode(), "token_str": None} for i in range(256)]
    return {"config": {"pattern": pattern, "num_vocab_tokens": 256, "default_vocab_size": 256 + num_special,
                       "default_num_special_tokens": num_special, "version": "v7"},
            "vocab": vocab, "special_tokens": []}


def sparse(path: Path, head: bytes, size: int) -> Path:
    """A file of ``size`` bytes (apparent) starting with ``head``; the rest is a hole."""
    with path.open("wb") as fh:
        fh.write(head)
        fh.truncate(size)
    return path


def gguf_tokens(path: Path, tokens: list[str] | None = None, *, empty: int = 0) -> Path:
    """A GGUF holding only a ``gpt2`` tokenizer: ``tokens``, or ``empty`` empty strings (a hole of zeros)."""
    def s(text: str) -> bytes:
        data = text.encode("utf-8")
        return struct.pack("<Q", len(data)) + data

    def kv(key: str, value: str) -> bytes:
        return s(key) + struct.pack("<I", 8) + s(value)

    count = empty if tokens is None else len(tokens)
    head = (b"GGUF" + struct.pack("<IQQ", 3, 0, 3) + kv("tokenizer.ggml.model", "gpt2")
            + kv("tokenizer.ggml.pre", "gpt2") + s("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, count))
    if tokens is not None:
        return sparse(path, head + b"".join(s(t) for t in tokens), len(head) + sum(8 + len(t.encode()) for t in tokens))
    return sparse(path, head, len(head) + 8 * count)


# ---- the CLI ----------------------------------------------------------------------------------------
def cli(*args: str, cap: int | None = None) -> subprocess.CompletedProcess:
    """``tokviz ARGS`` with Rust's full backtrace asked for (the most panic text there could be)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RUST_BACKTRACE": "1", "NO_COLOR": "1"}

    def limit():
        if cap is not None:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return subprocess.run([sys.executable, "-m", "tokviz", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=GUARD, preexec_fn=limit)


def assert_one_line(result: subprocess.CompletedProcess, *needles: str, code: int = 2) -> None:
    assert result.returncode == code, (result.returncode, result.stderr[-2000:])
    assert "panicked" not in result.stderr and "Traceback" not in result.stderr, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tokviz: "), result.stderr[-2000:]
    for needle in needles:
        assert needle in lines[0], lines[0]


# ---- native panics ----------------------------------------------------------------------------------
@pytest.mark.parametrize("component", [
    {"pre": split("(a+)+$")},
    {"normalizer": {"type": "Replace", "pattern": {"Regex": "(a|aa)+$"}, "content": "b"}},
], ids=["split", "replace"])
def test_a_regex_tokenizers_gives_up_on_is_an_encoding_failure(tmp_path, component):
    enc = HFTokenizerEncoder.from_file(write_json(tmp_path / "tokenizer.json", tokenizer_json(**component)))
    with pytest.raises(EncodingFailed, match="gave up"):
        enc.encode(BACKTRACKS)
    assert enc.encode("ab").ids == [65, 66]  # other texts still work


def test_the_normalizer_alone_giving_up_is_an_encoding_failure(tmp_path):
    # the Inspector shows what the normalizer made of a text through normalize(), outside encode()
    normalizer = {"type": "Replace", "pattern": {"Regex": "(a|aa)+$"}, "content": "b"}
    enc = HFTokenizerEncoder.from_file(write_json(tmp_path / "tokenizer.json", tokenizer_json(normalizer=normalizer)))
    with pytest.raises(EncodingFailed, match="normalizer gave up"):
        enc.normalize(BACKTRACKS)


def test_compare_keeps_the_other_rows_when_one_encoder_panics(tmp_path):
    good = HFTokenizerEncoder.from_file(write_json(tmp_path / "good.json", tokenizer_json()), name="good")
    bad = HFTokenizerEncoder.from_file(write_json(tmp_path / "bad.json", tokenizer_json(pre=split("(a+)+$"))),
                                       name="bad")
    good_row, bad_row = compare_text([good, bad], BACKTRACKS)
    assert good_row.ok and good_row.metrics.tokens == len(BACKTRACKS)
    assert not bad_row.ok and "gave up" in bad_row.error


def test_the_cli_prints_one_line_for_a_panicking_regex_and_compare_keeps_rows(tmp_path):
    bad = write_json(tmp_path / "bad.json", tokenizer_json(pre=split("(a+)+$")))
    good = write_json(tmp_path / "good.json", tokenizer_json())
    assert_one_line(cli("encode", "--model", str(bad), BACKTRACKS), "gave up")
    result = cli("compare", "--json", "--model", str(good), "--model", str(bad), BACKTRACKS)
    assert result.returncode == 1 and "panicked" not in result.stderr, result.stderr[-2000:]
    rows = json.loads(result.stdout)["encoders"]
    assert rows[0]["tokens"] == len(BACKTRACKS) and "gave up" in rows[1]["error"]


def test_merges_naming_missing_tokens_are_a_message_without_rust_text(tmp_path):
    # tokenizers panics (a slice past the end of "b") when the merged token "ab" is missing
    path = write_json(tmp_path / "tokenizer.json", tokenizer_json(merges=["a b"]))
    with pytest.raises(ModelFileError, match="needs the token 'ab'"):
        HFTokenizerEncoder.from_file(path)
    assert_one_line(cli("encode", "--model", str(path), "ab"), "needs the token 'ab'")


@pytest.mark.parametrize("model_type", ["WordPiece", "WordLevel"])
def test_a_model_without_its_unknown_token_is_a_model_file_error(tmp_path, model_type):
    path = write_json(tmp_path / "tokenizer.json", tokenizer_json(model_type=model_type))
    with pytest.raises(ModelFileError, match=r"unknown token '\[UNK\]'"):
        HFTokenizerEncoder.from_file(path)


def test_a_tekken_pattern_matching_nothing_is_refused_and_tiktoken_panics_are_encoding_failures(tmp_path):
    with pytest.raises(ModelFileError, match="matches the empty string"):
        load_tekken(write_json(tmp_path / "tekken.json", tekken(pattern="a*")))
    # past the load check (a pattern that matches empty only inside a text), the encode is still a message
    enc = TiktokenEncoder("t", "a*", {bytes([b]): b for b in range(256)}, {}, "test")
    with pytest.raises(EncodingFailed, match="tiktoken gave up"):
        enc.encode("aa!")


# ---- sizes announced by a header --------------------------------------------------------------------
def charsmap_bomb() -> dict:
    # Precompiled charsmap: a 4-byte trie size, the trie, the normalized strings; tokenizers reserves
    # the claimed 0xFFFFFFF0 bytes (as 8.6 GB) before reading the 16 that are there
    blob = struct.pack("<I", 0xFFFFFFF0) + bytes(16)
    return tokenizer_json(normalizer={"type": "Precompiled", "precompiled_charsmap": base64.b64encode(blob).decode()})


@pytest.mark.parametrize(("name", "doc", "needle"), [
    ("tokenizer.json", charsmap_bomb(), "declares a 4,294,967,280-byte trie"),
    ("tekken.json", tekken(num_special=10**6), "1,000,000 special tokens"),
], ids=["precompiled-charsmap", "tekken-specials"])
def test_announced_sizes_are_refused_before_allocating(tmp_path, name, doc, needle):
    path = write_json(tmp_path / name, doc)
    with pytest.raises(ModelFileError, match=needle):
        open_model_file(path)
    # the old code aborted (SIGABRT) or took 22 s and 4.7 GB: under a 1 GB cap it is one line, at once
    assert_one_line(cli("encode", "--model", str(path), "hi", cap=CAP), needle)


@pytest.mark.parametrize(("count", "needle"), [(1000, "is an empty string"), (10**8, "claims 100,000,000 items")],
                         ids=["1000-empty", "1e8-empty-sparse"])
def test_a_gguf_of_empty_tokens_is_refused_at_once(tmp_path, count, needle):
    # 10**7 empty strings loaded as a 1-token vocabulary encoding every text to nothing; 10**8 took 73 s
    path = gguf_tokens(tmp_path / "m.gguf", empty=count)
    with pytest.raises(ModelFileError, match=needle):
        open_model_file(path)


def test_a_gguf_string_past_the_kept_budget_is_refused_unread(tmp_path, monkeypatch):
    # a model file may be 40 GB, so its size bounds nothing: a budget for kept strings does (256 MB,
    # lowered here so a 2 MB token stands in for a 4 GB one)
    monkeypatch.setattr(gguf_family, "MAX_KEPT_BYTES", 1 << 20)
    path = tmp_path / "m.gguf"
    gguf_tokens(path, ["a"])
    data = path.read_bytes()
    at = data.rindex(struct.pack("<Q", 1) + b"a")
    sparse(path, data[:at] + struct.pack("<Q", 2 << 20) + b"a", at + 8 + (2 << 20))
    with pytest.raises(ModelFileError, match="tokenizer metadata passes"):
        read_gguf_vocab(path)


def test_a_gguf_kept_number_array_past_the_ceiling_is_refused_unread(tmp_path):
    # 10**8 token types (a 400 MB hole) would become a list of 10**8 Python ints (~3.6 GB)
    path = gguf_tokens(tmp_path / "m.gguf", ["a"])
    data = path.read_bytes()
    count = 10**8
    data = data[:4 + 4 + 8] + struct.pack("<Q", 4) + data[24:]  # one more metadata entry
    key = b"tokenizer.ggml.token_type"
    head = data + struct.pack("<Q", len(key)) + key + struct.pack("<IIQ", 9, 5, count)  # array of int32
    sparse(path, head, len(head) + 4 * count)
    with pytest.raises(ModelFileError, match="claims 100,000,000 items"):
        read_gguf_vocab(path)


def test_a_gguf_repeating_a_token_is_refused(tmp_path):
    path = gguf_tokens(tmp_path / "m.gguf", ["a", "b", "a"])
    with pytest.raises(ModelFileError, match="token 2 .* repeats token 0"):
        read_gguf_vocab(path)


# ---- files read only when needed, never past a limit ------------------------------------------------
def test_a_600_mb_tokenizer_json_is_refused_unread(tmp_path):
    path = sparse(tmp_path / "tokenizer.json", b'{"version": "1.0", "truncation": null, "padding": null}',
                  600 * 1024 * 1024)
    with pytest.raises(ModelFileError, match="tokviz reads at most"):
        open_model_file(path)


def test_a_200_mb_tekken_json_is_refused_unread(tmp_path):
    # JSON formats cost ~20x their size as Python objects: 128 MB is their limit, not 512 MB
    head = json.dumps(tekken()).encode()[:-1]
    path = sparse(tmp_path / "tekken.json", head, 200 << 20)
    with pytest.raises(ModelFileError, match="tokviz reads at most 134,217,728 bytes"):
        open_model_file(path)


def test_a_rank_file_of_line_breaks_is_refused_before_splitting(tmp_path):
    path = tmp_path / "flood.tiktoken"
    path.write_bytes(b"IQ== 0\n" + b"\n" * (2 * model_files.MAX_VOCAB_ENTRIES + 1))
    with pytest.raises(ModelFileError, match="line breaks"):
        open_model_file(path, pattern="gpt4")


def test_an_encode_never_reads_the_chat_template_and_a_chat_reads_at_most_1_mb(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    write_json(folder / "tokenizer.json", tokenizer_json())
    # not UTF-8 and 64 MB: reading it at all would fail the open
    sparse(folder / "chat_template.jinja", b"\xff", 64 << 20)
    enc = open_model_file(folder)
    assert enc.encode("hi").ids == [72, 73]
    with pytest.raises(ModelFileError, match="at most 1,048,576 bytes"):
        _ = enc.config.chat_template


def test_a_huge_tokenizer_config_is_refused_unread(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    write_json(folder / "tokenizer.json", tokenizer_json())
    sparse(folder / "tokenizer_config.json", b'{"bos_token": "<s>"', 100 << 20)
    with pytest.raises(ModelFileError, match="tokenizer_config.json: is .* tokviz reads at most"):
        open_model_file(folder)


# ---- Ctrl-C during a long native encode -------------------------------------------------------------
def _stderr_is_held(pid: int, original: str) -> bool:
    """The child's file descriptor 2 points away from the pipe: it is inside a native call."""
    try:
        return os.readlink(f"/proc/{pid}/fd/2") != original
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="watches the child through Linux /proc")
def test_ctrl_c_ends_a_long_native_encode(tmp_path):
    # legal but slow: \w*\w*\w*$ backtracks O(n**4) on 250 letters, seconds of native code holding the
    # encode (10.8 s on 300 letters ignored Ctrl-C until it returned)
    path = write_json(tmp_path / "tokenizer.json", tokenizer_json(pre=split(r"\w*\w*\w*$")))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RUST_BACKTRACE": "0"}
    child = subprocess.Popen([sys.executable, "-c", TOKVIZ_AS_AT_A_TERMINAL, "encode", "--model", str(path),
                              "a" * 250 + "!"],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        original = os.readlink(f"/proc/{child.pid}/fd/2")
        deadline = time.monotonic() + GUARD
        while not _stderr_is_held(child.pid, original):
            assert child.poll() is None, "the encode ended before it could be interrupted (no native call seen)"
            assert time.monotonic() < deadline
            time.sleep(0.01)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=GUARD)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    assert err.strip() == "tokviz: interrupted" and out == ""
