"""Light and dark themes (Fusion palettes), following the system colour scheme by default.

Custom-painted views ask :func:`is_dark` when they paint, so they follow a theme switch at once.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

_current = {"dark": False}


def system_prefers_dark() -> bool:
    app = QGuiApplication.instance()
    if app is None:
        return False
    return app.styleHints().colorScheme() == Qt.ColorScheme.Dark


def _palette(dark: bool) -> QPalette:
    p = QPalette()
    if dark:
        window, base, alt, text, button = "#1f2126", "#16181c", "#24272d", "#e8e8e8", "#2b2e35"
        highlight, link, disabled = "#3d7bd9", "#7fb2ff", "#7a7f88"
    else:
        window, base, alt, text, button = "#f4f5f7", "#ffffff", "#f0f1f4", "#1b1d21", "#e9ebef"
        highlight, link, disabled = "#2f6fd1", "#1a5fc9", "#8d929a"
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: alt,
        QPalette.ColorRole.ToolTipBase: base,
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: disabled,
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: button,
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: "#ff5555",
        QPalette.ColorRole.Highlight: highlight,
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: link,
    }
    for role, color in roles.items():
        p.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled))
    return p


def apply_theme(theme: str = "system", app: QApplication | None = None) -> bool:
    """Apply ``"light"``, ``"dark"`` or ``"system"``; returns whether the result is dark."""
    app = app or QApplication.instance()
    dark = system_prefers_dark() if theme == "system" else theme == "dark"
    _current["dark"] = dark
    if app is not None:
        if app.style().name().lower() != "fusion":  # setting it again re-polishes every widget alive
            app.setStyle("Fusion")
        app.setPalette(_palette(dark))
        configure_plots()
    return dark


def configure_plots() -> None:
    """pyqtgraph's default colours for the applied theme, if pyqtgraph is loaded.

    Importing pyqtgraph only to set them cost every start ~0.5 s CPU, a quarter of opening the window
    on Inspect, which plots nothing. The window calls this again when a panel's module has loaded it,
    before the panel draws its first plot."""
    pg = sys.modules.get("pyqtgraph")
    if pg is not None:
        palette = _palette(_current["dark"])
        pg.setConfigOptions(
            background=palette.color(QPalette.ColorRole.Base),
            foreground=palette.color(QPalette.ColorRole.Text),
            antialias=True,
        )


def is_dark() -> bool:
    """Whether the applied theme is dark (views pass it to token_colors)."""
    return _current["dark"]
