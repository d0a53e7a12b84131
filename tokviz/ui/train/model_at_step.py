"""The Train panel's model at the step on screen: offered to the other panels once the trainer rests,
and saved in the formats that hold the run's mode."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog

from tokviz.core.jamo_input import reader_for
from tokviz.ui.train.views import FORMATS

translate = QCoreApplication.translate  # the panel's translation context, named in each call


class ModelAtStep:
    """Offers and saves the model at ``self.cursor`` (mixed into TrainPanel)."""

    def _request_offer(self) -> None:
        self._offer_pending = True
        self.offer_timer.start()

    def _offer_model(self) -> None:
        """Offer ``tokviz BPE (step N)`` to the other panels, once the trainer is suspended."""
        if not self._offer_pending:
            return
        if self.trainer is None or self.replay is None or self.cursor == 0:
            self._offer_pending = False
            return
        if not self._worker_quiet:
            return  # offered from _on_waiting / _on_finished
        if self.playing and self.run is not None:
            return  # still animating: offer when it settles
        self._offer_pending = False
        try:
            model = self.current_model()
        except Exception as err:  # noqa: BLE001
            self.message.show_message(
                translate("TrainPanel", "The model at step {step} is not available: {err}").format(
                    step=self.cursor, err=err
                ),
                "error",
            )
            return
        offer = getattr(self.session, "offer_trained_model", None)
        if offer is not None:
            offer(reader_for(model))  # a jamo model decomposes the other panels' text itself

    def current_model(self):
        """The trained model at the step on screen (None before any merge)."""
        if self.trainer is None or self.cursor == 0:
            return None
        model = self.trainer.model(step=self.cursor)
        if self.run_jamo:
            model.settings["jamo"] = True  # as `tokviz train --jamo` records it (saved with the model)
        return model

    def _when_quiet(self, callback: Callable[[], None]) -> None:
        if self._worker_quiet or self.run is None:
            callback()
            return
        self.pause()
        self._quiet_callbacks.append(callback)

    def _save_model(self) -> None:
        self._when_quiet(self._ask_and_save)

    def formats_for_mode(self) -> list[tuple[str, str]]:
        """The export formats that hold this run's mode (tiktoken and GPT-2 files are byte-level,
        subword-nmt codes are char-level; tokviz's own JSON holds both)."""
        mode = self.config.mode if self.config is not None else self.mode_combo.currentData()
        fits = {"byte": ("tokviz", "tiktoken", "gpt2"), "char": ("tokviz", "subword-nmt")}[mode]
        return [(name, translate("TrainPanel", f)) for name, f in FORMATS if name in fits]

    def _ask_and_save(self) -> None:
        if self.trainer is None or self.cursor == 0:
            return
        formats = self.formats_for_mode()
        path, chosen = QFileDialog.getSaveFileName(
            self,
            translate("TrainPanel", "Save the model at step {step}").format(step=self.cursor),
            "",
            ";;".join(f for _, f in formats),
        )
        if not path:
            return
        fmt = next((name for name, f in formats if f == chosen), "tokviz")
        self.save_model_to(path, fmt)

    def save_model_to(self, path: str, fmt: str) -> list:
        """Save the model at the current step (the core writes atomically); returns the files written.
        Errors go to the message area, never a traceback."""
        try:
            from tokviz.core.bpe.formats import save_model

            written = save_model(self.current_model(), path, fmt) or [path]
        except Exception as err:  # noqa: BLE001
            self.message.show_message(
                translate("TrainPanel", "Could not save the model: {err}").format(err=err), "error"
            )
            return []
        names = ", ".join(str(p) for p in written)
        said = translate("TrainPanel", "Saved the model at step {step} ({fmt}): {names}").format(
            step=self.cursor, fmt=fmt, names=names
        )
        if self.run_jamo and fmt != "tokviz":
            # only tokviz's own JSON records that the model reads jamo (and so decomposes text itself)
            said += " " + translate(
                "TrainPanel", "This format does not record that the model reads jamo: decompose the text first "
                "(tokviz encode --jamo)."
            )
        self.message.show_message(said, "success")
        return list(written)
