"""What a tokenizer family provides: Encoders (one protocol), registry entries and model-file loaders,
and the optional abilities some encoders have (:class:`SupportsDropout`, :class:`HasChatTemplate`),
asked with ``isinstance`` rather than by probing attributes.

A family module (tiktoken_family, sentencepiece_family, tokviz.core.bpe.formats) builds these plain
values and knows nothing of the registry; tokviz.core.encoders.builtin puts them together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Protocol, runtime_checkable

from tokviz.core.encoding import Encoding


@runtime_checkable
class Encoder(Protocol):
    """What every view needs of an encoder.

    ``name``     unique display name, e.g. ``cl100k_base`` or ``tokviz BPE (step 120)``
    ``family``   ``tiktoken`` | ``sentencepiece`` | ``tokviz-bpe``
    ``source``   where its data came from (file path, package, "trained in tokviz"), for the About box
                 and tooltips; worded with :func:`tokviz.core.encoders.sources.said`, so the app can
                 show it translated while the CLI prints the English
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


@runtime_checkable
class SupportsDropout(Protocol):
    """An encoder that can skip each applicable merge with probability ``p`` (BPE-dropout): tokviz's
    own BPE models, and a rank vocabulary through :func:`tokviz.core.vocab.export.with_dropout`.
    ``seed`` makes a sample repeatable."""

    def encode_dropout(self, text: str, p: float, seed: int | None = None, *,
                       allow_special: bool = False) -> Encoding: ...


class ChatConfig(Protocol):
    """What a model folder's ``tokenizer_config.json`` (or ``chat_template.jinja``) says about chat
    prompts; any of it may be missing (None)."""

    bos_token: str | None
    eos_token: str | None

    @property
    def chat_template(self) -> str | None: ...


@runtime_checkable
class HasChatTemplate(Protocol):
    """An encoder opened with its model folder's configuration (tokenizer.json, GGUF), which may carry
    the model's own chat template and its bos/eos tokens."""

    config: ChatConfig


@dataclass
class EncoderEntry:
    """One named encoder a family offers: listed cheaply, built on first use.

    ``probe()`` says whether its data is there: ``(True, where it comes from)`` or ``(False, why
    not)``, the text worded as an encoder's ``source`` is; ``load()`` builds the Encoder (raising a
    TokvizError when it cannot).
    """

    name: str
    family: str
    probe: Callable[[], tuple[bool, str]]
    load: Callable[[], Encoder]
    vocab_size: int | None = None
    description: str = ""


class ModelLoader(NamedTuple):
    """One model-file format a family can open.

    ``sniff(path, head)`` gets the path and the file's first bytes and says whether this loader
    recognises the content (file names lie: ``tokenizer.model.v3``, a ``vocab.txt`` that is really a
    rank file). ``load(path, pattern)`` builds the Encoder; ``pattern`` is a key of
    ``tokviz.core.pretokenize.PATTERNS`` chosen by the user, or None for the format's own default.
    ``description`` names the format in the "expected one of" message.
    """

    name: str
    sniff: Callable[[Path, bytes], bool]
    load: Callable[[Path, str | None], Encoder]
    description: str = ""
