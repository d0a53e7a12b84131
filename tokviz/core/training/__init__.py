"""One training pipeline: the events every trainer yields, the one way to build a trainer, and the
process that runs any of them away from the GUI's interpreter.

A trainer is a plain object (no Qt, no threads of its own) satisfying
:class:`~tokviz.core.training.factory.Trainer`. Its ``run`` is a generator: it reads the corpus,
yields :class:`Progress` while it counts, then one :class:`StepEvent` per unit of visible work (a
BPE or WordPiece merge, a Unigram EM iteration or pruning round), and a :class:`Finished` last. The
caller decides where it runs (the CLI's loop, the training process of
:mod:`tokviz.core.training.process`) and stops it by making ``cancel()`` return True; the trainer
checks it between steps and inside long counting loops, and then finishes with reason
``"cancelled"``.

Every step event has ``step`` (1-based, increasing by one), ``description`` (one line, in English,
saying what changed: ``"ab + c → abc (count 12)"``, ``"EM round 2: log-likelihood -1234.5"``) and
``vocab_size`` (the vocabulary size after the step). Views that know the algorithm read its own
fields; views that do not show ``description``.

``model(step)`` is the model after ``step`` steps (None: all so far), an Encoder that Inspect and
Compare can use; it is safe to call between steps or after training.

Layout: :mod:`.events` (these event types; below every trainer family, which import them),
:mod:`.factory` (:func:`~tokviz.core.training.factory.make_trainer`, the Trainer protocol) and
:mod:`.process` (:class:`~tokviz.core.training.process.ProcessTrainer`). This package's own
namespace holds only the events, so that a trainer family importing them pulls in no trainer.

Adding a trainer means: a core module whose class satisfies the Trainer protocol, step events
subclassing :class:`StepEvent`, an entry in ``factory.ALGORITHMS``, and a small step view in the
Train panel.
"""

from __future__ import annotations

from tokviz.core.training.events import Finished, Progress, StepEvent, TrainEvent

__all__ = ["Finished", "Progress", "StepEvent", "TrainEvent"]
