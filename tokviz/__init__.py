"""tokviz — explore tokenization: train BPE live, inspect token boundaries, compare encoders.

As a library (see :mod:`tokviz.api`): ``tokviz.encode(text, "cl100k_base")``, ``tokviz.open_model(path)``,
``tokviz.encoders()``. They are imported on first use: ``import tokviz`` stays cheap (no numpy, no Qt).
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["Encoding", "__version__", "encode", "encoders", "open_model", "resources_dir"]

_API = frozenset({"encode", "encoders", "open_model"})


def __getattr__(name: str):
    # PEP 562: the API and the Encoding class are imported when first used
    if name in _API:
        from tokviz import api

        return getattr(api, name)
    if name == "Encoding":
        from tokviz.core.encoding import Encoding

        return Encoding
    raise AttributeError(f"module 'tokviz' has no attribute {name!r}")


def resources_dir():
    """Folder of tokviz's resources (icons, demo corpora, sample texts, translations), a ``Path``.

    In an installed wheel they live at ``tokviz/resources``; in a source checkout (editable
    install, tests) at the top-level ``resources/`` beside the package.
    """
    from pathlib import Path  # here, not at import: ``import tokviz`` stays cheap for the CLI and the API

    here = Path(__file__).resolve().parent
    for candidate in (here / "resources", here.parent / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("tokviz resources not found next to the package (broken install?)")
