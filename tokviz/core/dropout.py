"""BPE-dropout over many samples: how often each token boundary appears.

BPE-dropout (Provilkov et al. 2020) skips each applicable merge with probability ``p``, so one text
gets a different segmentation at every sample; subword regularization trains on that variety. What a
student wants to see is the *distribution*: which boundaries are certain (always there, like the
space before a word), which appear sometimes, and which only when dropout undoes a merge.

A boundary is a byte offset inside the text where one token ends and the next begins; offsets that
fall inside a character are kept too (byte-level BPE cuts characters).

>>> from tokviz.core.bpe.model import BPEModel
>>> m = BPEModel(mode="byte", merges=[(104, 105, 256)])
>>> s = boundary_frequencies(m, "hi", p=0.5, samples=200, seed=1)
>>> s.samples, sorted(s.counts), 0.3 < s.frequency(1) < 0.7
(200, [1], True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from tokviz.core.encoders.base import SupportsDropout
from tokviz.core.errors import TokvizError

MAX_SAMPLES = 10_000


@dataclass(frozen=True)
class BoundaryStats:
    """``counts[offset]``: in how many of ``samples`` segmentations a token boundary sits at byte
    ``offset`` (0 < offset < len(text in UTF-8)); ``plain`` are the boundaries of plain encoding."""

    text: str
    p: float
    samples: int
    counts: dict[int, int]
    plain: frozenset[int]

    def frequency(self, offset: int) -> float:
        return self.counts.get(offset, 0) / self.samples if self.samples else 0.0

    def mean_tokens(self) -> float:
        """Average tokens per sample (boundaries + 1 for a non-empty text)."""
        if not self.samples or not self.text:
            return 0.0
        return 1.0 + sum(self.counts.values()) / self.samples


def supports_dropout(encoder) -> bool:
    """Whether ``encoder`` can encode with BPE-dropout (tokviz's own BPE models can)."""
    return isinstance(encoder, SupportsDropout)


def _boundaries(encoding) -> set[int]:
    ends = {t.byte_end for t in encoding.tokens}
    total = len(encoding.text.encode("utf-8"))
    return {e for e in ends if 0 < e < total}


def boundary_frequencies(encoder, text: str, *, p: float, samples: int = 100, seed: int | None = None,
                         allow_special: bool = False) -> BoundaryStats:
    """Encode ``text`` ``samples`` times with dropout ``p`` (seeded: sample ``i`` uses seed
    ``seed * 1_000_003 + i``, so the same seed gives the same statistics) and count each boundary.

    Raises TokvizError when the encoder cannot do dropout or the numbers are out of range.
    """
    if not supports_dropout(encoder):
        raise TokvizError(f"{getattr(encoder, 'name', encoder)} cannot encode with BPE-dropout: dropout "
                          "applies to BPE models tokviz runs itself (trained in tokviz, opened from a "
                          "tokviz, subword-nmt or GPT-2 vocab.json + merges.txt file, or a rank vocabulary "
                          "through tokviz.core.vocab.export.with_dropout)")
    if not 1 <= samples <= MAX_SAMPLES:
        raise TokvizError(f"samples must be between 1 and {MAX_SAMPLES:,}, not {samples}")
    if not 0.0 <= p <= 1.0:
        raise TokvizError(f"dropout probability must be between 0 and 1, got {p}")
    base = 0 if seed is None else seed * 1_000_003
    counts: Counter = Counter()
    for i in range(samples):
        enc = encoder.encode_dropout(text, p, seed=None if seed is None else base + i, allow_special=allow_special)
        counts.update(_boundaries(enc))
    plain = frozenset(_boundaries(encoder.encode(text, allow_special=allow_special)))
    return BoundaryStats(text, p, samples, dict(counts), plain)
