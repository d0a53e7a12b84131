"""What the installed package knows about itself: its version and where its resources are.

Low in the layers so that any module (core, ui, commands) can ask without importing the ``tokviz``
package's library face (``tokviz.encode`` and friends, which reach the encoder catalogue).
"""

from __future__ import annotations

VERSION = "0.1.0"


def resources_dir():
    """Folder of tokviz's resources (icons, demo corpora, sample texts, translations), a ``Path``.

    In an installed wheel they live at ``tokviz/resources``; in a source checkout (editable
    install, tests) at the top-level ``resources/`` beside the package.

    >>> (resources_dir() / "corpora").is_dir()
    True
    """
    from pathlib import Path  # here, not at import: ``import tokviz`` stays cheap for the CLI and the API

    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "resources", package.parent / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("tokviz resources not found next to the package (broken install?)")
