"""The Compare panel's Parity and Vocabulary sweep tabs as a user sees them: the numbers core measures,
points on the plot, cancel, exports, Korean labels."""

from __future__ import annotations

import csv
import multiprocessing

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QTabWidget, QWidget

from tests.support.compare_panel import compare_session
from tokviz.core.parity import measure_parity, read_parallel_corpus
from tokviz.core.sweep import run_sweep
from tokviz.ui.compare.parity_tab import ParityTab
from tokviz.ui.compare.sweep_tab import SweepTab
from tokviz.ui.i18n import install_translation

WAIT_MS = 60_000  # only so that a hung run fails instead of hanging the suite


@pytest.fixture(scope="module")
def session():
    return compare_session()


@pytest.fixture(scope="module")
def parallel(tmp_path_factory):
    folder = tmp_path_factory.mktemp("parallel")
    (folder / "en.txt").write_text("Good morning, friends.\nThe cat sleeps on the mat.\n", encoding="utf-8")
    (folder / "ko.txt").write_text("좋은 아침입니다, 친구들.\n고양이가 매트 위에서 잔다.\n", encoding="utf-8")
    (folder / "ja.txt").write_text("おはよう、友よ。\n猫がマットの上で寝ている。\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sweep")
    (folder / "train.txt").write_text("low lower lowest newer newest\n" * 20, encoding="utf-8")
    (folder / "held.txt").write_text("lowest newer\n", encoding="utf-8")
    return folder


def _tab(qtbot, cls, session):
    tab = cls(session)
    qtbot.addWidget(tab)
    tab.resize(1300, 500)
    tab.show()
    return tab


def _cells(table, row: int) -> list[str]:
    return [table.item(row, c).text() for c in range(table.columnCount())]


def _run(qtbot, tab) -> None:
    qtbot.mouseClick(tab.run_button, Qt.MouseButton.LeftButton)
    assert not tab.run_button.isEnabled()
    qtbot.waitUntil(tab.run_button.isEnabled, timeout=WAIT_MS)


def test_parity_table_and_chart_show_cores_numbers_for_two_encoders(qtbot, session, parallel, tmp_path):
    tab = _tab(qtbot, ParityTab, session)
    tab.choose_folder(parallel)
    tab.set_encoders(["gpt2", "cl100k_base"])
    _run(qtbot, tab)
    core = measure_parity(
        [session.registry.get("gpt2"), session.registry.get("cl100k_base")], read_parallel_corpus(parallel)
    )
    table = tab.table
    assert table.rowCount() == 6
    for r in range(table.rowCount()):
        encoder, language, premium, tokens = _cells(table, r)[:4]
        code = language.split()[0]
        assert tokens == f"{core.tokens(encoder, code):,}"
        assert premium == f"{core.premium(encoder, code):.2f}"
    for shown, name in zip(tab.chart.matrix, ("gpt2", "cl100k_base"), strict=True):
        assert shown == pytest.approx([core.premium(name, lang) for lang in core.languages], abs=1e-4)
    assert "2 parallel lines in 3 languages" in tab.status.text()

    tab.metric_combo.setCurrentIndex(tab.metric_combo.findData("tokens"))  # the chart follows the metric chosen
    assert tab.chart.matrix[1] == [core.tokens("cl100k_base", lang) for lang in core.languages]

    header = table.horizontalHeader()
    column = QPoint(header.sectionViewportPosition(3) + 5, header.height() // 2)
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=column)  # the user sorts by tokens
    tokens = [int(table.item(r, 3).text().replace(",", "")) for r in range(table.rowCount())]
    assert tokens == sorted(tokens)  # sorted as numbers, not as text

    written = tab.export_csv(tmp_path / "parity.csv")
    with open(written, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["encoder"], r["language"], int(r["tokens"])) for r in rows] == [
        (r["encoder"], r["language"], r["tokens"]) for r in core.rows()
    ]
    png = tab.save_png(tmp_path / "parity.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_parity_chart_names_languages_by_code_where_their_names_would_collide(qtbot, session):
    """Twelve language names under a narrow chart (a projector's 1366x768 at presentation scale) ran
    into each other; where a name does not fit its group the chart writes the language code."""
    tab = _tab(qtbot, ParityTab, session)
    tab.set_encoders(["gpt2"])
    _run(qtbot, tab)
    codes = list(tab.state.result.languages)
    assert len(codes) >= 10
    tab.resize(3600, 500)
    qtbot.waitUntil(lambda: tab.chart.tick_labels() != codes, timeout=WAIT_MS)
    assert "English" in tab.chart.tick_labels() and "한국어" in tab.chart.tick_labels()
    tab.resize(700, 500)
    qtbot.waitUntil(lambda: tab.chart.tick_labels() == codes, timeout=WAIT_MS)
    assert "ko" in codes and "en" in codes


def test_parity_chart_text_fits_at_a_projectors_font_size(qtbot, session):
    """At 1366x768 in presentation mode "ja" lost its descender ("ia") under the bars and the axis title
    "premium (tokens / reference tokens)" ran off the top of the chart."""
    from PySide6.QtGui import QFontMetrics

    from tests.support.app_font import presentation_font

    with presentation_font():
        tab = _tab(qtbot, ParityTab, session)
        tab.resize(840, 300)
        tab.set_encoders(["gpt2"])
        _run(qtbot, tab)
        bottom = tab.chart.plot_item.getAxis("bottom")
        qtbot.waitUntil(lambda: bottom.height() > 0, timeout=WAIT_MS)
        assert bottom.height() >= QFontMetrics(tab.chart.font()).height() + 2  # the descenders too
        left = tab.chart.plot_item.getAxis("left")
        title = left.label.boundingRect().width()  # drawn turned upright along the axis
        assert 0 < title <= left.height(), (left.labelText, title, left.height())
        # the axis title and the legend's names in the projector's size, not pyqtgraph's 9 pt
        size = f"{tab.chart.font().pointSizeF():g}pt"
        assert left.labelStyle.get("font-size") == size
        (name,) = [label for _sample, label in tab.chart.legend.items]
        assert name.opts["size"] == size


def test_the_legend_of_five_encoders_stays_above_the_tallest_bar_at_a_projectors_font_size(qtbot):
    """With five encoders the legend's second row covered the tallest bars (Hindi's) in presentation mode."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor

    from tests.support.app_font import presentation_font
    from tokviz.ui.compare.charts import GroupedBarChart

    with presentation_font():
        host = QWidget()  # (pyqtgraph's PlotWidget.close() as a top-level window crashes in teardown)
        qtbot.addWidget(host)
        chart = GroupedBarChart(host)
        chart.resize(660, 320)
        host.show()
        qtbot.waitExposed(host)
        names = ["gpt2", "cl100k_base", "o200k_base", "llama-3", "qwen"]
        values = [
            [4.2, 2.0, 1.0, 7.1, 2.8],
            [3.0, 1.5, 1.0, 4.7, 2.1],
            [1.2, 1.2, 1.0, 1.5, 1.4],
            [1.6, 1.4, 1.0, 2.4, 1.3],
            [1.4, 1.4, 1.0, 4.4, 1.2],
        ]
        chart.set_matrix(["ar", "de", "en", "hi", "ja"], names, values, [QColor("red")] * 5, "premium")
        view = chart.plot_item.getViewBox()
        legend = chart.legend

        def clear_of_the_bars() -> bool:
            bar_top = view.mapViewToScene(QPointF(3, 7.1)).y()  # Hindi's tallest bar
            return legend.mapRectToScene(legend.boundingRect()).bottom() < bar_top

        qtbot.waitUntil(clear_of_the_bars, timeout=5000)
        chart.resize(520, 170)  # as at 1366x768 in presentation mode: the room is measured again
        qtbot.waitUntil(clear_of_the_bars, timeout=5000)


def test_parity_refuses_to_uncheck_the_last_encoder(qtbot, session):
    tab = _tab(qtbot, ParityTab, session)
    tab.set_encoders(["gpt2"])
    lst = tab.encoder_list
    lst.item(0).setCheckState(Qt.CheckState.Unchecked)  # the user unticks gpt2, the only one
    assert tab.status.text() == "Choose at least one encoder."
    assert lst.checked() == ["gpt2"]


def test_a_tiny_sweep_runs_and_its_points_show(qtbot, session, tiny, tmp_path):
    tab = _tab(qtbot, SweepTab, session)
    tab.choose_file("corpus", tiny / "train.txt")
    tab.choose_file("heldout", tiny / "held.txt")
    assert tab.set_options(mode="char") is None
    tab.sizes_edit.setText("0,3,6")  # typed, not yet confirmed: Run takes it
    tab.set_encoders(["gpt2", "no-such-encoder"])
    _run(qtbot, tab)
    core = run_sweep(
        tiny / "train.txt",
        tiny / "held.txt",
        algorithm="bpe",
        mode="char",
        merges=[0, 3, 6],
        encoders=[session.registry.get("gpt2")],
    )
    xs, ys = tab.plot.trained.getOriginalDataset()
    assert list(xs) == [p.vocab_size for p in core.points]
    assert list(ys) == pytest.approx([p.stats.chars_per_token for p in core.points])
    ex, ey = tab.plot.encoders.getOriginalDataset()
    assert list(ex) == [50257] and list(ey) == pytest.approx([core.encoders[0].stats.chars_per_token])
    table = tab.table
    assert [_cells(table, r)[0] for r in range(table.rowCount())] == [
        "trained 10 (0 merges)",
        "trained 13 (3 merges)",
        "trained 16 (6 merges)",
        "gpt2",
        "no-such-encoder",
    ]
    assert _cells(table, 2)[2] == "4" and _cells(table, 4)[2] == "error"
    assert "no-such-encoder" in tab.status.text()
    written = tab.export_csv(tmp_path / "sweep.csv")
    with open(written, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["kind"], r["label"], r["tokens"]) for r in rows[:4]] == [
        (r["kind"], r["label"], str(r["tokens"])) for r in core.rows()
    ]
    assert not multiprocessing.active_children()  # the training process ended with the sweep


def test_cancel_stops_a_sweep(qtbot, session, tiny):
    tab = _tab(qtbot, SweepTab, session)
    tab.choose_file("corpus", tiny / "train.txt")
    tab.choose_file("heldout", tiny / "held.txt")
    qtbot.mouseClick(tab.run_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(tab.cancel_button, Qt.MouseButton.LeftButton)  # while the training process starts
    assert tab.status.text() == "Cancelling…" and not tab.cancel_button.isEnabled()
    qtbot.waitUntil(tab.run_button.isEnabled, timeout=WAIT_MS)
    assert tab.status.text().startswith("Cancelled")
    assert list(tab.plot.trained.getOriginalDataset()[0] or []) == []  # no trained size was measured
    assert tab.sizes_edit.isEnabled()  # the settings are unlocked again
    qtbot.waitUntil(lambda: not multiprocessing.active_children(), timeout=WAIT_MS)


def test_korean_labels_and_tab_titles(qtbot, session):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    parity, sweep = ParityTab(session), SweepTab(session)
    tabs.addTab(parity, parity.title())
    tabs.addTab(sweep, sweep.title())
    try:
        install_translation("ko")
        assert [tabs.tabText(i) for i in range(2)] == ["언어 간 형평성", "어휘 크기 탐색"]
        assert parity.run_button.text() == "측정" and sweep.run_button.text() == "탐색 실행"
        assert parity.table.horizontalHeaderItem(2).text() == "토큰 할증"
        assert parity.metric_combo.itemText(0) == "토큰 할증 (토큰 수 / 기준 언어 토큰 수)"
    finally:
        install_translation("en")
    assert [tabs.tabText(i) for i in range(2)] == ["Parity", "Vocabulary sweep"]
    assert parity.table.horizontalHeaderItem(2).text() == "Premium"


def test_the_screenshot_command_refuses_a_compare_tab_for_another_view(tmp_path, capsys):
    from tokviz.cli import main

    assert main(["screenshot", "--view", "train", "--compare-tab", "sweep", "-o", str(tmp_path / "x.png")]) == 2
    assert "--compare-tab is for the compare view" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_the_panel_builds_parity_and_sweep_when_first_shown_and_their_titles_follow_the_language(qtbot, session):
    """Most sessions never open Parity or Sweep: the Compare panel builds each when its tab is first
    shown (a chart, a table and an encoder list each, at every window's start before). Their titles
    are there, and in Korean, before and after."""
    from tokviz.ui.compare.panel import ComparePanel

    panel = ComparePanel(session, encoders=["gpt2"])
    qtbot.addWidget(panel)
    panel.show()
    titles = lambda: [panel.tabs.tabText(i) for i in (3, 4)]  # noqa: E731
    assert titles() == ["Parity", "Vocabulary sweep"]
    assert panel.findChildren(ParityTab) == [] and panel.findChildren(SweepTab) == []
    try:
        install_translation("ko")
        assert titles() == ["언어 간 형평성", "어휘 크기 탐색"]  # not built yet, still in the language
        panel.tabs.setCurrentIndex(3)
        parity = panel.findChild(ParityTab)
        qtbot.waitUntil(lambda: parity is not None and parity.isVisible())
        assert parity.run_button.text() == "측정" and panel.findChildren(SweepTab) == []
    finally:
        install_translation("en")
    assert titles() == ["Parity", "Vocabulary sweep"]  # the built tab retitles itself, the other is retitled
    assert panel.measure_tab("sweep").run_button.text() == "Run sweep"
    assert panel.measure_tab("parity") is parity
