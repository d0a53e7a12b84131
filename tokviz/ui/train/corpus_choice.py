"""The Train panel's corpus and settings: the corpus picker (demo, file, paste, the last file used),
the trainer configuration and the sample lines shown while training."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QFileDialog

from tokviz.core.bpe.events import TrainerConfig
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.views import PasteDialog
from tokviz.ui.train_replay import keep_hangul

translate = QCoreApplication.translate  # the panel's translation context, named in each call


def corpus_key(source: CorpusSource) -> str:
    """How the model names a corpus: ``demo``, a file's path, or a pasted text's label."""
    if source.kind == "file" and source.path is not None:
        return str(source.path)
    return "demo" if source.kind == "demo" else source.label


class CorpusChoice:
    """The corpus and the trainer settings (mixed into TrainPanel)."""

    def _on_mode(self, *_args) -> None:
        byte = self.mode_combo.currentData() == "byte"
        self.pattern_combo.setEnabled(byte)
        self.pattern_label.setEnabled(byte)
        self.sample_legend.setVisible(byte)  # char mode never splits a character

    def current_config(self) -> TrainerConfig:
        mode = self.mode_combo.currentData()
        return TrainerConfig(
            mode=mode,
            merges=self.merges_spin.value(),
            min_frequency=self.minfreq_spin.value(),
            pattern=self.pattern_combo.currentData() or self.pattern_combo.currentText(),
            keep="hangul" if self.hangul_check.isChecked() else None,
        )

    def set_source(self, source: CorpusSource) -> None:
        """Switch corpus: a run in progress is stopped cleanly and the views are cleared."""
        self._stop_run()
        self.reset()
        if source not in self.sources:
            self.sources.append(source)
            self.corpus_combo.addItem(source.label)
        self.source = source
        self.state.choose_corpus(corpus_key(source))
        self.corpus_combo.setCurrentIndex(self.sources.index(source))
        self._load_sample()
        self._render()
        self.facts_timer.start()  # read the new corpus for the lecture views while the app idles

    def _on_corpus_chosen(self, index: int) -> None:
        if 0 <= index < len(self.sources) and self.sources[index] is not self.source:
            self.set_source(self.sources[index])

    def _open_file(self) -> None:
        last = self._settings().last_corpus if self._settings() is not None else None
        path, _ = QFileDialog.getOpenFileName(
            self,
            translate("TrainPanel", "Open a text corpus"),
            str(Path(last).parent) if last else "",
            translate("TrainPanel", "Text files (*.txt);;All files (*)"),
        )
        if path:
            self.open_corpus_file(path)

    def open_corpus_file(self, path: str | Path) -> None:
        """Train on the text file ``path`` from now on, and remember it for the next start."""
        path = Path(path).resolve()  # one entry per file, however it was named
        self.set_source(CorpusSource.file(path))
        settings = self._settings()
        if settings is not None:
            settings.last_corpus = str(path)

    def _settings(self):
        return getattr(self.session, "settings", None)

    def _offer_last_corpus(self) -> None:
        """List the corpus file opened last time (if it still exists) under the demo corpus.

        The demo stays selected: a demo or a lecture then always starts the same way, and a large
        file of the last session is not read (even for its sample) until the user picks it."""
        settings = self._settings()
        path = settings.last_corpus if settings is not None else None
        if not path or not Path(path).is_file():
            return
        source = CorpusSource.file(path)
        if source in self.sources:
            return
        self.sources.append(source)
        self.corpus_combo.addItem(source.label)
        self.corpus_combo.setItemData(self.corpus_combo.count() - 1, str(path), Qt.ItemDataRole.ToolTipRole)

    def _paste(self) -> None:
        dialog = PasteDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.edit.toPlainText().strip():
            self.set_source(CorpusSource.paste(dialog.edit.toPlainText()))

    @property
    def sample_lines(self) -> list[str]:
        """The corpus lines the sample view shows."""
        return list(self._sample)

    def _on_keep_toggled(self, _checked: bool) -> None:
        # a run keeps the sample it started with; reset() and the next run pick it again
        if self.replay is None:
            self._load_sample()
            self._render()

    def _load_sample(self) -> None:
        lines = self.source.sample_lines(30)
        if self.hangul_check.isChecked():
            # the Hangul-only preset drops every other character: lines without Hangul would be blank
            lines = [line for line in lines if keep_hangul(line).strip()] or lines
        self._sample_keep = self.hangul_check.isChecked()
        self._sample = lines
        self._sample_steps = []
        self._view_step["sample"] = -1
