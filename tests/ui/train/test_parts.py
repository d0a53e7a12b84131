"""The Train panel is assembled from parts it owns (issue 24), and "why this pair" is one of them:
drawn from what it is given, read back from what it shows."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QWidget

from tokviz.core.bpe_candidates import Candidate
from tokviz.ui.train.follow import StepFacts
from tokviz.ui.train.panel import TrainPanel
from tokviz.ui.train.why_pair import WhyPairView


def test_the_panel_is_a_plain_widget_that_owns_its_parts():
    assert TrainPanel.__bases__ == (QWidget,)  # no mixins sharing attributes through self


class Replay:
    """Two char-mode merges: l + o -> lo (count 9), lo + w</w> -> low</w> (count 7)."""

    mode = "char"
    steps = [
        SimpleNamespace(left=1, right=2, left_piece="l", right_piece="o", count=9, token_id=10),
        SimpleNamespace(left=10, right=3, left_piece="lo", right_piece="w</w>", count=7, token_id=11),
    ]

    def __len__(self) -> int:
        return len(self.steps)

    def token_bytes(self, token_id: int) -> bytes:
        return b""


def _shown(label: QLabel) -> str:
    """The label's text as a reader sees it."""
    doc = QTextDocument()
    doc.setHtml(label.text())
    return doc.toPlainText().replace("\xa0", " ")


def test_why_this_pair_shows_the_merge_on_screen_and_its_runners_up(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    why, replay = WhyPairView(label), Replay()
    why.draw(2, replay, None, None)  # the runners-up not counted yet: the winner alone
    assert "lo + w</w> 7" in _shown(label)
    assert why.shown_step(replay, 2, None) == 2
    # counted over the most frequent words only, the winner's count is a lower bound: the trainer's is shown
    winner = Candidate(10, 3, "lo", "w</w>", b"lo", b"w", 6)
    runner_up = Candidate(2, 3, "o", "w</w>", b"o", b"w", 5)
    counted = SimpleNamespace(pairs=(runner_up, winner), capped=False, tied=1, words_used=3)
    why.draw(2, replay, StepFacts(2, (), counted), None)
    assert "lo + w</w> 7  │ o + w</w> 5" in _shown(label) and why.shown_step(replay, 2, None) == 2
    why.draw(0, replay, None, None)
    assert why.shown_step(replay, 0, None) == 0  # step 0: the heading and a dash
    height = label.minimumHeight()
    why.draw(3, replay, None, None)  # past the recording: nothing
    assert label.text() == "" and why.shown_step(replay, 3, None) is None
    assert label.minimumHeight() <= height
