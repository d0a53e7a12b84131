"""Metrics of an Encoding: counts, ratios, kinds, round trip and the decoded-text diff."""

from __future__ import annotations

import contextlib
import json

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core import metrics
from tokviz.core.encoding import Encoding
from tokviz.core.metrics import measure, round_trip_diff


def byte_tokens(text: str, size: int) -> list[tuple[int, bytes]]:
    """Cut ``text``'s UTF-8 into fixed-size byte chunks (cuts characters on purpose)."""
    data = text.encode("utf-8")
    return [(i, data[i : i + size]) for i in range(0, len(data), size)]


def test_counts_and_ratios_for_korean_cut_mid_syllable():
    text = "값이 올랐다"  # 6 chars, 2 words, 16 bytes (5 syllables * 3 + space)
    enc = Encoding.from_byte_tokens("bytes2", text, byte_tokens(text, 2))
    m = measure(enc)
    assert (m.characters, m.bytes, m.words, m.tokens) == (6, 16, 2, 8)
    assert m.bytes_per_token == 2.0
    assert m.chars_per_token == 6 / 8
    assert m.fertility == 4.0
    # 2-byte chunks never line up with the 3-byte syllables, so every chunk cuts one
    assert m.partial_tokens == sum(t.partial for t in enc.tokens) == 8
    assert m.round_trip is True


def test_graphemes_count_what_a_reader_sees():
    text = "👨\u200d👩\u200d👧\u200d👦🇰🇷 e\u0301\r\n"
    m = measure(Encoding.from_byte_tokens("bytes", text, byte_tokens(text, 4)))
    assert (m.characters, m.graphemes) == (14, 5)  # 7 + 2 + 1 + 2 + 2 code points
    assert m.as_json()["graphemes"] == 5


def test_empty_text_gives_zero_ratios_not_a_crash():
    m = measure(Encoding.from_byte_tokens("empty", "", []))
    assert (m.tokens, m.characters, m.bytes, m.words) == (0, 0, 0, 0)
    assert (m.chars_per_token, m.bytes_per_token, m.fertility) == (0.0, 0.0, 0.0)
    assert m.round_trip is True
    json.dumps(m.as_json())


def test_as_json_rounds_ratios_and_is_json_safe():
    enc = Encoding.from_byte_tokens("e", "abcdefghij", [(1, b"abc"), (2, b"def"), (3, b"ghij")])
    j = measure(enc).as_json()
    assert j["chars_per_token"] == 3.3333
    assert j["encoder"] == "e"
    assert json.loads(json.dumps(j)) == j


def test_kinds_are_counted_separately():
    text = "a<s>b?"
    spans = [
        (1, b"a", 0, 1, "normal", None),
        (2, b"<s>", 1, 4, "special", "<s>"),
        (3, b"b", 4, 5, "byte_fallback", "<0x62>"),
        (0, b"", 5, 6, "unknown", "<unk>"),
    ]
    m = measure(Encoding.from_spans("sp", text, spans))
    assert (m.special_tokens, m.fallback_tokens, m.unknown_tokens) == (1, 1, 1)
    assert m.round_trip is False  # the unknown piece lost "?"


def test_decoded_text_decides_round_trip_when_given():
    enc = Encoding.from_byte_tokens("e", "hi", [(1, b"hi")])
    assert measure(enc, decoded="hi").round_trip is True
    assert measure(enc, decoded="hi ").round_trip is False


def test_words_are_eojeol_in_korean_and_characters_in_chinese_and_japanese():
    # whitespace-split words said 1 for the Japanese text and counted the lone "!" as a word
    text = "東京に行きます。 저는 학교에서 !"
    m = measure(Encoding.from_byte_tokens("e", text, [(1, text[:13].encode()), (2, text[13:].encode())]))
    assert (m.words, m.continued_words, m.fertility) == (9, 1, 2 / 9)  # "학교에서" is cut after "학"
    assert measure(Encoding.from_byte_tokens("e", "", [])).words == 0


def test_round_trip_diff_locates_changes():
    assert round_trip_diff("same", "same") == []
    diffs = round_trip_diff("ｈello 😀 world", "hello  ⁇  world")
    assert [(d.op, d.start, d.end, d.original) for d in diffs] == [
        ("replace", 0, 1, "ｈ"),
        ("replace", 6, 7, "😀"),
    ]
    assert diffs[0].decoded == "h"
    deleted = round_trip_diff("abc", "ac")
    assert [(d.op, d.start, d.end, d.original, d.decoded) for d in deleted] == [("delete", 1, 2, "b", "")]
    inserted = round_trip_diff("ac", "abc")
    assert [(d.op, d.start, d.decoded) for d in inserted] == [("insert", 1, "b")]
    assert "was lost" in deleted[0].describe()
    json.dumps([d.as_json() for d in diffs])


def apply_differences(a: str, diffs) -> str:
    out, pos = [], 0
    for d in diffs:
        assert pos <= d.start <= d.end and a[d.start : d.end] == d.original
        out.append(a[pos : d.start])
        out.append(d.decoded)
        pos = d.end
    out.append(a[pos:])
    return "".join(out)


TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)))
# small alphabets with lines and spaces, so both sides share structure and the line / word levels
# of the diff actually match things
LINES = st.text(alphabet="ab가 \n\t😀")


@given(TEXT, TEXT)
def test_round_trip_diff_rebuilds_the_decoded_text(a, b):
    # applying the differences to the original must give the decoded text back
    assert apply_differences(a, round_trip_diff(a, b)) == b


@given(LINES, LINES, st.sampled_from([1, 2, 5]))
def test_round_trip_diff_levels_rebuild_the_decoded_text(a, b, limit):
    # a tiny character limit forces the line and word levels (and the whole-block fallback)
    saved = metrics.CHAR_DIFF_LIMIT
    metrics.CHAR_DIFF_LIMIT = limit
    try:
        diffs = round_trip_diff(a, b)
    finally:
        metrics.CHAR_DIFF_LIMIT = saved
    assert apply_differences(a, diffs) == b
    assert (diffs == []) == (a == b)


def test_round_trip_diff_on_a_long_text_is_precise():
    lines = [f"{i}번째 줄: 오늘도 좋은 하루 보내세요. Line {i} of the text." for i in range(3000)]
    original = "\n".join(lines)  # ~150k characters: a plain character diff would take minutes
    decoded = original.replace("1500번째", "1500 번째").replace("Line 2999", "Line 2999!")
    decoded = decoded.replace("\n".join(lines[10:12]), lines[10])  # line 11 lost
    diffs = round_trip_diff(original, decoded)
    assert apply_differences(original, diffs) == decoded
    assert [d.op for d in diffs] == ["delete", "insert", "insert"]
    # which copy of the repeated text around the lost line is reported is up to the matcher
    assert len(diffs[0].original) == len(lines[11]) + 1 and "Line 11 of" in diffs[0].original
    assert abs(diffs[0].start - original.index("\n11번째")) <= 2
    assert diffs[1].decoded == " " and diffs[2].decoded == "!"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))), st.integers(1, 5))
def test_measure_counts_match_the_text(text, size):
    m = measure(Encoding.from_byte_tokens("chunks", text, byte_tokens(text, size)))
    assert m.bytes == len(text.encode("utf-8"))
    assert m.characters == len(text)
    assert m.tokens == -(-m.bytes // size)
    assert m.round_trip


# characters that join their neighbours, mixed densely with plain ones, so windows touch and merge
_JOINY = st.text(alphabet=st.sampled_from(
    list("a 가각\r\n\u1100\u1161\u11a8\u200d\ufe0f\u0301\u0600\u093f\u094d\u0915") +
    ["👨", "👩", "🏽", "🇰", "🇷", "😀"]), max_size=40)


@given(st.one_of(TEXT, _JOINY))
def test_grapheme_count_agrees_with_walking_the_clusters(text):
    import regex

    assert metrics.count_graphemes(text) == len(regex.findall(r"\X", text))


@given(st.one_of(TEXT, _JOINY))
def test_grapheme_spans_equal_walking_the_whole_text(text):
    import regex

    assert metrics.grapheme_spans(text) == [m.span() for m in regex.finditer(r"\X", text)]


class _SpanRecorder:
    """Stands in for the joining-character pattern, noting how many characters each call searches."""

    def __init__(self, pattern):
        self.pattern, self.spans = pattern, []

    def _note(self, text, pos=0, endpos=None):
        self.spans.append(min(len(text), len(text) if endpos is None else endpos) - pos)

    def search(self, text, pos=0, endpos=None):
        self._note(text, pos, endpos)
        return self.pattern.search(text, pos, len(text) if endpos is None else endpos)

    def finditer(self, text, pos=0, endpos=None):
        self._note(text, pos, endpos)
        return self.pattern.finditer(text, pos, len(text) if endpos is None else endpos)


@pytest.mark.parametrize("text", ["plain text 가나다 " * 40, "plain " * 30 + "👨\u200d👩" + " text" * 30])
def test_joining_characters_are_searched_a_slice_at_a_time(monkeypatch, text):
    """One regex search through a whole 20 MB paste with no joining character held the GIL ~0.5 s
    (the Inspector's GUI thread waited for it): no call may search more than a slice."""
    monkeypatch.setattr(metrics, "_JOINING_SLICE", 64)
    recorder = _SpanRecorder(metrics._JOINING)
    monkeypatch.setattr(metrics, "_JOINING", recorder)
    metrics._count_clusters.cache_clear()
    whole = len(regex.findall(r"\X", text))
    assert metrics.count_graphemes(text) == whole
    assert metrics.grapheme_spans(text) == [m.span() for m in regex.finditer(r"\X", text)]
    assert recorder.spans and max(recorder.spans) <= 64


@contextlib.contextmanager
def _joining_slice(size: int):
    """The joining-character search slice set to ``size`` (hypothesis runs many examples in one test,
    so not through the function-scoped monkeypatch)."""
    old = metrics._JOINING_SLICE
    metrics._JOINING_SLICE = size
    metrics._count_clusters.cache_clear()
    try:
        yield
    finally:
        metrics._JOINING_SLICE = old
        metrics._count_clusters.cache_clear()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(TEXT, _JOINY), max_size=6).map("".join), st.integers(1, 9))
def test_graphemes_are_the_same_for_any_slice(text, size):
    with _joining_slice(size):
        count, spans = metrics.count_graphemes(text), metrics.grapheme_spans(text)
    assert count == len(regex.findall(r"\X", text))
    assert spans == [m.span() for m in regex.finditer(r"\X", text)]
