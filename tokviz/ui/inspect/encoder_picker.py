"""The Inspector's encoder picker: every registry encoder (unavailable ones disabled, with the reason),
the Train panel's model followed from step to step and through a reset, and model files opened in the
background."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QFileDialog

from tokviz.ui.common.encoder_names import shown_name, shown_source
from tokviz.ui.inspect.jobs import open_model

translate = QCoreApplication.translate  # the panel's translation context, named in each call

OPEN_MODEL = "\x00open-model"  # combo data of the "Open model file…" entry (never an encoder name)


class EncoderPicker:
    """The encoder picker (mixed into InspectPanel; the strings are InspectPanel's)."""

    def _fill_encoders(self) -> None:
        """(Re)list every registry encoder; unavailable ones are disabled, the reason is the tooltip."""
        model: QStandardItemModel = self.encoder_combo.model()
        previous = self._current_encoder
        statuses = self.session.registry.statuses()
        names = [s.name for s in statuses]
        self.encoder_combo.blockSignals(True)
        model.clear()
        for s in statuses:
            name = shown_name(s.name)  # a trained model's name in the interface's language
            label = name if s.vocab_size is None else f"{name}  ·  {s.vocab_size:,}"
            item = QStandardItem(label)
            item.setData(s.name, Qt.ItemDataRole.UserRole)
            item.setToolTip(
                shown_source(s.reason) if s.available
                else translate("InspectPanel", "Unavailable: {reason}").format(reason=shown_source(s.reason))
            )
            item.setEnabled(s.available)
            model.appendRow(item)
        opener = QStandardItem(translate("InspectPanel", "Open model file…"))
        opener.setData(OPEN_MODEL, Qt.ItemDataRole.UserRole)
        opener.setToolTip(
            translate("InspectPanel", "Add a .tiktoken, SentencePiece .model or tokviz model file as an encoder")
        )
        model.appendRow(opener)
        available = [s.name for s in statuses if s.available]
        if previous not in available:
            previous = "cl100k_base" if "cl100k_base" in available else (available[0] if available else None)
        if previous is not None:
            self.encoder_combo.setCurrentIndex(names.index(previous))
        self.encoder_combo.blockSignals(False)
        changed = previous != self._current_encoder
        self._current_encoder = previous
        if changed:
            self.encode_now()

    def _default_encoder(self) -> str | None:
        available = [s.name for s in self.session.registry.statuses() if s.available]
        return "cl100k_base" if "cl100k_base" in available else (available[0] if available else None)

    def _on_encoder_renamed(self, old: str, new: str) -> None:
        # the Train panel's model at another step: the registry already lists it under the new name
        if self._current_encoder == old:
            self._current_encoder = new
            self.encode_now()

    def _on_trained_model(self, encoder) -> None:
        previous, self._trained_name = self._trained_name, (encoder.name if encoder is not None else None)
        if encoder is None and previous is not None and self._current_encoder == previous:
            # Reset: the model shown is gone. Say so (the view changes under the user) and show
            # the default encoder; the next trained model is followed again.
            fallback = self._default_encoder()
            self._lost_trained = True
            self._reset_text = translate(
                "InspectPanel",
                "The Train panel was reset, so its model ({name}) is gone; the tokens below "
                "are from {fallback}. Train again to see the new model here.",
            ).format(name=previous, fallback=fallback or "–")
            self.message_bar.show_message(self._reset_text, "warning")
            self._current_encoder = fallback
            self.encode_now()
        elif encoder is not None and self._lost_trained:
            self._lost_trained = False
            if self.message_bar.text() == self._reset_text:
                self.message_bar.clear()
            self._current_encoder = encoder.name
            self.encode_now()

    def _chose_encoder(self) -> None:
        """The user picked an encoder: no longer waiting for the Train panel's next model."""
        self._lost_trained = False
        if self._reset_text is not None and self.message_bar.text() == self._reset_text:
            self.message_bar.clear()

    def encoder_names(self) -> list[tuple[str, bool, str]]:
        """(name, enabled, tooltip) of every entry in the picker, in order."""
        model: QStandardItemModel = self.encoder_combo.model()
        return [
            (model.item(i).data(Qt.ItemDataRole.UserRole), model.item(i).isEnabled(), model.item(i).toolTip())
            for i in range(model.rowCount())
        ]

    def set_encoder(self, name: str) -> None:
        """Show the text through encoder ``name`` (must be listed and available)."""
        for i, (n, enabled, tip) in enumerate(self.encoder_names()):
            if n == name:
                if not enabled:
                    self.message_bar.show_message(
                        translate("InspectPanel", "{name} is unavailable: {reason}").format(name=name, reason=tip),
                        "warning",
                    )
                    return
                self.encoder_combo.setCurrentIndex(i)
                self._chose_encoder()
                self._current_encoder = name
                self.encode_now()
                return
        self.message_bar.show_message(
            translate("InspectPanel", "There is no encoder called {name}.").format(name=repr(name)), "warning"
        )

    def current_encoder(self) -> str | None:
        return self._current_encoder

    def _on_encoder_activated(self, index: int) -> None:
        name = self.encoder_combo.itemData(index, Qt.ItemDataRole.UserRole)
        if name == OPEN_MODEL:
            self._restore_encoder_index()
            path, _ = QFileDialog.getOpenFileName(
                self,
                translate("InspectPanel", "Open model file"),
                "",
                translate("InspectPanel", "Models (*.model *.tiktoken *.json *.txt *.codes);;All files (*)"),
            )
            if path:
                self.open_model_path(path)
            return
        self._chose_encoder()
        self._current_encoder = name
        self.encode_now()

    def _restore_encoder_index(self) -> None:
        names = [n for n, _, _ in self.encoder_names()]
        if self._current_encoder in names:
            self.encoder_combo.setCurrentIndex(names.index(self._current_encoder))

    def open_model_path(self, path: str) -> None:
        """Load a model file in the worker; it becomes an encoder for every panel, or a message says why not."""
        if self._closed:
            return
        # remembered so that the "still opening" checks do not depend on the language
        self._opening_text = translate("InspectPanel", "Opening {name}…").format(name=Path(path).name)
        self.message_bar.show_message(self._opening_text, "info")
        # detached: a second file opened meanwhile loads too, and closing never waits for a parse
        self._model_tasks.start_detached(
            lambda _state: (path, *open_model(path)), finished=lambda opened: self._on_model_opened(*opened),
            failed=lambda message: self._on_model_opened(path, None, message),
        )

    def _on_model_opened(self, path: str, encoder, error: str) -> None:
        if encoder is None:
            self.message_bar.show_message(
                translate("InspectPanel", "Cannot open the model file: {err}").format(err=error), "error"
            )
            self._restore_encoder_index()
            return
        self.message_bar.clear()
        self._current_encoder = encoder.name
        self.session.add_encoder(encoder)  # -> _fill_encoders keeps it selected
        self.set_encoder(encoder.name)
