"""A message in Compare or the Inspector appears without moving any control: the next click lands on
the control the user aimed at (a save banner pushed Compare's layout down ~25 px)."""

from __future__ import annotations

from PySide6.QtCore import QPoint

from tests.support.compare_panel import Toy
from tokviz.core.encoders.registry import Registry
from tokviz.ui.compare.panel import ComparePanel
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session
from tokviz.ui.settings import Settings


def _places(panel, widgets) -> list[tuple[QPoint, int, int]]:
    return [(w.mapTo(panel, QPoint(0, 0)), w.width(), w.height()) for w in widgets]


def _settled(qtbot, panel, widgets) -> list[tuple[QPoint, int, int]]:
    """Where ``widgets`` are once the panel's layout has stopped moving (a first show fits splitters)."""

    def still() -> bool:
        before = _places(panel, widgets)
        qtbot.wait(10)
        return _places(panel, widgets) == before

    qtbot.waitUntil(still, timeout=5000)
    return _places(panel, widgets)


def _session() -> Session:
    registry = Registry()
    registry.add(Toy("cl100k_base", fail_on_digits=False))
    return Session(registry=registry, settings=Settings.ephemeral())


def test_compare_message_moves_no_control(qtbot):
    panel = ComparePanel(_session(), encoders=["cl100k_base"])
    qtbot.addWidget(panel)
    panel.resize(1280, 760)
    panel.show()
    qtbot.waitExposed(panel)
    controls = [panel.add_combo, panel.encoder_list, panel.tabs, panel.scroll, panel.editor, panel.status]
    assert panel.wait_until_idle()  # the rows and status of the text are in: they may resize the layout once
    before = _settled(qtbot, panel, controls)
    panel.show_message("Saved /home/someone/compare.png", "info")
    qtbot.waitUntil(lambda: panel.message_bar.isVisible())
    qtbot.wait(1)  # the layout settles
    assert _places(panel, controls) == before
    bar = panel.message_bar.geometry()
    assert bar.height() >= 20 and panel.rect().contains(bar)  # it shows, inside the panel
    assert panel.message_bar.text() == "Saved /home/someone/compare.png"
    panel.resize(1100, 700)  # it follows the panel's size
    qtbot.waitUntil(lambda: panel.message_bar.width() < bar.width())
    panel.shutdown()


def test_inspect_message_moves_no_control(qtbot):
    panel = InspectPanel(_session())
    qtbot.addWidget(panel)
    panel.resize(1280, 760)
    panel.show()
    qtbot.waitExposed(panel)
    controls = [panel.encoder_combo, panel.input_tabs, panel.token_view, panel.counts, panel.layers_scroll]
    assert panel.wait_for_result()
    before = _settled(qtbot, panel, controls)
    panel.message_bar.show_message("Cannot write /x.png: Permission denied", "error")
    qtbot.waitUntil(lambda: panel.message_bar.isVisible())
    qtbot.wait(1)
    assert _places(panel, controls) == before
    assert panel.rect().contains(panel.message_bar.geometry())
    panel.shutdown()
