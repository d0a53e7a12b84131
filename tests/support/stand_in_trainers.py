"""Trainers that fail on purpose, for the training-process tests. They live in a module of their
own (not a test module) because the child process imports them by name."""

from __future__ import annotations

from tokviz.core.bpe.events import MergeStep
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.errors import ModelFileError


class CrashingTrainer(BPETrainer):
    """The real trainer with a bug that strikes after merge 3."""

    def run(self, lines, *, cancel=None, total_bytes=None):
        for event in super().run(lines, cancel=cancel, total_bytes=total_bytes):
            yield event
            if isinstance(event, MergeStep) and event.step == 3:
                raise ValueError("injected failure after merge 3")


class ModelFileErrorTrainer(BPETrainer):
    """Raises a TokvizError whose constructor takes other arguments than its message."""

    def run(self, lines, *, cancel=None, total_bytes=None):
        for _line in lines:
            pass
        raise ModelFileError("codes.txt", "line 2 is not a merge")
        yield  # a generator, like the real run
