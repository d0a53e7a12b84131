"""The lattices of many short strings (the corpus's unique words) as one set of numpy arrays.

Node ``first[s] + k`` sits after ``k`` symbols of string ``s``; an arc ``(start, end, piece)`` is a
vocabulary piece over the symbols between two nodes of the same string. Forward-backward and
Viterbi run over *all* strings at once: arcs are grouped by the offset of their end node inside
their string (the "level"), so every numpy step handles that level of every string together, and a
pass costs a few numpy calls per level instead of a Python loop per arc. Why: the trainer runs
forward-backward over ~70,000 words ~30 times and Viterbi ~15 times; per-arc Python loops took
minutes where this takes seconds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


class Cancelled(Exception):
    """Raised inside a pass when the caller's cancel() returned True."""


class FlatLattice:
    """Arcs of many strings with the pieces that are currently alive (see the module docstring).

    ``arc_start``/``arc_end`` are global node ids, ``arc_piece`` piece ids (``-1``: unknown),
    ``node_off[n]`` the offset of node ``n`` in its string, ``first``/``last`` each string's first
    and last node. :meth:`select` keeps the arcs of alive pieces and adds an ``<unk>`` arc at every
    position where no alive single-symbol piece starts (as SentencePiece's PopulateNodes does).
    """

    def __init__(self, first, last, arc_start, arc_end, arc_piece):
        self.first = np.asarray(first, dtype=np.int64)
        self.last = np.asarray(last, dtype=np.int64)
        self.n_nodes = int(self.last[-1]) + 1 if len(self.last) else 0
        lens = self.last - self.first
        self.sent_of_node = np.repeat(np.arange(len(self.first)), lens + 1)
        node_off = np.arange(self.n_nodes) - np.repeat(self.first, lens + 1)
        is_pos = np.ones(self.n_nodes, dtype=bool)
        is_pos[self.last] = False
        positions = np.flatnonzero(is_pos)  # nodes that begin a symbol
        # every arc, then a candidate unknown arc at every position (kept only where needed)
        self.start = np.concatenate((np.asarray(arc_start, dtype=np.int64), positions))
        self.end = np.concatenate((np.asarray(arc_end, dtype=np.int64), positions + 1))
        self.piece = np.concatenate((np.asarray(arc_piece, dtype=np.int64), np.full(len(positions), -1, np.int64)))
        self.n_real = len(self.start) - len(positions)
        self.unk_pos = positions
        self.sent = self.sent_of_node[self.start]
        self._single = (self.end - self.start == 1)[: self.n_real]
        # sorted once: forward by (end offset, end node, start), backward by (start offset desc, start node)
        self._fwd_all = np.lexsort((self.start, self.end, node_off[self.end]))
        self._fwd_key = (node_off[self.end], self.end)
        self._bwd_all = np.lexsort((self.end, self.start, -node_off[self.start]))
        self._bwd_key = (node_off[self.start], self.start)

    def select(self, alive: np.ndarray, exclude: np.ndarray | None = None) -> None:
        """Keep the arcs whose piece is alive (and not excluded: a mask over the arcs given to the
        constructor), add unknown arcs, and prepare the level groups."""
        real = alive[self.piece[: self.n_real]]
        if exclude is not None:
            real &= ~exclude
        single = np.zeros(self.n_nodes, dtype=bool)
        single[self.start[: self.n_real][real & self._single]] = True
        keep = np.concatenate((real, ~single[self.unk_pos]))
        self.keep = keep
        self.kept = np.flatnonzero(keep)
        self.n_unknown = int((~single[self.unk_pos]).sum())
        self._fwd = _levels(self._fwd_all[keep[self._fwd_all]], *self._fwd_key)
        self._bwd = _levels(self._bwd_all[keep[self._bwd_all]], *self._bwd_key)

    def arc_scores(self, scores: np.ndarray, unk_score: float) -> np.ndarray:
        """Score of every arc (dead ones too; they are never read)."""
        return np.where(self.piece >= 0, scores[np.maximum(self.piece, 0)], unk_score)

    def forward_backward(self, sc: np.ndarray, cancel: Callable[[], bool] | None = None):
        """``(alpha, beta, Z)``: log forward and backward sums per node, log P of each string."""
        alpha = np.zeros(self.n_nodes)
        for order, nodes, g, sizes in self._fwd:
            v = alpha[self.start[order]] + sc[order]
            alpha[nodes] = _group_logsumexp(v, g, sizes)
            if cancel is not None and cancel():
                raise Cancelled
        beta = np.zeros(self.n_nodes)
        for order, nodes, g, sizes in self._bwd:
            v = beta[self.end[order]] + sc[order]
            beta[nodes] = _group_logsumexp(v, g, sizes)
            if cancel is not None and cancel():
                raise Cancelled
        return alpha, beta, alpha[self.last]

    def expected_counts(self, sc, freq, n_pieces, cancel=None):
        """Expected count of every piece (forward-backward, each string weighted by ``freq``) and
        the log-likelihood ``sum(freq * log P(string))``."""
        alpha, beta, z = self.forward_backward(sc, cancel)
        k = self.kept[: np.searchsorted(self.kept, self.n_real)]  # kept arcs of real pieces
        sent = self.sent[k]
        post = np.exp(alpha[self.start[k]] + sc[k] + beta[self.end[k]] - z[sent]) * freq[sent]
        counts = np.bincount(self.piece[k], weights=post, minlength=n_pieces)
        return counts, float((freq * z).sum())

    def viterbi(self, sc: np.ndarray, cancel=None):
        """Best path of every string: ``(string index, piece)`` of each arc on it, and each string's
        best score. Ties go to the arc with the smallest start (the longest last piece), as in
        SentencePiece's encoder."""
        best = np.zeros(self.n_nodes)
        arc_of = np.full(self.n_nodes, -1, dtype=np.int64)
        for order, nodes, g, sizes in self._fwd:
            v = best[self.start[order]] + sc[order]
            m = np.maximum.reduceat(v, g)
            idx = np.arange(len(v))
            idx = np.where(v == np.repeat(m, sizes), idx, len(v))
            win = np.minimum.reduceat(idx, g)
            best[nodes] = m
            arc_of[nodes] = order[win]
            if cancel is not None and cancel():
                raise Cancelled
        sents, pieces = [], []
        node = self.last.copy()
        who = np.arange(len(node))
        live = node != self.first
        node, who = node[live], who[live]
        while len(node):
            a = arc_of[node]
            sents.append(who)
            pieces.append(self.piece[a])
            node = self.start[a]
            live = node != self.first[who]
            node, who = node[live], who[live]
        if sents:
            return np.concatenate(sents), np.concatenate(pieces), best[self.last]
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, best[self.last]


def _levels(order, level, group_key):
    """Split ``order`` (arc indices sorted by level, then group node) into levels: per level the
    arc indices, the group nodes, group starts and sizes (for ``reduceat``)."""
    lv = level[order]
    keys = group_key[order]
    n = len(order)
    if not n:
        return []
    lb = np.concatenate(([0], np.flatnonzero(lv[1:] != lv[:-1]) + 1, [n]))
    gs = np.concatenate(([0], np.flatnonzero(keys[1:] != keys[:-1]) + 1))
    gl = np.searchsorted(gs, lb)
    sizes_all = np.diff(np.concatenate((gs, [n])))
    out = []
    for t in range(len(lb) - 1):
        lo, hi = lb[t], lb[t + 1]
        g = gs[gl[t]: gl[t + 1]]
        out.append((order[lo:hi], keys[g], g - lo, sizes_all[gl[t]: gl[t + 1]]))
    return out


def _group_logsumexp(v, g, sizes):
    m = np.maximum.reduceat(v, g)
    finite = np.where(np.isfinite(m), m, 0.0)
    s = np.add.reduceat(np.exp(v - np.repeat(finite, sizes)), g)
    with np.errstate(divide="ignore"):
        return finite + np.log(s)


def digamma(x: np.ndarray) -> np.ndarray:
    """SentencePiece's Digamma (recurrence up to 7, then the asymptotic series), vectorized.

    >>> round(float(digamma(np.array([1.0]))[0]), 6)  # -Euler's constant
    -0.577216
    """
    x = np.array(x, dtype=np.float64)
    result = np.zeros_like(x)
    for _ in range(8):
        small = x < 7
        if not small.any():
            break
        result[small] -= 1.0 / x[small]
        x[small] += 1.0
    x = x - 0.5
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    return (result + np.log(x) + xx2 / 24.0 - (7.0 / 960.0) * xx4 + (31.0 / 8064.0) * xx4 * xx2
            - (127.0 / 30720.0) * xx4 * xx4)
