"""The WordPiece trainer with the likelihood rule, as a generator of step events.

Words are split as BERT's pre-tokenizer does (see :func:`~tokviz.core.wordpiece.model.bert_words`),
without lowercasing; a word starts as its first character followed by ``##`` + each next character.
At each step the adjacent pair with the largest

    score(a, b) = freq(ab) / (freq(a) · freq(b))

is merged, where every count is weighted by the word's frequency; ties go to the larger pair count,
then to the smaller ``(a, b)`` as strings. ``a + ##b`` makes ``ab`` and ``##a + ##b`` makes ``##ab``.
The vocabulary is the five specials ``[PAD] [UNK] [CLS] [SEP] [MASK]``, then the initial alphabet
(sorted), then each learned token in the order it was learned; training stops when it holds
``vocab_size`` entries (or no pair is left).

Incremental: :mod:`~tokviz.core.wordpiece.merge_state` keeps pair counts and each pair's
occurrences up to date, so a merge touches only the places that hold the pair.

>>> t = WordPieceTrainer(WordPieceConfig(vocab_size=12))  # every first score is 1/4: the larger count wins
>>> [e.new_piece for e in t.run(["hug hug hugs pug\\n"]) if isinstance(e, WordPieceStep)]
['##ug', 'hug']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from tokviz.core.bpe import blocks
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.training.events import Finished, Progress, StepEvent
from tokviz.core.word_counts import WordSample, count_words
from tokviz.core.wordpiece.merge_state import BUILD_STAGES, MergeCancelled, WordPieceMergeState
from tokviz.core.wordpiece.model import BERT_WORD, SPECIALS, WordPieceModel


@dataclass(frozen=True)
class WordPieceConfig:
    """``vocab_size`` counts the five specials and the initial alphabet. ``max_distinct_words`` caps
    the word table while counting (None: :data:`tokviz.core.word_counts.DISTINCT_WORDS_CAP`); a corpus
    with more distinct words trains on a deterministic sample of them, and a note says so."""

    vocab_size: int = 8000
    special_tokens: tuple[str, ...] = SPECIALS
    max_distinct_words: int | None = None

    def check(self) -> None:
        if self.vocab_size < len(self.special_tokens) + 1:
            raise TokvizError(
                f"the vocabulary size must be at least {len(self.special_tokens) + 1}, not {self.vocab_size}")
        if "[UNK]" not in self.special_tokens:
            raise TokvizError("the special tokens must include [UNK]")


@dataclass(frozen=True)
class WordPieceStep(StepEvent):
    """One merge with the counts behind its score: ``score = pair_count / (left_count · right_count)``."""

    step: int
    description: str
    left: str
    right: str
    new_piece: str
    token_id: int  # the new token's id (an existing id when the string was made before)
    pair_count: int
    left_count: int
    right_count: int
    score: float
    vocab_size: int  # after the merge


class WordPieceTrainer:
    """Train a WordPiece vocabulary; satisfies :class:`tokviz.core.training.Trainer` ("wordpiece")."""

    algorithm = "wordpiece"

    def __init__(self, config: WordPieceConfig | None = None):
        self.config = config or WordPieceConfig()
        self.config.check()
        self._finished: Finished | None = None
        self._vocab: list[str] = []  # specials + alphabet + learned, in order
        self._base = 0  # specials + alphabet
        self._sizes: list[int] = []  # vocabulary size after each step

    @property
    def finished(self) -> Finished | None:
        return self._finished

    @property
    def vocab(self) -> list[str]:
        """Specials, the initial alphabet, then each learned token in the order it was learned."""
        return list(self._vocab)

    @property
    def alphabet_size(self) -> int:
        return self._base - len(self.config.special_tokens)

    def model(self, step: int | None = None) -> WordPieceModel:
        """The vocabulary after ``step`` merges (None: all so far)."""
        if not self._vocab:
            raise TokvizError("no model yet: the trainer has not read the corpus")
        n = len(self._sizes) if step is None else max(0, min(step, len(self._sizes)))
        size = self._sizes[n - 1] if n else self._base
        return WordPieceModel(self._vocab[:size], special=self.config.special_tokens,
                              name=f"tokviz WordPiece (step {n})")

    def run(
        self,
        lines: Iterable[str],
        *,
        cancel: Callable[[], bool] | None = None,
        total_bytes: int | None = None,
    ) -> Iterator[object]:
        """Progress while counting, one WordPieceStep per merge, then Finished ("merges": the
        vocabulary size was reached, "exhausted": no pair left, "cancelled").

        Raises CorpusError for a corpus without words, TokvizError when ``vocab_size`` is smaller
        than the specials plus the alphabet.
        """
        self._finished = None
        self._vocab, self._sizes = [], []
        cancelled = cancel or (lambda: False)
        counts: Counter = Counter()
        ok = yield from count_words(lines, BERT_WORD.findall, counts, cancelled, total_bytes,
                                    WordSample(self.config.max_distinct_words))
        if not ok:
            self._finished = Finished("cancelled", 0, "cancelled while reading the corpus")
            yield self._finished
            return
        if not counts:
            raise CorpusError("The corpus has no words to train on: it is empty or only whitespace.")
        yield Progress("indexing", 0, BUILD_STAGES)
        if cancelled():  # before the first step, which may take a while on a big corpus
            self._finished = Finished("cancelled", 0, "cancelled while indexing the corpus")
            yield self._finished
            return
        words: list[str] = []
        freq: list[int] = []
        for _ in _move_counts(counts, words, freq):
            yield Progress("indexing", 0, BUILD_STAGES)
            if cancelled():
                self._finished = Finished("cancelled", 0, "cancelled while indexing the corpus")
                yield self._finished
                return
        del counts  # empty now: its table goes too
        state, stages = WordPieceMergeState.staged(words, freq)
        del words, freq
        specials = list(self.config.special_tokens)
        checked = False
        for done in stages:
            if done >= 1 and not checked:  # the alphabet is known: check the size before the costly steps
                checked = True
                need = len(specials) + state.alphabet_size
                if self.config.vocab_size < need:
                    raise TokvizError(
                        f"The vocabulary size {self.config.vocab_size:,} is smaller than the {len(specials)} special "
                        f"tokens plus the corpus's alphabet of {state.alphabet_size:,} symbols: use at least {need:,}."
                    )
            yield Progress("indexing", done, BUILD_STAGES)
            if cancelled():
                self._finished = Finished("cancelled", 0, "cancelled while indexing the corpus")
                yield self._finished
                return
        self._vocab = specials + state.names
        self._base = len(self._vocab)
        yield from self._merge(state, cancelled)

    def _merge(self, state: WordPieceMergeState, cancelled) -> Iterator[object]:
        target = self.config.vocab_size
        vocab = self._vocab
        names = state.names
        n_special = len(self.config.special_tokens)
        step = 0
        reason, message = "merges", ""
        while len(vocab) < target:
            if cancelled():
                reason, message = "cancelled", f"cancelled after {step} merges"
                break
            best = state.best()
            if best is None:
                reason, message = "exhausted", f"no pair left to merge after {step} merges"
                break
            a, b, count = best
            fa, fb = state.sym_count[a], state.sym_count[b]
            known = len(names)
            try:
                t = state.merge(a, b, cancelled)
            except MergeCancelled:
                reason, message = "cancelled", f"cancelled after {step} merges"
                break
            if t == known:  # a new string (an existing one keeps its place and id)
                vocab.append(names[t])
            step += 1
            self._sizes.append(len(vocab))
            score = count / (fa * fb)
            yield WordPieceStep(
                step=step,
                description=f"{names[a]} + {names[b]} → {names[t]} (score {count:,} / ({fa:,} × {fb:,}) = {score:.3g})",
                left=names[a], right=names[b], new_piece=names[t], token_id=n_special + t,
                pair_count=count, left_count=fa, right_count=fb, score=score, vocab_size=len(vocab),
            )
        self._finished = Finished(reason, step, message or f"vocabulary size {len(vocab):,} reached")
        yield self._finished


def _move_counts(counts: Counter, words: list[str], freq: list[int]) -> Iterator[None]:
    """Move ``counts`` into ``words`` and ``freq``, a block of entries at a time, then empty it the
    same way: after counting a corpus of mostly unique words, the words kept lie scattered over a
    big heap, and listing them or freeing the table in one go took 0.15-0.2 s each."""
    step = blocks.object_block()
    keys, values = iter(counts.keys()), iter(counts.values())
    for _ in range(0, len(counts), step):
        words.extend(islice(keys, step))
        freq.extend(islice(values, step))
        yield
    del keys, values
    yield from blocks.release_steps(counts)
