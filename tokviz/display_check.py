"""Before the window opens: can Qt show a window here? If not, say why in one message.

Qt aborts the whole process (SIGABRT) when its platform plugin cannot start: no display, or the xcb
plugin missing a system library (PySide6 6.5+ needs several libxcb-* packages that a stock Debian
desktop lacks, and Qt's own message then blames libxcb-cursor0 whatever is missing). So the GUI
launch first starts Qt in a child process; a crash there becomes a message naming what is missing
and the Debian packages to install, and tokviz exits with :data:`EXIT_NO_DISPLAY`.

This module never imports Qt: it runs before Qt is loaded, and Qt itself may not load.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

EXIT_NO_DISPLAY = 3
PROBE_ENV = "TOKVIZ_PLATFORM_PROBE"  # set in the child: the frozen app runs the probe instead of tokviz
PROBE_OK = "tokviz-platform-probe-ok"
PROBE_TIMEOUT = 30.0  # seconds; X over a slow SSH link answers in well under that

# Platforms that draw without a display; an explicit QT_QPA_PLATFORM naming one is respected.
HEADLESS_PLATFORMS = ("offscreen", "minimal", "minimalegl", "vnc", "linuxfb", "eglfs", "vkkhrdisplay")
INVISIBLE_PLATFORMS = ("offscreen", "minimal")

# Library (soname) -> Debian/Ubuntu package, for what PySide6's xcb/wayland plugins and QtGui load
# (found with ldd on PySide6 6.11's libqxcb.so, libQt6XcbQpa.so.6 and libQt6Gui.so.6).
DEBIAN_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
}

# Everything the window needs on a Debian 12 / Ubuntu desktop: fonts for Hangul and emoji, and the
# libraries of PySide6's xcb plugin that desktops do not always have. README.md gives the same line.
APT_PACKAGES = (
    "fonts-noto-cjk", "fonts-noto-color-emoji",
    "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-image0", "libxcb-render-util0",
    "libxcb-randr0", "libxcb-shape0", "libxcb-xfixes0", "libxcb-xkb1", "libxkbcommon-x11-0",
    "libegl1", "libgl1", "libfontconfig1", "libdbus-1-3",
)

_PROBE_CODE = f"""
import sys
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(sys.argv[:1])
print({PROBE_OK!r}, app.platformName(), flush=True)
"""

_CLI_HINT = ("The command line works without a display: tokviz encoders, tokviz encode, tokviz compare, "
             "tokviz train (tokviz --help); tokviz screenshot renders a panel to a PNG.")


@dataclass
class DisplayProblem:
    """Why the window cannot open, as the lines of one message."""

    what: str
    missing_libraries: list[str] = field(default_factory=list)
    advice: list[str] = field(default_factory=list)

    def message(self) -> str:
        lines = [f"tokviz: cannot open the window: {self.what}"]
        if self.missing_libraries:
            lines.append("  Missing libraries: " + ", ".join(self.missing_libraries) + ".")
            packages = sorted({DEBIAN_PACKAGES[lib] for lib in self.missing_libraries if lib in DEBIAN_PACKAGES})
            if packages:
                lines.append("  On Debian/Ubuntu: sudo apt install " + " ".join(packages))
        lines += [f"  {line}" for line in self.advice]
        lines.append("  Everything the window needs on Debian/Ubuntu (fonts and Qt's X11 libraries):")
        lines.append("    sudo apt install " + " ".join(APT_PACKAGES))
        lines.append(f"  {_CLI_HINT}")
        return "\n".join(lines)


def requested_platforms(env: dict[str, str]) -> list[str]:
    """The platform plugins ``QT_QPA_PLATFORM`` asks for, in order (Qt accepts ``a;b`` and ``name:options``).

    >>> requested_platforms({"QT_QPA_PLATFORM": "wayland;xcb"})
    ['wayland', 'xcb']
    >>> requested_platforms({"QT_QPA_PLATFORM": "offscreen:fontengine=freetype"})
    ['offscreen']
    >>> requested_platforms({})
    []
    """
    value = env.get("QT_QPA_PLATFORM", "")
    return [part.split(":", 1)[0].strip() for part in value.split(";") if part.split(":", 1)[0].strip()]


def invisible_platform(env: dict[str, str] | None = None) -> str | None:
    """The platform's name when ``QT_QPA_PLATFORM`` makes the window invisible (offscreen), else None."""
    names = requested_platforms(os.environ if env is None else env)
    return names[0] if names and names[0] in INVISIBLE_PLATFORMS else None


def check_platform(env: dict[str, str] | None = None, timeout: float = PROBE_TIMEOUT) -> DisplayProblem | None:
    """None when Qt can start its platform plugin here; else what stops it.

    Starts a QGuiApplication in a child process (``timeout`` seconds at most), so that Qt aborting
    there cannot take tokviz down; an explicit ``QT_QPA_PLATFORM`` is honoured as Qt would.
    """
    env = dict(os.environ if env is None else env)
    names = requested_platforms(env)
    needs_display = not names or any(name not in HEADLESS_PLATFORMS for name in names)
    if needs_display and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return DisplayProblem(
            "no display: neither DISPLAY (X11) nor WAYLAND_DISPLAY (Wayland) is set, as in an SSH session or "
            "a text console.",
            missing_libraries=missing_libraries("xcb"),
            advice=["Start tokviz from a desktop session, or log in with X forwarding (ssh -X host).",
                    "QT_QPA_PLATFORM=offscreen draws into memory only: it is for screenshots and tests, "
                    "not for using tokviz."],
        )
    return _probe(env, timeout)


def _probe_command() -> list[str]:
    if getattr(sys, "frozen", False):  # the PyInstaller app: no -c; tokviz.cli runs the probe on PROBE_ENV
        return [sys.executable]
    return [sys.executable, "-c", _PROBE_CODE]


def _probe(env: dict[str, str], timeout: float) -> DisplayProblem | None:
    child_env = dict(env, QT_DEBUG_PLUGINS="1", **{PROBE_ENV: "1"})
    try:
        result = subprocess.run(_probe_command(), env=child_env, capture_output=True, text=True,
                                errors="replace", timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        where = env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or "the display"
        return DisplayProblem(f"Qt did not connect to {where} within {timeout:.0f} seconds.",
                              advice=["Check that the display answers (over SSH: is X forwarding working?)."])
    except OSError as err:
        return DisplayProblem(f"could not start Qt to check the display ({err}).")
    if result.returncode == 0 and PROBE_OK in result.stdout:
        return None
    return diagnose(result.returncode, result.stderr, env)


def diagnose(returncode: int, stderr: str, env: dict[str, str]) -> DisplayProblem:
    """What Qt's output (with QT_DEBUG_PLUGINS=1) says went wrong when it could not start."""
    names = requested_platforms(env)
    display = env.get("DISPLAY", "")
    # QtGui itself did not load (a bare server: no libEGL/libGL/fontconfig)
    missing = re.search(r"ImportError: (\S+?\.so[.\d]*): cannot open shared object file", stderr)
    if missing:
        return DisplayProblem("Qt cannot load: a system library is missing.", missing_libraries=[missing.group(1)])
    connect = re.search(r"could not connect to display ?(\S*)", stderr)
    if connect:
        return DisplayProblem(
            f"no X server answers on DISPLAY={connect.group(1) or display!r}.",
            advice=["Is the desktop session still running? Over SSH, log in again with ssh -X."],
        )
    # "Cannot load library .../libqxcb.so: libxcb-icccm.so.4: cannot open shared object file"
    failed = re.findall(r"Cannot load library (\S+/lib(q\w+)\.so): (\S+?): cannot open shared object", stderr)
    if failed:
        plugin_path, plugin, first_missing = failed[0]
        platform = plugin[1:]
        libraries = _ldd_missing(Path(plugin_path)) or [first_missing]
        return DisplayProblem(
            f"Qt's {platform} platform plugin cannot load because system libraries are missing "
            f"(whatever Qt says about libxcb-cursor0).",
            missing_libraries=libraries,
        )
    unknown = re.search(r'Could not find the Qt platform plugin "([^"]+)"', stderr)
    if unknown:
        asked = env.get("QT_QPA_PLATFORM", "")
        return DisplayProblem(f"Qt has no platform plugin named {unknown.group(1)!r} (QT_QPA_PLATFORM={asked!r}).",
                              advice=["Unset QT_QPA_PLATFORM to let Qt choose X11 or Wayland."])
    if returncode < 0:
        how = f"signal {signal.Signals(-returncode).name}" if -returncode in signal.valid_signals() else f"{returncode}"
        what = f"Qt stopped with {how} while starting its platform plugin ({', '.join(names) or 'default'})."
    else:
        what = f"Qt could not start its platform plugin ({', '.join(names) or 'default'}; exit status {returncode})."
    last = [line for line in stderr.splitlines() if line.strip() and not line.startswith("qt.core.")][-3:]
    return DisplayProblem(what, missing_libraries=missing_libraries("xcb") if "xcb" in (names or ["xcb"]) else [],
                          advice=[f"Qt said: {line.strip()}" for line in last])


def plugin_file(platform: str) -> Path | None:
    """PySide6's platform plugin ``libq<platform>.so``, found without importing Qt."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder, "Qt", "plugins", "platforms", f"libq{platform}.so")
        if path.is_file():
            return path
    return None


def missing_libraries(platform: str) -> list[str]:
    """System libraries ``platform``'s plugin (and the Qt libraries it links) need but cannot find (ldd)."""
    path = plugin_file(platform)
    return _ldd_missing(path) if path is not None else []


def _ldd_missing(path: Path) -> list[str]:
    ldd = shutil.which("ldd")
    if ldd is None or not path.is_file():
        return []
    try:
        out = subprocess.run([ldd, str(path)], capture_output=True, text=True, errors="replace", timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    return parse_ldd_missing(out)


def parse_ldd_missing(ldd_output: str) -> list[str]:
    """The libraries ldd reports as ``not found``, each once, in order.

    >>> parse_ldd_missing("\\tlibxcb.so.1 => /lib/libxcb.so.1 (0x1)\\n\\tlibxcb-icccm.so.4 => not found\\n")
    ['libxcb-icccm.so.4']
    """
    found = re.findall(r"^\s*(\S+) => not found", ldd_output, flags=re.MULTILINE)
    return list(dict.fromkeys(found))


def run_probe() -> int:
    """The child side in the frozen app (``PROBE_ENV`` set): start Qt's platform, report, exit."""
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(sys.argv[:1])
    print(PROBE_OK, app.platformName(), flush=True)
    return 0
