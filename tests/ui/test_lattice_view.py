"""The lattice view against the Unigram model it shows: the highlighted path is the model's Viterbi,
the n-best list is model.nbest, a re-roll with a seed is model.sample, the slider sets α; labels never
overlap or leave the canvas, and Hangul renders as glyphs."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage

from tokviz import resources_dir
from tokviz.core.unigram.model import UnigramModel
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer
from tokviz.ui.lattice_view import (
    ALPHA_STEP,
    MAX_CHARS,
    NBEST_COLOR,
    SAMPLE_COLOR,
    VITERBI_COLOR,
    LatticeView,
    assign_lanes,
)

KOREAN = "산책을 했습니다"
ENGLISH = "morning walk"
LONG = "오늘 아침에는 날씨가 맑아서 공원에서 산책을 했습니다. The weather was clear"


@pytest.fixture(scope="module")
def model() -> UnigramModel:
    lines = (resources_dir() / "corpora" / "demo.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    trainer = UnigramTrainer(UnigramConfig(vocab_size=1200))
    for _ in trainer.run(lines):
        pass
    return trainer.model()


@pytest.fixture
def view(qtbot, model):
    v = LatticeView(model)
    qtbot.addWidget(v)
    v.resize(1100, 560)
    v.show()
    return v


def _raw(encoding):
    return [t.raw for t in encoding.tokens]


def _near(image: QImage, rect: QRectF, color: QColor, tolerance: int = 40) -> bool:
    """Whether any pixel on the border of ``rect`` (±1 px) is close to ``color``."""
    r = rect.toAlignedRect().adjusted(-1, -1, 1, 1)
    xs = range(max(r.left(), 0), min(r.right(), image.width() - 1) + 1)
    ys = range(max(r.top(), 0), min(r.bottom(), image.height() - 1) + 1)
    edge = [(x, y) for x in xs for y in (r.top(), r.top() + 1, r.top() + 2)]
    edge += [(x, y) for y in ys for x in (r.left(), r.left() + 1, r.left() + 2)]
    for x, y in edge:
        if 0 <= x < image.width() and 0 <= y < image.height():
            c = image.pixelColor(x, y)
            if abs(c.red() - color.red()) + abs(c.green() - color.green()) + abs(c.blue() - color.blue()) <= tolerance:
                return True
    return False


@pytest.mark.parametrize("text", [KOREAN, ENGLISH, LONG, "ΩΩ 산책"])
def test_highlighted_path_is_the_models_viterbi(view, model, text):
    view.set_text(text)
    lat = view.lattice
    assert view.canvas.viterbi == model.lattice(text).viterbi
    # the model's encoder (its own Viterbi over each word, not the lattice) gives the same pieces
    assert view.viterbi_pieces() == _raw(model.encode(text))
    assert view.canvas.strips[0].path == lat.viterbi
    # what is painted: exactly the Viterbi arcs have a label box in the Viterbi colour
    image = view.canvas.grab().toImage()
    on_path = set(lat.viterbi)
    for i in range(len(lat.arcs)):
        assert _near(image, view.canvas.label_rect(i), VITERBI_COLOR) == (i in on_path), lat.arcs[i]


def test_unknown_characters_are_arcs_of_their_own(view, model):
    view.set_text("ΩΩ 산책")
    unknown = [a for a in view.lattice.arcs if a.unknown]
    assert [(a.start, a.end) for a in unknown] == [(1, 2), (2, 3)]
    assert unknown[0].log_prob == pytest.approx(model.unk_score)
    assert view.viterbi_pieces()[:2] == ["▁", "<unk>"]  # joined into one <unk>, as encode() does
    tokens = view.canvas.strip_tokens(view.lattice.viterbi)
    assert [t[3] for t in tokens] == view.viterbi_pieces()
    assert tokens[1][:2] == (1, 3)


@pytest.mark.parametrize("text", [KOREAN, ENGLISH])
def test_nbest_list_is_model_nbest(view, model, text):
    view.set_text(text)
    want = [(_raw(e), s) for e, s in model.nbest(text, 5)]
    assert view.nbest_rows() == want
    assert view.nbest_list.count() == 5
    assert " | ".join(want[1][0]) in view.nbest_list.item(1).text()
    view.k_spin.setValue(9)
    assert view.nbest_rows() == [(_raw(e), s) for e, s in model.nbest(text, 9)]
    # choosing a row draws that path too
    view.nbest_list.setCurrentRow(2)
    lat = view.lattice
    assert view.canvas.selected == lat.nbest(9)[2][0]
    assert [s.path for s in view.canvas.strips] == [lat.viterbi, lat.nbest(9)[2][0]]
    image = view.canvas.grab().toImage()
    for i in set(view.canvas.selected) - set(lat.viterbi):
        assert _near(image, view.canvas.label_rect(i), NBEST_COLOR)


def test_reroll_with_a_seed_is_model_sample(view, model, qtbot):
    view.set_text(KOREAN)
    view.set_alpha(0.3)
    view.seed_spin.setValue(7)
    qtbot.mouseClick(view.reroll_button, Qt.MouseButton.LeftButton)
    pieces, _, alpha, seed = view.sample_result()
    assert (alpha, seed) == (0.3, 7)
    assert pieces == _raw(model.sample(KOREAN, alpha=0.3, seed=7))
    assert view.seed_spin.value() == 8  # the next roll differs, and can be repeated
    assert "seed 7" in view.sample_label.text() and "α = 0.30" in view.sample_label.text()
    rolls = []
    for seed in range(8, 30):
        qtbot.mouseClick(view.reroll_button, Qt.MouseButton.LeftButton)
        rolls.append(view.sample_result()[0])
        assert rolls[-1] == _raw(model.sample(KOREAN, alpha=0.3, seed=seed))
    assert len({tuple(r) for r in rolls}) > 1  # re-rolling really draws different segmentations
    # the sampled path is painted in its colour
    path = view.canvas.sampled
    image = view.canvas.grab().toImage()
    for i in set(path) - set(view.lattice.viterbi):
        assert _near(image, view.canvas.label_rect(i), SAMPLE_COLOR)


def test_slider_sets_alpha(view, model, qtbot):
    view.set_text(ENGLISH)
    view.alpha_slider.setValue(10)
    assert view.alpha() == pytest.approx(10 * ALPHA_STEP)
    assert view.alpha_label.text() == "α = 0.50"
    view.seed_spin.setValue(3)
    view.reroll()
    assert view.sample_result()[0] == _raw(model.sample(ENGLISH, alpha=0.5, seed=3))

    def viterbi_share(slider_value):
        view.alpha_slider.setValue(slider_value)
        view.seed_spin.setValue(0)
        return sum(view.reroll() == view.viterbi_pieces() for _ in range(60))

    # α → 0 draws nearly uniformly over the lattice; α = 2 almost always the best path
    assert viterbi_share(0) < viterbi_share(view.alpha_slider.maximum())


@pytest.mark.parametrize("text", [KOREAN, ENGLISH, LONG])
def test_labels_never_overlap_and_arcs_stay_inside(view, text):
    view.set_text(text)
    c = view.canvas
    lat = view.lattice
    inside = QRectF(c.rect())
    labels = [c.label_rect(i) for i in range(len(lat.arcs))]
    for i, r in enumerate(labels):
        assert inside.contains(c.arc_rect(i)), (lat.arcs[i], c.arc_rect(i), inside)
        a = lat.arcs[i]
        # the label sits inside its own arc's span
        assert c.node_x(a.start) < r.left() and r.right() < c.node_x(a.end)
    for (i, r), (j, s) in itertools.combinations(enumerate(labels), 2):
        assert not r.intersects(s), (lat.arcs[i], lat.arcs[j])
    # the characters and strips are inside too
    for s in range(len(lat.symbols)):
        assert inside.contains(c.cell_rect(s))


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(1, 6)), max_size=40, unique=True))
def test_lanes_hold_no_overlapping_spans(spans):
    spans = [(s, s + n) for s, n in spans]
    spans = list(dict.fromkeys(spans))
    lanes = assign_lanes(spans)
    for (a, la), (b, lb) in itertools.combinations(zip(spans, lanes, strict=True), 2):
        if la == lb:
            assert a[1] <= b[0] or b[1] <= a[0]
    # each span is in the lowest lane it fits, given the shorter spans placed before it
    assert all(lane >= 0 for lane in lanes)


def test_hangul_renders_as_glyphs(view, tmp_path):
    view.set_text(KOREAN)
    c = view.canvas
    image = c.grab().toImage()
    path = tmp_path / "lattice_ko.png"
    assert image.save(str(path)) and path.stat().st_size > 0
    cells = {}
    for s, ch in enumerate(view.lattice.symbols):
        if ch == "▁":  # drawn muted
            continue
        crop = image.copy(c.cell_rect(s).toAlignedRect().adjusted(4, 4, -4, -4))
        ink = sum(1 for x in range(crop.width()) for y in range(crop.height())
                  if crop.pixelColor(x, y).lightness() < 110)
        assert ink > 10, ch  # something is drawn in every cell
        cells[ch] = bytes(crop.constBits())
    # missing glyphs would all be the same box; the syllables must look different
    assert len({cells[ch] for ch in "산책을했습니다"}) == 7


def test_no_model_empty_text_and_long_text(qtbot, model):
    v = LatticeView()
    qtbot.addWidget(v)
    assert v.lattice is None and "Train a Unigram model" in v.canvas.message
    assert v.reroll() == [] and v.nbest_rows() == []
    v.set_model(model)
    v.set_text("   ")
    assert v.lattice is None and "Type a word" in v.canvas.message
    long = " ".join(["산책을 했습니다"] * 10)
    v.set_text(long)
    assert v.cut and len(v.text) <= MAX_CHARS and long.startswith(v.text) and not v.text.endswith(" ")
    assert v.note.isVisibleTo(v) and str(len(long)) in v.note.text()
    assert v.viterbi_pieces() == _raw(model.encode(v.text))


def test_typing_rebuilds_after_a_pause(view, model, qtbot):
    view.edit.setText("했습니다")
    qtbot.waitUntil(lambda: view.text == "했습니다", timeout=2000)
    assert view.nbest_rows()[0][0] == _raw(model.encode("했습니다"))


def test_presentation_scale_keeps_labels_apart(view, qtbot):
    from tokviz.ui import fonts

    view.set_text(KOREAN)
    small = view.canvas.size()
    fonts.set_scale(1.8)
    try:
        view.apply_font_scale()
        c = view.canvas
        assert c.width() > small.width() and c.height() > small.height()
        labels = [c.label_rect(i) for i in range(len(view.lattice.arcs))]
        assert not any(r.intersects(s) for r, s in itertools.combinations(labels, 2))
        assert all(QRectF(c.rect()).contains(c.arc_rect(i)) for i in range(len(labels)))
        # taller than its viewport: scrolled so that the characters stay in view
        view.resize(900, 360)
        view.apply_font_scale()
        bar = view.scroll.verticalScrollBar()
        qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=2000)
        cells = c.cell_rect(0)
        top_left = c.mapTo(view.scroll.viewport(), cells.bottomLeft().toPoint())
        assert 0 <= top_left.y() <= view.scroll.viewport().height()
    finally:
        fonts.set_scale(1.0)


def test_korean_interface(qtbot, model):
    from tokviz.ui.i18n import install_translation

    try:
        assert install_translation("ko") == "ko"
        v = LatticeView(model)
        qtbot.addWidget(v)
        v.set_text(KOREAN)
        v.reroll()
        v.nbest_list.setCurrentRow(1)
        assert v.reroll_button.text() == "다시 뽑기"
        # (a translation equal to its English source comes back empty from tr(): none may be)
        assert [s.title for s in v.canvas.strips] == ["비터비", "n-best 경로", "샘플"]
        assert v.nbest_list.item(1).toolTip().startswith("로그 확률 log P = −")
        assert v.sample_label.text().startswith("샘플 (α = 0.10, 시드 0): ")
    finally:
        install_translation("en")
