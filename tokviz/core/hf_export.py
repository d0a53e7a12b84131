"""tokviz's trained models as Hugging Face ``tokenizer.json`` files (and WordPiece as BERT's ``vocab.txt``).

Each file is built so that the ``tokenizers`` library gives the same ids as tokviz's own
``encode(text, allow_special=True)``: special tokens are "added tokens", which ``tokenizers``
always matches in the text first.

- **Unigram**: a normalizer that turns every whitespace run into one space and strips the ends
  (tokviz's words are the runs of non-whitespace, by Python's ``str.isspace``, listed character by
  character so both agree), ``Metaspace`` (``▁`` in front of every word), and the ``Unigram`` model
  with the pieces and scores. Unknown characters become ``<unk>``, a run of them one token, in both.
- **BPE, byte mode**: the model's own pre-split regex (``Split``, isolated) then ``ByteLevel`` without its
  own regex, and a ``BPE`` model over GPT-2's byte-to-character map with ``ignore_merges`` (tiktoken
  takes a piece that is a token whole). tiktoken ranks the *concatenation* of a pair, so every split of
  a token into two tokens is listed as a merge at that token's rank: any pair tiktoken would merge,
  ``tokenizers`` merges too.
- **BPE, char mode** (subword-nmt): words are tokviz's runs of non-whitespace, ``</w>`` is the
  ``end_of_word_suffix``, characters outside the base vocabulary are ``<unk>`` one by one.
- **WordPiece**: ``BertPreTokenizer`` (no normalizer: nothing lowercased) and the ``WordPiece`` model
  with ``##`` and ``max_input_chars_per_word``; no post-processor, so no ``[CLS]``/``[SEP]`` are added.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import regex

from tokviz.core.atomic import write_atomic
from tokviz.core.bpe.model import BPEModel
from tokviz.core.bpe.modes import END_OF_WORD, UNK
from tokviz.core.errors import TokvizError
from tokviz.core.pretokenize import PATTERNS
from tokviz.core.unigram.model import SPACE_MARK, UnigramModel
from tokviz.core.wordpiece.model import CONTINUATION, WordPieceModel


@cache
def _whitespace_class() -> str:
    """A regex character class of exactly the characters ``str.isspace`` accepts. (Found once, when a
    Unigram model is first exported: the scan of every code point took ~0.5 s at import.)"""
    chars = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    return "[" + "".join(chars) + "]+"


def _added(token_id: int, content: str) -> dict:
    return {"id": token_id, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": True}


def unigram_tokenizer_json(model: UnigramModel) -> dict:
    """The ``tokenizer.json`` document of a Unigram model."""
    metaspace = {"type": "Metaspace", "replacement": SPACE_MARK, "prepend_scheme": "always", "split": True}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [_added(i, p) for p, i in sorted(model.special_tokens().items(), key=lambda x: x[1])],
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Replace", "pattern": {"Regex": _whitespace_class()}, "content": " "},
            {"type": "Strip", "strip_left": True, "strip_right": True},
        ]},
        "pre_tokenizer": metaspace,
        "post_processor": None,
        "decoder": metaspace,
        "model": {
            "type": "Unigram",
            "unk_id": model.unk_id,
            "vocab": [[p, s] for p, s in zip(model.pieces, model.scores, strict=True)],
            "byte_fallback": False,
        },
    }


def wordpiece_tokenizer_json(model: WordPieceModel) -> dict:
    """The ``tokenizer.json`` document of a WordPiece model."""
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [_added(i, p) for p, i in sorted(model.special_tokens().items(), key=lambda x: x[1])],
        "normalizer": None,
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": None,
        "decoder": {"type": "WordPiece", "prefix": CONTINUATION, "cleanup": False},
        "model": {
            "type": "WordPiece",
            "unk_token": model.vocab[model.unk_id],
            "continuing_subword_prefix": CONTINUATION,
            "max_input_chars_per_word": model.max_input_chars_per_word,
            "vocab": {p: i for i, p in enumerate(model.vocab) if model.token_id(p) == i},
        },
    }


def byte_level_chars() -> list[str]:
    """GPT-2's byte-to-character map: byte ``b`` is written as ``byte_level_chars()[b]`` (printable
    bytes as themselves, the others shifted to U+0100 and up), as ByteLevel tokenizers store tokens.

    >>> m = byte_level_chars(); m[ord("a")], m[ord(" ")], m[0x0A]
    ('a', 'Ġ', 'Ċ')
    """
    printable = {*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)}
    out = [""] * 256
    extra = 0
    for b in range(256):
        if b in printable:
            out[b] = chr(b)
        else:
            out[b] = chr(256 + extra)
            extra += 1
    return out


@cache
def _non_word_class() -> str:
    """A regex character class of exactly the characters that end a char-mode word (``regex``'s ``\\s``)."""
    space = regex.compile(r"\s").match
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF and space(chr(c))]
    return "[" + "".join(regex.escape(ch) for ch in chars) + "]+"


def _onig_pattern(pattern: str | None) -> str | None:
    """``pattern`` as ``tokenizers``' Oniguruma reads it: there ``x{1,3}+`` means "x{1,3}, one or more
    times", not a possessive interval, so the ``+`` goes (the pre-split patterns use it only where
    nothing follows in the branch, so dropping it changes no match).

    >>> _onig_pattern(r"\\p{N}{1,3}+|a++")
    '\\\\p{N}{1,3}|a++'
    """
    return None if pattern is None else regex.sub(r"(\{\d+(?:,\d*)?\})\+", r"\1", pattern)


def bpe_tokenizer_json(model: BPEModel) -> dict:
    """The ``tokenizer.json`` document of a tokviz BPE model (byte or char mode)."""
    specials = sorted(model.special_tokens().items(), key=lambda x: x[1])
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [_added(i, p) for p, i in specials],
        "normalizer": None,
        "post_processor": None,
    }
    if model.mode == "byte":
        chars = byte_level_chars()

        def name(b: bytes) -> str:
            return "".join(chars[x] for x in b)

        ranks = model.ranks()  # token bytes -> lowest id
        merges = []
        for data, tid in sorted(ranks.items(), key=lambda x: x[1]):
            if tid < 256:
                continue
            for k in range(1, len(data)):
                if data[:k] in ranks and data[k:] in ranks:
                    merges.append([name(data[:k]), name(data[k:])])
        pattern = _onig_pattern(PATTERNS.get(model.pattern))
        byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
        pre = [byte_level] if pattern is None else [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}, byte_level]
        doc["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": pre}
        doc["decoder"] = byte_level
        doc["model"] = {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
            "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": True,
            "vocab": {name(data): tid for data, tid in ranks.items()},
            "merges": merges,
        }
        return doc
    vocab = {}
    for tid in sorted(model.vocab.pieces):
        vocab.setdefault(model.vocab.pieces[tid], tid)  # a string made twice keeps its first id
    merges = [[model.token_piece(a), model.token_piece(b)] for a, b, _ in model.merges]
    doc["pre_tokenizer"] = {"type": "Split", "pattern": {"Regex": _non_word_class()}, "behavior": "Removed",
                            "invert": False}
    doc["decoder"] = {"type": "BPEDecoder", "suffix": END_OF_WORD}
    doc["model"] = {
        "type": "BPE", "dropout": None, "unk_token": UNK, "continuing_subword_prefix": None,
        "end_of_word_suffix": END_OF_WORD, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
        "vocab": vocab,
        "merges": merges,
    }
    return doc


def tokenizer_json(model) -> dict:
    """The ``tokenizer.json`` document of a tokviz BPE, Unigram or WordPiece model."""
    if isinstance(model, BPEModel):
        return bpe_tokenizer_json(model)
    if isinstance(model, UnigramModel):
        return unigram_tokenizer_json(model)
    if isinstance(model, WordPieceModel):
        return wordpiece_tokenizer_json(model)
    raise TokvizError(f"{getattr(model, 'name', model)!r} cannot be exported as tokenizer.json "
                      f"(only tokviz's BPE, Unigram and WordPiece models can)")


def write_tokenizer_json(model, path: str | Path) -> Path:
    """Write ``model`` as a Hugging Face ``tokenizer.json`` at ``path`` (atomically).

    >>> import tempfile, pathlib, tokenizers
    >>> m = WordPieceModel(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "##b", "ab"])
    >>> p = write_tokenizer_json(m, pathlib.Path(tempfile.mkdtemp()) / "tokenizer.json")
    >>> tokenizers.Tokenizer.from_file(str(p)).encode("ab abb").ids == m.encode("ab abb").ids
    True
    """
    text = json.dumps(tokenizer_json(model), ensure_ascii=False, indent=2)
    return write_atomic(path, text + "\n")


def write_vocab_txt(model: WordPieceModel, path: str | Path) -> Path:
    """Write a WordPiece vocabulary as BERT's ``vocab.txt``: one token per line, in id order (the five
    specials, the initial alphabet, then each learned token in the order it was learned)."""
    if not isinstance(model, WordPieceModel):
        raise TokvizError("only WordPiece models can be written as vocab.txt")
    return write_atomic(path, "".join(p + "\n" for p in model.vocab))
