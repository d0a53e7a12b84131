"""The merges of any encoder that has them, one object per encoder: recovered from a rank table
(:mod:`.merges`) or read from the merges a tokenizer.json / GGUF file lists (:mod:`.file_merges`).

This module picks between the two, so neither of them needs the other.
"""

from __future__ import annotations

import weakref

from tokviz.core.vocab.file_merges import file_merges
from tokviz.core.vocab.merges import RecoveredMerges, TokenMerges, recover_from_ranks
from tokviz.core.vocab.ranks import HasRanks, VocabState, rank_table

_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def recover_merges(encoder, state: VocabState | None = None) -> RecoveredMerges:
    """:func:`recover_from_ranks` of a rank encoder, or the merges a byte-level BPE tokenizer.json
    or GGUF file lists (:mod:`.file_merges`), cached per encoder object (an encoder never changes).
    TokvizError for an encoder that has neither."""
    hit = _cache.get(encoder)
    if hit is None:
        if not isinstance(encoder, HasRanks) and hasattr(encoder, "tokenizer"):
            hit = file_merges(encoder, state)
        else:
            hit = recover_from_ranks(rank_table(encoder), encoder.name, state)
        _cache[encoder] = hit
    return hit


_lazy: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def token_merges(encoder) -> TokenMerges | RecoveredMerges:
    """Merges for single-token work (trees, search), one per encoder object: a :class:`TokenMerges`
    of a rank encoder, or the merges a tokenizer.json / GGUF file lists (read whole: they are there)."""
    if not isinstance(encoder, HasRanks):
        return recover_merges(encoder)
    hit = _lazy.get(encoder)
    if hit is None:
        hit = TokenMerges(rank_table(encoder), encoder.name)
        _lazy[encoder] = hit
    return hit
