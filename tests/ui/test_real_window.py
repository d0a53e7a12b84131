"""The real window on a real X server (Xvfb), with Qt choosing its platform as on a desktop.

Every other GUI test draws offscreen, which never loads Qt's xcb plugin nor the system libraries it
needs (what failed on a stock Debian 12 desktop). Here ``python -m tokviz`` runs in a child process
with ``QT_QPA_PLATFORM`` unset and ``DISPLAY`` naming an Xvfb server; .ci/run installs xvfb and
x11-utils, so in CI (TOKVIZ_STRICT_SKIPS=1) these tests cannot be skipped. The timeouts only stop a
hang (a regression) from blocking the suite; they measure nothing.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HANG = 180  # seconds: only a hung start gets near this
SCREEN = (1600, 1000)


def tokviz_env(tmp_path: Path, display: str) -> dict[str, str]:
    """The user's environment on an X desktop: DISPLAY set, no QT_QPA_PLATFORM, settings of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(PYTHONPATH=str(ROOT), DISPLAY=display, XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), HOME=str(tmp_path))
    return env


@pytest.fixture
def xvfb():
    """An Xvfb server on a free display number (Xvfb picks it: -displayfd); yields its DISPLAY."""
    binary = shutil.which("Xvfb")
    if binary is None:
        pytest.skip("Xvfb is not installed (apt install xvfb; .ci/run installs it)")
    read, write = os.pipe()
    screen = f"{SCREEN[0]}x{SCREEN[1]}x24"
    server = subprocess.Popen([binary, "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        number = pipe.readline().strip()  # Xvfb writes the number once it accepts connections
    if not number:
        server.kill()
        pytest.fail(f"Xvfb did not start: {server.stderr.read().decode(errors='replace')}")
    yield f":{number}"
    server.terminate()
    server.wait(timeout=30)


def test_the_window_opens_on_a_real_x_server(tmp_path, xvfb):
    """``gui --quit-after-show``: the window is exposed on xcb, fitted to the screen, then closed as a user would."""
    result = subprocess.run([sys.executable, "-m", "tokviz", "gui", "--quit-after-show"], capture_output=True,
                            text=True, env=tokviz_env(tmp_path, xvfb), cwd=tmp_path, timeout=HANG,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "on xcb" in result.stdout, result.stdout + result.stderr
    width, height = (int(v) for v in result.stdout.split("shown ")[1].split()[0].split("x"))
    assert width <= SCREEN[0] and height <= SCREEN[1]  # fitted to the screen
    assert "cannot" not in result.stderr
    # closing saved the settings as the close button does
    assert (tmp_path / "config" / "tokviz" / "tokviz.ini").is_file()


# `xwininfo -root -tree` line of a top-level window: id "name": ("instance" "class")  WxH+X+Y ...
_TREE_LINE = re.compile(r'^\s*(0x[0-9a-f]+) "tokviz": \("[^"]*" "tokviz"\)\s+(\d+)x(\d+)\+', re.MULTILINE)


def mapped_tokviz_window(xwininfo: str, display: str) -> tuple[int, int] | None:
    """The size of the viewable top-level window of class ``tokviz`` the X server holds, if there is one."""
    env = dict(os.environ, DISPLAY=display)
    tree = subprocess.run([xwininfo, "-root", "-tree"], capture_output=True, text=True, env=env, timeout=30).stdout
    for window, width, height in _TREE_LINE.findall(tree):
        if int(width) <= 1 or int(height) <= 1:  # Qt's 1x1 helper windows share the class
            continue
        info = subprocess.run([xwininfo, "-id", window], capture_output=True, text=True, env=env, timeout=30).stdout
        if "Map State: IsViewable" in info:
            return int(width), int(height)
    return None


def test_the_x_server_shows_the_window_until_the_user_closes_it(tmp_path, xvfb):
    """Seen from the X server, not from tokviz's own report: ``tokviz FILE`` maps a window of class
    tokviz and keeps it up; SIGTERM (as the session's logout sends) closes it cleanly with status 0."""
    xwininfo = shutil.which("xwininfo")
    if xwininfo is None:
        pytest.skip("xwininfo is not installed (apt install x11-utils; .ci/run installs it)")
    text = tmp_path / "notes.txt"
    text.write_text("안녕하세요 👋 tokviz\n", encoding="utf-8")
    app = subprocess.Popen([sys.executable, "-m", "tokviz", str(text)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=tokviz_env(tmp_path, xvfb), cwd=tmp_path,
                           stdin=subprocess.DEVNULL)
    try:
        size = None
        deadline = time.monotonic() + HANG  # a hang guard only: the loop ends as soon as the window is there
        while size is None and app.poll() is None and time.monotonic() < deadline:
            size = mapped_tokviz_window(xwininfo, xvfb)
            if size is None:
                time.sleep(0.2)
        if size is None:
            app.kill()
            out, err = app.communicate(timeout=30)
            pytest.fail(f"no tokviz window was mapped (exit status {app.returncode}):\n{out}\n{err}")
        assert app.poll() is None, "tokviz exited although nobody closed its window"
        assert size[0] <= SCREEN[0] and size[1] <= SCREEN[1]
        app.send_signal(signal.SIGTERM)
        out, err = app.communicate(timeout=HANG)
    finally:
        if app.poll() is None:
            app.kill()
            app.communicate(timeout=30)
    assert app.returncode == 0, out + err  # not -15: the window closed as the close button closes it
    assert "Traceback" not in err and "cannot" not in err, err
    assert mapped_tokviz_window(xwininfo, xvfb) is None
    assert (tmp_path / "config" / "tokviz" / "tokviz.ini").is_file()  # settings saved on the way out
