"""The Train panel driven as in a lecture: train the 600-line NSMC corpus in a window, show a step and wait
until the panel has read its facts, and list the English words a Korean user would still read."""

from __future__ import annotations

from pathlib import Path

from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui.train.views import SPEEDS

NSMC = Path(__file__).resolve().parents[1] / "data" / "nsmc_ko_600.txt"
MERGES = 40


def train_in_window(window, qtbot, source, merges=MERGES, mode="byte"):
    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer  # the core trainer in the worker thread
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData(mode))
    panel.set_source(source)
    panel.merges_spin.setValue(merges)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.start_training()
    assert panel.wait_until_trained(60)
    qtbot.waitUntil(lambda: panel.cursor == len(panel.replay) > 0, timeout=5000)
    qtbot.waitUntil(lambda: panel.corpus_facts is not None, timeout=10000)
    return panel


def steps_to_check(last: int) -> list[int]:
    """Steps a lecture test walks to: the first ones, a spread, and the last (rarest) merges. Each
    step renders the sample twice (~0.3 s), so every step of a run made the test slow; jumping
    between steps is scrubbing, a path a room uses too."""
    return sorted({1, 2, 3, last // 4, last // 2, 3 * last // 4, last - 1, last})


def show_step(panel, qtbot, step):
    panel.set_step(step)
    qtbot.waitUntil(lambda: panel.step_facts is not None and panel.step_facts.step == step, timeout=10000)
    panel.redraw()


# identifiers and units that stay as they are in the Korean interface
_KEPT = {
    "byte",
    "char",
    "UTF",
    "hex",
    "gpt",
    "o200k",
    "BPE",
    "tokviz",
    "nsmc",
    "txt",
    "subword",
    "nmt",
    "rustbpe",
    # algorithm names, the WordPiece formula's freq() and the lattice's "n-best" are terms, not English prose
    "WordPiece",
    "Unigram",
    "freq",
    "best",
}


def english_words_in(panel) -> list[str]:
    """The English words a user reads in the Train panel: every label, button, combo item, placeholder
    and tooltip (the WordPiece and Unigram view's too), and the vocabulary table's headers and first
    rows' tooltips (identifiers and units of _KEPT excepted)."""
    import re

    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel, QLineEdit, QWidget

    def plain(text: str) -> str:
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()

    panel.algorithms.view  # noqa: B018 - WordPiece/Unigram's view, built when first chosen, is walked too
    texts = []
    for w in panel.findChildren(QWidget):
        if isinstance(w, QLabel):
            texts.append(plain(w.text()))
        elif isinstance(w, QAbstractButton):
            texts.append(w.text())
        elif isinstance(w, QComboBox):
            texts += [w.itemText(i) for i in range(w.count())]
        elif isinstance(w, QLineEdit):
            texts.append(w.placeholderText())
        if w.toolTip():
            texts.append(plain(w.toolTip()))
    model = panel.vocab_model
    texts += [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    texts += [model.index(r, c).data(Qt.ItemDataRole.ToolTipRole) or "" for r in range(5) for c in (1, 2)]
    words = {word for t in texts for word in re.findall(r"[A-Za-z]{3,}", re.sub(r"0x[0-9A-F]{2}", "", str(t)))}
    return sorted(word for word in words if not any(word.startswith(k) for k in _KEPT))
