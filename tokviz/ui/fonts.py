"""Fonts that render Hangul and emoji (Noto CJK and Noto Color Emoji as fallbacks)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase

# Tried in order for each character: Latin text, then Hangul/CJK, then colour emoji.
UI_FAMILIES = ["Noto Sans", "DejaVu Sans", "Noto Sans CJK KR", "Noto Color Emoji"]
MONO_FAMILIES = ["DejaVu Sans Mono", "Noto Sans Mono", "Noto Sans Mono CJK KR", "Noto Sans CJK KR", "Noto Color Emoji"]


_scale = {"value": 1.0}


def set_scale(scale: float) -> None:
    """Global font scale (Ctrl +/−, presentation mode): every ui_font()/mono_font() size is multiplied
    by it. Views that paint with these fonts pick it up at their next paint."""
    _scale["value"] = min(max(float(scale), 0.5), 4.0)


def scale() -> float:
    return _scale["value"]


def _installed(families: list[str]) -> list[str]:
    have = set(QFontDatabase.families())
    found = [f for f in families if f in have]
    return found or families


def ui_font(point_size: float | None = None) -> QFont:
    f = QFont()
    f.setFamilies(_installed(UI_FAMILIES))
    if point_size:
        f.setPointSizeF(point_size * _scale["value"])
    return f


def mono_font(point_size: float | None = None) -> QFont:
    """Monospace font for token views, ids and hex bytes, with CJK and emoji fallback."""
    f = QFont()
    f.setFamilies(_installed(MONO_FAMILIES))
    f.setStyleHint(QFont.StyleHint.Monospace)
    f.setPointSizeF((point_size or 10.0) * _scale["value"])
    return f
