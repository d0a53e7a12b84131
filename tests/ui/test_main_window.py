from __future__ import annotations

from tokviz.ui.main_window import PANELS, MainWindow


def test_main_window_opens_with_every_panel_and_closes(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    assert [win.tabs.tabText(i) for i in range(win.tabs.count())] == [t for t, _, _ in PANELS.values()]
    for view in PANELS:
        assert win.show_view(view) is win.current_panel()
    assert win.close()
