"""The pre-splits llama.cpp applies to byte-level BPE (``gpt2``) GGUF vocabularies, by ``tokenizer.ggml.pre`` name.

A GGUF file names its pre-split and carries no regex, so each name llama.cpp's converter writes is
mapped here to what the model's own tokenizer does before BPE: a *sequence* of regexes, each applied
to the pieces the one before left (matches and the text between them both become pieces, as
``tokenizers``' ``Split`` with ``Isolated`` does and llama.cpp's ``unicode_regex_split`` does), and
possibly GPT-2's own split at the end (``byte_level_regex``). Where llama.cpp rewrote a model's
regex only because its engine lacks ``(?i:...)`` or possessive quantifiers, the model's original
regex (the one in its tokenizer.json) is used: ``tokenizers`` runs it as the model does.

>>> PRE_SPLITS["starcoder"].regexes, PRE_SPLITS["starcoder"].byte_level_regex
(('\\\\p{N}',), True)
>>> PRE_SPLITS["deepseek-coder"].regexes[:2]
('[\\r\\n]', '\\\\s?\\\\p{L}+')
"""

from __future__ import annotations

from dataclasses import dataclass

from tokviz.core.encoders.rank_models import LLAMA3_PATTERN, QWEN3_5_PATTERN, QWEN_PATTERN
from tokviz.core.pretokenize import O200K_PATTERN


@dataclass(frozen=True)
class PreSplit:
    """What a pre-split name stands for: regexes applied one after the other, then optionally GPT-2's split.

    ``ignore_merges``: a piece the vocabulary holds whole is one token without running the merges
    (llama.cpp's ``ignore_merges``, set for the Llama 3 and tekken families).
    """

    regexes: tuple[str, ...] = ()
    byte_level_regex: bool = False
    ignore_merges: bool = False
    after_bytes: tuple[dict, ...] = ()  # tokenizers pre-tokenizers that run on the byte-level (mapped) text


_DIGITS = r"\p{N}"
# GPT-2's own split, as tokenizers' ByteLevel pre-tokenizer runs it (a regex step where others follow it).
_GPT2_SPLIT = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
# DeepSeek LLM's letters: the Latin, Greek, Cyrillic, ... ranges its tokenizer.json lists.
_DEEPSEEK_LETTERS = (
    r"\s?[A-Za-z"
    "\u00b5\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u01ba\u01bc-\u01bf\u01c4-\u0293\u0295-\u02af\u0370-\u0373"
    "\u0376\u0377\u037b-\u037d\u037f\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03f5\u03f7-\u0481"
    "\u048a-\u052f\u0531-\u0556\u10a0-\u10c5\u13a0-\u13f5\u13f8-\u13fd\u1c90-\u1cba\u1cbd-\u1cbf\u1d00-"
    "\u1d2b\u1d6b-\u1d77\u1d79-\u1d9a\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57"
    "\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4\u1fc6-\u1fcc\u1fd0-"
    "\u1fd3\u1fd6-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2102\u2107\u210a-\u2113\u2115\u2119-"
    "\u211d\u2124\u2126\u2128\u212a-\u212d\u212f-\u2134\u2139\u213c-\u213f\u2145-\u2149\u214e\u2183\u2184"
    "\u2c00-\u2c7b\u2c7e-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3\ua640-\ua66d\ua680-\ua69b\ua722-\ua76f\ua771-"
    "\ua787\ua78b-\ua78e\uab70-\uabbf\ufb00-\ufb06\ufb13-\ufb17\uff21-\uff3a\uff41-\uff5a\U00010400-"
    "\U0001044f\U000104b0-\U000104d3\U000104d8-\U000104fb\U00010c80-\U00010cb2\U00010cc0-\U00010cf2"
    "\U000118a0-\U000118df\U0001e900-\U0001e943"
    "]+"
)
_CJK_HANGUL = "[一-龥ࠀ-一가-\ud7ff]+"
_DEEPSEEK_LLM = ("[\r\n]", _DEEPSEEK_LETTERS, r"\s?[!-/:-~！-／：-～‘-‟　-。]+", r"\s+$", _CJK_HANGUL, r"\p{N}+")
_DEEPSEEK_CODER = ("[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", _CJK_HANGUL, _DIGITS)
_DEEPSEEK_V3 = (
    r"\p{N}{1,3}",
    r"[一-龥\u3040-ゟ゠-ヿ]+",
    r"""[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+""",
)
# Hugging Face's Punctuation pre-tokenizer: ASCII punctuation (some of it is \p{S}) and \p{P}, runs kept together.
_FALCON_PUNCTUATION = r"[\p{P}\$\+<=>\^~\|`]+"
# Falcon's tokenizer.json splits digit runs off *after* the byte-level mapping, where a UTF-8 byte such as
# 0xBD (shown as "½") counts as a digit: the split can fall inside a character, so it stays tokenizers' own
# step. llama.cpp leaves the Digits step out; a Falcon vocabulary never notices, another vocabulary would.
_FALCON_AFTER_BYTES = (
    {"type": "Digits", "individual_digits": False},
    {"type": "Split", "pattern": {"Regex": "[0-9][0-9][0-9]"}, "behavior": "Isolated", "invert": False},
)
# BLOOM's split: a word with its leading space, everything up to the next space or punctuation.
_BLOOM = r" ?[^(\s|.,!?…。，、।۔،)]+"
_TEKKEN = (
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?"
    r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+"
    r"|\s+(?!\S)|\s+"
)
_BAILINGMOE = (
    r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"
)
_SEED_CODER = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+"
    r"|\s+(?!\S)|\s+"
)
# Kimi K2's tokenization_kimi.py: o200k's split with Han runs first and Han taken out of the letter classes.
_KIMI_K2 = "|".join(
    [
        r"[\p{Han}]+",
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+"
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]+[\p{Ll}\p{Lm}\p{Lo}\p{M}&&[^\p{Han}]]*"
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"\p{N}{1,3}",
        r" ?[^\s\p{L}\p{N}]+[\r\n]*",
        r"\s*[\r\n]+",
        r"\s+(?!\S)",
        r"\s+",
    ]
)
_CHAMELEON = (
    r"<sentinel:[0-9]+>",
    r"(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z",
    r"([\t\n]|    |  )",
    _DIGITS,
    r"[\p{P}!-/:-@\[-`{-~]",
    _GPT2_SPLIT,
)
# llama.cpp's fallback for the name "default" (no model's own split; kept because files say it).
_LLAMACPP_DEFAULT = (r"[\p{P}\$\+<=>\^~\|]+", _GPT2_SPLIT, r"\p{N}+", "[0-9][0-9][0-9]")

_GPT2 = PreSplit(byte_level_regex=True)
_LLAMA3 = PreSplit((LLAMA3_PATTERN,), ignore_merges=True)
_QWEN2 = PreSplit((QWEN_PATTERN,))
_STARCODER = PreSplit((_DIGITS,), byte_level_regex=True)
_O200K = PreSplit((O200K_PATTERN,))


def _names(split: PreSplit, *names: str) -> dict[str, PreSplit]:
    return dict.fromkeys(names, split)


# tokenizer.ggml.pre -> its pre-split, for every name llama.cpp's converter writes that tokviz can follow exactly.
PRE_SPLITS: dict[str, PreSplit] = {
    **_names(
        _GPT2,
        "gpt-2",
        "gpt2",
        "phi-2",
        "jina-es",
        "jina-de",
        "gigachat",
        "jina-v1-en",
        "jina-v2-es",
        "jina-v2-de",
        "jina-v2-code",
        "roberta-bpe",
        "a.x-4.0",
        "mellum",
        "exaone4",
        "mpt",
        "olmo",
        "jais",
        "trillion",
        "granite-docling",
    ),
    **_names(_LLAMA3, "llama-bpe", "llama3", "llama-v3", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2"),
    **_names(PreSplit((LLAMA3_PATTERN,)), "dbrx", "smaug-bpe", "chatglm-bpe", "glm4"),
    **_names(_QWEN2, "qwen2", "deepseek-r1-qwen", "kormo", "megrez", "stablelm2", "hunyuan", "grok-2"),
    "qwen35": PreSplit((QWEN3_5_PATTERN,)),
    **_names(PreSplit(_DEEPSEEK_V3), "deepseek-v3", "hunyuan-dense"),
    "deepseek-llm": PreSplit(_DEEPSEEK_LLM),
    "deepseek-coder": PreSplit(_DEEPSEEK_CODER),
    "falcon": PreSplit((_FALCON_PUNCTUATION, _GPT2_SPLIT), after_bytes=_FALCON_AFTER_BYTES),
    **_names(_STARCODER, "starcoder", "refact", "command-r", "smollm", "codeshell", "exaone", "minerva-7b"),
    **_names(PreSplit((_BLOOM,)), "poro-chat", "bloom", "gpt3-finnish"),
    "viking": PreSplit((_BLOOM, _DIGITS)),
    "tekken": PreSplit((_TEKKEN,), ignore_merges=True),
    "chameleon": PreSplit(_CHAMELEON),
    **_names(_O200K, "gpt-4o", "llama4", "minimax-m2"),
    **_names(PreSplit((_BAILINGMOE,)), "bailingmoe", "bailingmoe2", "llada-moe"),
    "seed-coder": PreSplit((_SEED_CODER,)),
    "kimi-k2": PreSplit((_KIMI_K2,)),
    "default": PreSplit(_LLAMACPP_DEFAULT),
}


def pre_tokenizer_json(split: PreSplit) -> dict:
    """The ``tokenizers`` pre_tokenizer for ``split``: its regexes as isolated Splits, then the byte-level mapping.

    >>> pre_tokenizer_json(PreSplit(byte_level_regex=True))["use_regex"]
    True
    """
    byte_level = {
        "type": "ByteLevel",
        "add_prefix_space": False,
        "trim_offsets": False,
        "use_regex": split.byte_level_regex,
    }
    if not split.regexes and not split.after_bytes:
        return byte_level
    return {
        "type": "Sequence",
        "pretokenizers": [
            *(
                {"type": "Split", "pattern": {"Regex": r}, "behavior": "Isolated", "invert": False}
                for r in split.regexes
            ),
            byte_level,
            *split.after_bytes,
        ],
    }
