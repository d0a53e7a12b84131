"""Token colours: one colour per id, and every two adjacent tokens told apart (by a clearly different
colour, or by the outline the views draw when the colours are the same)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from tokviz.core.encoders import default_registry
from tokviz.ui.token_colors import (
    DARK_PALETTE, LIGHT_PALETTE, MIN_PALETTE_DISTANCE, delta_e, text_color_on, token_color, token_colors, token_marks,
)

CLEARLY_DIFFERENT = 12.0  # CIEDE2000; ~2 is just noticeable, the old gpt2 안 pair was ~5
TEXTS = [
    "안녕하세요, 세계! 이 커피 값은 얼마예요? 👨‍👩‍👧‍👦 가족 🇰🇷 👋🏽 값값값 ㅋㅋㅋㅋㅋ",
    "Tokenizers split text into tokens: 👨‍👩‍👧‍👦 is one emoji but many tokens!!!! 1111 ....",
]


@pytest.fixture(scope="module")
def registry():
    return default_registry()


@pytest.mark.parametrize("palette", [LIGHT_PALETTE, DARK_PALETTE])
def test_every_two_palette_colours_are_clearly_different(palette):
    colors = [QColor(c) for c in palette]
    worst = min(delta_e(a, b) for i, a in enumerate(colors) for b in colors[i + 1:])
    assert worst >= MIN_PALETTE_DISTANCE > CLEARLY_DIFFERENT


def test_delta_e_on_known_extremes():
    assert delta_e(QColor("#ffffff"), QColor("#ffffff")) == 0
    assert 99 < delta_e(QColor("#000000"), QColor("#ffffff")) < 101
    assert delta_e(QColor("#aff4bc"), QColor("#bef4af")) < 6  # the old colours of gpt2's 안: too close


@pytest.mark.parametrize("encoder", ["gpt2", "cl100k_base"])
@pytest.mark.parametrize("dark", [False, True])
def test_adjacent_tokens_of_real_encodings_are_told_apart(registry, encoder, dark):
    for text in TEXTS:
        ids = registry.get(encoder).encode(text).ids
        colors = token_colors(ids, dark=dark)
        marks = token_marks(ids)
        assert len(colors) == len(marks) == len(ids)
        outlined = 0
        for i in range(1, len(ids)):
            distance = delta_e(colors[i - 1], colors[i])
            if distance < CLEARLY_DIFFERENT:
                # the same colour: exactly one of the two carries the outline
                assert colors[i - 1] == colors[i] and marks[i - 1] != marks[i], (encoder, i, ids[i - 1], ids[i])
                outlined += 1
            else:
                assert not marks[i] or marks[i - 1] is False
        assert outlined >= 1 or "ㅋㅋ" not in text  # the repeated syllables do need outlines


@pytest.mark.parametrize("dark", [False, True])
def test_one_id_one_colour_everywhere_in_a_view(registry, dark):
    ids = registry.get("gpt2").encode(TEXTS[0] + " " + TEXTS[0]).ids
    colors = token_colors(ids, dark=dark)
    by_id: dict[int, set[str]] = {}
    for tid, c in zip(ids, colors):
        by_id.setdefault(tid, set()).add(c.name())
    assert all(len(names) == 1 for names in by_id.values())
    assert all(colors[k] == token_color(t, dark=dark) for k, t in enumerate(ids))
    # gpt2 cuts 안 into ids 243 and 230: neighbours that used to get nearly the same green
    assert delta_e(token_color(243, dark=dark), token_color(230, dark=dark)) >= CLEARLY_DIFFERENT


def test_text_on_every_palette_colour_is_readable():
    for c in LIGHT_PALETTE:
        assert text_color_on(QColor(c)).name() == "#111111"
    for c in DARK_PALETTE:
        assert text_color_on(QColor(c)).name() == "#f5f5f5"


def test_token_view_and_byte_layers_outline_the_marked_neighbour(qtbot):
    """The outline is drawn: ``ㅋㅋ`` is the same id twice, the second box gets a dark ring."""
    from tokviz.ui.widgets.byte_layers import ByteLayersView, build_layers
    from tokviz.ui.widgets.token_view import MAX_DRAWN_TOKENS, TokenView, token_cells

    enc = default_registry().get("cl100k_base").encode("!!!!!!!!!!!!!!!!")
    assert len(set(enc.ids)) == 1 and len(enc.ids) >= 2
    view = TokenView()
    qtbot.addWidget(view)
    view.resize(600, 200)
    view.show()
    view.set_cells(enc, token_cells(enc, MAX_DRAWN_TOKENS), token_colors(enc.ids))
    assert view.marks == token_marks(enc.ids) == [k % 2 == 1 for k in range(len(enc.ids))]
    image = view.viewport().grab().toImage()
    fill = token_color(enc.ids[0])

    def ring_pixels(index):
        r = view.token_rect(index).toRect()
        y = r.center().y()
        # the pixels just inside the left edge: the fill colour, or the outline's dark pen
        return [image.pixelColor(x, y).lightnessF() for x in range(r.left() + 1, r.left() + 4)]

    assert min(ring_pixels(0)) > 0.5 and min(ring_pixels(1)) < 0.3, (fill.name(), ring_pixels(0), ring_pixels(1))
    layers = ByteLayersView()
    qtbot.addWidget(layers)
    layers.set_layers(build_layers(enc, 0, 4), token_colors(enc.ids), None, token_marks(enc.ids))
    assert layers.marks[:2] == [False, True]
