"""A FIFO, a folder or a device opened as text in the window: a message, never a frozen window.

Opening a FIFO for reading waits for a writer. A writer thread arrives after a generous guard, so a
window that did wait is released and the test fails on what it then shows instead of hanging the run.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

GUARD_SECONDS = 30.0


@pytest.fixture
def window(qtbot):
    from tokviz.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()


def _release_after_guard(fifo: Path) -> threading.Timer:
    def write():
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            return  # nobody is reading: nothing waits
        os.write(fd, b"a FIFO was read\n")
        os.close(fd)

    timer = threading.Timer(GUARD_SECONDS, write)
    timer.daemon = True
    timer.start()
    return timer


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_opened_as_text_is_a_message(window, tmp_path):
    fifo = tmp_path / "text.fifo"
    os.mkfifo(fifo)
    panel = window.show_view("inspect")
    before = panel.text() if hasattr(panel, "text") else None
    timer = _release_after_guard(fifo)
    try:
        assert window.open_text_file(str(fifo)) is False
    finally:
        timer.cancel()
    assert panel.message_bar.isVisibleTo(panel) and "regular file" in panel.message_bar.label.text()
    if before is not None:
        assert panel.text() == before


@pytest.mark.parametrize("special", ["folder", "device"])
def test_a_folder_or_a_device_opened_as_text_is_a_message(window, tmp_path, special):
    path = tmp_path if special == "folder" else Path(os.devnull)
    panel = window.show_view("inspect")
    assert window.open_text_file(str(path)) is False
    assert panel.message_bar.isVisibleTo(panel) and str(path) in panel.message_bar.label.text()
