"""The one word rule (tokviz.core.words): the per-character table gives the words docs/metrics.md's
rule gives (written here as one regular expression), every slice size gives the same words, and
Compare's numbers (measure, compare totals) count the same words as parity's."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core import words
from tokviz.core.compare import compare_text
from tokviz.core.compare.corpus import CorpusTotals
from tokviz.core.encoding import Encoding
from tokviz.core.metrics import measure
from tokviz.core.parity import measure_parity, read_parallel_corpus
from tokviz.core.token_stats import TokenStats

# docs/metrics.md's rule: an ideographic character, or a run of non-space non-ideographic
# characters holding something besides punctuation
_ID = r"\p{Han}\p{Hiragana}\p{Katakana}ー"
RULE = regex.compile(rf"[{_ID}]|(?=[^\s{_ID}]*[^\s\p{{P}}{_ID}])[^\s{_ID}]+")

TRICKY = "ab 가\n\t\u3000\u00a0\x1c\u200b東あー・,。!-👋\u0301"
# text as tokviz gets it: decoded UTF-8, so no lone surrogates
texts = st.text(alphabet=st.one_of(st.sampled_from(TRICKY), st.characters(exclude_categories=("Cs",))), max_size=60)


def byte_cut(text: str, size: int) -> Encoding:
    data = text.encode("utf-8")
    return Encoding.from_byte_tokens("cut", text, [(i, data[i : i + size]) for i in range(0, len(data), size)])


def test_words_per_script():
    assert words.word_spans("나는 학교에서 공부합니다.") == [(0, 2), (3, 7), (8, 14)]
    assert words.count_words("我爱北京。") == 4 and words.count_words("東京に行きます") == 7
    assert words.count_words("Hello , world!  👋🏽 ...") == 3  # a lone comma or "..." is no word, an emoji is
    assert words.count_words("") == 0 and words.count_words(" \n ") == 0


@settings(max_examples=150, deadline=None)
@given(texts)
def test_the_table_gives_the_rules_words(text):
    assert words.word_spans(text) == [m.span() for m in RULE.finditer(text)]


@settings(max_examples=150, deadline=None)
@given(texts, st.integers(1, 9), st.integers(1, 4))
def test_every_slice_size_gives_the_same_words(text, size, token_bytes):
    enc = byte_cut(text, token_bytes)
    whole = (words.word_spans(text), words.count_words(text), words.word_counts(enc))
    saved = words._WORD_SLICE
    words._WORD_SLICE = size
    try:
        assert (words.word_spans(text), words.count_words(text), words.word_counts(enc)) == whole
    finally:
        words._WORD_SLICE = saved


@pytest.fixture(scope="module")
def gpt2():
    from tokviz.core.encoders import tiktoken_family

    return tiktoken_family.load("gpt2")


LINES = {"en": "I am going to Tokyo.", "ja": "東京に行きます。", "zh": "我明天去北京。", "ko": "저는 도쿄에 갑니다."}


def test_compare_counts_the_words_parity_counts(tmp_path, gpt2):
    # whitespace words made "東京に行きます。" one word: Compare said 11 tokens/word where parity said 1.57
    for lang, line in LINES.items():
        (tmp_path / f"{lang}.txt").write_text(line + "\n", encoding="utf-8")
    parity = measure_parity([gpt2], read_parallel_corpus(tmp_path))
    for lang, line in LINES.items():
        stats = parity.stats[(gpt2.name, lang)]
        (outcome,) = compare_text([gpt2], line)
        m = outcome.metrics
        assert (m.words, m.continued_words, m.fertility) == (stats.words, stats.continued_words, stats.fertility)
        totals = CorpusTotals("set", gpt2.name)
        totals.add(m)
        assert (totals.fertility, totals.continued_share) == (stats.fertility, stats.continued_share)
    assert parity.stats[(gpt2.name, "ja")].words == 7


def test_measure_and_token_stats_agree_on_any_text():
    text = "GPT-4 in 東京, 2024년 — ok? 👋🏽"
    enc = byte_cut(text, 2)
    stats = TokenStats()
    stats.add(enc)
    m = measure(enc)
    assert (m.words, m.continued_words) == (stats.words, stats.continued_words) == (7, 6)  # only "in" is one token
    assert m.as_json()["continued_share"] == round(stats.continued_share, 4)
