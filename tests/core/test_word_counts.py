"""The shared corpus counting of the WordPiece and Unigram trainers: the same counts however the corpus is cut."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.bpe.corpus import LinePart
from tokviz.core.bpe.events import Progress
from tokviz.core.word_counts import CHUNK_CHARS, count_words
from tokviz.core.wordpiece.model import bert_words


def counted(lines, split=str.split, cancelled=lambda: False):
    counts = Counter()
    gen = count_words(lines, split, counts, cancelled)
    events = []
    try:
        while True:
            events.append(next(gen))
    except StopIteration as stop:
        return counts, events, stop.value


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="ab 가\n,.", max_size=300), st.lists(st.integers(min_value=0, max_value=300), max_size=6))
def test_any_cut_into_parts_counts_like_the_whole_text(text, cuts):
    # a LinePart continues in the next item, so cutting the text anywhere changes nothing
    bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    parts = [LinePart(text[a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]
    for split in (str.split, bert_words):
        counts, _, done = counted(parts, split)
        assert done and counts == Counter(split(text))


def test_words_longer_than_a_chunk_stay_whole():
    long_word = "가" * (3 * CHUNK_CHARS + 5)
    lines = ["a b\n", LinePart(long_word[:CHUNK_CHARS + 1]), LinePart(long_word[CHUNK_CHARS + 1:]), " b\n"]
    lines += ["c d\n"] * (CHUNK_CHARS // 2)
    counts, events, done = counted(lines)
    assert done and counts == Counter({"a": 1, "b": 2, long_word: 1, "c": CHUNK_CHARS // 2, "d": CHUNK_CHARS // 2})
    assert all(isinstance(e, Progress) and e.phase == "counting" for e in events)
    assert events[-1].done == sum(len(line.encode("utf-8")) for line in lines)


def test_a_line_without_newline_ends_a_word_and_cancel_stops():
    counts, _, done = counted(["ab", "cd"])
    assert done and counts == Counter({"ab": 1, "cd": 1})
    counts, _, done = counted(["x y\n"] * CHUNK_CHARS, cancelled=lambda: True)
    assert done is False
