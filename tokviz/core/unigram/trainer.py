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

import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator

import numpy as np

from tokviz.core import word_counts
from tokviz.core.bpe.corpus import utf8_length
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.training import Finished, Progress
from tokviz.core.unigram.config import UnigramConfig
from tokviz.core.unigram.events import EMStep, FinalStep, PruneStep
from tokviz.core.unigram.flat_lattice import Cancelled
from tokviz.core.unigram.model import META_PIECES, SPACE_MARK, UnigramModel
from tokviz.core.unigram.seeds import seed_stage_count, seed_stages
from tokviz.core.unigram.state import UnigramState
from tokviz.core.word_counts import WordSample, count_words

STEP_PROGRESS_SECONDS = 0.2  # an EM iteration or pruning round reports at least this often (issue 23)
MAX_WORD_BYTES = 4192  # SentencePiece's max_sentence_length: a longer word is skipped, as its sentence would be


class UnigramTrainer:
    """Train a Unigram model; satisfies :class:`tokviz.core.training.Trainer` (algorithm "unigram").

    Yields Progress (reading, then building the seed vocabulary), one EMStep per EM iteration, one
    PruneStep per pruning round (each preceded by Progress("training", steps so far, None) at least
    every STEP_PROGRESS_SECONDS while it works), one FinalStep, then Finished ("merges": the
    vocabulary size was reached; "cancelled").
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
        cap = self.config.max_distinct_words
        sample = WordSample(word_counts.UNIGRAM_DISTINCT_WORDS_CAP if cap is None else cap)  # read now: tests lower it
        done = yield from count_words(lines, str.split, words, cancelled, total_bytes, sample)
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
        _check_alphabet(cfg, words)
        total = seed_stage_count(cfg)
        yield Progress("indexing", 0, total)
        if cancelled():  # before the first step, which may take a while on a big corpus
            self._finished = Finished("cancelled", 0, "cancelled while building the seed vocabulary")
            yield self._finished
            return
        stages = seed_stages(cfg, words, cancelled)
        try:
            while True:
                try:
                    done = next(stages)
                except StopIteration as end:
                    st = end.value
                    break
                yield Progress("indexing", done, total)
                if cancelled():
                    raise Cancelled
        except Cancelled:
            stages.close()
            self._finished = Finished("cancelled", 0, "cancelled while building the seed vocabulary")
            yield self._finished
            return
        del words
        self.stats = {"unique_words": len(st.freq), "required_chars": len(st.required), "seed_pieces": st.n_seeds,
                      "skipped_long_words": len(too_long)}
        yield Progress("indexing", total, total)
        try:
            yield from self._train(st, cancelled)
        except Cancelled:
            n = len(self._snapshots)
            self._finished = Finished("cancelled", n, f"cancelled after {n} steps")
            yield self._finished

    # ---- EM and pruning ----------------------------------------------------------------------
    def _train(self, st: UnigramState, cancelled) -> Iterator[object]:
        cfg = self.config
        desired = int(cfg.vocab_size * 1.1)
        step = 0
        rnd = 0
        # every step reports the model's size, meta pieces included (StepEvent.vocab_size), so a plot of
        # the steps does not jump by three at the final one; the pruning target compares pieces only
        while True:
            for it in range(1, cfg.num_sub_iterations + 1):
                if cancelled():
                    raise Cancelled
                em = st.em_iteration_steps(cancelled)
                loglik, objective, tokens, dropped = yield from _reporting(em, step, cancelled)
                step += 1
                self._snapshot(st)
                size = st.size + len(META_PIECES)
                yield EMStep(
                    step=step,
                    description=(f"EM round {rnd} iteration {it}: log-likelihood {loglik:,.1f}, "
                                 f"{size:,} pieces" + (f", {len(dropped):,} dropped (expected count < 0.5)"
                                                       if dropped else "")),
                    round=rnd, iteration=it, vocab_size=size, log_likelihood=loglik,
                    objective=objective, tokens=tokens, removed=tuple(dropped),
                )
            if st.size <= desired:
                break
            if cancelled():
                raise Cancelled
            rnd += 1
            before = st.size + len(META_PIECES)
            pruning = st.prune_steps(desired, cfg.shrinking_factor, cancelled)
            removed, kept_min = yield from _reporting(pruning, step, cancelled)
            step += 1
            self._snapshot(st)
            by_loss = [r for r in removed if r.reason == "loss"]
            after = st.size + len(META_PIECES)
            yield PruneStep(
                step=step,
                description=(f"pruning round {rnd}: {len(removed):,} pieces removed (vocabulary {before:,} → "
                             f"{after:,})" + (f", losses up to {by_loss[-1].value:.3g}" if by_loss else "")),
                round=rnd, vocab_before=before, vocab_size=after, removed=tuple(removed), kept_loss_min=kept_min,
            )
        before = st.size + len(META_PIECES)
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

    def _snapshot(self, st: UnigramState) -> None:
        ids = st.alive_ids()
        # by score, ties by piece (the order SentencePiece's Sorted() gives); strings made on demand
        order = ids[np.lexsort((st.str_rank[ids], -st.scores[ids]))]
        self._snapshots.append((st.seeds, order, st.scores[order].copy()))


def _reporting(steps: Generator[None, None, tuple], done: int, cancelled) -> Generator[Progress, None, tuple]:
    """Run an EM iteration or pruning round given as a generator of its steps, yielding
    Progress("training", steps done so far, None) at most every STEP_PROGRESS_SECONDS between them
    and raising Cancelled at the first step after a cancel: one such round takes seconds on a big
    corpus, and the window and the CLI must see it alive and stop it soon."""
    interval = STEP_PROGRESS_SECONDS  # read now: tests lower it
    last = time.monotonic()
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value
        if cancelled():
            steps.close()
            raise Cancelled
        now = time.monotonic()
        if now - last >= interval:
            last = now
            yield Progress("training", done, None)


def _check_alphabet(cfg: UnigramConfig, words: Counter) -> None:
    """With full character coverage every character of the words is required: one pass over the
    distinct words (a set union in C) says whether the vocabulary can hold them, before the seeding,
    which on a big corpus takes minutes and gigabytes. (With a lower coverage the character counts
    decide, and seeding checks it as its first step.)"""
    if cfg.character_coverage < 1.0:
        return
    chars = set(SPACE_MARK).union(*words)
    need = len(chars) + len(META_PIECES)
    if cfg.vocab_size < need:
        raise TokvizError(
            f"The vocabulary size {cfg.vocab_size:,} is smaller than the {len(chars):,} characters the corpus "
            f"needs plus {len(META_PIECES)} meta pieces: use at least {need:,}, or lower the character coverage."
        )
