"""The Panel protocol: what the main window asks of every tab, so it never probes panels for attributes.

A panel lists its menu entries (each either calls a slot or clicks one of the panel's
buttons, whose enabled state the menu entry follows), stops its background work on shutdown, fills
itself for ``tokviz screenshot`` and, in presentation mode, may play by itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from PySide6.QtWidgets import QAbstractButton


@dataclass(frozen=True)
class PanelAction:
    """One entry of a panel's menu. ``text`` is translated; ``key`` names it for tests and scripts."""

    key: str
    text: str
    slot: Callable[[], object] | None = None
    shortcuts: tuple[str, ...] = ()
    button: QAbstractButton | None = None  # clicked instead of calling ``slot``


@runtime_checkable
class Panel(Protocol):
    def menu_actions(self) -> list[PanelAction | None]:
        """The panel's menu entries in order; None is a separator."""

    def shutdown(self) -> None:
        """Stop background work (close the panel's channels; wait for nothing); the window is closing."""

    def prepare_screenshot(self, args) -> None:
        """Fill the panel for ``tokviz screenshot`` (``args`` holds text, encoders, model, ...)."""

    def auto_play(self, pace: float) -> bool:
        """Presentation mode: play at ``pace`` steps per second; False when the panel does not play."""

    def stop_auto_play(self) -> None:
        """Leaving presentation mode: give the user's own settings back."""
