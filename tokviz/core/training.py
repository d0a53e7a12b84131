"""The protocol every trainer in tokviz implements, so that one Train panel and one CLI drive them all.

A trainer is a plain object (no Qt, no threads of its own). :meth:`Trainer.run` is a generator: it
reads the corpus, yields :class:`~tokviz.core.bpe.events.Progress` while it counts, then one *step
event* per unit of visible work (a BPE or WordPiece merge, a Unigram EM iteration or pruning round),
and a :class:`~tokviz.core.bpe.events.Finished` last. The caller decides where it runs (the CLI's
loop, a worker process for the GUI) and stops it by making ``cancel()`` return True; the trainer
checks it between steps and inside long counting loops, and then finishes with reason
``"cancelled"``.

Every step event has at least ``step`` (1-based, increasing by one) and ``description`` (one line,
in English, saying what changed: ``"ab + c → abc (count 12)"``, ``"EM round 2: log-likelihood
-1234.5"``, ``"pruned 812 pieces (vocabulary 4000 → 3188)"``). Views that know the algorithm read
its own fields; views that do not show ``description``.

``model(step)`` is the model after ``step`` steps (None: all so far), an Encoder that Inspect and
Compare can use; it is safe to call between steps or after training.

Adding a trainer means: a core module whose class satisfies :class:`Trainer`, its step event
dataclasses, and a small step view in the Train panel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, runtime_checkable

from tokviz.core.encoders.base import Encoder


@runtime_checkable
class StepEvent(Protocol):
    """What every step event carries (frozen dataclasses in practice)."""

    step: int
    description: str


@runtime_checkable
class Trainer(Protocol):
    """A tokenizer trainer the Train panel and ``tokviz train`` can drive."""

    #: ``"bpe"``, ``"wordpiece"`` or ``"unigram"``
    algorithm: str

    def run(
        self,
        lines: Iterable[str],
        *,
        cancel: Callable[[], bool] | None = None,
        total_bytes: int | None = None,
    ) -> Iterator[object]:
        """Progress events, then one step event per step, then Finished (always last)."""
        ...

    def model(self, step: int | None = None) -> Encoder:
        """The trained model after ``step`` steps (None = every step so far)."""
        ...

    @property
    def finished(self) -> object | None:
        """The Finished event once training ended, else None."""
        ...
