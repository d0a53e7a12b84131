"""The Train vocabulary table on a 1366×768 projector in presentation mode, Korean and English: the
token column shows whole tokens (the hex column gives way for them), and no column title is cut."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle

from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui.i18n import install_translation
from tokviz.ui.main_window import MainWindow
from tokviz.ui.train.corpus import CorpusSource

CORPUS = Path(__file__).parents[2] / "data" / "nsmc_ko_600.txt"
TOKEN = 1


@pytest.fixture(params=["ko", "en"])
def panel(request, qtbot):
    install_translation(request.param)
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    panel = win.show_view("train")
    win.toggle_presentation(True, full_screen=False)
    win.resize(1366, 768)
    panel.trainer_factory = BPETrainer
    with open(CORPUS, encoding="utf-8") as f:
        panel.set_source(CorpusSource.paste("".join(f.readlines()[:200])))
    panel.merges_spin.setValue(80)
    panel.start_training()
    panel.run_to_end()
    assert panel.wait_until_trained(30)
    panel.pause()
    panel.set_step(80)
    qtbot.waitUntil(lambda: panel.vocab_view.model().rowCount() == 80)
    yield panel
    win.toggle_presentation(False, full_screen=False)
    install_translation("en")


def _visible_rows(table) -> range:
    last = table.rowAt(table.viewport().height() - 1)
    return range(max(0, table.rowAt(0)), (last if last >= 0 else table.model().rowCount() - 1) + 1)


def _cut_tokens(table) -> list[str]:
    """The visible token cells whose text does not fit their column (Qt elides those)."""
    model, header = table.model(), table.horizontalHeader()
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    cut = []
    for row in _visible_rows(table):
        index = model.index(row, TOKEN)
        fm = QFontMetrics(index.data(Qt.ItemDataRole.FontRole) or table.font())
        if fm.horizontalAdvance(index.data()) + margin > header.sectionSize(TOKEN):
            cut.append(index.data())
    return cut


def test_presentation_at_1366_by_768_shows_whole_tokens_and_every_title(panel, qtbot):
    table = panel.vocab_view
    header = table.horizontalHeader()
    for where in (table.scrollToTop, table.scrollToBottom, lambda: table.verticalScrollBar().setValue(30)):
        where()
        assert _cut_tokens(table) == []
        assert table.horizontalScrollBar().maximum() == 0  # every column in view
    fm = QFontMetrics(header.font())
    shown = [c for c in range(table.model().columnCount()) if not table.isColumnHidden(c)]
    assert {0, TOKEN, 3, 4} <= set(shown)  # rank, token, count and length always stay
    for col in shown:
        title = table.model().headerData(col, Qt.Orientation.Horizontal)
        assert fm.horizontalAdvance(title) <= header.sectionSize(col), title
