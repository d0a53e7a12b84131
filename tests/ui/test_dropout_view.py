"""BPE-dropout in the Inspector, through the widget: P=0 is plain encoding, P=1 leaves base tokens, one
seed gives one sample, and the boundary bars are core's boundary_frequencies."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.dropout import boundary_frequencies
from tokviz.core.encoders.registry import Registry
from tokviz.ui.common.work import TaskState
from tokviz.ui.inspect.dropout_view import MAX_CHARS, DropoutView, dropout_text, sample_and_count
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session

CORPUS = Path(__file__).resolve().parent.parent / "data" / "nsmc_ko_600.txt"
TEXT = "이 영화 정말 재미있어요 배우들 연기도 좋고 ㅋㅋ 😀"


@pytest.fixture(scope="module")
def model():
    """A byte BPE trained by tokviz on Korean reviews (can do dropout)."""
    trainer = BPETrainer(TrainerConfig(mode="byte", merges=300, min_frequency=2))
    for _ in trainer.run(CORPUS.read_text(encoding="utf-8").splitlines(keepends=True)):
        pass
    return trainer.model()


def shown(qtbot, view: DropoutView, **settings):
    """Apply the settings (p, seed, samples) and wait for the view's new result."""
    with qtbot.waitSignal(view.updated, timeout=30_000):
        if "p" in settings:
            view.p_slider.setValue(round(settings["p"] * 100))
        if "seed" in settings:
            view.seed_spin.setValue(settings["seed"])
        if "samples" in settings:
            view.samples_spin.setValue(settings["samples"])
        view.recompute()
    qtbot.waitUntil(lambda: not view.busy())
    return view.result


@pytest.fixture
def view(qtbot, model):
    v = DropoutView()
    qtbot.addWidget(v)
    v.resize(900, 300)
    with qtbot.waitSignal(v.updated, timeout=30_000):
        v.set_source(model, TEXT)
    yield v
    v.shutdown()


def test_p0_is_plain_encoding(qtbot, view, model):
    result = shown(qtbot, view, p=0.0, seed=3)
    assert result.sample.ids == model.encode(TEXT).ids
    assert len(model.encode(TEXT).ids) < len(TEXT.encode("utf-8"))  # merges did apply
    assert result.stats.counts == {b: result.stats.samples for b in result.stats.plain}


def test_p1_leaves_base_tokens(qtbot, view):
    result = shown(qtbot, view, p=1.0, seed=3)
    assert all(len(t.bytes) == 1 for t in result.sample.tokens)
    assert b"".join(t.bytes for t in result.sample.tokens) == TEXT.encode("utf-8")
    assert view.sample_bytes()[:3] == ["EC", "9D", "B4"]  # 이, byte by byte, upper-case hex


def test_same_seed_same_sample_and_reroll_changes_it(qtbot, view):
    first = shown(qtbot, view, p=0.5, seed=11).sample.ids
    with qtbot.waitSignal(view.updated, timeout=30_000):
        view.reroll_button.click()
    qtbot.waitUntil(lambda: not view.busy())
    assert view.seed_spin.value() == 12
    assert view.result.sample.ids != first
    again = shown(qtbot, view, seed=11).sample.ids
    assert again == first


def test_boundary_bars_are_boundary_frequencies(qtbot, view, model):
    result = shown(qtbot, view, p=0.3, seed=7, samples=150)
    expected = boundary_frequencies(model, TEXT, p=0.3, samples=150, seed=7)
    assert result.stats.counts == expected.counts and result.stats.plain == expected.plain
    heights = view.strip.bar_heights()
    total = len(TEXT.encode("utf-8"))
    assert heights == {b: c / 150 for b, c in expected.counts.items() if 0 < b < total}
    assert any(0 < h < 1 for h in heights.values())  # some boundaries only sometimes


def test_hidden_for_an_encoder_without_dropout(qtbot, view):
    class Plain:
        name = "plain"

        def encode(self, text, allow_special=False):
            raise AssertionError("not called")

    view.set_source(Plain(), TEXT)
    assert not view.isVisible()


def test_long_text_is_cut_at_a_space():
    text = "가나 " * 2000
    cut = dropout_text(text)
    assert MAX_CHARS - 3 <= len(cut) <= MAX_CHARS and cut.endswith(" ") and text.startswith(cut)


def test_the_inspector_offers_dropout_for_a_trained_model(qtbot, model):
    session = Session(Registry())
    session.offer_trained_model(model)
    panel = InspectPanel(session)
    qtbot.addWidget(panel)
    panel.show()
    panel.set_encoder(model.name)
    panel.set_text(TEXT)
    with qtbot.waitSignal(panel.dropout_view.updated, timeout=30_000):
        panel.encode_now()
    assert panel.dropout_view.isVisible()
    qtbot.waitUntil(lambda: not panel.dropout_view.busy())
    assert panel.dropout_view.result.text == TEXT
    panel.shutdown()


def test_folding_gives_the_room_back(qtbot, view):
    tall = view.height()
    view.title.setChecked(False)
    assert view.height() < tall / 2 and not view.strip_scroll.isVisible()
    view.title.setChecked(True)
    assert view.height() == tall


def test_the_sample_is_reported_before_the_count(model):
    reports = []
    result = sample_and_count(model, TEXT, 0.4, 9, 30, state=TaskState(reports.append))
    (done, total, early), = reports
    assert early.stats is None and early.sample.ids == result.sample.ids
    assert result.stats.samples == 30
    cancelled = TaskState()
    cancelled.cancel()
    assert sample_and_count(model, TEXT, 0.4, 9, 30, state=cancelled) is None


def test_a_rank_vocabulary_gets_dropout_through_its_recovered_merges_when_asked(qtbot):
    """cl100k_base, o200k_base, Llama 3/4 and tekken are rank files: Inspect → "Try BPE-dropout on a
    rank vocabulary" shows the view for them, sampling through the merges tokviz recovers (not
    before: recovery costs seconds on o200k, and the Inspector opens on cl100k_base)."""
    from tests.support.vocab_encoders import small_encoder
    from tokviz.core.encoders.registry import Registry
    from tokviz.ui.inspect.panel import InspectPanel
    from tokviz.ui.session import Session

    ranked = small_encoder("small-ranks", unbuilt=False)
    registry = Registry()
    registry.add(ranked)
    panel = InspectPanel(Session(registry))
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    text = "것 abcd the"
    panel.set_text(text)
    panel.encode_now()
    assert panel.wait_for_result(10)
    view = panel.dropout_view
    assert view.isHidden()  # not offered unasked
    action = next(a for a in panel.menu_actions() if a is not None and a.key == "dropout")
    with qtbot.waitSignal(view.updated, timeout=30_000):
        action.slot()
    assert not view.isHidden() and view.expanded()
    assert shown(qtbot, view, p=0.0).sample.ids == ranked.encode(text).ids
    assert len(shown(qtbot, view, p=1.0).sample.ids) == len(text.encode("utf-8"))  # P = 1 leaves the bytes
    panel.shutdown()
