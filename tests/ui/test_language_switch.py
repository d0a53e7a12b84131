"""Changing the language applies at once: menus, tabs, the Compare, Inspect and Train panels are retranslated
(no restart, no message asking for one), and back again."""

from __future__ import annotations

import pytest

from tests.support.compare_panel import Toy, compare_session
from tests.support.english_words import KEPT_WORDS, english_words, visible_strings
from tokviz.core.encoders import model_catalog, tiktoken_family
from tokviz.ui.i18n import install_translation
from tokviz.ui.main_window import MainWindow


@pytest.fixture
def session(qtbot):
    return compare_session()


def _shown(win) -> dict[str, object]:
    compare, inspect = win.panels["compare"], win.panels["inspect"]
    return {
        "menus": [a.text() for a in win.menuBar().actions()][:2],
        "tabs": [win.tabs.tabText(i) for i in range(3)],
        "stats header": compare.stats_table.horizontalHeaderItem(1).text(),
        "csv": compare.csv_button.text(),
        "demo row": compare.encoder_list.item(compare.encoder_names().index("tokviz BPE (demo corpus)")).text(),
        "placeholder": inspect.editor.placeholderText(),
        "special": inspect.special_check.text(),
        "layers": inspect.layers_view.row_title("Token id"),
    }


KOREAN = {
    "menus": ["파일(&F)", "보기(&V)"],
    "tabs": ["검사", "학습", "비교"],
    "stats header": "토큰",
    "csv": "CSV 내보내기…",
    "demo row": "tokviz BPE (데모 말뭉치)",
    "placeholder": "여기에 텍스트를 입력하거나 붙여넣으세요…",
    "special": "특수 토큰",
    "layers": "토큰 ID",
}
ENGLISH = {
    "menus": ["&File", "&View"],
    "tabs": ["Inspect", "Train", "Compare"],
    "stats header": "Tokens",
    "csv": "Export CSV…",
    "demo row": "tokviz BPE (demo corpus)",
    "placeholder": "Type or paste text here…",
    "special": "Special tokens",
    "layers": "Token id",
}


def test_language_switches_live_korean_english_korean(qtbot, session):  # noqa: F811
    install_translation("en")
    demo = Toy("tokviz BPE (demo corpus)", fail_on_digits=False)  # not trained here
    demo.source = "demo.txt"
    session.registry.add(demo)
    win = MainWindow(session)
    settings = win.settings
    qtbot.addWidget(win)
    win.show()
    compare = win.show_view("compare")
    try:
        compare.set_encoders(["gpt2", "tokviz BPE (demo corpus)"])
        assert _shown(win) == ENGLISH
        with qtbot.waitSignal(compare.rowsUpdated, timeout=20000):
            win.set_language("ko")
        assert _shown(win) == KOREAN
        assert settings.language == "ko"
        assert "tokviz" not in win.statusBar().currentMessage()  # no "changes when tokviz starts again"
        # encoder and package names are identifiers, as in the Korean interface built at start
        packages = {m.pypi for m in model_catalog.CATALOG} | set(tiktoken_family.RANK_PACKAGES.values())
        names = {s.name for s in win.session.registry.statuses() if not s.name.startswith("tokviz")} | packages
        panels = [win.menuBar(), win.panels["inspect"], compare]
        texts = [t for w in panels for t in visible_strings(w)]
        english = english_words(texts, KEPT_WORDS, sorted(names, key=len, reverse=True))
        assert english == {}, english
        win.set_language("en")
        assert _shown(win) == ENGLISH
        win.set_language("ko")
        assert _shown(win) == KOREAN
    finally:
        install_translation("en")


def test_follow_language_retranslates_then_recomposes_and_lets_the_widget_go(qtbot):
    """The one call a panel makes (the Train panel's hook): fixed strings follow, ``then`` runs after
    them, and a deleted widget is no longer called."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QLabel, QWidget
    from shiboken6 import isValid

    from tokviz.ui.i18n import follow_language

    install_translation("en")
    root = QWidget()
    label = QLabel(QCoreApplication.translate("ComparePanel", "Stats"), root)
    seen: list[str] = []
    follow_language(root, ("ComparePanel",), then=lambda: seen.append(label.text()))
    try:
        install_translation("ko")
        assert label.text() == "통계" and seen == ["통계"]
        install_translation("en")
        assert label.text() == "Stats" and seen == ["통계", "Stats"]
        root.deleteLater()
        qtbot.waitUntil(lambda: not isValid(root))
        install_translation("ko")  # nothing left to call: no error, nothing recorded
        assert seen == ["통계", "Stats"]
    finally:
        install_translation("en")


def test_the_train_panel_follows_a_language_switch_korean_english_korean(qtbot, tmp_path):
    """A trained Train panel at a byte-mode step (banner, "why this pair", table, sample) switches from
    English to Korean and back and forth live: in Korean no English word is left, in English the
    composed lines are English again."""
    from tests.support.train_lecture import NSMC, english_words_in, show_step, train_in_window
    from tokviz.ui.settings import Settings
    from tokviz.ui.train.corpus import CorpusSource

    install_translation("en")
    win = MainWindow(settings=Settings.at(tmp_path / "settings.ini"))
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    try:
        panel = train_in_window(win, qtbot, CorpusSource.file(NSMC))
        step = next(s.step for s in panel.replay.steps if "<0x" in s.left_piece and s.step > 3)
        show_step(panel, qtbot, step)
        for language in ("ko", "en", "ko"):
            win.set_language(language)
            panel.redraw()
            if language == "ko":
                assert "왜 이 쌍인가" in panel.why_label.text() and "바이트 중" in panel.merge_banner.text()
                assert english_words_in(panel) == [], language
            else:
                assert "Why this pair" in panel.why_label.text() and panel.step_label.text().startswith("step ")
                assert panel.train_button.text() in ("▶ Train", "▶ Play")
    finally:
        install_translation("en")
        win.close()
