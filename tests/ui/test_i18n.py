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


def test_ts_reader_handles_comments_plurals_entities_and_unfinished(tmp_path):
    ts = tmp_path / "t.ts"
    ts.write_text(
        """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS><TS version="2.1" language="ko_KR">
<context><name>W</name>
<message><source>&amp;Open</source><translation>열기(&amp;O)</translation></message>
<message><source>Open</source><comment>state</comment><translation>열림</translation></message>
<message><source>Open</source><comment>verb</comment><translation>열기</translation></message>
<message numerus="yes"><source>%n tokens</source><translation><numerusform>토큰 %n개</numerusform></translation></message>
<message><source>Draft</source><translation type="unfinished">초안</translation></message>
<message><source>Empty</source><translation type="unfinished"></translation></message>
<message><source>Gone</source><translation type="vanished">사라짐</translation></message>
</context></TS>
""", encoding="utf-8")  # noqa: E501 (a .ts file as Qt writes it, one message a line)
    t = TsTranslator(ts)
    assert t.translate("W", "&Open") == "열기(&O)"
    assert t.translate("W", "Open", "state") == "열림" and t.translate("W", "Open", "verb") == "열기"
    assert t.translate("W", "%n tokens", None, 3) == "토큰 %n개"
    assert t.translate("W", "Draft") == "초안"
    assert t.translate("W", "Empty") == "" and t.translate("W", "Gone") == ""
