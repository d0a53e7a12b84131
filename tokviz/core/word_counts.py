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
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable

from tokviz.core.bpe.corpus import LinePart, last_space_end, utf8_length
from tokviz.core.bpe.events import Progress

CHUNK_CHARS = 1 << 16  # short enough that one Counter.update never holds the GIL for long
_PROGRESS_INTERVAL = 0.05  # at most ~20 Progress events per second


def count_words(
    lines: Iterable[str],
    split: Callable[[str], Iterable[str]],
    counts: Counter,
    cancelled: Callable[[], bool] = lambda: False,
    total_bytes: int | None = None,
) -> Generator[Progress, None, bool]:
    """Add the words of ``lines`` (as ``split`` cuts them) to ``counts``; yields throttled
    Progress("counting", bytes done, ``total_bytes``) and returns False when ``cancelled()`` said
    stop (polled once per chunk), True when every line was counted.

    A line without a final ``\\n`` gets one (so ``["a", "b"]`` is two words), except a LinePart.
    """
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
            counts.update(split(text))
            done += utf8_length(text)
            carried = [new[cut:]] if cut < len(new) else []
        else:
            carried.append(new)
        if cancelled():
            return False
        now = time.monotonic()
        if now - last >= _PROGRESS_INTERVAL:
            last = now
            yield Progress("counting", done, total_bytes)
    text = "".join(carried) + "".join(fresh)
    counts.update(split(text))
    done += utf8_length(text)
    yield Progress("counting", done, total_bytes if total_bytes is not None else done)
    return not cancelled()
