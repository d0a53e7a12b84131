"""The run on screen, as the Train panel recorded it: what the frame's views read of it.

The panel fills it as the trainer's events come (the merges into ``replay``, the plots' numbers into
``series``, how the run ended into ``finished``) and empties it when the run is forgotten; the step
renderer reads it through its ``RunOnScreen`` Protocol. It holds no widget and no timer: whether the
trainer is computing and the model at the step on screen are asked of their owners through the two
callables it is given.
"""

from __future__ import annotations

from collections.abc import Callable

from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.training import Finished
from tokviz.ui.train.plots import MergeSeries
from tokviz.ui.train_replay import MergeReplay


class RunRecording:
    """The recording of the run on screen (empty: no run)."""

    def __init__(self, computing: Callable[[], bool], model_later: Callable[[Callable], None]) -> None:
        self.replay: MergeReplay | None = None  # the recorded merges (None: no run)
        self.config: TrainerConfig | None = None  # what the run trains with
        self.finished: Finished | None = None  # how it ended (None: still training, or no run)
        self.trainer: object | None = None  # the run's trainer (None once forgotten)
        self.run_jamo = False  # the run trains on jamo: the sample, probe and model read jamo too
        self.series = MergeSeries()  # the plots' numbers, one per recorded merge
        self.corpus = None  # the corpus choice: its ``lines`` are the sample lines
        self._computing = computing
        self._model_later = model_later

    def computing(self) -> bool:
        """The trainer is working (not paused at a step, finished or absent)."""
        return self._computing()

    def model_later(self, then: Callable) -> None:
        """Call ``then(model)`` with the model at the step on screen once built off the GUI thread."""
        self._model_later(then)

    def begin(self, config: TrainerConfig, trainer: object, jamo: bool) -> None:
        """A run starts: nothing recorded yet."""
        self.config, self.trainer, self.run_jamo = config, trainer, jamo
        self.replay = MergeReplay(config.mode, config.pattern, config.keep)
        self.finished = None

    def forget(self) -> None:
        """The run is gone (reset, another corpus): nothing on screen comes from it."""
        self.replay = self.trainer = self.finished = None
        self.series.clear()
