"""The families added for model files are one-way: they offer entries() and loaders() and never reach the registry."""

from __future__ import annotations

import ast
import importlib
import inspect

import pytest

from tokviz.core.encoders.base import EncoderEntry, ModelLoader

FAMILIES = ["hf_json", "rank_models", "model_catalog", "gguf_family"]
# The modules that compose the families; a family importing one would make the dependency circular.
COMPOSITION = {"tokviz.core.encoders.registry", "tokviz.core.encoders.builtin"}


def imported_modules(module) -> set[str]:
    """Every module a source file imports, at top level or inside a function."""
    tree = ast.parse(inspect.getsource(module))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("name", FAMILIES)
def test_family_never_imports_the_registry(name):
    module = importlib.import_module(f"tokviz.core.encoders.{name}")
    imports = imported_modules(module)
    assert not imports & COMPOSITION, f"{name} imports {sorted(imports & COMPOSITION)}"
    # nor the package's re-exports of the registry
    assert not {i for i in imports if i.startswith("tokviz.core.encoders.") and i.rsplit(".", 1)[-1]
                in ("Registry", "default_registry", "register_loader", "LOADERS")}


@pytest.mark.parametrize("name", FAMILIES)
def test_family_offers_entries_and_loaders(name):
    module = importlib.import_module(f"tokviz.core.encoders.{name}")
    entries, loaders = module.entries(), module.loaders()
    assert all(isinstance(e, EncoderEntry) for e in entries)
    assert all(isinstance(loader, ModelLoader) and loader.description for loader in loaders)
    names = [e.name for e in entries] + [loader.name for loader in loaders]
    assert len(names) == len(set(names))


def test_loaders_recognise_their_own_formats_only():
    from tokviz.core.encoders import gguf_family, hf_json, rank_models

    heads = {
        "tokenizer.json": b'{"version": "1.0", "truncation": null, "padding": null, "added_tokens": []',
        "rank file": b"IQ== 0\nIg== 1\nIw== 2\n",
        "tekken": b'{"config": {"pattern": "x", "default_vocab_size": 1}, "vocab": [{"rank": 0, "token_bytes": "IQ=="',
        "gguf": b"GGUF\x03\x00\x00\x00" + bytes(16),
    }
    loaders = [*hf_json.loaders(), *rank_models.loaders(), *gguf_family.loaders()]
    for fmt, head in heads.items():
        assert [loader.name for loader in loaders if loader.sniff(None, head)] == [fmt], fmt
