"""Replaying recorded merges: what the corpus sample, the probe and the merge tree look like after
step N, computed from the MergeStep events the GUI has already received.

The trainer keeps running ahead in its thread; the panel shows any finished step (animation,
scrubber, Step button) by replaying the recorded events here, never by retraining and never by
reaching into the trainer's state while it changes. The replay is the recorded steps plus one
:class:`~tokviz.core.bpe.model.BPEModel` grown from them: the pieces after step N are
``model.encode(line, max_rank=N)``, the same merge loop every BPE encoding in tokviz uses.

Char mode: words split on whitespace, ``</w>`` glued to the last character; a character that no
merge has used yet gets a stable stand-in id (``-1 - code point``) so that it keeps one colour.
Byte mode: the regex pre-split, then UTF-8 bytes (ids 0..255).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tokviz.core.bpe.events import MergeStep
from tokviz.core.bpe.model import HANGUL_DROP, BPEModel
from tokviz.core.errors import TokvizError
from tokviz.core.pretokenize import PATTERNS


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
    left: MergeNode | None
    right: MergeNode | None
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
        self.keep = keep
        self.steps: list[MergeStep] = []
        # grown here only, never handed out: a model given to other views never changes
        self._model = BPEModel.growing(mode, pattern if mode == "byte" and pattern in PATTERNS else "none", keep)
        self._cache_step = -1
        self._cache: dict[str, list[Segment]] = {}
        # byte mode: line -> (step, its pieces, the bytes a merge must make to change them, its
        # pre-split pieces' bytes), to move a line on without encoding it again (see _moved_on)
        self._last: dict[str, tuple[int, list[Segment], frozenset[bytes], frozenset[bytes]]] = {}

    # ---- recording --------------------------------------------------------------------------
    def add(self, steps: Iterable[MergeStep]) -> None:
        steps = list(steps)
        self._model.grow_steps(steps)
        self.steps.extend(steps)
        if self._cache_step >= len(self.steps) - len(steps):
            self._cache_step = -1  # a step at the old end meant "everything so far"

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def model(self) -> BPEModel:
        """The model the replay encodes with (all recorded steps; pass ``max_rank`` for fewer).
        Read it, never grow it: :meth:`add` does."""
        return self._model

    # ---- segmentation -----------------------------------------------------------------------
    def segment(self, line: str, step: int) -> list[Segment]:
        """Pieces of ``line`` after merges 1..``step``; the tokens made by merge ``step`` are ``fresh``."""
        if step != self._cache_step:
            self._cache_step = step
            self._cache = {}
        cached = self._cache.get(line)
        if cached is not None:
            return cached
        out = self._moved_on(line, step)
        if out is None:
            out = self._encode_segments(line, step)
            self._remember(line, step, out)
        self._cache[line] = out
        return out

    MEMO_LINES = 512  # a sample, the probe and what a user scrolls: more lines start the memo over

    def _moved_on(self, line: str, step: int) -> list[Segment] | None:
        """``line``'s pieces at ``step`` from its pieces at an earlier step, when none of the merges in
        between makes the bytes of two neighbouring pieces or of a whole pre-split piece: the merge
        loop (tiktoken's: by the joined bytes' rank, lowest first, a piece that is a token taken
        whole) then stops where it stopped before, as the pieces at the earlier step hold no pair of
        a lower rank. An animation's frame moves a few merges on, which leave most of the sample's
        lines as they were (a frame while following a fast trainer, ~100 merges on, seldom does);
        encoding each anew was most of a frame's time. None: encode it."""
        last = self._last.get(line)
        if last is None or last[0] > step:
            return None
        was, pieces, joined, whole = last
        token_bytes = self._model.token_bytes
        for s in self.steps[was:step]:
            if token_bytes(s.token_id) in joined:
                return None
        if was < step and any(p.fresh for p in pieces):
            # the token made by ``step`` is not in pieces that existed before it: nothing is fresh
            pieces = [Segment(p.text, p.token_id, p.data, p.partial) for p in pieces]
        self._last[line] = (step, pieces, joined, whole)
        return pieces

    def _remember(self, line: str, step: int, pieces: list[Segment]) -> None:
        if self.mode != "byte":  # char mode's stand-in ids are not merge ids: always encoded
            return
        if len(self._last) >= self.MEMO_LINES:
            self._last = {}
        # the bytes a later merge would have to make to change these pieces (pairs across two
        # pre-split pieces too: a needless encode at worst)
        last = self._last.get(line)
        if last is None:  # a line's pre-split pieces do not change with the step: split once
            whole = frozenset(piece.encode("utf-8") for piece in self._model.vocab.text_pieces(line))
        else:
            whole = last[3]
        joined = whole.union(a.data + b.data for a, b in zip(pieces, pieces[1:], strict=False))
        self._last[line] = (step, pieces, joined, whole)

    def _encode_segments(self, line: str, step: int) -> list[Segment]:
        fresh_id = self.steps[step - 1].token_id if 0 < step <= len(self.steps) else None
        # no keep filter here: the model encodes whatever it is given (the panel filters the
        # corpus sample itself, to show the text the trainer counted)
        enc = self._model.encode(line, max_rank=max(0, step))
        out: list[Segment] = []
        if self.mode == "char":
            pos = 0
            for tok in enc.tokens:
                if tok.start > pos:  # the whitespace between words
                    gap = line[pos : tok.start]
                    out.append(Segment(gap, None, gap.encode("utf-8")))
                # the text the token covers: a piece ending in a literal "</w>" inside a word keeps it
                shown = line[tok.start : tok.end]
                tid = tok.id if tok.kind != "unknown" else -1 - ord(shown[0])
                out.append(Segment(shown, tid, tok.bytes, False, tid == fresh_id))
                pos = tok.end
            if pos < len(line):
                gap = line[pos:]
                out.append(Segment(gap, None, gap.encode("utf-8")))
        else:
            for tok in enc.tokens:
                data = tok.bytes
                try:
                    shown, partial = data.decode("utf-8"), False
                except UnicodeDecodeError:
                    shown, partial = data.hex(" "), True
                out.append(Segment(shown, tok.id, data, partial, tok.id == fresh_id))
        return out

    # ---- tokens -----------------------------------------------------------------------------
    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of a token the replay knows (b"" for a stand-in id)."""
        try:
            return self._model.token_bytes(token_id)
        except TokvizError:  # a stand-in id of a character no merge has used
            return b""

    def merge_tree(self, token_id: int, step: int | None = None) -> MergeNode:
        """The merges that built ``token_id``, down to base tokens (bytes or characters)."""
        limit = len(self.steps) if step is None else step
        try:
            tree = self._model.merge_tree(token_id, max_rank=max(0, limit))
        except TokvizError:  # a stand-in id of a character no merge has used
            return MergeNode(token_id, "?", None, None, None)
        return self._node(tree)

    def _node(self, tree) -> MergeNode:
        tid, piece, left, right = tree
        if left is None:
            return MergeNode(tid, piece, None, None, None)
        return MergeNode(tid, piece, self._node(left), self._node(right), self._model.made_at(tid) + 1)
