"""Token healing: candidates equal a scan of the whole vocabulary, on cl100k_base and o200k_base."""

from __future__ import annotations

import pytest

from tests.support.boundary_encoders import TEXTS
from tokviz.core.boundaries.healing import heal
from tokviz.core.errors import TokvizError

PROMPTS = ["The color is bl", "https://www.", "날씨가 좋", "print(x", "emoji 🙂", TEXTS[1]]


@pytest.mark.parametrize("back", [1, 3])
def test_candidates_equal_a_scan_of_the_vocabulary(openai, back):
    encoder, vocab = openai
    in_order = sorted(vocab.items())
    for prompt in PROMPTS:
        ids = encoder.encode(prompt).ids
        if len(ids) < back:
            continue
        h = heal(encoder, prompt, back)
        removed = b"".join(vocab[i] for i in ids[-back:])
        assert h.kept_ids == tuple(ids[:-back]) and h.removed_ids == tuple(ids[-back:])
        assert h.removed_bytes == removed
        assert h.candidate_ids == tuple(i for i, b in in_order if b.startswith(removed))
        assert set(h.removed_ids[:1]) <= set(h.candidate_ids) or back > 1
        assert h.kept_byte_end == len(prompt.encode()) - len(removed)


def test_healing_the_color_shows_blue_among_the_candidates(openai):
    encoder, _ = openai
    h = heal(encoder, "The color is bl")
    assert h.removed_text == " bl" and not h.cuts_character
    assert any(encoder.token_bytes(i) == b" blue" for i in h.candidate_ids)
    doc = h.as_json(encoder, 5)
    assert doc["candidates"] == len(h.candidate_ids) and len(doc["sample"]) == 5
    assert doc["healed_ids"] == list(encoder.encode("The color is").ids)


def test_backing_up_more_tokens_than_there_are_is_a_clear_error(openai):
    encoder, _ = openai
    with pytest.raises(TokvizError, match="cannot back up 9"):
        heal(encoder, "hi", 9)
    with pytest.raises(TokvizError, match="1 or more"):
        heal(encoder, "hi", 0)
