"""Seed pieces against a plain count of every substring of every word."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from tests.support.mixed_corpus import mixed_lines
from tokviz.core.unigram.seeds import UNK_CHAR, script_of, seed_state
from tokviz.core.unigram.trainer import UnigramConfig


def _valid_spans(word):
    """Start and end of every valid piece of ``word`` (``▁`` + the word): no unknown character, and
    no change of script after its first character (``▁`` fits any script; a combining mark takes the
    script of the character before it, within the word)."""
    eff = []
    for i, ch in enumerate(word):
        if ch == "▁":
            eff.append(None)
        elif ch == UNK_CHAR or ch == "\x00":
            eff.append("invalid")
        else:
            s = script_of(ch)
            eff.append((eff[i - 1] if i else None) if s == "Inherited" else s)
    last_known = []  # the script last seen before each position, within the word
    seen = None
    for e in eff:
        last_known.append(seen)
        if e not in (None, "invalid"):
            seen = e
    for a in range(len(word)):
        for b in range(a + 2, len(word) + 1):
            if "invalid" in eff[a:b]:
                break
            if any(eff[i] not in (None, "invalid") and last_known[i] is not None and eff[i] != last_known[i]
                   for i in range(a + 1, b)):
                break
            yield a, b


def _naive_seeds(lines, coverage, max_len=16):
    words = Counter(w for line in lines for w in line.split())
    chars = Counter()
    for w, f in words.items():
        for c in "▁" + w:
            chars[c] += f
    total = sum(chars.values())
    required, acc = {}, 0
    for c, k in sorted(chars.items(), key=lambda x: (-x[1], x[0])):
        if coverage < 1.0 and acc / total >= coverage:
            break
        acc += k
        required[c] = k
    subs = Counter()
    for w, f in words.items():
        word = "▁" + "".join(c if c in required else UNK_CHAR for c in w)  # the word's mark is never unknown
        for a, b in _valid_spans(word):
            if b - a <= max_len:
                subs[word[a:b]] += f
    ranked = sorted(((s, k * len(s)) for s, k in subs.items() if k >= 2), key=lambda x: (-x[1], x[0]))
    pieces = sorted(required.items(), key=lambda x: (-x[1], x[0])) + ranked
    return [p for p, _ in pieces], [k for _, k in pieces]


# the last corpus has few words, so ▁ itself falls outside a coverage of 0.5
@pytest.mark.parametrize(("lines", "coverage"), [
    (mixed_lines(300, seed=3), 1.0), (mixed_lines(300, seed=3), 0.97),
    (["ㅋ" * 40 + "漢字" + " " + "ab" * 30 + "\n", "ab ㅋㅋ 漢\n"], 0.5)])
def test_seed_pieces_and_scores_are_a_plain_count(lines, coverage):
    words = Counter(w for line in lines for w in line.split())
    st = seed_state(UnigramConfig(vocab_size=400, character_coverage=coverage), words, lambda: False)
    pieces, raw = _naive_seeds(lines, coverage)
    assert st.seeds == pieces
    total = sum(raw)
    assert st.scores.tolist() == pytest.approx([math.log(k / total) for k in raw], rel=1e-12)
    # string ranks: the order of the pieces as strings
    assert [st.seeds[i] for i in sorted(range(len(pieces)), key=lambda i: st.str_rank[i])] == sorted(pieces)


def test_hash_collisions_fall_back_to_exact_grouping(monkeypatch):
    # with a multiplier of 0 the first hash only sees a substring's last character, so nearly every
    # group collides; the second hash notices and the substrings are grouped exactly
    import numpy as np

    from tokviz.core.unigram import seeds

    lines = mixed_lines(200, seed=4)
    words = Counter(w for line in lines for w in line.split())
    cfg = UnigramConfig(vocab_size=400)
    plain = seed_state(cfg, words, lambda: False)
    monkeypatch.setattr(seeds, "_B1", np.uint64(0))
    collided = seed_state(cfg, words, lambda: False)
    assert collided.seeds == plain.seeds
    assert collided.scores.tolist() == plain.scores.tolist()
