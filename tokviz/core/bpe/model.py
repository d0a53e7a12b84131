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

import random
from collections.abc import Iterable, Mapping, Sequence

import regex

from tokviz.core.bpe.modes import END_OF_WORD, UNK, ByteBPE, CharBPE, display_bytes, merge_bytes, pattern_regex
from tokviz.core.encoding import Encoding, char_byte_starts
from tokviz.core.errors import TokvizError, check_text

__all__ = ["END_OF_WORD", "HANGUL_DROP", "UNK", "BPEModel", "display_bytes", "merge_bytes", "pattern_regex"]

# The classic Korean BPE tutorial keeps Hangul (syllables and compatibility jamo) and spaces only.
HANGUL_DROP = regex.compile(r"[^\u3131-\u318E\uAC00-\uD7A3\s]+")

_WORD = regex.compile(r"\S+")


class BPEModel:
    """Merges (with their mode and pattern) as an Encoder.

    ``merges`` are ``(left id, right id, new id)`` in rank order. Byte mode: ids 0-255 are the
    bytes, merge ``r`` creates id ``256 + r``, special tokens follow the merges. Char mode: id 0 is
    ``<unk>`` (any character not in the base vocabulary), ids 1..len(base) the base symbols (``"x"``
    and word-final ``"x</w>"``), then merged tokens (a string made twice keeps its first id), then
    special tokens. The vocabulary itself is a :class:`~tokviz.core.bpe.modes.ByteBPE` or
    :class:`~tokviz.core.bpe.modes.CharBPE`.

    Every encoding method takes ``max_rank``: only the first ``max_rank`` merges are used, which
    is the model after that many training steps.
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
        self.merges: list[tuple[int, int, int]] = []
        self.settings = dict(settings or {})
        self.source = source
        self.byte_level = mode == "byte"
        self.vocab: ByteBPE | CharBPE = ByteBPE(pattern) if mode == "byte" else CharBPE(list(base or []))
        self.grow(merges)
        self.name = name or f"tokviz BPE (step {len(self.merges)})"
        n = self._ordinary_size()
        if isinstance(special_tokens, Mapping):
            self._specials = dict(special_tokens)
        else:
            self._specials = {s: n + i for i, s in enumerate(dict.fromkeys(special_tokens))}
        self._special_of_id = {i: s for s, i in self._specials.items()}
        self._special_rx = (
            regex.compile("|".join(regex.escape(s) for s in sorted(self._specials, key=len, reverse=True)))
            if self._specials else None
        )

    @classmethod
    def growing(cls, mode: str, pattern: str = "gpt4", keep: str | None = None) -> BPEModel:
        """An empty model whose merges arrive later through :meth:`grow_steps` (the Train panel's
        replay). Char mode learns its base pieces from the steps, so characters no step has used
        yet encode as ``<unk>``."""
        model = cls(mode=mode, pattern=pattern if mode == "byte" else "whitespace", keep=keep)
        if mode == "char":
            model.vocab = CharBPE(None)
        return model

    def grow(self, merges: Iterable[tuple[int, int, int]]) -> None:
        """Append merges ``(left, right, new)``. Only for the owner of a model that is still being
        built (the constructor, the replay): a model handed to Inspect or Compare never changes."""
        add = self.vocab.add
        for m in merges:
            a, b, t = m
            add(a, b, t)
            self.merges.append((a, b, t))

    def grow_steps(self, steps: Iterable) -> None:
        """Append recorded :class:`~tokviz.core.bpe.events.MergeStep` events (see :meth:`grow`)."""
        vocab = self.vocab
        for s in steps:
            if self.mode == "char":
                vocab.add(s.left, s.right, s.token_id, (s.left_piece, s.right_piece, s.new_piece))
            else:
                vocab.add(s.left, s.right, s.token_id)
            self.merges.append((s.left, s.right, s.token_id))

    def _ordinary_size(self) -> int:
        v = self.vocab
        return len(v.token_bytes) if isinstance(v, ByteBPE) else v.size

    # ---- Encoder protocol ------------------------------------------------------------------
    @property
    def base(self) -> list[str]:
        """Char mode: the base symbols (id = index + 1); empty in byte mode."""
        return list(self.vocab.base) if isinstance(self.vocab, CharBPE) else []

    @property
    def vocab_size(self) -> int:
        return max([self._ordinary_size(), *(i + 1 for i in self._specials.values())])

    @property
    def steps(self) -> int:
        return len(self.merges)

    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._specials)

    def token_bytes(self, token_id: int) -> bytes:
        if token_id in self._special_of_id:
            return self._special_of_id[token_id].encode("utf-8")
        v = self.vocab
        if isinstance(v, ByteBPE):
            if 0 <= token_id < len(v.token_bytes):
                return v.token_bytes[token_id]
        elif token_id in v.pieces:
            return v.token_bytes(token_id)
        raise TokvizError(f"token id {token_id} is outside the vocabulary (0..{self.vocab_size - 1})")

    def token_piece(self, token_id: int) -> str:
        """Display string of a token: char mode keeps ``</w>``; byte mode shows partial bytes as ``<0xNN>``."""
        if token_id in self._special_of_id:
            return self._special_of_id[token_id]
        v = self.vocab
        if isinstance(v, ByteBPE):
            if 0 <= token_id < len(v.pieces):
                return v.pieces[token_id]
        elif token_id in v.pieces:
            return v.pieces[token_id]
        raise TokvizError(f"token id {token_id} is outside the vocabulary (0..{self.vocab_size - 1})")

    def token_id(self, piece: str) -> int:
        """Id of a display piece (char mode: ``"ab</w>"``; byte mode: the text of whole characters)."""
        if piece in self._specials:
            return self._specials[piece]
        v = self.vocab
        return v.token_id(piece) if isinstance(v, ByteBPE) else v.id_of[piece]

    def ranks(self) -> dict[bytes, int]:
        """Byte mode: {token bytes: rank} as tiktoken wants it (a byte string made twice keeps its lowest id)."""
        if not isinstance(self.vocab, ByteBPE):
            raise TokvizError("ranks exist only for byte-mode models")
        return dict(self.vocab.ranks)

    def made_at(self, token_id: int) -> int | None:
        """The merge rank (0-based) that made ``token_id``; None for base and special tokens."""
        return self.vocab.made_at.get(token_id)

    def merge_tree(self, token_id: int, max_rank: int | None = None):
        """``(id, piece, left subtree, right subtree)`` down to base tokens (whose subtrees are None);
        a token made by merge ``max_rank`` or later counts as a base token.

        >>> m = BPEModel(mode="byte", merges=[(97, 98, 256), (256, 99, 257)])
        >>> m.merge_tree(257)[2][1], m.merge_tree(257)[3], m.merge_tree(257, max_rank=1)[2]
        ('ab', (99, 'c', None, None), None)
        """
        piece = self.token_piece(token_id)
        kids = self.vocab.children.get(token_id)
        if kids is None or (max_rank is not None and self.vocab.made_at[token_id] >= max_rank):
            return (token_id, piece, None, None)
        return (token_id, piece, self.merge_tree(kids[0], max_rank), self.merge_tree(kids[1], max_rank))

    def decode(self, ids: Sequence[int]) -> str:
        v = self.vocab
        if isinstance(v, ByteBPE):
            if not self._special_of_id:
                try:
                    # one C-level pass (the per-id method call cost ~8 ms on 10,000 characters);
                    # a negative id would index from the end, so the bounds are checked too
                    if min(ids, default=0) >= 0:
                        return b"".join(map(v.token_bytes.__getitem__, ids)).decode("utf-8", "replace")
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

    def encode(self, text: str, *, allow_special: bool = False, max_rank: int | None = None) -> Encoding:
        """Tokens of ``text`` (see the module docstring for the merge order), using the first
        ``max_rank`` merges only (None: all).

        >>> m = BPEModel(mode="byte", merges=[(104, 105, 256)])
        >>> m.encode("hi", max_rank=0).ids
        [104, 105]
        """
        return self._encode(text, allow_special, max_rank, 0.0, None)

    def encode_dropout(self, text: str, p: float, seed: int | None = None, *, allow_special: bool = False,
                       max_rank: int | None = None) -> Encoding:
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
            return self.encode(text, allow_special=allow_special, max_rank=max_rank)
        return self._encode(text, allow_special, max_rank, p, random.Random(seed))

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

    def _encode(self, text: str, allow_special: bool, max_rank: int | None, p: float,
                rng: random.Random | None) -> Encoding:
        check_text(text)
        v = self.vocab
        if isinstance(v, ByteBPE):
            toks: list[tuple[int, bytes]] = []
            kinds: list[str] = []
            tb = v.token_bytes
            for s, e, sid in self._segments(text, allow_special):
                if sid is not None:
                    toks.append((sid, self._special_of_id[sid].encode("utf-8")))
                    kinds.append("special")
                    continue
                for piece in v.text_pieces(text[s:e]):
                    for i in v.piece_ids(piece, max_rank, p, rng):
                        toks.append((i, tb[i]))
                        kinds.append("normal")
            return Encoding.from_byte_tokens(self.name, text, toks, kinds=kinds)
        starts = char_byte_starts(text)
        spans = []
        id_of = v.id_of
        for s, e, sid in self._segments(text, allow_special):
            if sid is not None:
                spans.append((sid, self._special_of_id[sid].encode("utf-8"), starts[s], starts[e], "special", None))
                continue
            for m in _WORD.finditer(text, s, e):
                pos = m.start()
                syms = v.word_pieces(m.group(), max_rank, p, rng)
                last = len(syms) - 1
                for k, sym in enumerate(syms):
                    # only the last piece carries the mark: one inside the word may end in a literal "</w>"
                    n = len(sym) - (len(END_OF_WORD) if k == last else 0)
                    tid = id_of.get(sym, 0)
                    spans.append(
                        (tid, text[pos: pos + n].encode("utf-8"), starts[pos], starts[pos + n],
                         "normal" if tid else "unknown", sym)
                    )
                    pos += n
        return Encoding.from_spans(self.name, text, spans)
