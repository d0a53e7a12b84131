"""The BPE tests' corpus fixture (the corpora themselves are in tests/support/corpora.py)."""

from __future__ import annotations

import pytest

from tests.support.corpora import CORPORA


@pytest.fixture(params=sorted(CORPORA))
def corpus(request) -> tuple[str, str]:
    return request.param, CORPORA[request.param]()
