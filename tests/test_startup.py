"""``tokviz`` opening its window: with no display or a broken Qt platform (a real X server:
tests/ui/test_real_window.py).

Each case runs ``python -m tokviz`` in a child process, as a user would; the timeouts only stop a
hang (a regression) from blocking the suite, they measure nothing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tokviz import display_check

ROOT = Path(__file__).resolve().parent.parent
HANG = 180  # seconds: only a hung start gets near this


def tokviz_env(tmp_path: Path, **changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(PYTHONPATH=str(ROOT), XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               HOME=str(tmp_path))
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_tokviz(tmp_path: Path, *args: str, **env: str | None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tokviz", *args], capture_output=True, text=True,
                          env=tokviz_env(tmp_path, **env), cwd=tmp_path, timeout=HANG, stdin=subprocess.DEVNULL)


def test_without_a_display_tokviz_explains_and_exits_instead_of_aborting(tmp_path):
    result = run_tokviz(tmp_path)
    assert result.returncode == display_check.EXIT_NO_DISPLAY, result.stderr  # not -6 (SIGABRT)
    assert "no display" in result.stderr and "DISPLAY" in result.stderr and "WAYLAND_DISPLAY" in result.stderr
    assert "sudo apt install" in result.stderr and "libxcb-icccm4" in result.stderr
    assert "tokviz encode" in result.stderr  # the way to work without a display
    assert "Traceback" not in result.stderr and "Aborted" not in result.stderr
    # what Qt would have printed before aborting does not reach the user
    assert "This application failed to start" not in result.stderr


def test_a_file_argument_without_a_display_gets_the_same_message(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("안녕", encoding="utf-8")
    result = run_tokviz(tmp_path, str(text))
    assert result.returncode == display_check.EXIT_NO_DISPLAY and "no display" in result.stderr


def test_the_command_line_works_without_a_display(tmp_path):
    result = run_tokviz(tmp_path, "encode", "--json", "-e", "cl100k_base", "안녕")
    assert result.returncode == 0, result.stderr
    assert '"tokens"' in result.stdout


def test_a_command_imports_only_its_own_module(tmp_path):
    """Building the parser imported all fourteen command modules (train's, chat's, compare's) before
    running one: ~0.35 s of CPU on every start, ``--version`` included. Encoding with a built-in encoder
    loads neither Qt, jinja2 nor another family's engine, and builds no jamo table (~12 ms)."""
    code = (
        "import sys\n"
        "from tokviz.cli import COMMANDS, main\n"
        "commands = {f'tokviz.commands.{c}' for c in COMMANDS}\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert not commands & set(sys.modules), sorted(commands & set(sys.modules))\n"
        "assert main(['encode', '-e', 'gpt2', 'hi']) == 0\n"
        # nor what encoding with a built-in encoder does not use: the GUI, templates, other families' engines
        "heavy = {'PySide6', 'pyqtgraph', 'jinja2', 'tokenizers', 'sentencepiece', 'gguf'} & set(sys.modules)\n"
        "assert not heavy, sorted(heavy)\n"
        "from tokviz.core import jamo\n"
        "assert jamo._decomposition.cache_info().currsize == 0  # Hangul's table is built on first use only\n"
        "print(sorted(commands & set(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8",
                            env=tokviz_env(tmp_path), cwd=tmp_path, timeout=HANG)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines()[-1] == "['tokviz.commands.encode']"


def test_qt_aborting_in_the_probe_becomes_a_message(tmp_path):
    """Qt aborts (SIGABRT) on a platform plugin it cannot find; the probe child takes the abort."""
    result = run_tokviz(tmp_path, QT_QPA_PLATFORM="no-such-platform", DISPLAY=":0")
    assert result.returncode == display_check.EXIT_NO_DISPLAY, result.stderr
    assert "no platform plugin named 'no-such-platform'" in result.stderr
    assert "Unset QT_QPA_PLATFORM" in result.stderr


def test_a_display_nobody_answers_on_is_named(tmp_path):
    # a unix socket path that cannot exist: Qt fails to connect (or, without the xcb libraries, to load)
    result = run_tokviz(tmp_path, DISPLAY=":9731")
    assert result.returncode == display_check.EXIT_NO_DISPLAY, result.stderr
    assert "DISPLAY=':9731'" in result.stderr or "libraries are missing" in result.stderr


def test_explicit_offscreen_opens_an_invisible_window_and_says_so(tmp_path):
    result = run_tokviz(tmp_path, "gui", "--quit-after-show", QT_QPA_PLATFORM="offscreen")
    assert result.returncode == 0, result.stderr
    assert "nobody can see it" in result.stderr and "tokviz screenshot" in result.stderr
    assert "tokviz: shown" in result.stdout and "on offscreen" in result.stdout


def test_the_frozen_apps_probe_entry_reports_the_platform(tmp_path):
    result = run_tokviz(tmp_path, QT_QPA_PLATFORM="offscreen", **{display_check.PROBE_ENV: "1"})
    assert result.returncode == 0 and result.stdout.split() == [display_check.PROBE_OK, "offscreen"]


# What Qt prints (QT_DEBUG_PLUGINS=1) on a stock Debian 12 desktop with PySide6 6.11, before it aborts.
DEBIAN_DESKTOP_STDERR = """\
qt.core.plugin.factoryloader: looking at "libqxcb.so"
qt.core.library: "/v/lib/python3.11/site-packages/PySide6/Qt/plugins/platforms/libqxcb.so" cannot load: \
Cannot load library /v/lib/python3.11/site-packages/PySide6/Qt/plugins/platforms/libqxcb.so: \
libxcb-icccm.so.4: cannot open shared object file: No such file or directory
qt.qpa.plugin: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin.
qt.qpa.plugin: Could not load the Qt platform plugin "xcb" in "" even though it was found.
This application failed to start because no Qt platform plugin could be initialized.
"""


def test_a_missing_xcb_library_is_named_with_its_debian_package():
    problem = display_check.diagnose(-6, DEBIAN_DESKTOP_STDERR, {"DISPLAY": ":0"})
    message = problem.message()
    assert "xcb platform plugin cannot load" in message
    assert "libxcb-icccm.so.4" in message and "sudo apt install libxcb-icccm4" in message
    assert display_check.parse_ldd_missing(
        "\tlibxcb-icccm.so.4 => not found\n\tlibxcb-keysyms.so.1 => not found\n\tlibxcb-icccm.so.4 => not found\n"
    ) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]


def test_every_library_the_xcb_plugin_links_has_a_known_debian_package():
    """ldd on PySide6's own plugin: a library added by a new PySide6 must be added to the apt line."""
    plugin = display_check.plugin_file("xcb")
    ldd = shutil.which("ldd")
    if plugin is None or ldd is None:
        pytest.skip("PySide6's xcb plugin or ldd is not here (not Linux?)")
    out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=30).stdout
    system_xcb = {line.split()[0] for line in out.splitlines()
                  if " => " in line and "/PySide6/" not in line and "xcb" in line.split()[0]}
    assert system_xcb, out
    unknown = sorted(lib for lib in system_xcb if lib not in display_check.DEBIAN_PACKAGES)
    assert unknown == []
    assert {display_check.DEBIAN_PACKAGES[lib] for lib in system_xcb} <= set(display_check.APT_PACKAGES) | {
        "libxcb1", "libx11-xcb1", "libxcb-render0", "libxcb-shm0", "libxcb-sync1", "libxcb-util1"}
