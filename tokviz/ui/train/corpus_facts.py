"""What the Train panel's lecture views need of the corpus, read once per run (no Qt: a big corpus is
read in a child process of its own).

The corpus is read again as the trainer reads it into a :class:`~tokviz.core.sample_follow.SampleIndex`
over every line, the trainer's unique words with their counts (capped at :data:`MAX_WORDS` most
frequent) and a :class:`~tokviz.core.byte_names.CharGuesser` of its characters.

Reading NSMC's 150k lines (14 MB) takes ~2.5 s of Python. In a thread of the GUI process that work
competes with the GUI thread for the GIL: every Python call a paint makes waited for its turn, and the
window froze for 100-470 ms at a time while the trainer counted (benchmarks/gui_stall.py, with and
without this read). A corpus over :data:`CHILD_BYTES` is therefore read in a child process
(:func:`tokviz.core.child_start.context`) that imports no Qt and sends the facts back in a few messages
(each unpickles in milliseconds); a small corpus (the demo, the tests' corpora) is read in the calling
thread, where a child's start would cost more than the read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe_candidates import count_words, most_frequent
from tokviz.core.byte_names import CharGuesser
from tokviz.core.child_start import context
from tokviz.core.errors import TokvizError
from tokviz.core.jamo import decompose_lines
from tokviz.core.process_exit import describe_exit, end_process
from tokviz.core.sample_follow import SampleIndex

MAX_WORDS = 20_000  # unique words counted for "why this pair": a step re-encodes each (~0.3 s for 20k)
MAX_INDEX_LINES = 2_000_000  # corpus lines searched for the sample (memory bound for huge corpora)
CORPUS_BLOCK_BYTES = 1 << 18  # decoding a block holds the GIL; 256 KB takes well under a millisecond
CHILD_BYTES = 2 << 20  # a corpus larger than this is read in a child process
WORDS_PER_MESSAGE = 5_000  # words sent back per message (a message unpickles in ~1 ms)
POLL_SECONDS = 0.05  # how often the waiting thread looks for a cancel


@dataclass(frozen=True)
class CorpusFacts:
    """What the lecture views need of the corpus, computed once per run off the GUI thread."""

    index: SampleIndex
    words: dict[str, int]
    words_total: int
    guesser: CharGuesser


def source_lines(path: Path | None, text: str | None, errors: str = "strict") -> Iterator[str]:
    """A corpus's lines as the trainer reads them: a file streamed in blocks of whole lines, or a text."""
    if path is not None:
        from tokviz.core.bpe.corpus import read_corpus_blocks

        return read_corpus_blocks(path, errors=errors, block_bytes=CORPUS_BLOCK_BYTES)
    return iter((text or "").splitlines(keepends=True))


def corpus_facts(config: TrainerConfig, lines, state, *, max_words: int = MAX_WORDS) -> CorpusFacts | None:
    """Read the corpus once: a line index, the trainer's word counts (capped) and a character guesser."""
    blocks = list(lines)  # the corpus as the trainer reads it (blocks of lines, or lines)
    if state.is_cancelled():
        return None
    words = count_words(config, blocks, state.is_cancelled)
    text_lines = _split_lines(blocks)
    chars: Counter = Counter()
    for word, n in words.items():
        for ch in word:
            chars[ch] += n
    kept = most_frequent(words, max_words)
    return CorpusFacts(SampleIndex(text_lines, max_lines=MAX_INDEX_LINES), kept, len(words), CharGuesser(chars))


def _split_lines(blocks) -> Iterator[str]:
    """Corpus lines from the trainer's input (items may be blocks of several lines or parts of one
    long line; the parts of a line are joined once, so a huge single line stays linear). A generator:
    the index keeps the lines' bytes, and a list of them was a million objects more to hold.

    >>> list(_split_lines(["a\\nb", "c", "d\\ne\\n", "f"]))
    ['a', 'bcd', 'e', 'f']
    """
    pending: list[str] = []  # the start of a line that goes on in the next item
    for block in blocks:
        if "\n" not in block:
            pending.append(block)
            continue
        parts = block.split("\n")
        parts[0] = "".join(pending) + parts[0]
        pending = [parts.pop()]
        yield from parts
    rest = "".join(pending)
    if rest:
        yield rest


# ---- in a child process ------------------------------------------------------------------------------


class _NeverCancelled:
    @staticmethod
    def is_cancelled() -> bool:
        return False  # the parent ends the child instead


def _child_main(conn, config: TrainerConfig, path: str | None, text: str | None, errors: str, jamo: bool,
                max_words: int) -> None:
    """The child: read the facts and send them as ("head", facts without words), then ("words", part)
    messages and ("end", None); a failure as ("error", message)."""
    try:
        lines = source_lines(Path(path) if path is not None else None, text, errors)
        facts = corpus_facts(config, decompose_lines(lines) if jamo else lines, _NeverCancelled(),
                             max_words=max_words)
        conn.send(("head", (facts.index, facts.words_total, facts.guesser)))
        items = list(facts.words.items())
        for k in range(0, len(items), WORDS_PER_MESSAGE):
            conn.send(("words", items[k: k + WORDS_PER_MESSAGE]))
        conn.send(("end", None))
    except Exception as err:  # noqa: BLE001 - any failure becomes the parent's message
        conn.send(("error", f"{type(err).__name__}: {err}"))
    finally:
        conn.close()


def read_in_child(config: TrainerConfig, path: Path | None, text: str | None, errors: str, jamo: bool,
                  cancelled: Callable[[], bool], *, max_words: int = MAX_WORDS) -> CorpusFacts | None:
    """:func:`corpus_facts` of a corpus, computed in a child process while this thread waits (a pipe
    wait releases the GIL). None when ``cancelled()`` turned true (the child is ended at once);
    TokvizError when the child failed or died."""
    ctx = context()
    here, there = ctx.Pipe(duplex=False)
    args = (there, config, str(path) if path is not None else None, text, errors, jamo, max_words)
    process = ctx.Process(target=_child_main, args=args, daemon=True, name="tokviz-corpus-facts")
    process.start()
    there.close()
    head, words = None, {}
    try:
        while True:
            if cancelled():
                return None
            if not here.poll(POLL_SECONDS):
                continue
            try:
                kind, value = here.recv()
            except EOFError:
                raise TokvizError(f"reading the corpus for the lecture views stopped: {describe_exit(process)}") \
                    from None
            if kind == "head":
                head = value
            elif kind == "words":
                words.update(value)
            elif kind == "end" and head is not None:
                index, total, guesser = head
                return CorpusFacts(index, words, total, guesser)
            else:
                raise TokvizError(f"reading the corpus for the lecture views failed: {value}")
    finally:
        here.close()
        end_process(process)
