"""BPE's and WordPiece's criteria side by side: the first disagreement worked out by hand, against a
naive recount of both rules, and on the demo corpus."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz import resources_dir
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.merge_criteria import (
    PairCounts,
    SideBySide,
    SideBySideStep,
    explain,
    first_disagreement,
    shared_words,
)
from tokviz.core.training import Finished

DEMO = resources_dir() / "corpora" / "demo.txt"


def test_hand_worked_disagreement_at_step_2():
    # Words: da ×3, db ×1, cb ×2, c ×1.
    # Step 1. WordPiece: d=4, ##a=3, ##b=3, c=3; d+##a 3/(4·3)=1/4, d+##b 1/(4·3)=1/12, c+##b 2/(3·3)=2/9.
    #         BPE: d+a</w> 3, d+b</w> 1, c+b</w> 2.  Both merge d, a.
    # Step 2. WordPiece: merging d+##a used up three of d's four occurrences, so d=1 and
    #         d+##b = 1/(1·3) = 1/3 now beats c+##b = 2/9.  BPE: c+b</w> 2 beats d+b</w> 1.
    c = first_disagreement(["da da da db cb cb c\n"])
    assert c.agreed == (("d", "a"),)
    d = c.disagreement
    assert d.step == 2
    assert d.bpe.surface == ("c", "b") and d.wordpiece.surface == ("d", "b")
    # BPE's choice, in both states (BPE's c is 2: the word "c" is c</w>, another symbol)
    assert d.bpe.bpe == (PairCounts("c", "b</w>", 2, 2, 3),)
    assert d.bpe.wordpiece == (PairCounts("c", "##b", 2, 3, 3),)
    assert Fraction(d.bpe.best_score).limit_denominator(100) == Fraction(2, 9)
    # WordPiece's choice, in both states
    assert d.wordpiece.wordpiece == (PairCounts("d", "##b", 1, 1, 3),)
    assert d.wordpiece.bpe == (PairCounts("d", "b</w>", 1, 1, 3),)
    assert d.wordpiece.best_score == pytest.approx(1 / 3)
    assert d.bpe_reason == "count" and d.wordpiece_reason == "score"
    # the trainers' own events say the same
    assert (d.bpe_step.left_piece, d.bpe_step.right_piece, d.bpe_step.count) == ("c", "b</w>", 2)
    w = d.wordpiece_step
    assert (w.left, w.right, w.pair_count, w.left_count, w.right_count) == ("d", "##b", 1, 1, 3)
    assert "Step 2" in d.description and "1 / (1 × 3)" in d.description and "2 / (3 × 3)" in d.description


def test_hugging_face_course_words_disagree_at_step_1():
    # hug ×10, pug ×5, pun ×12, bun ×4, hugs ×5.  WordPiece: ##g=20, ##s=5, ##g+##s = 5/(20·5) = 1/20,
    # the best score.  BPE with </w>: u+g is split into u+g</w> (15) and u+g (5), so p+u (17) is the
    # most frequent pair, not u+g as in the course's BPE without end-of-word marks.
    text = " ".join(["hug"] * 10 + ["pug"] * 5 + ["pun"] * 12 + ["bun"] * 4 + ["hugs"] * 5)
    d = first_disagreement([text]).disagreement
    assert d.step == 1
    assert d.bpe.bpe[0] == PairCounts("p", "u", 17, 17, 36)
    assert d.wordpiece.wordpiece[0] == PairCounts("##g", "##s", 5, 20, 5)
    assert d.wordpiece.best_score == pytest.approx(1 / 20)
    assert d.bpe.wordpiece == (PairCounts("p", "##u", 17, 17, 36),)  # 17/(17·36) = 1/36 < 1/20
    assert d.wordpiece.bpe == (PairCounts("g", "s</w>", 5, 5, 5),)  # BPE's g (not g</w>) is 5
    assert d.bpe_reason == "count" and d.wordpiece_reason == "score"


def test_one_surface_pair_is_several_pairs_and_markers_alone_can_split_the_paths():
    # ab ×3, abc ×1.  Step 1: both merge a, b (WordPiece on a tie of scores, 1/4, by the larger count).
    # Step 2: WordPiece merged every a+##b, leaving ab ##c; BPE merged only a+b</w>, leaving a b c</w>.
    # So BPE takes b+c</w>, WordPiece ab+##c, and neither has the other's pair at all.
    c = first_disagreement(["ab ab ab abc\n"])
    d = c.disagreement
    assert c.agreed == (("a", "b"),) and d.step == 2
    assert d.bpe.surface == ("b", "c") and d.wordpiece.surface == ("ab", "c")
    assert d.bpe.wordpiece == () and d.wordpiece.bpe == ()
    assert d.bpe_reason == "absent" and d.wordpiece_reason == "absent"
    assert "WordPiece has no pair spelled b + c" in d.description
    # both variants of a surface pair are listed, BPE's own choice first
    c = first_disagreement(["lo lo lo lo lo lol lol xz\n"])
    d = c.disagreement
    assert d.step == 1 and d.bpe.surface == ("l", "o")
    assert [(p.left, p.right, p.pair_count) for p in d.bpe.bpe] == [("l", "o</w>", 5), ("l", "o", 2)]
    assert [(p.left, p.right) for p in d.bpe.wordpiece] == [("l", "##o")]
    # equal counts: BPE's tie rule (the larger strings first) orders the list as it would choose
    d = first_disagreement(["ab ab ab xz xzy\n"]).disagreement
    assert d.wordpiece.wordpiece[0] == PairCounts("x", "##z", 2, 2, 2)  # 1/2, ties ##z+##y by count
    assert [(p.left, p.right, p.pair_count) for p in d.wordpiece.bpe] == [("x", "z</w>", 1), ("x", "z", 1)]


def test_a_disagreement_of_tie_rules_alone():
    # cd, ad: BPE counts c+d</w> and a+d</w> once each; WordPiece scores c+##d and a+##d 1/(1·2) each.
    # Neither criterion prefers one: BPE's tie rule takes the larger strings, WordPiece's the smaller.
    d = first_disagreement(["cd ad\n"]).disagreement
    assert d.step == 1 and d.bpe.surface == ("c", "d") and d.wordpiece.surface == ("a", "d")
    assert d.bpe_reason == "tie" and d.wordpiece_reason == "tie"


def test_same_words_for_both_trainers():
    assert shared_words("don't stop,now\x1cplease") == ["don", "'", "t", "stop", ",", "now", "please"]
    # punctuation glued to a word would be one BPE word without the shared split
    c = first_disagreement(["ab, ab, ab, xz\n"])
    assert c.disagreement.bpe.bpe[0] == PairCounts("a", "b</w>", 3, 3, 3)


def test_no_disagreement_and_bad_input():
    c = first_disagreement(["ab ab\n"])
    assert c.disagreement is None and c.agreed == (("a", "b"),)
    assert "no disagreement" in c.message and "BPE stopped at step 2" in c.message
    c = first_disagreement(["ab ab ab abc\n"], max_steps=1)
    assert c.disagreement is None and "step limit (1)" in c.message
    with pytest.raises(CorpusError):
        first_disagreement(["  \n", "\n"])
    with pytest.raises(TokvizError, match="at least 1"):
        first_disagreement(["ab\n"], max_steps=0)
    c = first_disagreement(["ab ab xz\n"], cancel=lambda: True)
    assert c.disagreement is None and "cancel" in c.message


# ---- a naive reference: both rules written out plainly, everything recounted each step ----------
def _naive_lockstep(words: Counter, steps: int):
    """Per step: (BPE's pair, WordPiece's pair) as each rule picks it from a full recount."""
    bpe = {w: list(w[:-1]) + [w[-1] + "</w>"] for w in words}
    wp = {w: [w[0]] + ["##" + c for c in w[1:]] for w in words}
    out = []
    for _ in range(steps):
        bp, ws, wpairs = Counter(), Counter(), Counter()
        for w, f in words.items():
            for p in itertools.pairwise(bpe[w]):
                bp[p] += f
            for s in wp[w]:
                ws[s] += f
            for p in itertools.pairwise(wp[w]):
                wpairs[p] += f
        if not bp or not wpairs:
            break
        b = max(bp, key=lambda p: (bp[p], p))  # subword-nmt: count, then the larger strings
        a = min(wpairs, key=lambda p: (-Fraction(wpairs[p], ws[p[0]] * ws[p[1]]), -wpairs[p], p))
        out.append((b, a, bp, ws, wpairs))
        for table, pair, join in ((bpe, b, b[0] + b[1]), (wp, a, a[0] + a[1][2:])):
            for w, seq in table.items():
                new, i = [], 0
                while i < len(seq):
                    if i + 1 < len(seq) and (seq[i], seq[i + 1]) == pair:
                        new.append(join)
                        i += 2
                    else:
                        new.append(seq[i])
                        i += 1
                table[w] = new
    return out


def _surface(p):
    return tuple(s.removeprefix("##").removesuffix("</w>") for s in p)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcd", min_size=1, max_size=5), min_size=1, max_size=14))
def test_first_disagreement_equals_a_naive_recount(words):
    text = " ".join(words) + "\n"
    naive = _naive_lockstep(Counter(words), 40)
    c = first_disagreement([text], max_steps=40)
    at = next((i for i, (b, a, *_) in enumerate(naive) if _surface(b) != _surface(a)), None)
    if at is None:
        assert c.disagreement is None
        assert c.agreed == tuple(_surface(b) for b, *_ in naive)
        return
    d = c.disagreement
    assert d.step == at + 1
    assert c.agreed == tuple(_surface(b) for b, *_ in naive[:at])
    b, a, bp, ws, wpairs = naive[at]
    assert d.bpe.bpe[0] == PairCounts(*b, bp[b], *[_bpe_symbol_count(naive, at, words, s) for s in b])
    assert d.wordpiece.wordpiece[0] == PairCounts(*a, wpairs[a], ws[a[0]], ws[a[1]])
    # every listed pair is the naive count of that pair
    for p in d.bpe.wordpiece + d.wordpiece.wordpiece:
        assert (p.pair_count, p.left_count, p.right_count) == (wpairs[p.left, p.right], ws[p.left], ws[p.right])
    for p in d.bpe.bpe + d.wordpiece.bpe:
        assert p.pair_count == bp[p.left, p.right]
    # and each criterion really prefers its own choice
    assert d.bpe.bpe_count >= d.wordpiece.bpe_count
    assert d.wordpiece.best_score >= (d.bpe.best_score or 0.0)


def _bpe_symbol_count(naive, at, words, symbol):
    """BPE's symbol count at step ``at``: replay the naive BPE merges (the naive run keeps no symbol table)."""
    seqs = {w: list(w[:-1]) + [w[-1] + "</w>"] for w in set(words)}
    for b, *_ in naive[:at]:
        for w, seq in seqs.items():
            new, i = [], 0
            while i < len(seq):
                if i + 1 < len(seq) and (seq[i], seq[i + 1]) == b:
                    new.append(b[0] + b[1])
                    i += 2
                else:
                    new.append(seq[i])
                    i += 1
            seqs[w] = new
    counts = Counter(words)
    return sum(counts[w] * seq.count(symbol) for w, seq in seqs.items())


# ---- the demo corpus ------------------------------------------------------------------------
def _demo_lines():
    return DEMO.read_text(encoding="utf-8").splitlines(keepends=True)


def test_demo_corpus_first_step_against_a_plain_count():
    lines = _demo_lines()
    c = first_disagreement(lines)
    d = c.disagreement
    # a plain count of the first step, independent of both trainers
    words = Counter(w for line in lines for w in shared_words(line))
    naive = _naive_lockstep(words, 1)
    b, a, bp, _, wpairs = naive[0]
    assert d.step == 1 and c.agreed == ()
    assert (d.bpe_step.left_piece, d.bpe_step.right_piece) == b
    assert (d.wordpiece_step.left, d.wordpiece_step.right) == a
    assert d.bpe.bpe_count == bp[b] and d.wordpiece.wordpiece[0].pair_count == wpairs[a]
    # Korean's 니 + 다</w> (the ending of 습니다) is BPE's most frequent pair (258 times); WordPiece prefers
    # a pair of characters seen once each (score 1), which BPE counts only once.
    assert d.bpe.surface == ("니", "다")
    assert d.wordpiece.best_score == 1.0 and d.wordpiece.bpe_count == 1
    assert d.bpe.best_score < 0.01


def test_replayed_states_match_both_trainers_on_the_demo_corpus():
    # explain() rebuilds each trainer's state by replay; at every one of 40 steps its counts for each
    # side's own pair must be the numbers that trainer reported for its merge.
    runner = SideBySide(40)
    steps = [e for e in runner.run(_demo_lines()) if isinstance(e, SideBySideStep)]
    assert len(steps) == 40
    for i, s in enumerate(steps):
        d = explain(s, steps[:i], runner.word_counts)
        assert (d.bpe.bpe[0].left, d.bpe.bpe[0].right, d.bpe.bpe[0].pair_count) == (
            s.bpe.left_piece, s.bpe.right_piece, s.bpe.count)
        w = d.wordpiece.wordpiece[0]
        assert (w.left, w.right, w.pair_count, w.left_count, w.right_count) == (
            s.wordpiece.left, s.wordpiece.right, s.wordpiece.pair_count,
            s.wordpiece.left_count, s.wordpiece.right_count)


def test_side_by_side_ends_with_finished():
    events = list(SideBySide(3).run(["ab ab abc abc xyz\n"]))
    assert isinstance(events[-1], Finished) and events[-1].reason == "merges"
    assert [e.step for e in events[:-1]] == [1, 2, 3]
