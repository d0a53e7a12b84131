"""The main window: Inspect, Train and Compare panels as tabs over one shared Session."""

from __future__ import annotations

import importlib

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QTabWidget, QWidget

from tokviz.ui.session import Session

# view name -> (tab title, module, class). Each panel is a QWidget taking the Session; it may
# implement shutdown() (stop workers; called on close) and prepare_screenshot(options).
PANELS = {
    "inspect": ("Inspect", "tokviz.ui.inspect", "InspectPanel"),
    "train": ("Train", "tokviz.ui.train", "TrainPanel"),
    "compare": ("Compare", "tokviz.ui.compare", "ComparePanel"),
}


class PendingPanel(QLabel):
    """Shown in place of a panel whose module is not built yet (it says so)."""

    def __init__(self, title: str, parent: QWidget | None = None):
        super().__init__(f"The {title} panel is not built yet.", parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)

    def prepare_screenshot(self, options) -> None:
        pass


class MainWindow(QMainWindow):
    def __init__(self, session: Session | None = None):
        super().__init__()
        self.setWindowTitle("tokviz")
        self.session = session if session is not None else Session(parent=self)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
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
            self.tabs.addTab(panel, title)
        self._build_menus()
        self.resize(1280, 820)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        view_menu = self.menuBar().addMenu("&View")
        for i, (view, (title, _, _)) in enumerate(PANELS.items()):
            act = QAction(title, self)
            act.setShortcut(QKeySequence(f"Ctrl+{i + 1}"))
            act.triggered.connect(lambda _=False, v=view: self.show_view(v))
            view_menu.addAction(act)

    def show_view(self, view: str) -> QWidget:
        panel = self.panels[view]
        self.tabs.setCurrentWidget(panel)
        return panel

    def current_panel(self) -> QWidget:
        return self.tabs.currentWidget()

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        # Stop every panel's workers before the widgets go away (no "QThread destroyed while running").
        for panel in self.panels.values():
            shutdown = getattr(panel, "shutdown", None)
            if shutdown is not None:
                shutdown()
        super().closeEvent(event)
