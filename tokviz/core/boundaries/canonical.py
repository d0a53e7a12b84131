"""Canonical ids: does an id sequence equal what its encoder gives for the text it decodes to?

A model may emit `` hel`` + ``lo`` where the encoder writes `` hello`` as one token: the text is
the same, the ids are not. A pipeline that re-encodes the text gets other ids than the model produced
(KL spikes in RL fine-tuning). :func:`check_canonical` decodes, re-encodes, finds where the two
sequences part and meet again, and counts the other ways the vocabulary can spell that stretch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from tokviz.core.boundaries.vocabulary import TokenTable, check_ids, token_table

MAX_STRETCH = 256  # bytes of a differing stretch whose segmentations are counted and listed
MAX_LISTED = 20


@dataclass(frozen=True)
class Divergence:
    """Where two id sequences over the same bytes part (``index_a``/``index_b``: first differing token in
    each; ``byte_start``) and meet again (``byte_end``, the next byte offset both have a boundary at;
    ``end_a``/``end_b``: token indexes there). ``segmentations`` counts every way the vocabulary spells
    the stretch; ``examples`` lists up to :data:`MAX_LISTED` of them, fewest tokens first (None when the
    stretch is longer than :data:`MAX_STRETCH` bytes)."""

    index_a: int
    index_b: int
    end_a: int
    end_b: int
    byte_start: int
    byte_end: int
    stretch: bytes
    segmentations: int | None
    examples: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class CanonicalCheck:
    """The given ``ids``, the ``text`` they decode to, and the encoder's ``canonical_ids`` for that text.

    ``offsets``/``canonical_offsets``: byte offset where each token starts (one more at the end), for
    rows aligned on the text. ``divergence``: the first place they differ, None when canonical.
    ``valid_utf8`` False means no text encodes back to the ids at all: their bytes are not UTF-8.
    """

    encoder: str
    ids: tuple[int, ...]
    text: str
    canonical_ids: tuple[int, ...]
    offsets: tuple[int, ...]
    canonical_offsets: tuple[int, ...]
    divergence: Divergence | None
    valid_utf8: bool = True  # False: the ids' bytes break off inside a character (decoded as U+FFFD)

    @property
    def is_canonical(self) -> bool:
        return self.ids == self.canonical_ids

    def as_json(self) -> dict:
        d = self.divergence
        return {
            "encoder": self.encoder, "ids": list(self.ids), "text": self.text,
            "canonical_ids": list(self.canonical_ids), "is_canonical": self.is_canonical,
            "whole_characters": self.valid_utf8,
            "divergence": None if d is None else {
                "index": d.index_a, "canonical_index": d.index_b, "byte_start": d.byte_start,
                "byte_end": d.byte_end, "ids": list(self.ids[d.index_a:d.end_a]),
                "canonical_ids": list(self.canonical_ids[d.index_b:d.end_b]),
                "stretch": d.stretch.decode("utf-8", "replace"), "stretch_bytes": d.stretch.hex(" "),
                "segmentations": d.segmentations, "examples": [list(e) for e in d.examples],
            },
        }


def count_segmentations(data: bytes, table: TokenTable) -> int:
    """How many id sequences of ordinary tokens spell ``data`` exactly.

    >>> count_segmentations(b"abc", TokenTable({1: b"a", 2: b"b", 3: b"c", 4: b"ab", 5: b"bc"}))
    3
    """
    ways = [0] * (len(data) + 1)
    ways[0] = 1
    for end in range(1, len(data) + 1):
        for start in range(max(0, end - table.max_len), end):
            if ways[start]:
                ways[end] += ways[start] * len(table.ids_of(data[start:end]))
    return ways[len(data)]


def list_segmentations(data: bytes, table: TokenTable, limit: int = MAX_LISTED) -> list[tuple[int, ...]]:
    """Up to ``limit`` id sequences spelling ``data``, fewest tokens first (then by ids).

    >>> list_segmentations(b"abc", TokenTable({1: b"a", 2: b"b", 3: b"c", 4: b"ab", 5: b"bc"}))
    [(1, 5), (4, 3), (1, 2, 3)]
    """
    n = len(data)
    # fewest tokens from each offset to the end, so the search below goes shortest-first without a heap
    inf = n + 1
    rest = [inf] * (n + 1)
    rest[n] = 0
    for start in range(n - 1, -1, -1):
        for end in range(start + 1, min(n, start + table.max_len) + 1):
            if rest[end] < inf and table.ids_of(data[start:end]):
                rest[start] = min(rest[start], rest[end] + 1)
    if rest[0] == inf:
        return []
    found: list[tuple[int, ...]] = []
    for length in range(rest[0], n + 1):
        _spell(data, table, 0, length, (), rest, found, limit)
        if len(found) >= limit:
            break
    return found[:limit]


def _spell(data, table, pos, left, prefix, rest, found, limit) -> None:
    """Append the sequences of exactly ``left`` more tokens spelling ``data[pos:]`` (depth ≤ stretch length)."""
    if len(found) >= limit:
        return
    if pos == len(data):
        if left == 0:
            found.append(prefix)
        return
    if left <= 0 or rest[pos] > left or len(data) - pos < left:
        return
    for end in range(pos + 1, min(len(data), pos + table.max_len) + 1):
        for token_id in table.ids_of(data[pos:end]):
            _spell(data, table, end, left - 1, (*prefix, token_id), rest, found, limit)


def _offsets(encoder, ids: Sequence[int]) -> tuple[int, ...]:
    return (0, *accumulate(len(encoder.token_bytes(i)) for i in ids))


def find_divergence(a: Sequence[int], a_off: Sequence[int], b: Sequence[int], b_off: Sequence[int]):
    """``(index_a, index_b, end_a, end_b)``: the first token where ``a`` and ``b`` differ and the next token
    boundary they share, or None when equal. ``*_off`` are each token's start offset plus the end.

    >>> find_divergence([1, 2, 3, 9], [0, 1, 2, 3, 4], [1, 5, 9], [0, 1, 3, 4])
    (1, 1, 3, 2)
    """
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    if i == len(a) and i == len(b):
        return None
    ends_b = {off: k for k, off in enumerate(b_off)}
    for k in range(i + 1, len(a_off)):
        if a_off[k] in ends_b and ends_b[a_off[k]] > i:
            return i, i, k, ends_b[a_off[k]]
    return i, i, len(a), len(b)


def check_canonical(encoder, ids: Sequence[int], *, state=None) -> CanonicalCheck:
    """Decode ``ids``, re-encode the text, and compare.

    >>> from tokviz.core.encoders.builtin import default_registry
    >>> enc = default_registry().get("cl100k_base")
    >>> check = check_canonical(enc, enc.encode(" hel").ids + enc.encode("lo").ids)
    >>> check.text, check.is_canonical, check.canonical_ids == tuple(enc.encode(" hello").ids)
    (' hello', False, True)
    """
    ids = tuple(check_ids(encoder, ids))
    text = encoder.decode(list(ids))
    canonical = tuple(encoder.encode(text, allow_special=_has_special(encoder, ids)).ids)
    offsets, canonical_offsets = _offsets(encoder, ids), _offsets(encoder, canonical)
    where = find_divergence(ids, offsets, canonical, canonical_offsets)
    divergence = None
    if where is not None:
        ia, ib, ea, eb = where
        start, end = offsets[ia], offsets[ea]
        stretch = b"".join(encoder.token_bytes(t) for t in ids[ia:ea])
        count, examples = None, ()
        if len(stretch) <= MAX_STRETCH:
            table = token_table(encoder, state)
            count = count_segmentations(stretch, table)
            examples = tuple(list_segmentations(stretch, table))
        divergence = Divergence(ia, ib, ea, eb, start, end, stretch, count, examples)
    try:
        b"".join(encoder.token_bytes(t) for t in ids).decode("utf-8")
        valid = True
    except UnicodeDecodeError:
        valid = False
    return CanonicalCheck(encoder.name, ids, text, canonical, offsets, canonical_offsets, divergence, valid)


def _has_special(encoder, ids: Sequence[int]) -> bool:
    # a special token the model emitted must come back as that token, not as its text spelled out
    specials = set(encoder.special_tokens().values())
    return any(i in specials for i in ids)
