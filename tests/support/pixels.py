"""Reading rendered token boxes pixel by pixel."""

from __future__ import annotations

import math


def edge_is_outlined(image, rect, fill, ring) -> bool:
    """Whether the pixel column just inside ``rect``'s left edge is the outline (``ring``) rather
    than the token's ``fill`` (away from the rounded corners). A wide glyph in a narrow Compare cell
    (하, 요) touches the edge, so a few pixels of text colour are allowed; half and half fails."""

    def dist(a, b):
        return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue())

    x = math.ceil(rect.left())
    column = [image.pixelColor(x, y) for y in range(int(rect.top()) + 4, int(rect.bottom()) - 3)]
    share = sum(dist(c, ring) < dist(c, fill) for c in column) / len(column)
    assert share >= 0.9 or share <= 0.25, [c.name() for c in column]
    return share >= 0.9
