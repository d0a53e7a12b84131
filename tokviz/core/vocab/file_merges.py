"""Merges a tokenizer.json (or GGUF) byte-level BPE carries in its file, in the same shape as merges
recovered from a rank file, so the merge tree, the lists and the CLI treat both alike.

Nothing is recovered here: the file says which pair makes which token. A token may be made by several
merges (Llama 3.2's tokenizer.json lists 280,147 merges for 128,000 tokens: every split tiktoken could
join); its tree uses the first, and its *merge rank* is that merge's position in the file. A
multi-byte token that no merge makes is unbuilt, with the parts the file's merges stop at.
"""

from __future__ import annotations

from tokviz.core.bpe.merge import apply_merges
from tokviz.core.encoders.hf_json import HFTokenizerEncoder
from tokviz.core.errors import TokvizError
from tokviz.core.vocab.merges import RecoveredMerges
from tokviz.core.vocab.ranks import NoState, VocabState, check_cancel


def file_merges(encoder, state: VocabState | None = None) -> RecoveredMerges:
    """The merges of a byte-level BPE tokenizer.json (or GGUF) encoder, as its file lists them
    (:meth:`HFTokenizerEncoder.model_json`); TokvizError for any other model."""
    state = state or NoState()
    model = encoder.model_json() if isinstance(encoder, HFTokenizerEncoder) else {}
    if model.get("type") != "BPE" or not encoder.byte_level:
        raise TokvizError(f"{encoder.name} is not a byte-level BPE model; it has no merges to show")
    vocab: dict[str, int] = model.get("vocab") or {}
    added = set(encoder.added_tokens()) if hasattr(encoder, "added_tokens") else set()
    token_bytes = {i: encoder.token_bytes(i) for i in vocab.values() if i not in added}
    merges: list[tuple[int, int, int]] = []
    first: dict[int, int] = {}  # token id -> position of the first merge that makes it
    pair_rank: dict[tuple[bytes, bytes], int] = {}
    listed = model.get("merges") or []
    for k, m in enumerate(listed):
        if k % 16384 == 0:
            check_cancel(state)
            state.progress(k, len(listed))
        a, b = m.split(" ", 1) if isinstance(m, str) else m
        ia, ib, it = vocab.get(a), vocab.get(b), vocab.get(a + b)
        if ia is None or ib is None or it is None:
            raise TokvizError(f"{encoder.name}: merge {k} ({a!r}, {b!r}) names a token the vocabulary lacks")
        pair_rank.setdefault((token_bytes[ia], token_bytes[ib]), k)
        if it not in first:
            first[it] = k
            merges.append((ia, ib, it))
    unbuilt: dict[int, tuple[int, ...]] = {}
    by_bytes = {b: i for i, b in sorted(token_bytes.items(), reverse=True)}  # the lowest id for shared bytes
    for tid, data in token_bytes.items():
        if len(data) > 1 and tid not in first:
            parts = apply_merges([data[i:i + 1] for i in range(len(data))],
                                 lambda x, y: pair_rank.get((x, y)), bytes.__add__)
            unbuilt[tid] = tuple(by_bytes[p] for p in parts)
    state.progress(len(listed), len(listed))
    return RecoveredMerges(encoder.name, tuple(merges), tuple(sorted(unbuilt)), unbuilt, token_bytes,
                           {t: (a, b) for a, b, t in merges}, first)
