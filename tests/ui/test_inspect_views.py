"""The Inspector's detail views: jamo roles for every kind of Hangul, sticky byte-layer titles, the
normalization view's marks, and pieces drawn through core.display's contract."""

from __future__ import annotations

import unicodedata

import pytest
from PySide6.QtWidgets import QScrollArea

from tokviz.core.bpe.model import BPEModel
from tokviz.core.encoders.registry import Registry
from tokviz.core.encoding import Encoding
from tokviz.core.normalization import changes
from tokviz.ui.inspect.byte_layers import ByteLayersView, build_layers
from tokviz.ui.inspect.describe import describe_token, selection_details
from tokviz.ui.inspect.normalization_view import NormalizationView
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session
from tokviz.ui.token_colors import token_colors

BYTES = BPEModel(mode="byte", merges=[])  # every byte its own token: the layers show all of them


def layers_of(text: str):
    enc = BYTES.encode(text)
    return build_layers(enc, 0, len(text))


def jamo_row(text: str) -> list[tuple[str, str]]:
    return [(s.label, s.detail) for s in layers_of(text).jamo]


def test_nfd_hangul_gets_a_role_for_every_conjoining_jamo():
    nfd = unicodedata.normalize("NFD", "한글")
    assert len(nfd) == 6
    assert jamo_row(nfd) == [("ㅎ", "초성"), ("ㅏ", "중성"), ("ㄴ", "종성"),
                             ("ㄱ", "초성"), ("ㅡ", "중성"), ("ㄹ", "종성")]
    # each jamo spans exactly its own three bytes
    assert [(s.col_start, s.col_end) for s in layers_of(nfd).jamo] == [(0, 3), (3, 6), (6, 9), (9, 12), (12, 15),
                                                                        (15, 18)]


def test_old_hangul_and_the_extension_blocks_get_their_roles():
    # ᄒᆞᆫ: HIEUH + ARAEA (old vowel) + NIEUN, then the modern syllable 글
    assert jamo_row("ᄒᆞᆫ글") == [("ㅎ", "초성"), ("ㆍ", "중성"), ("ㄴ", "종성"),
                                ("ㄱ", "초성"), ("ㅡ", "중성"), ("ㄹ", "종성")]
    # Hangul Jamo Extended-A (choseong) and -B (jungseong, jongseong)
    roles = [detail for _, detail in jamo_row("\ua960\ud7b0\ud7cb")]
    assert roles == ["초성", "중성", "종성"]
    tip = layers_of("\u119e").jamo[0].tooltip
    assert "U+119E" in tip and "중성" in tip


def test_compatibility_jamo_has_its_own_label():
    row = layers_of("ㅋ").jamo
    assert [(s.label, s.detail) for s in row] == [("ㅋ", "compat. jamo")]
    assert "ᄏ" in row[0].tooltip  # what NFKC makes of it
    assert layers_of("a").jamo == []


def test_row_titles_stay_in_sight_after_a_horizontal_scroll(qtbot):
    text = "안녕하세요 여러분 오늘은 토크나이저를 배워요"
    enc = BYTES.encode(text)
    view = ByteLayersView()
    view.set_layers(build_layers(enc, 0, len(text)), token_colors(enc.ids))
    area = QScrollArea()
    qtbot.addWidget(area)
    area.setWidget(view)
    area.resize(500, view.sizeHint().height() + 40)
    area.show()
    qtbot.waitExposed(area)
    view.adjustSize()
    bar = area.horizontalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 600)
    strip_w = int(view.title_width()) - 8
    before = area.viewport().grab().toImage().copy(0, 0, strip_w, area.viewport().height())
    bar.setValue(600)
    qtbot.waitUntil(lambda: view.x() == -600)
    after = area.viewport().grab().toImage().copy(0, 0, strip_w, area.viewport().height())
    # the titles are drawn at the same place on screen: the left strip looks exactly the same
    assert after == before
    assert view.row_rect("Jamo").isValid()


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ("NFKC", ["① → 1", "㈜ → (주)", "ㅋ → ᄏ"]),
        ("NFKD", ["① → 1", "㈜ → (\u110c\u116e)", "ㅋ → ᄏ"]),  # 주 as its jamo too
        ("NFD", []),  # canonical forms leave compatibility characters alone
    ],
)
def test_normalization_view_marks_each_change(qtbot, form, expected):
    view = NormalizationView()
    qtbot.addWidget(view)
    view.resize(900, 300)
    view.show_changes("①㈜ㅋ", form)
    assert view.isVisible()
    assert view.card_labels() == expected
    assert view.card_labels() == [f"{c.before} → {c.after}" for c in changes("①㈜ㅋ", form)]
    if expected:
        html = view.marked.text()
        for n, ch in enumerate("①㈜ㅋ", 1):
            assert f"<b>{ch}</b></span><sup>{n}</sup>" in html
    else:
        assert "nothing" in view.summary.text()


def test_normalization_view_shows_nfd_splitting_syllables(qtbot):
    view = NormalizationView()
    qtbot.addWidget(view)
    view.show_changes("한 a", "NFD")
    assert view.card_labels() == ["한 → \u1112\u1161\u11ab"]
    view.show_changes("한 a", "none")
    assert not view.isVisible()
    view.refresh_fonts()  # presentation mode, theme switch: "none" stays hidden
    assert not view.isVisible()


def test_normalization_of_a_long_text_is_found_in_the_worker(qtbot):
    view = NormalizationView()
    qtbot.addWidget(view)
    text = "가나다 " * 3000 + "①"
    with qtbot.waitSignal(view.shown, timeout=30_000):
        view.show_changes(text, "NFKC")
    assert view.card_labels() == ["① → 1"]


def test_the_panel_shows_the_normalization_changes(qtbot):
    session = Session(Registry())
    session.offer_trained_model(BPEModel(mode="byte", merges=[], name="bytes"))
    panel = InspectPanel(session)
    qtbot.addWidget(panel)
    panel.set_encoder("bytes")
    panel.set_text("①㈜ㅋ")
    panel.set_normalization("NFKC")
    panel.encode_now()
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.encoding.text == "1(주)ᄏ", timeout=15_000)
    assert panel.norm_view.card_labels() == ["① → 1", "㈜ → (주)", "ㅋ → ᄏ"]
    panel.set_normalization("none")
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.encoding.text == "①㈜ㅋ", timeout=15_000)
    assert not panel.norm_view.isVisible()
    panel.shutdown()


def test_cr_and_nbsp_are_drawn_by_the_display_contract():
    text = "a\r\nb\u00a0c"
    enc = Encoding.from_byte_tokens("d", text, [(1, b"a\r"), (2, b"\nb"), (3, "\u00a0c".encode())])
    details = selection_details(enc, (0, 2))
    assert "a⟨CR⟩" in details and "↵b" in details and "⍽c" in details
    assert "'" not in details  # no repr() quoting
    assert "piece: a⟨CR⟩" in describe_token(enc, 0)
    layers = build_layers(enc, 0, len(text))
    assert [s.detail for s in layers.tokens] == ["a⟨CR⟩", "↵b", "⍽c"]
    assert layers.owner_of("C2") == [2]  # NBSP's lead byte, upper-case hex


def test_hex_is_upper_case_in_the_layers_and_the_details():
    enc = BYTES.encode("한")
    layers = build_layers(enc, 0, 1)
    assert [s.label for s in layers.bytes] == ["ED", "95", "9C"]
    assert "ED" in selection_details(enc, (0, 0))


def test_normalization_details_fold_to_the_summary_line(qtbot):
    view = NormalizationView()
    qtbot.addWidget(view)
    view.show_changes("①", "NFKC")
    assert view.scroll.isVisible() and view.marked.isVisible()
    view.fold.setChecked(False)
    assert not view.scroll.isVisible() and not view.marked.isVisible() and view.summary.isVisible()
    view.show_changes("①②", "NFKC")  # a new text keeps the user's choice
    assert not view.scroll.isVisible() and view.card_labels() == ["① → 1", "② → 2"]
