"""Small corpora for the BPE tests: Korean reviews, English prose, code, emoji-heavy chat."""

from __future__ import annotations

import inspect
import json.decoder
import random
from pathlib import Path

# 600 movie reviews from NSMC (Naver sentiment movie corpus, released CC0/public domain), the first
# lines of its training split: Korean with the slang, emoticons and jamo runs real users type
NSMC = Path(__file__).resolve().parents[1] / "data" / "nsmc_ko_600.txt"


def single_spaced(text: str) -> str:
    """Words separated by single spaces, one line per line (subword-nmt splits on ' ' only)."""
    return "".join(" ".join(line.split()) + "\n" for line in text.splitlines() if line.strip())


def korean_text(lines: int = 600) -> str:
    """The first ``lines`` (at most 600) reviews of the Korean test corpus, each with its newline."""
    with NSMC.open(encoding="utf-8") as f:
        return "".join(line for _, line in zip(range(lines), f, strict=False))


def english_text() -> str:
    import argparse
    import collections
    import email

    docs = [argparse.__doc__, collections.__doc__, email.__doc__, inspect.getdoc(random.Random)]
    docs += [inspect.getdoc(f) or "" for f in (random.shuffle, random.sample, inspect.getsource, str.split)]
    return "\n".join(d for d in docs if d) * 3


def code_text() -> str:
    return inspect.getsource(json.decoder) + inspect.getsource(random)


EMOJI = ["😀", "😂", "👍🏽", "❤️", "👨‍👩‍👧‍👦", "🇰🇷", "🎉", "🔥", "✨", "🙏", "🐱", "🍜"]


def emoji_text(lines: int = 400) -> str:
    rng = random.Random(7)
    words = ["ㅋㅋㅋ", "대박", "진짜", "lol", "omg", "좋아요", "haha", "축하해", "love", "it"]
    out = []
    for _ in range(lines):
        parts = [rng.choice(EMOJI) * rng.randint(1, 3) if rng.random() < 0.45 else rng.choice(words)
                 for _ in range(rng.randint(2, 9))]
        out.append(" ".join(parts))
    return "\n".join(out) + "\n"


CORPORA = {
    "korean": korean_text,
    "english": english_text,
    "code": code_text,
    "emoji": emoji_text,
}

