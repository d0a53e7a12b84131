"""Errors that carry a message meant for the user (CLI prints it, the GUI shows it in the window).

A message a user meets in the app is worded with :func:`user_message`: the English string the CLI
prints, which keeps its template and fields (a :class:`~tokviz.core.sentences.SentenceText` in the
translation context :data:`CONTEXT`), so the window shows it in the interface's language.
:func:`message_of` gives an error's message with its sentence kept.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from tokviz.core.sentences import Sentence, SentenceText

CONTEXT = "Errors"  # the translation context of core's messages to users


def user_message(template: str, **fields) -> SentenceText:
    """The English of ``template`` with ``fields`` (``str.format`` syntax), translatable by a view.

    >>> m = user_message("the text has {count} tokens; cannot back up {back}", count=2, back=5)
    >>> m, m.sentence.render(lambda context, t: "토큰 {count}개: {back}개를 물릴 수 없습니다")
    ('the text has 2 tokens; cannot back up 5', '토큰 2개: 5개를 물릴 수 없습니다')
    """
    return Sentence(template, fields, CONTEXT).text()


def message_of(err: BaseException) -> str:
    """``str(err)``, keeping its sentence when core worded it with :func:`user_message` (``str()``
    of the exception would give the plain English only)."""
    if len(err.args) == 1 and isinstance(err.args[0], SentenceText):
        return err.args[0]
    return str(err)


class TokvizError(Exception):
    """Base class: ``str(err)`` is a complete sentence a user can act on."""


class InvalidTextError(TokvizError, ValueError):
    """The text cannot be encoded as UTF-8 (a lone surrogate from a broken paste or file)."""

    def __init__(self, text: str, index: int):
        self.index = index
        self.char = text[index]
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        super().__init__(
            f"The text has a lone surrogate U+{ord(self.char):04X} at character {index} "
            f"(line {line}, column {col}); it is half of a broken emoji or astral character "
            f"and cannot be encoded as UTF-8. Replace it (U+FFFD) or fix the source."
        )


class ModelFileError(TokvizError):
    """A model / rank file is unreadable, truncated, of the wrong format, or fails its hash check."""

    def __init__(self, path: str | Path, problem: str):
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class EncodingFailed(TokvizError):
    """A tokenizer library gave up on a text: a native panic (a regex whose backtracking hit the
    library's limit, a pattern matching the empty string) or an allocation failure. The encoder may
    still work on other texts; nothing else is affected."""

    def __init__(self, encoder: str, detail: str):
        self.encoder = encoder
        self.detail = detail
        super().__init__(detail)  # views and compare rows name the encoder already


class PatternNeeded(ModelFileError):
    """A model file (a rank file of unknown origin) records no pre-split pattern: the caller must ask
    for one (``--pattern`` in the CLI, a question in the GUI) instead of guessing, since a wrong
    pattern gives wrong ids silently."""


class EncoderUnavailable(TokvizError):
    """The encoder's data cannot be found offline or failed verification."""

    def __init__(self, name: str, reason: str):
        self.name = name
        self.reason = reason
        super().__init__(f"Encoder {name!r} is unavailable: {reason}")


class CorpusError(TokvizError):
    """A corpus cannot be used for training (empty, undecodable, ...)."""


def find_lone_surrogate(text: str) -> int | None:
    """Index of the first lone surrogate in ``text``, or None.

    >>> find_lone_surrogate("ok\\ud83d!")
    2
    """
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as err:
        return err.start


_ENCODE_SLICE = 1 << 20  # characters per str.encode call of a big text (one call holds the GIL throughout)


def check_text(text: str) -> bytes:
    """Return ``text`` as UTF-8, or raise InvalidTextError naming the first lone surrogate.

    A text of megabytes is encoded a slice at a time: encoding 8 million characters in one call kept
    a waiting GUI thread off the interpreter for ~50 ms. A str holds no surrogate pairs, so a slice
    never cuts a character.

    >>> check_text("값 😀")
    b'\\xea\\xb0\\x92 \\xf0\\x9f\\x98\\x80'
    """
    if len(text) <= _ENCODE_SLICE:
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise InvalidTextError(text, err.start) from None
    pieces = []
    for i in range(0, len(text), _ENCODE_SLICE):
        try:
            pieces.append(text[i:i + _ENCODE_SLICE].encode("utf-8"))
        except UnicodeEncodeError as err:
            raise InvalidTextError(text, i + err.start) from None
    return b"".join(pieces)


_SURROGATE = re.compile("[\ud800-\udfff]")


def replace_lone_surrogates(text: str) -> str:
    r"""Join surrogate pairs into their character, replace each lone surrogate with U+FFFD.

    This is the explicit repair the UI and CLI offer; tokviz never repairs silently.

    >>> replace_lone_surrogates("a\ud83d\ude00b\ud800")
    'a😀b�'
    """
    if find_lone_surrogate(text) is None:
        return text
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return _SURROGATE.sub("\ufffd", joined)


def describe_char(ch: str) -> str:
    """``U+AC12 HANGUL SYLLABLE GABS``-style label used in error messages and tooltips."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '<unnamed>')}"

