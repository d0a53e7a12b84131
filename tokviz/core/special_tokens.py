"""Special tokens in a text: the text cut into plain stretches and the specials it names.

Every vocabulary model cuts the text this way before its own segmentation runs on the plain
stretches (BPE's merges, WordPiece's longest match, Unigram's Viterbi); a special longer than
another that it starts with wins (``<|endoftext|>`` before ``<|end``).

>>> s = SpecialSpans({"[CLS]": 2, "[SEP]": 3})
>>> list(s.segments("[CLS] hi[SEP]"))
[(0, 5, 2), (5, 8, None), (8, 13, 3)]
>>> list(s.segments("[CLS] hi", allow_special=False))
[(0, 8, None)]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import regex


class SpecialSpans:
    """Finds the special tokens ``specials`` (text -> token id) in a text."""

    def __init__(self, specials: Mapping[str, int]):
        self._ids = dict(specials)
        self._rx = (regex.compile("|".join(regex.escape(s) for s in sorted(self._ids, key=len, reverse=True)))
                    if self._ids else None)

    def segments(self, text: str, allow_special: bool = True) -> Iterator[tuple[int, int, int | None]]:
        """``(start, end, special id or None)`` of the stretches of ``text`` in order; with
        ``allow_special`` False (or no specials) the whole text is one plain stretch."""
        if not (allow_special and self._rx):
            yield 0, len(text), None
            return
        pos = 0
        for m in self._rx.finditer(text):
            if m.start() > pos:
                yield pos, m.start(), None
            yield m.start(), m.end(), self._ids[m.group()]
            pos = m.end()
        if pos < len(text):
            yield pos, len(text), None
