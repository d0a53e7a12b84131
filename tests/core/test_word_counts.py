"""The shared corpus counting of the WordPiece and Unigram trainers: the same counts however the corpus is cut."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core import word_counts
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


# ---- bounded work between two cancel polls --------------------------------------------------------
def _block_lines(n_words: int = 3000) -> list[str]:
    """Blocks of many lines each, as read_corpus_blocks hands a corpus over (a megabyte a block there)."""
    words = [f"w{(i * 7919) % 1000}x" for i in range(n_words)]
    lines = [" ".join(words[i : i + 10]) + "\n" for i in range(0, n_words, 10)]
    return ["".join(lines[i : i + 100]) for i in range(0, len(lines), 100)]


def _counted_noting(blocks, split):
    """(counts, the most characters split between two cancel polls)."""
    seen = {"chars": 0, "most": 0}

    def split_noting(text):
        seen["chars"] += len(text)
        return split(text)

    def poll():
        seen["most"] = max(seen["most"], seen["chars"])
        seen["chars"] = 0
        return False

    counts = Counter()
    for _ in count_words(blocks, split_noting, counts, poll):
        pass
    return counts, seen["most"]


@pytest.mark.parametrize("size", [1, 7, 100, word_counts.UPDATE_CHARS])
def test_counting_polls_between_slices_of_a_block_and_counts_the_same(monkeypatch, size):
    """A block of a megabyte was split and counted in one go (0.2-0.35 s of CPU, no cancel poll, no
    progress); now at most about UPDATE_CHARS characters are counted between two polls, and the table
    (its order too: the trainers' ties follow it) is the same for any slice."""
    blocks = _block_lines()
    monkeypatch.setattr(word_counts, "CHUNK_CHARS", 1000)
    monkeypatch.setattr(word_counts, "UPDATE_CHARS", size)
    for split in (str.split, bert_words):
        counts, most = _counted_noting(blocks, split)
        assert list(counts.items()) == list(Counter(split("".join(blocks))).items())
        # a slice ends after the first whitespace past UPDATE_CHARS (words here are at most 5 characters)
        assert most <= size + 6


def test_cancel_stops_inside_a_block(monkeypatch):
    monkeypatch.setattr(word_counts, "UPDATE_CHARS", 64)
    polls = []
    counts = Counter()
    gen = count_words(_block_lines(), str.split, counts, lambda: polls.append(1) or len(polls) >= 3)
    assert all(isinstance(e, Progress) for e in gen)
    assert len(polls) == 3 and 0 < sum(counts.values()) < 100
