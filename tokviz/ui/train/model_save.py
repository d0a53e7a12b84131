"""Saving the Train panel's model at a step without freezing the window.

A WordPiece or Unigram model comes from the training process, which answers between two of its steps
(a Unigram step on a real corpus takes up to a second, a request waits up to ``MODEL_SECONDS``), and a
BPE model of thousands of merges takes 0.1-0.3 s to build and write. So the model is fetched and
written on the work service's pool, never on the GUI thread: meanwhile the Save button reads "Saving…"
and is disabled, the file is written atomically (the core's writers) once the model has come, and a run
reset or replaced before that writes nothing and says so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QAbstractButton

from tokviz.ui.i18n import in_language

SaveDone = Callable[[list], str]  # the files written → the sentence the message bar shows


class ModelSave(QObject):
    """One save at a time of the panel's model at a step (see the module docstring). The panel's
    button rules ask :attr:`saving` so that the Save button stays disabled until the save has ended;
    ``settled()`` is called then to apply them again."""

    ended = Signal(list)  # the files written ([]: none), once the save has ended and said so

    def __init__(self, button: QAbstractButton, message, work, settled: Callable[[], None], parent=None) -> None:
        """``button``: the Save button (it reads "Saving…" meanwhile); ``message``: the bar that says how it
        went (``show_message``); ``work``: the work service the model is fetched and written on."""
        super().__init__(parent)
        self.button = button
        self.message = message
        self.settled = settled
        self.channel = work.channel(self, "save")
        self.saving = False
        self._stopped = False  # the run went while its model was on its way
        self._step = 0

    def start(self, step: int, fetch: Callable[[], object], write: Callable[[object], list], done: SaveDone) -> None:
        """Save the model of ``step``: ``fetch()`` gets it and ``write(model)`` writes it (returning the
        files written), both on a pool thread; ``done(files)`` words the message shown after."""
        if self.saving:
            return  # one at a time (the button is disabled meanwhile)

        def job(state) -> list[Path] | None:
            model = fetch()
            if state.is_cancelled():
                return None  # the run went while its model was fetched: nothing is written
            return list(write(model))

        self.saving, self._stopped, self._step = True, False, step
        self.channel.start(job, finished=lambda files: self._finished(files, done), failed=self._failed)
        button = self.button
        button.setEnabled(False)
        button.setText(self.tr("Saving…"))
        self.message.show_message(self.tr("Saving the model at step {step}…").format(step=step), "info")

    def stop(self) -> None:
        """The run is gone (reset, a new run or corpus): a save still waiting for its model writes
        nothing (the message says so when its fetch returns)."""
        if self.saving:
            self._stopped = True
            self.channel.cancel()

    def _finished(self, files: list | None, done: SaveDone) -> None:
        if files is None:
            self._say_stopped()
        else:
            self.message.show_message(done(files), "success")
        self._settle(files or [])

    def _failed(self, err) -> None:
        if self._stopped:  # the training process ended under the request: that is why
            self._say_stopped()
        else:
            self.message.show_message(self.tr("Could not save the model: {err}").format(err=in_language(err)), "error")
        self._settle([])

    def _say_stopped(self) -> None:
        self.message.show_message(
            self.tr("The run was stopped before the model at step {step} came: nothing was saved.").format(
                step=self._step
            ),
            "warning",
        )

    def _settle(self, files: list) -> None:
        self.saving = False
        # the button's own text (its context is the panel's, where the views made it)
        self.button.setText(QCoreApplication.translate("TrainPanel", "Save model…"))
        self.settled()
        self.ended.emit(files)
