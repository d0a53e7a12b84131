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


def test_core_unicode_explanations_are_translated(qtbot):
    """Every sentence core's Unicode explanations can show (and every region name) has a Korean
    entry, and the Inspector's explanation of a flag, a skin tone and a syllable reads Korean."""
    from PySide6.QtCore import QCoreApplication

    from tokviz.core.unicode import graphemes
    from tokviz.core.unicode_explain import CONTEXT, templates

    have = TsTranslator(TS)._messages
    assert [t for t in templates() if (CONTEXT, t) not in have] == []
    try:
        install_translation("ko")
        flag, thumb, syllable = (g.explain(QCoreApplication.translate) for g in graphemes("🇰🇷👍🏽값"))
        assert flag[0] == "지역 표시 기호 K + R = 대한민국 국기"
        assert thumb[0] == "thumbs up sign, 피부색 type-4" and "피부색 수정자" in thumb[-1]
        assert syllable[1].startswith("= ㄱ + ㅏ + ㅄ: 초성 KIYEOK (U+1100) + 중성 A")
        assert graphemes("\u1100\u1161")[0].explain(QCoreApplication.translate)[0].endswith("(초성)")
    finally:
        install_translation("en")
    assert graphemes("🇰🇷")[0].explain(QCoreApplication.translate)[0] == (
        "regional indicators K + R = flag of South Korea")


def test_trained_models_are_listed_by_key_and_shown_translated(qtbot, tmp_path):
    """The Compare list keeps a trained model's registry name as its key and shows the name in the
    interface's language; the Train panel's model of the moment never floods the list, whichever
    algorithm made it."""
    from PySide6.QtCore import Qt

    from tests.support.train_panel import LINES, core_steps
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.ui.compare.encoder_names import shown_name

    trainer, _ = core_steps(TrainerConfig(merges=5), LINES)
    try:
        install_translation("ko")
        win = MainWindow(settings=Settings.at(tmp_path / "s.ini"))
        qtbot.addWidget(win)
        compare = win.show_view("compare")
        session = compare.session
        session.offer_trained_model(trainer.model(5))
        compare.add_encoder_name("tokviz BPE (step 5)")
        session.offer_trained_model(trainer.model(3))  # the Train panel moved to step 3
        keys = compare.encoder_names()
        assert "tokviz BPE (step 3)" in keys and "tokviz BPE (step 5)" not in keys
        row = compare.encoder_list.item(keys.index("tokviz BPE (step 3)"))
        assert row.text() == "tokviz BPE (3단계)" and row.data(Qt.ItemDataRole.UserRole) == "tokviz BPE (step 3)"
        shown = [compare.encoder_list.item(i).text() for i in range(compare.encoder_list.count())]
        assert "tokviz BPE (데모 말뭉치)" in shown  # the demo model's name too
        wordpiece = trainer.model(2)
        wordpiece.name = "tokviz WordPiece (step 2)"
        session.offer_trained_model(wordpiece)  # the row follows the Train panel's model, translated
        row = compare.encoder_list.item(compare.encoder_names().index("tokviz WordPiece (step 2)"))
        assert row.text() == "tokviz WordPiece (2단계)"
        compare.remove_encoder_name("tokviz WordPiece (step 2)")
        before = compare.encoder_names()
        unigram = trainer.model(4)
        unigram.name = "tokviz Unigram (step 4, 812 pieces)"
        session.offer_trained_model(unigram)  # not in the list: it does not join it at every step
        assert compare.encoder_names() == before
        assert shown_name("tokviz WordPiece (step 2)") == "tokviz WordPiece (2단계)"
        assert shown_name("tokviz Unigram (step 4, 812 pieces)") == "tokviz Unigram (4단계, 조각 812개)"
        assert shown_name("tokviz Unigram (final, 800 pieces)") == "tokviz Unigram (최종, 조각 800개)"
        assert shown_name("cl100k_base") == "cl100k_base"
    finally:
        install_translation("en")
    assert shown_name("tokviz BPE (step 3)") == "tokviz BPE (step 3)"
