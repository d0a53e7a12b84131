"""The Inspector starts with the encoder and text it showed when tokviz closed."""

from __future__ import annotations

from tests.support.compare_panel import Toy
from tests.support.inspect_panel import wait_shown
from tokviz.core.encoders.registry import Registry
from tokviz.ui.inspect.panel import DEMO_TEXT, InspectPanel
from tokviz.ui.session import Session
from tokviz.ui.settings import MAX_INSPECT_TEXT, Settings


def _panel(qtbot, path) -> InspectPanel:
    registry = Registry()
    for name in ("cl100k_base", "mine"):
        registry.add(Toy(name, fail_on_digits=False))
    panel = InspectPanel(Session(registry=registry, settings=Settings.at(path)))
    qtbot.addWidget(panel)
    return panel


def test_encoder_and_text_are_restored_at_start(qtbot, tmp_path):
    path = tmp_path / "tokviz.ini"
    first = _panel(qtbot, path)
    assert first.text() == DEMO_TEXT and first.current_encoder() == "cl100k_base"
    first.set_encoder("mine")
    first.set_text("안녕\r\nhi\u00a0there")  # kept exactly: CR LF and NBSP
    first.shutdown()  # as the window closes
    first.session.settings.sync()

    second = _panel(qtbot, path)
    assert second.text() == "안녕\r\nhi\u00a0there"
    assert second.current_encoder() == "mine" and second.encoder_combo.currentText().startswith("mine")
    second.set_text("x" * (MAX_INSPECT_TEXT + 1))  # too long to keep: the demo text next time
    second.shutdown()
    second.session.settings.sync()
    assert _panel(qtbot, path).text() == DEMO_TEXT


def test_a_remembered_encoder_that_is_gone_falls_back_to_the_default(qtbot, tmp_path):
    path = tmp_path / "tokviz.ini"
    settings = Settings.at(path)
    settings.inspect_encoder = "a model file that moved"
    settings.sync()
    assert _panel(qtbot, path).current_encoder() == "cl100k_base"


def test_the_restored_encoder_is_the_one_whose_tokens_are_shown(qtbot, tmp_path):
    path = tmp_path / "tokviz.ini"
    settings = Settings.at(path)
    settings.inspect_encoder = "mine"
    settings.inspect_text = "hi there"
    settings.sync()
    panel = _panel(qtbot, path)
    assert panel.encoder_combo.currentText().startswith("mine")
    wait_shown(qtbot, panel, "hi there")
    assert panel.result.encoding.encoder == "mine"  # not the default's tokens under the restored name
