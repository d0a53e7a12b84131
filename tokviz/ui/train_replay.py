"""Replaying recorded merges: what the corpus sample, the probe and the merge tree look like after
step N, computed from the MergeStep events the GUI has already received.

The trainer keeps running ahead in its thread; the panel shows any finished step (animation,
scrubber, Step button) by replaying the recorded events here, never by retraining and never by
reaching into the trainer's state while it changes. Segmenting by rank with a cut-off (apply the
lowest-ranked known pair first, only pairs of rank <= N) gives the same pieces as applying merges
1..N in order: a pair formed by a merge always has a higher rank than that merge.

Char mode: words split on whitespace, ``</w>`` glued to the last character, pairs keyed by their
pieces. Byte mode: the regex pre-split, then UTF-8 bytes (ids 0..255), pairs keyed by ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

import regex

from tokviz.core.bpe.events import MergeStep
from tokviz.core.bpe.model import HANGUL_DROP
from tokviz.core.pretokenize import PATTERNS

END_OF_WORD = "</w>"
_WORD_OR_SPACE = re.compile(r"\s+|\S+")


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a displayed line: ``token_id`` None for whitespace between char-mode words.

    ``text`` is what to draw (the piece without ``</w>``); ``partial`` when the token's bytes are not
    whole characters (drawn as hex); ``fresh`` when it is the token made by the current step.
    """

    text: str
    token_id: int | None
    data: bytes
    partial: bool = False
    fresh: bool = False


@dataclass(frozen=True, slots=True)
class MergeNode:
    """One node of a merge tree: a token and the two tokens it was merged from (None for base tokens)."""

    token_id: int
    piece: str
    left: "MergeNode | None"
    right: "MergeNode | None"
    step: int | None  # the merge that made it; None for base tokens

    def leaves(self) -> int:
        if self.left is None or self.right is None:
            return 1
        return self.left.leaves() + self.right.leaves()

    def depth(self) -> int:
        if self.left is None or self.right is None:
            return 1
        return 1 + max(self.left.depth(), self.right.depth())


def byte_piece(data: bytes) -> str:
    """Display form of token bytes: the text when they are whole UTF-8 characters, else ``<0xNN>`` runs
    for the bytes that are not (the MergeStep convention).

    >>> byte_piece("안".encode()), byte_piece(b"\\xec\\x95")
    ('안', '<0xEC><0x95>')
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out = []
    i = 0
    while i < len(data):
        for j in range(min(len(data), i + 4), i, -1):
            try:
                out.append(data[i:j].decode("utf-8"))
                i = j
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(f"<0x{data[i]:02X}>")
            i += 1
    return "".join(out)


def keep_hangul(line: str) -> str:
    """The ``hangul`` preset: only Hangul and whitespace survive (the classic Korean BPE tutorial)."""
    return HANGUL_DROP.sub("", line)


class MergeReplay:
    """Recorded merges of one run, and segmentation at any recorded step."""

    def __init__(self, mode: str, pattern: str = "gpt4", keep: str | None = None):
        self.mode = mode
        self.pattern = PATTERNS.get(pattern) if mode == "byte" else None
        self._split = regex.compile(self.pattern) if self.pattern else None
        self.keep = keep
        self.steps: list[MergeStep] = []
        # char mode: (left piece, right piece) -> step; byte mode: (left id, right id) -> step
        self._pairs: dict[tuple, int] = {}
        self._made_by: dict[int, int] = {}  # token id -> step index (0-based) that made it
        self._piece_id: dict[str, int] = {}  # char mode: piece -> id (base pieces learned from merges)
        self._cache_step = -1
        self._cache: dict[str, list[Segment]] = {}

    # ---- recording --------------------------------------------------------------------------
    def add(self, steps: Iterable[MergeStep]) -> None:
        for s in steps:
            i = len(self.steps)
            self.steps.append(s)
            if self.mode == "char":
                self._pairs.setdefault((s.left_piece, s.right_piece), i)
                self._piece_id.setdefault(s.left_piece, s.left)
                self._piece_id.setdefault(s.right_piece, s.right)
                self._piece_id.setdefault(s.new_piece, s.token_id)
            else:
                self._pairs.setdefault((s.left, s.right), i)
            self._made_by.setdefault(s.token_id, i)

    def __len__(self) -> int:
        return len(self.steps)

    # ---- segmentation -----------------------------------------------------------------------
    def segment(self, line: str, step: int) -> list[Segment]:
        """Pieces of ``line`` after merges 1..``step``; the tokens made by merge ``step`` are ``fresh``."""
        if step != self._cache_step:
            self._cache_step = step
            self._cache = {}
        cached = self._cache.get(line)
        if cached is not None:
            return cached
        fresh_id = self.steps[step - 1].token_id if 0 < step <= len(self.steps) else None
        out: list[Segment] = []
        if self.mode == "char":
            # no keep filter here: the model encodes whatever it is given (the panel filters the
            # corpus sample itself, to show the text the trainer counted)
            for m in _WORD_OR_SPACE.finditer(line):
                word = m.group()
                if word[0].isspace():
                    out.append(Segment(word, None, word.encode("utf-8")))
                    continue
                for piece in self._merge_chars(word, step):
                    tid = self._piece_id.get(piece)
                    if tid is None:  # a character no merge has used yet: a stable stand-in colour id
                        tid = -1 - ord(piece[0])
                    shown = piece[: -len(END_OF_WORD)] if piece.endswith(END_OF_WORD) else piece
                    out.append(Segment(shown, tid, shown.encode("utf-8"), False, tid == fresh_id))
        else:
            chunks = [m.group() for m in self._split.finditer(line)] if self._split else [line]
            for chunk in chunks:
                for tid in self._merge_bytes(chunk.encode("utf-8"), step):
                    data = self.token_bytes(tid)
                    try:
                        shown = data.decode("utf-8")
                        partial = False
                    except UnicodeDecodeError:
                        shown = data.hex(" ")
                        partial = True
                    out.append(Segment(shown, tid, data, partial, tid == fresh_id))
        self._cache[line] = out
        return out

    def _merge_chars(self, word: str, step: int) -> list[str]:
        parts = list(word[:-1]) + [word[-1] + END_OF_WORD]
        return self._merge(parts, step, lambda a, b: self.steps[self._pairs[(a, b)]].new_piece)

    def _merge_bytes(self, data: bytes, step: int) -> list[int]:
        return self._merge(list(data), step, lambda a, b: self.steps[self._pairs[(a, b)]].token_id)

    def _merge(self, parts: list, step: int, joined) -> list:
        pairs = self._pairs
        while len(parts) > 1:
            best = None
            for a, b in zip(parts, parts[1:]):
                r = pairs.get((a, b))
                if r is not None and r < step and (best is None or r < best[0]):
                    best = (r, a, b)
            if best is None:
                break
            _, a, b = best
            new = joined(a, b)
            merged: list = []
            i = 0
            while i < len(parts):
                if i + 1 < len(parts) and parts[i] == a and parts[i + 1] == b:
                    merged.append(new)
                    i += 2
                else:
                    merged.append(parts[i])
                    i += 1
            parts = merged
        return parts

    # ---- tokens -----------------------------------------------------------------------------
    def token_bytes(self, token_id: int) -> bytes:
        i = self._made_by.get(token_id)
        if i is not None:
            return self.steps[i].new_bytes
        if self.mode == "byte" and 0 <= token_id < 256:
            return bytes([token_id])
        return b""

    def merge_tree(self, token_id: int, step: int | None = None) -> MergeNode:
        """The merges that built ``token_id``, down to base tokens (bytes or characters)."""
        limit = len(self.steps) if step is None else step
        i = self._made_by.get(token_id)
        if i is None or i >= limit:
            return MergeNode(token_id, self._base_piece(token_id), None, None, None)
        s = self.steps[i]
        left = self.merge_tree(s.left, limit)
        right = self.merge_tree(s.right, limit)
        return MergeNode(s.token_id, s.new_piece, left, right, s.step)

    def _base_piece(self, token_id: int) -> str:
        if self.mode == "byte" and 0 <= token_id < 256:
            return byte_piece(bytes([token_id]))
        for piece, tid in self._piece_id.items():
            if tid == token_id:
                return piece
        return "?"
