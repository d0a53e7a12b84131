"""SentencePiece's Unigram LM trainer (``unigram_model_trainer.cc``), as a generator of step events.

The text is seen as SentencePiece sees it with ``normalization_rule_name=identity`` and its defaults
(``add_dummy_prefix``, ``remove_extra_whitespaces``, ``split_by_whitespace``): whitespace runs
separate words, each word is ``▁`` + the word, and pieces never cross a word (``▁`` only at a
piece's start). Training then follows SentencePiece step by step:

1. **Characters.** ``required_chars`` are the most frequent characters covering
   ``character_coverage`` of the corpus (1.0: all); rarer ones become unknown. The vocabulary must
   hold them plus ``<unk> <s> </s>``.
2. **Seed pieces.** Every character, plus the most frequent substrings by ``frequency × length``,
   up to ``seed_size``; scores are ``log(score / sum)``. SentencePiece finds the substrings with an
   enhanced suffix array over the sentences and keeps its internal nodes (substrings occurring at
   least twice that are followed by two different characters). tokviz counts every substring of up
   to ``max_piece_length`` characters inside each word exactly (weighted by the word's count) and
   keeps those occurring at least twice; it does not require the "followed by two different
   characters" property, so its seed set is a superset of the same kind. Substrings are valid as
   SentencePiece's ``IsValidSentencePiece`` says: ``▁`` only first, one Unicode script per piece
   (Hiragana and Katakana count as Han, combining marks take the script before them; digits and
   punctuation are "Common"), at most 16 characters.
3. **EM.** Two iterations per round. E-step: forward-backward over every unique word's lattice gives
   each piece's expected count (``freq × P(arc)``). M-step, exactly as SentencePiece: pieces with
   expected count below 0.5 are dropped, the rest get ``digamma(count) - digamma(sum)`` (the
   Bayesian/DP variant of EM that acts as a sparse prior).
4. **Pruning** while the vocabulary is above ``1.1 × vocab_size``: each piece's second-best
   segmentation (its own lattice without itself) is its alternative; a piece whose own best
   segmentation is split, or that no Viterbi segmentation of the corpus uses, goes; for the rest the
   loss is ``F × (log p(piece) - Σ log p'(alternative))``, how much likelihood the corpus loses if
   its occurrences were replaced by the alternative, and the pieces with the largest losses stay,
   ``max(1.1 × vocab_size, 0.75 × size)`` of them. (SentencePiece's loss renormalises with
   ``sum + freq × (alternatives.size() - 1)`` where ``alternatives`` is the table of *all* pieces,
   not this piece's alternative; tokviz reproduces that as written.)
5. **Final vocabulary**: the required characters (re-added with the lowest scores if EM dropped
   them), then the highest scores, up to ``vocab_size`` with the meta pieces; sorted by score.

Differences from SentencePiece, all small: seed substrings as said in 2; unknown-character arcs get
no expected count (SentencePiece books them to piece 0); sentences longer than 4,192 bytes are not
skipped, only words that long (every sentence holding one is skipped by SentencePiece too: its seed
substrings would take memory in proportion to the word's length times ``max_piece_length``, gigabytes
for a one-word line of a few megabytes); scores are float64 (SentencePiece: float32).

>>> t = UnigramTrainer(UnigramConfig(vocab_size=12))
>>> events = list(t.run(["ab ab abc ab\\n", "b c ab\\n"]))
>>> type(events[-1]).__name__, events[-1].reason
('Finished', 'merges')
>>> t.model().segment("abc")
['▁ab', 'c']
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import regex

from tokviz.core.bpe.corpus import utf8_length
from tokviz.core.bpe.events import Finished, Progress
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.unigram.events import EMStep, FinalStep, PruneStep, RemovedPiece
from tokviz.core.unigram.flat_lattice import Cancelled, FlatLattice, digamma
from tokviz.core.unigram.model import META_PIECES, SPACE_MARK, UnigramModel
from tokviz.core.word_counts import count_words

MAX_WORD_BYTES = 4192  # SentencePiece's max_sentence_length: a longer word is skipped, as its sentence would be
UNK_CHAR = "\u2585"  # SentencePiece's kUNKChar: characters outside the coverage become this
EXPECTED_FREQUENCY_THRESHOLD = 0.5  # SentencePiece's kExpectedFrequencyThreshold


@dataclass(frozen=True)
class UnigramConfig:
    """Settings of a Unigram run (SentencePiece's names and defaults).

    ``vocab_size`` counts the meta pieces ``<unk> <s> </s>``, as SentencePiece does.
    """

    vocab_size: int = 8000
    character_coverage: float = 1.0
    seed_size: int = 1_000_000
    shrinking_factor: float = 0.75
    num_sub_iterations: int = 2
    max_piece_length: int = 16

    def check(self) -> None:
        if self.vocab_size < len(META_PIECES) + 1:
            raise TokvizError(f"the vocabulary size must be at least {len(META_PIECES) + 1}, not {self.vocab_size}")
        if not 0.0 < self.character_coverage <= 1.0:
            raise TokvizError(f"character coverage must be in (0, 1], not {self.character_coverage}")
        if not 0.0 < self.shrinking_factor < 1.0:
            raise TokvizError(f"the shrinking factor must be between 0 and 1, not {self.shrinking_factor}")
        if self.num_sub_iterations < 1 or self.max_piece_length < 1 or self.seed_size < 1:
            raise TokvizError("num_sub_iterations, max_piece_length and seed_size must be at least 1")


class UnigramTrainer:
    """Train a Unigram model; satisfies :class:`tokviz.core.training.Trainer` (algorithm "unigram").

    Yields Progress (reading, then building the seed vocabulary), one EMStep per EM iteration, one
    PruneStep per pruning round, one FinalStep, then Finished ("merges": the vocabulary size was
    reached; "cancelled").
    """

    algorithm = "unigram"

    def __init__(self, config: UnigramConfig | None = None):
        self.config = config or UnigramConfig()
        self.config.check()
        self._finished: Finished | None = None
        self._snapshots: list[tuple] = []  # per step: (pieces, scores) or (seeds, ids, scores)
        self.stats: dict = {}

    @property
    def finished(self) -> Finished | None:
        return self._finished

    @property
    def steps(self) -> int:
        return len(self._snapshots)

    def model(self, step: int | None = None) -> UnigramModel:
        """The model after ``step`` steps (None: all so far). Before the final step the pieces are
        the current (not yet cut) vocabulary sorted by score; raises TokvizError before any step."""
        if not self._snapshots:
            raise TokvizError("no model yet: the trainer has not finished a step")
        n = len(self._snapshots) if step is None else max(1, min(step, len(self._snapshots)))
        snap = self._snapshots[n - 1]
        if len(snap) == 3:  # (seed strings, ids, scores) of an EM or pruning step
            seeds, ids, sc = snap
            pieces, scores = [seeds[i] for i in ids.tolist()], sc.tolist()
        else:
            pieces, scores = snap
        final = self._finished is not None and self._finished.reason == "merges" and n == len(self._snapshots)
        return UnigramModel(
            list(META_PIECES) + pieces, [0.0] * len(META_PIECES) + scores,
            name=f"tokviz Unigram ({'final' if final else f'step {n}'}, {len(pieces) + len(META_PIECES)} pieces)",
            settings={"vocab_size": self.config.vocab_size, "character_coverage": self.config.character_coverage,
                      **self.stats},
        )

    def run(
        self,
        lines: Iterable[str],
        *,
        cancel: Callable[[], bool] | None = None,
        total_bytes: int | None = None,
    ) -> Iterator[object]:
        """Train on ``lines`` (each a line of the corpus; see the module docstring for the steps).

        Raises CorpusError for a corpus with no words, TokvizError when ``vocab_size`` cannot hold
        the required characters. ``cancel`` is polled while reading, between steps and inside EM
        passes; then Finished("cancelled") ends the run and :meth:`model` keeps the last step.
        """
        self._finished = None
        self._snapshots = []
        cancelled = cancel or (lambda: False)
        cfg = self.config
        words = Counter()
        done = yield from count_words(lines, str.split, words, cancelled, total_bytes)
        if not done:
            self._finished = Finished("cancelled", 0, "cancelled while reading the corpus")
            yield self._finished
            return
        if not words:
            raise CorpusError("The corpus has no words to train on: it is empty or only whitespace.")
        too_long = [w for w in words if len(w) > MAX_WORD_BYTES // 4 and utf8_length(w) > MAX_WORD_BYTES]
        for w in too_long:
            del words[w]
        if not words:
            raise CorpusError(f"Every word of the corpus is longer than {MAX_WORD_BYTES:,} bytes (text without "
                              "spaces?); Unigram training skips such words, as SentencePiece skips their sentences.")
        yield Progress("indexing", 0, 3)
        try:
            st = _State.build(cfg, words, cancelled)
        except Cancelled:
            self._finished = Finished("cancelled", 0, "cancelled while building the seed vocabulary")
            yield self._finished
            return
        del words
        self.stats = {"unique_words": len(st.freq), "required_chars": len(st.required), "seed_pieces": st.n_seeds,
                      "skipped_long_words": len(too_long)}
        yield Progress("indexing", 3, 3)
        try:
            yield from self._train(st, cancelled)
        except Cancelled:
            n = len(self._snapshots)
            self._finished = Finished("cancelled", n, f"cancelled after {n} steps")
            yield self._finished

    # ---- reading ---------------------------------------------------------------------------
    # ---- EM and pruning ----------------------------------------------------------------------
    def _train(self, st: _State, cancelled) -> Iterator[object]:
        cfg = self.config
        desired = int(cfg.vocab_size * 1.1)
        step = 0
        rnd = 0
        while True:
            for it in range(1, cfg.num_sub_iterations + 1):
                if cancelled():
                    raise Cancelled
                loglik, objective, tokens, dropped = st.em_iteration(cancelled)
                step += 1
                self._snapshot(st)
                yield EMStep(
                    step=step,
                    description=(f"EM round {rnd} iteration {it}: log-likelihood {loglik:,.1f}, "
                                 f"{st.size:,} pieces" + (f", {len(dropped):,} dropped (expected count < 0.5)"
                                                          if dropped else "")),
                    round=rnd, iteration=it, vocab_size=st.size, log_likelihood=loglik,
                    objective=objective, tokens=tokens, removed=tuple(dropped),
                )
            if st.size <= desired:
                break
            if cancelled():
                raise Cancelled
            rnd += 1
            before = st.size
            removed, kept_min = st.prune(desired, cfg.shrinking_factor, cancelled)
            step += 1
            self._snapshot(st)
            by_loss = [r for r in removed if r.reason == "loss"]
            yield PruneStep(
                step=step,
                description=(f"pruning round {rnd}: {len(removed):,} pieces removed (vocabulary {before:,} → "
                             f"{st.size:,})" + (f", losses up to {by_loss[-1].value:.3g}" if by_loss else "")),
                round=rnd, vocab_before=before, vocab_after=st.size, removed=tuple(removed), kept_loss_min=kept_min,
            )
        before = st.size
        pieces, scores, removed, readded = st.finalize(cfg.vocab_size - len(META_PIECES))
        step += 1
        self._snapshots.append((pieces, scores))
        yield FinalStep(
            step=step,
            description=(f"final vocabulary: {len(pieces) + len(META_PIECES):,} pieces ({len(removed):,} lowest "
                         f"scores cut" + (f", {len(readded)} required characters re-added" if readded else "") + ")"),
            vocab_before=before, vocab_size=len(pieces) + len(META_PIECES), removed=tuple(removed),
            readded=tuple(readded),
        )
        self._finished = Finished("merges", step, f"vocabulary size {len(pieces) + len(META_PIECES):,} reached")
        yield self._finished

    def _snapshot(self, st: _State) -> None:
        ids = st.alive_ids()
        # by score, ties by piece (the order SentencePiece's Sorted() gives); strings made on demand
        order = ids[np.lexsort((st.str_rank[ids], -st.scores[ids]))]
        self._snapshots.append((st.seeds, order, st.scores[order].copy()))


# ---- Unicode scripts (SentencePiece's split_by_unicode_script) ----------------------------------
_SCRIPTS = ["Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Syriac", "Thaana", "Devanagari", "Bengali",
            "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Lao",
            "Tibetan", "Myanmar", "Georgian", "Hangul", "Ethiopic", "Cherokee", "Khmer", "Mongolian", "Han", "Hiragana",
            "Katakana", "Bopomofo", "Yi", "Inherited", "Common"]
_SCRIPT_RX = regex.compile("|".join(f"(?P<{s}>\\p{{Script={s}}})" for s in _SCRIPTS))
_ANY, _INHERITED, _INVALID = -1, -2, -3


def script_of(ch: str) -> str:
    """Unicode script of a character as SentencePiece groups them (Hiragana/Katakana → Han).

    >>> script_of("가"), script_of("a"), script_of("カ"), script_of("1"), script_of("!")
    ('Hangul', 'Latin', 'Han', 'Common', 'Common')
    """
    if ch == "\u30fc":
        return "Han"
    m = _SCRIPT_RX.match(ch)
    if m is None:  # a script not in the list above: its own group, named by the character name
        return "Other:" + unicodedata.name(ch, "?").split(" ")[0]
    s = m.lastgroup
    return "Han" if s in ("Hiragana", "Katakana") else s


class _State:
    """The unique words, the seed pieces and their flattened lattices, and the current scores."""

    @classmethod
    def build(cls, cfg: UnigramConfig, words: Counter, cancelled) -> _State:
        st = cls()
        st.cfg = cfg
        # 1. characters and coverage (counted over "▁word", weighted by the word's count)
        wl = list(words)
        wf = np.fromiter(words.values(), dtype=np.float64, count=len(wl))
        cc = np.frombuffer("".join(wl).encode("utf-32-le"), dtype=np.uint32)
        uc, inv = np.unique(cc, return_inverse=True)
        per_char = np.bincount(inv, weights=np.repeat(wf, [len(w) for w in wl]), minlength=len(uc))
        char_count: Counter = Counter({chr(u): int(k) for u, k in zip(uc.tolist(), per_char.tolist(), strict=True)})
        char_count[SPACE_MARK] += int(wf.sum())
        total = sum(char_count.values())
        ranked = sorted(char_count.items(), key=lambda x: (-x[1], x[0]))
        required: dict[str, int] = {}
        acc = 0
        for c, k in ranked:
            if cfg.character_coverage < 1.0 and acc / total >= cfg.character_coverage:
                break
            acc += k
            required[c] = k
        st.required = required
        need = len(required) + len(META_PIECES)
        if cfg.vocab_size < need:
            raise TokvizError(
                f"The vocabulary size {cfg.vocab_size:,} is smaller than the {len(required):,} characters the corpus "
                f"needs plus {len(META_PIECES)} meta pieces: use at least {need:,}, or lower the character coverage."
            )
        if cancelled():
            raise Cancelled
        # 2. words as "▁word", rare characters as UNK_CHAR (merging words that become equal)
        if len(required) < len(char_count):
            table = {ord(c): UNK_CHAR for c in char_count if c not in required}
            merged: Counter = Counter()
            for w, f in words.items():
                merged[SPACE_MARK + w.translate(table)] += f
            items = list(merged.items())
        else:
            items = [(SPACE_MARK + w, f) for w, f in words.items()]
        items.sort()  # deterministic order, independent of the corpus's order
        wstr = [w for w, _ in items]
        st.freq = np.array([f for _, f in items], dtype=np.float64)
        lens = np.array([len(w) for w in wstr], dtype=np.int64)
        first = np.concatenate(([0], np.cumsum(lens + 1)[:-1]))
        last = first + lens
        # 3. every substring of 2..max_len characters inside a word: its start node, length and id
        maxlen = cfg.max_piece_length
        joined = "\x00".join(wstr) + "\x00"
        codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        occ_start, occ_len, sub_ids_arr, sub_first, sub_len = _substring_ids(codes, first, last, lens, maxlen)
        if cancelled():
            raise Cancelled
        occ_w = np.repeat(np.arange(len(wstr)), lens + 1)[occ_start]
        occ_freq = st.freq[occ_w]
        # validity: no unknown character, one script (▁ and combining marks fit any)
        scripts = _script_codes(codes)
        # effective script: combining marks take the one before them (forward fill within a word)
        eff = scripts.copy()
        idx = np.where(eff == _INHERITED, -1, np.arange(len(eff)))
        np.maximum.accumulate(idx, out=idx)
        eff = np.where(idx >= 0, eff[np.maximum(idx, 0)], _ANY)
        eff[scripts == _INVALID] = _INVALID
        eff[eff == _INHERITED] = _ANY
        # the last real script seen at or before each node (▁ and leading marks: none)
        known = np.where(eff >= 0, np.arange(len(eff)), -1)
        np.maximum.accumulate(known, out=known)
        prev_known = np.concatenate(([-1], known[:-1]))
        change = (eff >= 0) & (prev_known >= 0) & (eff != eff[np.maximum(prev_known, 0)])
        # a change point only counts inside the word it belongs to
        change &= prev_known >= np.repeat(first, lens + 1)
        c_change = np.concatenate(([0], np.cumsum(change)))
        bad = np.concatenate(([0], np.cumsum(eff == _INVALID)))
        a, b = occ_start, occ_start + occ_len
        valid = (c_change[b] - c_change[a + 1] == 0) & (bad[b] - bad[a] == 0)
        sub_count = np.bincount(sub_ids_arr[valid], weights=occ_freq[valid], minlength=len(sub_len))
        # 4. seeds: characters, then substrings occurring at least twice by frequency x length
        chars = sorted(((c, k) for c, k in required.items()), key=lambda x: (-x[1], x[0]))
        cand = np.flatnonzero(sub_count >= 2)
        cand_score = sub_count[cand] * sub_len[cand]
        cand_str = [joined[a:a + n] for a, n in zip(sub_first[cand].tolist(), sub_len[cand].tolist(), strict=True)]
        order = sorted(range(len(cand)), key=lambda i: (-cand_score[i], cand_str[i]))
        order = order[: max(0, cfg.seed_size - len(chars))]
        seeds = [c for c, _ in chars] + [cand_str[i] for i in order]
        raw = np.array([k for _, k in chars] + [float(cand_score[i]) for i in order], dtype=np.float64)
        st.seeds = seeds
        st.str_rank = np.empty(len(seeds), dtype=np.int64)
        st.str_rank[np.array(sorted(range(len(seeds)), key=seeds.__getitem__), dtype=np.int64)] = np.arange(len(seeds))
        st.n_seeds = len(seeds)
        st.scores = np.log(raw) - np.log(raw.sum())
        st.alive = np.ones(len(seeds), dtype=bool)
        seed_of_sub = np.full(len(sub_len), -1, dtype=np.int64)
        seed_of_sub[cand[np.array(order, dtype=np.int64)]] = np.arange(len(chars), len(seeds))
        # 5. the word lattices: seed substrings plus single characters
        occ_seed = seed_of_sub[sub_ids_arr]
        keep = (occ_seed >= 0) & valid
        char_id = {c: i for i, (c, _) in enumerate(chars)}
        is_sep = np.zeros(len(codes), dtype=bool)
        is_sep[last] = True
        pos_nodes = np.flatnonzero(~is_sep)
        ucodes, inv = np.unique(codes, return_inverse=True)
        char_seed = np.array([char_id.get(chr(x), -1) for x in ucodes.tolist()], dtype=np.int64)[inv]
        known_pos = pos_nodes[char_seed[pos_nodes] >= 0]
        arc_s = np.concatenate((known_pos, occ_start[keep]))
        arc_e = np.concatenate((known_pos + 1, occ_start[keep] + occ_len[keep]))
        arc_p = np.concatenate((char_seed[known_pos], occ_seed[keep]))
        st.words = FlatLattice(first, last, arc_s, arc_e, arc_p)
        # 6. each multi-character seed's own lattice: the word arcs inside its first occurrence
        n_chars = len(chars)
        multi = np.arange(n_chars, len(seeds))
        occ_first = np.full(len(seeds), -1, dtype=np.int64)
        kk = np.flatnonzero(keep)[::-1]  # reversed, so the first occurrence is written last
        occ_first[occ_seed[kk]] = occ_start[kk]
        p_start = occ_first[multi]
        p_len = np.array([len(seeds[i]) for i in multi.tolist()], dtype=np.int64)
        srt = np.argsort(arc_s, kind="stable")
        s_sorted, e_sorted = arc_s[srt], arc_e[srt]
        lo = np.searchsorted(s_sorted, p_start)
        hi = np.searchsorted(s_sorted, p_start + p_len)
        cnt = hi - lo
        owner = np.repeat(np.arange(len(multi)), cnt)
        pos = np.arange(cnt.sum()) - np.repeat(np.cumsum(cnt) - cnt, cnt) + np.repeat(lo, cnt)
        inside = e_sorted[pos] <= (p_start + p_len)[owner]
        pos, owner = pos[inside], owner[inside]
        pfirst = np.cumsum(p_len + 1) - (p_len + 1)  # empty when no seed is longer than a character
        off_s = s_sorted[pos] - p_start[owner]
        off_e = e_sorted[pos] - p_start[owner]
        pp = arc_p[srt][pos]
        st.piece_of_sent = multi
        st.pieces = FlatLattice(pfirst, pfirst + p_len, pfirst[owner] + off_s, pfirst[owner] + off_e, pp)
        st.piece_full = (off_s == 0) & (off_e == p_len[owner])  # the piece's own arc
        st.n_chars = n_chars
        return st

    @property
    def size(self) -> int:
        return int(self.alive.sum())

    def alive_ids(self) -> np.ndarray:
        return np.flatnonzero(self.alive)

    def _min_score(self) -> float:
        return float(self.scores[self.alive].min())

    def em_iteration(self, cancelled):
        """One E-step and M-step; returns (log-likelihood, objective, Viterbi tokens, dropped pieces)."""
        lat = self.words
        lat.select(self.alive)
        sc = lat.arc_scores(self.scores, self._min_score() - 10.0)
        counts, loglik = lat.expected_counts(sc, self.freq, len(self.seeds), cancelled)
        _, vit_pieces, _ = lat.viterbi(sc, cancelled)
        # SentencePiece counts Viterbi tokens per unique word (not weighted)
        tokens = len(vit_pieces)
        ids = self.alive_ids()
        ex = counts[ids]
        low = ex < EXPECTED_FREQUENCY_THRESHOLD
        dropped = [RemovedPiece(self.seeds[i], "low_expected_count", float(c))
                   for i, c in zip(ids[low].tolist(), ex[low].tolist(), strict=True)]
        self.alive[ids[low]] = False
        keep = ids[~low]
        total = ex[~low].sum()
        self.scores[keep] = digamma(ex[~low]) - digamma(np.array([total]))[0]
        objective = -loglik / float(self.freq.sum())
        return loglik, objective, tokens, dropped

    def prune(self, desired: int, shrink: float, cancelled):
        """One pruning round (SentencePiece's PruneSentencePieces); returns removed pieces and the
        smallest kept loss."""
        n_seeds = len(self.seeds)
        size = self.size
        unk = self._min_score() - 10.0
        # each multi-character piece's best segmentation without itself (its alternative)
        plat = self.pieces
        alive_sent = self.alive[self.piece_of_sent]
        plat.select(self.alive, exclude=self.piece_full)
        psc = plat.arc_scores(self.scores, unk)
        alt_sent, alt_piece, alt_score = plat.viterbi(psc, cancelled)
        own = self.scores[self.piece_of_sent]
        # SentencePiece's NBest puts the piece itself first on a tie (Viterbi keeps the longest arc)
        split = alive_sent & (alt_score > own)
        # every word's Viterbi segmentation: how often each piece is used
        lat = self.words
        lat.select(self.alive)
        sc = lat.arc_scores(self.scores, unk)
        v_sent, v_piece, _ = lat.viterbi(sc, cancelled)
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
        removed = [RemovedPiece(self.seeds[i], "unused") for i in unused.tolist()]
        removed += [RemovedPiece(self.seeds[i], "split") for i in splitted.tolist()]
        removed += [RemovedPiece(self.seeds[cand[k]], "loss", float(loss[k])) for k in gone[::-1].tolist()]
        kept_min = float(loss[order[room - 1]]) if 0 < room <= len(order) else None
        return removed, kept_min

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


_B1 = np.uint64(0x9E3779B97F4A7C15)
_B2 = np.uint64(0xC2B2AE3D27D4EB4F)


def _substring_ids(codes, first, last, lens, maxlen: int):
    """Every substring of 2..maxlen characters inside a word, grouped into distinct strings.

    Returns ``(start, length, id)`` per occurrence and ``(first start, length)`` per id. Substrings
    are grouped by a 59-bit polynomial hash plus their length, and every group is checked with a
    second, independent 64-bit hash; should two different substrings ever share the first hash, the
    grouping is redone exactly with a dict. Why not a dict always: ~1.3 million slices and lookups
    took ~2.5 s of Python on 20,000 lines, the hashes take a few numpy passes.
    """
    n = len(codes)
    c = codes.astype(np.uint64)
    word_end = np.repeat(last, lens + 1)
    room = word_end - np.arange(n)  # characters from each node to its word's end
    h1, h2 = c.copy(), c.copy()
    starts, lengths, k1, k2 = [], [], [], []
    with np.errstate(over="ignore"):
        for k in range(2, maxlen + 1):
            m = n - k + 1
            if m <= 0:
                break
            h1 = h1[:m] * _B1 + c[k - 1:]
            h2 = h2[:m] * _B2 + (c[k - 1:] ^ np.uint64(0x5BD1E995))
            sel = np.flatnonzero(room[:m] >= k)
            if not len(sel):
                break
            starts.append(sel)
            lengths.append(np.full(len(sel), k, dtype=np.int64))
            k1.append((h1[sel] & np.uint64((1 << 59) - 1)) | (np.uint64(k) << np.uint64(59)))
            k2.append(h2[sel])
    if not starts:
        e = np.zeros(0, dtype=np.int64)
        return e, e, e, e, e
    start = np.concatenate(starts)
    length = np.concatenate(lengths)
    key = np.concatenate(k1)
    check = np.concatenate(k2)
    order = np.argsort(key, kind="stable")
    sk = key[order]
    new_group = np.concatenate(([True], sk[1:] != sk[:-1]))
    sc = check[order]
    if np.any(~new_group[1:] & (sc[1:] != sc[:-1])):  # a hash collision: group exactly instead
        joined = codes.tobytes().decode("utf-32-le")
        index: dict[str, int] = {}
        ids = np.array([index.setdefault(joined[a:a + k], len(index))
                        for a, k in zip(start.tolist(), length.tolist(), strict=True)], dtype=np.int64)
    else:
        ids = np.empty(len(key), dtype=np.int64)
        ids[order] = np.cumsum(new_group) - 1
    n_ids = int(ids.max()) + 1
    sub_first = np.full(n_ids, -1, dtype=np.int64)
    sub_first[ids[::-1]] = start[::-1]
    sub_len = np.zeros(n_ids, dtype=np.int64)
    sub_len[ids] = length
    return start, length, ids, sub_first, sub_len


def _script_codes(codes: np.ndarray) -> np.ndarray:
    """Script id per character code (``▁``: any, combining marks: inherited, NUL and UNK_CHAR: invalid)."""
    uniq, inv = np.unique(codes, return_inverse=True)
    names: dict[str, int] = {}
    ids = []
    for u in uniq.tolist():
        ch = chr(u)
        if ch == SPACE_MARK:
            ids.append(_ANY)
        elif ch in ("\x00", UNK_CHAR):
            ids.append(_INVALID)
        else:
            s = script_of(ch)
            ids.append(_INHERITED if s == "Inherited" else names.setdefault(s, len(names)))
    return np.array(ids, dtype=np.int64)[inv]
