"""Jamo-level BPE in the views: a model trained on conjoining jamo shows its pieces as syllables where
their jamo form whole ones (것, 했) and as jamo elsewhere (ᆻ), in the Train panel's banner, table,
tree, sample and probe, and Inspect shows the user's own text with the jamo tokens mapped onto it."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextDocument

from tests.support.train_panel import open_train_panel, save_and_wait
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.jamo import decompose, recompose
from tokviz.core.jamo_input import JamoReader
from tokviz.ui.inspect.cells import token_cells
from tokviz.ui.inspect.describe import describe_token, partial_piece
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.views import SPEEDS

# 것 and 했 are frequent whole syllables; 았/었/했 share a final ㅆ that jamo BPE learns on its own
LINES = [
    "그것은 내가 했던 것이다 그것도 했다\n",
    "것 것 것이 했다 했어요 갔다 왔다 샀다\n",
    "우리가 했던 것은 좋았다 먹었다 잤다\n",
] * 8
PROBE = "그것은 했다 갔다"


def jamo_visible(text: str) -> bool:
    """Whether ``text`` shows conjoining jamo (U+1100..U+11FF)."""
    return any("\u1100" <= ch <= "\u11ff" for ch in text)


def lead_vowel_pairs(text: str) -> bool:
    """A lead consonant right before a vowel: jamo that should have been shown as a syllable."""
    return any("\u1100" <= a <= "\u1112" and "\u1161" <= b <= "\u1175" for a, b in zip(text, text[1:], strict=False))


def _set_up_for_jamo(panel):
    panel.trainer_factory = BPETrainer  # in this thread's worker: no process start for a tiny corpus
    panel.set_source(CorpusSource.paste("".join(LINES)))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    panel.jamo_check.setChecked(True)
    panel.merges_spin.setValue(40)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.probe_edit.setText(PROBE)
    return panel


@pytest.fixture
def panel(qtbot):
    panel = _set_up_for_jamo(open_train_panel(qtbot))
    yield panel
    panel.window().close()


@pytest.fixture(scope="module")
def trained(qapp, request):
    """One panel trained on jamo to the end, for the tests that read the run, the model it offers and
    what it saves (a window and a run of their own cost ~0.6 s CPU per test). Each test starts at the
    last step."""
    from pytestqt.qtbot import QtBot

    from tokviz.ui.main_window import MainWindow

    win = MainWindow()
    win.show()
    panel = _set_up_for_jamo(win.show_view("train"))
    panel.start_training()
    panel.run_to_end()
    QtBot(request).waitUntil(lambda: panel.run is None, timeout=20_000)
    yield panel
    win.close()
    win.deleteLater()


def _at_the_last_step(panel):
    panel.set_step(len(panel.replay))
    panel.segment_probe()
    return panel.replay.steps


def _plain(html: str) -> str:
    doc = QTextDocument()
    doc.setHtml(html)
    return doc.toPlainText()


def test_the_train_panel_trains_on_jamo_and_shows_syllables(trained, qtbot):
    panel = trained
    steps = _at_the_last_step(panel)
    pieces = [s.new_piece for s in steps]
    assert all(not any("\uac00" <= ch <= "\ud7a3" for ch in p) for p in pieces)  # it learned jamo
    assert decompose("것") + "</w>" in pieces or decompose("것") in pieces
    # the vocabulary table: every learned piece as it reads, whole syllables recomposed
    shown = [panel.vocab_model.data(panel.vocab_model.index(r, 1)) for r in range(panel.vocab_model.rowCount())]
    assert any("것" in s for s in shown) and any("했" in s for s in shown)
    assert not any(lead_vowel_pairs(s) for s in shown)
    assert any(jamo_visible(s) for s in shown)  # a piece such as ᆻ (the final ㅆ) stays jamo
    # the banner of the step that made 것, and of the last step
    geot = next(s for s in steps if "것" in recompose(s.new_piece))
    panel.set_step(geot.step)
    assert "것" in _plain(panel.merge_banner.text()) and not lead_vowel_pairs(_plain(panel.merge_banner.text()))
    panel.set_step(len(steps))
    assert not lead_vowel_pairs(_plain(panel.merge_banner.text()))
    # the merge tree of the token with 했
    hae = next(s for s in steps if "했" in s.new_piece.replace(decompose("했"), "했"))
    panel.select_token(hae.token_id)
    assert "했" in panel.tree_view.label(panel.tree_view.tree)
    # the sample and the probe: the user's syllables again, piece by piece, not their jamo (the
    # sample's lines out of sight follow a few per frame)
    sample = panel.sample_view
    qtbot.waitUntil(lambda: not any(isinstance(sample.line_runs(i), str) for i in range(sample.line_count())))
    for view in (panel.sample_view, panel.probe_view):
        runs = [r.text for i in range(view.line_count()) for r in view.line_runs(i)]
        assert any("것" in r for r in runs) and any("했" in r for r in runs)
        assert not any(lead_vowel_pairs(r) for r in runs)
    count = sum(1 for s in panel.replay.segment(decompose(PROBE), panel.cursor) if s.token_id is not None)
    assert panel.probe_status.text().startswith(f"{count} tokens")


def test_the_offered_jamo_model_reads_the_users_text_in_inspect(trained):
    panel = trained
    _at_the_last_step(panel)
    panel.offer_model_now()
    model = panel.session.trained_model
    assert isinstance(model, JamoReader) and model.settings.get("jamo")
    text = "그것은 했다 갔다 ok"
    enc = model.encode(text)
    assert enc.text == text and enc.normalized_text == decompose(text)
    # spans tile the user's characters (char mode leaves the spaces between words as gaps)
    assert "".join(text[t.start:t.end] for t in enc.tokens if not t.partial).replace(" ", "") != ""
    assert enc.tokens[-1].end == len(text)
    # the token view draws the user's characters; a token cutting a syllable shows the jamo it holds
    cells = token_cells(enc)
    segments = [s for c in cells for s in c.segments]
    assert "".join(s.text for s in segments if s.kind == "text").startswith("그것은")
    assert not any(lead_vowel_pairs(s.text) for s in segments)
    cut = [s.text for s in segments if s.kind == "hex"]
    # 40 merges learn ᅡᆻ다 but not 갔: its two tokens each cut it, and show their jamo, never hex
    assert len(cut) == 2 and recompose("".join(cut)) == "갔" and all(jamo_visible(t) for t in cut), cut
    assert [t.partial for t in enc.tokens] == ["갔" in text[t.start:t.end] for t in enc.tokens]
    # the details say which jamo of the syllable each token holds
    parts = [partial_piece(enc, i) for i, t in enumerate(enc.tokens) if t.partial]
    assert parts == [f"{cut[0]} of 갔", f"{cut[1]} of 갔 + 다"]
    whole = [i for i, t in enumerate(enc.tokens) if text[t.start:t.end] == "것은"]
    assert whole and "piece: 것은" in describe_token(enc, whole[0])


def test_compare_rows_draw_a_cut_syllable_as_the_jamo_each_token_holds(qtbot):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter

    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.encoders.builtin import default_registry
    from tokviz.core.jamo import decompose_lines
    from tokviz.core.jamo_input import reader_for
    from tokviz.ui.compare import rows as compare_rows
    from tokviz.ui.compare.panel import ComparePanel
    from tokviz.ui.session import Session
    from tokviz.ui.settings import Settings

    trainer = BPETrainer(TrainerConfig(mode="char", merges=40))
    for _ in trainer.run(decompose_lines(LINES)):
        pass
    model = trainer.model()
    model.settings["jamo"] = True
    session = Session(registry=default_registry(), settings=Settings.ephemeral())
    session.offer_trained_model(reader_for(model))
    panel = ComparePanel(session, encoders=[model.name, "gpt2"])
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    with qtbot.waitSignal(panel.rowsUpdated, timeout=60_000):
        panel.set_text("그것은 갔다")
        panel.refresh_now()
    drawn = []

    class RecordingPainter(QPainter):
        def drawText(self, *args):  # noqa: N802
            if len(args) == 3 and isinstance(args[0], QRectF):
                drawn.append((args[2], self.font() == panel.view._hex_font))
            return super().drawText(*args)

    real = compare_rows.QPainter
    compare_rows.QPainter = RecordingPainter
    try:
        panel.view.grab()
    finally:
        compare_rows.QPainter = real
    # the jamo model cuts 갔 into ᄀ | ᅡᆻ: drawn as those jamo (not as 갔's bytes EA | B0 94)
    labels = [t for t, hex_font in drawn if not hex_font]
    assert "ᄀ" in labels and "ᅡᆻ" in labels
    assert any(hex_font for _, hex_font in drawn)  # gpt2's row still cuts Hangul as bytes
    panel.shutdown()


def test_jamo_and_hangul_only_exclude_each_other_and_jamo_is_for_bpe(panel):
    assert panel.jamo_check.isChecked()
    panel.hangul_check.setChecked(True)  # Hangul-only drops conjoining jamo: it would blank the corpus
    assert not panel.jamo_check.isChecked()
    panel.jamo_check.setChecked(True)
    assert not panel.hangul_check.isChecked()
    panel.algorithms.set_algorithm("unigram")
    assert not panel.jamo_check.isEnabled()
    panel.algorithms.set_algorithm("bpe")
    assert panel.jamo_check.isEnabled()


def test_saving_a_jamo_model_keeps_it_a_reader_only_in_tokviz_json(trained, qtbot, tmp_path):
    from tokviz.core.encoders.builtin import open_model_file

    panel = trained
    _at_the_last_step(panel)
    written = save_and_wait(qtbot, panel, tmp_path / "jamo.json", "tokviz")
    assert isinstance(open_model_file(written[0]), JamoReader)
    assert "--jamo" not in panel.message.label.text()
    save_and_wait(qtbot, panel, tmp_path / "jamo.codes", "subword-nmt")
    assert "tokviz encode --jamo" in panel.message.label.text()  # a codes file cannot say so itself
