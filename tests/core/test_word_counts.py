"""The shared corpus counting of the WordPiece and Unigram trainers: the same counts however the corpus is cut."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.bpe.corpus import LinePart
from tokviz.core.training import Progress
from tokviz.core.word_counts import CHUNK_CHARS, WordSample, count_words
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


# ---- the distinct-word cap -------------------------------------------------------------------------
words_st = st.lists(st.text(alphabet="abcdefgh가😀", min_size=1, max_size=6), min_size=0, max_size=120)


@settings(max_examples=150, deadline=None)
@given(words_st, st.lists(st.integers(min_value=0, max_value=120), max_size=4), st.integers(min_value=1, max_value=20))
def test_the_sample_does_not_depend_on_how_the_words_were_shared(words, cuts, cap):
    # one table, or several (a helper process's chunks) combined at the lowest threshold: the same words
    whole: Counter = Counter()
    one = WordSample(cap)
    for w in words:
        whole[w] += 1
        one.check(whole)
    one.finish(whole)
    bounds = [0, *sorted(cuts), len(words)]
    parts = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        part, sample = Counter(), WordSample(cap)
        for w in words[a:b]:
            part[w] += 1
            sample.check(part)
        sample.finish(part)
        parts.append((part, sample.shift))
    combined, joint = Counter(), WordSample(cap)
    for _part, shift in parts:
        joint.absorb(shift)
    for part, _ in parts:
        joint.finish(part)
        combined.update(part)
        joint.finish(combined)
    joint.finish(combined)
    assert combined == whole and joint.shift == one.shift
    assert len(whole) <= cap
    exact = Counter(words)
    assert all(exact[w] == c for w, c in whole.items())  # kept words keep their exact counts
    assert (one.note() is None) == (len(exact) <= cap)  # a note exactly when words were left out
