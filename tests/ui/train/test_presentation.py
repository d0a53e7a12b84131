"""Presentation mode (F11) in the Train panel: what it changes comes back when it ends."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.corpus import CorpusSource


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    yield win
    win.close()


def test_the_vocabulary_rows_get_their_normal_height_back_after_presentation_mode(window, qtbot):
    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.paste("low lower lowest newer wider\n안녕하세요 안녕 안녕히\n" * 4))
    panel.merges_spin.setValue(5)
    panel.start_training()
    panel.run_to_end()
    assert panel.wait_until_trained(10)
    table = panel.vocab_view
    qtbot.waitUntil(lambda: table.model().rowCount() == 5, timeout=5000)
    normal = table.rowHeight(0)
    window.toggle_presentation(True, full_screen=False)
    QApplication.processEvents()  # the widgets take the presentation fonts (their font-change events)
    assert table.verticalHeader().defaultSectionSize() > normal  # bigger fonts, taller rows
    window.toggle_presentation(False, full_screen=False)
    panel.pause()
    panel.set_step(5)  # (presentation mode replayed the run from its start)
    assert [table.rowHeight(r) for r in range(5)] == [normal] * 5
