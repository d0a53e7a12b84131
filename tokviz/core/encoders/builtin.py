"""The one place that lists tokviz's tokenizer families: the default registry, the loader list,
opening a model file of any format, and the templates the families word sources with.

File names lie (``tokenizer.model.v3``, a ``vocab.txt`` that is really a rank file), so each format
has a *sniff* that looks at the first bytes, and the first loader whose sniff says yes loads it.

Each family module offers plain values: ``entries()`` (named encoders for the registry) and
``loaders()`` (model-file formats for ``open_model_file``). None of them imports the registry or
registers itself; this module imports them all, so a broken family fails loudly at import instead of
vanishing from the list. Adding a family is one line in :data:`FAMILIES`.

>>> [loader.name for loader in model_loaders()][:2]
['rank file', 'tekken']
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from tokviz.core.bpe import formats as bpe_formats
from tokviz.core.encoders import (
    gguf_family,
    hf_cache,
    hf_json,
    model_catalog,
    rank_encoder,
    rank_models,
    registry,
    sentencepiece_family,
    sources,
    tiktoken_family,
)
from tokviz.core.encoders.base import Encoder, ModelLoader
from tokviz.core.encoders.files import pattern_regex, read_head
from tokviz.core.encoders.registry import Registry
from tokviz.core.errors import ModelFileError, TokvizError
from tokviz.core.sentences import templates_in

# In the order they are listed and their loaders tried. rank_models comes before tiktoken_family: both
# read rank files, and rank_models recognises the genuine ones (Llama 3/4, Qwen, OpenAI's) by SHA-256
# with their own pattern and special tokens, where tiktoken_family would guess the GPT-4 pattern.
FAMILIES = (rank_models, tiktoken_family, sentencepiece_family, bpe_formats, hf_json, gguf_family, model_catalog)


def model_loaders() -> list[ModelLoader]:
    """Every family's model-file loaders, in the order :func:`open_model_file` tries them."""
    return [loader for family in FAMILIES for loader in family.loaders()]


def build_registry() -> Registry:
    """A fresh registry holding every family's built-in encoders (probed only when listed or used)."""
    reg = Registry(entry for family in FAMILIES for entry in family.entries())
    # a cached repo named like a built-in (``gpt2``) does not replace it
    for entry in hf_cache.entries(open_model_file, taken=set(reg.names())):
        reg.register(entry)
    return reg


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


def source_templates() -> tuple[str, ...]:
    """Every template the families word sources and reasons with (those with words to translate, in
    the context :data:`tokviz.core.encoders.sources.CONTEXT`), read from their source, so the list for
    translators cannot fall behind the code."""
    modules = (sources, rank_encoder, tiktoken_family, model_catalog, rank_models, sentencepiece_family, gguf_family,
               registry)
    found = (t for module in modules for t in templates_in(module, "said"))
    return tuple(t for t in dict.fromkeys(found) if sources.has_words(t))


# ---- opening any model file ----------------------------------------------------------------------
def _describe(loader: ModelLoader | tuple) -> str:
    return loader[3] if len(loader) > 3 and loader[3] else str(loader[0])


# What a model folder holds, in the order tokviz looks (as models ship: a Hugging Face folder has
# tokenizer.json beside tokenizer_config.json; Meta's and Mistral's folders a tokenizer.model or tekken.json).
FOLDER_FILES = ("tokenizer.json", "vocab.json", "tekken.json", "tokenizer.model", "spiece.model")


def model_in_folder(folder: Path) -> Path:
    """The model file inside a model folder; the folder itself when it holds none (open_model_file then
    says it is not a regular file).

    A GPT-2 style folder (`tokviz train --export gpt2 DIR/`) is found through its vocab.json, which the
    BPE loader reads together with merges.txt.
    """
    for name in FOLDER_FILES:
        inner = folder / name
        if inner.is_file() and (name != "vocab.json" or (folder / "merges.txt").is_file()):
            return inner
    return folder


def open_model_file(path: str | Path, *, pattern: str | None = None,
                    loaders: Sequence[ModelLoader] | Iterable[tuple] | None = None) -> Encoder:
    """An Encoder for the model file at ``path``, whatever its supported format.

    ``pattern`` (a key of PATTERNS) picks the pre-split for formats that need one; None means the
    format's own (GPT-4's for ``.tiktoken`` files). ``loaders`` are the formats to try, in order;
    None means every built-in family's (:func:`model_loaders`). Raises
    ModelFileError naming the file and the problem: unreadable, not a regular file, empty, of an
    unknown format, or broken inside.
    """
    loaders = model_loaders() if loaders is None else list(loaders)
    p = Path(path)
    if pattern is not None:
        pattern_regex(pattern)  # an unknown name is the user's mistake: say so before reading anything
    if not p.exists() and hf_cache.looks_like_repo_id(str(path)):
        cached = hf_cache.find_cached(str(path))  # a repo id (Qwen/Qwen2.5-7B-Instruct) already in the cache
        if cached is not None:
            p = cached.file
        elif "/" in str(path):
            raise ModelFileError(p, f"no such file, and no tokenizer of the repo {str(path)!r} in the Hugging Face "
                                    f"cache ({hf_cache.cache_root()}); tokviz never downloads")
    if p.is_dir():
        # a cache repo folder opens its current snapshot's tokenizer, a link leading out of the repo never
        cached = hf_cache.cached_model_in(p) if hf_cache.is_repo_folder(p) else None
        p = cached.file if cached is not None else model_in_folder(p)
    head = read_head(p)
    if not head:
        raise ModelFileError(p, "the file is empty")
    for loader in loaders:
        sniff, load = loader[1], loader[2]
        try:
            recognised = bool(sniff(p, head))
        except Exception:  # a sniff that trips over odd bytes simply does not recognise them
            recognised = False
        if recognised:
            return _guarded_load(load, p, pattern)
    expected = "; ".join(_describe(loader) for loader in loaders)
    raise ModelFileError(p, f"not a model format tokviz knows. Expected one of: {expected}")


def _guarded_load(load, p: Path, pattern: str | None) -> Encoder:
    """Run a loader; the Python errors a hostile file can still provoke inside a parser become a
    ModelFileError naming the file (a loader's own TokvizErrors pass through unchanged)."""
    try:
        return load(p, pattern)
    except TokvizError:
        raise
    except RecursionError:
        raise ModelFileError(p, "is nested too deeply to read (corrupt or hostile file)") from None
    except MemoryError:
        raise ModelFileError(p, "declares sizes too large to hold in memory (corrupt or hostile file)") from None
    except (OverflowError, ValueError, KeyError, IndexError, TypeError, UnicodeDecodeError) as err:
        raise ModelFileError(p, f"is damaged ({type(err).__name__}: {str(err)[:200]})") from None
