"""The Train panel's "why this pair" line: the merge on screen highlighted among its runners-up (the
candidates a :class:`tokviz.ui.train.follow.StepFollower` counted), ties explained. It draws what it
is given into its label and reads the step back from it; it computes nothing."""

from __future__ import annotations

import html
import re
from dataclasses import replace

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QLabel

from tokviz.core.bpe.events import MergeStep
from tokviz.core.bpe_candidates import Candidate
from tokviz.core.byte_names import name_merge
from tokviz.ui.train.views import FRESH_BG, hold_line_height, measure_ahead, measured_height
from tokviz.ui.train.vocab import compact_parts, elide_piece, shown_piece

translate = QCoreApplication.translate  # the panel's translation context, named in each call


def merged_candidate(replay, merged: MergeStep) -> Candidate:
    """The merge ``merged`` as a candidate pair, with the trainer's exact count."""
    return Candidate(
        merged.left,
        merged.right,
        merged.left_piece,
        merged.right_piece,
        replay.token_bytes(merged.left),
        replay.token_bytes(merged.right),
        merged.count,
    )


def pair_words(c: Candidate, byte_mode: bool, guesser) -> str:
    """A pair as "why this pair" names it: ``안 + 녕``; in byte mode both sides named together
    (EA + B2 are bytes of one character)."""
    if byte_mode:
        name = name_merge(c.left_bytes, c.right_bytes, guesser=guesser)
        left, right = compact_parts(name.left), compact_parts(name.right)
    else:
        left, right = shown_piece(c.left_piece), shown_piece(c.right_piece)
    return f"{elide_piece(left)} + {elide_piece(right)}"


class WhyPairView:
    """Draws "why this pair" into ``label``."""

    def __init__(self, label: QLabel) -> None:
        self.label = label

    def draw(self, step: int, replay, step_facts, guesser) -> None:
        """The merge of ``step`` among its runners-up (``step_facts``: the step's facts once a worker
        counted them, else None). Shown at every step of a run, the winner alone while the runners-up
        are counted: a block that came and went moved the vocabulary table below it on every frame."""
        if replay is None or step > len(replay):
            self.label.setText("")
            self.label.setMinimumHeight(0)
            hold_line_height(self.label)  # the height its first line takes in a run, from now
            return
        self._set(self.text(step, replay, step_facts, guesser))

    def prepare(self, step: int, replay, step_facts, guesser) -> None:
        """Measure the line of ``step`` before the frame that shows it (a slice of the frame's
        preparation): laying its rich text out took ~1 ms of the frame's turn."""
        if replay is not None and step <= len(replay):
            measure_ahead(self.label, self.text(step, replay, step_facts, guesser), self.label.width())

    @staticmethod
    def text(step: int, replay, step_facts, guesser) -> str:
        """The line of ``step`` as rich text (``replay`` holds ``step``)."""
        if step == 0:
            return f"<b>{html.escape(translate('TrainPanel', 'Why this pair:'))}</b> —"
        cands = step_facts.candidates if step_facts is not None and step_facts.step == step else None
        byte_mode = replay.mode == "byte"
        merged = replay.steps[step - 1]
        pairs = list(cands.pairs) if cands is not None else []
        # the pair the trainer merged is the one highlighted; counted over the most frequent words
        # only (a capped corpus), it may rank lower or be missing: then it leads with its true count
        won = [
            i for i, c in enumerate(pairs) if (c.left_piece, c.right_piece) == (merged.left_piece, merged.right_piece)
        ]
        if won:  # with the trainer's exact count (a capped count is a lower bound)
            winner = replace(pairs.pop(won[0]), count=merged.count)
        else:
            winner = merged_candidate(replay, merged)
            pairs = pairs[: max(0, len(pairs) - 1)]
        pairs.insert(0, winner)
        cells = []
        for i, c in enumerate(pairs):
            text = html.escape(pair_words(c, byte_mode, guesser)) + f" <b>{c.count:,}</b>"
            if i == 0:
                text = f'<span style="background:{FRESH_BG}; color:#ffffff">&nbsp;{text}&nbsp;</span>'
            cells.append(text)
        head = translate("TrainPanel", "Why this pair:")
        if cands is not None and cands.capped:
            head = translate("TrainPanel", "Why this pair (top pairs among the {n} most frequent words):").format(
                n=f"{cands.words_used:,}"
            )
        note = ""
        if cands is not None and cands.tied > 1:
            rule = (
                translate("TrainPanel", "the smallest pair of token ids wins (as rustbpe)")
                if byte_mode
                else translate("TrainPanel", "the alphabetically last pair wins (as subword-nmt)")
            )
            note = " — " + translate("TrainPanel", "{n} pairs tie at the top count; {rule}").format(
                n=cands.tied, rule=rule
            )
        # a bar between the pairs: a "·" read as one more space marker (a space is drawn as "·")
        return f"<b>{html.escape(head)}</b> " + " │ ".join(cells) + html.escape(note)

    def shown_step(self, replay, cursor: int, guesser) -> int | None:
        """The step whose merge the line highlights, read back from its text (0: step 0's dash; None:
        nothing shown)."""
        text = self.label.text()
        if replay is None or not text:
            return None
        first = html.unescape(re.sub(r"<[^>]+>", "", text.split("│")[0])).replace("\xa0", " ")
        if first.rstrip().endswith("—"):
            return 0
        byte_mode = replay.mode == "byte"
        for k in range(min(cursor, len(replay)), 0, -1):  # the step on screen first
            s = replay.steps[k - 1]
            words = pair_words(merged_candidate(replay, s), byte_mode, guesser)
            if f" {words} {s.count:,}" in first:
                return k
        return None

    def _set(self, text: str) -> None:
        # during a run the block only grows (runners-up arriving make it two lines): the table below
        # it stays put from frame to frame
        label = self.label
        hold_line_height(label)
        label.setText(text)
        height = measured_height(label, label.width())  # the frame holding it measures the same text
        # nor below the height it has on screen: its frame may have given it more room than this measure
        # (measured at another width while the layout settled), and that room is kept for the run
        if label.isVisible():
            height = max(height, label.height())
        if height > label.minimumHeight():
            label.setMinimumHeight(height)
