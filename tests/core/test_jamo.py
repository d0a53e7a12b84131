"""Jamo decomposition for jamo-level BPE, and recomposition for display."""

from __future__ import annotations

import unicodedata
from collections import Counter

from hypothesis import example, given
from hypothesis import strategies as st

from tokviz.core.bpe.corpus import LinePart
from tokviz.core.jamo import (
    decompose,
    decompose_counts,
    decompose_lines,
    decompose_words,
    has_jamo,
    has_syllables,
    recompose,
)

SYLLABLES = "".join(chr(c) for c in range(0xAC00, 0xD7A4))


def test_every_syllable_is_its_nfd_and_comes_back():
    assert decompose(SYLLABLES) == unicodedata.normalize("NFD", SYLLABLES)
    assert recompose(decompose(SYLLABLES)) == SYLLABLES
    assert len(decompose("갔")) == 3 and len(decompose("가")) == 2


def test_only_hangul_syllables_change():
    # accented letters and compatibility jamo (ㅋㅋ, typed as letters) keep their form
    for text in ["café", "ㅋㅋㅋ ㅠㅠ", "😀👍🏽", "abc 123"]:
        assert decompose(text) == text


def test_partial_jamo_stay_jamo():
    tail, lead, vowel = "\u11bb", "\u1103", "\u1161"  # final ㅆ, ㄷ, ㅏ
    assert recompose(tail + lead + vowel) == tail + "다"
    assert recompose(lead) == lead
    assert not has_syllables(decompose("한글 ok")) and has_syllables("한")


def test_line_parts_stay_line_parts():
    out = list(decompose_lines(["가\n", LinePart("나")]))
    assert type(out[1]) is LinePart and out == [decompose("가\n"), decompose("나")]


@given(st.text(alphabet=st.sampled_from(list("가갔힣한글 abé\n") + ["\u1100", "\u1161", "\u11a8"])))
def test_round_trip(text):
    # on decomposed text, recomposing is NFC (the alphabet has no other composable sequences)
    assert recompose(decompose(text)) == unicodedata.normalize("NFC", decompose(text))
    assert unicodedata.normalize("NFC", decompose(text)) == unicodedata.normalize("NFC", text)


@given(st.lists(st.text(alphabet=st.sampled_from(list("가각갔 a\x00\n") + ["\u1100", "\u1161", "\u11a8", "\u11bb"]),
                        max_size=6), max_size=30))
@example(["가", "\u1100\u1161", "가"])
def test_counts_of_decomposed_words(words):
    # words spelled as syllables and as jamo meet once decomposed; a NUL inside a word is kept
    assert decompose_counts(Counter(words)) == Counter(map(decompose, words))


@given(st.lists(st.text(alphabet=st.sampled_from(list("가갔힣 a\n😀") + ["\u1100", "\u11a8", "\uac00", "\ud7a3"]),
                        max_size=5), max_size=20))
def test_words_decomposed_as_code_points(words):
    import numpy as np

    codes, lens = decompose_words("".join(words), np.array([len(w) for w in words], dtype=np.int64))
    assert codes.tobytes().decode("utf-32-le") == decompose("".join(words))
    assert lens.tolist() == [len(decompose(w)) for w in words]
    assert has_jamo(decompose("".join(words))) == any(ch in "가갔힣\u1100\u11a8\uac00\ud7a3" for ch in "".join(words))
