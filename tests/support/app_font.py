"""The application's font enlarged for a test as presentation mode enlarges it (a projector's font)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication


@contextmanager
def presentation_font(scale: float = 1.6) -> Iterator[None]:
    """The app's font ``scale`` times larger inside the block, the old one after it."""
    app = QApplication.instance()
    old = app.font()
    big = QFont(old)
    big.setPointSizeF(old.pointSizeF() * scale)
    app.setFont(big)
    try:
        yield
    finally:
        app.setFont(old)
