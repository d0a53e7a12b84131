"""The Compare panel's list of encoders: adding, removing, reordering (remembered for the next run),
following the Train panel's model from step to step, and opening model files."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tokviz.ui.common.encoder_names import shown_name, shown_source
from tokviz.ui.compare.jobs import DEMO_BPE_NAME
from tokviz.ui.compare.tables import name_color

translate = QCoreApplication.translate  # the panel's translation context, named in each call

DEFAULT_ENCODERS = ["gpt2", "cl100k_base", "o200k_base", "sp:demo_unigram", DEMO_BPE_NAME]
KEY_ROLE = Qt.ItemDataRole.UserRole  # a row's encoder key (its registry name); the text is the name shown


def encoder_item(name: str) -> QListWidgetItem:
    """A list row for encoder ``name``: the key kept in :data:`KEY_ROLE`, the text in the interface's language."""
    item = QListWidgetItem(shown_name(name))
    item.setData(KEY_ROLE, name)
    return item


def item_key(item: QListWidgetItem) -> str:
    """The encoder key of a list row (the registry name, whatever the text shown)."""
    return item.data(KEY_ROLE)


class EncoderList:
    """The encoder list and what edits it (mixed into ComparePanel; the strings are ComparePanel's)."""

    # How a rank file's unknown pre-split pattern is asked for: None means a dialog; tests answer it.
    ask_pattern = None

    def _build_encoder_list(self) -> QWidget:
        box = QWidget()
        lay = QVBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(translate("ComparePanel", "Encoders (drag to reorder)")))
        self.encoder_list = QListWidget()
        self.encoder_list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.encoder_list.model().rowsMoved.connect(self._on_rows_dragged)
        lay.addWidget(self.encoder_list, 1)
        self.add_combo = QComboBox()
        self.add_combo.setToolTip(translate("ComparePanel", "Encoders known to tokviz that are not in the list"))
        lay.addWidget(self.add_combo)
        grid = QGridLayout()
        add = QPushButton(translate("ComparePanel", "Add"))
        add.clicked.connect(lambda: self.add_encoder_name(self.add_combo.currentData(KEY_ROLE)))
        remove = QPushButton(translate("ComparePanel", "Remove"))
        remove.clicked.connect(self._remove_selected)
        # the arrows alone (their names in the tooltip), and two rows of buttons instead of four: at
        # presentation scale four rows held the window taller than a 768-pixel projector
        up = QPushButton("▲")
        up.setToolTip(translate("ComparePanel", "▲ Up"))
        up.clicked.connect(lambda: self._move_selected(-1))
        down = QPushButton("▼")
        down.setToolTip(translate("ComparePanel", "▼ Down"))
        down.clicked.connect(lambda: self._move_selected(1))
        for column, button in enumerate((add, remove, up, down)):
            grid.addWidget(button, 0, column)
        open_btn = QPushButton(translate("ComparePanel", "Open model file…"))
        open_btn.clicked.connect(self._ask_open_model)
        folder_btn = QPushButton(translate("ComparePanel", "Open model folder…"))
        folder_btn.setToolTip(translate("ComparePanel", "A folder as models ship: tokenizer.json with "
                                        "tokenizer_config.json (its special tokens and chat template)"))
        folder_btn.clicked.connect(self._ask_open_model_folder)
        grid.addWidget(open_btn, 1, 0, 1, 2)
        grid.addWidget(folder_btn, 1, 2, 1, 2)
        lay.addLayout(grid)
        self._refresh_add_combo()
        return box

    def encoder_names(self) -> list[str]:
        """The keys of the listed encoders, in order (registry names, not the translated text)."""
        return list(self.state.encoders)

    def _listed_keys(self) -> list[str]:
        return [item_key(self.encoder_list.item(i)) for i in range(self.encoder_list.count())]

    def _render_encoders(self) -> None:
        """The list shows the model's encoders, in its order (the row selected stays selected)."""
        if self._listed_keys() == self.state.encoders:
            return
        current = self.encoder_list.currentItem()
        key = item_key(current) if current is not None else None
        self.encoder_list.clear()
        for name in self.state.encoders:
            self.encoder_list.addItem(encoder_item(name))
        if key in self.state.encoders:
            self.encoder_list.setCurrentRow(self.state.encoders.index(key))

    def _on_rows_dragged(self, *_args) -> None:
        self.state.set_encoders(self._listed_keys())  # the order the user dragged them to
        self._encoders_edited(remember=True)

    def set_encoders(self, names: list[str]) -> None:
        self.state.set_encoders(names)
        self._encoders_edited()

    def add_encoder_name(self, name: str) -> None:
        if self.state.add(name):
            self._encoders_edited(remember=True)

    def remove_encoder_name(self, name: str) -> None:
        if self.state.remove(name):
            self._encoders_edited(remember=True)

    def move_encoder(self, name: str, delta: int) -> None:
        before = self.encoder_names()
        j = self.state.move(name, delta)
        if j is not None and self.encoder_names() != before:
            self.encoder_list.setCurrentRow(j)
            self._encoders_edited(remember=True)

    def _remove_selected(self) -> None:
        item = self.encoder_list.currentItem()
        if item is not None:
            self.remove_encoder_name(item_key(item))

    def _move_selected(self, delta: int) -> None:
        item = self.encoder_list.currentItem()
        if item is not None:
            self.move_encoder(item_key(item), delta)

    def rename_encoder(self, old: str, new: str) -> None:
        """Show ``new`` where ``old`` was (the Train panel's model at another step), keeping its place."""
        if self.state.rename(old, new):
            self._encoders_edited()  # not saved: a trained model's name is gone in the next run anyway

    def _on_trained_model(self, encoder) -> None:
        # a reset leaves a row that says so instead of "no such encoder"; the next model takes it
        if self.state.trained_model_changed(encoder.name if encoder is not None else None):
            self._encoders_edited()

    def _available_names(self) -> set[str]:
        names = {s.name for s in self.session.registry.statuses() if s.available}
        return names | {DEMO_BPE_NAME}  # trained on first use

    def restore_encoders(self) -> list[str]:
        """List what the last run saved, without names no longer available (an opened file that
        moved, a trained model); the default list when none is left. Returns the list."""
        settings = getattr(self.session, "settings", None)
        saved = list(settings.last_encoders) if settings is not None else []
        available = self._available_names()
        restored = self.state.restore(saved, available.__contains__, DEFAULT_ENCODERS)
        self._encoders_edited()
        return restored

    def _encoders_edited(self, *, remember: bool = False) -> None:
        for i in range(self.encoder_list.count()):
            item = self.encoder_list.item(i)
            item.setForeground(name_color(i, self.palette()))
        self._refresh_add_combo()
        if remember:  # a user's add / remove / reorder is kept for the next run
            settings = getattr(self.session, "settings", None)
            if settings is not None:
                settings.last_encoders = self.state.remembered()
        self._debounce.start()

    def _refresh_add_combo(self) -> None:
        present = set(self.encoder_names()) if hasattr(self, "encoder_list") else set()
        statuses = self.session.registry.statuses()
        names = [s.name for s in statuses if s.available and s.name not in present]
        if DEMO_BPE_NAME not in present and DEMO_BPE_NAME not in names:
            names.append(DEMO_BPE_NAME)
        where = {s.name: shown_source(s.reason) for s in statuses}
        self.add_combo.clear()
        for name in names:
            self.add_combo.addItem(shown_name(name), name)
            if where.get(name):  # where its data comes from (the package, the file, "SHA-256 verified")
                self.add_combo.setItemData(self.add_combo.count() - 1, where[name], Qt.ItemDataRole.ToolTipRole)
        # the catalogue's models that are not installed stay visible, greyed, with the pip line that brings them
        missing = [s for s in statuses if not s.available and s.name not in present]
        if missing:
            self.add_combo.insertSeparator(self.add_combo.count())
            for status in missing:
                self.add_combo.addItem(translate("ComparePanel", "{name} (not installed)").format(name=status.name),
                                       None)
                row = self.add_combo.count() - 1
                self.add_combo.setItemData(row, shown_source(status.reason), Qt.ItemDataRole.ToolTipRole)
                item = self.add_combo.model().item(row)
                item.setEnabled(False)
        if hasattr(self, "encoder_list"):
            for i in range(self.encoder_list.count()):
                item = self.encoder_list.item(i)
                item.setToolTip(where.get(item_key(item), ""))
        all_names = [s.name for s in self.session.registry.statuses() if s.available]
        if hasattr(self, "overlap_a"):
            for combo, default in ((self.overlap_a, "cl100k_base"), (self.overlap_b, "o200k_base")):
                current = combo.currentData(KEY_ROLE)
                combo.clear()
                for name in all_names:  # keyed by name, shown in the interface's language
                    combo.addItem(shown_name(name), name)
                if current in all_names:
                    combo.setCurrentIndex(combo.findData(current))
                elif default in all_names:
                    combo.setCurrentIndex(combo.findData(default))
            sp = [s.name for s in self.session.registry.statuses() if s.available and s.family == "sentencepiece"]
            current = self.seg_model.currentText()
            self.seg_model.clear()
            self.seg_model.addItems(sp)
            if current in sp:
                self.seg_model.setCurrentText(current)

    def _on_registry_changed(self) -> None:
        model = getattr(self.session, "trained_model", None)
        trained = model.name if model is not None else None
        # a model opened from the File menu joins the comparison; the Train panel's model of the
        # moment (renamed every step, whichever algorithm) does not flood the list
        if self.state.registry_changed(self.session.registry.names(), leave_out=(trained, DEMO_BPE_NAME)):
            self._encoders_edited(remember=True)
        self._refresh_add_combo()
        # The Train panel offers its model at every step; a hidden Compare tab catches up when shown.
        if self.isVisible():
            self._debounce.start()
        else:
            self.state.next_rows(visible=False)

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if self.state.shown():
            self._debounce.start()

    def _ask_open_model(self) -> None:
        from tokviz.ui.common.model_open import model_file_filter

        path, _ = QFileDialog.getOpenFileName(
            self, translate("ComparePanel", "Open model file"), "", model_file_filter()
        )
        if path:
            self.open_model_file(path)

    def _ask_open_model_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, translate("ComparePanel", "Open model folder"))
        if path:
            self.open_model_file(path)

    def open_model_file(self, path: str):
        """Add a model file as an encoder. The file is parsed on a worker thread (a huge or hostile
        file must not freeze the window); ``modelOpened(ok, name or message)`` says how it went, and a
        bad file gets a message in the panel, nothing else changes. Returns the parse's Task."""
        from pathlib import Path

        from tokviz.ui.common.model_open import ask_pattern_dialog, open_model_in_background

        self.message_bar.show_message(
            translate("ComparePanel", "Opening {name}…").format(name=Path(path).name), "info")
        return open_model_in_background(self._model_tasks, path, self.ask_pattern or ask_pattern_dialog(self),
                                        lambda encoder, problem: self._model_opened(encoder, problem, path))

    def _model_opened(self, encoder, problem: str | None, path: str) -> None:
        if encoder is None:
            self.show_message(translate("ComparePanel", "Cannot open model: {err}").format(err=problem))
            self.modelOpened.emit(False, problem or "")
            return
        self.show_message(None)
        self.state.model_opened(encoder.name, path)
        self.session.add_encoder(encoder)
        self.add_encoder_name(encoder.name)
        self.modelOpened.emit(True, encoder.name)

    def open_model_file_and_wait(self, path: str, timeout: float = 120.0) -> bool:
        """:meth:`open_model_file` for scripts (screenshots): spin the event loop until it is done."""
        import time

        from PySide6.QtWidgets import QApplication

        outcome: list[bool] = []

        def record(ok: bool, _text: str) -> None:
            outcome.append(ok)

        self.modelOpened.connect(record)
        try:
            self.open_model_file(path)
            end = time.monotonic() + timeout
            while not outcome and time.monotonic() < end:
                QApplication.processEvents()
                time.sleep(0.005)
        finally:
            self.modelOpened.disconnect(record)
        return bool(outcome and outcome[0])
