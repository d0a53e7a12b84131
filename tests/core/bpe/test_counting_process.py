"""Counting with a helper process gives exactly the one-process counts, and a cancel ends the helper."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.corpora import CORPORA
from tokviz.core.bpe import counting, counting_process
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.training import Progress


def count(cfg: TrainerConfig, lines, cancel=lambda: False):
    counts: Counter = Counter()
    events = list(counting.count_corpus(cfg, lines, counts, cancel, None))
    return counts, events


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of ~2,000 characters and a helper for any size: a small corpus gets many chunks of both kinds."""
    monkeypatch.setattr(counting, "_CHUNK_CHARS", 2000)
    monkeypatch.setattr(counting_process, "HELPER_MIN_BYTES", 0)
    # a long queue: the helper gets every chunk after the first, so every cut it is given is tested
    monkeypatch.setattr(counting_process, "_QUEUE_CHUNKS", 10_000)
    monkeypatch.delenv("TOKVIZ_COUNT_PROCESSES", raising=False)
    given = []
    give = counting_process.CountingHelper.give

    def counting_give(self, text, cut):
        given.append(len(text))
        give(self, text, cut)

    monkeypatch.setattr(counting_process.CountingHelper, "give", counting_give)
    return given


@pytest.mark.parametrize("mode,pattern", [("char", "gpt4"), ("byte", "gpt4"), ("byte", "gpt2"), ("byte", "o200k"),
                                          ("byte", "none")])
def test_helper_counts_equal_one_process_counts(small_chunks, monkeypatch, mode, pattern):
    if not counting_process.helper_allowed():
        pytest.skip("one core: no helper process")
    text = "".join(CORPORA[name]() for name in sorted(CORPORA))
    lines = text.splitlines(keepends=True)
    cfg = TrainerConfig(mode=mode, pattern=pattern)
    both, events = count(cfg, lines)
    assert small_chunks, "the helper was given no chunk"
    assert isinstance(events[-1], Progress) and events[-1].done == len(text.encode("utf-8"))
    monkeypatch.setenv("TOKVIZ_COUNT_PROCESSES", "1")
    n = len(small_chunks)
    one, _ = count(cfg, lines)
    assert len(small_chunks) == n  # really one process this time
    assert both == one


def test_training_with_a_helper_gives_the_same_merges(small_chunks, monkeypatch):
    if not counting_process.helper_allowed():
        pytest.skip("one core: no helper process")
    lines = CORPORA["korean"]().splitlines(keepends=True)

    def merges():
        t = BPETrainer(TrainerConfig(mode="byte", merges=200))
        list(t.run(lines))
        return t.merges

    with_helper = merges()
    assert small_chunks
    monkeypatch.setenv("TOKVIZ_COUNT_PROCESSES", "1")
    assert merges() == with_helper


def test_the_apps_own_word_counts_start_no_helper_and_keep_chunks_short(small_chunks, monkeypatch):
    # The Train panel reads the corpus's words in one of the app's threads. A helper there fed whole
    # megabyte blocks, and counting one such block in the app held the GIL, so the GUI, for 200 ms.
    if not counting_process.helper_allowed():
        pytest.skip("one core: no helper process")
    from tokviz.core.bpe_candidates import count_words

    chunks: list[int] = []
    pieces = counting._pieces

    def spy_pieces(lines, whole):
        for piece in pieces(lines, whole):
            chunks.append(len(piece))
            yield piece

    monkeypatch.setattr(counting, "_pieces", spy_pieces)
    lines = ["".join(CORPORA[name]() for name in sorted(CORPORA))] * 3  # one block of many lines
    cfg = TrainerConfig(mode="byte", pattern="gpt4")
    words = count_words(cfg, lines)
    assert not small_chunks  # no chunk went to a helper
    assert max(chunks) <= 2000  # the reader's block was counted in chunk-sized pieces
    monkeypatch.setenv("TOKVIZ_COUNT_PROCESSES", "1")
    assert words == count(cfg, lines)[0]


def test_cancel_while_the_helper_counts_ends_it(small_chunks, monkeypatch):
    if not counting_process.helper_allowed():
        pytest.skip("one core: no helper process")
    started = []
    init = counting_process.CountingHelper.__init__

    def remember(self, *args):
        init(self, *args)
        started.append(self)

    monkeypatch.setattr(counting_process.CountingHelper, "__init__", remember)
    lines = CORPORA["korean"]().splitlines(keepends=True) * 5
    checks = {"n": 0}

    def cancel():
        checks["n"] += 1
        return checks["n"] > 20

    _, events = count(TrainerConfig(mode="char"), lines, cancel)
    assert events[-1] is None  # cancelled
    assert small_chunks and started and all(h.proc.poll() is not None for h in started)  # ended and reaped


def test_a_failing_helper_is_a_clear_error(small_chunks, monkeypatch):
    if not counting_process.helper_allowed():
        pytest.skip("one core: no helper process")
    from tokviz.core.errors import TokvizError

    monkeypatch.setattr(counting_process.CountingHelper, "give", lambda self, text, cut: self.proc.kill())
    with pytest.raises(TokvizError, match="second process"):
        count(TrainerConfig(mode="char"), CORPORA["english"]().splitlines(keepends=True))


def test_add_counts():
    c = Counter({"a": 1, "b": 2})
    counting_process.add_counts(c, Counter({"b": 3, "c": 4}))
    assert c == Counter({"a": 1, "b": 5, "c": 4})


def test_a_helper_only_pays_for_a_big_corpus_or_an_idle_core():
    class Idle:
        def __init__(self, cores):
            self.cores = cores

        def since(self):
            return self.cores

    mb = 1 << 20
    assert counting_process.helper_pays(40 * mb, None)  # big: always
    assert not counting_process.helper_pays(4 * mb, Idle(2.0))  # small: never
    assert counting_process.helper_pays(12 * mb, Idle(1.0))  # in between: only with a free core
    assert not counting_process.helper_pays(12 * mb, Idle(0.3))
    assert not counting_process.helper_pays(12 * mb, None)
    assert counting_process.IdleCores().since() >= 0.0


@pytest.mark.parametrize("mode", ["char", "byte"])
def test_a_block_the_helper_has_no_room_for_is_counted_in_pieces_with_progress_between(small_chunks, monkeypatch,
                                                                                      mode):
    """With the helper's queue full, this process counts a whole reader's block itself: in chunk-sized
    pieces, reporting progress between them (a 1 MB block at once went over a second without any),
    and with exactly the counts of counting it at once."""
    monkeypatch.setattr(counting_process.CountingHelper, "has_room", lambda self: False)  # its queue stays full
    monkeypatch.setattr(counting, "_PROGRESS_INTERVAL", 0.0)
    words = [f"w{i % 997}x{i % 13} 안녕{i % 31}" for i in range(6000)]
    blocks = [" ".join(words[a:a + 1500]) + "\n" for a in range(0, len(words), 1500)]  # ~20,000 chars each
    cfg = TrainerConfig(mode=mode, merges=10, pattern="gpt4")
    counts, events = count(cfg, blocks)
    progress = [e for e in events if isinstance(e, Progress)]
    # the first block is counted before the helper starts; the three others are ~10 chunks each
    assert len(progress) >= 3 * 8
    monkeypatch.setenv("TOKVIZ_COUNT_PROCESSES", "1")  # the same text counted in this process alone
    alone, _ = count(cfg, blocks)
    assert counts == alone
