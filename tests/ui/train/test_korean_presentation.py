"""The Train panel in Korean presentation mode on a 1366×768 projector: nothing is cut off."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from tests.support.train_panel import TEXT
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui.i18n import install_translation
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.corpus import CorpusSource


@pytest.fixture
def korean_window(qtbot):
    install_translation("ko")
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.toggle_presentation(False, full_screen=False)
    win.close()
    install_translation("en")


def test_the_vocabulary_table_shows_its_last_column_whole_without_a_horizontal_scroll_bar(korean_window, qtbot):
    panel = korean_window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.paste(TEXT))
    panel.merges_spin.setValue(20)
    korean_window.toggle_presentation(True, full_screen=False)  # plays by itself: the table fills
    table = panel.vocab_view
    qtbot.waitUntil(lambda: table.model().rowCount() > 0, timeout=10_000)
    header = table.horizontalHeader()
    last = header.count() - 1
    title = table.model().headerData(last, Qt.Orientation.Horizontal)
    assert title == "바이트"
    assert table.horizontalScrollBar().maximum() == 0
    assert not table.horizontalScrollBar().isVisible()
    assert header.sectionViewportPosition(last) + header.sectionSize(last) <= table.viewport().width()
    assert QFontMetrics(header.font()).horizontalAdvance(title) <= header.sectionSize(last)
