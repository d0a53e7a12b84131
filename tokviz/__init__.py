"""tokviz — explore tokenization: train BPE live, inspect token boundaries, compare encoders.

As a library (see :mod:`tokviz.api`): ``tokviz.encode(text, "cl100k_base")``, ``tokviz.open_model(path)``,
``tokviz.encoders()``. They are imported on first use: ``import tokviz`` stays cheap (no numpy, no Qt).
"""

from __future__ import annotations

from tokviz.core.package_data import VERSION as __version__
from tokviz.core.package_data import resources_dir

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
