"""Budget cuts: keep the first N tokens of a text, and see what the cut breaks.

Truncating at N tokens may end inside a character (a Hangul syllable's three bytes, an emoji's four),
inside a grapheme (a flag's two regional indicators, an emoji ZWJ sequence, a syllable written as
conjoining jamo) or inside a word. :func:`budget_cut` says which, what the first N tokens print
(trailing incomplete bytes left out), and the nearest cut at or before N that breaks no grapheme.

>>> from tokviz.core.encoders import default_registry
>>> cut = budget_cut(default_registry().get("cl100k_base"), "안녕", 1)
>>> cut.kept_text, cut.splits_character, cut.safe_tokens
('', True, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from tokviz.core.boundaries.streaming import unfinished_tail
from tokviz.core.encoding import char_byte_starts
from tokviz.core.errors import TokvizError

_CLUSTER = regex.compile(r"\X")
_WORD = regex.compile(r"\w")
_CONTEXT = 64  # characters read past the cut to find the grapheme that holds it


@dataclass(frozen=True)
class BudgetCut:
    """The first ``tokens`` tokens of ``text`` (of ``total`` tokens).

    ``byte_end``: where the cut lands in the text's UTF-8 (``text`` as the encoder saw it: after
    normalization for SentencePiece NFKC); ``kept_text``: what those tokens print, incomplete bytes
    at the end left out (``dropped_bytes``). ``grapheme``: the grapheme the cut lands in, when it
    splits one. ``safe_tokens``: the most tokens ≤ ``tokens`` whose cut splits no grapheme, and
    ``safe_text`` what they print; ``word_tokens`` likewise for a cut that splits no word.
    """

    encoder: str
    text: str
    tokens: int
    total: int
    kept_ids: tuple[int, ...]
    byte_end: int
    kept_text: str
    dropped_bytes: bytes
    splits_character: bool
    splits_grapheme: bool
    splits_word: bool
    grapheme: str | None
    safe_tokens: int
    safe_text: str
    word_tokens: int

    def as_json(self) -> dict:
        return {
            "encoder": self.encoder, "tokens": self.tokens, "total": self.total, "kept_ids": list(self.kept_ids),
            "byte_end": self.byte_end, "kept_text": self.kept_text, "dropped_bytes": self.dropped_bytes.hex(" "),
            "splits_character": self.splits_character, "splits_grapheme": self.splits_grapheme,
            "splits_word": self.splits_word, "grapheme": self.grapheme, "safe_tokens": self.safe_tokens,
            "safe_text": self.safe_text, "word_tokens": self.word_tokens,
        }


def printed_prefix(data: bytes) -> tuple[str, bytes]:
    """What a UTF-8 byte prefix prints, and the incomplete bytes at its end that it cannot print yet.

    >>> printed_prefix("값!".encode()[:2])
    ('', b'\\xea\\xb0')
    """
    hold = unfinished_tail(data)
    return data[: len(data) - hold].decode("utf-8", "replace"), data[len(data) - hold:]


def _cluster_bounds(text: str, upto: int) -> tuple[set[int], list[tuple[int, int]]]:
    """Character offsets of grapheme boundaries in ``text[:upto + context]``, and the clusters' spans."""
    window = text[: upto + _CONTEXT]
    spans = [(m.start(), m.end()) for m in _CLUSTER.finditer(window)]
    return {0, *(end for _, end in spans)}, spans


def budget_cut(encoder, text: str, tokens: int, *, allow_special: bool = False) -> BudgetCut:
    """Cut ``text``'s encoding after ``tokens`` tokens (TokvizError when ``tokens`` is negative)."""
    if tokens < 0:
        raise TokvizError(f"--tokens is a number of tokens to keep, 0 or more, not {tokens}")
    encoding = encoder.encode(text, allow_special=allow_special)
    seen = encoding.normalized_text if encoding.normalized_text is not None else text
    data = seen.encode("utf-8")
    n = min(tokens, len(encoding))
    ends = encoding.byte_end_array.tolist()
    cut = ends[n - 1] if n else 0
    kept_text, dropped = printed_prefix(data[:cut])
    starts = char_byte_starts(seen, data)
    char_of = {b: c for c, b in enumerate(starts)}  # byte offset of each character start -> its index
    splits_char = cut not in char_of
    char_at = char_of.get(cut, len(printed_prefix(data[:cut])[0]))  # inside a character: the one it cuts
    bounds, spans = _cluster_bounds(seen, char_at + 1)
    splits_grapheme = splits_char or char_at not in bounds
    grapheme = next((seen[s:e] for s, e in spans if s <= char_at < e), None) if splits_grapheme else None
    if splits_char:
        splits_word = bool(_WORD.match(seen[char_at]))
    else:
        splits_word = 0 < char_at < len(seen) and bool(_WORD.match(seen[char_at - 1]) and _WORD.match(seen[char_at]))
    safe = n
    while safe and (ends[safe - 1] not in char_of or char_of[ends[safe - 1]] not in bounds):
        safe -= 1
    word = n
    while word and not _word_boundary(seen, char_of.get(ends[word - 1]), bounds):
        word -= 1
    return BudgetCut(encoder.name, text, tokens, len(encoding), tuple(encoding.ids[:n]), cut, kept_text, dropped,
                     splits_char, splits_grapheme, splits_word, grapheme, safe,
                     data[: ends[safe - 1] if safe else 0].decode("utf-8"), word)


def _word_boundary(text: str, char: int | None, bounds: set[int]) -> bool:
    if char is None or char not in bounds:
        return False
    return char in (0, len(text)) or not (_WORD.match(text[char - 1]) and _WORD.match(text[char]))
