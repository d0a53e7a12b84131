"""The Vocabulary panel's work as plain functions of ``(request, get_encoder, state)``, run by the panel
in its vocabulary process (:mod:`tokviz.ui.vocab.process`) and called directly by tests. Each loads its
encoders (seconds for a 200k-rank file the first time), computes with :mod:`tokviz.core.vocab` and
returns an :class:`~tokviz.ui.vocab.state.Outcome` holding everything the views draw, down to each
table's sort orders: sorting or filtering 200,000 rows on the GUI thread would freeze it.

>>> from tokviz.core.bpe.model import BPEModel
>>> m = BPEModel(mode="byte", pattern="gpt4", merges=[(32, 32, 256), (256, 97, 257)], name="m")
>>> out = run_request(Request("reach", "m"), {"m": m}.__getitem__)
>>> out.result.rows.columns[:2]   # "  a" pre-splits into " " and " a"
([257], [b'  a'])
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tokviz.core.display import visible_piece
from tokviz.core.errors import TokvizError, check_text
from tokviz.core.vocab.ranks import NoState
from tokviz.core.vocab.ranks import VocabState as Progress  # what long core work reports to
from tokviz.ui.vocab.grid import cell_arrays, map_grid
from tokviz.ui.vocab.state import Outcome, Request

SEARCH_LIMIT = 50
MAX_CORPUS_LINES = 200_000  # the use counts read at most this many lines of a corpus file


def shown(data: bytes) -> str:
    """A token's bytes as the lists show them: visible whitespace, bytes of a cut character as \\xNN."""
    return visible_piece(data.decode("utf-8", "backslashreplace"))


CHUNK = 16_384  # rows per numpy conversion: a single call over 200,000 rows holds the GIL ~200 ms


@dataclass(frozen=True)
class RowTable:
    """Rows of a list, column by column, with each column's ascending order worked out in the worker
    (``orders[c]``: row indices). A ``token`` column holds the token bytes (shown as text when drawn:
    only the rows on screen are ever turned into text); ``tokens`` are what a search looks in."""

    headers: tuple[str, ...]
    columns: tuple[Sequence, ...]
    orders: tuple[np.ndarray, ...]
    tokens: Sequence[bytes]

    def __len__(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def matching(self, query: str) -> np.ndarray:
        """Row indices whose token (as text, any case) or hex bytes contain ``query`` (worker side).

        >>> t = row_table(("token",), [[b"Ab", b"cd"]], [b"Ab", b"cd"])
        >>> t.matching("ab").tolist(), t.matching("63 64").tolist(), t.matching("").tolist()
        ([0], [1], [0, 1])
        """
        q = query.strip().lower()
        if not q:
            return np.arange(len(self), dtype=np.int64)
        hexed = q.replace(" ", "")
        return np.fromiter(
            (i for i, t in enumerate(self.tokens) if q in t.decode("utf-8", "replace").lower() or hexed in t.hex()),
            dtype=np.int64,
        )


def _array(column: Sequence) -> np.ndarray:
    """``column`` as one numpy array, converted a chunk at a time (each call short, see :data:`CHUNK`)."""
    if column and isinstance(column[0], (bytes, str)):
        width = max(max(len(v) for v in column[k : k + CHUNK]) for k in range(0, len(column), CHUNK))
        kind = "S" if isinstance(column[0], bytes) else "U"
        dtype = np.dtype(f"{kind}{max(width, 1)}")
    else:
        dtype = np.dtype(np.float64)
    parts = [np.asarray(column[k : k + CHUNK], dtype=dtype) for k in range(0, len(column), CHUNK)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def row_table(headers: Sequence[str], columns: Sequence[Sequence], tokens: Sequence[bytes]) -> RowTable:
    """A :class:`RowTable` of ``columns`` (lists of equal length); ``tokens`` are the rows' token bytes.
    Orders come from numpy's stable argsort, which lets the GUI thread run while it sorts (Python's
    ``sorted`` over 200,000 keys would hold the GIL for its whole run)."""
    orders = tuple(np.argsort(_array(col), kind="stable") for col in columns)
    return RowTable(tuple(headers), tuple(columns), orders, tokens)


_scripts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def token_scripts(encoder) -> dict[bytes, str]:
    """The script class of every ordinary token of ``encoder`` (see :mod:`tokviz.core.vocab.scripts`),
    worked out once per encoder object: the census, the diff and the use lists all read it."""
    from tokviz.core.vocab.scripts import script_of
    from tokviz.core.vocab.table import vocab_table

    hit = _scripts.get(encoder)
    if hit is None:
        hit = _scripts[encoder] = {data: script_of(data) for data in vocab_table(encoder).ids}
    return hit


def token_rows(encoder, ids: Sequence[int], data: Sequence[bytes], extra: Sequence[tuple[str, Sequence]] = ()):
    """Rows ``id, token, script`` (+ ``extra`` columns) of ``encoder``'s tokens ``ids`` (bytes ``data``)."""
    scripts = token_scripts(encoder)
    data = list(data)  # one list for the column and the search: it crosses from the child once
    columns = [list(ids), data, [scripts.get(b, "partial") for b in data], *[c for _, c in extra]]
    return row_table(("id", "token", "script", *[h for h, _ in extra]), columns, data)


# ---- the merge tree ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchResult:
    query: str
    matches: list[tuple[int, str]]  # (id, shown token)
    # True when no token holds the text queried: ``matches`` are then the tokens the encoder writes it
    # as, in order (the first SEARCH_LIMIT of ``written_in``)
    written_as: bool = False
    written_in: int = 0  # how many tokens the encoder writes the text queried in
    # written_as: each listed token's bytes and where they start in the query's UTF-8 (the view names a
    # token that cuts a character by the character and its bytes, as the merge tree does)
    written_at: list[tuple[bytes, int]] = field(default_factory=list)


def search_tokens(encoder, query: str) -> SearchResult:
    """The tokens holding ``query`` (see :func:`tokviz.core.vocab.merges.find_tokens`); when none does, the
    tokens the encoder writes that text as (생각 in cl100k_base: 생, then 각 cut into two byte tokens)."""
    from tokviz.core.vocab.encoder_merges import token_merges
    from tokviz.core.vocab.merges import find_tokens, is_text_query

    check_text(query)  # a lone surrogate (pasted from a broken file) is a message naming it, not a traceback
    merges = token_merges(encoder)
    ids = find_tokens(merges, query, limit=SEARCH_LIMIT)
    if ids or not is_text_query(query):
        return SearchResult(query, [(i, shown(merges.token_bytes[i])) for i in ids])
    enc = encoder.encode(query.strip())  # (an encoder that fails on the text says so, as a message)
    pieces = [(i, int(start)) for i, start in zip(enc.ids, enc.byte_start_array, strict=True)
              if i in merges.token_bytes]
    listed = pieces[:SEARCH_LIMIT]
    return SearchResult(query, [(i, shown(merges.token_bytes[i])) for i, _ in listed], written_as=bool(pieces),
                        written_in=len(pieces), written_at=[(merges.token_bytes[i], start) for i, start in listed])


@dataclass(frozen=True)
class TreeResult:
    token_id: int
    tree: object  # tokviz.core.vocab.merges.MergeNode
    token_bytes: dict[int, bytes]  # every node's bytes (the view names partial bytes by them)


def token_tree(encoder, token_id: int) -> TreeResult:
    from tokviz.core.vocab.encoder_merges import token_merges
    from tokviz.core.vocab.merges import merge_tree

    merges = token_merges(encoder)
    tree = merge_tree(merges, token_id)
    found: dict[int, bytes] = {}
    stack = [tree]
    while stack:
        node = stack.pop()
        found[node.id] = node.data
        for part in node.stops_at:
            found[part] = merges.token_bytes[part]
        stack += [k for k in (node.left, node.right) if k is not None]
    return TreeResult(token_id, tree, found)


# ---- reachability and use ------------------------------------------------------------------------
@dataclass(frozen=True)
class ReachResult:
    reach: object  # tokviz.core.vocab.reach.Reachability
    rows: RowTable  # id, token, script, encodes as


def reach_rows(encoder, state: Progress) -> ReachResult:
    from tokviz.core.vocab.reach import reachability

    reach = reachability(encoder, state)
    bytes_of = encoder.token_bytes
    ids = list(reach.unreachable)
    as_text = [" | ".join(shown(bytes_of(i)) for i in reach.encodes_as[t]) for t in ids]
    return ReachResult(reach, token_rows(encoder, ids, [bytes_of(i) for i in ids], [("encodes as", as_text)]))


@dataclass(frozen=True)
class UseResult:
    corpus: str
    texts: int
    tokens: int
    never: RowTable  # id, token, script
    once: RowTable  # id, token, script
    shares: RowTable  # script, used, of, share %


def read_corpus(path: str) -> list[str]:
    """The non-empty lines of a UTF-8 corpus file (at most :data:`MAX_CORPUS_LINES`)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = []
            for line in f:
                if line.strip():
                    lines.append(line.rstrip("\n"))
                    if len(lines) >= MAX_CORPUS_LINES:
                        break
    except UnicodeDecodeError as err:
        raise TokvizError(f"{Path(path).name} is not valid UTF-8 (byte offset {err.start})") from None
    except OSError as err:
        raise TokvizError(f"cannot read {path}: {err.strerror or err}") from None
    return lines


def corpus_rows(encoder, path: str, state: Progress) -> UseResult:
    from tokviz.core.vocab.reach import corpus_use
    from tokviz.core.vocab.scripts import SCRIPTS
    from tokviz.core.vocab.table import vocab_table

    use = corpus_use(encoder, read_corpus(path), state)
    scripts = token_scripts(encoder)
    used = {s: 0 for s in SCRIPTS}
    of = {s: 0 for s in SCRIPTS}
    for data, i in vocab_table(encoder).ids.items():
        script = scripts[data]
        of[script] += 1
        used[script] += bool(use.counts[i])
    names = [s for s in SCRIPTS if of[s]]
    share = [round(100 * used[s] / of[s], 1) for s in names]
    shares = row_table(
        ("script", "used", "of", "share %"),
        [names, [used[s] for s in names], [of[s] for s in names], share],
        [s.encode() for s in names],
    )
    bytes_of = encoder.token_bytes
    never, once = use.never_used(), use.used_once()
    return UseResult(
        path,
        use.texts,
        use.tokens,
        token_rows(encoder, never, [bytes_of(i) for i in never]),
        token_rows(encoder, once, [bytes_of(i) for i in once]),
        shares,
    )


# ---- the diff ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DiffResult:
    counts: dict[str, int]
    census: dict[str, dict[str, int]]
    shared: RowTable  # id in A, token, script, id in B
    only_first: RowTable
    only_second: RowTable


def diff_rows(first, second, state: Progress) -> DiffResult:
    from collections import Counter

    from tokviz.core.vocab.diff import vocab_diff
    from tokviz.core.vocab.scripts import SCRIPTS

    d = vocab_diff(first, second, state)
    a, b = d.first.ids, d.second.ids
    shared = token_rows(first, [a[t] for t in d.shared], d.shared, [("id in B", [b[t] for t in d.shared])])
    only_first = token_rows(first, [a[t] for t in d.only_first], d.only_first)
    only_second = token_rows(second, [b[t] for t in d.only_second], d.only_second)
    census = {}
    for key, encoder in (("A", first), ("B", second)):
        counts = Counter(token_scripts(encoder).values())
        census[key] = {s: counts.get(s, 0) for s in SCRIPTS}
    return DiffResult(d.counts(), census, shared, only_first, only_second)


# ---- the maps ------------------------------------------------------------------------------------
def cut_pattern(row) -> str:
    """The lengths of a split's pieces in characters: ``1234`` split ``123|4`` is ``3+1``."""
    bounds = [0, *row.cuts, len(row.text)]
    return "+".join(str(b - a) for a, b in zip(bounds, bounds[1:], strict=False))


@dataclass(frozen=True)
class MapResult:
    split_map: object  # tokviz.core.vocab.maps.SplitMap
    patterns: list[tuple[str, int]]  # the most frequent cut patterns, e.g. [("3+1", 9000), ...]
    cells: tuple | None = None  # grid.cell_arrays of the map, so the GUI thread need not read its rows


def split_map(encoder, kind: str, state: Progress, most: int = 6) -> MapResult:
    from collections import Counter

    from tokviz.core.vocab.maps import indentation_map, number_map

    found = number_map(encoder, state=state) if kind == "numbers" else indentation_map(encoder)
    patterns = Counter(cut_pattern(r) for r in found.rows).most_common(most)
    return MapResult(found, patterns, cell_arrays(found, map_grid(found)))


def run_request(
    request: Request,
    get_encoder: Callable[[str], object],
    state: Progress | None = None,
    cached: Callable[[Request, tuple], object] | None = None,
) -> Outcome:
    """Compute ``request``; ``get_encoder`` loads an encoder by name, ``cached`` answers with a result
    already computed for the same encoder objects (then nothing is computed again)."""
    state = state or NoState()
    first = get_encoder(request.encoder)
    encoders = (first, get_encoder(request.second)) if request.second is not None else (first,)
    hit = cached(request, encoders) if cached is not None else None
    if hit is not None:
        return Outcome(request, encoders, hit)
    kind = request.kind
    if kind == "search":
        result = search_tokens(first, request.param)
    elif kind == "tree":
        result = token_tree(first, int(request.param))
    elif kind == "reach":
        result = reach_rows(first, state)
    elif kind == "use":
        result = corpus_rows(first, request.param, state)
    elif kind == "diff":
        result = diff_rows(first, encoders[1], state)
    elif kind == "maps":
        result = split_map(first, request.param, state)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    return Outcome(request, encoders, result)
