"""Fonts are asked for as views paint: the installed families are looked up once, and again only after
the font database changes."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase, QGuiApplication

from tokviz.ui import fonts


def test_installed_families_are_looked_up_once_until_the_font_database_changes(qapp, monkeypatch):
    have = set(QFontDatabase.families())
    expected_ui = [f for f in fonts.UI_FAMILIES if f in have] or fonts.UI_FAMILIES
    expected_mono = [f for f in fonts.MONO_FAMILIES if f in have] or fonts.MONO_FAMILIES
    fonts.ui_font(10)  # follows the database from here
    QGuiApplication.instance().fontDatabaseChanged.emit()  # forgets what it found

    lookups = []

    class CountingDatabase:
        @staticmethod
        def families():
            lookups.append(1)
            return QFontDatabase.families()

    monkeypatch.setattr(fonts, "QFontDatabase", CountingDatabase)
    for _ in range(50):
        assert fonts.ui_font(10).families() == expected_ui
        assert fonts.mono_font().families() == expected_mono
    assert len(lookups) == 2  # one per family list

    QGuiApplication.instance().fontDatabaseChanged.emit()  # a font added or removed
    assert fonts.ui_font(10).families() == expected_ui
    assert len(lookups) == 3
