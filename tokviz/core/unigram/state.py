"""The state of a Unigram run after seeding: pieces alive and their scores, and the three operations
that change it (steps 3 to 5 of :mod:`tokviz.core.unigram.trainer`): an EM iteration (forward-backward
expected counts, then SentencePiece's digamma M-step), a pruning round by loss, and the final cut.
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

from tokviz.core.unigram.events import RemovedPiece
from tokviz.core.unigram.flat_lattice import Cancelled, FlatLattice, digamma, drain, span_lattice_steps

REMOVED_SLICE = 1 << 13  # removed pieces made between two yields of a round (a few ms)
EXPECTED_FREQUENCY_THRESHOLD = 0.5  # SentencePiece's kExpectedFrequencyThreshold


class UnigramState:
    """The unique words, the seed pieces and their flattened lattices, and the current scores
    (made by :func:`tokviz.core.unigram.seeds.seed_state`)."""

    freq: np.ndarray  # count of each unique word
    seeds: list[str]  # every seed piece; a piece's id is its index here
    str_rank: np.ndarray  # each seed's rank in string order (ties of equal scores)
    n_seeds: int
    n_chars: int  # seeds[:n_chars] are the single characters
    required: dict[str, int]  # the characters the vocabulary must keep, with their counts
    scores: np.ndarray  # log-probability of each seed
    alive: np.ndarray  # which seeds are still in the vocabulary
    words: FlatLattice  # every unique word's arcs
    word_arcs: tuple  # (start, end, piece) of every word arc, nodes numbered word by word (until ``pieces``)
    seed_first: np.ndarray  # the start node (numbered as in ``word_arcs``) of each seed's first occurrence
    seed_len: np.ndarray  # each seed's length in characters
    pieces: FlatLattice | None  # each multi-character piece's arcs but the whole piece itself (first pruning on)
    piece_of_sent: np.ndarray  # the seed id of each sentence of ``pieces``

    @property
    def size(self) -> int:
        return int(self.alive.sum())

    def alive_ids(self) -> np.ndarray:
        return np.flatnonzero(self.alive)

    def _min_score(self) -> float:
        return float(self.scores[self.alive].min())

    def em_iteration(self, cancelled):
        """One E-step and M-step; returns (log-likelihood, objective, Viterbi tokens, dropped pieces)."""
        return drain(self.em_iteration_steps(cancelled))

    def em_iteration_steps(self, cancelled) -> Generator[None, None, tuple]:
        """:meth:`em_iteration`, yielding between its steps (a level of a pass, a whole-array step)."""
        lat = self.words
        yield from lat.select_steps(self.alive)  # it rebuilds the arcs when many went
        if cancelled():
            raise Cancelled
        yield
        unk = self._min_score() - 10.0
        # tokens: SentencePiece counts Viterbi tokens per unique word (not weighted)
        counts, loglik, tokens = yield from lat.e_step_steps(self.scores, unk, self.freq, len(self.seeds), cancelled)
        ids = self.alive_ids()
        ex = counts[ids]
        low = ex < EXPECTED_FREQUENCY_THRESHOLD
        dropped = yield from self._removed(ids[low], "low_expected_count", ex[low])
        self.alive[ids[low]] = False
        keep = ids[~low]
        total = ex[~low].sum()
        self.scores[keep] = digamma(ex[~low]) - digamma(np.array([total]))[0]
        objective = -loglik / float(self.freq.sum())
        return loglik, objective, tokens, dropped

    def prune(self, desired: int, shrink: float, cancelled):
        """One pruning round (SentencePiece's PruneSentencePieces); returns removed pieces and the
        smallest kept loss."""
        return drain(self.prune_steps(desired, shrink, cancelled))

    def prune_steps(self, desired: int, shrink: float, cancelled) -> Generator[None, None, tuple]:
        """:meth:`prune`, yielding between its steps (a level of a Viterbi pass, a whole-array step)."""
        n_seeds = len(self.seeds)
        size = self.size
        unk = self._min_score() - 10.0
        # each multi-character piece's best segmentation without itself (its alternative)
        if self.pieces is None:
            # made on the first round, for the pieces EM kept (about half the seeds)
            multi = np.flatnonzero(self.alive[self.n_chars:]) + self.n_chars
            self.pieces = yield from span_lattice_steps(*self.word_arcs, self.seed_first[multi], self.seed_len[multi])
            self.piece_of_sent = multi
            self.word_arcs = ()
            if cancelled():
                raise Cancelled
            yield
        plat = self.pieces
        alive_sent = self.alive[self.piece_of_sent]
        yield from plat.select_steps(self.alive, strings=alive_sent)
        if cancelled():
            raise Cancelled
        yield
        alt_sent, alt_piece, alt_score = yield from plat.viterbi_steps(self.scores, unk, cancelled)
        own = self.scores[self.piece_of_sent]
        # SentencePiece's NBest puts the piece itself first on a tie (Viterbi keeps the longest arc)
        split = alive_sent & (alt_score > own)
        # every word's Viterbi segmentation: how often each piece is used
        lat = self.words
        yield from lat.select_steps(self.alive)
        if cancelled():
            raise Cancelled
        yield
        v_sent, v_piece, _ = yield from lat.viterbi_steps(self.scores, unk, cancelled)
        known = v_piece >= 0
        freq = np.bincount(v_piece[known], weights=self.freq[v_sent[known]], minlength=n_seeds)
        vsum = float(self.freq.sum())
        total = float(freq.sum())
        logsum = np.log(total)
        is_split = np.zeros(n_seeds, dtype=bool)
        is_split[self.piece_of_sent[split]] = True
        has_alt = np.zeros(n_seeds, dtype=bool)
        has_alt[self.piece_of_sent] = True  # multi-character pieces always have one (unknown arcs at worst)
        ids = self.alive_ids()
        unused = ids[freq[ids] == 0]
        splitted = ids[(freq[ids] > 0) & is_split[ids]]
        fixed = ids[(freq[ids] > 0) & ~is_split[ids] & ~has_alt[ids]]  # single characters in use
        cand = ids[(freq[ids] > 0) & ~is_split[ids] & has_alt[ids]]
        # loss of each candidate: its Viterbi uses re-assigned to its alternative
        row_of = np.full(n_seeds, -1, dtype=np.int64)
        row_of[self.piece_of_sent] = np.arange(len(self.piece_of_sent))
        f_i = freq[cand]
        F = f_i / vsum
        logprob_sp = np.log(f_i) - logsum
        # SentencePiece: log(sum + freq[i] * (alternatives.size() - 1)), the size of the whole table
        logsum_alt = np.log(total + f_i * (size - 1))
        owner_rows = row_of[cand]
        sel = np.isin(alt_sent, owner_rows)
        a_rows, a_pieces = alt_sent[sel], alt_piece[sel]
        rank_of_row = np.full(len(self.piece_of_sent), -1, dtype=np.int64)
        rank_of_row[owner_rows] = np.arange(len(cand))
        a_owner = rank_of_row[a_rows]
        a_freq = np.where(a_pieces >= 0, freq[np.maximum(a_pieces, 0)], 0.0)
        logprob_alt = np.bincount(a_owner, weights=np.log(a_freq + f_i[a_owner]), minlength=len(cand))
        n_alt = np.bincount(a_owner, minlength=len(cand))
        logprob_alt -= n_alt * logsum_alt
        loss = F * (logprob_sp - logprob_alt)
        pruned_size = max(desired, int(shrink * size))
        room = max(0, pruned_size - len(fixed))
        order = np.lexsort((cand, -loss))
        kept = cand[order[:room]]
        gone = order[room:]
        new_alive = np.zeros(n_seeds, dtype=bool)
        new_alive[fixed] = True
        new_alive[kept] = True
        self.alive = new_alive
        removed = yield from self._removed(unused, "unused")
        removed += yield from self._removed(splitted, "split")
        removed += yield from self._removed(cand[gone[::-1]], "loss", loss[gone[::-1]])
        kept_min = float(loss[order[room - 1]]) if 0 < room <= len(order) else None
        return removed, kept_min

    def _removed(self, ids: np.ndarray, reason: str, values: np.ndarray | None = None):
        """RemovedPiece for each of ``ids`` (with its value), yielding between slices: a round can
        remove hundreds of thousands of pieces, each a Python object."""
        out = []
        for lo in range(0, len(ids), REMOVED_SLICE):
            at = slice(lo, lo + REMOVED_SLICE)
            if values is None:
                out += [RemovedPiece(self.seeds[i], reason) for i in ids[at].tolist()]
            else:
                out += [RemovedPiece(self.seeds[i], reason, v)
                        for i, v in zip(ids[at].tolist(), values[at].tolist(), strict=True)]
            yield
        return out

    def finalize(self, size: int):
        """SentencePiece's FinalizeSentencePieces: required characters, then the best scores."""
        ids = self.alive_ids()
        score = {self.seeds[i]: float(self.scores[i]) for i in ids.tolist()}
        min_score = self._min_score()
        final: dict[str, float] = {}
        readded = []
        penalty = 0.0
        for c, _ in sorted(self.required.items(), key=lambda x: (-x[1], x[0])):
            if c in score:
                final[c] = score[c]
            else:
                final[c] = min_score + penalty
                penalty += 0.0001
                readded.append(c)
        removed = []
        for p, s in sorted(score.items(), key=lambda x: (-x[1], x[0])):
            if p in final:
                continue
            if len(final) >= size:
                removed.append(RemovedPiece(p, "final_size", s))
                continue
            final[p] = s
        ranked = sorted(final.items(), key=lambda x: (-x[1], x[0]))
        return [p for p, _ in ranked], [s for _, s in ranked], removed, readded
