"""The main window: Inspect, Train, Compare, Boundaries and Vocabulary panels as tabs over one shared Session.

It owns what is common to every panel: menus and shortcuts, remembered geometry, theme, font zoom,
presentation mode (F11) and the About box.

A panel is built when it is first needed (its tab shown, its menu opened, or asked for through
:attr:`MainWindow.panels`): the window opens with one panel instead of five, and a panel built late
takes the zoom, theme and splitter sizes the others already have.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QMainWindow,
    QMenu,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tokviz.core import template_process
from tokviz.ui import fonts, theme
from tokviz.ui.common.message_bar import MessageBar
from tokviz.ui.common.model_open import model_file_filter
from tokviz.ui.common.panel_page import PanelPage
from tokviz.ui.common.work import WorkService
from tokviz.ui.i18n import install_translation, language_signal, retranslate_widgets
from tokviz.ui.session import Session
from tokviz.ui.settings import Settings


class PanelSpec(NamedTuple):
    """A tab: its title, where its class lives (imported when the panel is first built) and its menu's
    title. The class is a QWidget taking the Session and implementing the Panel protocol
    (tokviz.ui.common.panel: its menu entries, shutdown, screenshot preparation, auto-play)."""

    title: str
    module: str
    cls: str
    menu: str


PANELS = {
    "inspect": PanelSpec(QT_TRANSLATE_NOOP("MainWindow", "Inspect"), "tokviz.ui.inspect.panel", "InspectPanel",
                         QT_TRANSLATE_NOOP("MainWindow", "&Inspect")),
    "train": PanelSpec(QT_TRANSLATE_NOOP("MainWindow", "Train"), "tokviz.ui.train.panel", "TrainPanel",
                       QT_TRANSLATE_NOOP("MainWindow", "&Train")),
    "compare": PanelSpec(QT_TRANSLATE_NOOP("MainWindow", "Compare"), "tokviz.ui.compare.panel", "ComparePanel",
                         QT_TRANSLATE_NOOP("MainWindow", "&Compare")),
    "boundaries": PanelSpec(QT_TRANSLATE_NOOP("MainWindow", "Boundaries"), "tokviz.ui.boundaries.panel",
                            "BoundariesPanel", QT_TRANSLATE_NOOP("MainWindow", "&Boundaries")),
    "vocab": PanelSpec(QT_TRANSLATE_NOOP("MainWindow", "Vocabulary"), "tokviz.ui.vocab.panel", "VocabPanel",
                       QT_TRANSLATE_NOOP("MainWindow", "V&ocabulary")),
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


class _EnabledMirror(QObject):
    """Keeps a menu action enabled exactly when the panel button it stands for is."""

    def __init__(self, button: QAbstractButton, action: QAction):
        super().__init__(action)
        self._action = action
        action.setEnabled(button.isEnabled())
        button.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.EnabledChange:
            self._action.setEnabled(obj.isEnabled())
        return False


class _BuiltOnDemand(Mapping):
    """``view -> value`` for every view; reading one builds that view's panel first."""

    def __init__(self, window: MainWindow, value) -> None:
        self._window = window
        self._value = value

    def __getitem__(self, view: str):
        if view not in PANELS:
            raise KeyError(view)
        return self._value(view, self._window.panel(view))

    def __iter__(self) -> Iterator[str]:
        return iter(PANELS)

    def __len__(self) -> int:
        return len(PANELS)


class MainWindow(QMainWindow):
    modelOpened = Signal(bool, str)  # a model file was opened (True, encoder name) or not (False, message)

    def __init__(self, session: Session | None = None, settings: Settings | None = None):
        super().__init__()
        self.setWindowTitle("tokviz")
        if session is None:  # the window owns the session and, through it, the one background-work service
            session = Session(parent=self, settings=settings, work=WorkService(self))
        self.session = session
        self.work = session.work
        # chat templates render in a child process: closing ends it, so a render in flight ends too
        self.work.add_process(template_process.stop)
        self.settings = session.settings
        self._presentation = False
        self._scale_before_presentation = 1.0
        app = QApplication.instance()
        self._base_point_size = float(app.property("tokvizBasePointSize") or app.font().pointSizeF() or 10.0)

        # a window-wide message bar over the panels, for what the File menu does (opening a model)
        central = QWidget(self)
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        self.message_bar = MessageBar(central)
        self.tabs = QTabWidget(central)
        self.tabs.setDocumentMode(True)
        box.addWidget(self.message_bar)
        box.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self._model_tasks = self.work.channel(self, "models")  # parses run detached (see open_model_in_background)
        self._opening: list[str] = []  # names of the model files still parsing
        self.ask_pattern = None  # the question for a rank file's pattern (None: a dialog; tests answer it)
        self._auto_played: set[str] = set()  # panels presentation mode has set playing
        # one page per tab; a panel goes into its page when first needed (see panel()); a page scrolls
        # where the window is smaller than its panel's controls need, so no panel widens the window
        self._pages: dict[str, PanelPage] = {}
        self._built: dict[str, QWidget] = {}
        self._unrestored: set[str] = set()  # built, but not yet on screen to take its splitter sizes
        for view, spec in PANELS.items():
            page = PanelPage(self.tabs)
            self._pages[view] = page
            self.tabs.addTab(page, self.tr(spec.title))
        # every panel by view name, built on first reading; menu actions likewise
        self.panels: Mapping[str, QWidget] = _BuiltOnDemand(self, lambda _view, panel: panel)
        self.panel_actions: Mapping[str, dict[str, QAction]] = _BuiltOnDemand(
            self, lambda view, _panel: self._panel_actions[view])
        self._build_menus()
        language_signal().changed.connect(self._retranslate)
        self.tabs.currentChanged.connect(self._on_tab_changed)
        # "Follow system" follows the system while running too (the desktop switching to dark at dusk).
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._on_system_color_scheme)
        self._follows_system = True
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

    def _panel_action(self, view: str, text: str, slot, shortcuts=(), button: QAbstractButton | None = None) -> QAction:
        """A menu action for one panel: it shows that panel's tab, then does what ``slot`` does (or
        clicks ``button``, whose enabled state it follows)."""
        panel = self._built[view]
        act = QAction(text, self)
        if shortcuts:
            act.setShortcuts([QKeySequence(k) for k in shortcuts])
        # A panel's keys act only while focus is inside that panel: Esc or F5 pressed on another tab
        # must not cancel or start a training the user is not looking at. The menu entry works anywhere.
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        panel.addAction(act)

        def run(_checked: bool = False) -> None:
            self.show_view(view)
            if button is not None:
                button.click()  # a disabled button ignores the click, like the user's
            else:
                slot()

        act.triggered.connect(run)
        if button is not None:
            _EnabledMirror(button, act)
        return act

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(self.tr("&File"))
        # Ctrl+O opens the current panel's own file (text, corpus); a model file is Ctrl+Shift+O.
        file_menu.addAction(self._action(self.tr("&Open model file…"), self.open_model_file, "Ctrl+Shift+O"))
        file_menu.addSeparator()
        quit_action = self._action(self.tr("&Quit"), self.close)
        # StandardKey.Quit has no binding on some platforms (Windows): Ctrl+Q everywhere then.
        quit_action.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.Quit) or [QKeySequence("Ctrl+Q")])
        file_menu.addAction(quit_action)

        view_menu = bar.addMenu(self.tr("&View"))
        for i, (view, spec) in enumerate(PANELS.items()):
            view_menu.addAction(self._action(self.tr(spec.title), lambda _=False, v=view: self.show_view(v),
                                             f"Ctrl+{i + 1}"))
        view_menu.addSeparator()
        self.presentation_action = self._action(self.tr("&Presentation mode"), self.toggle_presentation, "F11",
                                                checkable=True)
        view_menu.addAction(self.presentation_action)
        pace_menu = view_menu.addMenu(self.tr("Presentation p&ace"))
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
        view_menu.addAction(self._action(self.tr("Zoom &out"), lambda: self.zoom(1 / 1.1),
                                         QKeySequence.StandardKey.ZoomOut))
        view_menu.addAction(self._action(self.tr("&Reset zoom"), lambda: self.set_font_scale(1.0), "Ctrl+0"))
        theme_menu = view_menu.addMenu(self.tr("&Theme"))
        group = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        themes = (("system", self.tr("Follow &system")), ("light", self.tr("&Light")), ("dark", self.tr("&Dark")))
        for name, label in themes:
            act = self._action(label, lambda _=False, n=name: self.set_theme(n), checkable=True)
            group.addAction(act)
            theme_menu.addAction(act)
            self.theme_actions[name] = act

        language_menu = view_menu.addMenu(self.tr("&Language"))
        lang_group = QActionGroup(self)
        self.language_actions: dict[str, QAction] = {}
        for code, label in (("system", self.tr("Follow &system")), ("en", "English"), ("ko", "한국어")):
            act = self._action(label, lambda _=False, c=code: self.set_language(c), checkable=True)
            act.setChecked(self.settings.language == code)
            lang_group.addAction(act)
            language_menu.addAction(act)
            self.language_actions[code] = act

        self._panel_actions: dict[str, dict[str, QAction]] = {}
        self._panel_menus: dict[str, QMenu] = {}
        for view, spec in PANELS.items():
            menu = bar.addMenu(self.tr(spec.menu))
            # its entries are the panel's own buttons: opening the menu builds the panel
            menu.aboutToShow.connect(lambda v=view: self.panel(v))
            self._panel_menus[view] = menu

        help_menu = bar.addMenu(self.tr("&Help"))
        help_menu.addAction(self._action(self.tr("&About tokviz"), self.show_about))

    def _fill_panel_menu(self, view: str, panel: QWidget) -> None:
        """The panel's menu: every action of its buttons (keys listed in the menu)."""
        menu = self._panel_menus[view]
        acts = self._panel_actions[view] = {}
        for entry in panel.menu_actions():
            if entry is None:
                menu.addSeparator()
                continue
            acts[entry.key] = self._panel_action(view, entry.text, entry.slot, entry.shortcuts, entry.button)
            menu.addAction(acts[entry.key])

    # ---- views -------------------------------------------------------------------------------
    def panel(self, view: str) -> QWidget:
        """The panel of ``view``, built now if it was not yet."""
        panel = self._built.get(view)
        if panel is None:
            panel = self._build_panel(view)
        return panel

    def built_views(self) -> list[str]:
        """The views whose panels exist (in tab order)."""
        return [view for view in PANELS if view in self._built]

    def _build_panel(self, view: str) -> QWidget:
        spec = PANELS[view]
        module = importlib.import_module(spec.module)
        theme.configure_plots()  # the module may have loaded pyqtgraph (Train's and Compare's plots)
        panel = getattr(module, spec.cls)(self.session)
        self._built[view] = panel
        self._pages[view].set_panel(panel)
        panel.show()  # now, not at the next event-loop turn (a child added to a shown widget waits for one)
        self._fill_panel_menu(view, panel)
        self._unrestored.add(view)
        self._restore_splitters(view)
        return panel

    def _restore_splitters(self, view: str) -> None:
        """Give a panel built late its remembered splitter sizes once its tab is on screen: a hidden
        splitter has no size yet, and sizes restored then come out scaled when it gets one."""
        if view not in self._unrestored or not self._pages[view].isVisible():
            return
        self._unrestored.discard(view)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the panel laid out in its tab first
        for name, splitter in self._splitters_of(view, self._built[view]).items():
            saved = self.settings.splitter_state(name)
            if saved is not None:
                splitter.restoreState(saved)

    def show_view(self, view: str) -> QWidget:
        self.tabs.setCurrentWidget(self._pages[view])  # builds the panel (the tab's first showing)
        panel = self.panel(view)
        self._restore_splitters(view)
        if self.isVisible():  # laid out at its size now, as the user sees it (scripts read sizes next)
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self._focus_into(panel)
        return panel

    def _focus_into(self, panel: QWidget) -> None:
        """Put keyboard focus inside ``panel`` (its last focused child) unless it is there already, so
        the panel's keys (F5, Esc, Ctrl+O) work right after switching tabs."""
        focus = QApplication.focusWidget()
        if focus is not None and (focus is panel or panel.isAncestorOf(focus)):
            return
        target = panel.focusWidget()
        if target is None or not panel.isAncestorOf(target):
            target = panel
        target.setFocus(Qt.FocusReason.OtherFocusReason)

    def current_panel(self) -> QWidget:
        return self.panel(self.current_view())

    def current_view(self) -> str:
        current = self.tabs.currentWidget()
        return next(v for v, page in self._pages.items() if page is current)

    # ---- actions -------------------------------------------------------------------------------
    def open_text_file(self, path: str | None = None) -> bool:
        """Load a UTF-8 text file into the Inspector (a dialog asks when no path is given)."""
        if not path:
            path, _ = QFileDialog.getOpenFileName(self, self.tr("Open text file"), "",
                                                  self.tr("Text (*.txt *.md *.py *.json);;All files (*)"))
            if not path:
                return False
        self.show_view("inspect")
        return bool(self.panels["inspect"].open_text_file(path))

    def open_model_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open model file"), "", model_file_filter()
        )
        if path:
            self.add_model_file(path)

    def add_model_file(self, path: str):
        """Open a model file as an encoder for every panel. The file is parsed on a worker thread (a
        200k-rank or hostile file must not freeze the window; only a rank file's pattern question is
        asked here); ``modelOpened(ok, name or message)`` says how it went. A bad file gets a message
        in the window's message bar, nothing else changes. Returns the parse's Task."""
        from tokviz.ui.common.model_open import ask_pattern_dialog, open_model_in_background

        name = Path(path).name
        self._opening.append(name)
        self._show_opening()
        return open_model_in_background(self._model_tasks, path, self.ask_pattern or ask_pattern_dialog(self),
                                        lambda encoder, problem: self._model_opened(encoder, problem, name))

    def _show_opening(self) -> None:
        # files opened one after the other parse side by side: the bar names those still parsing
        self.message_bar.show_message(self.tr("Opening {name}…").format(name=", ".join(self._opening)), "info")

    def _model_opened(self, encoder, problem: str | None, name: str = "") -> None:
        if name in self._opening:
            self._opening.remove(name)
        if encoder is None:
            self.message_bar.show_message(self.tr("Cannot open model: {err}").format(err=problem), "error")
            self.modelOpened.emit(False, problem or "")
            return
        if self._opening:
            self._show_opening()
        else:
            self.message_bar.clear()
        self.session.add_encoder(encoder)
        self.statusBar().showMessage(self.tr("Added encoder {name} ({size} tokens)").format(
            name=encoder.name, size=f"{encoder.vocab_size:,}"), 5000)
        self.modelOpened.emit(True, encoder.name)

    def set_theme(self, name: str) -> None:
        dark = theme.apply_theme(name)
        self.settings.theme = name
        self.theme_actions[name].setChecked(True)
        self.session.themeChanged.emit(dark)
        self._repaint_all()

    def _on_system_color_scheme(self, _scheme=None) -> None:
        # Only when it changes the result: applying a palette must never loop back into a change.
        if self.settings.theme == "system" and theme.system_prefers_dark() != theme.is_dark():
            self.set_theme("system")

    def set_language(self, code: str) -> None:
        """Remember the interface language and switch to it now: every panel listens to the i18n
        layer's ``language_signal`` and retranslates itself (the window its menus and tabs)."""
        self.settings.language = code
        self.language_actions[code].setChecked(True)
        install_translation(code)

    def _retranslate(self, _language: str = "") -> None:
        retranslate_widgets(self.menuBar(), ("MainWindow",))
        for i, spec in enumerate(PANELS.values()):
            self.tabs.setTabText(i, self.tr(spec.title))

    def zoom(self, factor: float) -> None:
        self.set_font_scale(fonts.scale() * factor)

    def set_font_scale(self, scale: float) -> None:
        fonts.set_scale(scale)
        QApplication.instance().setFont(fonts.ui_font(self._base_point_size))
        if not self._presentation:
            self.settings.font_scale = fonts.scale()
        self.session.fontScaleChanged.emit(fonts.scale())
        self._repaint_all()

    def toggle_presentation(self, on: bool | None = None, *, full_screen: bool = True) -> None:
        """Presentation mode: full screen, large fonts, no menu or status bar (F11 leaves it).

        ``full_screen=False`` keeps the window's size (screenshots: offscreen has no real screen)."""
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
            if full_screen:
                self.showFullScreen()
            self.set_font_scale(max(fonts.scale(), 1.0) * PRESENTATION_SCALE)
            self._auto_play(self.current_panel())
        else:
            self.menuBar().show()
            self.statusBar().show()
            self.showNormal()
            self.set_font_scale(self._scale_before_presentation)
            for panel in self._built.values():
                panel.stop_auto_play()
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
        view = next((v for v, p in self._built.items() if p is panel), None)
        if pace <= 0 or view in self._auto_played:
            return
        if panel.auto_play(pace):
            self._auto_played.add(view)

    def _on_tab_changed(self, _index: int) -> None:
        self._focus_into(self.current_panel())  # (built now if it is the tab's first showing)
        self._restore_splitters(self.current_view())
        if self._presentation:
            self._auto_play(self.current_panel())

    @property
    def presentation(self) -> bool:
        return self._presentation

    def show_about(self) -> AboutDialog:
        dialog = AboutDialog(self.session, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

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
        state = s.window_state
        if state is not None:
            self.restoreState(state)
        # the font scale first: the Inspector fits its splitter to the layers at a new scale, and
        # the sizes saved at that scale must win
        if s.font_scale != 1.0:
            self.set_font_scale(s.font_scale)
        self.show_view(s.current_view)  # builds that panel; its splitters are restored when it is shown

    def splitters(self) -> dict[str, QSplitter]:
        """Every built panel's splitters by a stable name: ``view/objectName`` when the panel named it,
        else ``view/N`` in construction order (the order findChildren walks)."""
        named: dict[str, QSplitter] = {}
        for view, panel in self._built.items():
            if view not in self._unrestored:  # (never shown: it would save sizes the user never saw)
                named.update(self._splitters_of(view, panel))
        return named

    @staticmethod
    def _splitters_of(view: str, panel: QWidget) -> dict[str, QSplitter]:
        return {f"{view}/{splitter.objectName() or i}": splitter
                for i, splitter in enumerate(panel.findChildren(QSplitter))}

    def showEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().showEvent(event)
        self._restore_splitters(self.current_view())
        self._focus_into(self.current_panel())

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if self._follows_system:  # a closed window no longer touches the app's palette
            QGuiApplication.styleHints().colorSchemeChanged.disconnect(self._on_system_color_scheme)
            self._follows_system = False
        # Stop every panel's workers before the widgets go away (no "QThread destroyed while running").
        for panel in self._built.values():
            panel.shutdown()
        # every job is cancelled, a running call (a parse, an encode) is never waited for: its outcome is
        # dropped when it ends (tokviz.ui.common.work's shutdown policy)
        self.work.shutdown()
        if self._presentation:
            self.toggle_presentation(False)
        self.settings.window_geometry = self.saveGeometry()
        self.settings.window_state = self.saveState()
        for name, splitter in self.splitters().items():  # a panel never built keeps the sizes saved before
            self.settings.set_splitter_state(name, splitter.saveState())
        self.settings.current_view = self.current_view()
        self.settings.sync()
        super().closeEvent(event)


def about_html(session: Session) -> str:
    """Versions of Qt and the tokenizer libraries, and where each encoder's data came from, as
    two tables (one cell per value, so long names never run into their versions)."""
    import html
    from importlib import metadata

    import PySide6
    from PySide6.QtCore import qVersion

    from tokviz.core.package_data import VERSION
    from tokviz.ui.common.encoder_names import shown_source

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return QCoreApplication.translate("MainWindow", "not installed")

    rows = [
        ("tokviz", VERSION),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("pyqtgraph", version("pyqtgraph")),
        ("tiktoken", version("tiktoken")),
        ("sentencepiece", version("sentencepiece")),
        ("regex", version("regex")),
    ]
    cell = 'style="padding: 2px 14px 2px 0; vertical-align: top"'
    head = 'style="padding: 2px 14px 2px 0; text-align: left"'

    def row(*values: str, tag: str = "td") -> str:
        style = head if tag == "th" else cell
        return "<tr>" + "".join(f"<{tag} {style}>{v}</{tag}>" for v in values) + "</tr>"

    versions = row(html.escape(QCoreApplication.translate("MainWindow", "Component")),
                   html.escape(QCoreApplication.translate("MainWindow", "Version")), tag="th")
    versions += "".join(row(html.escape(k), html.escape(v)) for k, v in rows)
    encoders = row("", *(html.escape(h) for h in (
        QCoreApplication.translate("MainWindow", "Encoder"), QCoreApplication.translate("MainWindow", "Family"),
        QCoreApplication.translate("MainWindow", "Tokens"), QCoreApplication.translate("MainWindow", "Data source"))),
        tag="th")
    for st in session.registry.statuses():
        mark = "✓" if st.available else "✗"
        tip = (QCoreApplication.translate("MainWindow", "available") if st.available
               else QCoreApplication.translate("MainWindow", "unavailable"))
        size = f"{st.vocab_size:,}" if st.vocab_size else "—"
        encoders += row(f'<span title="{html.escape(tip)}">{mark}</span>', html.escape(st.name),
                        html.escape(st.family), size, html.escape(shown_source(st.reason)))
    intro = QCoreApplication.translate(
        "MainWindow",
        "Explore tokenization: train BPE live, inspect token boundaries down to the byte, compare encoders "
        "side by side. Works offline; OpenAI rank files are verified against tiktoken's pinned SHA-256.")
    return (
        f"<h3>tokviz {html.escape(VERSION)}</h3><p>{html.escape(intro)}</p>"
        f'<table cellspacing="0">{versions}</table>'
        f"<h4>{html.escape(QCoreApplication.translate('MainWindow', 'Encoder data'))}</h4>"
        f'<table cellspacing="0">{encoders}</table>'
    )


class AboutDialog(QDialog):
    """The About box: a resizable dialog (a QMessageBox squeezes the tables into a narrow column)."""

    def __init__(self, session: Session, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("MainWindow", "About tokviz"))
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        self.browser.setHtml(about_html(session))
        layout.addWidget(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(900, 560)
