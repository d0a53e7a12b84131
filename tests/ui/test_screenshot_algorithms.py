"""`tokviz screenshot --view train --algorithm ...`: the Train panel trains WordPiece or Unigram as a user
would, and the picture shows what the issue asks for (the Unigram lattice; WordPiece beside BPE)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from tokviz.commands.screenshot import prepare_algorithm
from tokviz.ui.main_window import MainWindow


def _args(**kw) -> argparse.Namespace:
    base = dict(algorithm="unigram", corpus=None, vocab_size=None, beside_bpe=False, line=None, text=None)
    base.update(kw)
    return argparse.Namespace(**base)


@pytest.fixture
def panel(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1600, 1000)
    win.show()
    yield win.show_view("train")
    win.close()


def test_unigram_shows_the_lattice_of_a_hangul_line_with_a_sampled_path(panel):
    prepare_algorithm(panel, _args(text="산책을 했다 🙂"))
    training = panel.algorithms
    assert training.algorithm == "unigram" and training.run is None
    assert training.cursor == len(training.steps) > 0
    lattice = training.view.lattice
    assert lattice.isVisibleTo(panel) and lattice.lattice is not None
    assert lattice.text == "산책을 했다 🙂"
    assert lattice.canvas.sampled and lattice.sample_result() is not None  # a re-roll is on screen
    assert any("\uac00" <= ch <= "\ud7a3" for ch in training.view.selected_line())


def test_wordpiece_beside_bpe_shows_where_the_criteria_first_disagree(panel):
    prepare_algorithm(panel, _args(algorithm="wordpiece", vocab_size=1400, beside_bpe=True))
    training = panel.algorithms
    assert training.algorithm == "wordpiece" and training.compare_check.isChecked()
    assert training.comparison is not None and training.comparison.disagreement is not None
    shown = training.view.compare_text.toPlainText()
    assert "BPE" in shown and "WordPiece" in shown and training.view.compare_text.isVisibleTo(panel)


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "tokviz", "screenshot", *args], capture_output=True, text=True,
                          env=env, timeout=300, check=False)


def test_the_command_writes_a_unigram_picture_and_refuses_options_that_do_not_fit(tmp_path):
    png = tmp_path / "unigram.png"
    done = _cli("--view", "train", "--algorithm", "unigram", "--size", "1200x800", "-o", str(png))
    assert done.returncode == 0, done.stderr
    assert png.stat().st_size > 10_000
    for bad, said in ((["--view", "inspect", "--algorithm", "unigram"], "--algorithm is for the train view"),
                      (["--view", "train", "--beside-bpe"], "--beside-bpe is for --algorithm wordpiece"),
                      (["--view", "train", "--vocab-size", "500"], "--vocab-size is for"),
                      (["--view", "train", "--text", "x"], "--text is for"),
                      (["--view", "train", "--algorithm", "wordpiece", "--vocab-size", "10"], "smaller than")):
        out = _cli(*bad, "-o", str(tmp_path / "x.png"))
        assert out.returncode != 0 and said in out.stderr and "Traceback" not in out.stderr, out.stderr
        assert not (tmp_path / "x.png").exists()
