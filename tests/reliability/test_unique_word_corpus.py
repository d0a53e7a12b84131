"""A corpus of mostly unique words: every trainer keeps at most the cap of distinct words, says so, and
stays deterministic; below the cap nothing changes.

The real caps (a million words; Unigram 400,000) is lowered here to a few hundred (monkeypatched), so a corpus of a
few thousand generated words stands for the 200 MB one; benchmarks/unique_words.py runs the real size.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tokviz.core import word_counts
from tokviz.core.bpe import counting_process
from tokviz.core.bpe.counting import count_corpus
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.errors import TokvizError
from tokviz.core.training import Finished, Progress
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer
from tokviz.core.word_counts import CountingNote, count_words
from tokviz.core.wordpiece import trainer as wordpiece_trainer
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer

CAP = 300

TRAINERS = {
    "bpe-char": lambda: BPETrainer(TrainerConfig(mode="char", merges=40, min_frequency=2)),
    "bpe-byte": lambda: BPETrainer(TrainerConfig(mode="byte", merges=40, min_frequency=2)),
    "wordpiece": lambda: WordPieceTrainer(WordPieceConfig(vocab_size=120)),
    "unigram": lambda: UnigramTrainer(UnigramConfig(vocab_size=120)),
}


def unique_lines(n_words: int = 3000, seed: int = 7) -> list[str]:
    """Lines of 12 words: 9 in 10 random lowercase strings, the rest from 30 common ones."""
    rng = random.Random(seed)
    common = ["the", "and", "of", "to", "in", "is", "it", "that", "was", "for"] + [f"w{i}" for i in range(20)]
    words = [rng.choice(common) if rng.random() < 0.1 else
             "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 10)))
             for _ in range(n_words)]
    return [" ".join(words[i:i + 12]) + "\n" for i in range(0, n_words, 12)]


@pytest.fixture
def low_cap(monkeypatch):
    monkeypatch.setattr(word_counts, "DISTINCT_WORDS_CAP", CAP)
    monkeypatch.setattr(word_counts, "UNIGRAM_DISTINCT_WORDS_CAP", CAP)
    return CAP


def _signature(algorithm: str, model):
    if algorithm.startswith("bpe"):
        return list(model.merges)
    if algorithm == "wordpiece":
        return list(model.vocab)
    return list(zip(model.pieces, model.scores, strict=True))


def _train(algorithm: str, lines: list[str]):
    trainer = TRAINERS[algorithm]()
    events = list(trainer.run(lines))
    assert isinstance(events[-1], Finished) and events[-1].reason != "cancelled", events[-1]
    return trainer, events


@pytest.fixture
def wordpiece_distinct(monkeypatch):
    """Records how many distinct words WordPiece indexed (it keeps no statistic of its own)."""
    seen: list[int] = []
    real = wordpiece_trainer.WordPieceMergeState.staged

    def staged(words, freq):
        seen.append(len(words))
        return real(words, freq)

    monkeypatch.setattr(wordpiece_trainer.WordPieceMergeState, "staged", staged)
    return seen


@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_the_cap_holds_and_is_noted_for_every_algorithm(algorithm, low_cap, wordpiece_distinct):
    lines = unique_lines()
    distinct = len(Counter(" ".join(lines).split()))
    assert distinct > 2 * CAP  # the corpus passes the cap
    trainer, events = _train(algorithm, lines)
    notes = [e for e in events if isinstance(e, CountingNote)]
    assert len(notes) == 1 and f"more than {CAP:,} distinct words" in notes[0].text
    # the note comes after counting, before the first step
    first_step = next(i for i, e in enumerate(events) if not isinstance(e, (Progress, CountingNote)))
    assert events.index(notes[0]) < first_step
    kept = wordpiece_distinct[-1] if algorithm == "wordpiece" else trainer.stats["unique_words"]
    assert 0 < kept <= CAP


@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_a_capped_run_is_deterministic_and_independent_of_the_line_order(algorithm, low_cap):
    lines = unique_lines()
    first, _ = _train(algorithm, lines)
    again, _ = _train(algorithm, lines)
    assert _signature(algorithm, first.model()) == _signature(algorithm, again.model())
    if algorithm in ("bpe-char", "unigram"):  # whitespace words: the counts do not depend on the order
        shuffled = lines[::-1]
        other, _ = _train(algorithm, shuffled)
        assert _signature(algorithm, other.model()) == _signature(algorithm, first.model())


@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_below_the_cap_nothing_changes(algorithm, monkeypatch):
    lines = unique_lines(800)
    monkeypatch.setattr(word_counts, "DISTINCT_WORDS_CAP", 10**9)
    monkeypatch.setattr(word_counts, "UNIGRAM_DISTINCT_WORDS_CAP", 10**9)
    plain, plain_events = _train(algorithm, lines)
    distinct = len(Counter(" ".join(lines).split()))
    monkeypatch.setattr(word_counts, "DISTINCT_WORDS_CAP", distinct + 10)  # just above the corpus's words
    monkeypatch.setattr(word_counts, "UNIGRAM_DISTINCT_WORDS_CAP", distinct + 10)
    near, near_events = _train(algorithm, lines)
    assert not any(isinstance(e, CountingNote) for e in plain_events + near_events)
    assert _signature(algorithm, plain.model()) == _signature(algorithm, near.model())


def test_the_kept_words_have_their_exact_counts(low_cap):
    lines = unique_lines()
    exact = Counter(" ".join(lines).split())
    counts: Counter = Counter()
    list(count_words(lines, str.split, counts))
    assert 0 < len(counts) <= CAP
    assert all(exact[w] == c for w, c in counts.items())


@pytest.mark.parametrize("mode", ["char", "byte"])
def test_a_helper_process_counts_the_same_sample(monkeypatch, mode):
    # the helper takes chunks by timing; the sample must not depend on which it took
    monkeypatch.setattr(counting_process, "helper_allowed", lambda: True)
    monkeypatch.setattr(counting_process, "helper_pays", lambda size, idle: True)
    given = []
    real_give = counting_process.CountingHelper.give

    def give(self, text, cut):
        given.append(len(text))
        real_give(self, text, cut)

    monkeypatch.setattr(counting_process.CountingHelper, "give", give)
    lines = unique_lines(24_000, seed=3)  # ~180 KB: a few chunks, some for the helper
    cfg = TrainerConfig(mode=mode)
    alone: Counter = Counter()
    events_alone = list(count_corpus(cfg, lines, alone, lambda: False, None, helper_process=False,
                                     sample=word_counts.WordSample(1000)))
    shared: Counter = Counter()
    events_shared = list(count_corpus(cfg, lines, shared, lambda: False, None, sample=word_counts.WordSample(1000)))
    assert given, "the helper counted no chunk"
    assert 0 < len(alone) <= 1000
    assert shared == alone
    notes = [[e.text for e in ev if isinstance(e, CountingNote)] for ev in (events_alone, events_shared)]
    assert notes[0] == notes[1] and len(notes[0]) == 1


def test_unigram_too_small_a_vocabulary_is_known_before_seeding():
    # 200 distinct characters cannot fit in 100 pieces: said right after counting, no seeding started
    lines = [" ".join(chr(0x4E00 + i) for i in range(k, k + 20)) + "\n" for k in range(0, 200, 20)]
    events = []
    with pytest.raises(TokvizError, match="smaller than the 201 characters"):
        for event in UnigramTrainer(UnigramConfig(vocab_size=100)).run(lines):
            events.append(event)
    assert events and all(isinstance(e, Progress) and e.phase == "counting" for e in events)


def test_the_cli_prints_the_note_on_stderr(tmp_path, low_cap, capsys):
    from tokviz.cli import main

    corpus = tmp_path / "unique.txt"
    corpus.write_text("".join(unique_lines()), encoding="utf-8")
    assert main(["train", str(corpus), "--mode", "char", "--merges", "20", "-q"]) == 0
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and f"more than {CAP:,} distinct words" in notes[0]


@pytest.mark.parametrize("algorithm", ["wordpiece", "unigram"])
def test_the_train_panel_shows_the_note(qtbot, monkeypatch, algorithm):
    # every trainer runs in the training process, where a patched module constant does not reach: the
    # lowered cap travels in the run's config, as any setting does
    import functools

    from tokviz.core.training import factory
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.train.corpus import CorpusSource

    real = factory.config_class
    monkeypatch.setattr(factory, "config_class", lambda name: functools.partial(real(name), max_distinct_words=CAP))

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    try:
        panel = window.show_view("train")
        panel.set_source(CorpusSource.paste("".join(unique_lines())))
        panel.algorithms.set_algorithm(algorithm)
        panel.algorithms.vocab_spin.setValue(120)
        panel.train_button.click()
        qtbot.waitUntil(lambda: f"more than {CAP:,} distinct words" in panel.message.label.text(), timeout=60_000)
        assert panel.message.isVisible() and panel.message.level == "info"
    finally:
        window.close()
