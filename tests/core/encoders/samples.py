"""Texts every encoder test runs on: the cases where tokenizers and span bookkeeping go wrong."""

SAMPLES: dict[str, str] = {
    "korean": "안녕하세요, 세계! 나는 학교에서 공부합니다.",
    # syllables cl100k_base cuts inside their three UTF-8 bytes (checked in test_tiktoken_family)
    "korean_split": "안 값 똠 뷁 쐈 흙 닭",
    "korean_no_spaces": "아버지가방에들어가신다",
    "family_zwj": "👨\u200d👩\u200d👧\u200d👦",
    "rainbow_flag": "🏳\ufe0f\u200d🌈",
    "flags": "🇰🇷🇯🇵 🇺🇸",
    "skin_tones": "👍🏽 👋🏿 🧑🏻\u200d💻",
    "keycaps": "1\ufe0f\u20e3 #\ufe0f\u20e3 *\ufe0f\u20e3",
    "combining_acute": "e\u0301 Cafe\u0301 n\u0303",
    "conjoining_jamo": "\u1100\u1161\u11a8 \u1112\u1161\u11ab",  # 각 한 as conjoining jamo
    "crlf": "line one\r\nline two\r\n\r\nend",
    "tabs": "\tindented\t\ttwice\tend\t",
    "long_whitespace": "x" + " " * 40 + "y\n\n\n\n" + " \t " * 10 + "z   ",
    "digits": "1234567890 3.14159 1,000,000 2024-05-01 007",
    "code": 'def square(x):\n    return x ** 2  # 제곱\n\nprint(square(12), {"키": [1, 2]})\n',
    "special_as_text": "before <|endoftext|> after <|fim_prefix|>",
    "mixed": "GPT-4o는 🇰🇷 한국어를 잘 할까요? Yes—it's “fine”…",
    "controls": "\x00\x01\x1b[0m\x7f\u200b\ufeff",
    "astral": "𝕳𝖊𝖑𝖑𝖔 𠀀𠜎 🀄 \U0010fffd",
    "leading_spaces": "   starts with spaces",
    "single_space": " ",
    "newline_only": "\n",
}
