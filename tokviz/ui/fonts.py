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


_found: dict[tuple[str, ...], list[str]] = {}


def _installed(families: list[str]) -> list[str]:
    """The ``families`` the font database has (all of them if it has none). Worked out once per list and
    again after the database changes: views ask for fonts as they paint, tens of thousands of times in
    a session, and every answer listed and searched all installed families (~0.08 ms with 215). Without
    an application (no font database to follow) nothing is kept."""
    key = tuple(families)
    found = _found.get(key)
    if found is None:
        have = set(QFontDatabase.families())
        found = [f for f in families if f in have] or list(families)
        if _follow_the_font_database():
            _found[key] = found
    return list(found)


def _follow_the_font_database() -> bool:
    """Forget what was found whenever the application's font database changes; False without one."""
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        return False
    if not getattr(app, "_tokviz_fonts_followed", False):
        app.fontDatabaseChanged.connect(_found.clear)
        app._tokviz_fonts_followed = True
    return True


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
