"""Small byte-level rank encoders for the Vocabulary panel's tests: built in milliseconds, with a
Korean token made of partial-character merges and a token no merge builds."""

from __future__ import annotations

from tokviz.core.encoders.rank_encoder import TiktokenEncoder
from tokviz.core.pretokenize import GPT4_PATTERN

GEOT = "것".encode()  # EA B2 83


def small_ranks(extra: tuple[bytes, ...] = (), *, unbuilt: bool = True) -> dict[bytes, int]:
    """256 bytes, then ``것`` built byte pair first, ``ab``/``abc``, ``bcd`` (unbuilt: the merges below
    it stop at b + c + d; a tokviz model cannot hold it, so ``unbuilt=False`` leaves it out), ``abcd``
    and any ``extra`` tokens."""
    ranks = {bytes([i]): i for i in range(256)}
    middle = (b"bcd",) if unbuilt else ()
    for token in (GEOT[:2], GEOT, b"ab", b"abc", *middle, b"abcd", b"th", b"the", b" the", *extra):
        ranks[token] = len(ranks)
    return ranks


def small_encoder(name: str, extra: tuple[bytes, ...] = (), *, unbuilt: bool = True) -> TiktokenEncoder:
    return TiktokenEncoder(name, GPT4_PATTERN, small_ranks(extra, unbuilt=unbuilt), {"<|end|>": 300}, "test")
