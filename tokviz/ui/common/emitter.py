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

import weakref
from collections.abc import Callable

Observer = Callable[[str, object], None]


class Emitter:
    """Observers called in the order they connected, each with ``(name, value)``.

    A bound method is held weakly (as napari's emitter holds it): a model must not keep the widget
    that observes it alive, or a panel deleted by Qt would leave a Python wrapper behind whose C++
    object is gone. Plain functions and lambdas are held as given.
    """

    def __init__(self) -> None:
        self._observers: list[Callable[[], Observer | None]] = []

    def connect(self, observer: Observer) -> None:
        if hasattr(observer, "__self__") and hasattr(observer, "__func__"):
            self._observers.append(weakref.WeakMethod(observer))
        else:
            self._observers.append(lambda: observer)

    def disconnect(self, observer: Observer) -> None:
        self._observers = [ref for ref in self._observers if ref() not in (observer, None)]

    def emit(self, name: str, value: object = None) -> None:
        for ref in list(self._observers):  # an observer may disconnect itself
            observer = ref()
            if observer is not None:
                observer(name, value)
