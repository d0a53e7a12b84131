"""Corpus lines that show a merge, so the sample on screen changes with every step of training.

A fixed sample of 30 lines shows most merges nowhere (in char mode only 103 of the first 200 merges of
the demo corpus occur in it). Instead, at each step the Train panel asks this index for a few lines of
the *whole* corpus in which the model at that step really produces the new token, with the character
spans of each occurrence to mark. The search is a byte-level ``find`` over the joined corpus (C speed)
from a starting line that moves with the step, so consecutive steps show different lines; each
candidate is checked by encoding it with the model at the step, because containing the bytes is not
enough (the pre-split or an earlier merge may cut them differently).

Qt-free and plain: the panel runs :meth:`SampleIndex.follow` in a worker.

>>> from tokviz.core.encoding import Encoding
>>> index = SampleIndex(["ab ab", "cd", "xab"])
>>> def encode(line):  # a stand-in model: "ab" is token 7, every other byte its own token
...     data, out, i = line.encode(), [], 0
...     while i < len(data):
...         if data[i:i + 2] == b"ab":
...             out.append((7, b"ab")); i += 2
...         else:
...             out.append((data[i], data[i:i + 1])); i += 1
...     return Encoding.from_byte_tokens("demo", line, out)
>>> [(h.line, h.spans) for h in index.follow(b"ab", 7, encode)]
[(0, ((0, 2), (3, 5))), (2, ((1, 3),))]
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tokviz.core.encoding import Encoding


@dataclass(frozen=True)
class SampleHit:
    """A corpus line that shows the token: its index, its text and the character spans of each
    occurrence of the token in the line's encoding."""

    line: int
    text: str
    spans: tuple[tuple[int, int], ...]


class SampleIndex:
    """The corpus lines, joined once for fast byte search.

    ``max_lines`` bounds memory for huge corpora (the first lines are kept); lines are stored without
    their line break.
    """

    def __init__(self, lines: Iterable[str], *, max_lines: int | None = None):
        # Only the joined bytes and an array of line starts are kept, no object per line: a big
        # corpus's 1.3M line strings cost ~150 MB, and the cycle collector on the GUI thread walked
        # a list of them (40-50 ms per young collection) while the Train panel read the corpus.
        joined = bytearray()
        starts = array("q")
        for i, line in enumerate(lines):
            if max_lines is not None and i >= max_lines:
                break
            starts.append(len(joined))
            joined += line.rstrip("\r\n").encode("utf-8", "surrogatepass")
            joined += b"\n"
        self._joined = bytes(joined) if len(joined) < 1 << 20 else joined  # big: not copied again
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts)

    def line(self, index: int) -> str:
        """The text of line ``index`` (without its line break)."""
        return self.text(index, index + 1)

    def text(self, first: int, end: int) -> str:
        """Lines ``first`` to ``end - 1`` joined by line breaks (``end`` past the last line: to the end)."""
        starts = self._starts
        stop = starts[end] if end < len(starts) else len(self._joined)
        return self._joined[starts[first]: stop - 1].decode("utf-8", "surrogatepass")

    def lines_containing(self, needle: bytes, *, start_line: int = 0, limit: int = 200) -> list[int]:
        """Up to ``limit`` distinct line indices whose bytes contain ``needle``, scanning from
        ``start_line`` to the end and then from the top (so consecutive calls can show new lines).

        >>> SampleIndex(["a", "ba", "c", "aa"]).lines_containing(b"a", start_line=2)
        [3, 0, 1]
        """
        if not needle or not self._starts or limit <= 0:
            return []
        start_line %= len(self._starts)
        found: list[int] = []
        seen: set[int] = set()
        joined, starts = self._joined, self._starts
        for lo, hi in ((starts[start_line], len(joined)), (0, starts[start_line])):
            pos = joined.find(needle, lo, hi)
            while pos != -1:
                line = bisect.bisect_right(starts, pos) - 1
                if line not in seen:
                    seen.add(line)
                    found.append(line)
                    if len(found) >= limit:
                        return found
                # continue after this line: one hit per line is enough
                nxt = starts[line + 1] if line + 1 < len(starts) else len(joined)
                pos = joined.find(needle, max(nxt, pos + 1), hi)
        return found

    def follow(
        self,
        needle: bytes,
        token_id: int,
        encode: Callable[[str], Encoding],
        *,
        limit: int = 3,
        start_line: int = 0,
        scan: int = 200,
        max_chars: int | None = 120,
    ) -> list[SampleHit]:
        """Lines in which ``encode`` (the model at the step) produces ``token_id``, with the spans of
        its occurrences. ``needle`` is the token's bytes (char mode: the piece's UTF-8 without
        ``</w>``). Up to ``scan`` candidate lines are checked; lines of at most ``max_chars``
        characters come first, since a projector shows short lines whole. A token holding a line
        break is shown with the lines it joins (``text`` then holds ``\\n``).
        """
        hits: list[SampleHit] = []
        long_hits: list[SampleHit] = []
        trailing = needle.endswith(b"\n")
        breaks = needle.count(b"\n") - trailing  # line breaks inside the token: lines it joins - 1
        for line in self.lines_containing(needle, start_line=start_line, limit=scan):
            # a token with a line break in it (byte mode learns "\n." pieces) is shown on the lines it joins
            text = self.text(line, line + breaks + 1)
            if trailing:
                text += "\n"
            try:
                encoding = encode(text)
            except Exception:  # a line the model cannot encode (odd Unicode) shows nothing, but never stops the search
                continue
            tokens = encoding.tokens
            spans = tuple((tokens[i].start, tokens[i].end) for i in _indices_of(encoding, token_id))
            if not spans:
                continue
            hit = SampleHit(line, text, spans)
            if max_chars is None or len(text) <= max_chars:
                hits.append(hit)
                if len(hits) >= limit:
                    break
            elif len(long_hits) < limit:
                long_hits.append(hit)
        return (hits + long_hits)[:limit]


def _indices_of(encoding: Encoding, token_id: int) -> list[int]:
    return [i for i, tid in enumerate(encoding.ids) if tid == token_id]
