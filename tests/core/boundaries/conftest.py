"""Encoders for the boundary tests: the two OpenAI vocabularies the issue asks for, and their brute-force
vocabulary tables (built here by a plain scan, not by the code under test)."""

from __future__ import annotations

import pytest

from tests.support.boundary_encoders import brute_vocab
from tokviz.core.encoders.builtin import default_registry


@pytest.fixture(scope="session", params=["cl100k_base", "o200k_base"])
def openai(request):
    """(encoder, its vocabulary as {id: bytes}) for cl100k_base and o200k_base."""
    encoder = default_registry().get(request.param)
    return encoder, brute_vocab(encoder)
