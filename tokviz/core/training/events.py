"""The event vocabulary every trainer speaks: Progress while it reads and counts, one step event per
step, Finished last (see :mod:`tokviz.core.training`).

Plain frozen dataclasses with no tokviz imports: every trainer family imports them, and they are
pickled in batches from the training process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


class StepEvent:
    """Base class of every trainer's step events (BPE's MergeStep, WordPieceStep, Unigram's EMStep,
    PruneStep and FinalStep); views and the CLI test ``isinstance(event, StepEvent)``.

    Every subclass is a frozen dataclass with at least these fields (``description`` may be a
    property computed from the others, as MergeStep's is):

    - ``step``: 1-based, increasing by one;
    - ``description``: one line, in English, saying what changed;
    - ``vocab_size``: the vocabulary size *after* the step. One name for every algorithm; a step that
      shrinks the vocabulary (Unigram's pruning) also has ``vocab_before``.
    """

    __slots__ = ()

    step: int
    description: str
    vocab_size: int


@dataclass(frozen=True)
class Progress:
    """Progress between steps: ``done`` of ``total`` units (bytes of corpus, or words) while reading,
    counting and indexing; ``training`` is a step still being computed (a Unigram EM or pruning round)."""

    phase: Literal["reading", "counting", "indexing", "training"]
    done: int
    total: int | None  # None when the size is unknown (stdin, a generator)


@dataclass(frozen=True)
class Finished:
    """Training ended: ``reason`` is "merges" (asked number of merges or vocabulary size reached),
    "min_frequency" (no pair left with enough count), "exhausted" (no pair left at all) or
    "cancelled". ``merges`` is the number of steps done."""

    reason: Literal["merges", "min_frequency", "exhausted", "cancelled"]
    merges: int
    message: str = ""


#: what a trainer's ``run`` yields (plus, from the word counters, an occasional ``CountingNote``)
TrainEvent = Progress | StepEvent | Finished
