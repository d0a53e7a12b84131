"""Token background colours: stable per token id, and adjacent tokens always distinguishable.

Shared by every view that draws tokens (Inspector, Compare rows, Train corpus sample and probe), so
one token has the same colour everywhere on the screen.
"""

from __future__ import annotations

from typing import Sequence

from PySide6.QtGui import QColor

_GOLDEN = 0.618033988749895


def _hue(token_id: int) -> float:
    # Multiplicative hashing spreads neighbouring ids over the colour wheel; the golden-ratio step keeps
    # hues of consecutive ids far apart.
    h = (token_id * 2654435761) & 0xFFFFFFFF
    return ((h / 2**32) + token_id * _GOLDEN) % 1.0


def token_color(token_id: int, *, dark: bool = False, shade: int = 0) -> QColor:
    """Background colour of ``token_id``; ``shade`` 1 is the alternative used to separate neighbours."""
    if dark:
        light = (0.30, 0.40)[shade]
        sat = 0.55
    else:
        light = (0.82, 0.70)[shade]
        sat = 0.75
    return QColor.fromHslF(_hue(token_id), sat, light)


def _hue_distance(a: float, b: float) -> float:
    d = abs(a - b) % 1.0
    return min(d, 1.0 - d)


def token_colors(ids: Sequence[int], *, dark: bool = False) -> list[QColor]:
    """Colours for a run of tokens: each token its id's colour, but a token whose hue is too close to
    its left neighbour's (or is the same id, e.g. ``ab ab``) gets the alternative shade."""
    out: list[QColor] = []
    prev_id: int | None = None
    prev_shade = 0
    for tid in ids:
        shade = 0
        if prev_id is not None and (tid == prev_id or _hue_distance(_hue(tid), _hue(prev_id)) < 0.06):
            shade = 1 - prev_shade
        out.append(token_color(tid, dark=dark, shade=shade))
        prev_id, prev_shade = tid, shade
    return out


def text_color_on(background: QColor) -> QColor:
    """Black or white, whichever reads better on ``background``."""
    return QColor("#111111") if background.lightnessF() > 0.55 else QColor("#f5f5f5")
