"""What the Train panel's views show, checked against tokviz's core BPE (trained again, independently):
the banner's room, the first run's plots, the vocabulary table's visible whitespace, Reset, muted
text in both themes, presentation scale, the sample's variety and the remembered corpus file. What
one finished run shows step by step (banner, tree, probe, sample) is in test_train_views_run.py."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics, QPalette

from tests.support.train_panel import LINES, TEXT, banner_text, core_steps, train_to_the_end
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui import fonts
from tokviz.ui.fonts import mono_font
from tokviz.ui.main_window import MainWindow
from tokviz.ui.settings import Settings
from tokviz.ui.train.corpus import CorpusSource, line_kind
from tokviz.ui.train.render import BANNER_MIN_HEIGHT
from tokviz.ui.train.views import SPEEDS
from tokviz.ui.train.vocab import visible_piece

MERGES = 60


@pytest.fixture
def window(qtbot, tmp_path):
    win = MainWindow(settings=Settings.at(tmp_path / "settings.ini"))
    qtbot.addWidget(win)
    win.show()
    yield win
    win.close()


def _train(window, qtbot, text=TEXT, merges=MERGES):
    return train_to_the_end(window, qtbot, text, merges)


@pytest.fixture
def trained(window, qtbot):
    panel = _train(window, qtbot)
    trainer, core = core_steps(panel.config, LINES)
    assert panel.replay.steps == core
    return panel, trainer, core


def test_the_banner_has_room_for_every_byte_merge_before_the_first(window, qtbot):
    """A byte run's banner is sized at step 0 for a merge named on two rows: a merge that needs more
    room than the banner has re-lays out the panel mid-run (the plots below repaint all their axes)."""
    panel = window.show_view("train")
    window.resize(1400, 900)
    qtbot.waitUntil(lambda: panel.merge_banner.width() > 1000)
    assert panel.mode_combo.currentData() == "byte"
    panel.set_step(0)
    room = panel.merge_banner.minimumHeight()
    assert room > BANNER_MIN_HEIGHT  # more than the hint needs: the two rows are reserved
    panel = _train(window, qtbot)
    assert panel.replay.mode == "byte"
    banner = panel.merge_banner
    panel.set_step(MERGES)
    assert banner.text() == panel.banner_html(MERGES)  # what a step shows on the banner is its banner_html
    # Each step's banner text on the banner itself: a whole frame per step (sample, plots, table) drew
    # views this test never looks at, ~60% of its time.
    needed = []
    for step in range(0, MERGES + 1):
        banner.setText(panel.banner_html(step))
        needed.append(banner.heightForWidth(banner.width()))
    assert max(needed) <= room
    assert max(needed) > BANNER_MIN_HEIGHT  # the corpus has merges named on two rows


def test_the_first_run_starts_without_touching_the_plots(window, qtbot, monkeypatch):
    """The plots take the merge count and unit as they are set, so ▶ Train changes no axis and draws
    no empty curve again (each made pyqtgraph repaint all four plots in the run's first frame)."""
    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.paste(TEXT))
    panel.merges_spin.setValue(MERGES)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    plots = panel.plots
    assert plots.vocab_plot.viewRange()[0][1] >= MERGES  # preset while idle
    touched = []
    for plot in (plots.vocab_plot, plots.count_plot, plots.corpus_plot):
        monkeypatch.setattr(plot, "setXRange", lambda *a, **k: touched.append("x range"))
    for curve in (plots.vocab_curve, plots.count_curve, plots.tokens_curve, plots.cpt_curve):
        monkeypatch.setattr(curve, "setData", lambda *a, **k: touched.append("data"))
    panel.start_training()
    assert touched == []
    monkeypatch.undo()
    assert panel.wait_until_trained(30)
    qtbot.waitUntil(lambda: panel.cursor == len(panel.replay) > 0, timeout=3000)
    assert len(plots.vocab_curve.getData()[0]) > 0  # the run's data did reach the plots


def test_secondary_text_reads_at_4_5_to_1_in_both_themes_and_follows_the_font(window, qtbot):
    from tokviz.ui import theme
    from tokviz.ui.token_colors import contrast_ratio

    panel = window.show_view("train")
    try:
        for name in ("light", "dark"):
            window.set_theme(name)
            for label in (panel.sample_legend, panel.probe_status):
                pal = label.palette()
                fg, bg = pal.color(QPalette.ColorRole.WindowText), pal.color(QPalette.ColorRole.Window)
                assert contrast_ratio(fg, bg) >= 4.5, (name, fg.name(), bg.name())
                assert fg != pal.color(QPalette.ColorRole.Text)  # still muted, not body text
                assert label.styleSheet() == ""  # a style sheet would pin the font size
        base = panel.sample_legend.font().pointSizeF()
        window.set_font_scale(1.5)
        qtbot.waitUntil(lambda: panel.sample_legend.font().pointSizeF() >= 1.4 * base, timeout=2000)
    finally:
        window.set_font_scale(1.0)
        window.set_theme("light")
        theme.apply_theme("light")


def _check_reset_empties_every_view_and_withdraws_the_model(trained, qtbot):
    panel, _, _ = trained
    qtbot.waitUntil(lambda: panel.session.trained_model is not None, timeout=3000)
    name = panel.session.trained_model.name
    panel.vocab_view.setCurrentIndex(panel.vocab_filter.index(3, 1))
    assert panel.tree_view.tree is not None
    # the views of the run's end may still be catching up, frames pending, when the user resets
    panel.frames.request()
    panel.reset_button.click()
    assert panel.cursor == 0 and panel.scrubber.maximum() == 0
    assert panel.vocab_model.rowCount() == 0 and panel.vocab_filter.rowCount() == 0
    for curve in (panel.plots.vocab_curve, panel.plots.count_curve, panel.plots.tokens_curve, panel.plots.cpt_curve):
        x, _ = curve.getData()
        assert x is None or len(x) == 0
    _, hist = panel.plots.length_hist.getData()
    assert hist is None or hist.sum() == 0
    assert panel.tree_view.tree is None and panel.tree_view.drawn_labels() == []
    assert panel.session.trained_model is None and name not in panel.session.registry
    assert "Press ▶ Train" in banner_text(panel)
    assert all(isinstance(panel.sample_view.line_runs(i), str) for i in range(panel.sample_view.line_count()))
    assert panel.probe_view.line_runs(0) == panel.probe_edit.text()  # unsegmented
    assert not panel.reset_button.isEnabled() and not panel.save_button.isEnabled()
    # no late offer of the withdrawn run's model: the timers that offer one are stopped
    assert not panel.offer_timer.isActive() and not panel.frame_timer.isActive()
    assert panel.session.trained_model is None


def _whole_characters(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def test_vocabulary_table_shows_whitespace_like_the_inspector_and_the_whole_hex(window, qtbot):
    panel = _train(window, qtbot, text="어제 본 영화.\n오늘 본 영화.\n" * 30, merges=25)
    model = panel.vocab_model
    rows = {model.step_at(r).new_bytes: r for r in range(model.rowCount())}
    newline = next(b for b in rows if b.endswith(b".\n"))
    shown = visible_piece(newline.decode())
    assert model.index(rows[newline], 1).data() == shown and "↵" in shown
    spaced = next(b for b in rows if b.startswith(b" ") and len(b) > 1 and _whole_characters(b))
    assert model.index(rows[spaced], 1).data() == "·" + spaced.decode()[1:]
    longest = max(rows, key=len)
    assert len(longest) >= 7  # more bytes than the column shows
    hex_text = " ".join(f"{b:02X}" for b in longest)
    assert model.index(rows[longest], 2).data() == hex_text
    assert hex_text in model.index(rows[longest], 2).data(3)  # Qt.ToolTipRole: the whole hex
    fm = QFontMetrics(mono_font())
    assert panel.vocab_view.columnWidth(2) >= fm.horizontalAdvance("00 00 00 00 00 00")


def test_the_demo_sample_shows_every_kind_of_line_near_the_top():
    lines = CorpusSource.demo().sample_lines(30)
    assert len(lines) == 30
    assert {line_kind(line) for line in lines[:8]} >= {"hangul", "letters", "code", "emoji"}
    assert CorpusSource.demo().sample_lines(30) == lines  # the same every time


def test_a_large_file_is_sampled_across_its_whole_length(tmp_path):
    path = tmp_path / "big.txt"
    with open(path, "w", encoding="utf-8") as f:  # 1.5 MB of Korean, then English, then code, then emoji
        for line, times in (("오늘은 날씨가 정말 좋습니다.\n", 40_000), ("The weather is lovely today.\n", 20_000),
                            ("    return counts[pair] + 1\n", 20_000), ("좋아요 👍 최고 🎉\n", 20_000)):
            f.write(line * times)
    lines = CorpusSource.file(path).sample_lines(30)
    assert {line_kind(line) for line in lines} == {"hangul", "letters", "code", "emoji"}
    assert "    return counts[pair] + 1" in lines  # code keeps its indentation


def test_the_last_corpus_file_mode_and_algorithm_come_back_at_start(qtbot, tmp_path):
    corpus = tmp_path / "my corpus.txt"
    corpus.write_text("내 코퍼스 한 줄\nmy own corpus line\n", encoding="utf-8")
    settings = Settings.at(tmp_path / "settings.ini")
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    try:
        panel = win.show_view("train")
        assert panel.corpus_combo.count() == 1  # nothing remembered yet
        panel.open_corpus_file(corpus)
        assert settings.last_corpus == str(corpus.resolve())
        assert "내 코퍼스" in panel.sample_view.toPlainText()
        panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    finally:
        win.close()

    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    try:
        panel = win.show_view("train")
        combo = panel.corpus_combo
        assert [combo.itemText(i) for i in range(combo.count())] == [CorpusSource.demo().label, "my corpus.txt"]
        # the file is selected again (its sample shown) and the mode is the one left
        assert combo.currentIndex() == 1 and "내 코퍼스" in panel.sample_view.toPlainText()
        assert panel.mode_combo.currentData() == "char"
        combo.activated.emit(0)  # the demo is still a click away
        assert panel.source.kind == "demo"
    finally:
        win.close()

    corpus.unlink()  # gone: not offered
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    try:
        assert win.show_view("train").corpus_combo.count() == 1
    finally:
        win.close()


def test_presentation_scale_a_1366_projector_and_reset_on_one_run(trained, qtbot):
    """The presentation checks look at the same finished run and put the window back as it was; Reset
    then empties it (a run each cost ~1 s CPU)."""
    _check_presentation_scale_enlarges_plot_text_and_the_merge_tree(trained, qtbot)
    _check_presentation_on_a_1366_projector_shows_all_four_plots_whole(trained, qtbot)
    _check_reset_empties_every_view_and_withdraws_the_model(trained, qtbot)


def _check_presentation_scale_enlarges_plot_text_and_the_merge_tree(trained, qtbot):
    panel, _, core = trained
    window = panel.window()
    panel.select_token(core[-1].token_id)
    plot = panel.plots.corpus_plot
    before_tick = plot.getAxis("left").style["tickFont"].pointSizeF()
    before_height = panel.tree_view.tree_height()
    try:
        window.set_font_scale(1.6)
        assert plot.titleLabel.opts["size"] == "17.6pt"
        # axis text grows half as much as the titles (the four plots share a third of the window)
        assert plot.getAxis("left").style["tickFont"].pointSizeF() == pytest.approx(before_tick * 1.3)
        assert "11.7pt" in plot.getAxis("left").labelString()
        # and everything still fits: the plots' layout is no wider than their view
        qtbot.wait(50)
        assert panel.plots.ci.geometry().width() <= panel.plots.viewport().width() + 1
        assert panel.tree_view.tree_height() > before_height * 1.3  # text rows grow; fixed gaps do not
    finally:
        window.set_font_scale(1.0)
    assert fonts.scale() == 1.0


def _check_presentation_on_a_1366_projector_shows_all_four_plots_whole(trained, qtbot):
    """Captions wrap and the plots claim the width their axes need: at 1.6x on a 1366x768 screen
    the right-hand plots were cut off (the sample's one-line caption held the left pane wide)."""
    panel, _, _ = trained
    window = panel.window()
    window.toggle_presentation(True, full_screen=False)
    try:
        window.resize(1366, 768)  # what full screen on a 1366x768 projector gives
        panel.plots_button.click()  # presentation mode shows the plots a button away
        qtbot.wait(100)
        assert window.width() == 1366, window.minimumSizeHint()
        plots = panel.plots
        grid = plots.ci.geometry()
        assert grid.width() <= plots.viewport().width() + 1
        for plot in (plots.vocab_plot, plots.count_plot, plots.corpus_plot, plots.length_plot):
            box = plot.mapRectToScene(plot.boundingRect())
            assert box.right() <= plots.viewport().width() + 1, plot.titleLabel.text
            assert box.width() > 150  # a plot, not a sliver
    finally:
        window.toggle_presentation(False, full_screen=False)
