"""The heatmap's cells, filled as numpy pixels, are exactly what QPainter fills of the same
rectangles give (the map used to be painted cell by cell, ~150 ms of the GUI thread for 10,000)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from tokviz.ui.vocab.heatmap import cell_pixels, count_color


def _painted(counts, ticks, size, geometry) -> np.ndarray:
    """The reference: each cell and tick drawn with QPainter, in the order the grid is read."""
    (width, height), (left, top, cw, ch) = size, geometry
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    for r in range(counts.shape[0]):
        for c in range(counts.shape[1]):
            x, y = left + c * cw, top + r * ch
            p.fillRect(QRectF(x, y, cw + 0.5, ch + 0.5), count_color(int(counts[r, c])))
            for tr, tc, fraction in ticks:
                if (tr, tc) == (r, c):
                    p.fillRect(QRectF(x + cw * fraction, y, 1.0, ch + 0.5), QColor(0, 0, 0, 150))
    p.end()
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    rows = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.bytesPerLine() // 4 * height)
    return rows.reshape(height, image.bytesPerLine() // 4)[:, :width].copy()  # a copy: the image goes


def test_the_cells_and_cut_ticks_match_a_qpainter_drawing_pixel_for_pixel(qapp):
    counts = np.array([[1, 2, 3, 4, 5, 6, 7], [2, 1, 1, 3, 3, 9, 1], [6, 5, 4, 3, 2, 1, 2]], dtype=np.int64)
    # cuts a quarter, half and three quarters across; two at one place darken it twice
    ticks = np.array([(0, 1, 0.5), (0, 3, 0.25), (0, 3, 0.75), (1, 5, 1 / 3), (1, 5, 1 / 3), (2, 6, 0.5)])
    for size, geometry in (((200, 90), (13.5, 9.25, 25.3, 21.7)), ((131, 77), (20.0, 11.0, 15.5, 19.5))):
        drawn = cell_pixels(counts, ticks, size, geometry)
        assert drawn.shape == (size[1], size[0])
        assert np.array_equal(drawn, _painted(counts, ticks, size, geometry)), (size, geometry)
