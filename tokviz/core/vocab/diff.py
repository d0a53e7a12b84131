"""What changed between two vocabularies: tokens shared, added, removed, and renumbered.

Counted on ordinary token byte strings (see :mod:`.table`); special tokens are compared apart, by
their text. ``same_id`` are shared tokens with the same id in both, ``renumbered`` shared ones whose
id changed (Llama 3 → Llama 4 renumbers almost everything).

>>> from tokviz.core.bpe.model import BPEModel
>>> a = BPEModel(mode="byte", merges=[(104, 105, 256)], name="a")
>>> b = BPEModel(mode="byte", merges=[(104, 97, 256), (104, 105, 257)], name="b")
>>> d = vocab_diff(a, b)
>>> d.counts()["shared"], d.only_second, d.renumbered
(257, (b'ha',), (b'hi',))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tokviz.core.vocab.ranks import VocabState
from tokviz.core.vocab.scripts import census
from tokviz.core.vocab.table import VocabTable, vocab_table


@dataclass(frozen=True)
class VocabDiff:
    """Each list sorted by the first vocabulary's id (``only_second``: by the second's)."""

    first: VocabTable
    second: VocabTable
    shared: tuple[bytes, ...]
    only_first: tuple[bytes, ...]
    only_second: tuple[bytes, ...]
    same_id: tuple[bytes, ...]
    renumbered: tuple[bytes, ...]
    specials_shared: tuple[str, ...]
    specials_only_first: tuple[str, ...]
    specials_only_second: tuple[str, ...]

    def counts(self) -> dict[str, int]:
        return {"first_size": len(self.first.ids), "second_size": len(self.second.ids),
                "shared": len(self.shared), "only_first": len(self.only_first),
                "only_second": len(self.only_second), "same_id": len(self.same_id),
                "renumbered": len(self.renumbered), "specials_shared": len(self.specials_shared),
                "specials_only_first": len(self.specials_only_first),
                "specials_only_second": len(self.specials_only_second)}

    def census(self) -> dict[str, dict[str, int]]:
        """Per-script token counts of each vocabulary (see :mod:`.scripts`)."""
        return {name: dict(counts) for name, counts in self._census.items()}

    @cached_property
    def _census(self) -> dict[str, dict[str, int]]:  # the JSON export asks again, and each is 300k tokens
        return {self.first.encoder: census(self.first.ids), self.second.encoder: census(self.second.ids)}

    def as_json(self, *, lists: bool = True) -> dict:
        a, b = self.first.ids, self.second.ids

        def rows(tokens, *tables):
            return [[t.decode("utf-8", "backslashreplace"), *(tab[t] for tab in tables)] for t in tokens]

        out = {"first": self.first.encoder, "second": self.second.encoder, **self.counts(),
               "census": self.census()}
        if lists:
            out.update({
                "lists": "each row: [token (bytes as UTF-8, others as \\xNN), id in first, id in second]",
                "shared_tokens": rows(self.shared, a, b), "only_first_tokens": rows(self.only_first, a),
                "only_second_tokens": rows(self.only_second, b), "renumbered_tokens": rows(self.renumbered, a, b),
                "specials": {"shared": list(self.specials_shared), "only_first": list(self.specials_only_first),
                             "only_second": list(self.specials_only_second)},
            })
        return out


def vocab_diff(first, second, state: VocabState | None = None) -> VocabDiff:
    """Compare two encoders' vocabularies (each table cached per encoder object)."""
    a, b = vocab_table(first, state), vocab_table(second, state)
    a_ids, b_ids = a.ids, b.ids
    # Python loops rather than set operations and ``sorted``: one C call over 200,000 tokens holds
    # the GIL from start to end, and the interface's window froze for a second behind it
    shared = _by_id([t for t in a_ids if t in b_ids], a_ids)
    only_a = _by_id([t for t in a_ids if t not in b_ids], a_ids)
    only_b = _by_id([t for t in b_ids if t not in a_ids], b_ids)
    same = tuple(t for t in shared if a_ids[t] == b_ids[t])
    moved = tuple(t for t in shared if a_ids[t] != b_ids[t])
    sa, sb = a.specials, b.specials
    return VocabDiff(a, b, shared, only_a, only_b, same, moved,
                     tuple(s for s in sa if s in sb), tuple(s for s in sa if s not in sb),
                     tuple(s for s in sb if s not in sa))


def _by_id(tokens: list[bytes], ids) -> tuple[bytes, ...]:
    """``tokens`` in the order of their ids in ``ids`` (ids are unique; numpy sorts without the GIL)."""
    keys = np.fromiter((ids[t] for t in tokens), dtype=np.int64, count=len(tokens))
    return tuple(tokens[i] for i in np.argsort(keys, kind="stable"))
