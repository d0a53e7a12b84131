from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tokviz
from tokviz import resources_dir
from tokviz.ui.i18n import TsTranslator, install_translation, resolve_language
from tokviz.ui.main_window import MainWindow
from tokviz.ui.settings import Settings

TS = resources_dir() / "translations" / "tokviz_ko.ts"


def test_korean_interface_from_the_setting(qtbot, tmp_path):
    try:
        assert install_translation("ko") == "ko"
        win = MainWindow(settings=Settings.at(tmp_path / "s.ini"))
        qtbot.addWidget(win)
        menus = [a.text() for a in win.menuBar().actions()]
        assert menus[:2] == ["파일(&F)", "보기(&V)"]
        assert [win.tabs.tabText(i) for i in range(3)] == ["검사", "학습", "비교"]
    finally:
        install_translation("en")
    win = MainWindow(settings=Settings.at(tmp_path / "s.ini"))
    qtbot.addWidget(win)
    assert win.menuBar().actions()[0].text() == "&File"


def test_explicit_language_wins_over_the_system_locale():
    assert resolve_language("ko") == "ko" and resolve_language("en") == "en"
    assert resolve_language("system") in ("en", "ko")


@pytest.mark.skipif(shutil.which("pyside6-lupdate") is None, reason="pyside6-lupdate not installed")
def test_every_string_marked_for_translation_has_a_korean_translation(tmp_path):
    """lupdate collects every tr() string in tokviz/ui; each must be translated in tokviz_ko.ts."""
    ui = Path(tokviz.__file__).parent / "ui"
    fresh = tmp_path / "fresh.ts"
    sources = [str(p) for p in ui.rglob("*.py")]
    subprocess.run(["pyside6-lupdate", *sources, "-ts", str(fresh)], check=True, capture_output=True)
    wanted = {(c.findtext("name"), m.findtext("source"))
              for c in ET.parse(fresh).getroot().iter("context") for m in c.iter("message")}
    have = TsTranslator(TS)._messages
    missing = sorted(k for k in wanted if k not in have)
    assert missing == [], f"untranslated (run pyside6-lupdate and translate): {missing[:20]}"
