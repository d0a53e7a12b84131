"""The one way to build a trainer: :func:`make_trainer`, used by ``tokviz train``, the sweep and the
Train panel, and the :class:`Trainer` protocol every trainer satisfies.

Each algorithm keeps its own small frozen config dataclass (BPE's ``TrainerConfig``,
``WordPieceConfig``, ``UnigramConfig``): their settings share little beyond a size, and each trainer
validates its own. :data:`ALGORITHMS` names them; ``_entry`` imports one algorithm's config and
trainer classes when asked (``tokviz train`` for BPE loads no Unigram code); adding an algorithm adds
a name and a branch there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, runtime_checkable

from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import TokvizError
from tokviz.core.training.events import Finished


@runtime_checkable
class Trainer(Protocol):
    """A tokenizer trainer the Train panel and ``tokviz train`` can drive (see :mod:`tokviz.core.training`)."""

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
    def finished(self) -> Finished | None:
        """The Finished event once training ended, else None."""
        ...


ALGORITHMS = ("bpe", "wordpiece", "unigram")


def config_class(algorithm: str) -> type:
    """The config dataclass ``algorithm`` trains with.

    >>> config_class("unigram")(vocab_size=500).vocab_size
    500
    """
    return _entry(algorithm)[0]


def make_trainer(algorithm: str, config: object | None = None) -> Trainer:
    """A fresh trainer for ``algorithm`` ("bpe", "wordpiece" or "unigram") with ``config``, an
    instance of :func:`config_class` (None: its defaults). Raises TokvizError for an unknown
    algorithm, a config of another algorithm, or settings the trainer cannot take.

    >>> from tokviz.core.wordpiece.trainer import WordPieceConfig
    >>> t = make_trainer("wordpiece", WordPieceConfig(vocab_size=12))
    >>> t.algorithm, t.config.vocab_size
    ('wordpiece', 12)
    >>> make_trainer("bpe").config.merges
    1000
    >>> make_trainer("unigram", WordPieceConfig())
    Traceback (most recent call last):
    ...
    tokviz.core.errors.TokvizError: unigram trains with a UnigramConfig, not a WordPieceConfig
    """
    config_type, trainer_type = _entry(algorithm)
    if config is None:
        config = config_type()
    elif not isinstance(config, config_type):
        raise TokvizError(f"{algorithm} trains with a {config_type.__name__}, not a {type(config).__name__}")
    return trainer_type(config)


def _entry(algorithm: str) -> tuple[type, type]:
    """(config class, trainer class) of ``algorithm``, imported now (see the module docstring)."""
    if algorithm == "bpe":
        from tokviz.core.bpe.events import TrainerConfig
        from tokviz.core.bpe.trainer import BPETrainer

        return TrainerConfig, BPETrainer
    if algorithm == "wordpiece":
        from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer

        return WordPieceConfig, WordPieceTrainer
    if algorithm == "unigram":
        from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer

        return UnigramConfig, UnigramTrainer
    raise TokvizError(f"unknown training algorithm {algorithm!r}: choose {', '.join(ALGORITHMS)}")
