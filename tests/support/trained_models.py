"""Small models of every algorithm tokviz trains, from the Korean test corpus plus some English:
enough merges / pieces to make real files, quick enough to build in a fixture."""

from __future__ import annotations

from pathlib import Path

from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer

CORPUS = Path(__file__).resolve().parent.parent / "data" / "nsmc_ko_600.txt"
ENGLISH = "the lowest newest wider tokens of a merge 🙂 print(x)\n" * 20


def corpus_lines() -> list[str]:
    """The Korean corpus and a few English lines, with their line ends."""
    return (CORPUS.read_text(encoding="utf-8") + ENGLISH).splitlines(keepends=True)


def bpe_model(mode: str, merges: int):
    trainer = BPETrainer(TrainerConfig(mode=mode, merges=merges, min_frequency=2))
    for _ in trainer.run(corpus_lines()):
        pass
    return trainer.model()


def wordpiece_model(vocab_size: int):
    trainer = WordPieceTrainer(WordPieceConfig(vocab_size=vocab_size))
    for _ in trainer.run(corpus_lines()):
        pass
    return trainer.model()


def unigram_model(vocab_size: int):
    trainer = UnigramTrainer(UnigramConfig(vocab_size=vocab_size))
    for _ in trainer.run(corpus_lines()):
        pass
    return trainer.model()
