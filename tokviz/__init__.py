"""tokviz — explore tokenization: train BPE live, inspect token boundaries, compare encoders."""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"


def resources_dir() -> Path:
    """Folder of tokviz's resources (icons, demo corpora, sample texts, translations).

    In an installed wheel they live at ``tokviz/resources``; in a source checkout (editable
    install, tests) at the top-level ``resources/`` beside the package.
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / "resources", here.parent / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("tokviz resources not found next to the package (broken install?)")
