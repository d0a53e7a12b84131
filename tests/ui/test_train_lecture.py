"""The Train panel as a lecture: the banner names every byte position of a character, the window fits
a 1366×768 projector in presentation mode however long the merge, Korean leaves no English word, a
capped corpus says so, char mode follows every step, and the corpus is read while the app idles. The
tests that walk, export or save one NSMC run share it in test_train_lecture_steps.py."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from tests.support.train_lecture import MERGES, NSMC, english_words_in, show_step, steps_to_check, train_in_window
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui import fonts
from tokviz.ui.main_window import MainWindow
from tokviz.ui.settings import Settings
from tokviz.ui.token_colors import DARK_PALETTE, LIGHT_PALETTE, MIN_PALETTE_DISTANCE, delta_e
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.views import FRESH_BG, SPEEDS


@pytest.fixture
def window(qtbot, tmp_path):
    win = MainWindow(settings=Settings.at(tmp_path / "settings.ini"))
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    yield win
    win.toggle_presentation(False)
    win.close()


# a character of each UTF-8 length with more than one byte: é (2), 것 (3), 😀 (4); and characters a reader
# cannot see, named by their markers: a combining acute (2, on ◌) and the zero-width joiner of emoji (3)
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_banner_names_every_byte_position_of_a_character(qtbot, lang):
    """Every merge of two byte runs inside one character (bytes a..b-1 + b..c-1) is named on the
    banner's big line by the character and the positions, with the hex beneath; the merge that
    makes the character whole says it completes it. In Korean too. (One panel per language for the
    three characters: it only composes the banner's HTML; a panel per character cost ~0.4 s CPU.)"""
    from tokviz.ui.i18n import install_translation
    from tokviz.ui.session import Session
    from tokviz.ui.train.panel import TrainPanel

    try:
        install_translation(lang)
        panel = TrainPanel(Session(settings=Settings.ephemeral()))
        qtbot.addWidget(panel)
        for ch in ("é", "것", "😀", "\u0301", "\u200d"):
            _check_byte_merge_names(panel, ch, lang)
    finally:
        install_translation("en")


def _check_byte_merge_names(panel, ch: str, lang: str) -> None:
    from PySide6.QtGui import QTextDocument

    from tokviz.core.bpe.events import MergeStep
    from tokviz.core.byte_names import CharGuesser
    from tokviz.ui.train.follow import name_byte_merge

    data = ch.encode("utf-8")
    n = len(data)
    guesser = CharGuesser({ch: 5})
    seen = {"\u0301": "◌\u0301", "\u200d": "⟨ZWJ⟩"}.get(ch, ch)  # never an empty name

    def part(first: int, last: int) -> str:
        if first == 1 and last == n:
            return seen
        if lang == "ko":
            return f"{seen} {n}바이트 중 {first}번째" if first == last else f"{seen} {n}바이트 중 {first}–{last}번째"
        return f"{seen} byte {first} of {n}" if first == last else f"{seen} bytes {first}–{last} of {n}"

    cuts = [(a, b, c) for a in range(n) for b in range(a + 1, n) for c in range(b + 1, n + 1)]
    assert len(cuts) == {2: 1, 3: 4, 4: 10}[n]
    for a, b, c in cuts:
        left, right = data[a:b], data[b:c]
        named = name_byte_merge(left, right, guesser)
        step = MergeStep(1, 256, left[0], right[0], "", "", "", left + right, 9, 257, 100, 100)
        doc = QTextDocument()
        doc.setHtml(panel.renderer.named_merge_html(named, step, ""))
        lines = [" ".join(ln.replace("\xa0", " ").split()) for ln in doc.toPlainText().splitlines()]
        lines = [ln for ln in lines if ln]
        completes = "완성" if lang == "ko" else "completes"
        # the first row of the table: left, +, right, →, new, then what it completes
        expected = [part(a + 1, b), "+", part(b + 1, c), "→", part(a + 1, c)]
        assert lines[:5] == expected, (ch, a, b, c, lines)
        assert any(completes in ln and seen in ln for ln in lines) == (a == 0 and c == n), (ch, a, b, c, lines)
        hexes = [data[a:b].hex(" ").upper(), data[b:c].hex(" ").upper(), data[a:c].hex(" ").upper()]
        assert [ln for ln in lines if all(len(w) == 2 and w.isalnum() for w in ln.split())] == hexes, ch


def test_just_merged_colour_is_unlike_every_palette_colour():
    fresh = QColor(FRESH_BG)
    for colour in LIGHT_PALETTE + DARK_PALETTE + ("#e3e4e8", "#3a3d44"):  # the palettes and split-character grey
        assert delta_e(fresh, QColor(colour)) > MIN_PALETTE_DISTANCE + 2, colour


def test_presentation_fits_the_screen_with_a_very_long_merge(window, qtbot):
    """At a projector's and a full-HD screen's size. One run for both: the checks only look at it
    (training it for each size cost ~1 s CPU)."""
    long_word = "".join(chr(0xAC00 + 37 * i) for i in range(60))  # 60 different Hangul syllables
    panel = train_in_window(window, qtbot, CorpusSource.paste((long_word + "\n") * 3), merges=59, mode="char")
    assert len(panel.replay.steps[-1].new_piece) > 55
    for size in ((1366, 768), (1920, 1080)):
        window.toggle_presentation(True, full_screen=False)
        try:
            window.resize(*size)
            qtbot.waitUntil(lambda: fonts.scale() > 1.5, timeout=2000)
            panel.set_step(len(panel.replay))
            for widget in (window, panel):
                hint = widget.minimumSizeHint()
                assert hint.width() <= size[0] and hint.height() <= size[1], (size, widget, hint)
            assert panel.merge_banner.minimumSizeHint().width() < size[0] // 2, size
            qtbot.wait(50)
            assert window.width() <= size[0], size
        finally:
            window.toggle_presentation(False)
        qtbot.waitUntil(lambda: fonts.scale() == 1.0, timeout=2000)


def test_presentation_gives_the_sample_most_of_the_screen(qtbot, tmp_path):
    """In presentation mode the sample shows at least ``lines`` whole lines at the presentation font
    (at 1366×768 it showed 5): the plots give their place to the vocabulary and tree, a button away,
    "why this pair" sits beside the sample, and a byte merge's banner is one named line. The whole
    window fits, every tab included (Compare's buttons held it at 803 pixels in Korean). One run per
    language for its screen sizes: each size enters and leaves presentation mode on its own, and the
    checks only look at the run (training it per size cost ~2.5 s CPU). In Korean, on the run of
    test_korean_train_panel_shows_no_english_words."""
    window, panel = _window_with_every_tab_trained_on_nsmc(qtbot, tmp_path)
    for size, lines in (((1366, 768), 10), ((1920, 1080), 14)):
        _check_presentation_sample(window, panel, qtbot, size, lines, _byte_and_byte_step(panel))


def _window_with_every_tab_trained_on_nsmc(qtbot, tmp_path):
    """A 1366×768 window with Inspect and Compare built, its Train panel trained on NSMC (byte mode)."""
    window = MainWindow(settings=Settings.at(tmp_path / "settings.ini"))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    for view in ("inspect", "compare"):
        window.show_view(view)
    return window, train_in_window(window, qtbot, CorpusSource.file(NSMC))


def _byte_and_byte_step(panel) -> int:
    """The first merge of two byte pieces: its banner names bytes of characters on both sides."""
    return next(s.step for s in panel.replay.steps if "<0x" in s.left_piece and "<0x" in s.right_piece)


def _check_presentation_sample(window, panel, qtbot, size, lines, step) -> None:
    window.toggle_presentation(True, full_screen=False)
    try:
        window.resize(*size)
        qtbot.waitUntil(lambda: fonts.scale() > 1.5, timeout=2000)
        show_step(panel, qtbot, step)
        qtbot.waitUntil(lambda: panel.sample_view.line_count() > 0)
        assert window.width() <= size[0] and window.height() <= size[1], size
        assert panel.sample_view.visible_line_count() >= lines, size
        assert panel.plots.isHidden() and panel.vocab_pane.isVisible()
        assert panel.vocab_pane.isAncestorOf(panel.why_label)
        panel.plots_button.click()  # the plots, instead of the vocabulary and tree
        assert panel.plots.isVisible() and panel.vocab_pane.isHidden()
        assert panel.sample_view.visible_line_count() >= lines, size
    finally:
        window.toggle_presentation(False)
    qtbot.waitUntil(lambda: fonts.scale() == 1.0, timeout=2000)
    # leaving presentation mode gives every view its place back
    assert panel.plots.isVisible() and panel.vocab_pane.isVisible() and panel.probe_box.isVisible()
    assert not panel.vocab_pane.isAncestorOf(panel.why_label) and not panel.plots_button.isVisible()


def test_korean_train_panel_shows_no_english_words(qtbot, tmp_path):
    """Walk every widget of the Train panel in the Korean interface at a byte-mode step with its merge
    named and its runners-up shown: no English word is left (identifiers and units excepted). Then the
    same run in presentation mode at 1366×768, as test_presentation_gives_the_sample_most_of_the_screen
    checks it in English (a window trained in Korean for it alone cost ~2.3 s CPU)."""
    from tokviz.ui.i18n import install_translation

    try:
        assert install_translation("ko") == "ko"
        win, panel = _window_with_every_tab_trained_on_nsmc(qtbot, tmp_path)
        step = next(s.step for s in panel.replay.steps if "<0x" in s.left_piece and s.step > 3)
        show_step(panel, qtbot, step)
        assert "왜 이 쌍인가" in panel.why_label.text() and "바이트 중" in panel.merge_banner.text()
        assert english_words_in(panel) == []
        _check_presentation_sample(win, panel, qtbot, (1366, 768), 10, _byte_and_byte_step(panel))
    finally:
        install_translation("en")


def test_squeezed_log_axis_labels_only_powers_of_ten_and_titles_clear_the_ticks(qtbot):
    import math

    from PySide6.QtGui import QFontMetricsF

    from tokviz.ui.train.plots import TrainPlots

    plots = TrainPlots()
    qtbot.addWidget(plots)
    plots.resize(400, 260)  # a short plot, as at 1366×768 in presentation mode
    plots.show()
    qtbot.waitExposed(plots)
    plots.count_plot.setYRange(1, 3.5, padding=0)
    axis = plots.count_plot.getAxis("left")
    values = [2.0, math.log10(200), math.log10(500), 3.0]
    qtbot.waitUntil(lambda: axis.height() > 0)
    assert [bool(s) for s in axis.tickStrings(values, 1, 1)] == [True, False, False, True]
    plots.resize(400, 2400)  # tall: 1, 2 and 5 times each power of ten
    qtbot.waitUntil(lambda: axis.height() > 1000)
    assert all(axis.tickStrings(values, 1, 1))
    fm = QFontMetricsF(axis.style["tickFont"])
    assert axis.width() >= fm.horizontalAdvance("25000") + fm.height()  # the title beside the ticks


def test_capped_corpus_says_so_and_still_highlights_the_real_merge(window, qtbot, monkeypatch):
    from tokviz.ui.train import follow

    monkeypatch.setattr(follow, "MAX_WORDS", 25)
    panel = train_in_window(window, qtbot, CorpusSource.file(NSMC))
    for step in steps_to_check(MERGES):
        show_step(panel, qtbot, step)
        s = panel.replay.steps[step - 1]
        text = panel.why_label.text()
        assert "25 most frequent words" in text
        highlighted = text.split(FRESH_BG, 1)[1].split("</span>", 1)[0]
        assert f"<b>{s.count:,}</b>" in highlighted  # the trainer's merge with its true count


def test_grey_captions_stay_readable_after_switching_to_the_dark_theme(window, qtbot):
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from tokviz.ui import theme
    from tokviz.ui.token_colors import contrast_ratio

    panel = window.show_view("train")
    try:
        window.set_theme("dark")
        qtbot.waitUntil(lambda: theme.is_dark())
        panel.redraw()
        text = panel.sample_legend.palette().color(QPalette.ColorRole.WindowText)
        page = QApplication.palette().color(QPalette.ColorRole.Window)
        assert contrast_ratio(text, page) >= 4.5
    finally:
        window.set_theme("light")
        theme.apply_theme("light")


def test_char_mode_sample_follows_every_step_too(window, qtbot):
    panel = train_in_window(window, qtbot, CorpusSource.file(NSMC), merges=25, mode="char")
    for step in steps_to_check(25):
        show_step(panel, qtbot, step)
        assert any(r.bg == FRESH_BG for r in panel.sample_view.line_runs(0)), step
        assert "</w>" not in "".join(r.text for r in panel.sample_view.line_runs(0))
    assert "of" not in panel.merge_banner.text()  # no byte names in char mode


def _count_corpus_reads(monkeypatch) -> list:
    from tokviz.ui.train import follow

    reads = []
    real = follow.corpus_facts

    def counted(config, lines, state, **options):
        reads.append(config.mode)
        return real(config, lines, state, **options)

    monkeypatch.setattr(follow, "corpus_facts", counted)
    return reads


def test_the_corpus_is_read_for_the_lecture_views_while_the_app_idles(window, qtbot, monkeypatch):
    """Reading the corpus for the lecture views during a run took GIL turns from the GUI thread; it is
    read between runs for the settings on screen, and a run with those settings takes it as it is."""
    reads = _count_corpus_reads(monkeypatch)
    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.file(NSMC))
    qtbot.waitUntil(lambda: panel.prefetched_facts is not None, timeout=10000)  # no run yet
    assert reads == ["byte"] and panel.corpus_facts is None
    ready = panel.prefetched_facts
    panel.merges_spin.setValue(MERGES)  # the merge count does not change the corpus's words
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.start_training()
    # taken once step 0 is on screen (the worker starts then), as read while idle: nothing read again
    qtbot.waitUntil(lambda: panel.corpus_facts is not None, timeout=10000)
    assert panel.corpus_facts is ready and reads == ["byte"]
    assert panel.wait_until_trained(60)
    qtbot.wait(600)  # longer than the idle delay: nothing more is read for the same settings
    assert reads == ["byte"]
    # other settings: read again, for the run that begins (and kept ready for the next)
    panel.reset()
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    panel.start_training()
    assert panel.corpus_facts is None
    qtbot.waitUntil(lambda: panel.corpus_facts is not None, timeout=10000)
    assert reads[-1] == "char" and panel.corpus_facts is panel.prefetched_facts
    assert panel.wait_until_trained(60)


def test_facts_read_for_a_run_that_is_gone_are_not_shown(window, qtbot, monkeypatch):
    reads = _count_corpus_reads(monkeypatch)
    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.file(NSMC))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    panel.merges_spin.setValue(MERGES)
    panel.start_training()  # before the idle reading: read for the run
    panel.reset()  # the run is gone before its facts arrive
    qtbot.waitUntil(lambda: panel.prefetched_facts is not None, timeout=10000)
    assert "char" in reads
    assert panel.corpus_facts is None and panel.vocab_model.guesser is None


def test_a_corpus_file_edited_after_it_was_read_is_read_again(window, qtbot, monkeypatch, tmp_path):
    reads = _count_corpus_reads(monkeypatch)
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(NSMC.read_text(encoding="utf-8"), encoding="utf-8")
    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.file(corpus))
    qtbot.waitUntil(lambda: panel.prefetched_facts is not None, timeout=10000)
    ready = panel.prefetched_facts
    corpus.write_text("완전히 다른 말뭉치 different words\n" * 50, encoding="utf-8")
    panel.merges_spin.setValue(10)
    panel.start_training()
    qtbot.waitUntil(lambda: panel.corpus_facts is not None, timeout=10000)
    assert panel.corpus_facts is not ready and len(reads) == 2
    assert any("말뭉치" in word for word in panel.corpus_facts.words)  # the words of the file as it is now
    assert panel.wait_until_trained(60)
