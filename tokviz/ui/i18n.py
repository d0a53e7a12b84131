"""The interface in English and Korean.

Strings in the UI are written in English and wrapped in ``self.tr(...)``; ``pyside6-lupdate`` collects
them into ``resources/translations/tokviz_<lang>.ts``, where translators fill them in. tokviz reads the
``.ts`` XML directly through :class:`TsTranslator`, so no compiled ``.qm`` file has to be built,
shipped or kept in step with its source.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from tokviz.core.package_data import resources_dir

LANGUAGES = {"en": "English", "ko": "한국어"}


class TsTranslator(QTranslator):
    """A QTranslator backed by a Qt Linguist ``.ts`` file (finished and unfinished-but-filled entries)."""

    def __init__(self, path: Path, parent=None):
        super().__init__(parent)
        self.path = path
        self._messages: dict[tuple[str, str], str] = {}
        # tr("Open", "verb") and tr("Open", "adjective") are told apart by their <comment>
        self._disambiguated: dict[tuple[str, str, str], str] = {}
        root = ET.parse(path).getroot()
        for context in root.iter("context"):
            name = context.findtext("name", "")
            for message in context.iter("message"):
                source = message.findtext("source")
                node = message.find("translation")
                if source is None or node is None or node.get("type") in ("obsolete", "vanished"):
                    continue
                # plural messages (numerus="yes") hold one <numerusform> per Korean plural form; Korean
                # has one, so the first is the translation
                text = node.findtext("numerusform") if message.get("numerus") == "yes" else node.text
                if not text:
                    continue
                comment = message.findtext("comment")
                if comment:
                    self._disambiguated[(name, source, comment)] = text
                    self._messages.setdefault((name, source), text)
                else:
                    self._messages[(name, source)] = text

    def translate(self, context, source_text, disambiguation=None, n=-1):  # noqa: D401 (Qt override)
        if disambiguation:
            found = self._disambiguated.get((context, source_text, disambiguation))
            if found:
                return found
        return self._messages.get((context, source_text)) or ""

    def isEmpty(self) -> bool:  # noqa: N802 (Qt naming)
        return not self._messages

    def __len__(self) -> int:
        return len(self._messages)


def resolve_language(setting: str) -> str:
    """``"system"`` becomes ``"ko"`` on a Korean system locale, else ``"en"``."""
    if setting in LANGUAGES:
        return setting
    return "ko" if QLocale.system().language() == QLocale.Language.Korean else "en"


_installed: list[QTranslator] = []


def install_translation(setting: str = "system") -> str:
    """Install the translators for ``setting`` (before any widget is created); returns the language."""
    app = QCoreApplication.instance()
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    lang = resolve_language(setting)
    if lang == "en":
        return lang
    ts = resources_dir() / "translations" / f"tokviz_{lang}.ts"
    if ts.is_file():
        own = TsTranslator(ts)
        app.installTranslator(own)
        _installed.append(own)
    # Qt's own strings (standard dialogs, buttons) when Qt ships them.
    qt = QTranslator()
    if qt.load(QLocale(lang), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    return lang
