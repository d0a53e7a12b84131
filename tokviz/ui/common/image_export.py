"""Saving a widget as a PNG, atomically (temp file in the same folder, then rename)."""

from __future__ import annotations

import errno
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QWidget

from tokviz.core.atomic import replacing


def widget_image(widget: QWidget, scale: float = 1.0) -> QImage:
    """``widget`` drawn into an image ``scale`` times its size. The widget paints itself through a
    scaled painter, so text and lines are drawn at the larger size (sharp on a slide), not blown up."""
    if scale == 1.0:
        return widget.grab().toImage()
    size = widget.size()
    image = QImage(round(size.width() * scale), round(size.height() * scale), QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    painter.scale(scale, scale)
    widget.render(painter, QPoint(0, 0))
    painter.end()
    return image


def save_image_png(image: QImage, path: str | Path) -> Path:
    """Write ``image`` to ``path`` as a PNG; an existing file is replaced only by a complete image.
    Raises WriteError (an OSError naming ``path``, never the temp file) when it cannot be written."""
    p = Path(path)
    with replacing(p) as tmp:
        if not image.save(str(tmp), "PNG"):  # Qt says no more than that it failed
            raise OSError(errno.EIO, "the image could not be encoded or written")
    return p


def save_widget_png(widget: QWidget, path: str | Path, scale: float = 1.0) -> Path:
    """Grab ``widget`` (``scale`` times its size) and write it to ``path`` as a PNG (see
    :func:`save_image_png`)."""
    return save_image_png(widget_image(widget, scale), path)
