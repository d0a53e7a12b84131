"""Names for byte-level tokens that hold part of a character: ``것 bytes 1–2 of 3`` instead of
``<0xEA><0xB2>``.

A byte-level BPE model learns pieces such as ``EA B2`` long before it learns the whole syllable
``것`` (``EA B2 83``). On their own those bytes say little to a student; named after the character
they belong to, and the position inside it, they say what the merge did. Which character a partial
piece belongs to is exact when the text around it is known (``before``/``after``), and otherwise
the most frequent character of the corpus that has these bytes at this position (a
:class:`CharGuesser` built from character counts). Without either, the part names the range of
characters it could belong to.

>>> [p.label for p in byte_parts("것".encode()[:2], after="것".encode()[2:])]
['것 bytes 1–2 of 3']
>>> describe_merge(b"\\xea\\xb2", b"\\x83")
'것 bytes 1–2 of 3 + 것 byte 3 of 3 → 것 (completes 것)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# ---- UTF-8 structure -----------------------------------------------------------------------------


def _is_continuation(b: int) -> bool:
    return 0x80 <= b <= 0xBF


def _lead_length(b: int) -> int:
    """The UTF-8 length a lead byte announces (1 for ASCII), 0 for a byte that cannot start one."""
    if b < 0x80:
        return 1
    if 0xC2 <= b <= 0xDF:
        return 2
    if 0xE0 <= b <= 0xEF:
        return 3
    if 0xF0 <= b <= 0xF4:
        return 4
    return 0


def _code_point_range(head: bytes, length: int) -> tuple[int, int] | None:
    """The smallest and largest code point whose UTF-8 starts with ``head`` (a lead byte plus
    continuation bytes) and is ``length`` bytes long, or None when no character does."""
    lo = head + b"\x80" * (length - len(head))
    hi = head + b"\xbf" * (length - len(head))
    points = []
    for candidate in (lo, hi):
        try:
            points.append(ord(candidate.decode("utf-8")))
        except UnicodeDecodeError:
            points.append(None)
    if None in points:  # overlong or surrogate corners: search inward for the valid ends
        valid = []
        for last in range(0x80, 0xC0) if length - len(head) == 1 else ():
            try:
                valid.append(ord((head + bytes([last])).decode("utf-8")))
            except UnicodeDecodeError:
                pass
        return (min(valid), max(valid)) if valid else None
    return points[0], points[1]


# ---- the parts of a piece ------------------------------------------------------------------------


@dataclass(frozen=True)
class BytePart:
    """A run of a piece's bytes that lies in one character.

    ``first``/``last`` are 1-based byte positions inside the character and ``length`` its UTF-8
    length (0 when unknown, e.g. a lone continuation byte with no context). ``char`` is the
    character when known or guessed (``guessed`` says which); otherwise ``candidates`` is the
    range of code points it could be (or None when even that is unknown).
    """

    data: bytes
    char: str | None
    first: int
    last: int
    length: int
    guessed: bool = False
    candidates: tuple[int, int] | None = None

    @property
    def whole(self) -> bool:
        """True when the part is a whole character."""
        return self.char is not None and self.first == 1 and self.last == self.length

    @property
    def hex(self) -> str:
        """Upper-case hex of the part's bytes, ``EA B2``."""
        return self.data.hex(" ").upper()

    @property
    def position(self) -> str:
        """``bytes 1–2 of 3``, ``byte 3 of 3``, or ``bytes 2–3`` when the length is unknown."""
        span = f"byte {self.first}" if self.first == self.last else f"bytes {self.first}–{self.last}"
        return f"{span} of {self.length}" if self.length else span

    @property
    def label(self) -> str:
        """What a student reads: the character itself when whole, else ``것 bytes 1–2 of 3``."""
        if self.whole:
            return self.char  # type: ignore[return-value]
        if self.char is not None:
            return f"{self.char} {self.position}"
        if self.candidates is not None:
            lo, hi = self.candidates
            return f"{self.position} of one of {chr(lo)}–{chr(hi)} (U+{lo:04X}–U+{hi:04X})"
        return f"{self.position} of a character"


class CharGuesser:
    """The most frequent character with given bytes at a given position, from character counts.

    Built once per corpus (a few thousand distinct characters), then each lookup is a dict access.

    >>> g = CharGuesser({"것": 10, "겁": 3})
    >>> g.guess(b"\\xea\\xb2", 0, 3)
    '것'
    """

    def __init__(self, char_counts: Mapping[str, int]):
        best: dict[tuple[bytes, int, int], tuple[int, str]] = {}
        for ch, count in char_counts.items():
            if len(ch) != 1:
                continue
            try:
                data = ch.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate has no UTF-8
                continue
            n = len(data)
            if n < 2:
                continue
            for i in range(n):
                for j in range(i + 1, n + 1):
                    key = (data[i:j], i, n)
                    # ties go to the smaller code point, so the guess does not depend on dict order
                    if key not in best or (count, -ord(ch)) > (best[key][0], -ord(best[key][1])):
                        best[key] = (count, ch)
        self._best = best

    def guess(self, data: bytes, offset: int, length: int) -> str | None:
        """The most frequent character whose UTF-8 is ``length`` bytes long and holds ``data`` at
        byte ``offset`` (0-based), or None."""
        hit = self._best.get((data, offset, length))
        return hit[1] if hit else None

    def guess_any(self, data: bytes, placements: list[tuple[int, int]]) -> tuple[str, int, int] | None:
        """The best guess over several possible ``(offset, length)`` placements of ``data``."""
        found = None
        for offset, length in placements:
            hit = self._best.get((data, offset, length))
            if hit and (found is None or (hit[0], -ord(hit[1])) > (found[0][0], -ord(found[0][1]))):
                found = (hit, offset, length)
        if found is None:
            return None
        (_, ch), offset, length = found
        return ch, offset, length


def _char_around(data: bytes, before: bytes, after: bytes, head: bool) -> tuple[str, int, int] | None:
    """The character that ``data`` (a partial run at the start or end of a piece) lies in, found in
    the real text around it: returns ``(char, offset of data in it, its length)``."""
    if head:  # data starts with a lead byte; the rest of the character follows in ``after``
        n = _lead_length(data[0])
        need = n - len(data)
        if n == 0 or need < 0 or len(after) < need:
            return None
        whole = data + after[:need]
        offset = 0
    else:  # data is continuation bytes; walk back over ``before`` to the lead byte
        k = 0
        while k < len(before) and _is_continuation(before[-1 - k]):
            k += 1
        if k >= len(before):
            return None
        lead_at = len(before) - 1 - k
        n = _lead_length(before[lead_at])
        offset = k + 1
        need = n - offset - len(data)
        if n == 0 or need < 0 or len(after) < need:
            return None
        whole = before[lead_at:] + data + after[:need]
    try:
        ch = whole.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return (ch, offset, n) if len(ch) == 1 else None


def byte_parts(
    piece: bytes,
    *,
    before: bytes = b"",
    after: bytes = b"",
    guesser: CharGuesser | None = None,
) -> list[BytePart]:
    """Split a token's bytes into runs that each lie in one character, and name each run.

    ``before``/``after`` are the text's bytes just before and after the token (exact naming);
    ``guesser`` names partial runs from corpus counts when the text is not known.

    >>> [p.label for p in byte_parts("a것".encode()[:3], after=b"\\x83")]
    ['a', '것 bytes 1–2 of 3']
    >>> [p.label for p in byte_parts("a것".encode()[:3])]  # no context, no guesser: the range
    ['a', 'bytes 1–2 of 3 of one of 검–겿 (U+AC80–U+ACBF)']
    >>> [p.label for p in byte_parts(b"\\x83 b", before=b"\\xea\\xb2")]
    ['것 byte 3 of 3', ' ', 'b']
    """
    parts: list[BytePart] = []
    i, n = 0, len(piece)
    # a run of continuation bytes at the start: the end (or middle) of a character begun earlier
    while i < n and _is_continuation(piece[i]):
        i += 1
    if i:
        parts.append(_tail_part(piece[:i], closed=i < n, before=before, after=piece[i:] + after, guesser=guesser))
    while i < n:
        length = _lead_length(piece[i])
        j = i + 1
        while j < n and j - i < max(length, 1) and _is_continuation(piece[j]):
            j += 1
        run = piece[i:j]
        if length == 0:  # not a lead byte (0xC0, 0xC1, 0xF5-0xFF): never in valid UTF-8
            parts.append(BytePart(run, None, 1, len(run), 0))
        elif len(run) == length:
            try:
                parts.append(BytePart(run, run.decode("utf-8"), 1, length, length))
            except UnicodeDecodeError:  # e.g. an encoded surrogate, ED A0 80
                parts.append(BytePart(run, None, 1, length, length, candidates=None))
        else:
            parts.append(_head_part(run, length, after=piece[j:] + after if j == n else b"", guesser=guesser))
        i = j
    return parts


def _head_part(run: bytes, length: int, *, after: bytes, guesser: CharGuesser | None) -> BytePart:
    found = _char_around(run, b"", after, head=True) if after else None
    if found:
        return BytePart(run, found[0], 1, len(run), length)
    if guesser is not None:
        ch = guesser.guess(run, 0, length)
        if ch is not None:
            return BytePart(run, ch, 1, len(run), length, guessed=True)
    return BytePart(run, None, 1, len(run), length, candidates=_code_point_range(run, length))


def _tail_part(run: bytes, *, closed: bool, before: bytes, after: bytes, guesser: CharGuesser | None) -> BytePart:
    """A run of continuation bytes at the start of a piece. ``closed``: the piece goes on after it
    with a new character, so the run ends its character."""
    k = len(run)
    found = _char_around(run, before, after, head=False) if before else None
    if found:
        ch, offset, length = found
        return BytePart(run, ch, offset + 1, offset + k, length)
    if closed:
        placements = [(length - k, length) for length in range(k + 1, 5)]
    else:
        placements = [(offset, length) for length in range(k + 1, 5) for offset in range(1, length - k + 1)]
    if guesser is not None:
        hit = guesser.guess_any(run, placements)
        if hit is not None:
            ch, offset, length = hit
            return BytePart(run, ch, offset + 1, offset + k, length, guessed=True)
    if len(placements) == 1:
        offset, length = placements[0]
        return BytePart(run, None, offset + 1, offset + k, length)
    if closed:  # the end of a character of unknown length: count positions from its end
        return BytePart(run, None, 0, 0, 0)
    return BytePart(run, None, 0, 0, 0)


def describe_piece(piece: bytes, *, guesser: CharGuesser | None = None) -> str:
    """One line for a token's bytes: its parts' labels joined with ``·``.

    >>> describe_piece("것".encode()[:2], guesser=CharGuesser({"것": 1}))
    '것 bytes 1–2 of 3'
    """
    return " · ".join(_label(p) for p in byte_parts(piece, guesser=guesser))


def _label(part: BytePart) -> str:
    if part.char is None and part.first == 0:
        return f"{len(part.data)} continuation byte{'s' if len(part.data) > 1 else ''} {part.hex}"
    return part.label


@dataclass(frozen=True)
class MergeName:
    """A merge ``left + right → new`` named by characters.

    ``left``/``right`` are the parts of each side (named consistently: both sides are read as one
    run of bytes, so ``EA B2 + 83`` names ``것`` on both); ``completes`` lists the characters the
    merge makes whole that neither side held whole.
    """

    left: tuple[BytePart, ...]
    right: tuple[BytePart, ...]
    new: tuple[BytePart, ...]
    completes: tuple[str, ...]

    @property
    def text(self) -> str:
        def side(parts):
            return " · ".join(_label(p) for p in parts)

        line = f"{side(self.left)} + {side(self.right)} → {side(self.new)}"
        if self.completes:
            line += f" (completes {''.join(self.completes)})"
        return line


def name_merge(
    left: bytes, right: bytes, *, before: bytes = b"", after: bytes = b"", guesser: CharGuesser | None = None
) -> MergeName:
    """Name the two sides of a merge and its result by the characters they belong to.

    >>> name_merge(b"\\xea", b"\\xb2", guesser=CharGuesser({"것": 1})).text
    '것 byte 1 of 3 + 것 byte 2 of 3 → 것 bytes 1–2 of 3'
    >>> name_merge(b"\\xea", b"\\xb2").text
    'byte 1 of 3 of one of 검–겿 (U+AC80–U+ACBF) + byte 2 of 3 of one of 검–겿 (U+AC80–U+ACBF) → bytes 1–2 of 3 of one of 검–겿 (U+AC80–U+ACBF)'
    """  # noqa: E501 (a doctest's expected output line cannot be wrapped)
    new_parts = byte_parts(left + right, before=before, after=after, guesser=guesser)
    left_parts: list[BytePart] = []
    right_parts: list[BytePart] = []
    pos = 0
    cut = len(left)
    for part in new_parts:
        end = pos + len(part.data)
        if end <= cut:
            left_parts.append(part)
        elif pos >= cut:
            right_parts.append(part)
        else:  # the part straddles the merge point: split it into its two byte ranges
            k = cut - pos
            first_known = part.first != 0
            left_parts.append(BytePart(part.data[:k], part.char, part.first, part.first + k - 1 if first_known else 0,
                                       part.length, part.guessed, part.candidates))
            right_parts.append(BytePart(part.data[k:], part.char, part.first + k if first_known else 0,
                                        part.last, part.length, part.guessed, part.candidates))
        pos = end
    held = {p.char for p in left_parts + right_parts if p.whole}
    completes = tuple(p.char for p in new_parts if p.whole and p.char not in held)  # type: ignore[misc]
    return MergeName(tuple(left_parts), tuple(right_parts), tuple(new_parts), completes)


def describe_merge(left: bytes, right: bytes, *, guesser: CharGuesser | None = None) -> str:
    """``것 bytes 1–2 of 3 + 것 byte 3 of 3 → 것 (completes 것)``; see :func:`name_merge`.

    Without a guesser, a merge that completes a character names it from its own bytes.
    """
    return name_merge(left, right, guesser=guesser).text
