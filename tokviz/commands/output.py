"""How commands write to standard output: JSON and text that survive any terminal encoding.

Korean and emoji are written as themselves on a UTF-8 stdout and escaped (JSON ``\\uXXXX``, text
``\\xNN``-style backslashes) on any other, never failing with an encode error.
"""

from __future__ import annotations

import json
import sys


def json_ascii() -> bool:
    """Whether JSON must escape non-ASCII characters (stdout is not UTF-8)."""
    return not _utf8_stdout()


def _utf8_stdout() -> bool:
    enc = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return enc in ("utf8", "utf8sig")


def print_json(doc) -> None:
    """``doc`` as indented JSON and a newline."""
    json.dump(doc, sys.stdout, ensure_ascii=not _utf8_stdout(), indent=2)
    sys.stdout.write("\n")
    sys.stdout.flush()


def print_text(text: str) -> None:
    """``text`` as is, or with what the terminal cannot show backslash-escaped."""
    if not _utf8_stdout():
        codec = getattr(sys.stdout, "encoding", None) or "ascii"
        text = text.encode(codec, "backslashreplace").decode(codec)
    sys.stdout.write(text)
    sys.stdout.flush()
