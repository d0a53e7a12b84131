"""Settings remembered between runs, through one typed wrapper over QSettings.

Everything the app remembers goes through :class:`Settings`, so keys and types live in one place.
Tests and screenshots use :meth:`Settings.ephemeral` (a throw-away INI file) and never touch the
user's own settings.
"""

from __future__ import annotations

import math
import os
import shutil
import stat
import tempfile
import weakref
from pathlib import Path

from PySide6.QtCore import QByteArray, QDataStream, QIODevice, QSettings

THEMES = ("system", "light", "dark")
LANGUAGES = ("system", "en", "ko")
VIEWS = ("inspect", "train", "compare", "boundaries", "vocab")

MAX_FILE_BYTES = 1 << 20  # tokviz.ini holds a few KB; a bigger file is not ours to parse at start-up
MAX_BLOB_BYTES = 64 << 10  # saved window / splitter states are a few hundred bytes
MAX_TEXT = 4096  # a path or an encoder name
MAX_ENCODERS = 64
MAX_INSPECT_TEXT = 100_000  # characters of the Inspector's text kept for the next run; a longer paste is not
GEOMETRY_MAGIC = 0x1D9D0CB  # QWidget.saveGeometry's header
STATE_MARKER = b"\x00\x00\x00\xff"  # QMainWindow.saveState / QSplitter.saveState start with it
MAX_COORDINATE = 1_000_000  # pixels; beyond any desktop of monitors
MAX_EXTENT = 100_000


def saved_geometry_problem(blob: QByteArray) -> str | None:
    """Why ``blob`` is not something QWidget.saveGeometry wrote (with sane rectangles), or None."""
    if blob.size() > 1024:
        return f"{blob.size()} bytes, not a saved window geometry"
    stream = QDataStream(blob, QIODevice.OpenModeFlag.ReadOnly)
    stream.setVersion(QDataStream.Version.Qt_4_0)
    magic, major = stream.readUInt32(), stream.readUInt16()
    stream.readUInt16()
    if magic != GEOMETRY_MAGIC or not 1 <= major <= 3:
        return "not a saved window geometry"
    rects = [[stream.readInt32() for _ in range(4)] for _ in range(2)]
    stream.skipRawData(4 + 1 + 1)  # screen number, maximized, full screen
    if major >= 2:
        stream.readInt32()  # the screen's width
    if major >= 3:
        rects.append([stream.readInt32() for _ in range(4)])
    if stream.status() != QDataStream.Status.Ok:
        return "a truncated window geometry"
    for left, top, right, bottom in rects:
        if max(abs(left), abs(top), abs(right), abs(bottom)) > MAX_COORDINATE \
                or not (0 < right - left + 1 <= MAX_EXTENT and 0 < bottom - top + 1 <= MAX_EXTENT):
            return f"a window geometry of {right - left + 1}x{bottom - top + 1} at ({left}, {top})"
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Settings:
    """tokviz.ini, read defensively: a value of the wrong type, out of range, not finite or not a
    saved Qt state is replaced by its default and named in :meth:`take_report` (once)."""

    def __init__(self, qsettings: QSettings | None = None, *, path: str | Path | None = None):
        self._problems: dict[str, str] = {}
        self._reported = False
        self._removed = [False]  # set when a temporary folder of these settings was removed (see _remove_with)
        if qsettings is None:
            qsettings = self._open(Path(path) if path is not None else default_file())
        self._q = qsettings
        self.check()

    @classmethod
    def at(cls, path: str | Path) -> Settings:
        """Settings stored in the INI file ``path``."""
        return cls(path=path)

    @classmethod
    def ephemeral(cls) -> Settings:
        """Settings in a fresh temporary file (screenshots, tests)."""
        folder = tempfile.mkdtemp(prefix="tokviz-settings-")
        settings = cls.at(Path(folder) / "tokviz.ini")
        _remove_with(settings, settings._q, folder, settings._removed)
        return settings

    def _open(self, path: Path) -> QSettings:
        # QSettings reads its file as it is constructed: a FIFO there would hang the start, a huge
        # file would stall it, a directory can never be saved. Look before handing it over.
        try:
            info = os.stat(path)
        except FileNotFoundError:
            return QSettings(str(path), QSettings.Format.IniFormat)
        except OSError as err:
            return self._elsewhere(path, f"cannot be read ({err.strerror})")
        if stat.S_ISDIR(info.st_mode):
            return self._elsewhere(path, "is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            return self._elsewhere(path, "is not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            aside = path.with_name(path.name + ".bad")
            try:
                os.replace(path, aside)
            except OSError as err:
                return self._elsewhere(path, f"is {info.st_size:,} bytes and cannot be moved aside ({err.strerror})")
            self._problems["(file)"] = (f"{path} was {info.st_size:,} bytes (settings take a few KB); it was moved "
                                        f"to {aside.name} and tokviz starts with its defaults")
        return QSettings(str(path), QSettings.Format.IniFormat)

    def _elsewhere(self, path: Path, why: str) -> QSettings:
        self._problems["(file)"] = f"{path} {why}: tokviz uses its defaults and cannot remember settings this time"
        folder = tempfile.mkdtemp(prefix="tokviz-settings-")
        q = QSettings(str(Path(folder) / "tokviz.ini"), QSettings.Format.IniFormat)
        _remove_with(self, q, folder, self._removed)
        return q

    def _set(self, key: str, value) -> None:
        if not self._removed[0]:
            self._q.setValue(key, value)

    def _unset(self, key: str) -> None:
        if not self._removed[0]:
            self._q.remove(key)

    def check(self) -> None:
        """Read every remembered value once, so :meth:`take_report` names every bad one from the start."""
        for key in self._q.allKeys():
            if key.startswith("splitters/"):
                self._bytes(key, STATE_MARKER)
        for name in ("theme", "language", "font_scale", "presentation_pace", "window_geometry", "window_state",
                     "current_view", "last_encoders", "last_corpus", "inspect_encoder", "inspect_text",
                     "train_mode", "train_algorithm"):
            getattr(self, name)

    def take_report(self) -> str | None:
        """A sentence naming the settings that were unusable and replaced by defaults; None when all
        were fine, and None after the first call (the window says it once)."""
        if self._reported or not self._problems:
            return None
        self._reported = True
        file_problem = self._problems.get("(file)")
        keys = [f"{key} ({why})" for key, why in self._problems.items() if key != "(file)"]
        parts = [file_problem + "."] if file_problem else []
        if keys:
            parts.append(f"Unusable settings in {self.file_name} were replaced by defaults: " + "; ".join(keys) + ".")
        return " ".join(parts)

    @property
    def problems(self) -> dict[str, str]:
        """Each unusable key (``(file)`` for the file itself) and what was wrong with it."""
        return dict(self._problems)

    def sync(self) -> None:
        self._q.sync()

    @property
    def file_name(self) -> str:
        return self._q.fileName()

    # ---- typed accessors -------------------------------------------------------------------
    def _bad(self, key: str, why: str, default):
        # once per key; the key is removed so the repaired file starts clean next time
        self._problems.setdefault(key, why)
        self._unset(key)
        return default

    def _str(self, key: str, default: str, allowed: tuple[str, ...] | None = None) -> str:
        if not self._q.contains(key):
            return default
        value = self._q.value(key)
        if not isinstance(value, str):
            return self._bad(key, f"{_short(value)} is not text", default)
        if allowed is not None and value not in allowed:
            return self._bad(key, f"{_short(value)} is not one of {', '.join(allowed)}", default)
        return value

    def _float(self, key: str, default: float, lo: float, hi: float) -> float:
        if not self._q.contains(key):
            return default
        raw = self._q.value(key)
        if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
            return self._bad(key, f"{_short(raw)} is not a number", default)
        try:
            value = float(raw.strip() if isinstance(raw, str) else raw)
        except (ValueError, OverflowError):
            return self._bad(key, f"{_short(raw)} is not a number", default)
        if not math.isfinite(value):
            return self._bad(key, f"{_short(raw)} is not a finite number", default)
        if not lo <= value <= hi:
            return self._bad(key, f"{_short(raw)} is outside {lo:g}..{hi:g}", default)
        return value

    def _bytes(self, key: str, marker: bytes | None = None) -> QByteArray | None:
        if not self._q.contains(key):
            return None
        value = self._q.value(key)
        if not isinstance(value, QByteArray):
            return self._bad(key, f"{_short(value)} is not saved window data", None)
        if value.isEmpty():
            return None
        if value.size() > MAX_BLOB_BYTES:
            return self._bad(key, f"{value.size():,} bytes of saved window data", None)
        if marker is not None and not bytes(value[:len(marker)]) == marker:
            return self._bad(key, "not a saved Qt layout", None)
        return value

    @staticmethod
    def _clamped(value: float, default: float, lo: float, hi: float) -> float:
        value = float(value)
        return min(max(value, lo), hi) if math.isfinite(value) else default

    @property
    def theme(self) -> str:
        return self._str("ui/theme", "system", THEMES)

    @theme.setter
    def theme(self, value: str) -> None:
        if value not in THEMES:
            raise ValueError(f"theme must be one of {THEMES}")
        self._set("ui/theme", value)

    @property
    def language(self) -> str:
        return self._str("ui/language", "system", LANGUAGES)

    @language.setter
    def language(self, value: str) -> None:
        if value not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}")
        self._set("ui/language", value)

    @property
    def font_scale(self) -> float:
        """Multiplier applied to the interface font (Ctrl +/−)."""
        return self._float("ui/font_scale", 1.0, 0.5, 4.0)

    @font_scale.setter
    def font_scale(self, value: float) -> None:
        self._set("ui/font_scale", self._clamped(value, 1.0, 0.5, 4.0))

    @property
    def presentation_pace(self) -> float:
        """Merges per second the Train panel plays at in presentation mode (0: no auto-play)."""
        return self._float("ui/presentation_pace", 1.0, 0.0, 1000.0)

    @presentation_pace.setter
    def presentation_pace(self, value: float) -> None:
        self._set("ui/presentation_pace", self._clamped(value, 1.0, 0.0, 1000.0))

    @property
    def window_geometry(self) -> QByteArray | None:
        """The saved geometry, if QWidget.saveGeometry wrote it with sane rectangles (the window then
        fits it to the screen: tokviz.ui.app.fit_to_screen)."""
        value = self._bytes("window/geometry")
        if value is not None:
            problem = saved_geometry_problem(value)
            if problem is not None:
                return self._bad("window/geometry", problem, None)
        return value

    @window_geometry.setter
    def window_geometry(self, value: QByteArray) -> None:
        self._set("window/geometry", value)

    @property
    def window_state(self) -> QByteArray | None:
        return self._bytes("window/state", STATE_MARKER)

    @window_state.setter
    def window_state(self, value: QByteArray) -> None:
        self._set("window/state", value)

    def splitter_state(self, name: str) -> QByteArray | None:
        return self._bytes(f"splitters/{name}", STATE_MARKER)

    def set_splitter_state(self, name: str, value: QByteArray) -> None:
        self._set(f"splitters/{name}", value)

    @property
    def current_view(self) -> str:
        return self._str("window/view", "inspect", VIEWS)

    @current_view.setter
    def current_view(self, value: str) -> None:
        self._set("window/view", value)

    @property
    def last_encoders(self) -> list[str]:
        if not self._q.contains("encoders/last"):
            return []
        value = self._q.value("encoders/last")
        if isinstance(value, str):  # QSettings returns a lone string for a one-item list
            value = [value] if value else []
        if not isinstance(value, list):
            return self._bad("encoders/last", f"{_short(value)} is not a list of encoder names", [])
        names = [v for v in value if isinstance(v, str) and v and len(v) <= MAX_TEXT and "\0" not in v]
        if len(names) != len(value) or len(names) > MAX_ENCODERS:
            return self._bad("encoders/last", f"{len(value)} entries, not all encoder names", [])
        return names

    @last_encoders.setter
    def last_encoders(self, names: list[str]) -> None:
        self._set("encoders/last", list(names))

    @property
    def last_corpus(self) -> str | None:
        value = self._str("corpus/last", "")
        if len(value) > MAX_TEXT or "\0" in value:
            return self._bad("corpus/last", f"{_short(value)} is not a file path", None)
        return value or None

    @last_corpus.setter
    def last_corpus(self, path: str | None) -> None:
        self._set("corpus/last", path or "")

    @property
    def inspect_encoder(self) -> str | None:
        """The encoder the Inspector showed when tokviz closed."""
        value = self._str("inspect/encoder", "")
        if len(value) > MAX_TEXT or "\0" in value:
            return self._bad("inspect/encoder", f"{_short(value)} is not an encoder name", None)
        return value or None

    @inspect_encoder.setter
    def inspect_encoder(self, name: str | None) -> None:
        self._set("inspect/encoder", name or "")

    @property
    def inspect_text(self) -> str | None:
        """The Inspector's text when tokviz closed (None: none kept, the demo text then)."""
        if not self._q.contains("inspect/text"):
            return None
        value = self._str("inspect/text", "")
        if len(value) > MAX_INSPECT_TEXT:
            return self._bad("inspect/text", f"{len(value):,} characters, more than tokviz keeps", None)
        return value

    @inspect_text.setter
    def inspect_text(self, text: str | None) -> None:
        if text is None or len(text) > MAX_INSPECT_TEXT:
            self._unset("inspect/text")  # the demo text next time, rather than an older text
        else:
            self._set("inspect/text", text)

    @property
    def train_mode(self) -> str:
        """The Train panel's mode at the last close (BPE on bytes or on characters)."""
        return self._str("train/mode", "byte", ("byte", "char"))

    @train_mode.setter
    def train_mode(self, value: str) -> None:
        self._set("train/mode", value)

    @property
    def train_algorithm(self) -> str:
        return self._str("train/algorithm", "bpe", ("bpe", "wordpiece", "unigram"))

    @train_algorithm.setter
    def train_algorithm(self, value: str) -> None:
        self._set("train/algorithm", value)


def _remove_with(owner: object, q: QSettings, folder: str, removed: list[bool]) -> None:
    """Delete the temporary settings ``folder`` when ``owner`` goes (or at exit): every screenshot and
    test made one, and they stayed in the temporary folder forever. ``q`` is synced first, so that its
    own last sync (when it is deleted) has nothing left to write and does not make the folder again;
    ``removed`` (the owner's) then turns every later write into a no-op: at exit the folder goes while
    windows may still be open, and one closed afterwards saved its geometry and made the folder again."""
    _TEMPORARY[:] = [removal for removal in _TEMPORARY if removal.alive]
    _TEMPORARY.append(weakref.finalize(owner, _remove_folder, q, folder, removed))


_TEMPORARY: list[weakref.finalize] = []  # the removals (those not run yet are alive)


def remove_temporary_folders() -> None:
    """Remove every temporary settings folder now, for a process that ends without the interpreter's
    exit handlers (``os._exit``): the settings stay usable, their writes from here on go nowhere."""
    for removal in _TEMPORARY:
        removal()  # a removal that ran already does nothing
    _TEMPORARY.clear()


def _remove_folder(q: QSettings, folder: str, removed: list[bool]) -> None:
    q.sync()
    removed[0] = True
    shutil.rmtree(folder, ignore_errors=True)


def default_file() -> Path:
    """Where ``Settings()`` keeps tokviz.ini: QSettings' user folder for INI files (on Linux
    ``$XDG_CONFIG_HOME/tokviz/tokviz.ini``; QSettings.setPath moves it), found without opening it."""
    # a QSettings for a file that does not exist tells the folder without reading tokviz.ini
    probe = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "tokviz-settings-folder", "probe")
    return Path(probe.fileName()).parent.parent / "tokviz" / "tokviz.ini"
