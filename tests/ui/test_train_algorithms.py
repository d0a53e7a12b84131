"""WordPiece and Unigram trained through the real Train panel (tokviz/ui/train/algorithms.py)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.support.train_panel import save_and_wait
from tokviz.core.merge_criteria import first_disagreement
from tokviz.core.step_text import CONTEXT, describe, templates
from tokviz.core.training.process import ProcessTrainer
from tokviz.core.unigram.events import EMStep, FinalStep, PruneStep
from tokviz.core.wordpiece.trainer import WordPieceStep
from tokviz.ui.i18n import TsTranslator
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.algorithm_views import step_lines
from tokviz.ui.train.corpus import CorpusSource

CORPUS = Path(__file__).parents[1] / "data" / "nsmc_ko_600.txt"
TS = Path(__file__).parents[2] / "resources" / "translations" / "tokviz_ko.ts"


def corpus_text(n: int) -> str:
    with open(CORPUS, encoding="utf-8") as f:
        return "".join(f.readlines()[:n])


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()


def _panel(window, algorithm: str, vocab: int, text: str):
    panel = window.show_view("train")
    panel.set_source(CorpusSource.paste(text))
    panel.algorithms.set_algorithm(algorithm)
    panel.algorithms.vocab_spin.setValue(vocab)
    return panel, panel.algorithms


def _trained(qtbot, algos, timeout=60_000) -> None:
    qtbot.waitUntil(lambda: algos.finished is not None and algos.run is None, timeout=timeout)


def test_the_wordpiece_and_unigram_view_is_built_when_one_of_them_is_first_chosen(window):
    """BPE, the default, never shows the other algorithms' view (two plots and a lattice): the panel
    opens without building it, and it appears, and stays for the next time, once one is chosen."""
    from tokviz.ui.train.algorithm_views import AlgorithmView

    panel = window.show_view("train")
    assert panel.algorithms.algorithm == "bpe" and panel.findChildren(AlgorithmView) == []
    panel.algorithms.set_algorithm("unigram")
    (view,) = panel.findChildren(AlgorithmView)
    assert view.isVisible() and not panel.merge_banner.isVisible()
    panel.algorithms.set_algorithm("bpe")
    assert panel.findChildren(AlgorithmView) == [view] and not view.isVisible() and panel.merge_banner.isVisible()


def test_unigram_trains_to_the_end_and_the_lattice_is_the_models_viterbi(window, qtbot, monkeypatch, tmp_path):
    panel, algos = _panel(window, "unigram", 700, corpus_text(100))
    # the training process answers a model request only between two steps (0.1-0.6 s each on a real
    # corpus): asked on the GUI thread, every step shown froze the window that long
    asked_on_the_gui_thread = []
    ask = ProcessTrainer.model

    def model(self, step=None):
        asked_on_the_gui_thread.append(threading.current_thread() is threading.main_thread())
        return ask(self, step)

    monkeypatch.setattr(ProcessTrainer, "model", model)
    panel.train_button.click()
    _trained(qtbot, algos)
    assert algos.finished.reason == "merges"
    kinds = [type(e) for e in algos.steps]
    assert EMStep in kinds and kinds[-1] is FinalStep and [e.step for e in algos.steps] == list(
        range(1, len(kinds) + 1))
    assert algos.cursor == len(algos.steps)
    assert "Final vocabulary: 700 pieces" in algos.view.banner.text()
    # the plots: one vocabulary size per step, one log-likelihood per EM iteration
    xs, sizes = algos.view.plots.curve_data("size")
    assert list(xs) == [e.step for e in algos.steps]
    assert sizes[-1] == 700
    ems = [e for e in algos.steps if isinstance(e, EMStep)]
    assert list(algos.view.plots.curve_data("ll")[1]) == [e.log_likelihood for e in ems]

    final = ask(algos.trainer, len(algos.steps))  # the test's own question, not one of the panel's
    # fetched in the background, latest step wins: a model of an earlier step may show first
    qtbot.waitUntil(
        lambda: algos.view.lattice.model is not None and algos.view.lattice.model.vocab_size == final.vocab_size,
        timeout=10_000,
    )
    assert asked_on_the_gui_thread and not any(asked_on_the_gui_thread)
    algos.view.select_line(2)
    line = algos.view.lattice.text  # the sample line (its first 60 characters when longer)
    assert algos.view.selected_line().startswith(line)
    assert line and algos.view.lattice.viterbi_pieces() == [t.raw for t in final.encode(line).tokens]
    # an earlier step: the lattice follows the model at that step (a bigger vocabulary, other scores)
    prune = next(e for e in algos.steps if isinstance(e, PruneStep))
    algos.view.slider.setValue(prune.step - 1)
    earlier = algos.trainer.model(prune.step - 1)
    assert algos.cursor == prune.step - 1
    qtbot.waitUntil(lambda: algos.view.lattice.model.vocab_size == earlier.vocab_size, timeout=10_000)
    assert earlier.vocab_size > final.vocab_size
    assert algos.view.lattice.viterbi_pieces() == [t.raw for t in earlier.encode(line).tokens]
    assert algos.view.banner.text().count("EM round") == 1
    # the model at the step on screen is offered to Inspect and Compare
    qtbot.waitUntil(lambda: window.session.trained_model is not None
                    and window.session.trained_model.vocab_size == earlier.vocab_size)
    assert "Unigram" in window.session.trained_model.name
    _check_the_model_at_step_2_saves_as_a_tokenizer_json(qtbot, panel, algos, tmp_path)


def test_wordpiece_trains_to_the_end_with_its_banner_plots_and_model(window, qtbot, tmp_path):
    panel, algos = _panel(window, "wordpiece", 800, corpus_text(100))
    panel.end_button.click()
    _trained(qtbot, algos)
    assert algos.finished.reason == "merges"
    steps = algos.steps
    assert steps and all(isinstance(e, WordPieceStep) for e in steps) and steps[-1].vocab_size == 800
    algos.show_step(3)
    e = steps[2]
    banner = algos.view.banner.text()
    assert f"Merge 3: {e.left} + {e.right} → {e.new_piece}" in banner
    assert f"= {e.pair_count:,} / ({e.left_count:,} × {e.right_count:,}) = {e.score:.4g}" in banner
    x, score = algos.view.plots.curve_data("score")
    assert list(x) == [1, 2, 3] and list(score) == [s.score for s in steps[:3]]
    assert list(algos.view.plots.curve_data("left")[1]) == [s.left_count for s in steps[:3]]
    qtbot.waitUntil(lambda: window.session.trained_model is not None
                    and window.session.trained_model.name == "tokviz WordPiece (step 3)")
    assert window.session.registry.get("tokviz WordPiece (step 3)") is window.session.trained_model
    _check_the_model_at_step_2_saves_as_a_tokenizer_json(qtbot, panel, algos, tmp_path)
    # back to BPE: the panel's own views again, the WordPiece model withdrawn
    algos.set_algorithm("bpe")
    assert not algos.view.isVisible() and panel.merge_banner.isVisible()
    assert window.session.trained_model is None


def test_wordpiece_beside_bpe_shows_the_first_disagreement_and_its_counts(window, qtbot):
    text = corpus_text(60)
    panel, algos = _panel(window, "wordpiece", 600, text)
    algos.compare_check.setChecked(True)
    panel.train_button.click()
    _trained(qtbot, algos)
    qtbot.waitUntil(lambda: algos.comparison is not None, timeout=60_000)
    expected = first_disagreement(text.splitlines(keepends=True), max_steps=600)
    d, got = expected.disagreement, algos.comparison.disagreement
    assert got is not None and (got.step, got.bpe.surface, got.wordpiece.surface) == (
        d.step, d.bpe.surface, d.wordpiece.surface)
    shown = algos.view.compare_text.toPlainText()
    assert f"Step {d.step}: the criteria disagree" in shown
    w = d.wordpiece.wordpiece[0]
    assert f"{w.pair_count:,} / ({w.left_count:,} × {w.right_count:,})" in shown
    assert f"count {d.bpe.bpe[0].pair_count:,}" in shown


def test_cancel_mid_em_keeps_the_steps_made_and_their_model(window, qtbot):
    panel, algos = _panel(window, "unigram", 700, corpus_text(100))
    panel.train_button.click()
    panel.pause_button.click()  # the worker blocks after its next step: between two EM iterations
    qtbot.waitUntil(lambda: len(algos.steps) >= 1)
    panel.step_button.click()  # exactly one more
    qtbot.waitUntil(lambda: len(algos.steps) >= 2)
    assert algos.run is not None and all(isinstance(e, EMStep) for e in algos.steps)
    panel.cancel_button.click()
    assert algos.run is None and algos.finished.reason == "cancelled"
    assert len(algos.steps) == 2
    assert "cancelled" in panel.message.label.text()
    # the model of step 1 may have been offered while paused there: wait for the step on screen's
    want = algos.trainer.model(2).vocab_size
    session = window.session
    qtbot.waitUntil(lambda: session.trained_model is not None and session.trained_model.vocab_size == want)


@pytest.fixture(scope="module")
def refusing_window(qapp):
    """One window for the runs refused before they start: nothing is trained in it, so each test sees
    it as new (sharing it saves a window, a Train panel and an algorithm view per test)."""
    win = MainWindow()
    win.show()
    yield win
    win.close()
    win.deleteLater()


def _refused(window, qtbot, algorithm: str, vocab: int, text: str) -> tuple:
    panel, algos = _panel(window, algorithm, vocab, text)
    panel.message.clear()  # the previous test's refusal: this test waits for its own
    assert not panel.message.isVisible()
    panel.train_button.click()
    qtbot.waitUntil(lambda: algos.run is None and panel.message.isVisible())
    return panel, algos


@pytest.mark.parametrize("algorithm", ["wordpiece", "unigram"])
def test_an_empty_corpus_gives_a_message(refusing_window, qtbot, algorithm):
    panel, algos = _refused(refusing_window, qtbot, algorithm, 500, " \n\n")
    assert "no words to train on" in panel.message.label.text()
    assert algos.steps == []


@pytest.mark.parametrize("algorithm", ["wordpiece", "unigram"])
def test_a_vocabulary_smaller_than_the_alphabet_gives_a_message(refusing_window, qtbot, algorithm):
    panel, algos = _refused(refusing_window, qtbot, algorithm, 50, corpus_text(60))
    assert "vocabulary size 50 is smaller than" in panel.message.label.text()
    assert algos.steps == [] and refusing_window.session.trained_model is None


def test_presentation_mode_plays_unigram_step_by_step(window, qtbot):
    panel, algos = _panel(window, "unigram", 700, corpus_text(100))
    shown: list[int] = []  # every step the view was asked to show
    original = algos.view.show_step

    def spy(steps, cursor, model, finished):
        shown.append(cursor)
        original(steps, cursor, model, finished)

    algos.view.show_step = spy
    assert panel.auto_play(10.0)
    _trained(qtbot, algos)
    qtbot.waitUntil(lambda: algos.cursor == len(algos.steps) and not algos.anim_timer.isActive(), timeout=30_000)
    n = len(algos.steps)
    assert [c for c in range(1, n + 1) if c in shown] == list(range(1, n + 1))  # every step was on screen
    panel.stop_auto_play()
    assert algos.pace is None


def test_the_banner_is_korean_under_the_korean_translation(qtbot):
    from tokviz.ui.i18n import install_translation

    e = WordPieceStep(step=3, description="", left="##g", right="##s", new_piece="##gs", token_id=30,
                      pair_count=5, left_count=20, right_count=5, score=0.05, vocab_size=31)
    try:
        assert install_translation("ko") == "ko"
        lines = step_lines([None, None, e], 3)
    finally:
        install_translation("en")
    assert lines[0] == "병합 3: ##g + ##s → ##gs"
    assert lines != describe(e).lines()


def test_every_step_template_has_a_korean_translation():
    have = TsTranslator(TS)._messages
    missing = [t for t in templates() if (CONTEXT, t) not in have]
    assert missing == []


def _check_the_model_at_step_2_saves_as_a_tokenizer_json(qtbot, panel, algos, tmp_path) -> None:
    """The model at the step on screen saves as a tokenizer.json that the tokenizers library reads and
    encodes with as the model does. Checked on the run of the test that trained to the end (a run of
    its own cost ~1.2 s CPU per algorithm); last, as the library may be missing."""
    tokenizers = pytest.importorskip("tokenizers")
    algos.show_step(2)
    assert panel.save_button.isEnabled()
    [written] = save_and_wait(qtbot, panel, tmp_path / "model.json", "tokenizer-json", save=algos.save_model_to)
    hf = tokenizers.Tokenizer.from_file(str(written))
    model = algos.trainer.model(2)
    line = corpus_text(100).splitlines()[5]
    assert hf.encode(line).ids == list(model.encode(line).ids)
    assert hf.get_vocab_size() == model.vocab_size
