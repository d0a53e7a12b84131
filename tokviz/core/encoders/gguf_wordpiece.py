"""BERT-style (``bert``) GGUF vocabularies: WordPiece as llama.cpp's WPM tokenizer runs it, as a tokenizer.json.

llama.cpp's converter stores a WordPiece vocabulary in "phantom space" form: a piece that starts a
word gets a leading ``▁``, a ``##`` continuation loses its ``##``, and bracketed specials (``[CLS]``,
``[unused0]``) stay as they are. Undoing that gives back the ``vocab.txt`` pieces.

llama.cpp's WPM tokenizer then does what Hugging Face's BERT tokenizer does with lowercasing on:
NFD, drop accents, lowercase, clean control characters, split on whitespace and punctuation and
around each CJK ideograph, then greedy longest-match WordPiece with ``##`` continuations and the
unknown token for a word it cannot cover. It does that for every ``bert`` file (it has no
"cased" switch), so the tokenizer.json built here always lowercases.

>>> bert_vocab(["[UNK]", "\\u2581play", "ing", "[CLS]"])
['[UNK]', 'play', '##ing', '[CLS]']
"""

from __future__ import annotations

import json

PHANTOM_SPACE = "\u2581"


def bert_vocab(tokens: list[str]) -> list[str]:
    """The WordPiece pieces (``vocab.txt`` form) of a ``bert`` GGUF token list."""
    out = []
    for tok in tokens:
        if tok.startswith(PHANTOM_SPACE):
            out.append(tok[1:])
        elif tok.startswith("[") and tok.endswith("]"):
            out.append(tok)
        else:
            out.append("##" + tok)
    return out


def wordpiece_tokenizer_json(tokens: list[str], special: list[bool], unk_id: int) -> str:
    """The tokenizer.json of a ``bert`` GGUF vocabulary; ``special[i]`` marks the control tokens.

    Raises ValueError when two tokens come back to the same piece (a damaged or foreign token list).
    """
    pieces = bert_vocab(tokens)
    vocab = {piece: i for i, piece in enumerate(pieces)}
    if len(vocab) != len(pieces):
        seen: dict[str, int] = {}
        for i, piece in enumerate(pieces):
            if piece in seen:
                raise ValueError(f"tokens {seen[piece]:,} and {i:,} are both the WordPiece piece {piece[:40]!r}")
            seen[piece] = i
    added = [
        {
            "id": i,
            "content": piece,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for i, piece in enumerate(pieces)
        if special[i]
    ]
    doc = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {
            "type": "BertNormalizer",
            "clean_text": True,
            "handle_chinese_chars": True,
            "strip_accents": True,
            "lowercase": True,
        },
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": None,
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": False},
        "model": {
            "type": "WordPiece",
            "unk_token": pieces[unk_id],
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
            "vocab": vocab,
        },
    }
    return json.dumps(doc, ensure_ascii=False)
