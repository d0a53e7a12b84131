"""Settings remembered between runs, through one typed wrapper over QSettings.

Everything the app remembers goes through :class:`Settings`, so keys and types live in one place.
Tests and screenshots use :meth:`Settings.ephemeral` (a throw-away INI file) and never touch the
user's own settings.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

THEMES = ("system", "light", "dark")
LANGUAGES = ("system", "en", "ko")


class Settings:
    def __init__(self, qsettings: QSettings | None = None):
        self._q = qsettings if qsettings is not None else QSettings(
            QSettings.Format.IniFormat, QSettings.Scope.UserScope, "tokviz", "tokviz"
        )

    @classmethod
    def at(cls, path: str | Path) -> "Settings":
        """Settings stored in the INI file ``path``."""
        return cls(QSettings(str(path), QSettings.Format.IniFormat))

    @classmethod
    def ephemeral(cls) -> "Settings":
        """Settings in a fresh temporary file (screenshots, tests)."""
        folder = tempfile.mkdtemp(prefix="tokviz-settings-")
        return cls.at(Path(folder) / "tokviz.ini")

    def sync(self) -> None:
        self._q.sync()

    @property
    def file_name(self) -> str:
        return self._q.fileName()

    # ---- typed accessors -------------------------------------------------------------------
    def _str(self, key: str, default: str, allowed: tuple[str, ...] | None = None) -> str:
        value = self._q.value(key, default)
        value = value if isinstance(value, str) else default
        return value if allowed is None or value in allowed else default

    def _float(self, key: str, default: float, lo: float, hi: float) -> float:
        try:
            value = float(self._q.value(key, default))
        except (TypeError, ValueError):
            return default
        return min(max(value, lo), hi)

    def _bytes(self, key: str) -> QByteArray | None:
        value = self._q.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    @property
    def theme(self) -> str:
        return self._str("ui/theme", "system", THEMES)

    @theme.setter
    def theme(self, value: str) -> None:
        if value not in THEMES:
            raise ValueError(f"theme must be one of {THEMES}")
        self._q.setValue("ui/theme", value)

    @property
    def language(self) -> str:
        return self._str("ui/language", "system", LANGUAGES)

    @language.setter
    def language(self, value: str) -> None:
        if value not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES}")
        self._q.setValue("ui/language", value)

    @property
    def font_scale(self) -> float:
        """Multiplier applied to the interface font (Ctrl +/−)."""
        return self._float("ui/font_scale", 1.0, 0.5, 4.0)

    @font_scale.setter
    def font_scale(self, value: float) -> None:
        self._q.setValue("ui/font_scale", float(min(max(value, 0.5), 4.0)))

    @property
    def presentation_pace(self) -> float:
        """Merges per second the Train panel plays at in presentation mode (0: no auto-play)."""
        return self._float("ui/presentation_pace", 1.0, 0.0, 1000.0)

    @presentation_pace.setter
    def presentation_pace(self, value: float) -> None:
        self._q.setValue("ui/presentation_pace", float(min(max(value, 0.0), 1000.0)))

    @property
    def window_geometry(self) -> QByteArray | None:
        return self._bytes("window/geometry")

    @window_geometry.setter
    def window_geometry(self, value: QByteArray) -> None:
        self._q.setValue("window/geometry", value)

    @property
    def window_state(self) -> QByteArray | None:
        return self._bytes("window/state")

    @window_state.setter
    def window_state(self, value: QByteArray) -> None:
        self._q.setValue("window/state", value)

    def splitter_state(self, name: str) -> QByteArray | None:
        return self._bytes(f"splitters/{name}")

    def set_splitter_state(self, name: str, value: QByteArray) -> None:
        self._q.setValue(f"splitters/{name}", value)

    @property
    def current_view(self) -> str:
        return self._str("window/view", "inspect", ("inspect", "train", "compare"))

    @current_view.setter
    def current_view(self, value: str) -> None:
        self._q.setValue("window/view", value)

    @property
    def last_encoders(self) -> list[str]:
        value = self._q.value("encoders/last", [])
        if isinstance(value, str):  # QSettings returns a lone string for a one-item list
            value = [value]
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

    @last_encoders.setter
    def last_encoders(self, names: list[str]) -> None:
        self._q.setValue("encoders/last", list(names))

    @property
    def last_corpus(self) -> str | None:
        value = self._q.value("corpus/last", "")
        return value if isinstance(value, str) and value else None

    @last_corpus.setter
    def last_corpus(self, path: str | None) -> None:
        self._q.setValue("corpus/last", path or "")
