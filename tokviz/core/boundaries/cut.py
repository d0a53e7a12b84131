"""Budget cuts: keep the first N tokens of a text, and see what the cut breaks.

Truncating at N tokens may end inside a character (a Hangul syllable's three bytes, an emoji's four),
inside a grapheme (a flag's two regional indicators, an emoji ZWJ sequence, a syllable written as
conjoining jamo) or inside a word. :func:`budget_cut` says which, what the first N tokens print
(trailing incomplete bytes left out), and the nearest cut at or before N that breaks no grapheme.

>>> from tokviz.core.encoders.builtin import default_registry
>>> cut = budget_cut(default_registry().get("cl100k_base"), "안녕", 1)
>>> cut.kept_text, cut.splits_character, cut.safe_tokens
('', True, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from tokviz.core.boundaries.streaming import unfinished_tail
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


class _Clusters:
    """Grapheme boundaries of ``text`` near character ``around``: segments a window, not the whole text (a
    5 MB paste), and widens it backwards when asked about an earlier character."""

    _BACK = 256

    def __init__(self, text: str, around: int):
        self.text = text
        self.hi = min(len(text), around + _CONTEXT)
        self._load(max(0, around - self._BACK))

    def _load(self, lo: int) -> None:
        self.lo = lo
        self.spans = [(m.start(), m.end()) for m in _CLUSTER.finditer(self.text, lo, self.hi)]
        self.ends = {e for _, e in self.spans}
        # a window starting inside a cluster gets that cluster's start wrong: trust only its end onwards
        self.reliable = self.spans[0][1] if lo and self.spans else lo
        if lo == 0:
            self.ends.add(0)

    def is_boundary(self, char: int) -> bool:
        while char < self.reliable and self.lo > 0:
            self._load(max(0, min(char, self.lo) - 4 * self._BACK))
        return char in self.ends or char >= len(self.text)

    def cluster_at(self, char: int) -> str | None:
        self.is_boundary(char)
        return next((self.text[s:e] for s, e in self.spans if s <= char < e), None)


def _is_char_start(data: bytes, b: int) -> bool:
    return b >= len(data) or data[b] & 0xC0 != 0x80


def _leads(data: bytes) -> int:
    """How many characters start in ``data`` (bytes that are not continuation bytes)."""
    return len(data) - sum(1 for x in data if x & 0xC0 == 0x80)


def _walk_back(data: bytes, ends, n: int, chars_before_cut: int, ok) -> int:
    """The most tokens ``k <= n`` whose end byte starts a character that ``ok(char index)`` accepts."""
    k, chars, at = n, chars_before_cut, int(ends[n - 1]) if n else 0
    while k:
        e = int(ends[k - 1])
        chars -= _leads(data[e:at])
        at = e
        if _is_char_start(data, e) and ok(chars):
            return k
        k -= 1
    return 0


def budget_cut(encoder, text: str, tokens: int, *, allow_special: bool = False) -> BudgetCut:
    """Cut ``text``'s encoding after ``tokens`` tokens (TokvizError when ``tokens`` is negative)."""
    if tokens < 0:
        raise TokvizError(f"--tokens is a number of tokens to keep, 0 or more, not {tokens}")
    encoding = encoder.encode(text, allow_special=allow_special)
    seen = encoding.normalized_text if encoding.normalized_text is not None else text
    data = seen.encode("utf-8")
    n = min(tokens, len(encoding))
    ends = encoding.byte_end_array
    cut = int(ends[n - 1]) if n else 0
    kept_text, dropped = printed_prefix(data[:cut])
    splits_char = not _is_char_start(data, cut)
    char_at = len(data[:cut].decode("utf-8", "ignore"))  # the character at the cut, or the one it cuts
    clusters = _Clusters(seen, char_at)
    splits_grapheme = splits_char or not clusters.is_boundary(char_at)
    grapheme = clusters.cluster_at(char_at) if splits_grapheme else None
    if splits_char:
        splits_word = bool(_WORD.match(seen[char_at]))
    else:
        splits_word = 0 < char_at < len(seen) and bool(_WORD.match(seen[char_at - 1]) and _WORD.match(seen[char_at]))
    chars_before_cut = char_at + splits_char
    safe = _walk_back(data, ends, n, chars_before_cut, clusters.is_boundary)
    word = _walk_back(data, ends, n, chars_before_cut,
                      lambda c: clusters.is_boundary(c) and _word_boundary(seen, c))
    return BudgetCut(encoder.name, text, tokens, len(encoding), tuple(encoding.ids[:n]), cut, kept_text, dropped,
                     splits_char, splits_grapheme, splits_word, grapheme, safe,
                     data[: int(ends[safe - 1]) if safe else 0].decode("utf-8"), word)


def _word_boundary(text: str, char: int) -> bool:
    return char <= 0 or char >= len(text) or not (_WORD.match(text[char - 1]) and _WORD.match(text[char]))
