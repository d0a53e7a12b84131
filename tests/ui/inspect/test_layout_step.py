"""Encoding and layout are separate steps: a zoom or a new width lays the last Encoding out again
(in the worker, for a big view) without calling the encoder."""

from __future__ import annotations

import pytest

from tests.support.inspect_panel import wait_shown
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoders.registry import Registry
from tokviz.ui import fonts
from tokviz.ui.inspect import panel as inspect_panel
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session

TEXT = "안녕하세요 👋 Tokenizers split text into tokens. " * 40


class CountingEncoder:
    """cl100k_base, counting its encode calls."""

    def __init__(self, inner):
        self.inner = inner
        self.name = "counting"
        self.calls = 0

    def __getattr__(self, attr):
        return getattr(self.inner, attr)

    def encode(self, text, *, allow_special=False):
        self.calls += 1
        return self.inner.encode(text, allow_special=allow_special)


@pytest.fixture
def counted(qtbot, monkeypatch):
    # every view counts as big: font and width changes go to the worker, as for a 5 MB paste
    monkeypatch.setattr(inspect_panel, "GUI_MEASURE_LIMIT", 0)
    encoder = CountingEncoder(default_registry().get("cl100k_base"))
    session = Session(Registry())
    session.registry.add(encoder)
    p = InspectPanel(session)
    p.token_view.inline_layout_limit = 0
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    p.set_text(TEXT)
    p.encode_now()
    wait_shown(qtbot, p, TEXT)
    yield p, session, encoder
    p.shutdown()


def test_a_zoom_lays_out_again_without_encoding(qtbot, counted):
    p, session, encoder = counted
    calls = encoder.calls
    before = p.token_view.cell_widths()
    scale = fonts.scale()
    try:
        fonts.set_scale(scale * 1.5)
        session.fontScaleChanged.emit(fonts.scale())
        qtbot.waitUntil(lambda: p.is_current() and p.token_view.cell_widths() != before, timeout=15_000)
        # every cell measured in the bigger font
        assert all(b > a for a, b in zip(before, p.token_view.cell_widths(), strict=True))
        assert p.result.request.fonts == p.token_view.fonts()
    finally:
        fonts.set_scale(scale)
    assert encoder.calls == calls


def test_a_new_width_lays_out_again_without_encoding(qtbot, counted):
    p, _session, encoder = counted
    calls = encoder.calls
    lines = p.token_view.line_count()
    p.resize(500, 700)
    qtbot.waitUntil(lambda: p.is_current() and p.result.layout is not None
                    and p.result.layout.width == p.token_view.viewport().width(), timeout=15_000)
    assert p.token_view.line_count() > lines  # narrower: the same cells on more lines
    assert encoder.calls == calls
