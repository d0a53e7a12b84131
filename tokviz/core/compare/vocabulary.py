"""How much two encoders' vocabularies share, compared as sets of token byte strings."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tokviz.core.compare.corpus import CompareState
from tokviz.core.encoders.base import Encoder


def vocabulary(encoder: Encoder, state: CompareState | None = None) -> frozenset[bytes]:
    """The byte strings of an encoder's ordinary tokens (special tokens and ids that stand for no
    bytes, such as SentencePiece's ``<unk>``/``<s>`` control pieces, are left out).

    Byte strings, not ids or surface forms, are what two vocabularies can share: SentencePiece's
    ``▁the`` and GPT's `` the`` are the same bytes.
    """
    specials = set(encoder.special_tokens().values())
    out = set()
    n = encoder.vocab_size
    for token_id in range(n):
        if token_id in specials:
            continue
        if state is not None and token_id % 8192 == 0 and state.is_cancelled():
            break
        try:
            b = encoder.token_bytes(token_id)
        except Exception:  # holes in the id space (cl100k_base has some) are not tokens
            continue
        if b:
            out.add(b)
    return frozenset(out)


@dataclass(frozen=True)
class VocabOverlap:
    """How much two vocabularies share, as sets of token byte strings."""

    a: str
    b: str
    size_a: int
    size_b: int
    shared: int
    jaccard: float
    shared_examples: tuple[bytes, ...]
    only_a_examples: tuple[bytes, ...]
    only_b_examples: tuple[bytes, ...]

    def describe(self) -> str:
        return (
            f"{self.a}: {self.size_a:,} tokens · {self.b}: {self.size_b:,} tokens · "
            f"shared {self.shared:,} · Jaccard {self.jaccard:.3f}"
        )

    def as_json(self) -> dict:
        def show(bs: tuple[bytes, ...]) -> list[str]:
            return [b.decode("utf-8", "backslashreplace") for b in bs]

        return {
            "a": self.a, "b": self.b, "size_a": self.size_a, "size_b": self.size_b,
            "shared": self.shared, "jaccard": round(self.jaccard, 6),
            "shared_examples": show(self.shared_examples),
            "only_a_examples": show(self.only_a_examples),
            "only_b_examples": show(self.only_b_examples),
        }


def _examples(tokens: Iterable[bytes], n: int) -> tuple[bytes, ...]:
    # Long word-like tokens say the most about a vocabulary (" tokenization", "습니다"); runs of one
    # repeated character ("--------") are long but say nothing.
    def readable(b: bytes) -> bool:
        try:
            s = b.decode("utf-8").strip()
        except UnicodeDecodeError:
            return False
        return len(set(s)) > 2 and sum(c.isalpha() for c in s) * 2 > len(s)

    return tuple(sorted((b for b in tokens if readable(b)), key=lambda b: (-len(b.decode("utf-8")), b))[:n])


def overlap_of(a_name: str, a: frozenset[bytes], b_name: str, b: frozenset[bytes], examples: int = 12) -> VocabOverlap:
    """Overlap of two token byte-string sets.

    >>> overlap_of("x", frozenset({b"a", b"b", b"ab"}), "y", frozenset({b"a", b"b", b"c"})).jaccard
    0.5
    """
    shared = a & b
    union = len(a | b)
    return VocabOverlap(
        a_name, b_name, len(a), len(b), len(shared), len(shared) / union if union else 0.0,
        _examples(shared, examples), _examples(a - b, examples), _examples(b - a, examples),
    )


def vocab_overlap(a: Encoder, b: Encoder, state: CompareState | None = None, examples: int = 12) -> VocabOverlap:
    """Shared token byte strings of two encoders and their Jaccard index |A∩B| / |A∪B|."""
    return overlap_of(a.name, vocabulary(a, state), b.name, vocabulary(b, state), examples)
