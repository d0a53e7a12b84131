"""The settings of a Unigram run, apart from the trainer so that the seeding (which the trainer
runs) can read them without importing the trainer."""

from __future__ import annotations

from dataclasses import dataclass

from tokviz.core.errors import TokvizError
from tokviz.core.unigram.model import META_PIECES


@dataclass(frozen=True)
class UnigramConfig:
    """Settings of a Unigram run (SentencePiece's names and defaults).

    ``vocab_size`` counts the meta pieces ``<unk> <s> </s>``, as SentencePiece does.
    ``max_distinct_words`` caps the word table while counting (None:
    :data:`tokviz.core.word_counts.UNIGRAM_DISTINCT_WORDS_CAP`; SentencePiece's ``input_sentence_size``
    plays this part): more distinct words train on a deterministic sample, and a note says so.
    """

    vocab_size: int = 8000
    character_coverage: float = 1.0
    seed_size: int = 1_000_000
    shrinking_factor: float = 0.75
    num_sub_iterations: int = 2
    max_piece_length: int = 16
    max_distinct_words: int | None = None

    def check(self) -> None:
        if self.vocab_size < len(META_PIECES) + 1:
            raise TokvizError(f"the vocabulary size must be at least {len(META_PIECES) + 1}, not {self.vocab_size}")
        if not 0.0 < self.character_coverage <= 1.0:
            raise TokvizError(f"character coverage must be in (0, 1], not {self.character_coverage}")
        if not 0.0 < self.shrinking_factor < 1.0:
            raise TokvizError(f"the shrinking factor must be between 0 and 1, not {self.shrinking_factor}")
        if self.num_sub_iterations < 1 or self.max_piece_length < 1 or self.seed_size < 1:
            raise TokvizError("num_sub_iterations, max_piece_length and seed_size must be at least 1")
