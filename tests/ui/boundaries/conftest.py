"""Encoders of every family besides the OpenAI rank files, for the panel's jobs."""

import pytest

from tests.support.boundary_encoders import FAMILIES, family_encoder


@pytest.fixture(scope="module", params=FAMILIES)
def family(request, tmp_path_factory):
    return family_encoder(request.param, tmp_path_factory.mktemp(request.param))
