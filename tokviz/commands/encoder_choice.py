"""The ``-e NAME | --model FILE [--pattern NAME]`` options every single-encoder command takes.

The encoder itself is resolved by :func:`tokviz.commands.encode.load_encoder`, the same way
``tokviz encode`` does.
"""

from __future__ import annotations


def add_encoder_options(p) -> None:
    from tokviz.core.pretokenize import PATTERNS

    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("-e", "--encoder", metavar="NAME", help="encoder name from `tokviz encoders`")
    which.add_argument("--model", metavar="FILE",
                       help="model file: SentencePiece .model, .tiktoken rank file, tokenizer.json, GGUF, "
                       "or a BPE model tokviz reads")
    p.add_argument("--pattern", choices=list(PATTERNS), metavar="NAME",
                   help=f"pre-split pattern for --model files that need one ({', '.join(PATTERNS)})")


def parse_ids(words: list[str]) -> list[int]:
    """Token ids from the command line: ``1 2 3``, ``1,2,3`` or ``[1, 2, 3]`` (as JSON prints them).

    >>> parse_ids(["[393,", "30002]"])
    [393, 30002]
    """
    import re

    from tokviz.core.errors import TokvizError

    out = []
    for word in re.split(r"[\s,\[\]]+", " ".join(words)):
        if not word:
            continue
        if not re.fullmatch(r"\d+", word):
            raise TokvizError(f"{word!r} is not a token id; give ids as whole numbers, e.g. 393 30002 or [393, 30002]")
        out.append(int(word))
    if not out:
        raise TokvizError("give at least one token id")
    return out
