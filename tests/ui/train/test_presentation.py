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


def _segments_cross(rect, a, b) -> bool:
    from PySide6.QtCore import QLineF

    line = QLineF(a, b)
    if rect.contains(a) or rect.contains(b):
        return True
    sides = [
        QLineF(rect.topLeft(), rect.topRight()),
        QLineF(rect.topRight(), rect.bottomRight()),
        QLineF(rect.bottomRight(), rect.bottomLeft()),
        QLineF(rect.bottomLeft(), rect.topLeft()),
    ]
    return any(line.intersects(side)[0] == QLineF.IntersectionType.BoundedIntersection for side in sides)


def test_the_table_fits_1280_by_800_its_rows_come_back_and_the_tree_stays_readable_in_presentation(window, qtbot):
    """One run for the three (a run and a window of its own cost ~0.6 s CPU): the table at 1280×800,
    its rows' height after presentation mode, and the merge tree in presentation mode at 1366×768."""
    from tokviz.ui.train.tree import MIN_LABEL_PX

    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.paste("영화가 정말 재밌어요 영화관 영화배우\n오늘은 날씨가 좋습니다\n" * 6))
    panel.merges_spin.setValue(40)
    panel.start_training()
    panel.run_to_end()
    assert panel.wait_until_trained(10)
    QApplication.processEvents()
    table = panel.vocab_view
    header = table.horizontalHeader()
    last = table.model().columnCount() - 1
    # every column, the last ("bytes", "바이트") included, inside the visible table
    assert header.sectionViewportPosition(last) + header.sectionSize(last) <= table.viewport().width()
    _check_the_vocabulary_rows_get_their_normal_height_back_after_presentation_mode(window, panel)

    deepest = max(panel.replay.steps, key=lambda s: panel.replay.merge_tree(s.token_id).depth())
    window.toggle_presentation(True, full_screen=False)
    window.resize(1366, 768)
    panel.pause()
    panel.set_step(len(panel.replay))
    panel.select_token(deepest.token_id)
    QApplication.processEvents()
    tree = panel.tree_view
    assert tree.tree.depth() >= 4
    assert tree.label_pixels() >= MIN_LABEL_PX
    captions, edges = tree.drawn_geometry()
    assert captions and edges
    assert not [(c, a, b) for c in captions for a, b in edges if _segments_cross(c, a, b)]
    window.toggle_presentation(False, full_screen=False)


def _check_the_vocabulary_rows_get_their_normal_height_back_after_presentation_mode(window, panel):
    table = panel.vocab_view
    normal = table.rowHeight(0)
    window.toggle_presentation(True, full_screen=False)
    QApplication.processEvents()  # the widgets take the presentation fonts (their font-change events)
    assert table.verticalHeader().defaultSectionSize() > normal  # bigger fonts, taller rows
    window.toggle_presentation(False, full_screen=False)
    panel.pause()
    panel.set_step(len(panel.replay))  # (presentation mode replayed the run from its start)
    assert [table.rowHeight(r) for r in range(len(panel.replay))] == [normal] * len(panel.replay)
