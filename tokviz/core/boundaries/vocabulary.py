"""An encoder's ordinary tokens as byte strings, indexed for the questions boundaries ask.

Built once per encoder object (a scan of every id, a fraction of a second for 200k tokens) and cached
while that encoder lives. Special tokens and ids that stand for no bytes (holes in cl100k's id space,
SentencePiece's ``<unk>``/``<s>``) are left out: no text ever encodes to them.
"""

from __future__ import annotations

import bisect
import weakref
from collections.abc import Sequence
from typing import Protocol

from tokviz.core.errors import TokvizError, user_message

_SCAN_BATCH = 8192  # ids scanned between two progress reports / cancel checks


class ScanState(Protocol):
    """What a long scan reports to and asks of its caller (a GUI worker, a test, the CLI)."""

    def is_cancelled(self) -> bool: ...

    def progress(self, done: int, total: int) -> None: ...


class ScanCancelled(TokvizError):
    """The caller cancelled a vocabulary scan; nothing was cached."""


class TokenTable:
    """Ordinary tokens of one encoder: ``bytes_of[id]``, the ids of each byte string, and a sorted
    index for prefix search.

    >>> t = TokenTable({1: b"a", 2: b"ab", 3: b"b", 4: b"abc"})
    >>> t.ids_of(b"ab"), t.max_len, t.with_prefix(b"ab")
    ((2,), 3, [2, 4])
    """

    def __init__(self, bytes_of: dict[int, bytes]):
        self.bytes_of = bytes_of
        # one id per byte string, the lowest; the rare others (SentencePiece's "▁" and its byte piece
        # <0x20> are both a space) kept aside, so 200k tokens cost one dict, not 200k tuples
        self._first: dict[bytes, int] = {}
        self._more: dict[bytes, list[int]] = {}
        for token_id in sorted(bytes_of):
            b = bytes_of[token_id]
            if b in self._first:
                self._more.setdefault(b, []).append(token_id)
            else:
                self._first[b] = token_id
        self.max_len = max(map(len, self._first), default=0)
        self._sorted: list[bytes] | None = None

    def __len__(self) -> int:
        return len(self.bytes_of)

    def ids_of(self, data: bytes) -> tuple[int, ...]:
        """The token ids whose bytes are exactly ``data`` (empty when none)."""
        first = self._first.get(data)
        if first is None:
            return ()
        more = self._more.get(data)
        return (first, *more) if more else (first,)

    def with_prefix(self, prefix: bytes) -> list[int]:
        """Ids of every token whose bytes start with ``prefix``, in id order (a binary search, not a scan)."""
        if self._sorted is None:
            self._sorted = sorted(self._first)
        keys = self._sorted
        lo = bisect.bisect_left(keys, prefix)
        out: list[int] = []
        for b in keys[lo:]:
            if not b.startswith(prefix):
                break
            out.extend(self.ids_of(b))
        return sorted(out)


_cache: dict[int, tuple[weakref.ref, TokenTable]] = {}


def token_table(encoder, state: ScanState | None = None) -> TokenTable:
    """The :class:`TokenTable` of ``encoder``, built on first use and kept while the encoder lives.

    ``state.progress(done, total)`` is called every few thousand ids; ``state.is_cancelled()`` is
    checked as often and ends the scan with :class:`ScanCancelled`.
    """
    key = id(encoder)
    hit = _cache.get(key)
    if hit is not None and hit[0]() is encoder:
        return hit[1]
    table = TokenTable(_scan(encoder, state))
    try:
        ref = weakref.ref(encoder, lambda _r, key=key: _cache.pop(key, None))
    except TypeError:  # an encoder that cannot be weakly referenced is scanned each time
        return table
    _cache[key] = (ref, table)
    return table


def _scan(encoder, state: ScanState | None) -> dict[int, bytes]:
    specials = set(encoder.special_tokens().values())
    total = encoder.vocab_size
    out: dict[int, bytes] = {}
    for start in range(0, total, _SCAN_BATCH):
        if state is not None:
            if state.is_cancelled():
                raise ScanCancelled(f"reading the vocabulary of {encoder.name} was cancelled")
            state.progress(start, total)
        for token_id in range(start, min(start + _SCAN_BATCH, total)):
            if token_id in specials:
                continue
            try:
                b = encoder.token_bytes(token_id)
            except Exception:  # holes in the id space are not tokens
                continue
            if b:
                out[token_id] = b
    if state is not None:
        state.progress(total, total)
    return out


def check_ids(encoder, ids: Sequence[int]) -> list[int]:
    """``ids`` as ints, each a token of ``encoder`` (ordinary or special); TokvizError naming the first that is not.

    >>> class E:
    ...     name, vocab_size = "toy", 3
    ...     def token_bytes(self, i): return b"ab"[i:i + 1] or (_ for _ in ()).throw(KeyError(i))
    ...     def special_tokens(self): return {}
    >>> check_ids(E(), [0, 1])
    [0, 1]
    """
    specials = set(encoder.special_tokens().values())
    out = []
    for k, token_id in enumerate(ids):
        token_id = int(token_id)
        ok = 0 <= token_id and (token_id in specials or token_id < encoder.vocab_size)
        if ok and token_id not in specials:
            try:
                encoder.token_bytes(token_id)
            except Exception:
                ok = False
        if not ok:
            raise TokvizError(user_message("id {id} (position {position}) is not a token of {encoder}, whose ids "
                                           "run from 0 to {last}", id=token_id, position=k, encoder=encoder.name,
                                           last=encoder.vocab_size - 1))
        out.append(token_id)
    return out

