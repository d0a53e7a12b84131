"""Budget cuts equal decoding the byte prefix of the first N tokens, with grapheme and word checks
against a plain scan, on cl100k_base and o200k_base."""

from __future__ import annotations

import codecs

import pytest
import regex

from tests.support.boundary_encoders import TEXTS
from tokviz.core.boundaries.cut import budget_cut
from tokviz.core.errors import TokvizError


def brute_cut(prefix: bytes, bounds: set[int]):
    """(printed text, splits a character, splits a grapheme) of a UTF-8 prefix of a text whose grapheme
    boundaries (character offsets) are ``bounds``."""
    printed = codecs.getincrementaldecoder("utf-8")().decode(prefix)  # not final: an unfinished tail waits
    whole = len(printed.encode()) == len(prefix)
    return printed, not whole, not whole or len(printed) not in bounds


def check_cuts(encoder, vocab, text, step=1):
    """Every ``step``-th cut (and the last ones) against the brute force over the whole text."""
    ids = encoder.encode(text).ids
    bounds = {0, *(m.end() for m in regex.finditer(r"\X", text))}
    safe = 0
    prefix = b""
    for n in range(len(ids) + 2):
        prefix += vocab[ids[n - 1]] if 0 < n <= len(ids) else b""
        printed, splits_char, splits_grapheme = brute_cut(prefix, bounds)
        # the nearest safe cut: the most tokens <= n whose prefix splits no grapheme
        safe = safe if splits_grapheme else min(n, len(ids))
        if n % step and n < len(ids) - 3:
            continue
        cut = budget_cut(encoder, text, n)
        assert cut.kept_text == printed and cut.byte_end == len(prefix)
        assert cut.dropped_bytes == prefix[len(printed.encode()):]
        assert (cut.splits_character, cut.splits_grapheme) == (splits_char, splits_grapheme)
        assert cut.safe_tokens == safe
        assert cut.safe_text == text.encode()[:len(b"".join(vocab[i] for i in ids[:safe]))].decode()


def test_every_cut_equals_decoding_the_byte_prefix(openai):
    encoder, vocab = openai
    for text in TEXTS:
        check_cuts(encoder, vocab, text)


def test_cuts_deep_in_a_long_text_and_inside_a_long_cluster(openai):
    """Graphemes are read from a window around the cut: far from the start, and widened when the safe
    cut lies before it (600 combining accents are one grapheme)."""
    encoder, vocab = openai
    check_cuts(encoder, vocab, "가나다 🙂 " * 60 + "🇰🇷🇯🇵 끝", step=17)
    check_cuts(encoder, vocab, "x " * 300 + "e" + "\u0301" * 600 + " 끝", step=29)


def test_a_cut_inside_a_flag_or_a_family_emoji_splits_the_grapheme_not_a_character():
    from tokviz.core.encoders.builtin import default_registry

    encoder = default_registry().get("o200k_base")
    text = "국기 🇰🇷"
    hits = [budget_cut(encoder, text, n) for n in range(len(encoder.encode(text).ids) + 1)]
    inside_flag = [c for c in hits if c.grapheme == "🇰🇷" and not c.splits_character]
    assert inside_flag and inside_flag[0].kept_text.endswith("🇰")


def test_a_cut_between_two_hangul_syllables_splits_the_word_not_the_character(openai):
    encoder, _ = openai
    text = "가나다라마바사아자차카타파하"
    splits = [budget_cut(encoder, text, n) for n in range(1, len(encoder.encode(text).ids))]
    whole = [c for c in splits if not c.splits_character]
    assert whole and all(c.splits_word and not c.splits_grapheme for c in whole)
    assert all(c.word_tokens == 0 for c in splits)


def test_a_negative_budget_is_a_clear_error(openai):
    with pytest.raises(TokvizError, match="0 or more"):
        budget_cut(openai[0], "x", -1)
