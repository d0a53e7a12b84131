"""The Vocabulary panel: a production vocabulary laid open (issue 26) — the merge tree of any token,
tokens unreachable or unused, what two vocabularies share, how numbers and indentation split.

The truth lives in :class:`~tokviz.ui.vocab.state.VocabState`; this panel builds the tabs, turns their
signals into intents, runs what the state wants on the session's work service (one latest-wins
channel per kind of work, each waiting on the panel's vocabulary process, where the work is done:
:mod:`tokviz.ui.vocab.process`) and renders results as they arrive. Nothing runs while the panel is hidden:
a window opening on another tab loads no 200k-token vocabulary.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.atomic import write_atomic
from tokviz.core.package_data import resources_dir
from tokviz.ui.common.encoder_names import shown_name
from tokviz.ui.common.image_export import save_widget_png
from tokviz.ui.common.message_bar import MessageBar
from tokviz.ui.common.panel import PanelAction
from tokviz.ui.fonts import mono_font, ui_font
from tokviz.ui.i18n import follow_language
from tokviz.ui.theme import is_dark
from tokviz.ui.vocab.process import VocabWorker, run_outside
from tokviz.ui.vocab.state import KINDS, TAB_KINDS, TABS, Outcome, Request, VocabState
from tokviz.ui.vocab.views import VocabDiffTab, VocabMapsTab, VocabReachTab, VocabTreeTab

CONTEXTS = (
    "VocabPanel",
    "VocabTreeTab",
    "VocabReachTab",
    "VocabDiffTab",
    "VocabMapsTab",
    "VocabRowsModel",
    "SplitHeatmap",
)
DEFAULT_ENCODER = "o200k_base"
DEFAULT_QUERY = "생각"


def offered_corpora() -> list[tuple[str, str]]:
    """(name, path) of the corpora shipped with tokviz: the demo corpus and the parallel sentences."""
    res = resources_dir()
    found = [("demo.txt", str(res / "corpora" / "demo.txt"))]
    found += [(f"parallel/{p.name}", str(p)) for p in sorted((res / "parallel").glob("*.txt"))]
    return [(n, p) for n, p in found if Path(p).is_file()]


class VocabPanel(QWidget):
    """``worker``: the vocabulary process to compute in (tests share one); by default the panel starts
    its own, which ends with the panel or the window."""

    def __init__(self, session, parent: QWidget | None = None, worker: VocabWorker | None = None):
        super().__init__(parent)
        self.session = session
        names = session.registry.names()
        self.state = VocabState(names)
        if DEFAULT_ENCODER in names:
            self.state.choose_encoder(DEFAULT_ENCODER)
        self.state.search(DEFAULT_QUERY)
        self.channels = {k: session.work.channel(self, k) for k in (*KINDS, "filter")}
        # the work runs in a child process (see tokviz.ui.vocab.process), started on the first request
        self._owns_worker = worker is None
        self.worker = worker if worker is not None else VocabWorker()
        if self._owns_worker:
            session.work.add_process(self.worker.shutdown)
        self._filter = ""
        self._drawn: dict[str, tuple] = {}  # kind -> what its view shows now (see _render)
        self._build()
        self.state.events.connect(self._on_state)
        session.encodersChanged.connect(self._on_encoders)
        session.themeChanged.connect(self._on_theme)
        session.fontScaleChanged.connect(self._on_font_scale)
        self._on_font_scale()
        self._on_theme(is_dark())  # a panel built after a switch to the dark theme starts dark
        follow_language(self, CONTEXTS, then=self.recompose_texts)
        self._fill_encoders()
        self.recompose_texts()

    def _build(self) -> None:
        box = QVBoxLayout(self)
        row = QHBoxLayout()
        self.encoder_label = QLabel()
        row.addWidget(self.encoder_label)
        self.encoder_combo = QComboBox()
        self.encoder_combo.setMinimumContentsLength(18)
        self.encoder_combo.currentIndexChanged.connect(self._on_encoder_combo)
        row.addWidget(self.encoder_combo)
        self.status = QLabel()
        row.addWidget(self.status, 1)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        row.addWidget(self.progress)
        box.addLayout(row)
        self.message_bar = MessageBar(self)
        box.addWidget(self.message_bar)
        self.tabs = QTabWidget()
        self.tree_tab = VocabTreeTab()
        self.reach_tab = VocabReachTab(offered_corpora())
        self.diff_tab = VocabDiffTab()
        self.maps_tab = VocabMapsTab()
        for tab in (self.tree_tab, self.reach_tab, self.diff_tab, self.maps_tab):
            self.tabs.addTab(tab, "")
        box.addWidget(self.tabs, 1)
        self.tree_tab.search_edit.setText(self.state.query)
        self.tree_tab.searched.connect(self.state.search)
        self.tree_tab.picked.connect(self.state.select)
        self.reach_tab.corpusChosen.connect(lambda path: self.state.choose_corpus(path or None))
        self.reach_tab.openCorpus.connect(self._ask_corpus)
        self.reach_tab.unreachable.activated.connect(self.show_token)
        self.reach_tab.never.activated.connect(self.show_token)
        self.reach_tab.once.activated.connect(self.show_token)
        self.diff_tab.secondChosen.connect(lambda name: self.state.choose_second(name or None))
        self.diff_tab.filterChanged.connect(self.filter_diff)
        for box_ in self.diff_tab.columns()[:2]:
            box_.activated.connect(self.show_token)
        self.maps_tab.kindChosen.connect(self.state.choose_map)
        self.maps_tab.png_button.clicked.connect(self._ask_export_png)
        self.maps_tab.csv_button.clicked.connect(self._ask_export_csv)
        self.tabs.currentChanged.connect(lambda i: self.state.show_tab(TABS[i]))

    # ---- encoders ----------------------------------------------------------------------------
    def _fill_encoders(self) -> None:
        names = self.state.names
        self.encoder_combo.blockSignals(True)
        self.encoder_combo.clear()
        for name in names:
            self.encoder_combo.addItem(shown_name(name), name)
        self.encoder_combo.setCurrentIndex(max(0, self.encoder_combo.findData(self.state.encoder)))
        self.encoder_combo.blockSignals(False)
        self.diff_tab.set_choices([(shown_name(n), n) for n in names], self.state.second)

    def _on_encoders(self) -> None:
        self.state.set_names(self.session.registry.names())
        self._fill_encoders()

    def _on_encoder_combo(self, _index: int) -> None:
        name = self.encoder_combo.currentData()
        if name:
            self.state.choose_encoder(name)

    def set_encoders(self, first: str, second: str | None = None) -> None:
        """Examine ``first`` (and diff it with ``second``), as choosing them in the lists does."""
        self.encoder_combo.setCurrentIndex(self.encoder_combo.findData(first))
        i = self.diff_tab.second_combo.findData(second) if second else 0
        self.diff_tab.second_combo.setCurrentIndex(max(i, 0))

    def _on_font_scale(self, _scale: float | None = None) -> None:
        """Zoom and presentation mode: the tree's labels and the hex under them grow with the rest, as
        the Train panel's tree does (its fonts were fixed when the panel was built)."""
        self.tree_tab.tree_view.set_fonts(mono_font(12), ui_font(9))

    def show_token(self, token_id: int) -> None:
        """Open the merge tree of ``token_id`` (a row double-clicked in a list)."""
        self.tree_tab.search_edit.setText(f"#{token_id}")
        self.tree_tab.search_now()
        self.tabs.setCurrentWidget(self.tree_tab)

    # ---- state -> views and work ---------------------------------------------------------------
    def _on_state(self, name: str, value) -> None:
        if name == "result":
            self._render(value)
        elif name == "job":
            self._show_status()
        elif name == "names":
            pass  # names may stand for other objects now: the jobs below find out (from the cache if not)
        else:
            for kind in KINDS:
                self._render(kind)
        self._schedule()

    def _render(self, kind: str, force: bool = False) -> None:
        """Show what the state holds for ``kind``; nothing is redrawn when that has not changed (every
        change of the state asks each kind: resetting three 100,000-row tables and the 10,000-cell
        heatmap on each keystroke or selection cost the GUI thread tens of ms)."""
        s = self.state
        shown = self._drawn_inputs(kind)
        drawn = self._drawn.get(kind)
        if not force and drawn is not None and drawn[0] is shown[0] and drawn[1:] == shown[1:]:
            self._show_status()
            return
        self._drawn[kind] = shown
        if kind == "search":
            self.tree_tab.show_matches(s.result("search"), s.selected)
        elif kind == "tree":
            self.tree_tab.show_tree(s.result("tree"))
        elif kind == "reach":
            self.reach_tab.show_reach(s.result("reach"), s.encoder or "")
        elif kind == "use":
            self.reach_tab.show_use(s.result("use"))
        elif kind == "diff":
            self.diff_tab.show_diff(s.result("diff"), shown_name(s.encoder or ""), shown_name(s.second or ""))
            if self._filter:
                self.filter_diff(self._filter)
        elif kind == "maps":
            self.maps_tab.show_map(s.result("maps"))
        self._show_status()

    def _drawn_inputs(self, kind: str) -> tuple:
        """What the view of ``kind`` is drawn from: the result (compared by identity) and the choices
        its text names."""
        s = self.state
        extra = {"search": (s.selected,), "reach": (s.encoder,), "diff": (s.encoder, s.second)}.get(kind, ())
        return (s.result(kind), *extra)

    def _schedule(self) -> None:
        if not self.isVisible():
            return
        for request in self.state.wanted():
            self._start(request)

    def _start(self, request: Request) -> None:
        registry, state, work, worker = self.session.registry, self.state, self.session.work, self.worker

        def job(task):
            # a diff of two 200k vocabularies arrives as millions of objects: a collection set off by
            # them would scan every object of the app holding the GIL (seconds of frozen window)
            with work.collection_paused():
                return run_outside(request, registry, task, state.cached, worker)

        self.state.started(request)
        self.channels[request.kind].start(
            job,
            finished=self._on_outcome,
            failed=lambda message, r=request: self._on_failed(r, message),
            progressed=lambda payload, r=request: state.progress(r, payload[0], payload[1]),
        )

    def _on_outcome(self, outcome: Outcome | None) -> None:
        if outcome is not None:
            self.state.deliver(outcome)

    def _on_failed(self, request: Request, message: str) -> None:
        if self.state.fail(request, message):
            self.message_bar.show_message(message, "error")

    def _show_status(self) -> None:
        running = [self.state.jobs[k] for k in TAB_KINDS[self.state.tab] if self.state.jobs[k].status == "running"]
        if not running:
            self.progress.hide()
            self.status.setText("")
            return
        job = running[0]
        self.progress.setVisible(True)
        self.progress.setRange(0, job.total if job.total else 0)
        if job.total:
            self.progress.setValue(job.done)
        self.status.setText(self.tr("Working on {encoder}…").format(encoder=shown_name(self.state.encoder or "")))

    def filter_diff(self, query: str) -> None:
        """Keep the diff's rows whose token or hex bytes contain ``query`` (searched in the worker)."""
        self._filter = query
        result = self.state.result("diff")
        if result is None:
            return
        tables = (result.shared, result.only_first, result.only_second)

        def done(found) -> None:
            if self.state.result("diff") is not result:
                return  # another diff is shown now
            for box, rows in zip(self.diff_tab.columns(), found, strict=True):
                box.model.set_matches(rows if query.strip() else None)

        self.channels["filter"].start(lambda _task: [t.matching(query) for t in tables], finished=done)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().showEvent(event)
        self._schedule()

    # ---- texts, theme ---------------------------------------------------------------------------
    def recompose_texts(self) -> None:
        self.encoder_label.setText(self.tr("Vocabulary:"))
        for i, title in enumerate(
            (
                self.tr("Merge tree"),
                self.tr("Reachability and use"),
                self.tr("Diff"),
                self.tr("Numbers and indentation"),
            )
        ):
            self.tabs.setTabText(i, title)
        for tab in (self.tree_tab, self.reach_tab, self.diff_tab, self.maps_tab):
            tab.retranslate()
        self._fill_encoders()
        for kind in KINDS:
            self._render(kind, force=True)

    def _on_theme(self, dark: bool) -> None:
        self.tree_tab.tree_view.dark = self.maps_tab.heatmap.dark = bool(dark)
        self.update()

    # ---- files ----------------------------------------------------------------------------------
    def _ask_corpus(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open corpus"), "", self.tr("Text, one text per line (*.txt);;All files (*)")
        )
        if path:
            self.reach_tab.add_corpus(Path(path).name, path)

    def export_png(self, path: str | Path) -> Path:
        """The heatmap on screen as a PNG (written atomically)."""
        return save_widget_png(self.maps_tab.heatmap, path)

    def export_csv(self, path: str | Path) -> Path:
        """The map on screen as CSV rows (``tokviz vocab maps --csv`` writes the same), atomically."""
        split_map = self.maps_tab.split_map  # what the user sees
        if split_map is None:
            raise ValueError("no map is shown")
        return write_atomic(path, split_map.csv(), encoding="utf-8")

    def _ask_export_png(self) -> None:
        self._ask_save(self.tr("Export heatmap as PNG"), "PNG (*.png)", ".png", self.export_png)

    def _ask_export_csv(self) -> None:
        self._ask_save(self.tr("Export map as CSV"), "CSV (*.csv)", ".csv", self.export_csv)

    def _ask_save(self, title: str, filters: str, suffix: str, write) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, title, f"{self.state.encoder}-{self.state.map_kind}{suffix}", filters
        )
        if not path:
            return
        try:
            write(path)
        except (OSError, ValueError) as err:
            self.message_bar.show_message(self.tr("Cannot write {path}: {err}").format(path=path, err=err), "error")
            return
        self.message_bar.show_message(self.tr("Saved {path}").format(path=path), "info")

    # ---- waiting (tests, screenshots, the benchmark) -------------------------------------------------
    def busy(self) -> bool:
        return any(c.busy for c in self.channels.values())

    def wait_until_idle(self, timeout: float = 120.0) -> bool:
        """Spin the event loop until nothing the tab on screen needs runs or is wanted."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            QApplication.processEvents()
            if not self.busy() and not self.state.wanted():
                QApplication.processEvents()
                if not self.busy() and not self.state.wanted():
                    return True
            time.sleep(0.005)
        return False

    # ---- the Panel protocol ------------------------------------------------------------------------
    def menu_actions(self) -> list[PanelAction | None]:
        return [
            PanelAction(
                "csv",
                QCoreApplication.translate("MainWindow", "Export &CSV…"),
                shortcuts=("Ctrl+Shift+E",),
                button=self.maps_tab.csv_button,
            ),
            PanelAction(
                "png",
                QCoreApplication.translate("MainWindow", "Save &PNG…"),
                shortcuts=("Ctrl+E",),
                button=self.maps_tab.png_button,
            ),
        ]

    def prepare_screenshot(self, args) -> None:
        """``-e A [-e B]``, ``--text QUERY`` and ``--vocab-tab`` choose what the shot shows."""
        names = list(getattr(args, "encoders", None) or [])
        if names:
            self.set_encoders(
                self.session.registry.resolve(names[0]),
                self.session.registry.resolve(names[1]) if len(names) > 1 else None,
            )
        text = getattr(args, "text", None)
        if text:
            self.tree_tab.search_edit.setText(text)
            self.tree_tab.search_now()
        tab = getattr(args, "vocab_tab", None) or ("diff" if len(names) > 1 else "tree")
        self.tabs.setCurrentIndex(TABS.index(tab))
        self.wait_until_idle()
        self.wait_until_idle()  # the search's best match asks for its tree

    def auto_play(self, pace: float) -> bool:
        return False

    def stop_auto_play(self) -> None:
        pass

    def shutdown(self) -> None:
        for channel in self.channels.values():
            channel.close()
        if self._owns_worker:
            self.worker.shutdown()
