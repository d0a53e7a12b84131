"""A new step on screen repaints the Train panel's changing labels without re-laying out the panel: a
label's new text used to re-lay out the whole panel, its splitter and the page around it every frame."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QApplication

from tests.support.train_panel import train_to_the_end
from tokviz.ui.main_window import MainWindow


class LayoutRequests(QObject):
    """The widgets that receive a layout request (a re-layout of everything under them) while installed."""

    def __init__(self) -> None:
        super().__init__()
        self.receivers: list = []

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.receivers.append(watched)
        return False


@pytest.fixture
def panel(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    yield train_to_the_end(win, qtbot, merges=60)
    win.close()


def _fits(label) -> bool:
    return label.height() >= label.heightForWidth(label.width())


def test_showing_the_next_step_relays_out_no_view_but_the_labels(panel, qtbot):
    views = (panel.sample_view, panel.vocab_view, panel.scrubber, panel.plots)
    requests = LayoutRequests()
    app = QApplication.instance()
    for step in range(len(panel.replay) - 1, len(panel.replay) - 9, -1):
        QCoreApplication.processEvents()  # the previous step's requests are delivered before counting
        app.installEventFilter(requests)
        try:
            panel.set_step(step)
            qtbot.waitUntil(lambda s=step: panel.shown_steps()["label"] == s, timeout=3000)
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        finally:
            app.removeEventFilter(requests)
        spread = [w for w in requests.receivers if any(w is v or w.isAncestorOf(v) for v in views)]
        assert spread == [], (step, [type(w).__name__ for w in spread])
        # nothing cut off: each changing label still has the room its text takes at its width
        for label in (panel.merge_banner, panel.why_label, panel.tree_title):
            qtbot.waitUntil(lambda label=label: _fits(label), timeout=2000)
        assert panel.step_label.width() >= panel.step_label.sizeHint().width()
