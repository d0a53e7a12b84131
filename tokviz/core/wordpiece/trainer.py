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

Incremental: pair counts and the words holding each pair are kept up to date; a merge recounts only
the words that hold the pair. The best pair comes from a max-heap with lazy refresh: a merge lowers
the counts of ``a`` and ``b``, which *raises* the score of every other pair holding them, so those
pairs are pushed again with their new score; entries whose score went down are refreshed when popped.

>>> t = WordPieceTrainer(WordPieceConfig(vocab_size=12))  # every first score is 1/4: the larger count wins
>>> [e.new_piece for e in t.run(["hug hug hugs pug\\n"]) if isinstance(e, WordPieceStep)]
['##ug', 'hug']
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from tokviz.core.bpe.corpus import LinePart, last_space_end, utf8_length
from tokviz.core.bpe.events import Finished, Progress
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.wordpiece.model import BERT_WORD, CONTINUATION, SPECIALS, WordPieceModel

_CHUNK_CHARS = 1 << 16
_PROGRESS_INTERVAL = 0.05


@dataclass(frozen=True)
class WordPieceConfig:
    """``vocab_size`` counts the five specials and the initial alphabet."""

    vocab_size: int = 8000
    special_tokens: tuple[str, ...] = SPECIALS

    def check(self) -> None:
        if self.vocab_size < len(self.special_tokens) + 1:
            raise TokvizError(
                f"the vocabulary size must be at least {len(self.special_tokens) + 1}, not {self.vocab_size}")
        if "[UNK]" not in self.special_tokens:
            raise TokvizError("the special tokens must include [UNK]")


@dataclass(frozen=True)
class WordPieceStep:
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
        ok = yield from self._count(lines, counts, cancelled, total_bytes)
        if not ok:
            self._finished = Finished("cancelled", 0, "cancelled while reading the corpus")
            yield self._finished
            return
        if not counts:
            raise CorpusError("The corpus has no words to train on: it is empty or only whitespace.")
        yield Progress("indexing", 0, 1)
        words = list(counts)
        freq = list(counts.values())
        del counts
        alphabet = sorted({w[0] for w in words} | {CONTINUATION + c for w in words for c in w[1:]})
        specials = list(self.config.special_tokens)
        need = len(specials) + len(alphabet)
        if self.config.vocab_size < need:
            raise TokvizError(
                f"The vocabulary size {self.config.vocab_size:,} is smaller than the {len(specials)} special tokens "
                f"plus the corpus's alphabet of {len(alphabet):,} symbols: use at least {need:,}."
            )
        self._vocab = specials + alphabet
        self._base = len(self._vocab)
        yield from self._merge(words, freq, alphabet, cancelled)

    def _count(self, lines, counts: Counter, cancelled, total_bytes):
        findall = BERT_WORD.findall
        buf: list[str] = []
        chars = 0
        done = 0
        last = 0.0
        yield Progress("counting", 0, total_bytes)
        for line in lines:
            if type(line) is not LinePart and not line.endswith("\n"):
                line += "\n"
            buf.append(line)
            chars += len(line)
            if chars >= _CHUNK_CHARS:
                text = "".join(buf)
                cut = last_space_end(text)
                counts.update(findall(text, 0, cut))
                done += utf8_length(text[:cut])
                buf = [text[cut:]] if cut < len(text) else []
                chars = len(text) - cut
                if cancelled():
                    return False
                now = time.monotonic()
                if now - last >= _PROGRESS_INTERVAL:
                    last = now
                    yield Progress("counting", done, total_bytes)
        text = "".join(buf)
        counts.update(findall(text))
        done += utf8_length(text)
        yield Progress("counting", done, total_bytes if total_bytes is not None else done)
        return not cancelled()

    def _merge(self, words: list[str], freq: list[int], alphabet: list[str], cancelled) -> Iterator[object]:
        names: list[str] = list(alphabet)
        id_of = {s: i for i, s in enumerate(names)}
        seqs = [[id_of[w[0]]] + [id_of[CONTINUATION + c] for c in w[1:]] for w in words]
        sym_count = [0] * len(names)
        pair_count: dict[tuple[int, int], int] = {}
        where: dict[tuple[int, int], set[int]] = {}
        pairs_of: dict[int, set[tuple[int, int]]] = {}
        for wi, (seq, f) in enumerate(zip(seqs, freq, strict=True)):
            for s in seq:
                sym_count[s] += f
            for p in itertools.pairwise(seq):
                pair_count[p] = pair_count.get(p, 0) + f
                where.setdefault(p, set()).add(wi)
        for p in pair_count:
            pairs_of.setdefault(p[0], set()).add(p)
            pairs_of.setdefault(p[1], set()).add(p)
        yield Progress("indexing", 1, 1)

        def entry(p, c):
            return (-c / (sym_count[p[0]] * sym_count[p[1]]), -c, names[p[0]], names[p[1]], p)

        heap = [entry(p, c) for p, c in pair_count.items()]
        heapq.heapify(heap)
        target = self.config.vocab_size
        vocab = self._vocab
        step = 0
        reason, message = "merges", ""
        while len(vocab) < target:
            if cancelled():
                reason, message = "cancelled", f"cancelled after {step} merges"
                break
            best = None
            while heap:
                e = heapq.heappop(heap)
                p = e[4]
                c = pair_count.get(p, 0)
                if c <= 0:
                    continue
                cur = entry(p, c)
                if cur[:2] != e[:2]:
                    heapq.heappush(heap, cur)
                    continue
                best = cur
                break
            if best is None:
                reason, message = "exhausted", f"no pair left to merge after {step} merges"
                break
            a, b = best[4]
            count = -best[1]
            fa, fb = sym_count[a], sym_count[b]
            piece = names[a] + names[b][len(CONTINUATION):]
            t = id_of.get(piece)
            if t is None:
                t = id_of[piece] = len(names)
                names.append(piece)
                sym_count.append(0)
                vocab.append(piece)
            changed: set[tuple[int, int]] = set()
            for wi in list(where.get((a, b), ())):
                seq = seqs[wi]
                f = freq[wi]
                new = []
                i, n, k = 0, len(seq), 0
                while i < n:
                    if i < n - 1 and seq[i] == a and seq[i + 1] == b:
                        new.append(t)
                        i += 2
                        k += 1
                    else:
                        new.append(seq[i])
                        i += 1
                if not k:
                    continue
                for p in itertools.pairwise(seq):
                    pair_count[p] -= f
                    changed.add(p)
                for p in itertools.pairwise(new):
                    pair_count[p] = pair_count.get(p, 0) + f
                    changed.add(p)
                old_pairs, new_pairs = set(itertools.pairwise(seq)), set(itertools.pairwise(new))
                for p in old_pairs - new_pairs:
                    where[p].discard(wi)
                for p in new_pairs - old_pairs:
                    where.setdefault(p, set()).add(wi)
                sym_count[a] -= k * f
                sym_count[b] -= k * f
                sym_count[t] += k * f
                seqs[wi] = new
            for p in changed:
                c = pair_count.get(p, 0)
                if c <= 0:
                    pair_count.pop(p, None)
                    where.pop(p, None)
                    for s in p:
                        pairs_of.get(s, set()).discard(p)
                else:
                    pairs_of.setdefault(p[0], set()).add(p)
                    pairs_of.setdefault(p[1], set()).add(p)
            # every live pair holding a, b or t has a new score: push it again (stale ones are skipped)
            repush = changed | pairs_of.get(a, set()) | pairs_of.get(b, set())
            for p in repush:
                c = pair_count.get(p, 0)
                if c > 0:
                    heapq.heappush(heap, entry(p, c))
            step += 1
            self._sizes.append(len(vocab))
            score = count / (fa * fb)
            yield WordPieceStep(
                step=step,
                description=f"{names[a]} + {names[b]} → {piece} (score {count:,} / ({fa:,} × {fb:,}) = {score:.3g})",
                left=names[a], right=names[b], new_piece=piece, token_id=len(self.config.special_tokens) + t,
                pair_count=count, left_count=fa, right_count=fb, score=score, vocab_size=len(vocab),
            )
        self._finished = Finished(reason, step, message or f"vocabulary size {len(vocab):,} reached")
        yield self._finished
