"""The main window: Inspect, Train and Compare panels as tabs over one shared Session.

It owns what is common to every panel: menus and shortcuts, remembered geometry, theme, font zoom,
presentation mode (F11) and the About box.
"""

from __future__ import annotations

import importlib

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMainWindow, QMessageBox, QTabWidget, QWidget

from tokviz.ui import fonts, theme
from tokviz.ui.session import Session
from tokviz.ui.settings import Settings

# view name -> (tab title, module, class). Each panel is a QWidget taking the Session; it may
# implement shutdown() (stop workers; called on close) and prepare_screenshot(options).
PANELS = {
    "inspect": (QT_TRANSLATE_NOOP("MainWindow", "Inspect"), "tokviz.ui.inspect", "InspectPanel"),
    "train": (QT_TRANSLATE_NOOP("MainWindow", "Train"), "tokviz.ui.train", "TrainPanel"),
    "compare": (QT_TRANSLATE_NOOP("MainWindow", "Compare"), "tokviz.ui.compare", "ComparePanel"),
}

PRESENTATION_SCALE = 1.6  # font scale on entering presentation mode (projectors are far away)
# how fast the Train panel plays by itself in presentation mode (merges per second; 0 = it waits)
PRESENTATION_PACES = [
    (QT_TRANSLATE_NOOP("MainWindow", "No auto-play"), 0.0),
    (QT_TRANSLATE_NOOP("MainWindow", "1 merge per second"), 1.0),
    (QT_TRANSLATE_NOOP("MainWindow", "3 merges per second"), 3.0),
    (QT_TRANSLATE_NOOP("MainWindow", "10 merges per second"), 10.0),
    (QT_TRANSLATE_NOOP("MainWindow", "30 merges per second"), 30.0),
]


class PendingPanel(QLabel):
    """Shown in place of a panel whose module is not built yet (it says so)."""

    def __init__(self, title: str, parent: QWidget | None = None):
        super().__init__(f"The {title} panel is not built yet.", parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)

    def prepare_screenshot(self, options) -> None:
        pass


class MainWindow(QMainWindow):
    def __init__(self, session: Session | None = None, settings: Settings | None = None):
        super().__init__()
        self.setWindowTitle("tokviz")
        if session is None:
            session = Session(parent=self, settings=settings)
        self.session = session
        self.settings = session.settings
        self._presentation = False
        self._scale_before_presentation = 1.0
        app = QApplication.instance()
        self._base_point_size = float(app.property("tokvizBasePointSize") or app.font().pointSizeF() or 10.0)

        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self._auto_played: set[str] = set()  # panels presentation mode has set playing
        self.panels: dict[str, QWidget] = {}
        for view, (title, module, cls) in PANELS.items():
            try:
                panel_cls = getattr(importlib.import_module(module), cls)
            except ModuleNotFoundError as err:
                if err.name != module:
                    raise
                panel = PendingPanel(title)
            else:
                panel = panel_cls(self.session)
            self.panels[view] = panel
            self.tabs.addTab(panel, self.tr(title))
        self._build_menus()
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.statusBar()
        self.resize(1280, 820)
        self._restore()

    # ---- menus ---------------------------------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None, checkable: bool = False) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        act.setCheckable(checkable)
        act.triggered.connect(slot)
        self.addAction(act)  # shortcuts keep working while the menu bar is hidden (presentation mode)
        return act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        file_menu.addAction(self._action(self.tr("&Open model file…"), self.open_model_file, QKeySequence.StandardKey.Open))
        file_menu.addSeparator()
        file_menu.addAction(self._action(self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit))

        view_menu = bar.addMenu(self.tr("&View"))
        for i, (view, (title, _, _)) in enumerate(PANELS.items()):
            view_menu.addAction(self._action(self.tr(title), lambda _=False, v=view: self.show_view(v), f"Ctrl+{i + 1}"))
        view_menu.addSeparator()
        self.presentation_action = self._action(self.tr("&Presentation mode"), self.toggle_presentation, "F11", checkable=True)
        view_menu.addAction(self.presentation_action)
        pace_menu = view_menu.addMenu(self.tr("Presentation &pace"))
        pace_menu.setToolTip(self.tr("How fast training plays by itself in presentation mode"))
        pace_group = QActionGroup(self)
        self.pace_actions: dict[float, QAction] = {}
        current_pace = min((p for _, p in PRESENTATION_PACES), key=lambda p: abs(p - self.settings.presentation_pace))
        for label, pace in PRESENTATION_PACES:
            act = self._action(self.tr(label), lambda _=False, p=pace: self.set_presentation_pace(p), checkable=True)
            act.setChecked(pace == current_pace)
            pace_group.addAction(act)
            pace_menu.addAction(act)
            self.pace_actions[pace] = act
        view_menu.addAction(self._action(self.tr("Zoom &in"), lambda: self.zoom(1.1), QKeySequence.StandardKey.ZoomIn))
        view_menu.addAction(self._action(self.tr("Zoom &out"), lambda: self.zoom(1 / 1.1), QKeySequence.StandardKey.ZoomOut))
        view_menu.addAction(self._action(self.tr("&Reset zoom"), lambda: self.set_font_scale(1.0), "Ctrl+0"))
        theme_menu = view_menu.addMenu(self.tr("&Theme"))
        group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for name, label in (("system", self.tr("Follow &system")), ("light", self.tr("&Light")), ("dark", self.tr("&Dark"))):
            act = self._action(label, lambda _=False, n=name: self.set_theme(n), checkable=True)
            group.addAction(act)
            theme_menu.addAction(act)
            self.theme_actions[name] = act

        language_menu = view_menu.addMenu(self.tr("&Language"))
        lang_group = QActionGroup(self)
        for code, label in (("system", self.tr("Follow &system")), ("en", "English"), ("ko", "한국어")):
            act = self._action(label, lambda _=False, c=code: self.set_language(c), checkable=True)
            act.setChecked(self.settings.language == code)
            lang_group.addAction(act)
            language_menu.addAction(act)

        help_menu = bar.addMenu(self.tr("&Help"))
        help_menu.addAction(self._action(self.tr("&About tokviz"), self.show_about))

    # ---- views -------------------------------------------------------------------------------
    def show_view(self, view: str) -> QWidget:
        panel = self.panels[view]
        self.tabs.setCurrentWidget(panel)
        return panel

    def current_panel(self) -> QWidget:
        return self.tabs.currentWidget()

    def current_view(self) -> str:
        current = self.tabs.currentWidget()
        return next(v for v, p in self.panels.items() if p is current)

    # ---- actions -------------------------------------------------------------------------------
    def open_model_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open model file"), "", self.tr("Models (*.model *.tiktoken *.json *.codes *.txt);;All files (*)")
        )
        if path:
            self.add_model_file(path)

    def add_model_file(self, path: str) -> bool:
        """Open a model file as an encoder for every panel; a bad file gets a message, nothing breaks."""
        from tokviz.core.encoders.files import open_model_file
        from tokviz.core.errors import TokvizError

        try:
            encoder = open_model_file(path)
        except TokvizError as err:
            QMessageBox.warning(self, self.tr("Cannot open model"), str(err))
            return False
        self.session.add_encoder(encoder)
        self.statusBar().showMessage(self.tr("Added encoder {name} ({size} tokens)").format(name=encoder.name, size=f"{encoder.vocab_size:,}"), 5000)
        return True

    def set_theme(self, name: str) -> None:
        dark = theme.apply_theme(name)
        self.settings.theme = name
        self.theme_actions[name].setChecked(True)
        self.session.themeChanged.emit(dark)
        self._repaint_all()

    def set_language(self, code: str) -> None:
        """Remember the interface language; it applies from the next start (widgets are built once)."""
        self.settings.language = code
        self.statusBar().showMessage(self.tr("The language changes when tokviz starts again."), 8000)

    def zoom(self, factor: float) -> None:
        self.set_font_scale(fonts.scale() * factor)

    def set_font_scale(self, scale: float) -> None:
        fonts.set_scale(scale)
        QApplication.instance().setFont(fonts.ui_font(self._base_point_size))
        if not self._presentation:
            self.settings.font_scale = fonts.scale()
        self.session.fontScaleChanged.emit(fonts.scale())
        self._repaint_all()

    def toggle_presentation(self, on: bool | None = None) -> None:
        """Presentation mode: full screen, large fonts, no menu or status bar (F11 leaves it)."""
        # QAction.triggered passes the new checked state; a plain call toggles.
        on = (not self._presentation) if on is None else bool(on)
        if on == self._presentation:
            return
        self._presentation = on
        self.presentation_action.setChecked(on)
        if on:
            self._scale_before_presentation = fonts.scale()
            self.menuBar().hide()
            self.statusBar().hide()
            self.showFullScreen()
            self.set_font_scale(max(fonts.scale(), 1.0) * PRESENTATION_SCALE)
            self._auto_play(self.current_panel())
        else:
            self.menuBar().show()
            self.statusBar().show()
            self.showNormal()
            self.set_font_scale(self._scale_before_presentation)
            for panel in self.panels.values():
                stop = getattr(panel, "stop_auto_play", None)
                if stop is not None:
                    stop()
            self._auto_played.clear()

    def set_presentation_pace(self, pace: float) -> None:
        """Merges per second the Train panel plays at in presentation mode (0: it waits for you)."""
        self.settings.presentation_pace = pace
        self.pace_actions[pace].setChecked(True)
        if self._presentation:
            self._auto_played.discard(self.current_view())
            self._auto_play(self.current_panel())

    def _auto_play(self, panel: QWidget) -> None:
        """In presentation mode, set a panel that can play (Train) playing at the chosen pace - once
        per presentation, so a presenter who pauses and leaves the tab finds it paused on return."""
        pace = self.settings.presentation_pace
        play = getattr(panel, "auto_play", None)
        view = next((v for v, p in self.panels.items() if p is panel), None)
        if play is None or pace <= 0 or view in self._auto_played:
            return
        self._auto_played.add(view)
        play(pace)

    def _on_tab_changed(self, _index: int) -> None:
        if self._presentation:
            self._auto_play(self.current_panel())

    @property
    def presentation(self) -> bool:
        return self._presentation

    def show_about(self) -> None:
        QMessageBox.about(self, self.tr("About tokviz"), about_html(self.session))

    def _repaint_all(self) -> None:
        for w in self.findChildren(QWidget):
            w.update()

    # ---- remembered state --------------------------------------------------------------------
    def _restore(self) -> None:
        s = self.settings
        geometry = s.window_geometry
        if geometry is not None:
            self.restoreGeometry(geometry)
        self.theme_actions[s.theme].setChecked(True)
        theme.apply_theme(s.theme)
        if s.font_scale != 1.0:
            self.set_font_scale(s.font_scale)
        self.show_view(s.current_view)

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        # Stop every panel's workers before the widgets go away (no "QThread destroyed while running").
        for panel in self.panels.values():
            shutdown = getattr(panel, "shutdown", None)
            if shutdown is not None:
                shutdown()
        if self._presentation:
            self.toggle_presentation(False)
        self.settings.window_geometry = self.saveGeometry()
        self.settings.current_view = self.current_view()
        self.settings.sync()
        super().closeEvent(event)


def about_html(session: Session) -> str:
    """Versions of Qt and the tokenizer libraries, and where each encoder's data came from."""
    import html
    from importlib import metadata

    import PySide6
    from PySide6.QtCore import qVersion

    import tokviz

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    rows = [
        ("tokviz", tokviz.__version__),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("pyqtgraph", version("pyqtgraph")),
        ("tiktoken", version("tiktoken")),
        ("sentencepiece", version("sentencepiece")),
        ("regex", version("regex")),
    ]
    versions = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows)
    encoders = "".join(
        f"<tr><td>{'✓' if s.available else '✗'} {html.escape(s.name)}</td><td>{html.escape(s.reason)}</td></tr>"
        for s in session.registry.statuses()
    )
    return (
        "<h3>tokviz</h3><p>Explore tokenization: train BPE live, inspect token boundaries down to the byte, "
        "compare encoders side by side. Works offline; OpenAI rank files are verified against tiktoken's "
        "pinned SHA-256.</p>"
        f"<table>{versions}</table><h4>Encoder data</h4><table>{encoders}</table>"
    )
