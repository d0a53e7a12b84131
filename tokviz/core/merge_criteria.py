"""BPE's frequency criterion beside WordPiece's likelihood criterion: where they first choose differently.

Both trainers of tokviz run in lockstep on the same words; at every step each merges the pair its
own rule ranks first:

- BPE (char mode, :class:`~tokviz.core.bpe.trainer.BPETrainer`): the pair with the largest count
  ``freq(ab)``;
- WordPiece (:class:`~tokviz.core.wordpiece.trainer.WordPieceTrainer`): the pair with the largest
  ``score = freq(ab) / (freq(a) · freq(b))``.

**What "the same pair" means.** The two trainers mark a piece's place in its word differently: BPE
glues ``</w>`` to a word's last piece, WordPiece puts ``##`` before every piece but a word's first.
Neither marking can be translated into the other (``##b`` says "not first", ``b</w>`` says "last"),
so no marked pair of one is ever literally a pair of the other. The comparison is therefore on the
*surface strings*, the pieces with their markers removed: BPE's ``e + r</w>`` and WordPiece's
``##e + ##r`` are both the surface pair ``("e", "r")``, and the two criteria agree at a step when
they merge the same surface pair. Two consequences, shown rather than hidden:

- One surface pair can stand for several pairs of a trainer (WordPiece's ``l + ##o`` at a word's
  start and ``##l + ##o`` inside it; BPE's ``o + w`` and ``o + w</w>``). The evidence for a choice
  therefore lists *every* pair of each trainer's state with that surface, with its counts.
- Agreeing on a surface pair does not keep the two states equal: BPE's ``l + o`` merges every
  ``lo``, WordPiece's ``l + ##o`` only those at a word's start. A later step can differ because of
  the markers alone; the evidence shows it (a pair one trainer has and the other lacks).

**Why they differ** is in :attr:`Disagreement.bpe_reason` and :attr:`Disagreement.wordpiece_reason`:
a lower count or score, a pair the other trainer does not have (the markers at work), or a tie —
with equal counts and equal scores the two tie rules still differ (BPE takes the larger strings, as
subword-nmt does; WordPiece the smaller), so a disagreement can come from the tie rules alone.

**The same words.** WordPiece splits words like BERT (whitespace, every punctuation character a word
of its own); BPE's char mode splits on whitespace only. So that the criteria, not the word splits,
are compared, both trainers get the corpus already split into BERT words (also split at anything
Python calls whitespace), joined by single spaces. BPE keeps every pair (``min_frequency=1``), as
WordPiece does.

**The counts.** At the first step where the surface pairs differ, the words are replayed through
each trainer's earlier merges and recounted, so every number is a count in that trainer's state just
before the step, weighted by word frequency: for each side's choice ``freq(ab)``, ``freq(a)``,
``freq(b)`` and the WordPiece score in WordPiece's state, and the BPE count in BPE's state.

>>> c = first_disagreement(["ab ab ab ab xz\\n"])
>>> c.disagreement.step, c.disagreement.bpe.surface, c.disagreement.wordpiece.surface
(1, ('a', 'b'), ('x', 'z'))
>>> w = c.disagreement.wordpiece.wordpiece[0]
>>> (w.left, w.right, w.pair_count, w.left_count, w.right_count, w.score)
('x', '##z', 1, 1, 1, 1.0)
>>> c.disagreement.bpe.wordpiece[0].score  # 4 / (4 · 4): WordPiece ranks BPE's choice lower
0.25
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from tokviz.core.bpe.corpus import LinePart
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.model import END_OF_WORD
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.errors import TokvizError
from tokviz.core.merge_disagreement import ChoiceEvidence, Disagreement, PairCounts
from tokviz.core.step_text import disagreement_text
from tokviz.core.training import Finished
from tokviz.core.wordpiece.model import CONTINUATION, bert_words
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceStep, WordPieceTrainer


def shared_words(line: str) -> list[str]:
    """The words both trainers see: BERT's words, also split wherever ``str.split`` splits.

    >>> shared_words("Hello, 세계!! a-b")
    ['Hello', ',', '세계', '!', '!', 'a', '-', 'b']
    """
    return [part for word in bert_words(line) for part in word.split()]


def bpe_surface(piece: str) -> str:
    """A BPE char-mode piece without its end-of-word mark: ``"er</w>"`` → ``"er"``."""
    return piece.removesuffix(END_OF_WORD)


def wordpiece_surface(piece: str) -> str:
    """A WordPiece piece without its continuation mark: ``"##er"`` → ``"er"``."""
    return piece.removeprefix(CONTINUATION)


@dataclass(frozen=True)
class CriteriaComparison:
    """The outcome of running both criteria side by side.

    ``agreed`` holds the surface pair of every step before the disagreement (both chose it).
    ``disagreement`` is None when none was found; ``message`` then says why (the step limit, a
    trainer out of pairs, or a cancel).
    """

    agreed: tuple[tuple[str, str], ...]
    disagreement: Disagreement | None
    message: str


@dataclass(frozen=True)
class SideBySideStep:
    """Step ``step`` of both trainers and whether their surface pairs are the same."""

    step: int
    bpe: MergeStep
    wordpiece: WordPieceStep

    @property
    def bpe_surface(self) -> tuple[str, str]:
        return bpe_surface(self.bpe.left_piece), bpe_surface(self.bpe.right_piece)

    @property
    def wordpiece_surface(self) -> tuple[str, str]:
        return wordpiece_surface(self.wordpiece.left), wordpiece_surface(self.wordpiece.right)

    @property
    def same(self) -> bool:
        return self.bpe_surface == self.wordpiece_surface


class SideBySide:
    """Run BPE (char mode) and WordPiece in lockstep on the same words.

    :meth:`run` yields one :class:`SideBySideStep` per step both trainers made, then a
    :class:`~tokviz.core.bpe.events.Finished` saying why it stopped (``"merges"``: ``max_steps``
    reached; ``"exhausted"``: one trainer had no pair left; ``"cancelled"``). The words it prepared
    stay in :attr:`word_counts` for recounting.
    """

    def __init__(self, max_steps: int = 1000):
        if max_steps < 1:
            raise TokvizError(f"the number of steps to compare must be at least 1, not {max_steps}")
        self.max_steps = max_steps
        self.word_counts: Counter = Counter()
        self.bpe = BPETrainer(TrainerConfig(mode="char", merges=max_steps, min_frequency=1))
        # the step limit stops WordPiece; its vocabulary size must only never be the reason
        self.wordpiece = WordPieceTrainer(WordPieceConfig(vocab_size=sys.maxsize))

    def run(self, lines: Iterable[str], *, cancel: Callable[[], bool] | None = None) -> Iterator[object]:
        """Yield SideBySideStep per step, then Finished. Raises CorpusError for a corpus without words."""
        prepared = self._prepare(lines)
        bpe_steps = _steps(self.bpe.run(prepared, cancel=cancel))
        wp_steps = _steps(self.wordpiece.run(prepared, cancel=cancel))
        try:
            for step in range(1, self.max_steps + 1):
                b = next(bpe_steps)
                w = next(wp_steps)
                for done in (b, w):
                    if isinstance(done, Finished):
                        reason = "cancelled" if done.reason == "cancelled" else "exhausted"
                        who = "BPE" if done is b else "WordPiece"
                        yield Finished(reason, step - 1, f"{who} stopped at step {step}: {done.message}")
                        return
                yield SideBySideStep(step, b, w)
        finally:
            bpe_steps.close()
            wp_steps.close()
        yield Finished("merges", self.max_steps, f"the step limit ({self.max_steps}) was reached")

    def _prepare(self, lines: Iterable[str]) -> list[str]:
        counts = self.word_counts
        counts.clear()
        prepared = []
        held = ""
        for line in lines:
            if type(line) is LinePart:  # a long line handed on in parts: words may cross the cut
                held += line
                continue
            words = shared_words(held + line)
            held = ""
            counts.update(words)
            prepared.append(" ".join(words) + "\n")
        if held:
            words = shared_words(held)
            counts.update(words)
            prepared.append(" ".join(words) + "\n")
        return prepared


def _steps(events: Iterator[object]) -> Iterator[object]:
    """Only the step events and the Finished of a trainer's run."""
    for e in events:
        if isinstance(e, (MergeStep, WordPieceStep, Finished)):
            yield e
            if isinstance(e, Finished):
                return


def first_disagreement(
    lines: Iterable[str],
    *,
    max_steps: int = 1000,
    cancel: Callable[[], bool] | None = None,
) -> CriteriaComparison:
    """Run both criteria side by side (see the module docstring) until their choices first differ.

    Raises CorpusError for a corpus without words, TokvizError for ``max_steps < 1``.
    """
    runner = SideBySide(max_steps)
    agreed: list[SideBySideStep] = []
    for event in runner.run(lines, cancel=cancel):
        if isinstance(event, Finished):
            return CriteriaComparison(tuple(s.bpe_surface for s in agreed), None,
                                      f"no disagreement: {event.message}")
        if event.same:
            agreed.append(event)
            continue
        found = explain(event, agreed, runner.word_counts)
        return CriteriaComparison(tuple(s.bpe_surface for s in agreed), found,
                                  f"the criteria first disagree at step {event.step}")
    raise AssertionError("SideBySide.run always ends with Finished")


def explain(step: SideBySideStep, before: list[SideBySideStep], word_counts: Counter) -> Disagreement:
    """The evidence for a step where the surface pairs differ: both trainers' states are rebuilt by
    replaying the merges of the steps ``before`` on ``word_counts`` and recounted."""
    bpe_state = _replay(word_counts, _bpe_symbols, [(s.bpe.left_piece, s.bpe.right_piece) for s in before],
                        bpe_surface, lambda a, b: a + b)
    wp_state = _replay(word_counts, _wordpiece_symbols, [(s.wordpiece.left, s.wordpiece.right) for s in before],
                       wordpiece_surface, lambda a, b: a + b[len(CONTINUATION):])
    wanted = {step.bpe_surface, step.wordpiece_surface}
    bpe_pairs = _pairs_by_surface(bpe_state, bpe_surface, wanted)
    wp_pairs = _pairs_by_surface(wp_state, wordpiece_surface, wanted)

    def evidence(surface: tuple[str, str]) -> ChoiceEvidence:
        wp = sorted(wp_pairs.get(surface, ()), key=lambda p: (-p.score, -p.pair_count, p.left, p.right))
        bpe = sorted(bpe_pairs.get(surface, ()), key=lambda p: (-p.pair_count, _reversed(p.left), _reversed(p.right)))
        return ChoiceEvidence(surface, tuple(wp), tuple(bpe))

    b, w = evidence(step.bpe_surface), evidence(step.wordpiece_surface)
    d = Disagreement(step.step, step.bpe, step.wordpiece, b, w, "")
    return Disagreement(step.step, step.bpe, step.wordpiece, b, w, _describe(d))


def _reversed(s: str) -> tuple[int, ...]:
    """A sort key that orders strings from largest to smallest (BPE's tie rule prefers the largest)."""
    return tuple(-ord(c) for c in s) + (1,)


def _bpe_symbols(word: str) -> list[str]:
    return list(word[:-1]) + [word[-1] + END_OF_WORD]


def _wordpiece_symbols(word: str) -> list[str]:
    return [word[0]] + [CONTINUATION + c for c in word[1:]]


def _replay(word_counts: Counter, symbols, merges, surface, join) -> list[tuple[list[str], int]]:
    """Every word as a trainer's symbols after ``merges`` (left to right, non-overlapping, as both
    trainers merge), with its frequency."""
    state = []
    for word, freq in word_counts.items():
        seq = symbols(word)
        for a, b in merges:
            if surface(a) + surface(b) not in word:  # cheap test: most merges touch few words
                continue
            out, i, n = [], 0, len(seq)
            while i < n:
                if i < n - 1 and seq[i] == a and seq[i + 1] == b:
                    out.append(join(a, b))
                    i += 2
                else:
                    out.append(seq[i])
                    i += 1
            seq = out
        state.append((seq, freq))
    return state


def _pairs_by_surface(state, surface, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], list[PairCounts]]:
    symbol_counts: Counter = Counter()
    pair_counts: Counter = Counter()
    for seq, freq in state:
        for s in seq:
            symbol_counts[s] += freq
        for a, b in itertools.pairwise(seq):
            if (surface(a), surface(b)) in wanted:
                pair_counts[a, b] += freq
    out: dict[tuple[str, str], list[PairCounts]] = {}
    for (a, b), c in pair_counts.items():
        out.setdefault((surface(a), surface(b)), []).append(PairCounts(a, b, c, symbol_counts[a], symbol_counts[b]))
    return out


def _describe(d: Disagreement) -> str:
    return disagreement_text(d).text()
