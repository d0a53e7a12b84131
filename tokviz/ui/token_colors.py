"""Token background colours: one colour per token id, and adjacent tokens always distinguishable.

Shared by every view that draws tokens (Inspector, Compare rows, Train corpus sample and probe), so
one token id has the same colour everywhere on the screen.

Why a small palette and not a hue per id: ids are unbounded, colours a reader can tell apart at a
glance are not, so any id -> colour map gives some neighbours nearly the same colour (the old
continuous hues gave gpt2's 안 = ids 243, 230 #aff4bc and #bef4af), and swapping in a second shade
for a neighbour gave one id two colours. Instead:

* each id hashes to one of 12 colours picked (greedy farthest-point over in-gamut sRGB, lightness
  kept where black text reads on the light palette and white text on the dark one) so that any two
  differ by CIEDE2000 >= 14 (light) / >= 15 (dark): two different palette colours are always clearly
  different;
* two neighbours that land on the same palette colour (the same id twice, or a 1-in-12 hash
  collision) are told apart by :func:`token_marks`, an outline the views draw on every other token
  of such a run; the fill, i.e. the id's colour, never changes.

The colour maths the interface needs (sRGB -> linear light, WCAG relative luminance and contrast
ratio, CIE L*a*b* and CIEDE2000, a readable text colour on a background) lives here and nowhere else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtGui import QColor

LIGHT_PALETTE = ("#f7b6b6", "#1ed9e6", "#e6e61e", "#18dc81", "#a8b2f5", "#eead63",
                 "#d4e0be", "#f49aee", "#e9d5f6", "#85cf17", "#9af4d6", "#f7ddb6")
DARK_PALETTE = ("#8b1d25", "#0c6e0c", "#116b97", "#aa17cf", "#7e5d1b", "#1b5049",
                "#454186", "#9b4b70", "#a44e23", "#4d5328", "#4752eb", "#674432")
MIN_PALETTE_DISTANCE = 14.0  # smallest CIEDE2000 between two colours of either palette (tested)

_LIGHT = [QColor(c) for c in LIGHT_PALETTE]
_DARK = [QColor(c) for c in DARK_PALETTE]


def palette_index(token_id: int) -> int:
    """Which palette colour ``token_id`` gets (multiplicative hashing: consecutive ids scatter).

    >>> palette_index(243) != palette_index(230)
    True
    """
    return (((token_id * 2654435761) & 0xFFFFFFFF) >> 16) % len(LIGHT_PALETTE)


def token_color(token_id: int, *, dark: bool = False) -> QColor:
    """Background colour of ``token_id`` (the same in every view and at every position)."""
    return QColor((_DARK if dark else _LIGHT)[palette_index(token_id)])


def token_colors(ids: Sequence[int], *, dark: bool = False) -> list[QColor]:
    """Colours for a run of tokens: each token its id's colour (see :func:`token_marks` for neighbours)."""
    palette = _DARK if dark else _LIGHT
    return [palette[palette_index(t)] for t in ids]


def token_marks(ids: Sequence[int]) -> list[bool]:
    """Which tokens get an outline: in every run of neighbours with the same palette colour, every
    other token, so that any two adjacent tokens differ in colour or in outline.

    >>> token_marks([5, 5, 5, 7])
    [False, True, False, False]
    """
    out: list[bool] = []
    prev = -1
    for t in ids:
        k = palette_index(t)
        out.append(k == prev and not out[-1])
        prev = k
    return out


def linear_rgb(color: QColor) -> tuple[float, float, float]:
    """The sRGB colour's channels as linear light (0..1), the start of every formula below.

    >>> linear_rgb(QColor("#ffffff"))
    (1.0, 1.0, 1.0)
    """
    def linear(c: float) -> float:
        # 0.04045 (IEC 61966-2-1) and WCAG's 0.03928 give the same result for every 8-bit value
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    # the 8-bit channels the screen shows (redF() keeps QColor's 16 bits, which darker()/lighter()
    # fill with in-between values)
    return linear(color.red() / 255), linear(color.green() / 255), linear(color.blue() / 255)


def relative_luminance(color: QColor) -> float:
    """WCAG relative luminance: 0 for black, 1 for white."""
    r, g, b = linear_rgb(color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21; body text wants >= 4.5).

    >>> round(contrast_ratio(QColor("#000000"), QColor("#ffffff")))
    21
    """
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def readable_on(color: QColor, background: QColor, ratio: float = 4.5) -> QColor:
    """``color`` darkened (on a light background) or lightened (on a dark one) until text in it
    reaches ``ratio``: an encoder's orange or teal name stays its colour but can be read."""
    dark_bg = background.lightness() < 128
    out = QColor(color)
    for _ in range(12):
        if contrast_ratio(out, background) >= ratio:
            break
        out = out.lighter(115) if dark_bg else out.darker(115)
    return out


def _lab(color: QColor) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = linear_rgb(color)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(c1: QColor, c2: QColor) -> float:
    """Perceptual distance CIEDE2000 between two colours (about 2: just noticeable; 10+: clearly
    different at a glance).

    >>> round(delta_e(QColor("#000000"), QColor("#ffffff")))
    100
    """
    (l1, a1, b1), (l2, a2, b2) = _lab(c1), _lab(c2)
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cb ** 7 / (cb ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else ((h2p - h1p + 180) % 360) - 180
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lb, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hb = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hb = (h1p + h2p) / 2
    else:
        hb = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hb - 30)) + 0.24 * math.cos(math.radians(2 * hb))
         + 0.32 * math.cos(math.radians(3 * hb + 6)) - 0.20 * math.cos(math.radians(4 * hb - 63)))
    dtheta = 30 * math.exp(-(((hb - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp ** 7 / (cbp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lb - 50) ** 2 / math.sqrt(20 + (lb - 50) ** 2)
    sc = 1 + 0.045 * cbp
    sh = 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def text_color_on(background: QColor) -> QColor:
    """Black or white, whichever reads better on ``background`` (by perceived lightness L*, so a
    saturated yellow gets black text and a deep blue white)."""
    return QColor("#111111") if _lab(background)[0] > 58 else QColor("#f5f5f5")
