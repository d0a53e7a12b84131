"""Counting a corpus's words for the WordPiece and Unigram trainers: unique words and how often each occurs.

The corpus comes as lines (each with its ``\\n``; a :class:`~tokviz.core.bpe.corpus.LinePart` is a
piece of a long line that continues in the next item). It is read in chunks of about 64K characters,
cut after the chunk's last whitespace so that no word is split between chunks, and the caller's
``split`` turns each chunk into words (``str.split`` for Unigram, BERT's pre-tokenizer for
WordPiece); ``collections.Counter`` counts them in C. A word longer than a chunk (a text without
spaces) is carried whole to the next chunk, and only the new text is searched for whitespace, so a
multi-megabyte word costs one pass, not one pass per chunk.

>>> counts = Counter()
>>> events = list(count_words(["a b a\\n", "b a\\n"], str.split, counts))
>>> counts, events[-1].done
(Counter({'a': 3, 'b': 2}), 10)

A corpus of mostly unique words (random strings, IDs, hashes) would make the table, and everything a
trainer builds from it, grow without bound: 200 MB of such words took char BPE, WordPiece and Unigram
past 12 GB. So every trainer counts through a :class:`WordSample`, which caps the *distinct* words
kept (see there); below the cap nothing changes.
"""

from __future__ import annotations

import re
import time
import zlib
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import compress
from operator import methodcaller

from tokviz.core.bpe.corpus import LinePart, last_space_end, utf8_length
from tokviz.core.training import Progress

CHUNK_CHARS = 1 << 16  # short enough that one Counter.update never holds the GIL for long
# Characters split and counted per call: a corpus read in blocks of a megabyte hands over chunks that big, and
# counting one (150,000 mostly new words) took 0.2-0.35 s of CPU without a cancel poll or a progress event.
UPDATE_CHARS = 1 << 16
_SPACE = re.compile(r"\s")  # what last_space_end cuts after: str.isspace(), a break for every ``split``
_PROGRESS_INTERVAL = 0.05  # at most ~20 Progress events per second

# Distinct words a trainer keeps at most (the table holds up to twice as many between two prunes).
# Chosen by benchmarks/unique_words.py: with 200 MB of mostly unique words every algorithm stays under
# 4 GB peak RSS (WordPiece's per-slot lists are the largest per word); realistic corpora (NSMC: 350k
# distinct words, 100 MB of Korean reviews: ~1.5M) stay below it and are counted exactly.
DISTINCT_WORDS_CAP = 1_000_000
# Unigram's seeds and lattices take ~8 KB a distinct word of random letters (every substring of up to 16
# characters that occurs twice is a seed, each occurrence an arc): 590k words peaked at 4.6 GB, so it
# keeps fewer (between half this and this many once sampled).
UNIGRAM_DISTINCT_WORDS_CAP = 400_000
PRUNE_SLICE = 1 << 16  # words hashed or dropped between two yields of WordSample.prune_steps (~20 ms)


@dataclass(frozen=True)
class CountingNote:
    """A remark about how the corpus was counted that the user should see (not a step, not progress):
    the distinct-word cap was reached and the 1/``share`` of the words picked by their hash was trained
    on (``kept`` words). The CLI prints :attr:`text`; the Train panel words it in its own language.

    >>> CountingNote(cap=1000, share=4, kept=900).text[:40]
    'more than 1,000 distinct words (about 3,'
    """

    cap: int
    share: int
    kept: int

    @property
    def about(self) -> int:
        """Roughly how many distinct words the corpus has."""
        return self.kept * self.share

    @property
    def text(self) -> str:
        return (f"more than {self.cap:,} distinct words (about {self.about:,}); trained on the 1/{self.share} of "
                f"them picked by a hash of each word ({self.kept:,} words), with exact counts. The others are "
                f"left out to bound memory.")


_UTF8 = methodcaller("encode", "utf-8", "surrogatepass")


class WordSample:
    """Keeps a word table under a cap of distinct words with a deterministic sample of the words.

    Below the cap nothing is dropped: the counts are exact. When the table passes twice the cap,
    every word whose CRC-32 (of its UTF-8) is at or above a threshold is dropped; the threshold
    starts at 2**32 (every word kept) and halves while more than ``cap`` words are below it. A word
    below the final threshold was never dropped, so its count is exact; the others are not trained
    on. Which words are kept depends only on the set of distinct words of the corpus, not on their
    order nor on how the chunks were shared between processes: the final threshold is the largest
    of 2**32, 2**31, ... under which at most ``cap`` of the corpus's distinct words fall (a table
    only ever holds words seen, so it halves only when the whole corpus would too), and two tables
    are combined by taking the lower threshold (:meth:`absorb`). Same corpus, same model.

    Why a sample of words rather than of lines (sentencepiece's ``input_sentence_size``): lines
    counted cannot be taken back out of a Counter, and a cap on words bounds memory whatever the
    line lengths. Why not "keep the words seen first": the counting helper process takes chunks by
    timing, so "first" would change from run to run.

    >>> s = WordSample(cap=2); c = Counter({"a": 5, "b": 1, "c": 1, "d": 1, "e": 1})
    >>> s.prune(c); len(c) <= 2, s.shift > 0, s.note() is not None
    (True, True, True)
    """

    def __init__(self, cap: int | None = None):
        self.cap = max(1, DISTINCT_WORDS_CAP if cap is None else cap)
        self.shift = 0  # the threshold is 2**(32 - shift)
        self.prunes = 0

    @property
    def sampled(self) -> bool:
        return self.shift > 0

    def full(self, counts: Counter) -> bool:
        """Whether ``counts`` holds more than twice the cap: time to prune (cheap: call it per chunk)."""
        return len(counts) > 2 * self.cap

    def check(self, counts: Counter) -> None:
        """Prune ``counts`` when it is :meth:`full`."""
        if self.full(counts):
            self.prune(counts)

    def finish(self, counts: Counter) -> None:
        """:meth:`finish_steps` in one go."""
        for _ in self.finish_steps(counts):
            pass

    def finish_steps(self, counts: Counter) -> Iterator[None]:
        """The final table: words above the threshold added since the last prune go, and the
        threshold halves while more than ``cap`` words remain (yields between slices, see
        :meth:`prune_steps`)."""
        if self.shift or len(counts) > self.cap:
            yield from self.prune_steps(counts)

    def absorb(self, shift: int) -> None:
        """Take over the threshold of another table of the same corpus (the lower one wins)."""
        self.shift = max(self.shift, shift)

    def prune(self, counts: Counter) -> None:
        """:meth:`prune_steps` in one go."""
        for _ in self.prune_steps(counts):
            pass

    def prune_steps(self, counts: Counter) -> Iterator[None]:
        """Drop the words at or above the threshold, halving it while more than ``cap`` stay.

        A generator that yields between slices of ``PRUNE_SLICE`` words (hashing, then deleting),
        so a counting loop reports progress and notices a cancel while millions of words are pruned
        (in one go that took seconds). ``counts`` must not change until it is exhausted."""
        import numpy as np

        words = list(counts)
        hashes = np.empty(len(words), dtype=np.uint64)
        for a in range(0, len(words), PRUNE_SLICE):
            part = words[a:a + PRUNE_SLICE]
            hashes[a:a + len(part)] = np.fromiter(map(zlib.crc32, map(_UTF8, part)), dtype=np.uint64,
                                                  count=len(part))
            yield
        keep = hashes < (1 << (32 - self.shift))
        while int(keep.sum()) > self.cap:
            self.shift += 1
            keep = hashes < (1 << (32 - self.shift))
        self.prunes += 1
        drop = ~keep
        del hashes, keep
        for a in range(0, len(words), PRUNE_SLICE):
            # dict's own delete, looped in C: Counter.__delitem__ is a Python method (~5x slower a word)
            gone = compress(words[a:a + PRUNE_SLICE], drop[a:a + PRUNE_SLICE].tolist())
            deque(map(partial(dict.__delitem__, counts), gone), maxlen=0)
            yield

    def note(self, kept: int | None = None) -> CountingNote | None:
        """What the CLI and the Train panel say when the sample dropped words (None when it did not)."""
        if not self.shift:
            return None
        return CountingNote(cap=self.cap, share=1 << self.shift, kept=self.cap if kept is None else kept)


def count_words(
    lines: Iterable[str],
    split: Callable[[str], Iterable[str]],
    counts: Counter,
    cancelled: Callable[[], bool] = lambda: False,
    total_bytes: int | None = None,
    sample: WordSample | None = None,
) -> Generator[Progress | CountingNote, None, bool]:
    """Add the words of ``lines`` (as ``split`` cuts them) to ``counts``; yields throttled
    Progress("counting", bytes done, ``total_bytes``) and returns False when ``cancelled()`` said
    stop (polled once per chunk), True when every line was counted.

    The distinct words are capped by ``sample`` (a new :class:`WordSample` when None); when it
    dropped words a :class:`CountingNote` says so after the last Progress.

    A line without a final ``\\n`` gets one (so ``["a", "b"]`` is two words), except a LinePart.
    """
    sample = sample if sample is not None else WordSample()
    carried: list[str] = []  # text after the last whitespace seen: a word still going on
    fresh: list[str] = []  # lines not yet searched for whitespace
    chars = 0
    done = 0
    last = 0.0
    yield Progress("counting", 0, total_bytes)
    for line in lines:
        if type(line) is not LinePart and not line.endswith("\n"):
            line += "\n"
        fresh.append(line)
        chars += len(line)
        if chars < CHUNK_CHARS:
            continue
        new = "".join(fresh)
        fresh, chars = [], 0
        cut = last_space_end(new)
        if cut:
            text = "".join(carried) + new[:cut]
            for piece in _cut_at_spaces(text, UPDATE_CHARS):
                counts.update(split(piece))
                done += utf8_length(piece)
                if cancelled():
                    return False
                now = time.monotonic()
                if now - last >= _PROGRESS_INTERVAL:
                    last = now
                    yield Progress("counting", done, total_bytes)
            # pruned only where a whole chunk ends, as before: the table's order, and so the model,
            # does not depend on UPDATE_CHARS
            if sample.full(counts):
                for _ in sample.prune_steps(counts):
                    yield Progress("counting", done, total_bytes)
                    if cancelled():
                        return False
            carried = [new[cut:]] if cut < len(new) else []
        else:
            carried.append(new)
        if cancelled():
            return False
        now = time.monotonic()
        if now - last >= _PROGRESS_INTERVAL:
            last = now
            yield Progress("counting", done, total_bytes)
    for piece in _cut_at_spaces("".join(carried) + "".join(fresh), UPDATE_CHARS):
        counts.update(split(piece))
        done += utf8_length(piece)
        if cancelled():
            return False
    for _ in sample.finish_steps(counts):
        yield Progress("counting", done, total_bytes)
        if cancelled():
            return False
    yield Progress("counting", done, total_bytes if total_bytes is not None else done)
    note = sample.note(len(counts))
    if note is not None:
        yield note
    return not cancelled()


def _cut_at_spaces(text: str, size: int) -> Iterator[str]:
    """``text`` in consecutive pieces of about ``size`` characters, each but the last cut just after a
    whitespace character (so no word is cut; a word longer than ``size`` stays whole).

    >>> list(_cut_at_spaces("ab cd ef", 4))
    ['ab ', 'cd ', 'ef']
    """
    a, n = 0, len(text)
    while n - a > size:
        cut = last_space_end(text[a : a + size])
        if not cut:
            found = _SPACE.search(text, a + size)
            if found is None:
                break
            cut = found.end() - a
        yield text[a : a + cut]
        a += cut
    if a < n:
        yield text[a:]
