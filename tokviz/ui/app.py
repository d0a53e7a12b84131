"""QApplication set-up and the ``tokviz`` window entry point."""

from __future__ import annotations

import sys

from PySide6.QtCore import qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from tokviz import __version__


_previous_handler = None


def _qt_message(mode, context, message: str) -> None:
    # The offscreen platform (screenshots, CI) warns on every window show that it cannot propagate
    # size hints; it means nothing there and drowns real warnings.
    if message == "This plugin does not support propagateSizeHints()":
        return
    if _previous_handler is not None:
        _previous_handler(mode, context, message)
    else:
        sys.stderr.write(message + "\n")


def make_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once), with tokviz's names and fonts."""
    global _previous_handler
    app = QApplication.instance()
    if app is None:
        _previous_handler = qInstallMessageHandler(_qt_message)
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("tokviz")
    app.setOrganizationName("tokviz")
    app.setApplicationVersion(__version__)
    # Window icon, and the .desktop id so Wayland/GNOME match windows to packaging/linux's entry.
    app.setDesktopFileName("io.github.tokviz")
    from PySide6.QtGui import QIcon

    from tokviz import resources_dir

    app.setWindowIcon(QIcon(str(resources_dir() / "icons" / "tokviz.svg")))
    from tokviz.ui.fonts import ui_font

    if app.property("tokvizBasePointSize") is None:
        # remembered once, so zooming scales from the platform's size and never compounds
        app.setProperty("tokvizBasePointSize", app.font().pointSizeF())
    app.setFont(ui_font(float(app.property("tokvizBasePointSize"))))
    return app


def open_window(settings, files: list[str] | None = None):
    """The main window, with the first of ``files`` (``tokviz FILE``, a file manager's "Open with")
    loaded in the Inspector. A file that cannot be read or is not UTF-8 gets the Inspector's message."""
    from PySide6.QtCore import QCoreApplication

    from tokviz.ui.main_window import MainWindow

    window = MainWindow(settings=settings)
    if files:
        window.open_text_file(str(files[0]))
        if len(files) > 1:
            window.statusBar().showMessage(
                QCoreApplication.translate(
                    "MainWindow", "Opened {name}; tokviz shows one text at a time, so {more} more file(s) were not opened.")
                .format(name=files[0], more=len(files) - 1), 10000)
    return window


def run_app(argv: list[str] | None = None, files: list[str] | None = None) -> int:
    """Open the main window (on the demo data, or the first of ``files``) and run the event loop."""
    app = make_application(argv)
    from tokviz.ui.i18n import install_translation
    from tokviz.ui.settings import Settings

    settings = Settings()
    install_translation(settings.language)  # before any widget exists
    window = open_window(settings, files)
    window.show()
    return app.exec()
