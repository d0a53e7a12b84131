"""The two kinds of BPE vocabulary tokviz trains and encodes with: bytes and characters.

Each class holds the base tokens, the merges so far as a rank table, and knows how a text falls
into pieces and how a piece starts before merging; both hand the merging itself to
:func:`~tokviz.core.bpe.merge.apply_merges`. :class:`~tokviz.core.bpe.model.BPEModel` wraps one of
them as an Encoder; the Train panel's replay grows one step by step.

- :class:`ByteBPE` (tiktoken): ids 0-255 are the bytes, merge ``r`` makes id ``256 + r``; a
  piece of the regex pre-split starts as its UTF-8 bytes; a pair's rank is the rank of its
  concatenated bytes (a byte string made twice keeps its lowest id), leftmost pair first.
- :class:`CharBPE` (subword-nmt): id 0 is ``<unk>``, then the base symbols (``"x"`` and the
  word-final ``"x</w>"``), then merged tokens (a string made twice keeps its first id); a word
  starts as its characters with ``</w>`` glued to the last one; a pair's rank is that of the
  merge of those two pieces, and every occurrence of the best pair merges at once.
"""

from __future__ import annotations

import codecs
import random
from functools import cache

import regex

from tokviz.core.bpe.merge import apply_merges
from tokviz.core.errors import TokvizError
from tokviz.core.pretokenize import PATTERNS

END_OF_WORD = "</w>"
UNK = "<unk>"


def _hex_bytes(err: UnicodeDecodeError):
    return "".join(f"<0x{b:02X}>" for b in err.object[err.start: err.end]), err.end


codecs.register_error("tokviz-hexbytes", _hex_bytes)


def display_bytes(b: bytes) -> str:
    """Token bytes for display: UTF-8 text, with bytes that are not whole characters as ``<0xNN>``.

    >>> display_bytes("안".encode()[:2]), display_bytes(b" a")
    ('<0xEC><0x95>', ' a')
    """
    return b.decode("utf-8", "tokviz-hexbytes")


@cache
def pattern_regex(name: str):
    """Compiled pre-split regex for pattern ``name`` (None for ``"none"``)."""
    if name not in PATTERNS:
        raise TokvizError(f"unknown pre-split pattern {name!r}: use one of {', '.join(PATTERNS)}")
    pat = PATTERNS[name]
    return None if pat is None else regex.compile(pat)


_CACHE_LIMIT = 100_000  # pieces remembered per vocabulary (whole-model encodes only)


class ByteBPE:
    """Byte-level merges: see the module docstring.

    >>> v = ByteBPE("gpt4"); v.add(104, 105, 256)
    >>> v.piece_ids("hi"), v.piece_ids("hi", max_rank=0)
    ([256], [104, 105])
    """

    mode = "byte"
    every_occurrence = False

    def __init__(self, pattern: str):
        self.pattern = pattern
        self.split = pattern_regex(pattern)
        self.token_bytes: list[bytes] = [bytes([i]) for i in range(256)]
        self.pieces: list[str] = [display_bytes(b) for b in self.token_bytes]
        self.children: dict[int, tuple[int, int]] = {}
        self.made_at: dict[int, int] = {}  # token id -> merge rank that made it
        self.ranks: dict[bytes, int] = {b: i for i, b in enumerate(self.token_bytes)}  # bytes -> lowest id
        self.merges = 0
        self._cache: dict[str, list[int]] = {}

    def add(self, a: int, b: int, t: int) -> None:
        """Learn merge number ``self.merges``: ``a + b -> t`` (t must be ``256 + rank``)."""
        rank = self.merges
        if t != 256 + rank or not (0 <= a < t and 0 <= b < t):
            raise TokvizError(f"merge {rank} ({a}, {b}) -> {t} is not a byte-mode merge")
        data = self.token_bytes[a] + self.token_bytes[b]
        self.token_bytes.append(data)
        self.pieces.append(display_bytes(data))
        self.children[t] = (a, b)
        self.made_at[t] = rank
        self.ranks.setdefault(data, t)
        self.merges += 1
        if self._cache:
            self._cache.clear()  # a growing vocabulary (the replay): cached pieces may merge further now

    def token_id(self, piece: str) -> int:
        return self.ranks[piece.encode("utf-8")]

    def text_pieces(self, text: str) -> list[str]:
        """The pre-split pieces of ``text`` (the whole text for pattern ``"none"``)."""
        return [text] if self.split is None else self.split.findall(text)

    def piece_ids(self, piece: str, max_rank: int | None = None, dropout: float = 0.0,
                  rng: random.Random | None = None) -> list[int]:
        """Token ids of one pre-split piece after merges ``0 .. max_rank - 1`` (None: all)."""
        whole_model = max_rank is None or max_rank >= self.merges
        if whole_model and not dropout:
            ids = self._cache.get(piece)
            if ids is not None:
                return ids
        ids = merge_bytes(piece.encode("utf-8"), self.ranks, None if whole_model else max_rank, dropout, rng)
        if whole_model and not dropout and len(self._cache) < _CACHE_LIMIT:
            self._cache[piece] = ids
        return ids


def merge_bytes(data: bytes, ranks: dict[bytes, int], max_rank: int | None = None, dropout: float = 0.0,
                rng: random.Random | None = None) -> list[int]:
    """tiktoken's encoding of one piece: ``ranks`` maps token bytes to ids (the 256 bytes first,
    then ``256 + merge rank``); only merges below ``max_rank`` are used (None: all).

    >>> merge_bytes(b"abc", {**{bytes([i]): i for i in range(256)}, b"bc": 256, b"abc": 257})
    [257]
    """
    limit = None if max_rank is None else 256 + max_rank
    whole = ranks.get(data)
    if whole is not None and (limit is None or whole < limit) and not dropout:
        return [whole]  # tiktoken's shortcut: a piece that is a token is one token
    get = ranks.get

    def rank_of(x: bytes, y: bytes):
        r = get(x + y)
        return None if r is None else r - 256

    parts = apply_merges([data[i: i + 1] for i in range(len(data))], rank_of, bytes.__add__,
                         max_rank=max_rank, dropout=dropout, rng=rng)
    return [ranks[x] for x in parts]


class CharBPE:
    """Character-level merges with ``</w>``: see the module docstring.

    ``base`` is the base vocabulary (id = index + 1). The Train panel's replay, which learns the
    pieces only from the merges it receives, passes ``base=None`` and names ids through
    :meth:`add` instead.

    >>> v = CharBPE(["l", "o", "w</w>"]); v.add(1, 2, 4); v.add(4, 3, 5)
    >>> v.word_pieces("low"), v.word_pieces("low", max_rank=1)
    (['low</w>'], ['lo', 'w</w>'])
    """

    mode = "char"
    every_occurrence = True

    def __init__(self, base: list[str] | None):
        self.base = list(base or [])
        self.pieces: dict[int, str] = {0: UNK}
        self.pieces.update((i, p) for i, p in enumerate(self.base, 1))
        self.id_of: dict[str, int] = {p: i for i, p in self.pieces.items()}
        self.children: dict[int, tuple[int, int]] = {}
        self.made_at: dict[int, int] = {}
        self.pair_rank: dict[tuple[str, str], int] = {}
        self.merges = 0
        self.next_id = len(self.pieces)
        self._cache: dict[str, list[str]] = {}
        self._strict = base is not None

    def add(self, a: int, b: int, t: int, names: tuple[str, str, str] | None = None) -> None:
        """Learn merge number ``self.merges``: ``a + b -> t``. ``names`` (left, right, new piece)
        declares ids the vocabulary has not seen (the replay); with a known base, ids are checked."""
        rank = self.merges
        if names is not None and not self._strict:
            for tid, piece in zip((a, b), names[:2], strict=True):
                if tid not in self.pieces:
                    self.pieces[tid] = piece
                    self.id_of.setdefault(piece, tid)
        if a not in self.pieces or b not in self.pieces or a == 0 or b == 0:
            raise TokvizError(f"merge {rank} ({a}, {b}) -> {t} uses a token that does not exist yet")
        piece = self.pieces[a] + self.pieces[b]
        # a known base numbers new tokens in order; the replay takes the trainer's ids as they come
        new = t == self.next_id if self._strict else t not in self.pieces
        if new:
            self.pieces[t] = piece
            self.id_of.setdefault(piece, t)
            self.children[t] = (a, b)
            self.made_at[t] = rank
            self.next_id = max(self.next_id, t + 1)
        elif self.pieces.get(t) != piece:
            raise TokvizError(f"merge {rank} ({a}, {b}) -> {t} does not continue the vocabulary")
        self.pair_rank.setdefault((self.pieces[a], self.pieces[b]), rank)
        self.merges += 1
        if self._cache:
            self._cache.clear()  # a growing vocabulary (the replay): cached words may merge further now

    @property
    def size(self) -> int:
        return max(self.pieces) + 1

    def token_bytes(self, token_id: int) -> bytes:
        return self.pieces[token_id].removesuffix(END_OF_WORD).encode("utf-8") if token_id else b""

    def word_pieces(self, word: str, max_rank: int | None = None, dropout: float = 0.0,
                    rng: random.Random | None = None) -> list[str]:
        """The pieces of one whitespace-free word after merges ``0 .. max_rank - 1`` (None: all)."""
        whole_model = max_rank is None or max_rank >= self.merges
        if whole_model and not dropout:
            cached = self._cache.get(word)
            if cached is not None:
                return cached
        get = self.pair_rank.get
        parts = apply_merges(list(word[:-1]) + [word[-1] + END_OF_WORD], lambda x, y: get((x, y)), str.__add__,
                             max_rank=None if whole_model else max_rank, every_occurrence=True,
                             dropout=dropout, rng=rng)
        if whole_model and not dropout and len(self._cache) < _CACHE_LIMIT:
            self._cache[word] = parts
        return parts
