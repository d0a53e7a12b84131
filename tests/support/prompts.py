"""Prompts every tokenizer family is checked on."""

# Prompts every family is checked on: Korean, emoji (ZWJ sequences, skin tones), code, CRLF, NBSP,
# lone CR, U+2028, BOM, tabs, NUL and special-token strings.
PROMPTS = [
    "안녕하세요, 세계! 한국어 문장입니다.",
    "😀👍🏽 👨‍👩‍👧‍👦 🇰🇷 ok",
    "def f(x):\r\n\treturn x\u00a0+ 1  # 주석\n",
    "line1\rline2\u2028line3\u2029\ufeffbom\x00nul\x07",
    "x\u00a0y   \n\n\n  trailing   ",
    "<|begin_of_text|>hi<|eot_id|> <｜begin▁of▁sentence｜>안녕<|im_start|>",
    "I'm SHOUTING, it's 12345678 ok'll",
    "",
]
