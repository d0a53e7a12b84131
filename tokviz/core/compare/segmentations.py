"""Other segmentations of a text by a SentencePiece unigram model: its n best and random samples."""

from __future__ import annotations

from dataclasses import dataclass

from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import TokvizError, check_text


@dataclass(frozen=True)
class Segmentations:
    """A SentencePiece unigram model's best segmentations of a text (most likely first) and random
    ones sampled from its lattice (subword regularization, smoothed by ``alpha``)."""

    encoder: str
    text: str
    nbest: tuple[tuple[str, ...], ...]
    samples: tuple[tuple[str, ...], ...]
    alpha: float


def alternative_segmentations(
    encoder: Encoder, text: str, *, nbest: int = 5, samples: int = 5, alpha: float = 0.1, seed: int = 0
) -> Segmentations:
    """N-best and sampled segmentations of ``text`` by a SentencePiece unigram model.

    Sampling is seeded (``seed``) so a screenshot or test shows the same samples every time.
    Raises TokvizError for other encoders: only a unigram model scores whole segmentations.
    """
    processor = getattr(encoder, "processor", None)
    info = getattr(encoder, "info", None)
    if processor is None or getattr(info, "model_type", None) != "unigram":
        raise TokvizError(
            f"{getattr(encoder, 'name', encoder)} is not a SentencePiece unigram model; "
            "n-best and sampled segmentations need one"
        )
    check_text(text)
    if not text.strip():
        return Segmentations(encoder.name, text, (), (), alpha)
    import sentencepiece

    best = tuple(tuple(p) for p in processor.nbest_encode_as_pieces(text, nbest))
    sentencepiece.set_random_generator_seed(seed)
    drawn = tuple(tuple(processor.sample_encode_as_pieces(text, -1, alpha)) for _ in range(samples))
    return Segmentations(encoder.name, text, best, drawn, alpha)
