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
    """The Train panel's corpus and trainer settings: the corpus picker (demo, file, paste, the last file
    used), the trainer configuration its settings widgets say, and the sample lines shown while training.
    The sources and the corpus chosen stay the panel's (``panel.sources``, ``panel.source``)."""

    def __init__(self, panel) -> None:
        self.panel = panel
        self.lines: list[str] = []  # the sample lines shown (picked by load_sample)
        self.picked_hangul_only = False  # the Hangul-only setting the sample lines were picked with

    def on_mode(self, *_args) -> None:
        p = self.panel
        byte = p.mode_combo.currentData() == "byte"
        p.pattern_combo.setEnabled(byte)
        p.pattern_label.setEnabled(byte)
        p.sample_legend.setVisible(byte)  # char mode never splits a character

    def current_config(self) -> TrainerConfig:
        p = self.panel
        return TrainerConfig(
            mode=p.mode_combo.currentData(),
            merges=p.merges_spin.value(),
            min_frequency=p.minfreq_spin.value(),
            pattern=p.pattern_combo.currentData() or p.pattern_combo.currentText(),
            keep="hangul" if p.hangul_check.isChecked() else None,
        )

    def set_source(self, source: CorpusSource) -> None:
        """Switch corpus: a run in progress is stopped cleanly and the views are cleared."""
        p = self.panel
        p._stop_run()
        p.reset()
        if source not in p.sources:
            p.sources.append(source)
            p.corpus_combo.addItem(source.label)
        p.source = source
        p.state.choose_corpus(corpus_key(source))
        p.corpus_combo.setCurrentIndex(p.sources.index(source))
        self.load_sample()
        p.redraw()
        p.facts_timer.start()  # read the new corpus for the lecture views while the app idles

    def on_corpus_chosen(self, index: int) -> None:
        p = self.panel
        if 0 <= index < len(p.sources) and p.sources[index] is not p.source:
            self.set_source(p.sources[index])

    def ask_file(self) -> None:
        """Open file…: ask for a text file and train on it from now on."""
        settings = self.settings()
        last = settings.last_corpus if settings is not None else None
        path, _ = QFileDialog.getOpenFileName(
            self.panel,
            translate("TrainPanel", "Open a text corpus"),
            str(Path(last).parent) if last else "",
            translate("TrainPanel", "Text files (*.txt);;All files (*)"),
        )
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path) -> None:
        """Train on the text file ``path`` from now on, and remember it for the next start."""
        path = Path(path).resolve()  # one entry per file, however it was named
        self.set_source(CorpusSource.file(path))
        settings = self.settings()
        if settings is not None:
            settings.last_corpus = str(path)

    def settings(self):
        return getattr(self.panel.session, "settings", None)

    def offer_last_corpus(self) -> None:
        """List the corpus file opened last time (if it still exists) under the demo corpus.

        The demo stays selected: a demo or a lecture then always starts the same way, and a large
        file of the last session is not read (even for its sample) until the user picks it."""
        p = self.panel
        settings = self.settings()
        path = settings.last_corpus if settings is not None else None
        if not path or not Path(path).is_file():
            return
        source = CorpusSource.file(path)
        if source in p.sources:
            return
        p.sources.append(source)
        p.corpus_combo.addItem(source.label)
        p.corpus_combo.setItemData(p.corpus_combo.count() - 1, str(path), Qt.ItemDataRole.ToolTipRole)

    def ask_paste(self) -> None:
        """Paste…: train on the text pasted into a dialog."""
        dialog = PasteDialog(self.panel)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.edit.toPlainText().strip():
            self.set_source(CorpusSource.paste(dialog.edit.toPlainText()))

    def on_hangul_only_toggled(self, _checked: bool) -> None:
        # a run keeps the sample it started with; reset() and the next run pick it again
        if self.panel.replay is None:
            self.load_sample()
            self.panel.redraw()

    def sample_is_stale(self) -> bool:
        """Hangul-only was toggled since the sample lines were picked (the next run must not show lines it blanks)."""
        return self.picked_hangul_only != self.panel.hangul_check.isChecked()

    def load_sample(self) -> None:
        p = self.panel
        lines = p.source.sample_lines(30)
        if p.hangul_check.isChecked():
            # the Hangul-only preset drops every other character: lines without Hangul would be blank
            lines = [line for line in lines if keep_hangul(line).strip()] or lines
        self.picked_hangul_only = p.hangul_check.isChecked()
        self.lines = lines
        p.renderer.sample_changed()
