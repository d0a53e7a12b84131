"""The interface in English and Korean.

Strings in the UI are written in English and wrapped in ``self.tr(...)``; ``pyside6-lupdate`` collects
them into ``resources/translations/tokviz_<lang>.ts``, where translators fill them in. tokviz reads the
``.ts`` XML directly through :class:`TsTranslator`, so no compiled ``.qm`` file has to be built,
shipped or kept in step with its source.

The language can change while tokviz runs: :func:`install_translation` swaps the translators and then
emits :func:`language_signal`'s ``changed``, the one signal every panel subscribes to. A panel makes
one call, :func:`follow_language`, naming its translation contexts and what it composes itself:

    follow_language(self, ("TrainPanel", "TrainPlots"), then=self.recompose_texts)

On every change the fixed strings of its widgets (labels, buttons, tabs, headers, menus, tooltips)
are retranslated (:func:`retranslate_widgets`), then ``then`` rebuilds status lines, tables and
painted names.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, QTranslator, Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTabWidget,
    QTextEdit,
    QToolButton,
    QWidget,
)

from tokviz.core.package_data import resources_dir
from tokviz.core.sentences import translated

LANGUAGES = {"en": "English", "ko": "한국어"}


class TsTranslator(QTranslator):
    """A QTranslator backed by a Qt Linguist ``.ts`` file (finished and unfinished-but-filled entries)."""

    def __init__(self, path: Path, parent=None):
        super().__init__(parent)
        self.path = path
        self._messages: dict[tuple[str, str], str] = {}
        # tr("Open", "verb") and tr("Open", "adjective") are told apart by their <comment>
        self._disambiguated: dict[tuple[str, str, str], str] = {}
        self._reverse: dict[tuple[str, str], str] | None = None  # built on the first language change
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

    def entries(self) -> dict[tuple[str, str], str]:
        """Every translation this file holds, by (context, English source)."""
        return dict(self._messages)

    def source_of(self, context: str, translation: str) -> str | None:
        """The English source this file translates to ``translation`` in ``context`` (None: none)."""
        if self._reverse is None:
            self._reverse = {}
            for (ctx, source), text in self._messages.items():
                self._reverse.setdefault((ctx, text), source)
            for (ctx, source, _comment), text in self._disambiguated.items():
                self._reverse.setdefault((ctx, text), source)
        return self._reverse.get((context, translation))

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
# tokviz's own translator now and before the last change (None: English), so a widget's text in the
# language it was built in can be traced back to its English source
_current: TsTranslator | None = None
_previous: TsTranslator | None = None


class LanguageSignal(QObject):
    """Emits ``changed(language)`` after the interface language changed (translators already swapped)."""

    changed = Signal(str)


_signal: LanguageSignal | None = None


def language_signal() -> LanguageSignal:
    """The one object whose ``changed`` signal tells every view that the language changed."""
    global _signal
    if _signal is None:
        _signal = LanguageSignal()
    return _signal


def current_language() -> str:
    """The language of the interface: "ko" while the Korean translator is installed, else "en"."""
    return "ko" if _current is not None else "en"


def in_language(message: str) -> str:
    """A message from core in the interface's language: translated when core worded it as a sentence
    (:func:`tokviz.core.errors.user_message`), else as it came (a library's own words, a path)."""
    return translated(message, QCoreApplication.translate)


def install_translation(setting: str = "system") -> str:
    """Install the translators for ``setting``; returns the language. Views built before listen to
    :func:`language_signal` and retranslate themselves."""
    global _current, _previous
    app = QCoreApplication.instance()
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    _previous, _current = _current, None
    lang = resolve_language(setting)
    if lang == "en":
        language_signal().changed.emit(lang)
        return lang
    ts = resources_dir() / "translations" / f"tokviz_{lang}.ts"
    if ts.is_file():
        own = TsTranslator(ts)
        app.installTranslator(own)
        _installed.append(own)
        _current = own
    # Qt's own strings (standard dialogs, buttons) when Qt ships them.
    qt = QTranslator()
    if qt.load(QLocale(lang), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    language_signal().changed.emit(lang)
    return lang


class _LanguageFollower(QObject):
    """Retranslates its parent on every language change (a child, so it goes when the panel goes)."""

    def __init__(self, root: QWidget, contexts: tuple[str, ...], then: Callable[[], None] | None):
        super().__init__(root)
        self._root, self._contexts, self._then = root, contexts, then
        language_signal().changed.connect(self.apply)

    def apply(self, _language: str = "") -> None:
        retranslate_widgets(self._root, self._contexts)
        if self._then is not None:
            self._then()


def follow_language(root: QWidget, contexts: tuple[str, ...], then: Callable[[], None] | None = None) -> None:
    """Keep ``root`` in the interface's language from now on: after every change its widgets' fixed
    strings of the translation ``contexts`` are retranslated, then ``then()`` recomposes the rest."""
    _LanguageFollower(root, contexts, then)


def _source_of(text: str, contexts: tuple[str, ...]) -> tuple[str, str] | None:
    """(context, English source) of ``text`` as the previous language showed it, or None when it is
    not a translated string of ``contexts`` (a file name, a number, a composed sentence)."""
    if _previous is None:  # English: the text is its own source, in whichever context translates it
        if _current is None:
            return None
        return next(((c, text) for c in contexts if _current.translate(c, text)), None)
    for context in contexts:
        source = _previous.source_of(context, text)
        if source is not None:
            return context, source
    return None


def _now(text: str, contexts: tuple[str, ...]) -> str:
    """``text`` (shown in the previous language) in the current language; unchanged when unknown."""
    found = _source_of(text, contexts)
    if found is None:
        return text
    context, source = found
    return QCoreApplication.translate(context, source) or source


def retranslate_widgets(root: QWidget, contexts: tuple[str, ...]) -> None:
    """Put every fixed string under ``root`` (``root`` included) into the current language.

    Widgets keep only the translated text, so each is traced back to its English through the previous
    translator of ``contexts`` (the translation contexts the strings were made in) and translated again;
    a text that is not a translation there (a file name, a count) stays as it is. Call it from a
    ``language_signal().changed`` slot; composed sentences are the caller's to rebuild.
    """

    def now(text: str) -> str:
        return _now(text, contexts) if text else text

    for w in [root, *root.findChildren(QWidget)]:
        if isinstance(w, (QLabel, QAbstractButton)):
            w.setText(now(w.text()))
        elif isinstance(w, QComboBox):
            for i in range(w.count()):
                w.setItemText(i, now(w.itemText(i)))
        elif isinstance(w, (QLineEdit, QTextEdit, QPlainTextEdit)):
            w.setPlaceholderText(now(w.placeholderText()))
        elif isinstance(w, QTabWidget):
            for i in range(w.count()):
                w.setTabText(i, now(w.tabText(i)))
                w.setTabToolTip(i, now(w.tabToolTip(i)))
        elif isinstance(w, QGroupBox):
            w.setTitle(now(w.title()))
        elif isinstance(w, QTableWidget):
            for c in range(w.columnCount()):
                item = w.horizontalHeaderItem(c)
                if item is not None:
                    item.setText(now(item.text()))
        elif isinstance(w, QMenu):
            w.setTitle(now(w.title()))
            for a in w.actions():
                a.setText(now(a.text()))
                a.setToolTip(now(a.toolTip()))
        if isinstance(w, QAbstractSpinBox) and hasattr(w, "prefix"):
            w.setPrefix(now(w.prefix()))
            w.setSuffix(now(w.suffix()))
        if isinstance(w, (QPushButton, QToolButton)) and w.menu() is not None:
            for a in w.menu().actions():
                a.setText(now(a.text()))
        if w.toolTip():
            w.setToolTip(now(w.toolTip()))
