"""Driving the Inspector in tests: wait for a result, show a text, click a token."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt

from tokviz.core.encoders.registry import Registry
from tokviz.ui.session import Session


def wait_shown(qtbot, panel, text: str | None = None, timeout: int = 15_000) -> None:
    """Wait until the views show the latest request (and, if given, this text)."""
    def ready():
        if not panel.is_current():
            return False
        if text is not None:
            assert panel.result.encoding is not None, panel.result.error
            return panel.result.encoding.text == text
        return True

    qtbot.waitUntil(ready, timeout=timeout)


def show(qtbot, panel, text: str, encoder: str = "cl100k_base") -> None:
    """Show ``text`` through ``encoder`` and wait until the views have it."""
    if panel.current_encoder() != encoder:
        panel.set_encoder(encoder)
    panel.set_text(text)
    panel.encode_now()
    wait_shown(qtbot, panel, text)


def click_token(qtbot, panel, index: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    rect = panel.token_view.token_rect(index)
    assert rect is not None, f"token {index} is not drawn"
    qtbot.mouseClick(panel.token_view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center().toPoint())


def own_session(registry) -> Session:
    """A session with its own registry listing the available encoders of ``registry``: models offered
    to it come and go without touching a module-wide registry. Each is loaded on first use, through
    ``registry`` (loading every one up front took ~5 s for a test that uses two)."""
    session = Session(Registry())
    entries = registry.entries()
    for status in registry.statuses():
        if status.available:
            lazy = dataclasses.replace(entries[status.name], load=lambda name=status.name: registry.get(name))
            session.registry.register(lazy)
    return session
