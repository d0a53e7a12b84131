"""Corpus-level tokenizer metrics as the literature reports them, accumulated text by text.

:class:`TokenStats` streams: ``add(encoding)`` for each text (a line, a block of a 100 MB file) and
read the numbers at any point. Definitions (docs/metrics.md gives the references):

* **words** (:mod:`tokviz.core.words`, the one definition behind every tokviz number): runs of
  non-whitespace, except that every Han, Hiragana or Katakana character is a word by itself, so
  Korean counts eojeol (space-separated units such as ``학교에서``) and Chinese and Japanese count
  characters. A run of punctuation alone is no word (``,`` between spaces, ``。`` after a kanji; an
  emoji is one). Scripts written without spaces and without ideographs (Thai, Lao, Khmer) count one
  word per space-separated run, which overstates fertility.
* **fertility**: tokens per word (Rust et al. 2021).
* **continued words**: the share of words covered by two or more tokens (Rust et al. 2021's
  "proportion of continued words"); a token overlapping a word's characters counts for it.
* **chars / bytes per token**: code points / UTF-8 bytes over tokens.
* **Rényi efficiency** (Zouhar et al. 2023): ``H_α(p) / log |V|`` with ``H_α(p) = log(Σ p_i^α) /
  (1 − α)`` over the unigram distribution ``p`` of token ids, α = 2.5, ``|V|`` the vocabulary size.
* **Gini** of the same distribution over the token types that occur (0: every type equally often;
  towards 1: a few types take almost all occurrences).
* **premium** (Petrov et al. 2023): tokens of a text / tokens of its translation in the reference
  language (see :mod:`tokviz.core.parity`).

>>> from tokviz.core.encoding import Encoding
>>> enc = Encoding.from_byte_tokens("demo", "ab c", [(1, b"a"), (2, b"b"), (1, b" c")])
>>> s = TokenStats()
>>> s.add(enc)
>>> (s.tokens, s.words, s.continued_words, round(s.fertility, 3))
(3, 2, 1, 1.5)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tokviz.core.encoding import Encoding
from tokviz.core.words import word_counts

RENYI_ALPHA = 2.5


def renyi_efficiency(counts: Counter | dict, vocab_size: int, alpha: float = RENYI_ALPHA) -> float:
    """Rényi efficiency ``H_α(p) / log |V|`` of a token-count distribution (0.0 when undefined).

    Two types used equally in a vocabulary of 4: H_α = log 2 for every α, so efficiency is 1/2.

    >>> renyi_efficiency({7: 5, 9: 5}, 4)
    0.5
    """
    total = sum(counts.values())
    if total == 0 or vocab_size < 2:
        return 0.0
    p = np.fromiter(counts.values(), dtype=np.float64) / total
    if alpha == 1.0:
        entropy = float(-(p * np.log(p)).sum())
    else:
        entropy = float(np.log((p ** alpha).sum()) / (1.0 - alpha))
    return entropy / math.log(vocab_size)


def gini(counts: Counter | dict) -> float:
    """Gini coefficient of the counts of the token types that occur.

    >>> gini({1: 3, 2: 3}), round(gini({1: 1, 2: 1, 3: 2}), 4)
    (0.0, 0.1667)
    """
    x = np.sort(np.fromiter(counts.values(), dtype=np.float64))
    n, total = len(x), x.sum()
    if n == 0 or total == 0:
        return 0.0
    ranks = np.arange(1, n + 1, dtype=np.float64)
    return float(2.0 * (ranks * x).sum() / (n * total) - (n + 1) / n)


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


@dataclass
class TokenStats:
    """Running totals over many texts of one encoder; ratios come from the totals."""

    texts: int = 0
    tokens: int = 0
    characters: int = 0
    bytes: int = 0
    words: int = 0
    continued_words: int = 0
    counts: Counter = field(default_factory=Counter)  # token id -> occurrences

    def add(self, encoding: Encoding) -> None:
        text = encoding.text
        words, continued = word_counts(encoding)
        self.texts += 1
        self.tokens += len(encoding)
        self.characters += len(text)
        self.bytes += encoding.byte_length
        self.words += words
        self.continued_words += continued
        self.counts.update(encoding.id_array.tolist())  # for a line, faster than numpy's unique

    def merge(self, other: TokenStats) -> None:
        """Add another run's totals (a cached line's stats into a language's)."""
        self.texts += other.texts
        self.tokens += other.tokens
        self.characters += other.characters
        self.bytes += other.bytes
        self.words += other.words
        self.continued_words += other.continued_words
        self.counts.update(other.counts)

    @property
    def chars_per_token(self) -> float:
        return _ratio(self.characters, self.tokens)

    @property
    def bytes_per_token(self) -> float:
        return _ratio(self.bytes, self.tokens)

    @property
    def fertility(self) -> float:
        return _ratio(self.tokens, self.words)

    @property
    def continued_share(self) -> float:
        return _ratio(self.continued_words, self.words)

    def unused_share(self, vocab_size: int) -> float:
        """Share of the vocabulary never used in these texts."""
        return _ratio(max(0, vocab_size - len(self.counts)), vocab_size)

    def as_json(self, vocab_size: int | None = None, digits: int = 4) -> dict:
        """Every number, ratios rounded; the vocabulary-relative ones only with ``vocab_size``."""
        out = {"tokens": self.tokens, "characters": self.characters, "bytes": self.bytes, "words": self.words,
               "continued_words": self.continued_words, "types": len(self.counts),
               "chars_per_token": round(self.chars_per_token, digits),
               "bytes_per_token": round(self.bytes_per_token, digits),
               "fertility": round(self.fertility, digits),
               "continued_share": round(self.continued_share, digits),
               "gini": round(gini(self.counts), digits)}
        if vocab_size:
            out["renyi_efficiency"] = round(renyi_efficiency(self.counts, vocab_size), digits)
            out["unused_share"] = round(self.unused_share(vocab_size), digits)
        return out


def rows_csv(rows: list[dict]) -> str:
    """CSV text of flat rows (the keys of the first row are the header; a list cell is joined by spaces).

    >>> print(rows_csv([{"language": "ko", "premium": 1.5}]), end="")
    language,premium
    ko,1.5
    """
    import csv
    import io

    buf = io.StringIO()
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: " ".join(map(str, v)) if isinstance(v, list) else v for k, v in row.items()})
    return buf.getvalue()
