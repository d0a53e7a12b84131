"""Merges recovered from a rank table, the merge tree of any token, and export as a tokviz BPE model.

A rank file lists tokens, not merges. The merge that builds token ``t`` (rank ``r``) is what
tiktoken's own algorithm makes of ``t``'s bytes with the ranks below ``r`` only: if that stops at
two parts, they are ``t``'s parents; if it stops at three or more, no merge of two existing tokens
ever builds ``t`` from its own bytes (Llama 3's ``.:.:`` stops at ``. :. :``), and it is reported as
*unbuilt*, not given invented parents. An unbuilt token can still appear, in two ways: tiktoken
returns a pre-split piece that is itself a token as that one token, and inside a longer piece the
neighbours can leave two other tokens side by side that spell it (in `` ::.:.:`` the `` ::`` takes a
colon first, ``.:.`` + ``:`` remain, and tiktoken joins *any* adjacent pair whose bytes are a token,
whatever the two parts' own ranks). Those pairs are :func:`context_splits`. So the merge list alone
is the tree each token is built by from its own bytes; an engine that merges from a list re-encodes
exactly when each token also joins from its context splits, and the tokviz export (:mod:`.export`)
merges by the rank of the joined bytes, as tiktoken does, so it is exact for every vocabulary.

>>> ranks = {**{bytes([i]): i for i in range(256)}, b"ab": 256, b"abc": 257, b"bcd": 258, b"abcd": 259}
>>> rec = recover_from_ranks(ranks, fast=False)
>>> rec.merges, rec.unbuilt
(((97, 98, 256), (256, 99, 257), (257, 100, 259)), (258,))
>>> rec.unbuilt_parts[258]
(98, 99, 100)
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field

from tokviz.core.bpe.merge import apply_merges
from tokviz.core.byte_names import byte_parts, name_merge
from tokviz.core.display import visible_piece
from tokviz.core.errors import TokvizError
from tokviz.core.vocab.ranks import NoState, VocabState, check_cancel

# tiktoken rebuilds its table at the start of each block of ranks. A block is as large as all the ranks
# before it (at least _FIRST_BLOCK): the tables then add up to twice the vocabulary, and few of a
# block's tokens still need the Python merge (with blocks of 65,536 most of the first block's did:
# o200k took 2.2 s, now under 1 s).
_FIRST_BLOCK = 2048
_BLOCK_GROWTH = 2.0  # 1.0: every block _FIRST_BLOCK ranks


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: the tables are large
class RecoveredMerges:
    """``merges``: ``(left id, right id, new id)`` in rank order, ids being the encoder's ranks;
    ``unbuilt``: multi-byte tokens no merge of two lower-ranked tokens builds, with the parts the
    merges stop at in ``unbuilt_parts``; ``token_bytes``: every ordinary token's bytes."""

    encoder: str
    merges: tuple[tuple[int, int, int], ...]
    unbuilt: tuple[int, ...]
    unbuilt_parts: Mapping[int, tuple[int, ...]]
    token_bytes: Mapping[int, bytes]
    children: Mapping[int, tuple[int, int]] = field(repr=False, default_factory=dict)
    # token id -> its merge's position in a file that lists merges (tokenizer.json); empty for rank
    # files, where the rank is the id
    merge_rank: Mapping[int, int] = field(repr=False, default_factory=dict)

    def parents(self, token_id: int) -> tuple[int, ...]:
        """The two ids merged into ``token_id``; for an unbuilt token the 3+ parts the merges stop
        at; ``()`` for a single byte."""
        return self.children.get(token_id) or tuple(self.unbuilt_parts.get(token_id, ()))

    def as_json(self, *, limit: int | None = None) -> dict:
        merges = self.merges if limit is None else self.merges[:limit]
        tb = self.token_bytes
        return {
            "encoder": self.encoder,
            "merges_count": len(self.merges),
            "unbuilt_count": len(self.unbuilt),
            "merges": [[a, b, t] for a, b, t in merges],
            "merges_shown": [[_show(tb[a]), _show(tb[b])] for a, b, _ in merges],
            "unbuilt": [{"id": t, "token": _show(tb[t]), "stops_at": list(self.unbuilt_parts[t]),
                         "context_splits": [list(p) for p in context_splits(self, t)]} for t in self.unbuilt],
        }


def _show(data: bytes) -> str:
    return data.decode("utf-8", "backslashreplace")


def recover_from_ranks(ranks: Mapping[bytes, int], name: str = "ranks", state: VocabState | None = None,
                       *, fast: bool = True) -> RecoveredMerges:
    """Recover the merges behind ``ranks`` (see the module docstring).

    ``fast`` lets tiktoken do the bulk of each token's merging against a table of the ranks below
    the current block (a Python merge of every token of o200k takes ~13 s; this ~1 s); the last
    merges within the block run in Python. Both routes give the same result (tested).
    """
    state = state or NoState()
    singles = {b: r for b, r in ranks.items() if len(b) == 1}
    if len(singles) != 256:
        raise TokvizError(f"{name}: {256 - len(singles)} of the 256 single bytes have no rank; not a byte-level "
                          "rank vocabulary")
    order = sorted((r, b) for b, r in ranks.items() if len(b) > 1)
    lower: dict[bytes, int] = dict(singles)
    merges: list[tuple[int, int, int]] = []
    unbuilt: dict[int, tuple[int, ...]] = {}
    bytes_of = {r: b for b, r in ranks.items()}
    for start, end in _blocks(len(order)):
        check_cancel(state)
        block = order[start:end]
        begin = _tiktoken_begin(lower) if fast else None
        for k, (r, b) in enumerate(block):
            if k % 4096 == 0:
                check_cancel(state)
                state.progress(start + k, len(order))
            if begin is not None:
                ids = begin(b)
                if len(ids) == 2:  # the one pair left is b itself: nothing below r merges further
                    merges.append((ids[0], ids[1], r))
                    lower[b] = r
                    continue
                # a few parts are left (the merges inside this block): merged here without
                # apply_merges' general machinery, 3 calls a pair (63,000 such tokens in cl100k)
                parts = _merge_below([bytes_of[i] for i in ids], lower, r)
            else:
                parts = apply_merges([b[i:i + 1] for i in range(len(b))], lambda x, y: lower.get(x + y),
                                     bytes.__add__, max_rank=r)
            if len(parts) == 2:
                merges.append((lower[parts[0]], lower[parts[1]], r))
            else:
                unbuilt[r] = tuple(lower[p] for p in parts)
            lower[b] = r
    state.progress(len(order), len(order))
    return RecoveredMerges(
        name, tuple(merges), tuple(sorted(unbuilt)), unbuilt, bytes_of,
        {t: (a, b) for a, b, t in merges},
    )


def _blocks(n: int) -> list[tuple[int, int]]:
    """``(start, end)`` of each block of ``n`` ranks (see ``_FIRST_BLOCK``).

    >>> _blocks(10_000)
    [(0, 2048), (2048, 4096), (4096, 8192), (8192, 10000)]
    """
    out, start = [], 0
    while start < n:
        end = min(n, start + max(_FIRST_BLOCK, int(start * (_BLOCK_GROWTH - 1))))
        out.append((start, end))
        start = end
    return out


def _merge_below(parts: list[bytes], lower: Mapping[bytes, int], limit: int) -> list[bytes]:
    """``apply_merges(parts, ..., max_rank=limit)`` for a short list: the lowest-ranked pair first,
    the leftmost of equal ones, until no pair below ``limit`` is left.

    >>> _merge_below([b"a", b"b", b"c"], {b"ab": 5, b"bc": 3}, 9)
    [b'a', b'bc']
    """
    get = lower.get
    while len(parts) > 1:
        best = limit
        at = -1
        for i in range(len(parts) - 1):
            q = get(parts[i] + parts[i + 1])
            if q is not None and q < best:
                best, at = q, i
        if at < 0:
            break
        parts[at:at + 2] = [parts[at] + parts[at + 1]]
    return parts


def context_splits(rec: RecoveredMerges | TokenMerges, token_id: int) -> list[tuple[int, int]]:
    """Every way to write token ``token_id`` as two tokens (of any rank), other than the parents it is
    built from: the pairs that tiktoken also joins into it when the text around them lets them meet
    (see the module docstring).

    >>> ranks = {**{bytes([i]): i for i in range(256)}, b"ab": 256, b"bc": 257, b"abc": 258}
    >>> recover_from_ranks(ranks, fast=False).parents(258), context_splits(TokenMerges(ranks), 258)
    ((256, 99), [(97, 257)])
    """
    data = rec.token_bytes[token_id]
    rank_of = _rank_index(rec)
    built = rec.parents(token_id)
    out = []
    for cut in range(1, len(data)):
        a, b = rank_of.get(data[:cut]), rank_of.get(data[cut:])
        if a is not None and b is not None and (a, b) != built:
            out.append((a, b))
    return out


_rank_indexes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _rank_index(rec) -> Mapping[bytes, int]:
    if isinstance(rec, TokenMerges):
        return rec.ranks
    hit = _rank_indexes.get(rec)
    if hit is None:
        hit = _rank_indexes[rec] = {b: t for t, b in rec.token_bytes.items()}
    return hit


def _tiktoken_begin(lower: Mapping[bytes, int]):
    """A function giving the ids tiktoken's merge makes of some bytes with the ranks in ``lower``
    (none of which is the bytes themselves, so tiktoken's whole-piece shortcut never applies);
    None when tiktoken is not there."""
    try:
        import tiktoken
    except ImportError:
        return None
    enc = tiktoken.Encoding("tokviz:recover", pat_str=r"[\s\S]+", mergeable_ranks=dict(lower), special_tokens={})
    return enc._core_bpe.encode_single_piece


class TokenMerges:
    """The parents of single tokens, worked out on demand from the rank table (a merge tree opens at
    once; :func:`~tokviz.core.vocab.encoder_merges.recover_merges` of a whole vocabulary takes seconds). Same answers as
    :class:`RecoveredMerges`.

    >>> ranks = {**{bytes([i]): i for i in range(256)}, b"ab": 256, b"abc": 257}
    >>> TokenMerges(ranks).parents(257), TokenMerges(ranks).parents(97)
    ((256, 99), ())
    """

    def __init__(self, ranks: Mapping[bytes, int], name: str = "ranks"):
        self.encoder = name
        self.ranks = ranks
        self.token_bytes = _BytesOf(ranks)
        self._memo: dict[int, tuple[int, ...]] = {}

    def parents(self, token_id: int) -> tuple[int, ...]:
        hit = self._memo.get(token_id)
        if hit is None:
            data = self.token_bytes[token_id]
            if len(data) == 1:
                hit = ()
            else:
                get = self.ranks.get
                parts = apply_merges([data[i:i + 1] for i in range(len(data))], lambda x, y: get(x + y),
                                     bytes.__add__, max_rank=token_id)
                hit = tuple(get(p) for p in parts)
            self._memo[token_id] = hit
        return hit


class _BytesOf(Mapping):
    """``{rank: token bytes}`` built on first use (200,000 entries: ~60 ms)."""

    def __init__(self, ranks: Mapping[bytes, int]):
        self._ranks = ranks
        self._inverse: dict[int, bytes] | None = None

    def _table(self) -> dict[int, bytes]:
        if self._inverse is None:
            self._inverse = {r: b for b, r in self._ranks.items()}
        return self._inverse

    def __getitem__(self, key: int) -> bytes:
        return self._table()[key]

    def __iter__(self):
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._ranks)


# ---- the merge tree of one token -------------------------------------------------------------------
@dataclass(frozen=True)
class MergeNode:
    """One token in a merge tree. ``rank`` is the token's rank (the order its merge comes in);
    ``merge_name`` names ``left + right`` by characters (``것 bytes 1–2 of 3 + …``); ``unbuilt``
    marks a token no merge builds, whose ``stops_at`` are the parts the merges stop at."""

    id: int
    data: bytes
    label: str
    byte_names: str
    left: MergeNode | None = None
    right: MergeNode | None = None
    merge_name: str = ""
    unbuilt: bool = False
    stops_at: tuple[int, ...] = ()
    rank: int | None = None  # the merge's rank: the token's rank in a rank file, its merge's position in a file

    def as_json(self) -> dict:
        out = {"id": self.id, "rank": self.rank, "token": _show(self.data), "hex": self.data.hex(" ").upper(),
               "bytes_named": self.byte_names}
        if self.unbuilt:
            out["not_reachable_by_merges"] = True
            out["stops_at"] = list(self.stops_at)
        if self.left is not None and self.right is not None:
            out["merge"] = self.merge_name
            out["left"] = self.left.as_json()
            out["right"] = self.right.as_json()
        return out

    def lines(self, indent: str = "") -> list[str]:
        """The tree as indented text lines (what the CLI prints)."""
        head = f"{indent}{self.label}  [id {self.id}]"
        if self.unbuilt:
            head += "  not reachable by merges (merges stop at ids " + " ".join(map(str, self.stops_at)) + ")"
        elif self.left is not None:
            head += f"  ← merge rank {self.rank}: {self.merge_name}"
        elif len(self.data) == 1:
            head += f"  byte {self.data.hex().upper()}"
        out = [head]
        for kid in (self.left, self.right):
            if kid is not None:
                out.extend(kid.lines(indent + "  "))
        return out


def merge_tree(rec: RecoveredMerges | TokenMerges, token_id: int) -> MergeNode:
    """The merge tree of ``token_id``, each node named by the characters its bytes belong to (in the
    context of the whole token, so a partial byte is named by its character).

    >>> ranks = {**{bytes([i]): i for i in range(256)}, "것".encode()[:2]: 256, "것".encode(): 257}
    >>> tree = merge_tree(recover_from_ranks(ranks, fast=False), 257)
    >>> tree.merge_name
    '것 bytes 1–2 of 3 + 것 byte 3 of 3 → 것 (completes 것)'
    >>> merge_tree(TokenMerges(ranks), 257) == tree
    True
    """
    if token_id not in rec.token_bytes:
        raise TokvizError(f"{rec.encoder} has no ordinary token with id {token_id}")
    root = rec.token_bytes[token_id]
    return _node(rec, token_id, root, 0)


def _node(rec: RecoveredMerges, tid: int, root: bytes, start: int) -> MergeNode:
    data = rec.token_bytes[tid]
    before, after = root[:start], root[start + len(data):]
    names = " · ".join(p.label for p in byte_parts(data, before=before, after=after))
    label = visible_piece(_show(data))
    kids = rec.parents(tid)
    if len(kids) != 2:
        return MergeNode(tid, data, label, names, unbuilt=bool(kids), stops_at=kids)
    a, b = kids
    left = _node(rec, a, root, start)
    right = _node(rec, b, root, start + len(rec.token_bytes[a]))
    merge = name_merge(rec.token_bytes[a], rec.token_bytes[b], before=before, after=after).text
    rank = getattr(rec, "merge_rank", {}).get(tid, tid)
    return MergeNode(tid, data, label, names, left, right, merge, rank=rank)


def _id_form(q: str) -> bool:
    return q.removeprefix("#").isdigit()


def _hex_form(q: str) -> bool:
    words = q.split()
    return q.startswith("0x") or (len(words) > 1 and all(len(w) == 2 for w in words))


def is_text_query(query: str) -> bool:
    """Whether :func:`find_tokens` reads ``query`` as text, rather than as a token id or hex bytes.

    >>> is_text_query("생각"), is_text_query("#12"), is_text_query("EA B0 81"), is_text_query("  ")
    (True, False, False, False)
    """
    q = query.strip()
    return bool(q) and not _id_form(q) and not _hex_form(q)


def find_tokens(rec: RecoveredMerges | TokenMerges, query: str, limit: int = 20) -> list[int]:
    """Token ids matching ``query``: an id (``#1234`` or ``1234``), hex bytes (``EA B2 83``, ``0xEAB283``), or text
    (the token that is exactly that text first, then tokens containing it, shortest first).

    >>> rec = recover_from_ranks({**{bytes([i]): i for i in range(256)}, b"ab": 256}, fast=False)
    >>> find_tokens(rec, "ab"), find_tokens(rec, "#256"), find_tokens(rec, "61 62")
    ([256], [256], [256])
    """
    q = query.strip()
    if _id_form(q):
        digits = q.removeprefix("#")
        return [int(digits)] if int(digits) in rec.token_bytes else []
    if _hex_form(q):
        by_bytes = {b: t for t, b in rec.token_bytes.items()}
        try:
            t = by_bytes.get(bytes.fromhex(q.removeprefix("0x").replace(" ", "")))
        except ValueError:
            t = None
        if t is not None:
            return [t]
    needle = query.encode("utf-8")
    if not needle:
        return []
    found = [t for t, b in rec.token_bytes.items() if needle in b]
    found.sort(key=lambda t: (rec.token_bytes[t] != needle, len(rec.token_bytes[t]), t))
    return found[:limit]
