"""A trained BPE model (any prefix of the merges): an Encoder like every other family.

Byte mode encodes like tiktoken: each pre-split piece starts as its UTF-8 bytes, and the adjacent
pair whose *concatenated bytes* have the lowest rank is merged (leftmost on ties) until no pair
has a rank; a piece that is itself a token is one token. Token id = rank. Char mode encodes like
subword-nmt's ``apply_bpe``: each whitespace-separated word starts as its characters with ``</w>``
glued to the last one, and all occurrences of the pair with the lowest merge rank are merged,
left to right, until no pair of the word is a merge. Whitespace between words is a gap (no token).

>>> m = BPEModel(mode="byte", pattern="gpt4", merges=[(104, 105, 256)])
>>> m.encode("hi hi").ids
[256, 32, 256]
>>> m.decode([256, 32, 256])
'hi hi'
>>> m.merge_tree(256)
(256, 'hi', (104, 'h', None, None), (105, 'i', None, None))
"""

from __future__ import annotations

import codecs
import random
from functools import lru_cache
from typing import Mapping, Sequence

import regex

from tokviz.core.encoding import Encoding, char_byte_starts
from tokviz.core.errors import TokvizError, check_text
from tokviz.core.pretokenize import PATTERNS

END_OF_WORD = "</w>"
UNK = "<unk>"

# The classic Korean BPE tutorial keeps Hangul (syllables and compatibility jamo) and spaces only.
HANGUL_DROP = regex.compile(r"[^\u3131-\u318E\uAC00-\uD7A3\s]+")


def _hex_bytes(err: UnicodeDecodeError):
    return "".join(f"<0x{b:02X}>" for b in err.object[err.start: err.end]), err.end


codecs.register_error("tokviz-hexbytes", _hex_bytes)


def display_bytes(b: bytes) -> str:
    """Token bytes for display: UTF-8 text, with bytes that are not whole characters as ``<0xNN>``.

    >>> display_bytes("안".encode()[:2]), display_bytes(b" a")
    ('<0xEC><0x95>', ' a')
    """
    return b.decode("utf-8", "tokviz-hexbytes")


@lru_cache(maxsize=None)
def pattern_regex(name: str):
    """Compiled pre-split regex for pattern ``name`` (None for ``"none"``)."""
    if name not in PATTERNS:
        raise TokvizError(f"unknown pre-split pattern {name!r}: use one of {', '.join(PATTERNS)}")
    pat = PATTERNS[name]
    return None if pat is None else regex.compile(pat)


_WORD = regex.compile(r"\S+")


class BPEModel:
    """Merges (with their mode and pattern) as an Encoder.

    ``merges`` are ``(left id, right id, new id)`` in rank order. Byte mode: ids 0-255 are the
    bytes, merge ``r`` creates id ``256 + r``, special tokens follow the merges. Char mode: id 0 is
    ``<unk>`` (any character not in the base vocabulary), ids 1..len(base) the base symbols (``"x"``
    and word-final ``"x</w>"``), then merged tokens (a string made twice keeps its first id), then
    special tokens.
    """

    family = "tokviz-bpe"

    def __init__(
        self,
        *,
        mode: str,
        pattern: str = "gpt4",
        merges: Sequence[tuple[int, int, int]] = (),
        base: Sequence[str] | None = None,
        special_tokens: Sequence[str] | Mapping[str, int] = (),
        keep: str | None = None,
        settings: Mapping | None = None,
        name: str | None = None,
        source: str = "trained in tokviz",
    ):
        if mode not in ("char", "byte"):
            raise TokvizError(f"unknown BPE mode {mode!r}")
        self.mode = mode
        self.pattern = pattern
        self.keep = keep
        self.merges: list[tuple[int, int, int]] = [tuple(m) for m in merges]
        self.settings = dict(settings or {})
        self.name = name or f"tokviz BPE (step {len(self.merges)})"
        self.source = source
        self.byte_level = mode == "byte"
        self._children: dict[int, tuple[int, int]] = {}
        if mode == "byte":
            self._rx = pattern_regex(pattern)
            self._bytes: list[bytes] = [bytes([i]) for i in range(256)]
            for rank, (a, b, t) in enumerate(self.merges):
                if t != 256 + rank or not (0 <= a < t and 0 <= b < t):
                    raise TokvizError(f"merge {rank} ({a}, {b}) -> {t} is not a byte-mode merge")
                self._bytes.append(self._bytes[a] + self._bytes[b])
                self._children[t] = (a, b)
            # tiktoken semantics: rank of a byte string = its lowest id
            self._ranks: dict[bytes, int] = {}
            for i, tb in enumerate(self._bytes):
                self._ranks.setdefault(tb, i)
            self._pieces = [display_bytes(b) for b in self._bytes]
        else:
            self._rx = None
            self.base = list(base or [])
            self._pieces = [UNK] + self.base
            self._id_of: dict[str, int] = {p: i for i, p in enumerate(self._pieces)}
            self._code_rank: dict[tuple[str, str], int] = {}
            for rank, (a, b, t) in enumerate(self.merges):
                if not (0 < a < len(self._pieces) and 0 < b < len(self._pieces)):
                    raise TokvizError(f"merge {rank} ({a}, {b}) -> {t} uses a token that does not exist yet")
                piece = self._pieces[a] + self._pieces[b]
                if t == len(self._pieces):
                    self._pieces.append(piece)
                    self._id_of[piece] = t
                    self._children[t] = (a, b)
                elif t > len(self._pieces) or self._pieces[t] != piece:
                    raise TokvizError(f"merge {rank} ({a}, {b}) -> {t} does not continue the vocabulary")
                self._code_rank.setdefault((self._pieces[a], self._pieces[b]), rank)
            self._bytes = [b""] + [p.removesuffix(END_OF_WORD).encode("utf-8") for p in self._pieces[1:]]
        n = len(self._pieces)
        if isinstance(special_tokens, Mapping):
            self._specials = dict(special_tokens)
        else:
            self._specials = {s: n + i for i, s in enumerate(dict.fromkeys(special_tokens))}
        self._special_of_id = {i: s for s, i in self._specials.items()}
        self._special_rx = (
            regex.compile("|".join(regex.escape(s) for s in sorted(self._specials, key=len, reverse=True)))
            if self._specials else None
        )
        self._cache: dict[str, list[int]] = {}

    # ---- Encoder protocol ------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        ids = len(self._pieces)
        return max([ids, *(i + 1 for i in self._specials.values())])

    @property
    def steps(self) -> int:
        return len(self.merges)

    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._specials)

    def token_bytes(self, token_id: int) -> bytes:
        if token_id in self._special_of_id:
            return self._special_of_id[token_id].encode("utf-8")
        if not 0 <= token_id < len(self._bytes):
            raise TokvizError(f"token id {token_id} is outside the vocabulary (0..{self.vocab_size - 1})")
        return self._bytes[token_id]

    def token_piece(self, token_id: int) -> str:
        """Display string of a token: char mode keeps ``</w>``; byte mode shows partial bytes as ``<0xNN>``."""
        if token_id in self._special_of_id:
            return self._special_of_id[token_id]
        if not 0 <= token_id < len(self._pieces):
            raise TokvizError(f"token id {token_id} is outside the vocabulary (0..{self.vocab_size - 1})")
        return self._pieces[token_id]

    def token_id(self, piece: str) -> int:
        """Id of a display piece (char mode: ``"ab</w>"``; byte mode: the text of whole characters)."""
        if piece in self._specials:
            return self._specials[piece]
        if self.mode == "char":
            return self._id_of[piece]
        return self._ranks[piece.encode("utf-8")]

    def ranks(self) -> dict[bytes, int]:
        """Byte mode: {token bytes: rank} as tiktoken wants it (a byte string made twice keeps its lowest id)."""
        if self.mode != "byte":
            raise TokvizError("ranks exist only for byte-mode models")
        return dict(self._ranks)

    def merge_tree(self, token_id: int):
        """``(id, piece, left subtree, right subtree)`` down to base tokens (whose subtrees are None).

        >>> m = BPEModel(mode="byte", merges=[(97, 98, 256), (256, 99, 257)])
        >>> m.merge_tree(257)[2][1], m.merge_tree(257)[3]
        ('ab', (99, 'c', None, None))
        """
        piece = self.token_piece(token_id)
        kids = self._children.get(token_id)
        if kids is None:
            return (token_id, piece, None, None)
        return (token_id, piece, self.merge_tree(kids[0]), self.merge_tree(kids[1]))

    def decode(self, ids: Sequence[int]) -> str:
        if self.mode == "byte":
            if not self._special_of_id:
                try:
                    # one C-level pass (the per-id method call cost ~8 ms on 10,000 characters);
                    # a negative id would index from the end, so the bounds are checked too
                    if min(ids, default=0) >= 0:
                        return b"".join(map(self._bytes.__getitem__, ids)).decode("utf-8", "replace")
                except (IndexError, TypeError):
                    pass  # the per-id path below names the bad id
            return b"".join(self.token_bytes(i) for i in ids).decode("utf-8", "replace")
        out = []
        for i in ids:
            if i in self._special_of_id:
                out.append(self._special_of_id[i])
            elif i == 0:
                out.append("\ufffd")
            else:
                out.append(self.token_piece(i).replace(END_OF_WORD, " "))
        return "".join(out).removesuffix(" ")

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        """Tokens of ``text`` (see the module docstring for the merge order)."""
        return self._encode(text, allow_special, None, None)

    def encode_dropout(self, text: str, p: float, seed: int | None = None, *, allow_special: bool = False) -> Encoding:
        """BPE-dropout (Provilkov et al. 2020): at every merge step each applicable merge is skipped
        with probability ``p``; when all are skipped the piece stays as it is. ``p=0`` is exactly
        :meth:`encode`; ``p=1`` gives bytes (characters in char mode). ``seed`` makes it repeatable.

        >>> m = BPEModel(mode="byte", merges=[(104, 105, 256)])
        >>> m.encode_dropout("hi", 1.0, seed=1).ids, m.encode_dropout("hi", 0.0).ids
        ([104, 105], [256])
        """
        if not 0.0 <= p <= 1.0:
            raise TokvizError(f"dropout probability must be between 0 and 1, got {p}")
        if p == 0.0:
            return self.encode(text, allow_special=allow_special)
        return self._encode(text, allow_special, p, random.Random(seed))

    # ---- encoding ----------------------------------------------------------------------------
    def _segments(self, text: str, allow_special: bool):
        """(start, end, special id or None) segments of ``text`` in order."""
        if not (allow_special and self._special_rx):
            yield 0, len(text), None
            return
        pos = 0
        for m in self._special_rx.finditer(text):
            if m.start() > pos:
                yield pos, m.start(), None
            yield m.start(), m.end(), self._specials[m.group()]
            pos = m.end()
        if pos < len(text):
            yield pos, len(text), None

    def _encode(self, text: str, allow_special: bool, p: float | None, rng: random.Random | None) -> Encoding:
        check_text(text)
        if self.mode == "byte":
            toks: list[tuple[int, bytes]] = []
            kinds: list[str] = []
            for s, e, sid in self._segments(text, allow_special):
                if sid is not None:
                    toks.append((sid, self._special_of_id[sid].encode("utf-8")))
                    kinds.append("special")
                    continue
                seg = text[s:e]
                pieces = [seg] if self._rx is None else self._rx.findall(seg)
                for piece in pieces:
                    ids = self._byte_piece(piece) if p is None else self._byte_piece_dropout(piece, p, rng)
                    for i in ids:
                        toks.append((i, self._bytes[i]))
                        kinds.append("normal")
            return Encoding.from_byte_tokens(self.name, text, toks, kinds=kinds)
        starts = char_byte_starts(text)
        spans = []
        for s, e, sid in self._segments(text, allow_special):
            if sid is not None:
                spans.append((sid, self._special_of_id[sid].encode("utf-8"), starts[s], starts[e], "special", None))
                continue
            for m in _WORD.finditer(text, s, e):
                pos = m.start()
                symbols = self._char_word(m.group()) if p is None else self._char_word_dropout(m.group(), p, rng)
                for sym in symbols:
                    n = len(sym) - (len(END_OF_WORD) if sym.endswith(END_OF_WORD) else 0)
                    tid = self._id_of.get(sym, 0)
                    bs, be = starts[pos], starts[pos + n]
                    spans.append(
                        (tid, text[pos: pos + n].encode("utf-8"), bs, be, "normal" if tid else "unknown", sym)
                    )
                    pos += n
        return Encoding.from_spans(self.name, text, spans)

    def _byte_piece(self, piece: str) -> list[int]:
        ids = self._cache.get(piece)
        if ids is None:
            ids = _byte_pair_merge(piece.encode("utf-8"), self._ranks)
            if len(self._cache) < 100_000:
                self._cache[piece] = ids
        return ids

    def _byte_piece_dropout(self, piece: str, p: float, rng: random.Random) -> list[int]:
        ranks = self._ranks
        parts = [bytes([x]) for x in piece.encode("utf-8")]
        while len(parts) > 1:
            best = None
            best_i = -1
            for i in range(len(parts) - 1):
                r = ranks.get(parts[i] + parts[i + 1])
                if r is not None and rng.random() >= p and (best is None or r < best):
                    best, best_i = r, i
            if best is None:
                break
            parts[best_i: best_i + 2] = [parts[best_i] + parts[best_i + 1]]
        return [ranks[x] for x in parts]

    def _char_word(self, word: str) -> list[str]:
        key = "\x00" + word  # char-mode cache entries never collide with byte pieces
        cached = self._cache.get(key)
        if cached is None:
            cached = _apply_codes(_char_symbols(word), self._code_rank, None, None)
            if len(self._cache) < 100_000:
                self._cache[key] = cached
        return cached

    def _char_word_dropout(self, word: str, p: float, rng: random.Random) -> list[str]:
        return _apply_codes(_char_symbols(word), self._code_rank, p, rng)


def _char_symbols(word: str) -> list[str]:
    return list(word[:-1]) + [word[-1] + END_OF_WORD]


def _apply_codes(symbols: list[str], code_rank: dict, p: float | None, rng: random.Random | None) -> list[str]:
    """subword-nmt's merge loop: merge every occurrence of the lowest-rank pair, left to right."""
    word = symbols
    while len(word) > 1:
        best = None
        # distinct pairs in word order (not set order, which depends on string hashing), so that
        # a seeded dropout draws the same random numbers for the same pairs in every process
        for pair in dict.fromkeys(zip(word, word[1:])):
            r = code_rank.get(pair)
            if r is None or (p is not None and rng.random() < p):
                continue
            if best is None or r < best[0]:
                best = (r, pair)
        if best is None:
            break
        first, second = best[1]
        out = []
        i = 0
        n = len(word)
        while i < n:
            if i < n - 1 and word[i] == first and word[i + 1] == second:
                out.append(first + second)
                i += 2
            else:
                out.append(word[i])
                i += 1
        word = out
    return word


def _byte_pair_merge(piece: bytes, ranks: Mapping[bytes, int]) -> list[int]:
    """tiktoken's merge for one piece: lowest-rank adjacent concatenation first, leftmost on ties."""
    whole = ranks.get(piece)
    if whole is not None:
        return [whole]
    parts = [piece[i: i + 1] for i in range(len(piece))]
    get = ranks.get
    pair_ranks = [get(parts[i] + parts[i + 1]) for i in range(len(parts) - 1)]
    inf = float("inf")
    while pair_ranks:
        best = inf
        best_i = -1
        for i, r in enumerate(pair_ranks):
            if r is not None and r < best:
                best, best_i = r, i
        if best_i < 0:
            break
        parts[best_i: best_i + 2] = [parts[best_i] + parts[best_i + 1]]
        del pair_ranks[best_i]
        if best_i > 0:
            pair_ranks[best_i - 1] = get(parts[best_i - 1] + parts[best_i])
        if best_i < len(parts) - 1:
            pair_ranks[best_i] = get(parts[best_i] + parts[best_i + 1])
    return [ranks[x] for x in parts]
