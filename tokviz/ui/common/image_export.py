"""Saving a widget as a PNG, atomically (temp file in the same folder, then rename)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget

from tokviz.core.atomic import replacing


def save_widget_png(widget: QWidget, path: str | Path) -> Path:
    """Grab ``widget`` and write it to ``path`` as a PNG; an existing file is replaced only by a
    complete image. Raises OSError (with the path) when the image cannot be written."""
    p = Path(path)
    with replacing(p, suffix=".png") as tmp:
        if not widget.grab().save(str(tmp), "PNG"):
            raise OSError(f"Could not write the image {p}.")
    return p
