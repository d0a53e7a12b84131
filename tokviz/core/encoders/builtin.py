"""The one place that lists tokviz's tokenizer families: the default registry and the loader list.

Each family module offers plain values: ``entries()`` (named encoders for the registry) and
``loaders()`` (model-file formats for ``open_model_file``). None of them imports the registry or
registers itself; this module imports them all, so a broken family fails loudly at import instead of
vanishing from the list. Adding a family is one line in :data:`FAMILIES`.

>>> [loader.name for loader in model_loaders()][:2]
['rank file', 'tekken']
"""

from __future__ import annotations

import threading

from tokviz.core.bpe import formats as bpe_formats
from tokviz.core.encoders import (
    gguf_family,
    hf_json,
    model_catalog,
    rank_models,
    sentencepiece_family,
    tiktoken_family,
)
from tokviz.core.encoders.base import ModelLoader
from tokviz.core.encoders.registry import Registry

# In the order they are listed and their loaders tried. rank_models comes before tiktoken_family: both
# read rank files, and rank_models recognises the genuine ones (Llama 3/4, Qwen, OpenAI's) by SHA-256
# with their own pattern and special tokens, where tiktoken_family would guess the GPT-4 pattern.
FAMILIES = (rank_models, tiktoken_family, sentencepiece_family, bpe_formats, hf_json, gguf_family, model_catalog)


def model_loaders() -> list[ModelLoader]:
    """Every family's model-file loaders, in the order :func:`open_model_file` tries them."""
    return [loader for family in FAMILIES for loader in family.loaders()]


def build_registry() -> Registry:
    """A fresh registry holding every family's built-in encoders (probed only when listed or used)."""
    return Registry(entry for family in FAMILIES for entry in family.entries())


_default: Registry | None = None
_default_lock = threading.Lock()


def default_registry() -> Registry:
    """The process-wide registry of built-in encoders (built once); models trained or opened at run
    time are added to it by the app."""
    global _default
    with _default_lock:
        if _default is None:
            _default = build_registry()
        return _default
