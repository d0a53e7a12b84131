"""The Train panel as a lecture, on one run: the sample follows each merge from the whole corpus, byte
merges are named by their characters, the runners-up and the tree follow the step, and the steps export
as an animation, a model or a picture. Every test here looks at (or exports) the same NSMC run without
changing it, so the module trains it once, in a window of its own (each test trained its own: ~2 s CPU
apiece); the tests that train differently or switch the window's language, theme or presentation mode
are in test_train_lecture.py."""

from __future__ import annotations

import pytest

from tests.support.train_lecture import MERGES, NSMC, show_step, steps_to_check, train_in_window
from tests.support.train_panel import save_and_wait
from tokviz.ui.main_window import MainWindow
from tokviz.ui.settings import Settings
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.views import FRESH_BG


@pytest.fixture(scope="module")
def nsmc(qapp, request, tmp_path_factory):
    from pytestqt.qtbot import QtBot

    win = MainWindow(settings=Settings.at(tmp_path_factory.mktemp("nsmc") / "settings.ini"))
    win.resize(1366, 768)
    win.show()
    yield train_in_window(win, QtBot(request), CorpusSource.file(NSMC))
    win.close()
    win.deleteLater()


def test_every_step_shows_its_merge_in_the_sample_from_the_whole_corpus(nsmc, qtbot):
    panel = nsmc
    for step in steps_to_check(MERGES):
        show_step(panel, qtbot, step)
        # every merge occurs in the corpus (its count is at least min_frequency), so it is on screen
        assert panel.replay.steps[step - 1].count >= 2
        assert panel.followed_lines(), step
        first = panel.sample_view.line_runs(0)
        assert any(r.bg == FRESH_BG for r in first), (step, first)
        assert panel.sample_view.verticalScrollBar().value() == 0


def test_byte_merges_are_named_by_their_characters_with_hex(nsmc, qtbot):
    from tests.support.train_panel import banner_text

    panel = nsmc
    partial = next(s for s in panel.replay.steps if "<0x" in s.left_piece and "<0x" in s.right_piece)
    show_step(panel, qtbot, partial.step)
    shown = banner_text(panel)
    # the banner's big line names the character and the part ("X bytes 1–2 of 3"), no <0xNN> left
    assert "of 3" in shown and "<0x" not in shown
    hexes = [partial.new_bytes[i : i + 1].hex().upper() for i in range(len(partial.new_bytes))]
    assert all(h in shown for h in hexes)
    row = partial.step - 1
    label = panel.vocab_filter.index(row, 1).data()
    assert "<0x" not in label and "/3" in label
    # the tree names every partial node by the root token's characters (one naming for the whole tree)
    for s in panel.replay.steps:
        if "<0x" not in s.new_piece:
            continue
        panel.select_token(s.token_id)
        labels = panel.tree_view.drawn_labels()
        root = labels[-1][1]
        root_chars = {w for w in root.split() if "/" not in w}
        for _, label in labels:
            assert all(w in root_chars for w in label.split() if "/" not in w and w != "·"), (root, labels)
    completing = next((s for s in panel.replay.steps if "<0x" in s.left_piece and "<0x" not in s.new_piece), None)
    if completing is not None:
        show_step(panel, qtbot, completing.step)
        assert "completes" in banner_text(panel)


def test_why_this_pair_lists_the_winner_with_the_trainers_count(nsmc, qtbot):
    panel = nsmc
    for step in (1, 7, MERGES):
        show_step(panel, qtbot, step)
        s = panel.replay.steps[step - 1]
        cands = panel.step_facts.candidates
        assert (cands.pairs[0].left, cands.pairs[0].right, cands.pairs[0].count) == (s.left, s.right, s.count)
        text = panel.why_label.text()
        assert f"<b>{s.count:,}</b>" in text and FRESH_BG in text
        assert len(cands.pairs) > 1 and all(f"<b>{c.count:,}</b>" in text for c in cands.pairs)


def test_merge_tree_follows_the_step_even_when_scrubbing_back(nsmc, qtbot):
    panel = nsmc
    deep = next(s for s in panel.replay.steps if panel.replay.merge_tree(s.token_id).depth() >= 3)
    panel.set_step(MERGES)
    panel.set_step(deep.step)  # scrub back
    assert panel.tree_view.tree.token_id == deep.token_id
    assert panel.tree_view.tree.depth() >= 3  # the step's own tree, not a root-only box


def test_saving_says_so_in_green_not_in_error_pink(nsmc, qtbot, tmp_path):
    from tokviz.ui.token_colors import contrast_ratio

    panel = nsmc
    written = save_and_wait(qtbot, panel, tmp_path / "model.json", "tokviz")
    assert written and panel.message.level == "success"
    bg, fg = panel.message.colors()
    assert 90 <= bg.hue() <= 160  # green (the error pink's hue is ~2)
    assert contrast_ratio(bg, fg) >= 7


def test_no_lines_or_runners_up_computed_faster_than_a_room_reads(nsmc, qtbot):
    from tokviz.ui.train.follow import FOLLOW_PACE

    panel = nsmc
    panel.set_step(3)
    qtbot.waitUntil(lambda: panel.asked_step() == 3)
    pace = panel.playback.pace
    panel.playback.playing = True
    try:
        panel.playback.pace = FOLLOW_PACE * 10
        panel.playback.seek(4, len(panel.replay))
        panel.redraw()  # the frame at step 4 asks for its lines, or not
        assert panel.asked_step() == 3
        panel.playback.pace = FOLLOW_PACE
        panel.playback.seek(4, len(panel.replay))
        panel.redraw()  # the frame at step 4 asks for its lines, or not
        assert panel.asked_step() == 4
    finally:
        panel.playback.playing = False
        panel.playback.pace = pace  # the run is the module's other tests' too


def test_steps_export_as_an_animated_gif_and_apng_without_touching_the_view(nsmc, qtbot, tmp_path):
    from PIL import Image, ImageChops

    from tokviz.ui.train.animation_export import FRAME_SIZE

    panel = nsmc
    panel.set_step(20)
    shown = panel.merge_banner.text()
    for name in ("steps.gif", "steps.png"):
        export = panel.export_animation(tmp_path / name, 1, 5)
        with qtbot.waitSignal(export.finished, timeout=60000) as done:
            pass
        assert done.args == [tmp_path / name]
        with Image.open(tmp_path / name) as image:
            assert image.n_frames == 5 and image.size == FRAME_SIZE
            frames = []
            for i in range(5):
                image.seek(i)
                frames.append(image.convert("RGB"))
        # each frame is its own step: the banner (and the fresh merge in the sample) changes
        assert all(ImageChops.difference(a, b).getbbox() for a, b in zip(frames, frames[1:], strict=False))
    assert panel.cursor == 20 and panel.merge_banner.text() == shown  # the panel still shows its step
    assert panel.message.level == "success"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["steps.gif", "steps.png"]


def test_animation_export_can_be_cancelled_and_writes_nothing(nsmc, qtbot, tmp_path):
    from tokviz.core.animation import AnimationError

    panel = nsmc
    export = panel.export_animation(tmp_path / "all.gif", 1, MERGES)
    with qtbot.waitSignal(export.progressed, timeout=10000):
        pass
    assert len(export.frames) < MERGES  # frames are drawn a few per event-loop turn, not all at once
    with qtbot.waitSignal(export.finished, timeout=10000) as done:
        panel.cancel_export()
    assert done.args == [None] and list(tmp_path.iterdir()) == []
    with pytest.raises(AnimationError):
        panel.export_animation(tmp_path / "none.gif", 1, MERGES + 1)
    with pytest.raises(AnimationError):
        panel.export_animation(tmp_path / "steps.jpg", 1, 2)


def test_view_saves_as_a_png_at_presentation_scale(nsmc, tmp_path):
    from PIL import Image

    from tokviz.ui.train.animation_export import presentation_factor

    panel = nsmc
    written = panel.save_view_image(tmp_path / "view.png")
    factor = presentation_factor()
    assert factor > 1.5  # not presenting: the image is drawn at the presentation font scale
    with Image.open(written) as image:
        assert image.size == (round(panel.width() * factor), round(panel.height() * factor))
