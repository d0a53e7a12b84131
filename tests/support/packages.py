"""Genuine model files shipped inside PyPI packages: a test that needs one is skipped when its package
is not installed."""

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


def mistral_model(name: str) -> Path:
    """One of mistral-common's SentencePiece / tekken files."""
    return package_file("mistral_common", "data", name)
