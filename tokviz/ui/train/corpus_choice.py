"""The Train panel's corpus and settings: the corpus picker (demo, file, paste, the last file used),
the trainer configuration and the sample lines shown while training."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QDialog, QFileDialog

from tokviz.core.bpe.events import TrainerConfig
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.model import TrainState
from tokviz.ui.train.views import PasteDialog, TrainViews
from tokviz.ui.train_replay import keep_hangul

translate = QCoreApplication.translate  # the panel's translation context, named in each call


def corpus_key(source: CorpusSource) -> str:
    """How the model names a corpus: ``demo``, a file's path, or a pasted text's label."""
    if source.kind == "file" and source.path is not None:
        return str(source.path)
    return "demo" if source.kind == "demo" else source.label


class CorpusHost(Protocol):
    """What the corpus choice reads and asks of the panel that trains on the corpus."""

    source: CorpusSource  # the corpus the next run trains on (set here when another is chosen)
    sources: list[CorpusSource]  # the corpus box's entries, in its order
    replay: object | None  # the run on screen's recording (None: no run)

    def forget_run(self) -> None: ...  # stop the run and clear the views: another corpus comes

    def redraw(self) -> None: ...


class CorpusChoice:
    """The Train panel's corpus and trainer settings: the corpus picker (demo, file, paste, the last file
    used), the trainer configuration its settings widgets (``views``) say, and the sample lines shown
    while training. The sources and the corpus chosen stay the ``host``'s; ``state`` learns which corpus
    is chosen; ``sample_changed()`` is called when the sample lines change, ``corpus_changed()`` when
    another corpus is chosen; the last corpus file is remembered in ``session.settings``."""

    def __init__(
        self,
        host: CorpusHost,
        session,
        state: TrainState,
        views: TrainViews,
        *,
        sample_changed: Callable[[], None],
        corpus_changed: Callable[[], None],
    ) -> None:
        self.host = host
        self.session = session
        self.state = state
        self.views = views
        self.sample_changed = sample_changed
        self.corpus_changed = corpus_changed
        self.lines: list[str] = []  # the sample lines shown (picked by load_sample)
        self.picked_hangul_only = False  # the Hangul-only setting the sample lines were picked with

    def on_mode(self, *_args) -> None:
        p = self.views
        byte = p.mode_combo.currentData() == "byte"
        p.pattern_combo.setEnabled(byte)
        p.pattern_label.setEnabled(byte)
        p.sample_legend.setVisible(byte)  # char mode never splits a character

    def current_config(self) -> TrainerConfig:
        p = self.views
        return TrainerConfig(
            mode=p.mode_combo.currentData(),
            merges=p.merges_spin.value(),
            min_frequency=p.minfreq_spin.value(),
            pattern=p.pattern_combo.currentData() or p.pattern_combo.currentText(),
            keep="hangul" if p.hangul_check.isChecked() else None,
        )

    def set_source(self, source: CorpusSource) -> None:
        """Switch corpus: a run in progress is stopped cleanly and the views are cleared."""
        host, combo = self.host, self.views.corpus_combo
        host.forget_run()
        if source not in host.sources:
            host.sources.append(source)
            combo.addItem(source.label)
        host.source = source
        self.state.choose_corpus(corpus_key(source))
        combo.setCurrentIndex(host.sources.index(source))
        self.load_sample()
        host.redraw()
        self.corpus_changed()  # e.g. read the new corpus for the lecture views while the app idles

    def on_corpus_chosen(self, index: int) -> None:
        p = self.host
        if 0 <= index < len(p.sources) and p.sources[index] is not p.source:
            self.set_source(p.sources[index])

    def ask_file(self) -> None:
        """Open file…: ask for a text file and train on it from now on."""
        settings = self.settings()
        last = settings.last_corpus if settings is not None else None
        path, _ = QFileDialog.getOpenFileName(
            self.views.host,
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
        return getattr(self.session, "settings", None)

    def offer_last_corpus(self) -> None:
        """List the corpus file opened last time (if it still exists) under the demo corpus.

        The demo stays selected: a demo or a lecture then always starts the same way, and a large
        file of the last session is not read (even for its sample) until the user picks it."""
        settings = self.settings()
        path = settings.last_corpus if settings is not None else None
        if not path or not Path(path).is_file():
            return
        source = CorpusSource.file(path)
        if source in self.host.sources:
            return
        self.host.sources.append(source)
        combo = self.views.corpus_combo
        combo.addItem(source.label)
        combo.setItemData(combo.count() - 1, str(path), Qt.ItemDataRole.ToolTipRole)

    def ask_paste(self) -> None:
        """Paste…: train on the text pasted into a dialog."""
        dialog = PasteDialog(self.views.host)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.edit.toPlainText().strip():
            self.set_source(CorpusSource.paste(dialog.edit.toPlainText()))

    def on_hangul_only_toggled(self, _checked: bool) -> None:
        # a run keeps the sample it started with; reset() and the next run pick it again
        if self.host.replay is None:
            self.load_sample()
            self.host.redraw()

    def sample_is_stale(self) -> bool:
        """Hangul-only was toggled since the sample lines were picked (the next run must not show lines it blanks)."""
        return self.picked_hangul_only != self.views.hangul_check.isChecked()

    def load_sample(self) -> None:
        hangul_only = self.views.hangul_check.isChecked()
        lines = self.host.source.sample_lines(30)
        if hangul_only:
            # the Hangul-only preset drops every other character: lines without Hangul would be blank
            lines = [line for line in lines if keep_hangul(line).strip()] or lines
        self.picked_hangul_only = hangul_only
        self.lines = lines
        self.sample_changed()
