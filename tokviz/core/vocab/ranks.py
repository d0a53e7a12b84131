"""The rank table behind a byte-level rank encoder, and what long vocabulary work reports to.

A rank encoder (tiktoken's OpenAI files, Llama 3/4, Qwen, tekken) is nothing but ``{token bytes:
rank}``: the adjacent pair whose concatenation has the lowest rank merges first, and the rank is the
token id. Everything in :mod:`tokviz.core.vocab.merges` starts from that table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

from tokviz.core.errors import TokvizError


@runtime_checkable
class HasRanks(Protocol):
    """An encoder that is a byte-level rank table (tiktoken family)."""

    name: str

    def mergeable_ranks(self) -> Mapping[bytes, int]: ...


class VocabState(Protocol):
    """What long vocabulary work reports to and asks of its caller (a GUI worker, a test, the CLI),
    as :class:`tokviz.core.compare.corpus.CompareState` does for corpus comparisons."""

    def is_cancelled(self) -> bool: ...

    def progress(self, done: int, total: int) -> None: ...


class NoState:
    """A state that never cancels and ignores progress."""

    def is_cancelled(self) -> bool:
        return False

    def progress(self, done: int, total: int) -> None:
        pass


class VocabCancelled(TokvizError):
    """The caller's state asked to stop; nothing half-done is returned or cached."""


def check_cancel(state: VocabState) -> None:
    if state.is_cancelled():
        raise VocabCancelled("cancelled")


def rank_table(encoder) -> Mapping[bytes, int]:
    """``{token bytes: rank}`` of a rank encoder; TokvizError naming the family otherwise.

    >>> rank_table(object())
    Traceback (most recent call last):
    ...
    tokviz.core.errors.TokvizError: object is not a byte-level rank vocabulary (tiktoken rank files, Llama 3/4, Qwen, tekken); its merges cannot be recovered from ranks
    """  # noqa: E501 (a doctest's expected output line cannot be wrapped)
    if not isinstance(encoder, HasRanks):
        name = getattr(encoder, "name", type(encoder).__name__)
        raise TokvizError(f"{name} is not a byte-level rank vocabulary (tiktoken rank files, Llama 3/4, Qwen, "
                          "tekken); its merges cannot be recovered from ranks")
    return encoder.mergeable_ranks()
