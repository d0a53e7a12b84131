"""tokviz as a library: the same encoders and the same data model as the app and the CLI.

>>> import tokviz
>>> enc = tokviz.encode("안녕하세요 👋", "cl100k_base")          # doctest: +SKIP
>>> enc.ids[:3], len(enc)                                        # doctest: +SKIP
([31495, 230, 75265], 9)
>>> tokviz.open_model("path/to/tokenizer.json").encode("hi")     # doctest: +SKIP

Three functions, re-exported by ``tokviz`` itself (imported on first use, so ``import tokviz`` loads
neither numpy nor any tokenizer library, and never Qt):

- :func:`encoders` — the names :func:`encode` accepts, those whose data is here first;
- :func:`encode` — an :class:`~tokviz.core.encoding.Encoding` (``.ids``, ``.tokens``, columns as numpy
  arrays; in a notebook it shows as coloured tokens);
- :func:`open_model` — an encoder for a model file or folder, whose ``.encode(text)`` gives the same.

Errors are :class:`~tokviz.core.errors.TokvizError` subclasses with a message meant for people.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# Encodings show as coloured tokens in a notebook once core.display is imported (it registers the view).
from tokviz.core import display as _notebook_view  # noqa: F401

if TYPE_CHECKING:
    from os import PathLike

    from tokviz.core.encoders.base import Encoder
    from tokviz.core.encoding import Encoding

__all__ = ["encode", "encoders", "open_model"]


def encoders(*, available_only: bool = False) -> list[str]:
    """Names of the encoders :func:`encode` knows: OpenAI's and the offline catalogue's.

    ``available_only``: only those whose data was found here (and passed its SHA-256 check).
    """
    from tokviz.core.encoders.builtin import default_registry

    registry = default_registry()
    if not available_only:
        return registry.names()
    return [s.name for s in registry.statuses() if s.available]


def get_encoder(name: str) -> Encoder:
    """The named encoder (loaded once, then shared). Raises EncoderUnavailable with the reason."""
    from tokviz.core.encoders.builtin import default_registry

    return default_registry().get(name)


def encode(text: str, encoder: str = "cl100k_base", *, allow_special: bool = False) -> Encoding:
    """How the encoder called ``encoder`` splits ``text``.

    ``allow_special``: read special-token strings such as ``<|endoftext|>`` as special tokens (by
    default they are plain text, as in the app). Raises EncoderUnavailable for an unknown name or
    missing data, InvalidTextError for text that is not valid Unicode.
    """
    return get_encoder(encoder).encode(text, allow_special=allow_special)


def open_model(path: str | PathLike[str], *, pattern: str | None = None) -> Encoder:
    """An encoder for the model file or folder at ``path``: a Hugging Face ``tokenizer.json`` or model
    folder, GGUF, Mistral ``tekken.json``, SentencePiece ``.model``, a tiktoken rank file (``pattern``
    names the pre-split for rank files tokviz does not recognise) or a model ``tokviz train`` exported.

    Raises ModelFileError naming the file and what is wrong with it.
    """
    from tokviz.core.encoders.builtin import open_model_file

    return open_model_file(path, pattern=pattern)
