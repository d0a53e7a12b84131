"""The Vocabulary panel as a user sees it, on small rank vocabularies (built in milliseconds). The
panels of this module share one vocabulary process, except those that watch their own end."""

from __future__ import annotations

import os
import signal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from tests.support.processes import gone
from tests.support.vocab_encoders import small_encoder
from tokviz.core.encoders.registry import Registry
from tokviz.core.vocab.diff import vocab_diff
from tokviz.core.vocab.maps import number_map
from tokviz.ui.session import Session
from tokviz.ui.vocab import jobs
from tokviz.ui.vocab.panel import VocabPanel
from tokviz.ui.vocab.process import VocabWorker
from tokviz.ui.vocab.views import VocabDiffTab

WAIT_MS = 20_000


@pytest.fixture(scope="module")
def encoders():
    return {"small-a": small_encoder("small-a"), "small-b": small_encoder("small-b", extra=(b"xy", b"xyz"))}


@pytest.fixture(scope="module")
def worker():
    w = VocabWorker()
    yield w
    w.shutdown()


def _registry(encoders) -> Registry:
    registry = Registry()
    for enc in encoders.values():
        registry.add(enc)
    return registry


@pytest.fixture
def panel(qtbot, encoders, worker):
    p = VocabPanel(Session(_registry(encoders)), worker=worker)
    qtbot.addWidget(p)
    p.resize(1200, 800)
    yield p
    p.shutdown()


def _show(qtbot, panel, tab):
    panel.show()
    panel.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: not panel.busy() and not panel.state.wanted(), timeout=WAIT_MS)


def _search(qtbot, tab, query: str, shown) -> None:
    """Search ``query`` as a user does (typed, then Enter) and wait until ``shown()`` holds."""
    tab.search_edit.setText(query)
    tab.search_now()
    qtbot.waitUntil(shown, timeout=WAIT_MS)


def test_a_hidden_panel_computes_nothing(qtbot, encoders):
    p = VocabPanel(Session(_registry(encoders)))
    qtbot.addWidget(p)
    assert not p.isVisible()
    assert not p.busy() and all(job.status == "idle" for job in p.state.jobs.values())
    assert p.worker.pid is None  # not even the vocabulary process is started
    p.shutdown()


def test_the_results_shown_are_computed_outside_the_gui_process(qtbot, panel, monkeypatch):
    # a search computed in this process would fail; the tree still appears: the child computed it
    monkeypatch.setattr(jobs, "search_tokens", lambda *a: (_ for _ in ()).throw(AssertionError("computed here")))
    _show(qtbot, panel, panel.tree_tab)
    _search(qtbot, panel.tree_tab, "것", lambda: panel.tree_tab.drawn_labels()[-1:] == ["것"])
    assert panel.message_bar.text() == ""
    assert panel.worker.pid not in (None, os.getpid())


def test_closing_the_panel_or_the_window_ends_its_vocabulary_process(qtbot, encoders):
    for close in ("panel", "window"):
        p = VocabPanel(Session(_registry(encoders)))
        qtbot.addWidget(p)
        _show(qtbot, p, p.tree_tab)
        pid = p.worker.pid
        assert pid is not None
        if close == "panel":
            p.shutdown()
        else:
            p.session.work.shutdown()  # what the main window's close does
        assert gone(pid), close
        p.shutdown()


def test_a_vocabulary_process_that_dies_mid_request_is_a_message(qtbot, encoders, tmp_path):
    fifo = tmp_path / "corpus.txt"
    os.mkfifo(fifo)  # the child blocks reading it: the use counts are in flight when it is killed
    p = VocabPanel(Session(_registry(encoders)))
    qtbot.addWidget(p)
    try:
        _show(qtbot, p, p.reach_tab)
        p.reach_tab.add_corpus("corpus.txt", str(fifo))
        # the job runs once asked; its child may still be starting on a loaded machine. The job reads as
        # running before its request reaches the child: killed then, the child was the reach job's, and the
        # request started a new one, blocked on the fifo for good (about one run in seven timed out)
        qtbot.waitUntil(lambda: p.state.jobs["use"].status == "running" and p.worker.in_flight
                        and p.worker.pid is not None, timeout=WAIT_MS)
        os.kill(p.worker.pid, signal.SIGKILL)
        qtbot.waitUntil(lambda: "ended unexpectedly" in p.message_bar.text(), timeout=WAIT_MS)
        assert p.state.jobs["use"].status == "failed" and p.reach_tab.use is None
    finally:
        p.shutdown()


def test_a_selection_in_the_diff_survives_a_visit_to_another_tab(qtbot, panel):
    """A tab change or a new selection redraws only what changed: the diff's lists keep their
    selected row (every state change used to reset all three 100,000-row lists)."""
    panel.set_encoders("small-a", "small-b")
    _show(qtbot, panel, panel.diff_tab)
    qtbot.waitUntil(lambda: panel.diff_tab.result is not None, timeout=WAIT_MS)
    view = panel.diff_tab.shared.view
    view.selectRow(3)
    chosen = view.model().index(3, 1).data()
    _show(qtbot, panel, panel.maps_tab)
    _show(qtbot, panel, panel.diff_tab)
    assert [i.row() for i in view.selectionModel().selectedRows()] == [3]
    assert view.model().index(3, 1).data() == chosen


def test_searching_a_token_shows_its_merge_tree_named_by_characters(qtbot, panel):
    _show(qtbot, panel, panel.tree_tab)
    tab = panel.tree_tab
    _search(qtbot, tab, "것", lambda: tab.drawn_labels()[-1:] == ["것"])
    assert tab.drawn_labels() == ["것 1/3", "것 2/3", "것 1–2/3", "것 3/3", "것"]
    assert tab.merge_lines() == [
        "rank 256: 것 byte 1 of 3 + 것 byte 2 of 3 → 것 bytes 1–2 of 3",
        "rank 257: 것 bytes 1–2 of 3 + 것 byte 3 of 3 → 것",
    ]
    assert tab.matches.currentItem().text().startswith("#257")
    # a token no merge builds says so, with the parts the merges stop at
    _search(qtbot, tab, "bcd", lambda: tab.drawn_labels() == ["bcd"])
    assert tab.merge_lines() == ["bcd: not reachable by merges (the merges stop at b + c + d)"]


def test_text_no_token_holds_is_shown_as_the_tokens_it_is_written_as(qtbot, panel):
    _show(qtbot, panel, panel.tree_tab)
    tab = panel.tree_tab
    _search(qtbot, tab, "것이", lambda: tab.drawn_labels()[-1:] == ["것"])
    assert tab.written_note.isVisibleTo(panel)
    assert tab.written_note.text() == "No token holds 것이. It is written as these 4 tokens:"
    # the bytes of 이 (EC 9D B4) are named as the merge tree names them
    assert [tab.matches.item(i).text() for i in range(tab.matches.count())] == [
        "#257  것", "#236  이 byte 1 of 3", "#157  이 byte 2 of 3", "#180  이 byte 3 of 3"]
    assert tab.matches.currentItem().text() == "#257  것"
    # a token the text is written with twice is listed twice; the first is current, and a row picked stays
    _search(qtbot, tab, "것것", lambda: tab.matches.count() == 2)
    assert [tab.matches.item(i).text() for i in range(2)] == ["#257  것", "#257  것"] and tab.matches.currentRow() == 0
    tab.matches.setCurrentRow(1)
    tab.retranslate()  # the list is written again (a language switch)
    assert tab.matches.currentRow() == 1
    # rows named in words at a presentation size show whole: the list widens for them (never past 40%)
    font = tab.matches.font()
    font.setPointSize(22)
    tab.matches.setFont(font)
    _search(qtbot, tab, "것이", lambda: tab.matches.count() == 4)
    assert tab.matches.viewport().width() >= tab.matches.sizeHintForColumn(0)
    assert tab.split.sizes()[0] <= 0.4 * sum(tab.split.sizes()) + 1
    # a text some token holds lists those tokens, without the note
    _search(qtbot, tab, "bc", lambda: tab.drawn_labels()[-1:] == ["abc"])
    assert not tab.written_note.isVisibleTo(panel)


def test_a_token_picked_among_those_a_text_is_written_as_has_its_tree_named_by_that_text(qtbot, panel):
    """겄 (EA B2 84) is written as the token 것 is built from (EA B2) and one byte: that token's tree and
    merges are named by the 겄 it was cut from, as its row is, not by a range of characters it might be."""
    _show(qtbot, panel, panel.tree_tab)
    tab = panel.tree_tab
    _search(qtbot, tab, "겄", lambda: tab.matches.count() == 2 and bool(tab.drawn_labels()))
    assert [tab.matches.item(i).text() for i in range(2)] == ["#256  겄 bytes 1–2 of 3", "#132  겄 byte 3 of 3"]
    assert tab.drawn_labels() == ["겄 1/3", "겄 2/3", "겄 1–2/3"]
    assert tab.merge_lines() == ["rank 256: 겄 byte 1 of 3 + 겄 byte 2 of 3 → 겄 bytes 1–2 of 3"]
    assert tab.info.text() == "#256 겄 bytes 1–2 of 3 · 2 bytes: EA B2"
    tab.matches.setCurrentRow(1)
    qtbot.waitUntil(lambda: tab.drawn_labels() == ["겄 3/3"], timeout=WAIT_MS)
    assert tab.info.text() == "#132 겄 byte 3 of 3 · 1 bytes: 84"
    # the same token searched by its id is a token alone again: its bytes are named by what they could be
    _search(qtbot, tab, "#256", lambda: tab.matches.count() == 1 and tab.drawn_labels()[-1:] != ["겄 1–2/3"])
    assert "겄" not in tab.info.text()


def test_the_tree_grows_with_zoom_and_presentation_mode(qtbot, panel):
    """Ctrl + or presentation mode scales every font: the tree's labels followed only when the panel
    was built after the change (its fonts were fixed at construction)."""
    from tokviz.ui import fonts

    _show(qtbot, panel, panel.tree_tab)
    tab = panel.tree_tab
    _search(qtbot, tab, "것", lambda: tab.drawn_labels()[-1:] == ["것"])
    before = tab.tree_view.tree_height()
    try:
        fonts.set_scale(1.6)
        panel.session.fontScaleChanged.emit(1.6)
        assert tab.tree_view.tree_height() > before * 1.3
    finally:
        fonts.set_scale(1.0)
        panel.session.fontScaleChanged.emit(1.0)
    assert tab.tree_view.tree_height() == before


def test_the_diff_shows_the_counts_core_computes_and_searches_its_columns(qtbot, panel, encoders):
    panel.set_encoders("small-a", "small-b")
    _show(qtbot, panel, panel.diff_tab)
    tab = panel.diff_tab
    qtbot.waitUntil(lambda: tab.result is not None, timeout=WAIT_MS)
    counts = vocab_diff(encoders["small-a"], encoders["small-b"]).counts()
    shown = [box.model.rowCount() for box in tab.columns()]
    assert shown == [counts["shared"], counts["only_first"], counts["only_second"]] == [265, 0, 2]
    assert tab.shared.title.text() == f"Shared ({counts['shared']})"
    assert tab.only_second.title.text() == "Only in small-b (2)"
    assert f"Shared {counts['shared']} ({counts['same_id']} with the same id" in tab.counts.text()
    # a click on a header sorts the whole list (by the order the worker worked out)
    shared = tab.shared.model
    tab.shared.view.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    ids = [shared.value(r, 0) for r in range(shared.rowCount())]
    assert ids == sorted(ids, reverse=True) and len(ids) == counts["shared"]
    tab.shared.view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    tokens = [shared.value(r, 1) for r in range(shared.rowCount())]
    assert tokens == sorted(tokens)
    tab.search_edit.setText("xyz")
    qtbot.waitUntil(lambda: tab.only_second.model.rowCount() == 1, timeout=WAIT_MS)
    assert tab.only_second.model.index(0, 1).data() == "xyz" and tab.shared.model.rowCount() == 0


def test_the_number_map_exports_png_and_csv(qtbot, panel, encoders, tmp_path, monkeypatch):
    _show(qtbot, panel, panel.maps_tab)
    tab = panel.maps_tab
    qtbot.waitUntil(lambda: tab.split_map is not None and tab.png_button.isEnabled(), timeout=WAIT_MS)
    size = tab.heatmap.size()  # the "Saved" message that follows takes some of its room
    for button, name in ((tab.png_button, "map.png"), (tab.csv_button, "map.csv")):
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, n=name: (str(tmp_path / n), ""))
        button.click()
    image = QImage(str(tmp_path / "map.png"))
    assert not image.isNull() and image.size() == size
    assert (tmp_path / "map.csv").read_text(encoding="utf-8") == number_map(encoders["small-a"]).csv()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.csv", "map.png"]  # no temp file left


def test_a_corpus_lists_the_tokens_it_never_uses_and_uses_once(qtbot, panel, encoders, tmp_path):
    from tokviz.core.vocab.reach import corpus_use

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("것 the\nthe abcd\n", encoding="utf-8")
    _show(qtbot, panel, panel.reach_tab)
    tab = panel.reach_tab
    qtbot.waitUntil(lambda: tab.reach is not None, timeout=WAIT_MS)
    assert tab.unreachable.model.rowCount() == len(tab.reach.reach.unreachable)
    tab.add_corpus("corpus.txt", str(corpus))  # as "Open corpus…" adds the file the user picked
    qtbot.waitUntil(lambda: tab.use is not None, timeout=WAIT_MS)
    use = corpus_use(encoders["small-a"], ["것 the", "the abcd"])
    assert tab.never.model.rowCount() == len(use.never_used())
    once = sorted(int(tab.once.model.value(r, 0)) for r in range(tab.once.model.rowCount()))
    assert once == use.used_once() and tab.once.title.text() == f"Used once ({len(once)})"
    hangul = next(r for r in range(tab.shares.model.rowCount()) if tab.shares.model.value(r, 0) == "hangul")
    assert [tab.shares.model.index(hangul, c).data() for c in range(3)] == ["Hangul", "1", "1"]


def test_a_new_diff_paints_its_lists_one_event_loop_turn_at_a_time(qtbot, panel):
    """Each of the three lists is painted in a turn of its own (a list is 10-20 ms of Qt's drawing), and
    every one of them is painted in the end."""
    panel.set_encoders("small-a", "small-b")
    _show(qtbot, panel, panel.diff_tab)
    qtbot.waitUntil(lambda: panel.diff_tab.result is not None, timeout=WAIT_MS)
    views = [box.view for box in panel.diff_tab.columns()]
    qtbot.waitUntil(lambda: all(v.updatesEnabled() for v in views), timeout=WAIT_MS)
    panel.diff_tab.show_diff(panel.diff_tab.result, "small-a", "small-b")  # as a new diff arrives
    # the small census first, then shared, only in A, only in B: each a turn later. Whether the census is
    # painted in this very call depends on how long warming its glyphs took (a time slice), so only the
    # lists are checked here: none of them can be painted before the turn after the census's.
    assert not any(v.updatesEnabled() for v in views)
    qtbot.waitUntil(lambda: all(v.updatesEnabled() for v in views + [panel.diff_tab.census.view]), timeout=WAIT_MS)
    assert all(box.model.rowCount() == n for box, n in zip(panel.diff_tab.columns(), (265, 0, 2), strict=True))


def test_each_diff_list_is_painted_in_the_turn_that_shows_it(qtbot, panel):
    """A list is painted as soon as its updates are back on, alone in that turn: left to the window's
    next update, two lists' paints fell into one turn (~40 ms) after all."""
    from PySide6.QtCore import QEvent, QObject

    class Paints(QObject):
        def __init__(self):
            super().__init__()
            self.count: dict[object, int] = {}

        def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint:
                self.count[watched] = self.count.get(watched, 0) + 1
            return False

    panel.set_encoders("small-a", "small-b")
    _show(qtbot, panel, panel.diff_tab)
    qtbot.waitUntil(lambda: panel.diff_tab.result is not None, timeout=WAIT_MS)
    views = [box.view for box in (panel.diff_tab.census, *panel.diff_tab.columns())]
    qtbot.waitUntil(lambda: all(v.updatesEnabled() for v in views), timeout=WAIT_MS)
    paints = Paints()
    for view in views:
        view.viewport().installEventFilter(paints)
    seen_unpainted = []

    def check() -> bool:  # between two turns: an enabled list has been painted already
        seen_unpainted.extend(v for v in views if v.updatesEnabled() and not paints.count.get(v.viewport()))
        return all(paints.count.get(v.viewport()) for v in views)

    panel.diff_tab.show_diff(panel.diff_tab.result, "small-a", "small-b")
    qtbot.waitUntil(check, timeout=WAIT_MS)
    assert seen_unpainted == []


def test_before_b_is_chosen_the_diff_lists_are_titled_by_letter(qtbot):
    """An empty B name once made the third list "Only in  (0)" (Korean "에만 (0)")."""
    tab = VocabDiffTab()
    qtbot.addWidget(tab)
    tab.show_diff(None, "cl100k_base", "")
    assert tab.only_first.title.text() == "Only in cl100k_base (0)"
    assert tab.only_second.title.text() == "Only in B (0)"
