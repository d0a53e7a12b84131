"""What the side-by-side comparison of BPE and WordPiece finds at their first disagreement, as plain
data: the pairs behind each side's choice with their counts (see :mod:`tokviz.core.merge_criteria`
for how it is found, and :func:`tokviz.core.step_text.disagreement_text` for its sentences).

Kept apart from both so the comparison can word its finding with step_text and step_text can
recognise a disagreement among other step events, each importing only this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from tokviz.core.bpe.events import MergeStep
from tokviz.core.wordpiece.trainer import WordPieceStep


@dataclass(frozen=True)
class PairCounts:
    """One pair of one trainer's state with the counts behind both criteria.

    ``left`` and ``right`` are written as that trainer writes them (``##`` or ``</w>``); counts are
    occurrences weighted by word frequency. ``score`` is WordPiece's ``freq(ab) / (freq(a) · freq(b))``.
    """

    left: str
    right: str
    pair_count: int
    left_count: int
    right_count: int

    @property
    def score(self) -> float:
        return self.pair_count / (self.left_count * self.right_count)


@dataclass(frozen=True)
class ChoiceEvidence:
    """One side's choice at the disagreement, seen from both trainers' states.

    ``wordpiece``: every pair of WordPiece's state with this surface, WordPiece's order (best score,
    then larger count, then smaller strings) — for WordPiece's own choice the first is the pair it
    merged. ``bpe``: every pair of BPE's state with this surface, BPE's order (larger count, then
    larger strings) — for BPE's own choice the first is the pair it merged. Empty: that trainer has no
    pair with these surface strings at this step.
    """

    surface: tuple[str, str]
    wordpiece: tuple[PairCounts, ...]
    bpe: tuple[PairCounts, ...]

    @property
    def best_score(self) -> float | None:
        """WordPiece's score of its best pair with this surface (None: it has none)."""
        return self.wordpiece[0].score if self.wordpiece else None

    @property
    def bpe_count(self) -> int:
        """BPE's count of its best pair with this surface (0: it has none)."""
        return self.bpe[0].pair_count if self.bpe else 0


@dataclass(frozen=True)
class Disagreement:
    """The first step at which BPE and WordPiece merge different surface pairs."""

    step: int
    bpe_step: MergeStep
    wordpiece_step: WordPieceStep
    bpe: ChoiceEvidence  # BPE's choice
    wordpiece: ChoiceEvidence  # WordPiece's choice
    description: str  # English, several sentences: what each chose and why the other did not

    @property
    def bpe_reason(self) -> str:
        """Why BPE did not take WordPiece's pair: ``"count"`` (fewer occurrences), ``"tie"`` (equal
        count, BPE's tie rule) or ``"absent"`` (no such pair in BPE's state)."""
        if not self.wordpiece.bpe:
            return "absent"
        return "tie" if self.wordpiece.bpe_count == self.bpe.bpe_count else "count"

    @property
    def wordpiece_reason(self) -> str:
        """Why WordPiece did not take BPE's pair: ``"score"`` (lower score), ``"tie"`` (equal score,
        WordPiece's tie rule) or ``"absent"`` (no such pair in WordPiece's state)."""
        if not self.bpe.wordpiece:
            return "absent"
        return "tie" if self.bpe.best_score == self.wordpiece.best_score else "score"
