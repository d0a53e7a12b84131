"""The Vocabulary panel's work as plain functions of ``(request, get_encoder, state)``, run on a worker
thread by the panel and called directly by tests. Each loads its encoders (seconds for a 200k-rank
file the first time), computes with :mod:`tokviz.core.vocab` and returns an
:class:`~tokviz.ui.vocab.state.Outcome` holding everything the views draw, down to each table's
sort orders: sorting or filtering 200,000 rows on the GUI thread would freeze it.

>>> from tokviz.core.bpe.model import BPEModel
>>> m = BPEModel(mode="byte", merges=[(104, 105, 256)], name="m")
>>> out = run_request(Request("search", "m", param="hi"), {"m": m}.__getitem__)
>>> out.result.matches[0][0]
256
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tokviz.core.display import visible_piece
from tokviz.core.errors import TokvizError
from tokviz.core.vocab.ranks import NoState, VocabState
from tokviz.ui.vocab.state import Outcome, Request

SEARCH_LIMIT = 50
MAX_CORPUS_LINES = 200_000  # the use counts read at most this many lines of a corpus file


def shown(data: bytes) -> str:
    """A token's bytes as the lists show them: visible whitespace, bytes of a cut character as \\xNN."""
    return visible_piece(data.decode("utf-8", "backslashreplace"))


@dataclass(frozen=True)
class RowTable:
    """Rows of a list, column by column, with each column's ascending order worked out in the worker
    (``orders[c]``: row indices) and a lowercased search text per row (token and hex)."""

    headers: tuple[str, ...]
    columns: tuple[Sequence, ...]
    orders: tuple[np.ndarray, ...]
    search: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def matching(self, query: str) -> np.ndarray:
        """Row indices whose token or hex bytes contain ``query`` (all rows for an empty query)."""
        q = query.strip().lower()
        if not q:
            return np.arange(len(self), dtype=np.int64)
        return np.fromiter((i for i, s in enumerate(self.search) if q in s), dtype=np.int64)


def row_table(headers: Sequence[str], columns: Sequence[Sequence], tokens: Sequence[bytes]) -> RowTable:
    """A :class:`RowTable`; ``tokens`` are the rows' token bytes (what a search looks in)."""
    orders = []
    for col in columns:
        if col and isinstance(col[0], str):
            orders.append(np.asarray(sorted(range(len(col)), key=col.__getitem__), dtype=np.int64))
        else:
            orders.append(np.argsort(np.asarray(col, dtype=np.float64), kind="stable"))
    search = tuple(f"{t.decode('utf-8', 'replace').lower()}\t{t.hex(' ')}\t{t.hex()}" for t in tokens)
    return RowTable(tuple(headers), tuple(columns), tuple(orders), search)


def token_rows(ids: Sequence[int], bytes_of, extra: Sequence[tuple[str, Sequence]] = ()) -> RowTable:
    """Rows ``id, token, script`` (+ ``extra`` columns) for ``ids``."""
    from tokviz.core.vocab.scripts import script_of

    data = [bytes_of(i) for i in ids]
    columns = [list(ids), [shown(b) for b in data], [script_of(b) for b in data], *[c for _, c in extra]]
    return row_table(("id", "token", "script", *[h for h, _ in extra]), columns, data)


# ---- the merge tree ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchResult:
    query: str
    matches: list[tuple[int, str]]  # (id, shown token)


def search_tokens(encoder, query: str) -> SearchResult:
    from tokviz.core.vocab.encoder_merges import token_merges
    from tokviz.core.vocab.merges import find_tokens

    merges = token_merges(encoder)
    ids = find_tokens(merges, query, limit=SEARCH_LIMIT)
    return SearchResult(query, [(i, shown(merges.token_bytes[i])) for i in ids])


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


def reach_rows(encoder, state: VocabState) -> ReachResult:
    from tokviz.core.vocab.reach import reachability

    reach = reachability(encoder, state)
    bytes_of = encoder.token_bytes
    ids = list(reach.unreachable)
    as_text = [" | ".join(shown(bytes_of(i)) for i in reach.encodes_as[t]) for t in ids]
    return ReachResult(reach, token_rows(ids, bytes_of, [("encodes as", as_text)]))


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


def corpus_rows(encoder, path: str, state: VocabState) -> UseResult:
    from tokviz.core.vocab.reach import corpus_use
    from tokviz.core.vocab.scripts import SCRIPTS, script_of
    from tokviz.core.vocab.table import vocab_table

    use = corpus_use(encoder, read_corpus(path), state)
    table = vocab_table(encoder)
    used = {s: 0 for s in SCRIPTS}
    of = {s: 0 for s in SCRIPTS}
    for data, i in table.ids.items():
        s = script_of(data)
        of[s] += 1
        used[s] += bool(use.counts[i])
    scripts = [s for s in SCRIPTS if of[s]]
    share = [round(100 * used[s] / of[s], 1) for s in scripts]
    shares = row_table(
        ("script", "used", "of", "share %"),
        [scripts, [used[s] for s in scripts], [of[s] for s in scripts], share],
        [s.encode() for s in scripts],
    )
    bytes_of = encoder.token_bytes
    return UseResult(
        path,
        use.texts,
        use.tokens,
        token_rows(use.never_used(), bytes_of),
        token_rows(use.used_once(), bytes_of),
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


def diff_rows(first, second, state: VocabState) -> DiffResult:
    from tokviz.core.vocab.diff import vocab_diff
    from tokviz.core.vocab.scripts import census

    d = vocab_diff(first, second, state)
    a, b = d.first.ids, d.second.ids
    shared = token_rows(
        [a[t] for t in d.shared], d.first.bytes_of().__getitem__, [("id in B", [b[t] for t in d.shared])]
    )
    only_first = token_rows([a[t] for t in d.only_first], d.first.bytes_of().__getitem__)
    only_second = token_rows([b[t] for t in d.only_second], d.second.bytes_of().__getitem__)
    return DiffResult(d.counts(), {"A": census(a), "B": census(b)}, shared, only_first, only_second)


# ---- the maps ------------------------------------------------------------------------------------
def split_map(encoder, kind: str, state: VocabState):
    from tokviz.core.vocab.maps import indentation_map, number_map

    return number_map(encoder, state=state) if kind == "numbers" else indentation_map(encoder)


def run_request(
    request: Request,
    get_encoder: Callable[[str], object],
    state: VocabState | None = None,
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
