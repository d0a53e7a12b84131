"""Which characters a normalization form changes, and into what."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.normalization import FORMS, Change, apply_changes, changes, summary


def test_the_lecture_examples():
    found = changes("①번 ㈜한글 ㅋㅋ", "NFKC")
    assert [(c.before, c.after) for c in found] == [("①", "1"), ("㈜", "(주)"), ("ㅋ", "ᄏ"), ("ㅋ", "ᄏ")]
    assert [(c.start, c.end) for c in found] == [(0, 1), (3, 4), (7, 8), (8, 9)]
    assert summary(found) == "① → 1, ㈜ → (주), ㅋ → ᄏ ×2 (4 characters changed)"


def test_nfd_splits_syllables_and_nfc_joins_them_back():
    nfd = changes("한글", "NFD")
    assert [(c.before, [f"{ord(ch):04X}" for ch in c.after]) for c in nfd] == [
        ("한", ["1112", "1161", "11AB"]),
        ("글", ["1100", "1173", "11AF"]),
    ]
    decomposed = unicodedata.normalize("NFD", "한글")
    nfc = changes(decomposed, "NFC")
    assert [(c.start, c.end, c.after) for c in nfc] == [(0, 3, "한"), (3, 6, "글")]


def test_look_alike_changes_show_code_points():
    (change,) = changes("e\u0301", "NFC")
    assert change.label == "U+0065 U+0301 → U+00E9"


def test_old_hangul_stays_decomposed_under_nfc():
    old = "\u1112\u119e\u11ab"  # ᄒᆞᆫ: no precomposed syllable exists
    assert changes(old, "NFC") == []


def test_unknown_form():
    with pytest.raises(ValueError, match="NFX"):
        changes("a", "NFX")  # type: ignore[arg-type]


def test_nothing_to_change():
    assert changes("plain 한글", "NFC") == [] and summary([]) == ""


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30), st.sampled_from(FORMS))
def test_changes_rebuild_the_normalized_text(text, form):
    found = changes(text, form)
    assert apply_changes(text, found) == unicodedata.normalize(form, text)
    last = 0
    for change in found:
        assert isinstance(change, Change)
        assert last <= change.start < change.end
        assert text[change.start:change.end] == change.before != change.after
        last = change.end


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["\u0301", "\u0323", "e", "ᄒ", "ᅡ", "ᆫ", "가", "\u11a8", "①", " "]), max_size=12),
       st.sampled_from(FORMS))
def test_marks_and_jamo_at_boundaries(parts, form):
    text = "".join(parts)
    assert apply_changes(text, changes(text, form)) == unicodedata.normalize(form, text)
