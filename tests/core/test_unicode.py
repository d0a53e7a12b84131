"""Unicode layers: Hangul jamo by formula vs unicodedata, grapheme clusters, code points, UTF-8 bytes."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokviz.core.errors import InvalidTextError
from tokviz.core.unicode import (
    COMPAT_CHOSEONG,
    COMPAT_JONGSEONG,
    COMPAT_JUNGSEONG,
    S_BASE,
    S_COUNT,
    code_point_name,
    code_points,
    compose_hangul,
    decompose_hangul,
    grapheme_kind,
    invisible_marker,
    jamo_role,
    utf8_bytes,
)
from tokviz.core.unicode_explain import explain_emoji, graphemes

TEXT_NO_SURROGATES = st.text(alphabet=st.characters(blacklist_categories=("Cs",)))


# ---- Hangul ---------------------------------------------------------------------------------

def test_jamo_formula_agrees_with_nfd_on_all_11172_syllables():
    checked = 0
    for code in range(S_BASE, S_BASE + S_COUNT):
        syllable = chr(code)
        jamo = decompose_hangul(syllable)
        assert jamo is not None
        assert jamo.jamo == unicodedata.normalize("NFD", syllable), syllable
        assert compose_hangul(*jamo.indices) == syllable
        assert unicodedata.normalize("NFC", jamo.jamo) == syllable
        assert (jamo.jongseong is None) == (jamo.indices[2] == 0)
        checked += 1
    assert checked == 11172


def test_neighbours_of_the_syllable_block_are_not_syllables():
    assert decompose_hangul(chr(S_BASE - 1)) is None
    assert decompose_hangul(chr(S_BASE + S_COUNT)) is None
    assert decompose_hangul("ㄱ") is None
    assert decompose_hangul("") is None
    assert decompose_hangul("가나") is None


def test_compose_rejects_out_of_range_indices():
    with pytest.raises(ValueError):
        compose_hangul(19, 0)
    with pytest.raises(ValueError):
        compose_hangul(0, 21)
    with pytest.raises(ValueError):
        compose_hangul(0, 0, 28)


def test_compatibility_jamo_tables_name_the_same_letters_as_the_conjoining_jamo():
    # "HANGUL LETTER KIYEOK" (U+3131) must be the display form of "HANGUL CHOSEONG KIYEOK" (U+1100)
    def letter(name: str) -> str:
        return name.split(" ", 2)[2]

    for i, c in enumerate(COMPAT_CHOSEONG):
        assert letter(unicodedata.name(c)) == letter(unicodedata.name(chr(0x1100 + i)))
    for i, c in enumerate(COMPAT_JUNGSEONG):
        assert letter(unicodedata.name(c)) == letter(unicodedata.name(chr(0x1161 + i)))
    for i, c in enumerate(COMPAT_JONGSEONG, start=1):
        assert letter(unicodedata.name(c)) == letter(unicodedata.name(chr(0x11A7 + i)))
    assert (len(COMPAT_CHOSEONG), len(COMPAT_JUNGSEONG), len(COMPAT_JONGSEONG)) == (19, 21, 27)


def test_gabs_decomposes_to_giyeok_a_pieup_sios():
    jamo = decompose_hangul("값")
    assert jamo.compat == ("ㄱ", "ㅏ", "ㅄ")
    assert jamo.indices == (0, 0, 18)
    assert (jamo.choseong, jamo.jungseong, jamo.jongseong) == ("\u1100", "\u1161", "\u11b9")
    open_syllable = decompose_hangul("하")
    assert open_syllable.jongseong is None and open_syllable.compat == ("ㅎ", "ㅏ")


def test_jamo_roles():
    assert [jamo_role(c) for c in "\u1100\u1161\u11a8"] == ["choseong", "jungseong", "jongseong"]
    assert jamo_role("\ua960") == "choseong" and jamo_role("\ud7b0") == "jungseong"
    assert jamo_role("가") is None and jamo_role("a") is None


# ---- grapheme clusters ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, clusters, kind",
    [
        ("👨\u200d👩\u200d👧\u200d👦", 1, "emoji_zwj"),
        ("🇰🇷🇯🇵", 2, "flag"),
        ("👍🏽", 1, "emoji_modifier"),
        ("1\ufe0f\u20e3", 1, "keycap"),
        ("e\u0301", 1, "combining"),
        ("\u1100\u1161\u11a8", 1, "hangul"),  # 각 written as conjoining jamo
        ("\r\n", 1, "whitespace"),
        ("😀", 1, "emoji"),
        ("\u2764\ufe0f", 1, "emoji"),
        ("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", 1, "flag"),
        ("\u200b", 1, "control"),
        ("ㅋ", 1, "hangul"),
        ("x", 1, "text"),
    ],
)
def test_grapheme_clusters_and_kinds(text, clusters, kind):
    found = graphemes(text)
    assert len(found) == clusters
    assert {g.kind for g in found} == {kind}
    assert "".join(g.text for g in found) == text


def test_explanations_say_what_each_part_does():
    family = graphemes("👨\u200d👩\u200d👧\u200d👦")[0].explanation
    assert "👨 U+1F468 MAN" in family
    assert family.count("ZWJ (U+200D) joins the next emoji") == 3
    assert "🏽 U+1F3FD skin-tone modifier (Fitzpatrick type-4)" in explain_emoji("👍🏽")
    assert "VS16 (U+FE0F) asks for emoji presentation" in explain_emoji("\u2764\ufe0f")
    assert [g.explanation[0] for g in graphemes("🇰🇷🇯🇵")] == [
        "regional indicators K + R = flag of South Korea",
        "regional indicators J + P = flag of Japan",
    ]
    assert explain_emoji("🇿🇿")[0] == "regional indicators Z + Z = flag for region ZZ"
    assert explain_emoji("1\ufe0f\u20e3")[0] == "keycap: 1 + VS16 + COMBINING ENCLOSING KEYCAP"
    scotland = explain_emoji("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f")
    assert scotland[0].endswith("flag of Scotland")
    assert graphemes("\u1100\u1161\u11a8")[0].explanation[-1].endswith("각 U+AC01")
    assert graphemes("e\u0301")[0].explanation[-1] == "NFC composes them into \u00e9 U+00E9"
    assert graphemes("값")[0].explanation[1].startswith("= ㄱ + ㅏ + ㅄ")


def test_spans_tile_text_and_bytes():
    text = "안녕 👋🏻!\r\n🇰🇷 e\u0301 1\ufe0f\u20e3"
    found = graphemes(text)
    data = text.encode("utf-8")
    assert found[0].start == 0 and found[0].byte_start == 0
    for a, b in zip(found, found[1:], strict=False):
        assert a.end == b.start and a.byte_end == b.byte_start
    assert found[-1].end == len(text) and found[-1].byte_end == len(data)
    for g in found:
        assert data[g.byte_start : g.byte_end] == g.text.encode("utf-8")
        assert text[g.start : g.end] == g.text
    assert [g.index for g in found] == list(range(len(found)))


def test_grapheme_kind_of_lone_regional_indicator_is_emoji():
    assert grapheme_kind("🇦") == "emoji"
    assert "lone regional indicator" in graphemes("🇦")[0].explanation[0]


# ---- code points and bytes -------------------------------------------------------------------

def test_code_points_names_labels_and_bytes():
    cps = code_points("a값\t😀\x80")
    assert [c.label for c in cps] == ["U+0061", "U+AC12", "U+0009", "U+1F600", "U+0080"]
    assert [c.name for c in cps] == [
        "LATIN SMALL LETTER A", "HANGUL SYLLABLE GABS", "CHARACTER TABULATION",
        "GRINNING FACE", "<control-0080>",
    ]
    assert [c.category for c in cps] == ["Ll", "Lo", "Cc", "So", "Cc"]
    assert [(c.byte_start, c.byte_end) for c in cps] == [(0, 1), (1, 4), (4, 5), (5, 9), (9, 11)]
    assert cps[1].utf8 == "값".encode() and cps[3].codepoint == 0x1F600


def test_unnamed_code_points_get_labels():
    assert code_point_name("\U000e0000") == "<unassigned>"
    assert code_point_name("\ufffe") == "<noncharacter-FFFE>"
    assert code_point_name("\U000f0000") == "<private-use-F0000>"
    assert code_point_name("\x1b") == "ESCAPE"
    # U+1FAE8 SHAKING FACE (Unicode 15) is newer than Python 3.11's unicodedata
    if unicodedata.unidata_version < "15":
        assert code_point_name("\U0001fae8").startswith("<newer than Unicode")


def test_control_aliases_are_real_unicode_aliases():
    for code in list(range(0x20)) + [0x7F, 0x85]:
        name = code_point_name(chr(code))
        assert unicodedata.lookup(name) == chr(code), name


def test_byte_roles():
    infos = utf8_bytes("A é 각 😀")
    roles = "".join({"ascii": "a", "lead": "L", "continuation": "c"}[b.role] for b in infos)
    assert roles == "aaLcaLccaLccc"
    assert [b.char_index for b in infos if b.role != "continuation"] == list(range(7))
    assert [b.offset for b in infos] == list(range(len(infos)))
    assert infos[-1].value == 0x80 and infos[-4].value == 0xF0


def test_lone_surrogates_raise_a_clear_error():
    for fn in (graphemes, code_points, utf8_bytes):
        with pytest.raises(InvalidTextError, match="lone surrogate U\\+D83D"):
            fn("ok \ud83d")


def test_empty_text():
    assert graphemes("") == [] and code_points("") == [] and utf8_bytes("") == []


# ---- invisible markers -----------------------------------------------------------------------

def test_invisible_markers():
    expected = {
        " ": "·", "\t": "→", "\n": "↵", "\r": "⟨CR⟩", "\u00a0": "⍽", "\u200b": "⟨ZWSP⟩",
        "\u200d": "⟨ZWJ⟩", "\u200c": "⟨ZWNJ⟩", "\u2060": "⟨WJ⟩", "\ufeff": "⟨BOM⟩",
        "\x00": "⟨NUL⟩", "\x7f": "⟨DEL⟩", "\u3000": "␣", "\ufe0f": "⟨VS16⟩", "\u3164": "⟨HF⟩",
        "\u202e": "⟨U+202E⟩",
    }
    for ch, marker in expected.items():
        assert invisible_marker(ch) == marker, repr(ch)
    for ch in "a가😀ㄱ\u0301.":
        assert invisible_marker(ch) is None


def test_every_control_and_format_character_gets_a_marker():
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        if unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp"):
            assert invisible_marker(ch), f"U+{code:04X}"


# ---- properties ------------------------------------------------------------------------------

@given(TEXT_NO_SURROGATES)
def test_layers_cover_any_text_exactly(text):
    data = text.encode("utf-8")
    found = graphemes(text)
    assert "".join(g.text for g in found) == text
    pos = bpos = 0
    for g in found:
        assert (g.start, g.byte_start) == (pos, bpos)
        assert data[g.byte_start : g.byte_end] == g.text.encode("utf-8")
        assert g.explanation  # every cluster is explained
        pos, bpos = g.end, g.byte_end
    assert (pos, bpos) == (len(text), len(data))

    cps = code_points(text)
    assert "".join(c.char for c in cps) == text
    assert b"".join(c.utf8 for c in cps) == data
    assert all(data[c.byte_start : c.byte_end] == c.utf8 for c in cps)

    bs = utf8_bytes(text)
    assert bytes(b.value for b in bs) == data
    assert all(cps[b.char_index].byte_start <= b.offset < cps[b.char_index].byte_end for b in bs)


def test_explanations_are_not_shared_between_clusters():
    # descriptions are cached per distinct cluster; callers still get their own lists
    first, second = graphemes("가가")
    first.explanation.append("edited by a caller")
    assert "edited by a caller" not in second.explanation
    assert "edited by a caller" not in graphemes("가")[0].explanation


@pytest.mark.parametrize(
    "cluster, kind, first_line",
    [
        ("\U0001f3fd", "emoji_modifier", "a skin-tone modifier on its own: shown as a colour swatch"),
        ("a\U0001f3fd", "emoji_modifier", "a skin-tone modifier after a character that is not an emoji"),
        ("\u00a9", "text", "shown as text by default; VS16 (U+FE0F) after it would ask for the emoji picture"),
        ("\u00a9\ufe0f", "emoji", "\u00a9 U+00A9 COPYRIGHT SIGN"),
        ("\u263a\ufe0e", "text", "\u263a U+263A WHITE SMILING FACE"),
    ],
)
def test_presentation_and_stray_modifiers(cluster, kind, first_line):
    (g,) = graphemes(cluster)
    assert g.kind == kind
    assert g.explanation[0].startswith(first_line)


def test_trailing_zwj_joins_nothing():
    (g,) = graphemes("\U0001f469\u200d")
    assert g.explanation[-1] == "ZWJ (U+200D) at the end: nothing follows for it to join"
    assert not any(line.startswith("ZWJ sequence") for line in g.explanation)
