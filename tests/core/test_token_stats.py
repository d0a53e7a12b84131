"""Corpus metrics on tiny hand-computed examples: words per script, continued words, Rényi
efficiency, Gini, and totals that add up the same however a corpus is cut into texts; the fast
word/token matching against brute force on random texts cut at random bytes."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.encoding import Encoding
from tokviz.core.token_stats import TokenStats, gini, renyi_efficiency, rows_csv
from tokviz.core.words import tokens_per_word, word_spans


def words(text: str) -> list[str]:
    return [text[a:b] for a, b in word_spans(text)]


def test_words_are_eojeol_in_korean_and_characters_in_chinese_and_japanese():
    assert words("나는 학교에서 공부합니다.") == ["나는", "학교에서", "공부합니다."]
    assert words("我爱北京。") == ["我", "爱", "北", "京"]  # 。 alone is no word
    assert words("東京に行きます") == ["東", "京", "に", "行", "き", "ま", "す"]
    assert words("コーヒー") == ["コ", "ー", "ヒ", "ー"]
    assert words("Hello , world!  👋🏽") == ["Hello", "world!", "👋🏽"]  # a lone comma is no word, an emoji is
    assert words("GPT-4 in 東京") == ["GPT-4", "in", "東", "京"]


def test_continued_words_count_tokens_overlapping_each_word():
    # " lower" one token, "low" + "est" two: one of two words continues
    enc = Encoding.from_byte_tokens("demo", "lowest lower", [(1, b"low"), (2, b"est"), (3, b" lower")])
    assert tokens_per_word(enc, word_spans(enc.text)).tolist() == [2, 1]
    s = TokenStats()
    s.add(enc)
    assert (s.words, s.continued_words, s.continued_share, s.fertility) == (2, 1, 0.5, 1.5)


def test_a_character_cut_between_byte_tokens_makes_its_word_continued():
    # "값" is three UTF-8 bytes; two byte tokens cover it
    enc = Encoding.from_byte_tokens("demo", "값 a", [(1, "값".encode()[:2]), (2, "값".encode()[2:]), (3, b" a")])
    s = TokenStats()
    s.add(enc)
    assert (s.tokens, s.characters, s.bytes, s.words, s.continued_words) == (3, 3, 5, 2, 1)
    assert s.chars_per_token == 1.0 and s.bytes_per_token == pytest.approx(5 / 3)


def test_tokens_that_skip_whitespace_or_cover_nothing_still_count_per_word():
    # char-mode BPE skips the space; a SentencePiece dummy-prefix token covers no text
    enc = Encoding.from_spans("demo", "ab cd", [(9, b"", 0, 0, "normal", None), (1, b"ab", 0, 2, "normal", None),
                                               (2, b"c", 3, 4, "normal", None), (3, b"d", 4, 5, "normal", None)])
    assert tokens_per_word(enc, word_spans(enc.text)).tolist() == [1, 2]


def test_renyi_efficiency_by_hand():
    # p = (1/2, 1/4, 1/4), alpha 2.5, |V| = 8
    expected = math.log(0.5 ** 2.5 + 2 * 0.25 ** 2.5) / (1 - 2.5) / math.log(8)
    assert renyi_efficiency({10: 2, 11: 1, 12: 1}, 8) == pytest.approx(expected)
    assert renyi_efficiency({1: 4, 2: 4, 3: 4, 4: 4}, 4) == pytest.approx(1.0)  # uniform over the whole vocabulary
    assert renyi_efficiency({1: 5}, 100) == 0.0  # one type: no entropy
    assert renyi_efficiency({}, 100) == 0.0


def test_gini_by_hand():
    # three types once, one five times: sum of |xi - xj| over ordered pairs 24, / (2 n^2 mean) = 24 / 64
    assert gini({1: 1, 2: 1, 3: 1, 4: 5}) == pytest.approx(0.375)
    assert gini({1: 7, 2: 7}) == 0.0
    assert gini({}) == 0.0


def test_totals_do_not_depend_on_how_the_corpus_is_cut():
    a = Encoding.from_byte_tokens("d", "ab", [(1, b"a"), (2, b"b")])
    b = Encoding.from_byte_tokens("d", "b c", [(2, b"b"), (3, b" c")])
    one, other = TokenStats(), TokenStats()
    one.add(a)
    one.add(b)
    part = TokenStats()
    part.add(b)
    other.add(a)
    other.merge(part)
    assert one == other
    assert one.counts == {1: 1, 2: 2, 3: 1}
    doc = one.as_json(vocab_size=10)
    assert doc["unused_share"] == 0.7 and doc["types"] == 3


def test_rows_csv_keeps_hangul_and_joins_lists():
    text = rows_csv([{"language": "한국어", "line_tokens": [1, 2]}])
    assert text == "language,line_tokens\n한국어,1 2\n"


# ---- the fast word/token matching against brute force ----------------------------------------------

IDEOGRAPHS = {"東", "あ", "ー"}
PUNCTUATION = {",", "。", "!"}
ALPHABET = ["a", "b", "값", "東", "あ", "ー", " ", "\n", ",", "。", "!", "👋"]


def naive_words(text: str) -> list[tuple[int, int]]:
    out, start = [], None
    for i, ch in enumerate([*text, " "]):
        if ch.isspace() or ch in IDEOGRAPHS:
            if start is not None and any(c not in PUNCTUATION for c in text[start:i]):
                out.append((start, i))
            start = None
            if ch in IDEOGRAPHS:
                out.append((i, i + 1))
        elif start is None:
            start = i
    return out


@st.composite
def cut_texts(draw):
    text = "".join(draw(st.lists(st.sampled_from(ALPHABET), max_size=30)))
    data = text.encode()
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(data) - 1)), max_size=len(data))) - {len(data)})
    bounds = [0, *cuts, len(data)] if data else [0]
    return text, [(i, data[a:b]) for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False))]


@settings(max_examples=80, deadline=None)
@given(cut_texts())
def test_words_and_tokens_per_word_match_brute_force(case):
    text, tokens = case
    enc = Encoding.from_byte_tokens("cuts", text, tokens)
    spans = word_spans(text)
    assert spans == naive_words(text)
    starts, ends = enc.start_array.tolist(), enc.end_array.tolist()
    brute = [sum(1 for s, e in zip(starts, ends, strict=True) if s < we and e > ws) for ws, we in spans]
    assert tokens_per_word(enc, spans).tolist() == brute
    stats = TokenStats()
    stats.add(enc)
    assert stats.continued_words == sum(n > 1 for n in brute) and stats.tokens == len(tokens)
