"""Observers of a Qt-free panel model: a list of callables told ``(name, value)`` when something changes.

napari's EventEmitter in a few lines. Panel models (Inspect, Compare) own one; widgets connect to it
and redraw what the event names, so the model never knows a widget.

>>> heard = []
>>> events = Emitter()
>>> events.connect(lambda name, value: heard.append((name, value)))
>>> events.emit("encoder", "gpt2")
>>> heard
[('encoder', 'gpt2')]
"""

from __future__ import annotations

from collections.abc import Callable

Observer = Callable[[str, object], None]


class Emitter:
    """Observers called in the order they connected, each with ``(name, value)``."""

    def __init__(self) -> None:
        self._observers: list[Observer] = []

    def connect(self, observer: Observer) -> None:
        self._observers.append(observer)

    def disconnect(self, observer: Observer) -> None:
        if observer in self._observers:
            self._observers.remove(observer)

    def emit(self, name: str, value: object = None) -> None:
        for observer in list(self._observers):  # an observer may disconnect itself
            observer(name, value)
