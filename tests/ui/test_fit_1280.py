"""Nothing is cut off at 1280×800, in Korean or English: the Compare stats table shows every column
whole (a long encoder name is elided, not the numbers pushed out of view) and the Inspector's chat
composer shows its template, options and buttons whole."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QComboBox

from tests.support.compare_panel import Toy, compare_session
from tokviz.ui import fonts
from tokviz.ui.i18n import install_translation
from tokviz.ui.main_window import MainWindow


@pytest.fixture
def session(qtbot):
    return compare_session()

LONG = "sp:unigram-2000 (File: a_corpus_file_with_a_really_quite_long_name_indeed.txt)"


@pytest.fixture(params=["ko", "en"])
def window(request, qtbot, session):  # noqa: F811
    install_translation(request.param)
    for name in (LONG, "tokviz BPE (step 111)"):
        toy = Toy(name, fail_on_digits=False)
        toy.source = "corpus.txt"
        session.registry.add(toy)
    win = MainWindow(session)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    yield win
    install_translation("en")


def _text_fits(widget, text: str, room: int = 0) -> bool:
    return QFontMetrics(widget.font()).horizontalAdvance(text) + room <= widget.width()


def test_compare_stats_table_shows_every_column_whole(qtbot, window):
    compare = window.show_view("compare")
    with qtbot.waitSignal(compare.rowsUpdated, timeout=20000):
        compare.set_encoders(["gpt2", "cl100k_base", "o200k_base", "sp:demo_unigram", "tokviz BPE (step 111)", LONG])
        compare.refresh_now()
    table = compare.stats_table
    qtbot.waitUntil(lambda: table.horizontalHeader().length() > 0)
    assert table.horizontalScrollBar().maximum() == 0  # no column is pushed out of view
    header = table.horizontalHeader()
    fm = QFontMetrics(header.font())
    for c in range(table.columnCount()):
        title = table.horizontalHeaderItem(c).text()
        assert fm.horizontalAdvance(title) <= header.sectionSize(c), title
        for r in range(table.rowCount()):
            item = table.item(r, c)
            if c > 0 and item is not None and table.columnSpan(r, c) == 1:
                assert fm.horizontalAdvance(item.text()) <= header.sectionSize(c), item.text()
    assert table.item(5, 0).toolTip() == LONG  # the elided name is whole in its tooltip


def test_chat_composer_shows_its_controls_whole(qtbot, window):
    inspect = window.show_view("inspect")
    inspect.input_tabs.setCurrentWidget(inspect.composer)
    qtbot.waitUntil(lambda: inspect.composer.isVisible())
    composer = inspect.composer
    combos = [w for w in composer.findChildren(QComboBox) if w.isVisible()]
    buttons = [w for w in composer.findChildren(QAbstractButton) if w.isVisible()]
    assert combos and buttons
    for combo in combos:  # the text plus the drop-down arrow
        assert _text_fits(combo, combo.currentText(), room=24), combo.currentText()
    for button in buttons:
        assert button.width() >= button.sizeHint().width(), button.text()
    view = inspect.token_view
    assert view.width() >= 400  # the tokens keep a good share of the width


def test_byte_layers_say_whole_what_to_do_before_a_token_is_chosen(qtbot, window):
    inspect = window.show_view("inspect")
    inspect.set_text("")
    assert inspect.wait_for_result()
    layers = inspect.layers_view
    qtbot.waitUntil(lambda: layers.row_labels("Token id") == [])
    fm = QFontMetrics(fonts.ui_font(11))
    qtbot.waitUntil(lambda: layers.width() >= fm.horizontalAdvance(layers.placeholder_text()) + 12)


def test_compare_names_are_whole_on_a_1366_projector_taking_room_from_the_chart(qtbot):
    """The demo's Compare in Korean presentation mode (fonts x1.6) at 1366x768: the stats table's names
    ("sp:demo_unigram", "tokviz BPE (데모 말뭉치)") were elided while the bar chart beside it had room to
    give; the table now takes it, and the chart keeps enough to name its bars. (Where the columns
    need more than the chart can give, as with English headers, the table scrolls.)"""
    install_translation("ko")
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    compare = win.show_view("compare")
    win.toggle_presentation(True, full_screen=False)
    try:
        win.resize(1366, 768)
        table = compare.stats_table
        qtbot.waitUntil(lambda: table.rowCount() == 5 and table.item(4, 1) is not None, timeout=20000)
        names = [table.item(r, 0).text() for r in range(table.rowCount())]
        assert "tokviz BPE (데모 말뭉치)" in names
        # whole: the column as wide as its contents need (Qt's own measure: text plus the cell's margins)
        qtbot.waitUntil(lambda: table.columnWidth(0) >= table.sizeHintForColumn(0), timeout=5000)
        assert table.horizontalScrollBar().maximum() == 0
        assert compare.token_chart.width() >= 200
    finally:
        win.toggle_presentation(False)
        install_translation("en")
