"""The flattened lattices of the trainer against a plain per-string forward-backward and Viterbi."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.unigram.flat_lattice import FlatLattice

UNK = -30.0


def _logsumexp(xs):
    m = max(xs)
    return m + math.log(sum(math.exp(x - m) for x in xs))


def _reference(strings, scores, alive, freq):
    """Per string, in log-space with Python floats: expected counts, log-likelihood, best scores and
    Viterbi pieces (ties to the smallest start), with an unknown arc where no single piece starts."""
    counts = [0.0] * len(scores)
    loglik = 0.0
    best_scores, paths = [], []
    for (n, arcs), f in zip(strings, freq, strict=True):
        arcs = [(s, e, p, scores[p]) for s, e, p in arcs if alive[p]]
        singles = {s for s, e, _, _ in arcs if e == s + 1}
        arcs += [(s, s + 1, -1, UNK) for s in range(n) if s not in singles]
        alpha = [0.0] + [None] * n
        best = [0.0] + [None] * n
        back = [None] * (n + 1)
        for j in range(1, n + 1):
            into = sorted((a for a in arcs if a[1] == j), key=lambda a: a[0])
            alpha[j] = _logsumexp([alpha[s] + sc for s, _, _, sc in into])
            for a in into:
                v = best[a[0]] + a[3]
                if back[j] is None or v > best[j]:
                    best[j], back[j] = v, a
        beta = [None] * n + [0.0]
        for i in range(n - 1, -1, -1):
            beta[i] = _logsumexp([sc + beta[e] for s, e, _, sc in arcs if s == i])
        for s, e, p, sc in arcs:
            if p >= 0:
                counts[p] += f * math.exp(alpha[s] + sc + beta[e] - alpha[n])
        loglik += f * alpha[n]
        best_scores.append(best[n])
        path, j = [], n
        while j > 0:
            path.append(back[j][2])
            j = back[j][0]
        paths.append(sorted(path))
    return counts, loglik, best_scores, paths


def _flat(strings):
    first, last, starts, ends, pieces = [], [], [], [], []
    node = 0
    for n, arcs in strings:
        first.append(node)
        last.append(node + n)
        for s, e, p in arcs:
            starts.append(node + s)
            ends.append(node + e)
            pieces.append(p)
        node += n + 1
    return FlatLattice(first, last, starts, ends, pieces)


def _check(strings, scores, alive, freq):
    lat = _flat(strings)
    lat.select(np.array(alive))
    counts, loglik, tokens = lat.e_step(np.array(scores), UNK, np.array(freq, dtype=float), len(scores))
    sents, pieces, best = lat.viterbi(np.array(scores), UNK)
    ref_counts, ref_loglik, ref_best, ref_paths = _reference(strings, scores, alive, freq)
    assert counts.tolist() == pytest.approx(ref_counts, rel=1e-9, abs=1e-12)
    assert loglik == pytest.approx(ref_loglik, rel=1e-12)
    assert tokens == sum(len(p) for p in ref_paths)
    assert best.tolist() == pytest.approx(ref_best, rel=1e-12)
    paths = [sorted(pieces[sents == k].tolist()) for k in range(len(strings))]
    assert paths == ref_paths


@st.composite
def lattices(draw):
    n_pieces = draw(st.integers(1, 6))
    scores = draw(st.lists(st.floats(-12.0, -0.1), min_size=n_pieces, max_size=n_pieces))
    alive = draw(st.lists(st.booleans(), min_size=n_pieces, max_size=n_pieces))
    strings = []
    for _ in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 9))
        arcs = {}  # at most one single-symbol arc per position, as a character has one piece
        for _ in range(draw(st.integers(0, 12))):
            s = draw(st.integers(0, n - 1))
            e = draw(st.integers(s + 1, min(n, s + 4)))
            arcs.setdefault((s, e) if e == s + 1 else (s, e, len(arcs)), (s, e, draw(st.integers(0, n_pieces - 1))))
        strings.append((n, sorted(set(arcs.values()))))
    freq = draw(st.lists(st.integers(1, 50), min_size=len(strings), max_size=len(strings)))
    return strings, scores, alive, freq


@settings(max_examples=150, deadline=None)
@given(lattices())
def test_e_step_and_viterbi_match_a_plain_forward_backward(case):
    _check(*case)


def test_a_long_string_of_very_unequal_parts_stays_exact():
    # 300 symbols: the first 150 covered only by pieces of probability e^-25, the rest by pieces of
    # e^-0.05 (plus pairs); scaled by the mean Viterbi rate, a prefix's sum is ~e^-1900, outside
    # float64, so the pass must notice and redo the sums in log-space
    n = 300
    arcs = [(i, i + 1, 0 if i < 150 else 1) for i in range(n)]
    arcs += [(i, i + 2, 2) for i in range(150, n - 1, 3)]
    arcs += [(i, i + 2, 3) for i in range(0, 149, 7)]
    _check([(n, arcs), (3, [(0, 1, 1), (1, 3, 2), (0, 2, 3), (2, 3, 0)])],
           [-25.0, -0.05, -0.2, -49.0], [True, True, True, True], [3, 2])


def test_arcs_of_dead_pieces_and_dropped_strings_stay_out():
    strings = [(4, [(0, 1, 0), (1, 2, 0), (2, 4, 1), (0, 2, 2), (2, 3, 0), (3, 4, 0)]),
               (2, [(0, 2, 1), (0, 1, 0), (1, 2, 0)])]
    lat = _flat(strings)
    scores = np.log([0.3, 0.3, 0.4])
    lat.select(np.array([True, True, True]))
    lat.select(np.array([True, False, True]), strings=np.array([True, False]))  # piece 1 and string 1 go
    sents, pieces, _ = lat.viterbi(scores, UNK)
    assert sents.tolist() == [0, 0, 0] and sorted(pieces.tolist()) == [0, 0, 2]
    lat.select(np.array([True, True, True]))  # piece 1 does not come back
    _, pieces, _ = lat.viterbi(scores, UNK)
    assert 1 not in pieces.tolist()
