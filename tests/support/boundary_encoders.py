"""Texts and encoders for the boundary tests (canonical ids, streaming, healing, cuts): sample texts
that cut Korean and emoji, a brute-force vocabulary scan, and a small GGUF file written from a model
tokviz trains."""

from __future__ import annotations

from pathlib import Path

# Korean (syllables cut by byte-level BPE), emoji (4 bytes, ZWJ sequences, flags), jamo, English, code
TEXTS = [
    "안녕하세요, 세계! 오늘 날씨가 좋네요.",
    "The color is blue 🙂 and the flag is 🇰🇷; 👩‍👩‍👧 family.",
    "값을 읽는다 → print(x) # 주석\n\n  들여쓰기",
    "\u1100\u1161\u11a8 conjoining jamo, e\u0301 combining, 日本語のテキスト",
]


def brute_vocab(encoder) -> dict[int, bytes]:
    """Every ordinary token's bytes by a plain scan of the id space (not the code under test)."""
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


def gguf_from_bpe(model, out: Path) -> Path:
    """A byte-level BPE GGUF (``tokenizer.ggml.model`` gpt2, GPT-2's pre-split) holding a tokviz BPE
    model's vocabulary and merges, as llama.cpp's converter lays them out."""
    import gguf

    from tokviz.core.hf_export import tokenizer_json

    doc = tokenizer_json(model)["model"]
    tokens = [t for t, _ in sorted(doc["vocab"].items(), key=lambda kv: kv[1])]
    w = gguf.GGUFWriter(str(out), "llama")
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("gpt2")
    w.add_token_list(tokens)
    w.add_token_types([1] * len(tokens))  # all normal
    w.add_token_merges([" ".join(m) for m in doc["merges"]])
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


FAMILIES = ("sentencepiece", "tokenizer.json", "gguf", "tokviz-bpe")


def family_encoder(kind: str, folder: Path):
    """A small encoder of each family tokviz opens besides the OpenAI rank files (files written under
    ``folder``); skips the test when the family's package is missing."""
    import pytest

    from tests.support.trained_models import bpe_model
    from tokviz.core.encoders.builtin import default_registry

    if kind == "sentencepiece":
        return default_registry().get("sp:demo_unigram")
    if kind == "tokenizer.json":  # tokviz's own BPE exported: a real tokenizer.json, small
        pytest.importorskip("tokenizers")
        from tokviz.core.encoders.hf_json import HFTokenizerEncoder
        from tokviz.core.hf_export import write_tokenizer_json

        return HFTokenizerEncoder.from_file(write_tokenizer_json(bpe_model("byte", 80), folder / "tokenizer.json"))
    if kind == "gguf":
        pytest.importorskip("gguf")
        from tokviz.core.encoders.gguf_family import load_gguf

        return load_gguf(gguf_from_bpe(bpe_model("byte", 80), folder / "bpe.gguf"))
    return bpe_model("byte", 60)
