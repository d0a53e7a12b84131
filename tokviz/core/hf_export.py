"""tokviz's trained models as Hugging Face ``tokenizer.json`` files (and WordPiece as BERT's ``vocab.txt``).

Each file is built so that the ``tokenizers`` library gives the same ids as tokviz's own
``encode(text, allow_special=True)``: special tokens are "added tokens", which ``tokenizers``
always matches in the text first.

- **Unigram**: a normalizer that turns every whitespace run into one space and strips the ends
  (tokviz's words are the runs of non-whitespace, by Python's ``str.isspace``, listed character by
  character so both agree), ``Metaspace`` (``▁`` in front of every word), and the ``Unigram`` model
  with the pieces and scores. Unknown characters become ``<unk>``, a run of them one token, in both.
- **WordPiece**: ``BertPreTokenizer`` (no normalizer: nothing lowercased) and the ``WordPiece`` model
  with ``##`` and ``max_input_chars_per_word``; no post-processor, so no ``[CLS]``/``[SEP]`` are added.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tokviz.core.atomic import write_atomic
from tokviz.core.errors import TokvizError
from tokviz.core.unigram.model import SPACE_MARK, UnigramModel
from tokviz.core.wordpiece.model import CONTINUATION, WordPieceModel


def _whitespace_class() -> str:
    """A regex character class of exactly the characters ``str.isspace`` accepts."""
    chars = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    return "[" + "".join(chars) + "]+"


_WHITESPACE = _whitespace_class()


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
            {"type": "Replace", "pattern": {"Regex": _WHITESPACE}, "content": " "},
            {"type": "Strip", "strip_left": True, "strip_right": True},
        ]},
        "pre_tokenizer": metaspace,
        "post_processor": None,
        "decoder": metaspace,
        "model": {
            "type": "Unigram",
            "unk_id": model.unk_id,
            "vocab": [[p, s] for p, s in zip(model.pieces, model.scores)],
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


def tokenizer_json(model) -> dict:
    """The ``tokenizer.json`` document of a tokviz Unigram or WordPiece model."""
    if isinstance(model, UnigramModel):
        return unigram_tokenizer_json(model)
    if isinstance(model, WordPieceModel):
        return wordpiece_tokenizer_json(model)
    raise TokvizError(f"{getattr(model, 'name', model)!r} cannot be exported as tokenizer.json "
                      f"(only tokviz's Unigram and WordPiece models can)")


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
