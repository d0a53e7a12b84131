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
        assert header.length() <= table.viewport().width()  # every column in view
    fm = QFontMetrics(header.font())
    shown = [c for c in range(table.model().columnCount()) if not table.isColumnHidden(c)]
    assert {0, TOKEN, 3, 4} <= set(shown)  # rank, token, count and length always stay
    for col in shown:
        title = table.model().headerData(col, Qt.Orientation.Horizontal)
        assert fm.horizontalAdvance(title) <= header.sectionSize(col), title


def test_the_hex_column_gives_way_to_a_wide_token_only_in_presentation_mode(qtbot):
    """A lone table with one wide token in a narrow pane: presented, the hex column goes and the token is
    whole; at a desk the hex stays and the token is elided; back in presentation mode
    the token column is as wide as before (it never shrinks while the rows stay)."""
    from PySide6.QtGui import QStandardItem, QStandardItemModel

    from tokviz.ui.train.vocab_table import VocabTable

    model = QStandardItemModel(0, 5)
    model.setHorizontalHeaderLabels(["#", "token", "hex", "n", "len"])
    table = VocabTable()
    qtbot.addWidget(table)
    table.setModel(model)
    token = "·tokenization"
    wanted, floors = [40, 90, 150, 50, 40], [40, 40, 80, 50, 40]
    need = QFontMetrics(table.font()).horizontalAdvance(token) + 14
    table.resize(40 + need + 40 + 50 + 40 + 2 * table.frameWidth(), 200)  # room for half the hex's floor
    table.show()
    table.set_widths(wanted, floors, tokens_first=True)
    item = QStandardItem(token)
    item.setData(7, Qt.ItemDataRole.UserRole)
    model.appendRow(
        [QStandardItem("1"), item, QStandardItem("E2 80 A2 74 6F 6B 65 6E"), QStandardItem("9"), QStandardItem("14")]
    )
    qtbot.waitUntil(lambda: table.isColumnHidden(2))
    assert _cut_tokens(table) == [] and table.horizontalHeader().length() <= table.viewport().width()
    presented = table.columnWidth(TOKEN)
    table.set_widths(wanted, floors, tokens_first=False)
    assert not table.isColumnHidden(2) and table.columnWidth(2) >= floors[2]  # the token gave way first
    assert _cut_tokens(table) == [token]
    table.set_widths(wanted, floors, tokens_first=True)
    assert table.isColumnHidden(2) and table.columnWidth(TOKEN) == presented
