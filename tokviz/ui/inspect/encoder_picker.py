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
        changed = self.state.set_available([s.name for s in statuses if s.available])
        if self.state.encoder is not None:
            self.encoder_combo.setCurrentIndex(names.index(self.state.encoder))
        self.encoder_combo.blockSignals(False)
        if changed:
            self.encode_now()

    def _on_encoder_renamed(self, old: str, new: str) -> None:
        # the Train panel's model at another step: the registry already lists it under the new name
        if self.state.encoder_renamed(old, new):
            self.encode_now()

    def _on_trained_model(self, encoder) -> None:
        previous = self.state.trained_name
        outcome = self.state.trained_model_changed(encoder.name if encoder is not None else None)
        if outcome == "lost":
            # Reset: the model shown is gone. Say so (the view changes under the user) and show
            # the default encoder; the next trained model is followed again.
            self._reset_text = translate(
                "InspectPanel",
                "The Train panel was reset, so its model ({name}) is gone; the tokens below "
                "are from {fallback}. Train again to see the new model here.",
            ).format(name=previous, fallback=self.state.encoder or "–")
            self.message_bar.show_message(self._reset_text, "warning")
        elif outcome == "back" and self.message_bar.text() == self._reset_text:
            self.message_bar.clear()
        if outcome is not None:
            self._restore_encoder_index()
            self.encode_now()

    def _chose_encoder(self, name: str) -> None:
        """The user picked ``name``: no longer waiting for the Train panel's next model."""
        self.state.choose_encoder(name)
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
                self._chose_encoder(name)
                self.encode_now()
                return
        self.message_bar.show_message(
            translate("InspectPanel", "There is no encoder called {name}.").format(name=repr(name)), "warning"
        )

    def current_encoder(self) -> str | None:
        return self.state.encoder

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
        self._chose_encoder(name)
        self.encode_now()

    def _restore_encoder_index(self) -> None:
        names = [n for n, _, _ in self.encoder_names()]
        if self.state.encoder in names:
            self.encoder_combo.setCurrentIndex(names.index(self.state.encoder))

    def open_model_path(self, path: str) -> None:
        """Load a model file in the worker; it becomes an encoder for every panel, or a message says why not."""
        if self.state.closed:
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
        self.session.add_encoder(encoder)  # -> _fill_encoders lists it
        self.set_encoder(encoder.name)
