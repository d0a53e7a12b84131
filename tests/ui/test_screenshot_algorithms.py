"""`tokviz screenshot --view train --algorithm ...`: the Train panel trains WordPiece or Unigram as a user
would, and the picture shows what the issue asks for (the Unigram lattice; WordPiece beside BPE)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest

from tokviz.cli import main
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


def _cli_process(*args: str) -> subprocess.Popen:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.Popen([sys.executable, "-m", "tokviz", "screenshot", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_the_command_writes_a_unigram_picture_and_refuses_options_that_do_not_fit(tmp_path, capsys):
    # Two real processes, side by side: the picture, and a vocabulary the trainer refuses only once it
    # has read the corpus (a GUI run). Options that do not fit are refused before any window, so those
    # run in this process, through the same entry point, each a process start (~0.4 s) cheaper.
    png = tmp_path / "unigram.png"
    picture = _cli_process("--view", "train", "--algorithm", "unigram", "--size", "1200x800", "-o", str(png))
    too_small = _cli_process("--view", "train", "--algorithm", "wordpiece", "--vocab-size", "10",
                             "-o", str(tmp_path / "small.png"))
    for bad, said in ((["--view", "inspect", "--algorithm", "unigram"], "--algorithm is for the train view"),
                      (["--view", "train", "--beside-bpe"], "--beside-bpe is for --algorithm wordpiece"),
                      (["--view", "train", "--vocab-size", "500"], "--vocab-size is for"),
                      (["--view", "train", "--text", "x"], "--text is for")):
        assert main(["screenshot", *bad, "-o", str(tmp_path / "x.png")]) == 2
        err = capsys.readouterr().err
        assert said in err, err
        assert not (tmp_path / "x.png").exists()
    try:
        _, err = picture.communicate(timeout=300)
        assert picture.returncode == 0, err
        assert png.stat().st_size > 10_000
        _, err = too_small.communicate(timeout=300)
        assert too_small.returncode != 0 and "smaller than" in err and "Traceback" not in err, err
        assert not (tmp_path / "small.png").exists()
    finally:
        for proc in (picture, too_small):
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
