"""What a Unicode normalization form changes in a text, character by character.

The Inspector's normalization switch must say *which* characters changed and how (``①`` → ``1``,
``㈜`` → ``(주)``, ``ㅋ`` → ``ᄏ`` under NFKC, ``한`` → ``ᄒ ᅡ ᆫ`` under NFD), not only how many.
Normalization works within grapheme clusters (a base character and its combining marks, a Hangul
syllable or jamo sequence), so the text is normalized one cluster at a time and each cluster that
changed becomes a :class:`Change` with its character span. When composing across a cluster boundary
does change the result (rare: a combining mark at the start of the text), the affected clusters are
merged into one change so the changes always rebuild the normalized text exactly.

>>> [(c.before, c.after) for c in changes("① ㈜ 한", "NFKC")]
[('①', '1'), ('㈜', '(주)')]
>>> apply_changes("① ㈜", changes("① ㈜", "NFKC")) == unicodedata.normalize("NFKC", "① ㈜")
True
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

import regex

Form = Literal["NFC", "NFD", "NFKC", "NFKD"]
FORMS: tuple[Form, ...] = ("NFC", "NFD", "NFKC", "NFKD")

_GRAPHEME = regex.compile(r"\X", regex.DOTALL)


@dataclass(frozen=True)
class Change:
    """Characters ``[start, end)`` of the original text (``before``) that normalize to ``after``."""

    start: int
    end: int
    before: str
    after: str

    @property
    def label(self) -> str:
        """``① → 1`` with code points for invisible differences (``é`` NFC vs NFD look alike)."""
        if self.before.strip() and self.after.strip() and _looks_same(self.before, self.after):
            return f"{_points(self.before)} → {_points(self.after)}"
        return f"{self.before} → {self.after}"


def _looks_same(a: str, b: str) -> bool:
    return unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b)


def _points(s: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in s)


def changes(text: str, form: Form) -> list[Change]:
    """Every cluster of ``text`` that normalization ``form`` changes, in order.

    >>> [(c.start, c.end, c.after) for c in changes("e\\u0301a", "NFC")]
    [(0, 2, 'é')]
    """
    if form not in FORMS:
        raise ValueError(f"unknown normalization form {form!r}: use one of {', '.join(FORMS)}")
    if unicodedata.is_normalized(form, text):
        return []
    out: list[Change] = []
    for match in _GRAPHEME.finditer(text):
        cluster = match.group()
        after = unicodedata.normalize(form, cluster)
        if after != cluster:
            out.append(Change(match.start(), match.end(), cluster, after))
    whole = unicodedata.normalize(form, text)
    if apply_changes(text, out) == whole:
        return out
    # Some change crossed a cluster boundary: fall back to one change per differing stretch.
    return _stretch_changes(text, whole, form)


def _stretch_changes(text: str, whole: str, form: Form) -> list[Change]:
    """One change for the smallest stretch around the differences that normalizes on its own.

    Rare (marks that compose with a preceding cluster); correctness over detail here.
    """
    prefix = 0
    limit = min(len(text), len(whole))
    while prefix < limit and text[prefix] == whole[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and text[-1 - suffix] == whole[-1 - suffix]:
        suffix += 1
    # widen to cluster boundaries on both sides
    bounds = [m.start() for m in _GRAPHEME.finditer(text)] + [len(text)]
    start = max(b for b in bounds if b <= prefix)
    end = min(b for b in bounds if b >= len(text) - suffix)
    while True:
        before = text[start:end]
        after = unicodedata.normalize(form, before)
        if text[:start] + after + text[end:] == whole or (start == 0 and end == len(text)):
            return [Change(start, end, before, after)] if before != after else []
        start = max([b for b in bounds if b < start] or [0])
        end = min([b for b in bounds if b > end] or [len(text)])


def apply_changes(text: str, found: list[Change]) -> str:
    """The text with every change applied (equal to the normalized text)."""
    parts: list[str] = []
    pos = 0
    for change in found:
        parts.append(text[pos: change.start])
        parts.append(change.after)
        pos = change.end
    parts.append(text[pos:])
    return "".join(parts)


def summary(found: list[Change], *, limit: int = 6) -> str:
    """A short line naming the changes: ``① → 1, ㈜ → (주) (2 characters changed)``."""
    if not found:
        return ""
    seen: dict[tuple[str, str], int] = {}
    for change in found:
        key = (change.before, change.after)
        seen[key] = seen.get(key, 0) + 1
    shown = []
    for (before, after), count in list(seen.items())[:limit]:
        label = Change(0, 0, before, after).label
        shown.append(f"{label} ×{count}" if count > 1 else label)
    more = len(seen) - limit
    tail = f", … {more} more" if more > 0 else ""
    n = sum(c.end - c.start for c in found)
    return f"{', '.join(shown)}{tail} ({n} character{'s' if n != 1 else ''} changed)"
