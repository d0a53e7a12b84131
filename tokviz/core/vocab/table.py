"""An encoder's vocabulary as a table of ``{token bytes: id}``, built once per encoder object.

Byte strings, not ids or display pieces, are what two vocabularies can share (SentencePiece's
``▁the`` and GPT's `` the`` are the same bytes). Special tokens are kept apart, and ids that stand for
no bytes (holes in the id space, SentencePiece's ``<unk>``) are left out. When two ids share the same
bytes (a SentencePiece byte-fallback ``<0x41>`` and ``A``), the lower id is the token's id.
"""

from __future__ import annotations

import unicodedata
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tokviz.core.vocab.ranks import HasRanks, NoState, VocabState, check_cancel


@dataclass(frozen=True)
class VocabTable:
    """``ids``: ordinary token bytes → id; ``specials``: special token text → id."""

    encoder: str
    ids: Mapping[bytes, int]
    specials: Mapping[str, int]

    def bytes_of(self) -> dict[int, bytes]:
        return {i: b for b, i in self.ids.items()}


_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def vocab_table(encoder, state: VocabState | None = None) -> VocabTable:
    """The :class:`VocabTable` of ``encoder`` (cached per encoder object; a cancelled walk is not cached).

    >>> from tokviz.core.bpe.model import BPEModel
    >>> t = vocab_table(BPEModel(mode="byte", merges=[(104, 105, 256)], special_tokens=["<s>"]))
    >>> t.ids[b"hi"], t.specials
    (256, {'<s>': 257})
    """
    hit = _cache.get(encoder)
    if hit is not None:
        return hit
    state = state or NoState()
    if isinstance(encoder, HasRanks):  # the rank table is the vocabulary: no walk over every id
        table = VocabTable(encoder.name, encoder.mergeable_ranks(), dict(encoder.special_tokens()))
        _cache[encoder] = table
        return table
    specials = dict(encoder.special_tokens())
    special_ids = set(specials.values())
    ids: dict[bytes, int] = {}
    n = encoder.vocab_size
    for token_id in range(n):
        if token_id % 8192 == 0:
            check_cancel(state)
            state.progress(token_id, n)
        if token_id in special_ids:
            continue
        try:
            data = encoder.token_bytes(token_id)
        except Exception:  # a hole in the id space is no token
            continue
        if data:
            ids.setdefault(data, token_id)
    state.progress(n, n)
    table = VocabTable(encoder.name, ids, specials)
    _cache[encoder] = table
    return table


def fast_ids(encoder) -> Callable[[str], list[int]]:
    """A ``text -> ids`` function equal to ``encoder.encode(text).ids`` (special-token strings as
    text) without building an Encoding: a rank encoder's own ``tiktoken.Encoding`` (after NFC for
    Qwen) when it has one, else ``encode``."""
    tt = getattr(encoder, "tiktoken", None)
    if isinstance(encoder, HasRanks) and tt is not None:
        nfc = bool(getattr(encoder, "nfc", False))
        encode = tt.encode_ordinary

        def ids(text: str) -> list[int]:
            return encode(unicodedata.normalize("NFC", text) if nfc else text)

        return ids
    return lambda text: [int(i) for i in encoder.encode(text).ids]
