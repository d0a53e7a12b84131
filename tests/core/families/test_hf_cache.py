"""The Hugging Face cache as a source: a cache tree laid out as huggingface_hub lays it out (blobs,
snapshots of symlinks, refs/main), built from packaged tokenizer files; nothing is downloaded."""

from __future__ import annotations

import json
import os

import pytest

from tests.support.hf_cache import HASH, OLD, add_repo
from tests.support.packages import mistral_model
from tokviz.cli import main
from tokviz.core.encoders import builtin, hf_cache
from tokviz.core.errors import ModelFileError


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An HF_HOME whose hub holds a SentencePiece repo (Mistral's packaged model) and a hostile one."""
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    root = tmp_path / "hf" / "hub"
    model = mistral_model("tokenizer.model.v1").read_bytes()
    add_repo(root, "mistralai/Mistral-7B-v0.1", {"tokenizer.model": model, "config.json": b"{}"})
    # an older snapshot refs/main no longer names: never the one opened
    add_repo(root, "mistralai/Mistral-7B-v0.1", {"tokenizer.model": b"not a model"}, snapshot=OLD)
    # a snapshot whose link leads out of the cache: not followed, not listed
    outside = tmp_path / "secret.model"
    outside.write_bytes(model)
    evil = root / hf_cache.repo_folder_name("evil/leak") / "snapshots" / HASH
    evil.mkdir(parents=True)
    (evil / "tokenizer.model").symlink_to(outside)
    # a snapshot whose tokenizer.json leads out of the repo beside a tokenizer.model that does not
    mixed = add_repo(root, "mixed/links", {"tokenizer.model": model}) / "snapshots" / HASH
    (tmp_path / "outside.json").write_text('{"model": {"type": "BPE"}}', encoding="utf-8")
    (mixed / "tokenizer.json").symlink_to(tmp_path / "outside.json")
    # a ref that tries to climb out, and a repo without any tokenizer
    add_repo(root, "odd/ref", {"tokenizer.model": model}, ref="../../../x")
    add_repo(root, "no/tokenizer", {"config.json": b"{}"})
    add_repo(root, "gpt2", {"tokenizer.model": model})  # named like a built-in encoder
    # a FIFO where the tokenizer should be (opening it would block) and a link that loops
    fifo = add_repo(root, "odd/fifo", {}) / "snapshots" / HASH
    os.mkfifo(fifo / "tokenizer.json")
    (fifo / "tokenizer.model").symlink_to("tokenizer.model")
    monkeypatch.setattr(builtin, "_default", None)  # the process-wide registry is rebuilt from this cache
    return root


def test_cache_root_follows_huggingface_hub(tmp_path, monkeypatch):
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert hf_cache.cache_root() == tmp_path / ".cache" / "huggingface" / "hub"
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    assert hf_cache.cache_root() == tmp_path / "home" / "hub"
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    assert hf_cache.cache_root() == tmp_path / "hub"


def test_listing_finds_current_snapshots_and_follows_links_only_inside_the_repo(cache):
    found = {m.repo_id: m for m in hf_cache.cached_models()}
    assert set(found) == {"mistralai/Mistral-7B-v0.1", "odd/ref", "gpt2", "mixed/links"}
    assert (
        found["mixed/links"].file.name == "tokenizer.model"
    )  # the link out of the repo is passed over  # no leak, no repo without a tokenizer
    assert found["mistralai/Mistral-7B-v0.1"].snapshot.name == HASH
    # a ref that names no snapshot falls back to the snapshot there is
    assert found["odd/ref"].snapshot.name == HASH


def test_encoders_lists_the_cache_and_a_repo_id_opens(cache, capsys):
    assert main(["encoders", "--json"]) == 0
    listed = {e["name"]: e for e in json.loads(capsys.readouterr().out)}
    entry = listed["mistralai/Mistral-7B-v0.1"]
    assert entry["available"] and entry["family"] == hf_cache.FAMILY and "evil/leak" not in listed
    # the built-in gpt2 keeps its name; the cached one is told apart, and says so when it encodes
    assert listed["gpt2"]["family"] != hf_cache.FAMILY and listed["gpt2 (HF cache)"]["family"] == hf_cache.FAMILY
    assert builtin.default_registry().get("gpt2 (HF cache)").name == "gpt2 (HF cache)"
    want = builtin.default_registry().get("mistral-sp-v1").encode("안녕 world").ids
    for argv in (
        ["-e", "mistralai/Mistral-7B-v0.1"],
        ["--model", "mistralai/Mistral-7B-v0.1"],
        ["--model", str(cache / "models--mistralai--Mistral-7B-v0.1")],
        ["-e", "mixed/links"],
        ["--model", str(cache / "models--mixed--links")],
    ):
        assert main(["encode", *argv, "--json", "안녕 world"]) == 0, argv
        assert json.loads(capsys.readouterr().out)["ids"] == want, argv


def test_an_uncached_repo_id_is_a_message_not_a_download(cache, capsys):
    assert main(["encode", "--model", "Qwen/Qwen2.5-7B-Instruct", "x"]) == 2
    err = capsys.readouterr().err
    assert "Hugging Face cache" in err and "never downloads" in err and "Traceback" not in err
    with pytest.raises(ModelFileError, match="is a folder"):
        builtin.open_model_file(cache / "models--no--tokenizer")


def test_crosscheck_reads_only_what_the_repo_holds(cache, capsys):
    assert main(["crosscheck", "mixed/links", "안녕 world", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["implementations"] == ["tokenizer.model via sentencepiece", "tokenizer.model via tokviz"]
