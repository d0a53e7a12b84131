"""The Train panel with tokviz's real BPE trainer: the merges shown are the core's, and the corpus
sample / probe segmentation replayed from recorded events equals the core model's own encoding."""

from __future__ import annotations

import pytest

from tests.support.train_panel import LINES, TEXT, core_steps, open_train_panel, save_and_wait
from tokviz.ui.train.corpus import CorpusSource, demo_corpus_path
from tokviz.ui.train.views import SPEEDS

PROBES = ["안녕하세요 토크나이저", "the lowest tokens 🙂", "영화 재미있어요!"]


@pytest.fixture
def panel(qtbot):
    panel = open_train_panel(qtbot)
    yield panel
    panel.window().close()


def _train(panel, qtbot, source, *, mode="byte", merges=60, keep=False):
    panel.set_source(source)
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData(mode))
    panel.hangul_check.setChecked(keep)
    panel.merges_spin.setValue(merges)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.start_training()
    assert panel.wait_until_trained(60)
    qtbot.waitUntil(lambda: panel.cursor == len(panel.replay), timeout=3000)


@pytest.fixture(scope="module")
def runs(qapp, request):
    """``runs(mode)``: one window per mode trained on TEXT to 60 merges (Hangul not kept), trained when
    a test first asks. The tests that check a run's merges, save its model or are refused a format
    only read it or set their own step, so they share it (a run and its window cost ~1 s CPU)."""
    from pytestqt.qtbot import QtBot

    from tokviz.ui.main_window import MainWindow

    bot = QtBot(request)
    made = {}

    def run(mode: str):
        if mode not in made:
            win = MainWindow()
            win.show()
            made[mode] = win.show_view("train")
            _train(made[mode], bot, CorpusSource.paste(TEXT), mode=mode, merges=60)
        return made[mode]

    yield run
    for panel in made.values():
        panel.window().close()
        panel.window().deleteLater()


@pytest.mark.parametrize("mode,keep", [("byte", False), ("byte", True), ("char", False), ("char", True)])
def test_merges_shown_equal_the_cores_and_replayed_segmentation_equals_the_model(request, runs, qtbot, mode, keep):
    if keep:  # a run of its own: Hangul kept whole
        panel = request.getfixturevalue("panel")
        _train(panel, qtbot, CorpusSource.paste(TEXT), mode=mode, merges=60, keep=keep)
    else:
        panel = runs(mode)
    trainer, core = core_steps(panel.config, LINES)
    assert panel.replay.steps == core
    # the table redraws on a throttle after the cursor arrives: wait for its rows, not the cursor
    qtbot.waitUntil(lambda: panel.vocab_model.rowCount() == len(core), timeout=10_000)
    for step in (0, 1, 10, len(core)):
        panel.set_step(step)
        model = trainer.model(step)
        for text in PROBES + LINES[:5]:
            segs = [s for s in panel.replay.segment(text.rstrip("\n"), step) if s.token_id is not None]
            enc = model.encode(text.rstrip("\n"))
            if mode == "byte":
                assert [s.token_id for s in segs] == enc.ids, (step, text)
            else:
                assert [s.data for s in segs] == [t.bytes for t in enc.tokens], (step, text)


def test_demo_corpus_trains_and_the_model_is_offered(panel, qtbot):
    if not demo_corpus_path().is_file():
        pytest.skip("the demo corpus is not written yet")
    _train(panel, qtbot, CorpusSource.demo(), merges=80)
    assert len(panel.replay) == 80 and panel.finished.reason == "merges"
    qtbot.waitUntil(lambda: panel.session.trained_model is not None
                    and panel.session.trained_model.name == "tokviz BPE (step 80)", timeout=3000)
    assert panel.sample_view.toPlainText().strip()


def test_invalid_utf8_file_offers_replacement_and_then_trains(panel, qtbot, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes("안녕 안녕 하세요\n".encode() * 5 + b"ok \xff bad\n" + "안녕 하세요\n".encode() * 5)
    panel.set_source(CorpusSource.file(path))
    panel.merges_spin.setValue(10)
    panel.start_training()
    assert panel.wait_until_trained(20)
    qtbot.waitUntil(lambda: panel.message.isVisible(), timeout=3000)
    text = panel.message.label.text()
    assert "line 6" in text and "U+FFFD" in text
    assert panel.message.action.isVisible()
    panel.message.action.click()  # "Replace invalid bytes and train"
    assert panel.wait_until_trained(20)
    qtbot.waitUntil(lambda: panel.replay is not None and len(panel.replay) > 0, timeout=3000)
    assert panel.finished is not None and panel.source.errors == "replace"


@pytest.mark.parametrize("mode", ["byte", "char"])
def test_save_model_in_every_format_of_the_mode_and_load_it_back(runs, qtbot, tmp_path, mode):
    from tokviz.core.bpe.formats import load_model

    panel = runs(mode)
    panel.set_step(25)
    expected = panel.current_model()
    formats = [name for name, _ in panel.formats_for_mode()]
    assert formats == (["tokviz", "tiktoken", "gpt2"] if mode == "byte" else ["tokviz", "subword-nmt"])
    for fmt in formats:
        target = tmp_path / fmt / "model"
        target.parent.mkdir()
        written = save_and_wait(qtbot, panel, target, fmt)
        assert written and all(p.exists() for p in map(__import__("pathlib").Path, written)), fmt
        loaded = load_model(written[0])  # gpt2: model-vocab.json beside model-merges.txt
        for text in PROBES:
            assert [t.bytes for t in loaded.encode(text).tokens] == [t.bytes for t in expected.encode(text).tokens], fmt
    assert "Saved the model at step 25" in panel.message.label.text()


def test_saving_in_a_format_that_does_not_fit_shows_a_message(runs, qtbot, tmp_path):
    panel = runs("char")
    assert save_and_wait(qtbot, panel, tmp_path / "x.tiktoken", "tiktoken") == []
    assert panel.message.isVisible() and "byte-mode" in panel.message.label.text()
