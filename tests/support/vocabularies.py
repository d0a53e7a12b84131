"""What the vocabulary tests share: encoders loaded once per run by the default registry (which keeps
them), so each vocabulary's recovered merges and tables are also worked out once (cached per
encoder), and the prompts recovered merges must re-encode exactly."""

from __future__ import annotations

import pytest

# Korean, code, emoji, numbers, whitespace runs and the tokens the issue names
VARIED_PROMPTS = [
    "안녕하세요, 세계! 생각해 봅시다. 한국어 토큰화는 어떻게 될까요?",
    "def f(x):\r\n\treturn x\u00a0+ 1  # 주석\n        indentation\n\t\t\tpass",
    "😀👍🏽 👨‍👩‍👧‍👦 🇰🇷 ok 🤖",
    "3.14159 1234567890 2024-11-27 +82-10-1234-5678 0.000001",
    "I'm SHOUTING, it's 12345678 ok'll  ·생각 .:.: ::.:.: việc hợp",
    "日本語のテキストと中文混合 Ελληνικά русский العربية",
    "x\u00a0y   \n\n\n  trailing   \r\n//\n///",
    "<|endoftext|> is plain text here",
    "",
]


def registry_encoder(name: str):
    from tokviz.core.encoders.builtin import default_registry

    registry = default_registry()
    status = {s.name: s for s in registry.statuses()}.get(name)
    if status is None or not status.available:
        pytest.skip(f"{name} is not available here ({status.reason if status else 'unknown'})")
    return registry.get(name)
