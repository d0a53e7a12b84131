"""Indexing in bounded blocks (issue 23): BPE and WordPiece index a corpus a block of slots at a time,
with a Progress and a cancel poll between blocks, and build exactly what one whole-array step builds.

The block size is lowered to a few slots so that a corpus of a few thousand slots takes many blocks.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.bpe import blocks
from tokviz.core.bpe import merge_state as bpe_merge_state
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.merge_state import merge_state
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.training import Finished, Progress
from tokviz.core.wordpiece.merge_state import WordPieceMergeState
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer

BLOCK = 64


def _corpus() -> list[str]:
    """~600 mostly unique words (Latin and Hangul), ~4,000 slots: dozens of blocks of 64."""
    rng = random.Random(23)
    letters = "abcdefghij" + "가나다라마바사"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(600)]
    return [" ".join(words[i : i + 12]) + "\n" for i in range(0, len(words), 12)]


TRAINERS = {
    "bpe-byte": lambda: BPETrainer(TrainerConfig(mode="byte", merges=20)),
    "bpe-char": lambda: BPETrainer(TrainerConfig(mode="char", merges=20)),
    "bpe-char-sorted": lambda: BPETrainer(TrainerConfig(mode="char", merges=20)),  # the two-pass sort route
    "wordpiece": lambda: WordPieceTrainer(WordPieceConfig(vocab_size=80)),
}


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 64 slots; every block range handed out is logged, as is every cancel poll."""
    log: list[object] = []
    ranges = blocks.block_ranges

    def logged(n, block=None):
        for lo, hi in ranges(n, block):
            log.append(hi - lo)
            yield lo, hi

    monkeypatch.setattr(blocks, "INDEX_BLOCK", BLOCK)
    monkeypatch.setattr(blocks, "block_ranges", logged)
    return log


def _run(algorithm, log, cancel_at_poll=None):
    """Events of a run; the cancel poll logs "poll" and says True from poll ``cancel_at_poll`` on."""
    polls = [0]

    def cancel():
        log.append("poll")
        polls[0] += 1
        return cancel_at_poll is not None and polls[0] >= cancel_at_poll

    events = []
    for event in TRAINERS[algorithm]().run(_corpus(), cancel=cancel):
        events.append(event)
        log.append(event)
    return events


def _indexing_part(log):
    """The log from the first indexing Progress to the first step (or the end)."""
    start = next(i for i, e in enumerate(log) if isinstance(e, Progress) and e.phase == "indexing")
    end = next((i for i, e in enumerate(log[start:], start) if not isinstance(e, (Progress, int, str))), len(log))
    return log[start:end]


@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_indexing_does_at_most_one_block_between_two_cancel_polls(algorithm, small_blocks, monkeypatch):
    if algorithm == "bpe-char-sorted":
        monkeypatch.setattr(bpe_merge_state, "_DENSE_SYMBOLS", 0)
    events = _run(algorithm, small_blocks)
    assert isinstance(events[-1], Finished) and events[-1].reason != "cancelled"
    part = _indexing_part(small_blocks)
    sizes = [e for e in part if isinstance(e, int)]
    polls = part.count("poll")
    # ~4,000 slots in blocks of 64: several passes over them, each in dozens of blocks, each polled
    assert polls >= 100 and sizes and max(sizes) <= BLOCK, (len(sizes), polls)
    # no two blocks without a poll between them
    kinds = ["block" if isinstance(e, int) else e for e in part if isinstance(e, int) or e == "poll"]
    assert all(not (a == b == "block") for a, b in zip(kinds, kinds[1:], strict=False)), kinds


@pytest.mark.parametrize("algorithm", ["bpe-byte", "bpe-char", "wordpiece"])
def test_cancel_at_a_middle_poll_of_indexing_ends_cancelled(algorithm, small_blocks):
    _run(algorithm, small_blocks)
    part = _indexing_part(small_blocks)
    before = small_blocks.index(part[0])
    first = small_blocks[:before].count("poll")  # polls while counting
    middle = first + part.count("poll") // 2
    small_blocks.clear()
    events = _run(algorithm, small_blocks, cancel_at_poll=middle)
    assert isinstance(events[-1], Finished) and events[-1].reason == "cancelled", events[-1]
    assert "indexing" in events[-1].message
    assert all(isinstance(e, Progress) for e in events[:-1])  # not one step made
    # it stopped inside a step of indexing, between two of its blocks: the last two Progress say the same step
    last, before_last = events[-2], events[-3]
    assert last.phase == before_last.phase == "indexing" and last.done == before_last.done


def _bpe_state(mode, counts):
    stt = merge_state(mode, counts)
    return (
        stt.tok.tolist(),
        stt.nxt.tolist(),
        stt.prv.tolist(),
        stt.weight.tolist(),
        stt._keys.tolist(),
        np.asarray(stt._starts).tolist(),
        stt._pair_slots.tolist(),
        stt.pair_counts,
        stt.heap,
        stt.names,
        stt.corpus_tokens,
    )


WORDS = st.dictionaries(
    st.text(st.sampled_from("abcab가각"), min_size=1, max_size=12), st.integers(1, 5), min_size=1, max_size=40
)


@settings(max_examples=15, deadline=None)
@given(WORDS, st.sampled_from(["byte", "char"]), st.booleans(), st.integers(1, 9))
def test_bpe_state_is_the_same_in_any_block_size(words, mode, dense, block):
    counts = Counter(words)
    whole = _bpe_state(mode, counts)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks, "INDEX_BLOCK", block)
        if not dense:
            mp.setattr(bpe_merge_state, "_DENSE_SYMBOLS", 0)
        assert _bpe_state(mode, counts) == whole


def _wordpiece_state(words, freq):
    s = WordPieceMergeState(words, freq)
    return (
        s.names,
        s.sym,
        s.nxt,
        s.prv,
        s.weight,
        s.sym_count,
        s.pair_count,
        s._group,
        s._bounds,
        s._first_slots.tolist(),
        s.pairs_of,
        s._heap,
    )


@settings(max_examples=15, deadline=None)
@given(WORDS, st.integers(1, 9))
def test_wordpiece_state_is_the_same_in_any_block_size(words, block):
    whole = _wordpiece_state(list(words), list(words.values()))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks, "INDEX_BLOCK", block)
        assert _wordpiece_state(list(words), list(words.values())) == whole


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=60), st.integers(1, 9))
def test_block_steps_equal_the_whole_array_calls(values, block):
    a = np.array(values, dtype=np.uint16)
    lens = np.array([v + 1 for v in values], dtype=np.int64)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks, "INDEX_BLOCK", block)
        assert blocks.drain(blocks.stable_order_steps(a, 7)).tolist() == np.argsort(a, kind="stable").tolist()
        assert blocks.drain(blocks.nonzero_steps(a > 2)).tolist() == np.flatnonzero(a > 2).tolist()
        assert blocks.drain(blocks.bincount_steps(a, 7)).tolist() == np.bincount(a, minlength=7).tolist()
        assert blocks.drain(blocks.tolist_steps(a)) == a.tolist()
        out = np.full(int(lens.sum()), -1)
        blocks.drain(blocks.repeat_steps(a.astype(np.int64), lens, np.cumsum(lens), out))
        assert out.tolist() == np.repeat(a, lens).tolist()


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=5), st.integers(1, 9), max_size=30), st.integers(8, 40))
def test_per_word_steps_equal_the_whole_passes(counts, block):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks, "INDEX_BLOCK", block)  # a few words per step
        joined, lens = blocks.drain(blocks.words_steps(counts, len(counts)))
        assert joined == "".join(counts) and lens.tolist() == [len(w) for w in counts]
        assert blocks.drain(blocks.ints_steps(counts.values(), len(counts))).tolist() == list(counts.values())
        table = dict(counts)
        assert sum(1 for _ in blocks.release_steps(table)) >= len(counts) // max(1, block // 32) and not table
