"""A small mixed corpus made here (Korean, English, emoji), so the tests read no machine path."""

from __future__ import annotations

import inspect
import random

KOREAN_WORDS = ["영화", "정말", "재밌다", "최고의", "배우", "연기", "스토리", "지루하다", "감동", "다시", "보고",
                "싶다", "별로", "음악", "좋았다", "너무", "재미없다", "배우들", "연기력", "대박", "진짜", "완전",
                "감독", "작품", "시간", "아깝다", "추천", "평점", "주인공", "결말", "ㅋㅋㅋ", "ㅠㅠ"]
ENGLISH_WORDS = inspect.getdoc(random.Random).split() + inspect.getdoc(random.shuffle).split()
EMOJI = ["😀", "👍🏽", "❤️", "🇰🇷", "🎉", "🔥"]


def mixed_lines(n: int = 800, seed: int = 5) -> list[str]:
    """``n`` lines of Korean review-like text with some English words, digits and emoji."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = []
        for _ in range(rng.randint(3, 12)):
            r = rng.random()
            if r < 0.6:
                w = rng.choice(KOREAN_WORDS)
                if rng.random() < 0.3:
                    w += rng.choice(KOREAN_WORDS)  # compounds, so substrings repeat inside words
            elif r < 0.85:
                w = rng.choice(ENGLISH_WORDS)
            elif r < 0.93:
                w = str(rng.randint(0, 2020))
            else:
                w = rng.choice(EMOJI) + rng.choice(["", "!", "ㅋㅋ"])
            words.append(w)
        out.append(" ".join(words) + "\n")
    return out


HELD_OUT = [
    "이 영화 정말 재밌다 ㅋㅋㅋ 배우들 연기력 대박",
    "Return a random sample 2019 😀 최고의 감독 작품",
    "  시간   아깝다... 별로임ㅠㅠ 🇰🇷🔥",
    "shuffle list x in place, and return None. 추천합니다!",
    "완전재미없다재미없다 unknownword Ωmega 漢字 かな",
]
