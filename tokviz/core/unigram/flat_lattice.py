"""The lattices of many short strings (the corpus's unique words) as one set of numpy arrays.

Node ``first[s] + k`` sits after ``k`` symbols of string ``s``; an arc ``(start, end, piece)`` is a
vocabulary piece over the symbols between two nodes of the same string (inside, the nodes are
numbered again offset by offset, so that one offset of every string is one range). Forward-backward and
Viterbi run over *all* strings at once: arcs are grouped by the offset of their end node inside
their string (the "level"), so every numpy step handles that level of every string together, and a
pass costs a few numpy calls per level instead of a Python loop per arc. Why: the trainer runs
forward-backward over ~70,000 words ~15 times and Viterbi ~25 times; per-arc Python loops took
minutes where this takes a fraction of a second.

The arcs are sorted into both pass orders once, when the lattice is made; :meth:`FlatLattice.select`
only filters them, and drops the arcs of dead pieces for good (a piece that left the vocabulary
never comes back), so the passes get cheaper as the vocabulary shrinks.

Forward-backward runs on probabilities, not log-probabilities: a level then costs a gather, a
product and a segment sum, where log-space needs a max, an exp and a log per level as well. To keep
a long word's products inside float64's range, every arc of string ``s`` is scaled by
``exp(length × r_s)`` with ``r_s`` its Viterbi log-probability per symbol: every path over a string
covers all its symbols, so each path, and each forward and backward sum, is scaled by the same
factor, which divides out of the posteriors exactly. Should a string still leave the safe range (a
long word mixing very likely and very unlikely parts), the pass is redone in log-space.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import TypeVar

import numpy as np

from tokviz.core.unigram import sorting
from tokviz.core.unigram.sorting import argsort_steps, take_steps


class Cancelled(Exception):
    """Raised inside a pass when the caller's cancel() returned True."""


T = TypeVar("T")
ARC_SLICE = 1 << 20  # arcs per elementwise slice of an E-step (tens of ms), between which it yields
_SAFE = 1e250  # forward/backward sums (scaled) must stay within [1/_SAFE, _SAFE]


class FlatLattice:
    """Arcs of many strings with the pieces that are currently alive (see the module docstring).

    ``first``/``last`` are each string's first and last node; ``arc_start``/``arc_end`` global node
    ids, ``arc_piece`` piece ids, with at most one single-symbol arc per position (its character's
    piece). A position without one gets an unknown arc (piece ``-1``), and so does a position whose
    single-symbol piece is not alive: SentencePiece's PopulateNodes adds an ``<unk>`` arc exactly
    where no alive single-symbol piece starts.
    """

    BUILD_STEPS = 5  # yields of :meth:`build_steps`

    def __init__(self, first, last, arc_start, arc_end, arc_piece):
        for _ in self.build_steps(first, last, arc_start, arc_end, arc_piece):
            pass

    @classmethod
    def staged(cls, first, last, arc_start, arc_end, arc_piece) -> tuple[FlatLattice, Iterator[int]]:
        """A lattice not built yet and the generator that builds it, yielding between its sorts
        (a word lattice of a few hundred thousand words takes seconds: the trainer reports meanwhile)."""
        lat = cls.__new__(cls)
        return lat, lat.build_steps(first, last, arc_start, arc_end, arc_piece)

    def build_steps(self, first, last, arc_start, arc_end, arc_piece) -> Iterator[int]:
        """What ``__init__`` does, yielding the number of its ``BUILD_STEPS`` steps done so far (0 to
        ``BUILD_STEPS - 1``, several times within a step while it sorts: see :meth:`staged`)."""
        self.first = np.asarray(first, dtype=np.int64)
        self.last = np.asarray(last, dtype=np.int64)
        self.n_strings = len(self.first)
        self.n_nodes = int(self.last[-1]) + 1 if len(self.last) else 0
        lens = self.last - self.first
        self.lengths = lens
        self.sent_of_node = np.repeat(np.arange(self.n_strings), lens + 1)
        self.node_off = np.arange(self.n_nodes) - np.repeat(self.first, lens + 1)
        yield 0  # a word lattice holds millions of nodes and arcs: every few whole-array steps, a yield
        start = np.asarray(arc_start, dtype=np.int64)
        end = np.asarray(arc_end, dtype=np.int64)
        piece = np.asarray(arc_piece, dtype=np.int64)
        # an unknown arc at every position that has no single-symbol arc; the arcs are tens of millions
        # for a few hundred thousand words, so they are read and joined a block at a time (in whole-array
        # calls this step took ~0.45 s of CPU without a yield)
        needs = np.ones(self.n_nodes, dtype=bool)
        needs[self.last] = False
        block = sorting.SORT_BLOCK
        for lo in range(0, len(start), block):
            s = start[lo : lo + block]
            needs[s[end[lo : lo + block] - s == 1]] = False
            yield 0
        positions = np.flatnonzero(needs)
        if len(positions):
            start = yield from numbered(0, sorting.concat_steps((start, positions)))
            end = yield from numbered(0, sorting.concat_steps((end, positions + 1)))
            piece = yield from numbered(0, sorting.concat_steps((piece, np.full(len(positions), -1, np.int64))))
        yield 0
        # sorted once: forward by (end offset, end node, start), backward by (start offset desc, start node, end)
        fwd = yield from numbered(0, _order_steps(self.node_off[end], end, start))
        yield 0
        bwd = yield from numbered(1, _order_steps(-self.node_off[start], start, end))
        yield 1
        # nodes renumbered level by level (offset 0 of every string, then offset 1, ...): a level's nodes
        # are then one range, and its arcs read their start nodes from a few ranges, not from all over
        by_level = yield from numbered(2, _order_steps(self.node_off, np.arange(self.n_nodes), np.arange(self.n_nodes)))
        new_id = np.empty(self.n_nodes, dtype=np.int64)
        new_id[by_level] = np.arange(self.n_nodes)
        yield 2
        start = yield from numbered(2, take_steps(new_id, start))
        end = yield from numbered(2, take_steps(new_id, end))
        self.first, self.last = new_id[self.first], new_id[self.last]
        self.sent_of_node = self.sent_of_node[by_level]
        self.node_off = self.node_off[by_level]
        self.live = np.ones(self.n_strings, dtype=bool)
        yield 2
        piece1 = piece + 1
        del piece
        self._f = yield from numbered(3, self._arrays_steps(start, end, piece1, fwd, "end"))
        yield 3
        self._b = yield from numbered(4, self._arrays_steps(start, end, piece1, bwd, "start"))
        self._alive = None
        self.n_unknown = len(positions)
        yield 4

    def _arrays(self, start, end, piece1, group_key):
        return drain(self._arrays_steps(start, end, piece1, None, group_key))

    def _arrays_steps(self, start, end, piece1, order, group_key):
        """The arcs (in ``order``; None: as they are) as a pass reads them, yielding between gathers."""
        if order is not None:
            start = yield from take_steps(start, order)
            end = yield from take_steps(end, order)
            piece1 = yield from take_steps(piece1, order)
        arcs = {"start": start, "end": end, "piece1": piece1}
        off_end = yield from take_steps(self.node_off, end)
        arcs["length"] = off_end - (yield from take_steps(self.node_off, start))
        del off_end
        arcs["sent"] = yield from take_steps(self.sent_of_node, start)
        arcs["levels"] = yield from _levels_steps(arcs[group_key], self.node_off)
        arcs["group_key"] = group_key
        return arcs

    # ---- selection ---------------------------------------------------------------------------
    def select(self, alive: np.ndarray, strings: np.ndarray | None = None) -> None:
        """Use the arcs whose piece is ``alive`` (of the strings in ``strings``: a mask, None: all);
        a single-symbol arc whose piece is not alive becomes an unknown arc. Pieces and strings left
        out never come back: once they are a good share of the arcs, their arcs are dropped for good
        (until then a pass gives them probability zero)."""
        drain(self.select_steps(alive, strings))

    def select_steps(self, alive: np.ndarray, strings: np.ndarray | None = None) -> Generator[None, None, None]:
        """:meth:`select`, yielding between its whole-array steps (dropping arcs rebuilds the arrays)."""
        if strings is not None:
            self.live &= strings
        alive = np.concatenate(([True], alive))  # indexed by piece + 1 (0: unknown)
        if self._alive is not None:
            alive &= self._alive
        self._alive = alive
        for name in ("_f", "_b"):
            arcs = getattr(self, name)
            keep = yield from take_steps(alive, arcs["piece1"])
            single_dead = ~keep & (arcs["length"] == 1)
            if single_dead.any():
                arcs["piece1"][single_dead] = 0
                keep |= single_dead
            del single_dead
            yield
            if strings is not None:
                keep &= yield from take_steps(self.live, arcs["sent"])
            if keep.sum() < 0.9 * len(keep):
                kept = np.flatnonzero(keep)
                del keep
                yield
                start = yield from take_steps(arcs["start"], kept)
                end = yield from take_steps(arcs["end"], kept)
                piece1 = yield from take_steps(arcs["piece1"], kept)
                del kept
                setattr(self, name, (yield from self._arrays_steps(start, end, piece1, None, arcs["group_key"])))
        self.n_unknown = int((self._f["piece1"] == 0).sum())

    def _arc_scores_steps(self, arcs, scores: np.ndarray, unk_score: float) -> Generator[None, None, np.ndarray]:
        table = np.concatenate(([unk_score], scores))
        table[~self._alive] = -np.inf
        return (yield from take_steps(table, arcs["piece1"]))

    # ---- passes ------------------------------------------------------------------------------
    def viterbi(self, scores: np.ndarray, unk_score: float, cancel: Callable[[], bool] | None = None):
        """Best path of every selected string: ``(string index, piece)`` of each arc on it
        (``-1``: unknown), and each string's best score. Ties go to the arc with the smallest start
        (the longest last piece), as in SentencePiece's encoder.

        >>> lat = FlatLattice([0], [2], [0, 1, 0], [1, 2, 2], [0, 0, 1])  # "aa": a, a, aa
        >>> lat.select(np.array([True, True]))
        >>> sents, pieces, best = lat.viterbi(np.log([0.5, 0.2]), -20.0)
        >>> pieces.tolist(), round(float(best[0]), 4)
        ([0, 0], -1.3863)
        """
        return drain(self.viterbi_steps(scores, unk_score, cancel))

    def viterbi_steps(self, scores, unk_score, cancel=None) -> Generator[None, None, tuple]:
        """:meth:`viterbi`, yielding after each level (the caller reports progress meanwhile)."""
        sc = yield from self._arc_scores_steps(self._f, scores, unk_score)
        return (yield from self._viterbi(sc, cancel))

    def _viterbi(self, sc, cancel, paths=True):
        """See :meth:`viterbi`; without ``paths`` only the number of arcs on the paths and the scores.
        A generator yielding after each level."""
        f = self._f
        start = f["start"]
        best = np.zeros(self.n_nodes)
        for lo, hi, nodes, offs in f["levels"]:
            best[nodes] = np.maximum.reduceat(best[start[lo:hi]] + sc[lo:hi], offs)
            if cancel is not None and cancel():
                raise Cancelled
            yield
        # the winning arc of each node: the first (smallest start) whose score reaches the node's best
        # (the same sum as in the loop, so the comparison is exact)
        at_start = yield from take_steps(best, start)
        at_end = yield from take_steps(best, f["end"])
        tight = np.flatnonzero(at_start + sc == at_end)
        del at_start, at_end
        yield
        e = f["end"][tight]
        firsts = np.concatenate(([True], e[1:] != e[:-1]))
        win, at = tight[firsts], e[firsts]
        prev = np.zeros(self.n_nodes, dtype=np.int64)
        prev[at] = start[win]
        inner = self.node_off > 0
        # walk every live string's path back from its last node at once; the arcs are found by their end node
        node = self.last[self.live & (self.last != self.first)]
        ends = []
        while len(node):
            ends.append(node)
            node = prev[node]
            node = node[inner[node]]
        ends = np.concatenate(ends) if ends else np.zeros(0, dtype=np.int64)
        if not paths:
            return len(ends), best[self.last]
        piece_of = np.zeros(self.n_nodes, dtype=np.int64)
        piece_of[at] = f["piece1"][win]
        return self.sent_of_node[ends], piece_of[ends] - 1, best[self.last]

    def e_step(self, scores, unk_score, freq, n_pieces, cancel=None):
        """Expected count of every piece (forward-backward, each string weighted by ``freq``), the
        log-likelihood ``sum(freq * log P(string))``, and the number of arcs on the strings' Viterbi
        paths (their scores scale the forward-backward sums: see the module docstring).

        >>> lat = FlatLattice([0], [2], [0, 1, 0], [1, 2, 2], [0, 0, 1])  # "aa": a, a, aa
        >>> lat.select(np.array([True, True]))
        >>> counts, loglik, tokens = lat.e_step(np.log([0.5, 0.2]), -20.0, np.array([1.0]), 2)
        >>> [round(float(c), 4) for c in counts], round(loglik, 4), tokens  # P = .25 + .2; Viterbi a|a
        ([1.1111, 0.4444], -0.7985, 2)
        """
        return drain(self.e_step_steps(scores, unk_score, freq, n_pieces, cancel))

    def e_step_steps(self, scores, unk_score, freq, n_pieces, cancel=None) -> Generator[None, None, tuple]:
        """:meth:`e_step`, yielding after each level of its passes and between its whole-array steps."""
        f, b = self._f, self._b
        sc_f = yield from self._arc_scores_steps(f, scores, unk_score)
        sc_b = yield from self._arc_scores_steps(b, scores, unk_score)
        tokens, best = yield from self._viterbi(sc_f, cancel, paths=False)
        rate = -best / np.maximum(self.lengths, 1)
        p_f = yield from _sliced(len(sc_f), lambda a: np.exp(sc_f[a] + f["length"][a] * rate[f["sent"][a]]))
        p_b = yield from _sliced(len(sc_b), lambda a: np.exp(sc_b[a] + b["length"][a] * rate[b["sent"][a]]))
        alpha, beta = yield from self._forward_backward(p_f, p_b, cancel)
        safe = (1 / _SAFE <= min(alpha.min(), beta.min())) and (max(alpha.max(), beta.max()) <= _SAFE)
        yield
        if safe:
            z = alpha[self.last]
            weight = freq / z
            post = yield from _sliced(len(p_f), lambda a: alpha[f["start"][a]] * p_f[a] * beta[f["end"][a]]
                                      * weight[f["sent"][a]])
            log_z = np.log(z) - rate * self.lengths
        else:
            la, lb = yield from self._forward_backward_log(sc_f, sc_b, cancel)
            log_z = la[self.last]
            post = np.exp(la[f["start"]] + sc_f + lb[f["end"]] - log_z[f["sent"]]) * freq[f["sent"]]
        counts = np.bincount(f["piece1"], weights=post, minlength=n_pieces + 1)[1:]
        return counts, float((freq * log_z).sum()), tokens

    def _forward_backward(self, p_f, p_b, cancel):
        """Forward and backward sums per node, in probabilities (scaled); yields after each level."""
        f, b = self._f, self._b
        alpha = np.zeros(self.n_nodes)
        alpha[self.first] = 1.0
        start = f["start"]
        for lo, hi, nodes, offs in f["levels"]:
            with np.errstate(over="ignore", under="ignore", invalid="ignore"):  # out of range: log-space then
                alpha[nodes] = np.add.reduceat(alpha[start[lo:hi]] * p_f[lo:hi], offs)
            if cancel is not None and cancel():
                raise Cancelled
            yield
        beta = np.zeros(self.n_nodes)
        beta[self.last] = 1.0
        end = b["end"]
        for lo, hi, nodes, offs in b["levels"]:
            with np.errstate(over="ignore", under="ignore", invalid="ignore"):
                beta[nodes] = np.add.reduceat(beta[end[lo:hi]] * p_b[lo:hi], offs)
            if cancel is not None and cancel():
                raise Cancelled
            yield
        return alpha, beta

    def _forward_backward_log(self, sc_f, sc_b, cancel):
        """The same sums in log-space: slower, for strings whose scaled sums leave float64's range."""
        f, b = self._f, self._b
        alpha = np.zeros(self.n_nodes)
        for lo, hi, nodes, offs in f["levels"]:
            alpha[nodes] = _group_logsumexp(alpha[f["start"][lo:hi]] + sc_f[lo:hi], offs)
            if cancel is not None and cancel():
                raise Cancelled
            yield
        beta = np.zeros(self.n_nodes)
        for lo, hi, nodes, offs in b["levels"]:
            beta[nodes] = _group_logsumexp(beta[b["end"][lo:hi]] + sc_b[lo:hi], offs)
            if cancel is not None and cancel():
                raise Cancelled
            yield
        return alpha, beta


def span_lattice(arc_start, arc_end, arc_piece, span_start, span_len) -> FlatLattice:
    """A lattice with one string per span ``[span_start, span_start + span_len)`` of the nodes of
    the given arcs, holding the arcs inside the span except one over the whole span (a piece's
    lattice without the piece itself: its alternative segmentations).

    >>> lat = span_lattice([0, 1, 0, 2], [1, 2, 2, 3], [0, 1, 2, 3], [0], [2])
    >>> lat.select(np.ones(4, dtype=bool))
    >>> lat.viterbi(np.zeros(4), -10.0)[1].tolist()  # the arc over the whole span is left out
    [1, 0]
    """
    return drain(span_lattice_steps(arc_start, arc_end, arc_piece, span_start, span_len))


def span_lattice_steps(arc_start, arc_end, arc_piece, span_start, span_len) -> Generator[None, None, FlatLattice]:
    """:func:`span_lattice`, yielding between its steps (for every piece at once it takes seconds)."""
    arc_start, arc_end, arc_piece, span_start, span_len = (
        np.asarray(x, dtype=np.int64) for x in (arc_start, arc_end, arc_piece, span_start, span_len))
    srt = yield from argsort_steps(arc_start)
    s_sorted, e_sorted, p_sorted = arc_start[srt], arc_end[srt], arc_piece[srt]
    yield
    span_end = span_start + span_len
    lo = np.searchsorted(s_sorted, span_start)
    yield
    cnt = np.searchsorted(s_sorted, span_end) - lo
    yield
    owner = np.repeat(np.arange(len(span_start)), cnt)
    pos = np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt) + np.repeat(lo, cnt)
    inside = e_sorted[pos] <= span_end[owner]
    pos, owner = pos[inside], owner[inside]
    yield
    off_s = s_sorted[pos] - span_start[owner]
    off_e = e_sorted[pos] - span_start[owner]
    keep = ~((off_s == 0) & (off_e == span_len[owner]))
    first = np.cumsum(span_len + 1) - (span_len + 1)
    yield
    lat, build = FlatLattice.staged(first, first + span_len, (first[owner] + off_s)[keep],
                                    (first[owner] + off_e)[keep], p_sorted[pos][keep])
    yield from build
    return lat


def _order_steps(level, group, tie) -> Generator[None, None, np.ndarray]:
    """Arc indices sorted by (level, group node, tie node), sorted a block at a time (yielding
    between blocks: see :mod:`tokviz.core.unigram.sorting`). The levels are small integers, for
    numpy's stable radix sort."""
    if not len(level):
        return np.zeros(0, dtype=np.int64)
    # the arcs are tens of millions: a yield between whole-array passes, random gathers a block at a time
    # (each such call took 0.1-0.3 s of CPU)
    d = tie - group
    d -= d.min()
    yield
    key = group * (int(d.max()) + 1)
    key += d
    del d
    yield
    by_node = yield from argsort_steps(key)
    del key
    lv = yield from take_steps(level, by_node)
    lv -= lv.min()
    if lv.max() < 1 << 16:
        lv = lv.astype(np.uint16)
    yield
    order = yield from argsort_steps(lv)
    del lv
    return (yield from take_steps(by_node, order))


def numbered(step: int, steps: Generator[object, None, T]) -> Generator[int, None, T]:
    """Run ``steps``, yielding ``step`` after each of its yields (a long step reporting the number of
    the step it is in); returns its value."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value
        yield step


def _levels_steps(group_node, node_off):
    """Split arcs sorted by (level, group node) into levels: per level the arc range, the group
    nodes and the group starts inside the range (for ``reduceat``). Yields between its steps."""
    n = len(group_node)
    if not n:
        return []
    gs = np.flatnonzero(np.concatenate(([True], group_node[1:] != group_node[:-1])))
    yield
    nodes = group_node[gs]
    lv = node_off[nodes]
    yield
    lb = np.concatenate(([0], np.flatnonzero(lv[1:] != lv[:-1]) + 1, [len(gs)]))
    bounds = np.concatenate((gs, [n]))
    out = []
    for t in range(len(lb) - 1):
        g0, g1 = lb[t], lb[t + 1]
        lo, hi = int(bounds[g0]), int(bounds[g1])
        at = nodes[g0:g1]
        if at[-1] - at[0] == len(at) - 1:  # one range of nodes (always, but for dropped strings)
            at = slice(int(at[0]), int(at[-1]) + 1)
        out.append((lo, hi, at, gs[g0:g1] - lo))
    return out


def _group_logsumexp(v, g):
    m = np.maximum.reduceat(v, g)
    sizes = np.diff(np.append(g, len(v)))
    s = np.add.reduceat(np.exp(v - np.repeat(m, sizes)), g)
    return m + np.log(s)


def _sliced(n: int, part: Callable[[slice], np.ndarray]) -> Generator[None, None, np.ndarray]:
    """An elementwise array of ``n`` values made ``ARC_SLICE`` at a time (``part(slice)`` gives each
    piece), yielding between them: the same values as in one call, with room for progress."""
    out = np.empty(n)
    for lo in range(0, n, ARC_SLICE):
        at = slice(lo, min(n, lo + ARC_SLICE))
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):  # out of range: log-space then
            out[at] = part(at)
        yield
    return out


def drain(steps: Generator[None, None, T]) -> T:
    """Run a generator of steps to its end and return its value (for callers that need no progress)."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value


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
