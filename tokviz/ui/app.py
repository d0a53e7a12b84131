"""QApplication set-up and the ``tokviz`` window entry point."""

from __future__ import annotations

import sys

from PySide6.QtCore import QEvent, QObject, QRect, QTimer, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from tokviz.core.package_data import VERSION as __version__

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

    from tokviz.core.package_data import resources_dir

    app.setWindowIcon(QIcon(str(resources_dir() / "icons" / "tokviz.svg")))
    from tokviz.ui.fonts import ui_font

    if app.property("tokvizBasePointSize") is None:
        # remembered once, so zooming scales from the platform's size and never compounds
        app.setProperty("tokvizBasePointSize", app.font().pointSizeF())
    app.setFont(ui_font(float(app.property("tokvizBasePointSize"))))
    from tokviz.ui.common.work import WorkService

    WorkService.collection.collect_on_gui_thread()  # never in a worker thread: Qt objects must die where they live
    return app


def open_window(settings, files: list[str] | None = None):
    """The main window, with the first of ``files`` (``tokviz FILE``, a file manager's "Open with")
    loaded in the Inspector. A file that cannot be read or is not UTF-8 gets the Inspector's message.
    The window fits the screen, and says once which remembered settings were unusable."""
    from PySide6.QtCore import QCoreApplication

    from tokviz.ui.main_window import MainWindow

    window = MainWindow(settings=settings)
    fit_to_screen(window)
    window.installEventFilter(_RefitWhenShown(window))
    show_settings_report(window, settings)
    if files:
        window.open_text_file(str(files[0]))
        if len(files) > 1:
            # one literal, as lupdate and the translation file know it
            note = QCoreApplication.translate(
                "MainWindow", "Opened {name}; tokviz shows one text at a time, so {more} more file(s) were not opened.")  # noqa: E501
            window.statusBar().showMessage(note.format(name=files[0], more=len(files) - 1), 10000)
    return window


class _RefitWhenShown(QObject):
    """Fits the window to its screen again once it is shown: before, its frame (borders, title bar) has
    no size yet, and a window restored at the screen's full width came out wider than the screen by
    its borders."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Show:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, watched, lambda: fit_to_screen(watched))  # the frame is known after the show
        return False


def fit_into(rect: QRect, available: QRect) -> QRect:
    """``rect`` moved and shrunk so that it lies inside ``available`` (a screen's free area).

    >>> fit_into(QRect(5000, 5000, 3000, 2000), QRect(0, 0, 1920, 1080))
    PySide6.QtCore.QRect(0, 0, 1920, 1080)
    >>> fit_into(QRect(-50, 100, 800, 600), QRect(0, 0, 1920, 1080))
    PySide6.QtCore.QRect(0, 100, 800, 600)
    """
    width = min(rect.width(), available.width())
    height = min(rect.height(), available.height())
    x = min(max(rect.x(), available.left()), available.left() + available.width() - width)
    y = min(max(rect.y(), available.top()), available.top() + available.height() - height)
    return QRect(x, y, width, height)


def fit_to_screen(window) -> None:
    """Keep a restored window on the screen it was restored to (or the primary one), no larger than
    that screen's free area: a saved geometry from a bigger monitor, or a corrupt one, must not
    leave the window off screen or wider than the desktop."""
    from PySide6.QtGui import QGuiApplication

    screen = QGuiApplication.screenAt(window.frameGeometry().center()) or window.screen() \
        or QGuiApplication.primaryScreen()
    if screen is None:
        return
    available = screen.availableGeometry()
    # the frame (title bar, borders) must fit too; Qt only clamps the client area
    frame = window.frameGeometry()
    margins = (frame.width() - window.width(), frame.height() - window.height())
    fitted = fit_into(frame, available)
    if fitted != frame:
        window.resize(max(fitted.width() - margins[0], 1), max(fitted.height() - margins[1], 1))
        window.move(fitted.topLeft())


def show_settings_report(window, settings) -> None:
    """Say once (status bar and stderr) which remembered settings were unusable and replaced by defaults."""
    report = settings.take_report()
    if report:
        sys.stderr.write(f"tokviz: {report}\n")
        window.statusBar().showMessage(report, 30000)


def run_app(argv: list[str] | None = None, files: list[str] | None = None, quit_after_show: bool = False) -> int:
    """Open the main window (on the demo data, or the first of ``files``) and run the event loop.

    ``quit_after_show`` (``tokviz gui --quit-after-show``, for tests): once the platform has put the
    window on screen, print ``tokviz: shown WxH on PLATFORM`` and close it as a user would.
    """
    app = make_application(argv)
    from tokviz.ui.i18n import install_translation
    from tokviz.ui.settings import Settings

    settings = Settings()
    install_translation(settings.language)  # before any widget exists
    window = open_window(settings, files)
    _close_on_signals(window)
    window.show()
    if quit_after_show:
        _quit_once_exposed(app, window)
    return app.exec()


def _close_on_signals(window) -> None:
    """Ctrl+C (SIGINT) or SIGTERM closes the window as the close button does (settings are saved).
    Python only runs signal handlers between bytecodes, so a timer lets it in while Qt's loop runs."""
    import signal

    from PySide6.QtCore import QTimer

    def close(*_args) -> None:
        window.close()

    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, close)
    timer = QTimer(window)
    timer.timeout.connect(lambda: None)
    timer.start(250)


def _quit_once_exposed(app, window) -> None:
    from PySide6.QtCore import QTimer

    def check() -> None:
        handle = window.windowHandle()
        if handle is None or not handle.isExposed():
            return
        timer.stop()
        print(f"tokviz: shown {window.width()}x{window.height()} on {app.platformName()}", flush=True)
        window.close()

    timer = QTimer(window)
    timer.timeout.connect(check)
    timer.start(50)
