"""The panel models' observer list (no Qt)."""

from __future__ import annotations

import gc
import weakref

from tokviz.ui.common.emitter import Emitter


class View:
    def __init__(self) -> None:
        self.heard: list = []

    def on_change(self, name, value) -> None:
        self.heard.append((name, value))


def test_a_model_does_not_keep_its_observing_view_alive():
    events = Emitter()
    view = View()
    events.connect(view.on_change)
    events.emit("text", "a")
    assert view.heard == [("text", "a")]
    alive = weakref.ref(view)
    del view
    gc.collect()
    assert alive() is None  # the model held it weakly
    events.emit("text", "b")  # nobody is called, nothing fails


def test_functions_are_kept_and_can_be_disconnected():
    events = Emitter()
    heard = []
    events.connect(lambda name, value: heard.append(name))
    view = View()
    events.connect(view.on_change)
    events.disconnect(view.on_change)
    events.emit("encoders")
    assert heard == ["encoders"] and view.heard == []
