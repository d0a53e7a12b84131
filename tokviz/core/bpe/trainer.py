"""The incremental BPE trainer: a generator of Progress, MergeStep and Finished events.

It satisfies :class:`tokviz.core.training.Trainer` (``algorithm = "bpe"``) and runs in two parts,
each in its own module (the classic incremental scheme of subword-nmt, HF tokenizers and rustbpe):

1. :mod:`~tokviz.core.bpe.counting` reads the corpus in chunks and counts unique words (char mode)
   or regex pieces (byte mode);
2. :mod:`~tokviz.core.bpe.merge_state` indexes them (flat arrays, pair counts, a heap) and makes
   each merge touch only the words that hold the pair. Tie rules and token ids per mode are
   described there.

Both modes count every adjacent position (``aaa`` holds the pair ``a a`` twice) and stop when the
best count falls below ``min_frequency``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from tokviz.core.bpe import blocks
from tokviz.core.bpe.counting import count_corpus
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.merge_state import INDEX_STAGES, MergeState, merge_state_stages, pair_of
from tokviz.core.bpe.model import BPEModel
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.pretokenize import PATTERNS
from tokviz.core.training import Finished, Progress, TrainEvent


class BPETrainer:
    """Train BPE merges from lines of text; see the module docstring for the algorithm and tie rules.

    >>> t = BPETrainer(TrainerConfig(mode="char", merges=3, min_frequency=1))
    >>> [e.new_piece for e in t.run(["low lower lowest\\n"]) if isinstance(e, MergeStep)]
    ['lo', 'we', 'lowe']
    >>> [tok.raw for tok in t.model().encode("lowest").tokens]  # ('w', 'e') beat ('lo', 'w') on the tie
    ['lowe', 's', 't</w>']
    """

    algorithm = "bpe"

    def __init__(self, config: TrainerConfig):
        if config.mode not in ("char", "byte"):
            raise TokvizError(f"unknown training mode {config.mode!r}: use 'char' or 'byte'")
        if config.mode == "byte" and config.pattern not in PATTERNS:
            raise TokvizError(f"unknown pre-split pattern {config.pattern!r}: use one of {', '.join(PATTERNS)}")
        if config.keep not in (None, "hangul"):
            raise TokvizError(f"unknown keep preset {config.keep!r}: use 'hangul' or nothing")
        if config.merges < 0:
            raise TokvizError("the number of merges must be 0 or more")
        if config.min_frequency < 1:
            raise TokvizError("min_frequency must be at least 1")
        self.config = config
        self._merges: list[tuple[int, int, int]] = []  # (left, right, new) per rank
        self._base: list[str] = []  # char mode: base symbols, id = index + 1 (0 is <unk>)
        self._finished: Finished | None = None
        self._stats: dict = {}

    # ---- public API ------------------------------------------------------------------------
    @property
    def merges(self) -> list[tuple[int, int, int]]:
        """``(left id, right id, new id)`` of every merge so far, in rank order."""
        return list(self._merges)

    @property
    def finished(self) -> Finished | None:
        return self._finished

    @property
    def base(self) -> list[str]:
        """Char mode: the base symbols of the run (id = index + 1; 0 is ``<unk>``), known once the
        corpus is indexed; empty in byte mode."""
        return list(self._base)

    @property
    def stats(self) -> dict:
        """Corpus statistics of the run for the model's settings: ``unique_words`` and
        ``corpus_chars`` once indexed, ``corpus_tokens`` when training ends."""
        return dict(self._stats)

    def model(self, step: int | None = None) -> BPEModel:
        """The model made of the first ``step`` merges (None = all so far). Safe to call between
        steps (from the thread running :meth:`run`) or after training."""
        return trained_model(self.config, self._merges, base=self._base, stats=self._stats,
                             finished=self._finished, step=step)

    def run(
        self,
        lines: Iterable[str],
        *,
        cancel: Callable[[], bool] | None = None,
        total_bytes: int | None = None,
    ) -> Iterator[TrainEvent]:
        """Train on ``lines``; yields Progress while counting, one MergeStep per merge, then Finished.

        Each line should keep its ``\\n`` (``read_corpus`` does); an item without one gets it added,
        except the last, so ``[whole_text]`` and ``text.splitlines()`` both work. A
        :class:`~tokviz.core.bpe.corpus.LinePart` (a piece of a very long line) continues in the next
        item and gets no newline. ``cancel`` is
        polled between chunks and between merges; when it returns True the generator yields
        ``Finished("cancelled")`` and stops (the merges so far stay usable through :meth:`model`).

        Raises CorpusError when the corpus holds no word at all (empty or whitespace only, or
        nothing left after the ``keep`` filter): there is nothing to train, which is an input
        problem rather than a way training can end.
        """
        self._merges = []
        self._finished = None
        cancelled = cancel or (lambda: False)
        word_counts: Counter = Counter()
        for event in count_corpus(self.config, lines, word_counts, cancelled, total_bytes):
            if event is None:
                self._finished = Finished("cancelled", 0, "cancelled while counting the corpus")
                yield self._finished
                return
            yield event
        if not word_counts or all(w.isspace() for w in word_counts):
            what = ("nothing is left after keeping only Hangul and spaces" if self.config.keep
                    else "it is empty or only whitespace")
            raise CorpusError(f"The corpus has no words to train on: {what}.")
        yield Progress("indexing", 0, INDEX_STAGES)
        if cancelled():  # before the first step, which may take a while on a big corpus
            self._finished = Finished("cancelled", 0, "cancelled while indexing the corpus")
            yield self._finished
            return
        # the distinct words are decomposed while indexing (with keep, counting decomposed the text)
        jamo = self.config.jamo and not self.config.keep
        state = yield from merge_state_stages(self.config.mode, word_counts, self.config.min_frequency, cancelled,
                                              jamo)
        if state is not None:
            for _ in blocks.release_steps(word_counts):  # freeing them all at once took 0.15 s and more
                if cancelled():
                    break
                yield Progress("indexing", INDEX_STAGES - 1, INDEX_STAGES)
        del word_counts
        if state is None or cancelled():
            self._finished = Finished("cancelled", 0, "cancelled while indexing the corpus")
            yield self._finished
            return
        self._base = state.base
        self._stats = {"unique_words": state.unique_words, "corpus_chars": state.corpus_chars}
        yield Progress("indexing", INDEX_STAGES, INDEX_STAGES)
        yield from self._merge_loop(state, cancelled)

    # ---- merging -----------------------------------------------------------------------------
    def _merge_loop(self, st: MergeState, cancelled) -> Iterator[TrainEvent]:
        target = self.config.merges
        min_freq = self.config.min_frequency
        names = st.names  # id -> display piece
        tok_bytes = st.tok_bytes
        merges = self._merges
        reason = "merges"
        message = ""
        while len(merges) < target:
            if cancelled():
                reason, message = "cancelled", f"cancelled after {len(merges)} merges"
                break
            best, count = st.select()
            if best < 0:
                reason = "exhausted"
                message = f"no pair left to merge after {len(merges)} merges (every word is a single token)"
                break
            if count < min_freq:
                reason = "min_frequency"
                message = (f"the most frequent pair occurs {count} time{'' if count == 1 else 's'}, "
                           f"below min_frequency {min_freq}")
                break
            a, b = pair_of(best)
            t = st.new_token(a, b)
            st.merge(best, a, b, t)
            merges.append((a, b, t))
            yield MergeStep(
                step=len(merges),
                token_id=t,
                left=a,
                right=b,
                left_piece=names[a],
                right_piece=names[b],
                new_piece=names[t],
                new_bytes=tok_bytes[t],
                count=count,
                vocab_size=st.next_id,
                corpus_tokens=st.corpus_tokens,
                corpus_chars=st.corpus_chars,
            )
        self._stats["corpus_tokens"] = st.corpus_tokens
        self._finished = Finished(reason, len(merges), message)
        yield self._finished


def trained_model(
    config: TrainerConfig,
    merges: list[tuple[int, int, int]],
    *,
    base: list[str],
    stats: dict,
    finished: Finished | None,
    step: int | None = None,
) -> BPEModel:
    """The model of the first ``step`` merges (None = all) of a run with ``config``.

    ``base`` and ``stats`` are the run's :attr:`BPETrainer.base` and :attr:`BPETrainer.stats`. A
    trainer in this process and one in a training process (``tokviz.core.training.process``) both build their
    models here, so the two give the same model for the same merges.

    >>> m = trained_model(TrainerConfig(mode="byte"), [(104, 105, 256)], base=[], stats={}, finished=None)
    >>> m.name, m.encode("hi").ids
    ('tokviz BPE (step 1)', [256])
    """
    n = len(merges) if step is None else max(0, min(step, len(merges)))
    settings = {
        "merges_requested": config.merges,
        "min_frequency": config.min_frequency,
        "keep": config.keep,
        "finished": finished.reason if finished else None,
        **stats,
    }
    if config.jamo:
        settings["jamo"] = True  # the model reads jamo: it decomposes the text it encodes
    return BPEModel(
        mode=config.mode,
        pattern=config.pattern if config.mode == "byte" else "whitespace",
        merges=merges[:n],
        base=base if config.mode == "char" else None,
        special_tokens=config.special_tokens,
        keep=config.keep,
        settings=settings,
        name=f"tokviz BPE (step {n})",
        source="trained in tokviz",
    )

