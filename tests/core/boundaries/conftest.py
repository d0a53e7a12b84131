"""Encoders for the boundary tests: the two OpenAI vocabularies the issue asks for, and their brute-force
vocabulary tables (built here by a plain scan, not by the code under test)."""

from __future__ import annotations

import pytest

from tokviz.core.encoders import default_registry

# Korean (syllables cut by byte-level BPE), emoji (4 bytes, ZWJ sequences, flags), jamo, English, code
TEXTS = [
    "안녕하세요, 세계! 오늘 날씨가 좋네요.",
    "The color is blue 🙂 and the flag is 🇰🇷; 👩‍👩‍👧 family.",
    "값을 읽는다 → print(x) # 주석\n\n  들여쓰기",
    "\u1100\u1161\u11a8 conjoining jamo, e\u0301 combining, 日本語のテキスト",
]


def brute_vocab(encoder) -> dict[int, bytes]:
    specials = set(encoder.special_tokens().values())
    out = {}
    for i in range(encoder.vocab_size):
        if i in specials:
            continue
        try:
            b = encoder.token_bytes(i)
        except Exception:
            continue
        if b:
            out[i] = b
    return out


@pytest.fixture(scope="session", params=["cl100k_base", "o200k_base"])
def openai(request):
    """(encoder, its vocabulary as {id: bytes}) for cl100k_base and o200k_base."""
    encoder = default_registry().get(request.param)
    return encoder, brute_vocab(encoder)
