"""The one Encoder protocol every family implements (tiktoken, SentencePiece, tokviz BPE)."""

from __future__ import annotations

from typing import Mapping, Protocol, Sequence, runtime_checkable

from tokviz.core.encoding import Encoding


@runtime_checkable
class Encoder(Protocol):
    """What every view needs of an encoder.

    ``name``     unique display name, e.g. ``cl100k_base`` or ``tokviz BPE (step 120)``
    ``family``   ``tiktoken`` | ``sentencepiece`` | ``tokviz-bpe``
    ``source``   where its data came from (file path, package, "trained in tokviz"), for the About box
    ``byte_level`` True when token bytes always join to the text exactly (round trip guaranteed)
    """

    name: str
    family: str
    source: str
    byte_level: bool

    @property
    def vocab_size(self) -> int: ...

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        """Tokens of ``text``. Special-token strings are plain text unless ``allow_special``.
        Raises InvalidTextError for text that is not valid Unicode (lone surrogates)."""
        ...

    def decode(self, ids: Sequence[int]) -> str: ...

    def special_tokens(self) -> Mapping[str, int]: ...

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes a token id stands for (``▁`` as space, byte-fallback pieces as their byte)."""
        ...
