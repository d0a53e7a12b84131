"""Step events of the Unigram trainer (plain frozen dataclasses, cheap to send across processes).

The trainer yields :class:`~tokviz.core.training.events.Progress` while it reads the corpus and builds
the seed vocabulary, then one :class:`EMStep` per EM iteration, one :class:`PruneStep` per pruning
round, one :class:`FinalStep` when the vocabulary is cut to its size, and
:class:`~tokviz.core.training.events.Finished` last. The three step
events subclass :class:`~tokviz.core.training.events.StepEvent`: ``vocab_size`` is the size after the step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tokviz.core.training.events import StepEvent

RemovalReason = Literal["low_expected_count", "unused", "split", "loss", "final_size"]


@dataclass(frozen=True)
class RemovedPiece:
    """A piece that left the vocabulary and why.

    ``reason``: ``"low_expected_count"`` (the M-step dropped it: expected count below 0.5),
    ``"unused"`` (no Viterbi segmentation of the corpus uses it), ``"split"`` (its own best
    segmentation is other pieces), ``"loss"`` (removing it costs the least likelihood: ``loss``),
    ``"final_size"`` (the lowest scores when the vocabulary is cut to its size).
    ``value``: the expected count, the loss, or the score, for the reasons that have one.
    """

    piece: str
    reason: RemovalReason
    value: float = 0.0


@dataclass(frozen=True)
class EMStep(StepEvent):
    """One EM iteration (E-step: expected counts by forward-backward; M-step: new scores).

    ``log_likelihood`` is the corpus log-likelihood under the scores used in the E-step (sum over
    words of frequency × log P(word)); ``objective`` is SentencePiece's ``obj`` (its negative, per
    word occurrence). ``removed`` are the pieces the M-step dropped.
    """

    step: int
    description: str
    round: int  # pruning round this iteration belongs to (0 before the first pruning)
    iteration: int  # 1-based within the round
    vocab_size: int  # after the M-step, with the meta pieces <unk> <s> </s> (the model's size)
    log_likelihood: float
    objective: float
    tokens: int  # tokens of the Viterbi segmentation of the corpus (SentencePiece's num_tokens)
    removed: tuple[RemovedPiece, ...]


@dataclass(frozen=True)
class PruneStep(StepEvent):
    """One pruning round: pieces whose removal costs least likelihood go, ~25% per round.

    ``removed`` lists every piece removed with its reason, the ``"loss"`` ones smallest loss first.
    ``kept_loss_min`` is the smallest loss among the candidates that stayed (the cut).
    """

    step: int
    description: str
    round: int
    vocab_before: int
    vocab_size: int  # after the round, with the meta pieces (as every step counts)
    removed: tuple[RemovedPiece, ...]
    kept_loss_min: float | None


@dataclass(frozen=True)
class FinalStep(StepEvent):
    """The vocabulary cut to its size: required characters kept (re-added with the lowest scores if
    EM had dropped them), then the best-scoring pieces."""

    step: int
    description: str
    vocab_before: int
    vocab_size: int  # final size, including the meta pieces <unk> <s> </s>
    removed: tuple[RemovedPiece, ...]
    readded: tuple[str, ...]  # required characters EM had dropped
