"""Compare panel (pytest-qt, offscreen): adding/removing/reordering encoders, hover sync across rows,
a failing encoder's row, bad model files, empty text, the corpus table with progress and cancel,
CSV/PNG export, in-app SentencePiece training and segmentations."""

from __future__ import annotations

import csv

import pytest

from tests.support.compare_panel import DEMO_SP, TEXT, Toy, compare_session, make_panel, openai_encoder
from tokviz import resources_dir
from tokviz.core.compare import TextSet
from tokviz.ui.compare.panel import ComparePanel
from tokviz.ui.settings import Settings


@pytest.fixture
def session(qtbot):
    return compare_session()


def opened(qtbot, panel, path) -> bool:
    """Open a model file (parsed in the background) and wait until the panel says how it went."""
    with qtbot.waitSignal(panel.modelOpened, timeout=20000) as blocker:
        panel.open_model_file(str(path))
    return blocker.args[0]


def shown(panel, qtbot, action):
    with qtbot.waitSignal(panel.rowsUpdated, timeout=20000):
        action()
        panel.refresh_now()


def test_rows_follow_the_encoder_list(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2", "o200k_base"])
    assert [r.data.name for r in panel.view.rows] == ["gpt2", "o200k_base"]
    assert panel.stats_table.rowCount() == 2
    gpt2_tokens = len(openai_encoder("gpt2").tiktoken.encode_ordinary(TEXT))
    assert panel.stats_table.item(0, 1).text() == str(gpt2_tokens)

    shown(panel, qtbot, lambda: panel.add_encoder_name("sp:demo_unigram"))
    assert [r.data.name for r in panel.view.rows] == ["gpt2", "o200k_base", "sp:demo_unigram"]
    assert panel.token_chart.values[0] == gpt2_tokens

    shown(panel, qtbot, lambda: panel.move_encoder("sp:demo_unigram", -2))
    assert panel.encoder_names() == ["sp:demo_unigram", "gpt2", "o200k_base"]
    assert [r.data.name for r in panel.view.rows] == panel.encoder_names()

    shown(panel, qtbot, lambda: panel.remove_encoder_name("gpt2"))
    assert [r.data.name for r in panel.view.rows] == ["sp:demo_unigram", "o200k_base"]
    panel.shutdown()


def test_encoder_added_to_the_session_joins_the_list(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2"])
    shown(panel, qtbot, lambda: session.add_encoder(Toy("toy-added", fail_on_digits=False)))
    assert "toy-added" in panel.encoder_names()
    panel.shutdown()


def test_hover_highlights_the_token_holding_the_char_in_every_row(qtbot, session):
    """The pointer moves from character to character over one panel, as a user's does (a panel per
    character cost ~0.35 s CPU apiece)."""
    panel = make_panel(qtbot, session, ["gpt2", "cl100k_base", "o200k_base", "sp:demo_unigram"])
    view = panel.view
    for char in ["안", "하", "w", "👋", "🏽", "4"]:
        index = TEXT.index(char)
        qtbot.mouseMove(view, view.char_center(index).toPoint())
        qtbot.waitUntil(lambda: view.hovered_char == index, timeout=2000)  # noqa: B023 (waited on here)
        highlighted = view.highlighted_tokens()
        assert set(highlighted) == set(panel.encoder_names())
        for row in view.rows:
            enc = row.data.encoding
            assert highlighted[row.data.name] == enc.tokens_at_char(index), char
            assert highlighted[row.data.name], f"{row.data.name} has no token at {char!r}"
        view.grab()  # paints the highlight without errors
    panel.shutdown()


def test_same_colour_neighbours_in_a_row_are_outlined(qtbot, session):
    """gpt2 reads ㅋㅋㅋㅋ as id 40345 twice, and 안녕's bytes as ids 167, 227 (one palette colour):
    the second of each pair gets a ring in the text colour, its left neighbour does not, so the
    boundary shows (without it 6-10 neighbours per row of the default text had the same fill)."""
    from tests.support.pixels import edge_is_outlined
    from tokviz.ui.token_colors import text_color_on, token_color, token_marks

    panel = make_panel(qtbot, session, ["cl100k_base", "gpt2"], text="안녕하세요 ㅋㅋㅋㅋ!!!! 👋 Hello world 123")
    view = panel.view
    view.set_hovered_char(None)
    image = view.grab().toImage()
    row = view.rows[1]
    ids = row.data.encoding.ids
    assert ids[15] == ids[16] == 40345 and token_color(ids[3]) == token_color(ids[4]) and ids[3] != ids[4]
    assert token_marks(ids)[15:17] == [False, True] and token_marks(ids)[3:5] == [False, True]
    for left, right in ((15, 16), (3, 4)):
        fill = token_color(ids[right])
        ring = text_color_on(fill)
        assert not edge_is_outlined(image, view.token_rect(1, left), fill, ring)
        assert edge_is_outlined(image, view.token_rect(1, right), fill, ring)
    panel.shutdown()


def test_cut_characters_get_wider_cells_and_disagreements_are_marked(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2", "o200k_base"], text="안녕하세요")
    view = panel.view
    # gpt2 cuts every syllable between byte tokens; o200k_base does not
    assert view.disagreements()
    a = view.char_center(0).x()
    b = view.char_center(1).x()
    assert b - a >= 3 * view.hex_byte_width() * 0.99  # a cut syllable's cell holds its three bytes in hex
    panel.shutdown()


def test_failing_encoder_row_shows_the_error_and_others_work(qtbot, session):
    session.registry.add(Toy())
    panel = make_panel(qtbot, session, ["gpt2", "toy", "o200k_base"])
    rows = {r.data.name: r.data for r in panel.view.rows}
    assert rows["toy"].error and "digits are not supported" in rows["toy"].message
    assert rows["gpt2"].encoding is not None and rows["o200k_base"].encoding is not None
    assert "digits are not supported" in panel.stats_table.item(1, 1).text()
    view_png = panel.view.grab()
    assert not view_png.isNull()
    # the same encoder works on text without digits
    shown(panel, qtbot, lambda: panel.set_text("no digits here"))
    assert {r.data.name: r.data for r in panel.view.rows}["toy"].encoding is not None
    panel.shutdown()


def test_unknown_encoder_name_is_an_error_row(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2", "not-an-encoder"])
    row = panel.view.rows[1].data
    assert row.error and "not-an-encoder" in row.message
    panel.shutdown()


def test_corrupt_model_file_is_a_message_and_nothing_changes(qtbot, session, tmp_path):
    panel = make_panel(qtbot, session, ["gpt2"])
    bad = tmp_path / "broken.model"
    bad.write_bytes(b"\x0a\x05hello-not-a-model")
    assert opened(qtbot, panel, bad) is False
    assert panel.message_bar.isVisibleTo(panel) and "broken.model" in panel.message_bar.text()
    assert panel.encoder_names() == ["gpt2"]
    missing = tmp_path / "missing.tiktoken"
    assert opened(qtbot, panel, missing) is False
    # a good file is added
    with qtbot.waitSignal(panel.rowsUpdated, timeout=20000):
        assert opened(qtbot, panel, DEMO_SP) is True
    assert len(panel.encoder_names()) == 2 and not panel.message_bar.isVisibleTo(panel)
    panel.shutdown()


def test_empty_text(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2", "sp:demo_unigram"], text="")
    assert [r.data.encoding.tokens for r in panel.view.rows] == [(), ()]
    assert panel.stats_table.item(0, 1).text() == "0"
    assert not panel.view.grab().isNull()
    panel.shutdown()


def test_lone_surrogate_is_a_message(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2"])
    panel.editor.blockSignals(True)
    panel.editor.setPlainText("ok")
    panel.editor.blockSignals(False)
    panel.source_text = lambda: "bad \ud83d half"  # a broken paste
    panel.refresh_now()
    assert "lone surrogate" in panel.message_bar.text()
    panel.shutdown()


def test_corpus_table_fills_with_progress(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2", "o200k_base"])
    sets = [TextSet("korean", tuple(f"{i}번째 문장입니다" for i in range(300))),
            TextSet("english", ("hello world",) * 50)]
    progress = []
    with qtbot.waitSignal(panel.corpusFinished, timeout=30000) as blocker:
        panel.run_corpus(sets)
        session.work.channel(panel, "corpus").current.progressed.connect(progress.append)
    result = blocker.args[0]
    assert not result.cancelled
    assert panel.corpus_table.rowCount() == 4
    assert panel.corpus_progress.value() == 1000
    gpt2 = openai_encoder("gpt2").tiktoken
    expected = sum(len(gpt2.encode_ordinary(t)) for t in sets[0].texts)
    assert panel.corpus_table.item(0, 0).text() == "korean" and panel.corpus_table.item(0, 1).text() == "gpt2"
    assert panel.corpus_table.item(0, 3).text() == f"{expected:,}"
    assert panel.corpus_chart.matrix and len(panel.corpus_chart.matrix) == 2
    panel.shutdown()


def test_corpus_cancel(qtbot, session):
    session.registry.add(Toy("slow", fail_on_digits=False, delay=0.004))
    panel = make_panel(qtbot, session, ["slow"])
    sets = [TextSet("many", tuple(f"line {i}" for i in range(2000)))]
    with qtbot.waitSignal(panel.corpusFinished, timeout=30000) as blocker:
        panel.run_corpus(sets)
        qtbot.waitUntil(lambda: panel.corpus_table.rowCount() == 1, timeout=10000)
        panel.cancel_corpus()
    result = blocker.args[0]
    assert result.cancelled
    assert 0 < result.totals[0].texts < 2000
    assert "Cancelled" in panel.corpus_status.text()
    assert panel.corpus_run.isEnabled()
    panel.shutdown()


def test_vocabulary_overlap(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2"])
    with qtbot.waitSignal(panel.overlapFinished, timeout=30000) as blocker:
        panel.compute_overlap("gpt2", "sp:demo_unigram")
    ov = blocker.args[0]
    assert ov is not None and 0 < ov.jaccard < 1 and "Jaccard" in panel.overlap_label.text()
    panel.shutdown()


def test_export_csv_and_png(qtbot, session, tmp_path):
    panel = make_panel(qtbot, session, ["gpt2", "o200k_base"])
    out = panel.export_csv(tmp_path / "stats.csv", "stats")
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # BOM: spreadsheets read Hangul as UTF-8
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines()))
    assert rows[0][:2] == ["encoder", "tokens"] and rows[1][0] == "gpt2"
    assert int(rows[1][1]) == len(openai_encoder("gpt2").tiktoken.encode_ordinary(TEXT))
    png = panel.save_png(tmp_path / "view.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stats.csv", "view.png"]  # no temp files left
    panel.shutdown()


def test_train_sentencepiece_in_the_app(qtbot, session, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    panel = make_panel(qtbot, session, ["gpt2"])
    lines = (resources_dir() / "corpora" / "demo.txt").read_text(encoding="utf-8").splitlines()[:120]
    panel.sp_vocab.setValue(800)
    panel.sp_coverage.setValue(0.995)
    with qtbot.waitSignal(panel.trainingFinished, timeout=60000) as blocker:
        panel.train_sentencepiece([TextSet("demo", ("\n".join(lines),))])
    encoder = blocker.args[0]
    assert not isinstance(encoder, str), encoder
    assert encoder.name in panel.encoder_names() and encoder.name in session.registry
    assert list(tmp_path.rglob("*.model"))
    assert panel.show_segmentations(encoder.name, "오늘 아침에는") is True
    assert "N-best" in panel.seg_view.toHtml()
    panel.shutdown()


def test_segmentations_need_a_unigram_model(qtbot, session):
    panel = make_panel(qtbot, session, ["gpt2"])
    assert panel.show_segmentations("sp:demo_unigram", "안녕하세요") is True
    assert panel.show_segmentations("gpt2", "안녕하세요") is False
    assert "unigram" in panel.seg_view.toPlainText()
    panel.shutdown()


def test_long_text_shows_its_first_part_first_and_tokens_agree(qtbot, session):
    from tokviz.ui.compare.panel import preview_cut

    line = "안녕하세요 여러분, tokenizers differ 👋🏽 42\n"
    text = line * 150
    panel = make_panel(qtbot, session, ["gpt2", "o200k_base", "sp:demo_unigram"])
    previews = []
    panel.rowsPreviewed.connect(lambda: previews.append([r.data.encoding for r in panel.view.rows]))
    with qtbot.waitSignal(panel.rowsUpdated, timeout=30000):
        panel.set_text(text)
        panel.refresh_now()
    assert previews, "a long text shows its first part before the rest is encoded"
    cut = preview_cut(text)
    full = [r.data.encoding for r in panel.view.rows]
    assert full[0].text == text
    for head, whole in zip(previews[0], full, strict=True):
        assert head.text == text[:cut]
        n = len(head.tokens)
        same = head.ids[:n - 1] == whole.ids[:n - 1]  # SentencePiece drops the trailing newline's ▁
        assert same, whole.encoder
    # reordering re-uses the encodings: no preview, same objects
    previews.clear()
    shown(panel, qtbot, lambda: panel.move_encoder("o200k_base", -1))
    assert not previews
    assert panel.view.rows[0].data.encoding is full[1]
    panel.shutdown()


def test_an_edit_of_a_long_text_updates_at_once_without_a_preview(qtbot, session):
    # typing re-uses the unchanged paragraphs: the whole update comes in one step, and it is exact
    line = "안녕하세요 여러분, tokenizers differ 👋🏽 42\n"
    text = line * 150
    names = ["gpt2", "sp:demo_unigram"]
    panel = make_panel(qtbot, session, names, text=text)
    previews = []
    panel.rowsPreviewed.connect(lambda: previews.append(True))
    middle = len(text) // 2
    edited = text[:middle] + "값 x" + text[middle:]
    shown(panel, qtbot, lambda: panel.set_text(edited))
    assert not previews
    for row, name in zip(panel.view.rows, names, strict=True):
        assert row.data.encoding.ids == session.registry.get(name).encode(edited).ids, name
    # a different long text (a paste) starts with its first part again
    shown(panel, qtbot, lambda: panel.set_text("new words 👋🏽 12\n" * 300))
    assert previews
    panel.shutdown()


def test_shutdown_stops_a_running_corpus_comparison(qtbot, session):
    slow = Toy("slow", fail_on_digits=False, delay=0.004)
    session.registry.add(slow)
    panel = make_panel(qtbot, session, ["slow"])
    panel.run_corpus([TextSet("many", tuple(f"line {i}" for i in range(5000)))])
    qtbot.waitUntil(lambda: panel.corpus_table.rowCount() == 1, timeout=10000)
    panel.shutdown()  # what the main window's close calls
    assert not panel.jobs.busy
    assert 0 < slow.calls < 5000  # cancelled between texts, not after all 5000


# ---- the Train panel's model ------------------------------------------------------------------
def test_trained_model_row_follows_the_train_panels_step(qtbot, tmp_path):
    """Train N merges, add ``tokviz BPE (step N)`` to Compare, scrub Train back: the row follows
    the model to its new step (it used to say "no such encoder")."""
    from tokviz.core.bpe.trainer import BPETrainer
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.train.corpus import CorpusSource
    from tokviz.ui.train.views import SPEEDS

    text = "안녕하세요 여러분 토크나이저를 배워요 the lowest newest tokens\n" * 20
    win = MainWindow(settings=Settings.ephemeral())
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    try:
        train = win.show_view("train")
        train.trainer_factory = BPETrainer  # a tiny corpus: in the worker thread, no training process to start
        train.set_source(CorpusSource.paste(text))
        train.merges_spin.setValue(40)
        train.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
        train.start_training()
        assert train.wait_until_trained(60)
        qtbot.waitUntil(lambda: getattr(win.session.trained_model, "name", "") == "tokviz BPE (step 40)", timeout=5000)

        compare = win.panels["compare"]
        compare.set_encoders(["gpt2"])
        win.show_view("compare")
        assert "tokviz BPE (step 40)" in [compare.add_combo.itemText(i) for i in range(compare.add_combo.count())]
        shown(compare, qtbot, lambda: compare.add_encoder_name("tokviz BPE (step 40)"))
        row = compare.view.rows[1].data
        assert row.name == "tokviz BPE (step 40)" and row.encoding is not None

        win.show_view("train")
        train.set_step(20)
        qtbot.waitUntil(lambda: win.session.trained_model.name == "tokviz BPE (step 20)", timeout=5000)
        win.show_view("compare")
        qtbot.waitUntil(lambda: [r.data.name for r in compare.view.rows] == ["gpt2", "tokviz BPE (step 20)"],
                        timeout=5000)
        row = compare.view.rows[1].data
        assert not row.error, row.message
        assert row.encoding.ids == win.session.trained_model.encode(compare.editor.toPlainText()).ids
        assert compare.encoder_names() == ["gpt2", "tokviz BPE (step 20)"]
        assert compare.stats_table.item(1, 0).text() == "tokviz BPE (step 20)"

        # Reset in the Train panel: the row says so (not "no such encoder"), in its place
        win.show_view("train")
        train.reset()
        win.show_view("compare")
        qtbot.waitUntil(lambda: [r.data.name for r in compare.view.rows] == ["gpt2", "tokviz BPE (Train panel)"],
                        timeout=5000)
        row = compare.view.rows[1].data
        assert not row.error and "Train panel was reset" in row.message
    finally:
        win.close()


def test_reset_train_panel_row_says_so_and_takes_the_next_model(qtbot, session):
    session.offer_trained_model(Toy("tokviz BPE (step 10)", fail_on_digits=False))
    panel = make_panel(qtbot, session, ["gpt2", "tokviz BPE (step 10)", "o200k_base"])
    assert panel.view.rows[1].data.encoding is not None
    shown(panel, qtbot, lambda: session.offer_trained_model(None))
    row = panel.view.rows[1].data
    assert row.name == "tokviz BPE (Train panel)" and not row.error
    assert "Train panel was reset" in row.message
    assert "Train panel was reset" in panel.stats_table.item(1, 1).text()
    shown(panel, qtbot, lambda: session.offer_trained_model(Toy("tokviz BPE (step 5)", fail_on_digits=False)))
    assert panel.encoder_names() == ["gpt2", "tokviz BPE (step 5)", "o200k_base"]
    assert panel.view.rows[1].data.encoding.text == TEXT
    panel.shutdown()


# ---- the encoder list is remembered ------------------------------------------------------------
def test_encoder_list_is_remembered_between_runs(qtbot, session):
    assert session.settings.last_encoders == []
    first = ComparePanel(session)
    qtbot.addWidget(first)
    assert first.encoder_names()[:4] == ["gpt2", "cl100k_base", "o200k_base", "sp:demo_unigram"]  # the default
    first.remove_encoder_name("cl100k_base")
    first.move_encoder("sp:demo_unigram", -3)
    first.add_encoder_name("cl100k_base")
    expected = ["sp:demo_unigram", "gpt2", "o200k_base", "tokviz BPE (demo corpus)", "cl100k_base"]
    assert first.encoder_names() == expected
    assert session.settings.last_encoders == expected
    first.shutdown()

    again = ComparePanel(session)  # the next run
    qtbot.addWidget(again)
    assert again.encoder_names() == expected
    again.shutdown()


def test_remembered_names_no_longer_available_are_skipped(qtbot, session):
    session.settings.last_encoders = ["o200k_base", "sp:gone", "tokviz BPE (step 40)", "gpt2"]
    panel = ComparePanel(session)
    qtbot.addWidget(panel)
    assert panel.encoder_names() == ["o200k_base", "gpt2"]
    panel.shutdown()
    session.settings.last_encoders = ["sp:gone"]  # nothing valid left: the default list
    panel = ComparePanel(session)
    qtbot.addWidget(panel)
    assert panel.encoder_names()[:3] == ["gpt2", "cl100k_base", "o200k_base"]
    panel.shutdown()


# ---- error text in both themes --------------------------------------------------------------------
def _contrast(a, b) -> float:
    def lum(c):
        def ch(v):
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c.red()) + 0.7152 * ch(c.green()) + 0.0722 * ch(c.blue())
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_error_text_is_readable_in_both_themes(qtbot, session, theme):
    from PySide6.QtGui import QPalette

    from tokviz.ui import theme as theme_module
    from tokviz.ui.theme import apply_theme, is_dark

    session.registry.add(Toy())
    panel = make_panel(qtbot, session, ["gpt2", "toy", "o200k_base", "cl100k_base", "sp:demo_unigram"])
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    before = (QPalette(app.palette()), app.style().name(), is_dark())
    try:
        dark = apply_theme(theme)
        session.themeChanged.emit(dark)
        panel.show_message("Cannot open model: broken")
        shown(panel, qtbot, lambda: None)
        base = panel.stats_table.palette().color(QPalette.ColorRole.Base)
        assert (base.lightness() < 128) == (theme == "dark")
        err = panel.stats_table.item(1, 1)
        assert "digits are not supported" in err.text()
        assert _contrast(err.foreground().color(), base) >= 4.5
        background, label = panel.message_bar.colors()
        assert _contrast(label, background) >= 4.5
        # the encoders' names keep their colour and can be read (orange on white was 3.4:1)
        for r in range(panel.stats_table.rowCount()):
            assert _contrast(panel.stats_table.item(r, 0).foreground().color(), base) >= 4.5
        list_base = panel.encoder_list.palette().color(QPalette.ColorRole.Base)
        for i in range(panel.encoder_list.count()):
            assert _contrast(panel.encoder_list.item(i).foreground().color(), list_base) >= 4.5
    finally:  # leave the application as other tests expect it
        app.setStyle(before[1])
        app.setPalette(before[0])
        theme_module._current["dark"] = before[2]
        panel.shutdown()


# ---- round trip, model files, corpus file ---------------------------------------------------------
def test_round_trip_differences_are_listed_under_the_stats(qtbot, session):
    # the demo unigram model normalizes NFKC: a fullwidth h and a circled 1 do not come back
    panel = make_panel(qtbot, session, ["gpt2", "sp:demo_unigram"], text="ｈi 안녕 ①")
    assert panel.stats_table.item(0, 9).text() == "exact"
    assert panel.stats_table.item(1, 9).text() == "differs (2)"
    assert "'ｈ' became 'h'" in panel.stats_table.item(1, 9).toolTip()
    assert panel.diff_label.isVisibleTo(panel)
    label = panel.diff_label.text()
    assert "<b>sp:demo_unigram</b> round trip:" in label and "gpt2" not in label
    assert "at 0: &#x27;ｈ&#x27; became &#x27;h&#x27;" in label and "at 6: &#x27;①&#x27; became &#x27;1&#x27;" in label
    shown(panel, qtbot, lambda: panel.set_text("hi 안녕"))  # nothing lost: the label goes away
    assert not panel.diff_label.isVisibleTo(panel) and panel.stats_table.item(1, 9).text() == "exact"
    panel.shutdown()


@pytest.fixture(scope="module")
def small_bpe():
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.bpe.trainer import BPETrainer

    trainer = BPETrainer(TrainerConfig(mode="byte", merges=40, pattern="gpt4"))
    for _ in trainer.run(["안녕하세요 여러분 안녕 hello hello world tokens tokens\n"] * 20):
        pass
    return trainer.model()


@pytest.mark.parametrize("fmt,file_name", [("tokviz", "small.json"), ("tiktoken", "small.tiktoken")])
def test_open_tokviz_and_tiktoken_model_files(qtbot, session, tmp_path, small_bpe, fmt, file_name):
    from tokviz.core.bpe.formats import save_model

    save_model(small_bpe, tmp_path / file_name, fmt)
    panel = make_panel(qtbot, session, ["gpt2"], text="안녕하세요 hello tokens")
    asked = []
    # a rank file records no pattern: the panel asks (a dialog for users; the test answers)
    panel.ask_pattern = lambda path: asked.append(path.name) or "gpt4"
    with qtbot.waitSignal(panel.rowsUpdated, timeout=20000):
        assert opened(qtbot, panel, tmp_path / file_name) is True
    assert asked == ([file_name] if fmt == "tiktoken" else [])
    assert len(panel.encoder_names()) == 2 and not panel.message_bar.isVisibleTo(panel)
    row = panel.view.rows[1].data
    assert not row.error, row.message
    assert row.encoding.ids == small_bpe.encode("안녕하세요 hello tokens").ids
    assert panel.stats_table.item(1, 1).text() == str(len(row.encoding.ids))
    panel.shutdown()


def test_a_rank_file_whose_pattern_the_user_does_not_give_is_not_opened(qtbot, session, tmp_path, small_bpe,
                                                                         monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    from tokviz.core.bpe.formats import save_model

    save_model(small_bpe, tmp_path / "r.tiktoken", "tiktoken")
    panel = make_panel(qtbot, session, ["gpt2"], text="hello")
    shown = []
    # the real dialog, cancelled: nothing is added and the message says why
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a, **k: shown.append(a[3]) or ("", False)))
    assert opened(qtbot, panel, tmp_path / "r.tiktoken") is False
    assert shown and "gpt4" in shown[0] and len(panel.encoder_names()) == 1
    assert "needs its pre-split pattern" in panel.message_bar.text()
    panel.shutdown()


def test_corpus_from_a_file(qtbot, session, tmp_path):
    lines = ["첫 번째 줄입니다", "", "second line, hello world", "세 번째 👋🏽"]
    path = tmp_path / "mini.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    panel = make_panel(qtbot, session, ["gpt2", "o200k_base"])
    panel.set_corpus_file(str(path))
    assert panel.corpus_source.currentText() == "File: mini.txt"
    with qtbot.waitSignal(panel.corpusFinished, timeout=30000) as blocker:
        panel.run_corpus()
    assert blocker.args[0] is not None and not blocker.args[0].cancelled
    t = panel.corpus_table
    assert t.rowCount() == 2
    texts = [ln for ln in lines if ln]
    for r, name in enumerate(["gpt2", "o200k_base"]):
        expected = sum(len(openai_encoder(name).tiktoken.encode_ordinary(x)) for x in texts)
        assert [t.item(r, c).text() for c in (0, 1, 2, 3)] == ["mini", name, "3", f"{expected:,}"]
    panel.shutdown()


def test_encoder_names_in_the_rows_are_whole_unless_very_long(qtbot, session):
    long_name = "sp:unigram-2000 (File: a_corpus_file_with_a_really_quite_long_name_indeed.txt)"
    session.registry.add(Toy("tokviz BPE (demo corpus)", fail_on_digits=False))
    session.registry.add(Toy(long_name, fail_on_digits=False))
    panel = make_panel(qtbot, session, ["gpt2", "tokviz BPE (demo corpus)", long_name])
    view = panel.view
    assert view.row_label(0) == "gpt2"
    assert view.row_label(1) == "tokviz BPE (demo corpus)"  # was "tokviz BPE…mo corpus)"
    label = view.row_label(2)
    assert "…" in label and label.startswith("sp:unigram") and label.endswith(".txt)")
    assert view.GUTTER <= view.width() / 3 + 1  # the tokens keep most of the room
    panel.shutdown()


# ---- font scale (zoom, presentation mode) -----------------------------------------------------
def test_byte_cells_hold_their_hex_at_every_font_scale(qtbot, session, monkeypatch):
    """Presentation mode (1.6x), Ctrl +/- (1.2x, 0.8x) and back to 1.0: every text the rows paint
    fits its cell, measured with the font it is painted in, and a cut character's hex bytes keep
    clear of the token's border (2 px each side: the hover outline). At 1.6x "f0 9f 91" ran into the
    next cell and "ec 95" under the border; back at 1.0 the cells differed from the start-up ones."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF, QPainter

    from tokviz.ui import fonts
    from tokviz.ui.compare import rows as compare_rows
    from tokviz.ui.main_window import MainWindow

    drawn = []

    class RecordingPainter(QPainter):
        def drawText(self, *args):  # noqa: N802
            if len(args) == 3 and isinstance(args[0], QRectF):
                drawn.append((QRectF(args[0]), args[2], self.font()))
            return super().drawText(*args)

    monkeypatch.setattr(compare_rows, "QPainter", RecordingPainter)
    win = MainWindow(session)
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    try:
        panel = win.show_view("compare")
        panel.set_encoders(["gpt2", "cl100k_base"])
        shown(panel, qtbot, lambda: panel.set_text("안녕하세요 👋 Hello world 123 👋🏽"))
        view = panel.view
        start_widths = view.cell_widths()

        def check(scale):
            assert fonts.scale() == pytest.approx(scale)
            drawn.clear()
            view.grab()
            hex_font = view.hex_font()
            hex_labels = [t for _, t, f in drawn if f == hex_font]
            # gpt2 cuts every syllable and the emoji: their pieces are painted in hex
            assert {"EC", "95", "F0 9F 91"} <= set(hex_labels), hex_labels
            assert "EC 95" in hex_labels  # cl100k_base keeps two bytes of 안 together
            for rect, text, font in drawn:
                width = QFontMetricsF(font).horizontalAdvance(text)
                room = rect.width() - (4 if font == hex_font else 0)
                assert width <= room + 0.01, (scale, text, width, rect.width())

        win.toggle_presentation(True, full_screen=False)
        check(1.6)
        for scale in (1.2, 0.8, 1.0):
            win.set_font_scale(scale)
            check(scale)
        assert view.cell_widths() == start_widths  # Ctrl+0 gives back the start-up layout
    finally:
        win.toggle_presentation(False, full_screen=False)
        win.set_font_scale(1.0)
        win.close()


def test_the_token_chart_leaves_room_for_every_value_at_any_width(qtbot):
    # on a narrow chart at presentation scale a fixed 18 % of headroom cut "198" to "19"
    import pyqtgraph as pg
    from PySide6.QtGui import QColor

    from tests.support.app_font import presentation_font
    from tokviz.ui.compare.charts import TokenBarChart

    with presentation_font():
        chart = TokenBarChart()
        qtbot.addWidget(chart)
        chart.show()
        for width in (260, 420, 900):
            chart.resize(width, 260)
            chart.set_values(["gpt2", "cl100k_base", "tokviz BPE (데모 말뭉치)"], [198, 119, 165],
                             [QColor("#4e79a7")] * 3)
            view = chart.plot_item.getViewBox()
            qtbot.waitUntil(lambda v=view: v.width() > 0, timeout=2000)
            chart.grab()  # painted: the view's range is applied to the items
            right = view.mapRectToScene(view.boundingRect()).right()
            labels = [i for i in chart.plot_item.items if isinstance(i, pg.TextItem) and i.isVisible()]
            assert len(labels) == 3
            for label in labels:
                # anchored at its left middle: the text runs its own width (pixels) right of that point
                edge = label.scenePos().x() + label.textItem.boundingRect().width()
                assert edge <= right + 1, (width, label.textItem.toPlainText(), edge, right)
