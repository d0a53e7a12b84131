"""Unigram seeding does a bounded amount of work between two cancel polls (issue 23).

With the blocks lowered to a few dozen items, no sort during seeding may take more than a block
between two polls of the cancel flag: one sort of every substring hash, every word arc or every
word (what seeding did before) takes seconds on a corpus of a few hundred thousand unique words,
with no progress and no way to stop it. The block sorts must give the model one big sort gives.
"""

from __future__ import annotations

import builtins
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.training import Finished, Progress
from tokviz.core.unigram import seeds, sorting
from tokviz.core.unigram.flat_lattice import drain
from tokviz.core.unigram.seeds import seed_state
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer

BLOCK = 48


def _lines(n_words: int = 2500, seed: int = 3) -> list[str]:
    """Mostly unique words of 3-8 letters out of 7, ten to a line (every length has frequent substrings)."""
    rng = np.random.default_rng(seed)
    lens = rng.integers(3, 9, size=n_words)
    text = rng.integers(97, 104, size=int(lens.sum()), dtype=np.uint8).tobytes().decode("ascii")
    ends = np.cumsum(lens).tolist()
    words = [text[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]
    return [" ".join(words[i : i + 10]) + "\n" for i in range(0, n_words, 10)]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(-(2**62), 2**62), max_size=200) | st.lists(st.integers(0, 4), max_size=200),
    st.integers(1, 40),
)
def test_block_sorts_give_the_one_stable_argsort(values, block):
    key = np.array(values, dtype=np.int64)
    assert drain(sorting.argsort_steps(key, block)).tolist() == np.argsort(key, kind="stable").tolist()
    big = key.astype(np.uint64) | np.uint64(1 << 63)  # hashes near the top of uint64 round together as floats
    assert drain(sorting.argsort_steps(big, block)).tolist() == np.argsort(big, kind="stable").tolist()
    idx = np.argsort(key, kind="stable")[::-1].copy()
    assert drain(sorting.take_steps(key, idx, block)).tolist() == key[idx].tolist()


def _run(monkeypatch, lines, cancel_at_poll=None):
    """Train with the blocks lowered, recording the largest sort between two cancel polls while the
    trainer seeds; returns (events, the largest sorts between polls during seeding, polls made)."""
    monkeypatch.setattr(sorting, "SORT_BLOCK", BLOCK)
    monkeypatch.setattr(seeds, "LIST_BLOCK", BLOCK, raising=False)
    biggest = {"now": 0}
    real_argsort, real_sorted = np.argsort, builtins.sorted

    def argsort(a, *args, **kwargs):
        biggest["now"] = max(biggest["now"], len(a))
        return real_argsort(a, *args, **kwargs)

    def sorted_(items, *args, **kwargs):
        out = real_sorted(items, *args, **kwargs)
        biggest["now"] = max(biggest["now"], len(out))
        return out

    monkeypatch.setattr(np, "argsort", argsort)
    monkeypatch.setattr(seeds, "sorted", sorted_, raising=False)  # the module's own sorts of words and strings
    per_poll, phase = [], {"now": None}

    def poll():
        if phase["now"] == "indexing":
            per_poll.append(biggest["now"])
        biggest["now"] = 0
        if phase["now"] in ("training", "steps"):
            return True  # seeding is done: training is not what these tests look at
        return cancel_at_poll is not None and len(per_poll) >= cancel_at_poll

    events = []
    for event in UnigramTrainer(UnigramConfig(vocab_size=200)).run(lines, cancel=poll):
        events.append(event)
        phase["now"] = event.phase if isinstance(event, Progress) else "steps"
    return events, per_poll


def test_seeding_sorts_at_most_a_block_between_two_cancel_polls(monkeypatch):
    events, per_poll = _run(monkeypatch, _lines(600))
    assert any(isinstance(e, Progress) and e.phase == "indexing" and e.done == e.total for e in events)
    # ~4,000 positions and ~12,000 arcs: sorted in one call each, they are hundreds of blocks
    assert len(per_poll) > 150
    assert max(per_poll) <= BLOCK


def _seeded(lines):
    st = seed_state(UnigramConfig(vocab_size=200), Counter(w for line in lines for w in line.split()), lambda: False)
    st.words.select(st.alive)
    lattice = st.words.viterbi(st.scores, -20.0)
    return st.seeds, st.scores.tolist(), st.str_rank.tolist(), [a.tolist() for a in (*st.word_arcs, *lattice)]


def test_block_sorts_seed_the_same_pieces_and_lattices(monkeypatch):
    lines = _lines(500)
    default = _seeded(lines)
    monkeypatch.setattr(sorting, "SORT_BLOCK", 16)
    monkeypatch.setattr(seeds, "LIST_BLOCK", 16)
    assert _seeded(lines) == default


@pytest.mark.parametrize("at", [1, 25, 150])
def test_a_cancel_mid_seeding_ends_at_the_next_poll(monkeypatch, at):
    events, per_poll = _run(monkeypatch, _lines(600), cancel_at_poll=at)
    assert len(per_poll) == at  # no seeding work after the poll that saw the flag
    assert isinstance(events[-1], Finished) and events[-1].reason == "cancelled"
    assert "seed" in events[-1].message


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(-(2**40), 2**40), st.booleans()), max_size=120), st.integers(0, 50),
       st.integers(1, 40))
def test_block_gathers_and_joins_give_the_one_call_arrays(rows, cut, block):
    """The word arcs are gathered and joined a block at a time (one call over tens of millions of
    occurrences held seeding 0.1-0.4 s of CPU without a poll): the same arrays as one numpy call."""
    a = np.array([v for v, _ in rows], dtype=np.int64)
    mask = np.array([m for _, m in rows], dtype=bool)
    assert drain(sorting.compress_steps(a, mask, block)).tolist() == a[mask].tolist()
    left, right = a[: min(cut, len(a))], a[min(cut, len(a)) :]
    joined = drain(sorting.concat_steps((left, right, left[:3]), block))
    assert joined.dtype == np.int64 and joined.tolist() == np.concatenate((left, right, left[:3])).tolist()
