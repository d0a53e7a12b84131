"""Token colours: one colour per id, and every two adjacent tokens told apart (by a clearly different
colour, or by the outline the views draw when the colours are the same)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from tests.support.pixels import edge_is_outlined
from tokviz.core.encoders.builtin import default_registry
from tokviz.ui.token_colors import (
    DARK_PALETTE,
    LIGHT_PALETTE,
    MIN_PALETTE_DISTANCE,
    contrast_ratio,
    delta_e,
    readable_on,
    text_color_on,
    token_color,
    token_colors,
    token_marks,
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
    for tid, c in zip(ids, colors, strict=True):
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
    from tokviz.ui.inspect.byte_layers import ByteLayersView, build_layers
    from tokviz.ui.inspect.cells import MAX_DRAWN_TOKENS, token_cells
    from tokviz.ui.inspect.token_view import TokenView

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
    layers.set_layers(build_layers(enc, 0, 16), token_colors(enc.ids), None, token_marks(enc.ids))
    layers.resize(layers.sizeHint())
    layers.show()
    shot = layers.grab().toImage()

    def layer_ring_pixels(index):
        r = layers.token_rect(index).toRect()
        # the 2-px ring sits on a fractional x, so antialiasing spreads it over the first pixels
        return [shot.pixelColor(x, r.center().y()).lightnessF() for x in range(r.left(), r.left() + 4)]

    # the token row draws the same ring: none on the first "!!…" box, a dark one on its twin
    assert min(layer_ring_pixels(0)) > 0.5 and min(layer_ring_pixels(1)) < 0.4, \
        (layer_ring_pixels(0), layer_ring_pixels(1))


def test_contrast_ratio_and_readable_text_on_known_colours():
    assert contrast_ratio(QColor("#000000"), QColor("#ffffff")) == pytest.approx(21)
    # WCAG's well-known pair: #767676 is the lightest grey that reads (4.54:1) on white, #777777 not
    assert contrast_ratio(QColor("#767676"), QColor("#ffffff")) == pytest.approx(4.54, abs=0.01)
    assert contrast_ratio(QColor("#777777"), QColor("#ffffff")) < 4.5
    for base in ("#ffffff", "#1e1e1e"):
        out = readable_on(QColor("#ff7f0e"), QColor(base))  # the orange encoder name: 2.9:1 on white
        assert contrast_ratio(out, QColor(base)) >= 4.5
        assert out.hue() == pytest.approx(QColor("#ff7f0e").hue(), abs=3)  # still orange


def _token_view(qtbot, enc, dark):
    from tokviz.ui.inspect.cells import MAX_DRAWN_TOKENS, token_cells
    from tokviz.ui.inspect.token_view import TokenView

    view = TokenView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    view.set_cells(enc, token_cells(enc, MAX_DRAWN_TOKENS), token_colors(enc.ids, dark=dark), dark=dark)
    image = view.viewport().grab().toImage()
    return image, view.token_rect


def _compare_rows(qtbot, enc, dark):
    from tokviz.ui.compare.alignment import RowData, prepare_rows
    from tokviz.ui.compare.rows import AlignedRowsView

    view = AlignedRowsView()
    qtbot.addWidget(view)
    view.resize(1400, 600)
    view.show()
    view.set_prepared(prepare_rows(enc.text, [RowData(enc.encoder, enc)], dark=dark))
    view.resize(1400, view.minimumHeight())
    image = view.grab().toImage()
    return image, lambda i: view.token_rect(0, i)


@pytest.mark.parametrize("render", [_token_view, _compare_rows], ids=["TokenView", "CompareRows"])
@pytest.mark.parametrize("encoder", ["gpt2", "cl100k_base"])
@pytest.mark.parametrize("dark", [False, True])
def test_views_draw_the_outline_exactly_where_token_marks_says(qtbot, registry, render, encoder, dark):
    """Every token box in the view: a ring in the text colour inside its left edge when
    token_marks marks it, its plain fill there when not (so no view drops or adds outlines)."""
    enc = registry.get(encoder).encode(TEXTS[0] + " " + TEXTS[1])
    marks = token_marks(enc.ids)
    image, rect_of = render(qtbot, enc, dark)
    checked = outlined = 0
    for i, t in enumerate(enc.tokens):
        rect = rect_of(i)
        if rect is None or t.kind != "normal" or rect.width() < 8:
            continue
        fill = token_color(t.id, dark=dark)
        assert edge_is_outlined(image, rect, fill, text_color_on(fill)) == marks[i], (encoder, i, t)
        checked += 1
        outlined += marks[i]
    assert checked >= len(enc.tokens) * 0.8 and outlined >= 3, (checked, outlined)
