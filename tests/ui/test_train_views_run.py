"""What the Train panel's views show of one finished run, checked against tokviz's core BPE (trained
again, independently): the banner of each step, the merge tree of a selected vocabulary row, the
probe's pieces and the just-merged pieces of the corpus sample. The tests share one trained window
(each trained its own: ~1.5 s CPU apiece); each starts at the run's last step with the probe's own
text. Reset, presentation scale and theme tests keep windows of their own in test_train_views.py."""

from __future__ import annotations

import re

import pytest
from PySide6.QtGui import QColor

from tests.support.train_panel import LINES, TEXT, banner_text, core_steps, merge_banner_line, train_to_the_end
from tokviz.ui.main_window import MainWindow
from tokviz.ui.settings import Settings
from tokviz.ui.train.views import FRESH_BG, PROBE_TEXT
from tokviz.ui.train.vocab import visible_piece

MERGES = 60


@pytest.fixture(scope="module")
def run(qapp, request, tmp_path_factory):
    """One window trained on TEXT to MERGES merges, with the core's own run beside it."""
    from pytestqt.qtbot import QtBot

    bot = QtBot(request)
    win = MainWindow(settings=Settings.at(tmp_path_factory.mktemp("run") / "settings.ini"))
    win.show()
    panel = train_to_the_end(win, bot, TEXT, MERGES)
    trainer, core = core_steps(panel.config, LINES)
    assert panel.replay.steps == core
    yield panel, trainer, core
    win.close()
    win.deleteLater()


@pytest.fixture
def trained(run, qtbot):
    """The shared run as a test finds it: the last step, the probe's own text segmented."""
    panel = run[0]
    panel.set_step(len(panel.replay))
    if panel.probe_edit.text() != PROBE_TEXT:
        panel.probe_edit.setText(PROBE_TEXT)
        qtbot.waitUntil(lambda: not panel.probe_timer.isActive(), timeout=2000)
    return run


def _as_tuple(node):
    """A MergeNode in the core's merge_tree form: (id, piece, left, right)."""
    if node is None:
        return None
    return (node.token_id, node.piece, _as_tuple(node.left), _as_tuple(node.right))


def _leaves(tree) -> int:
    return 1 if tree[2] is None else _leaves(tree[2]) + _leaves(tree[3])


def _shown(token_id, piece, panel):
    """A node's label: the piece; a byte piece that is part of a character is named by the tree's
    characters (``것 1–2/3``), so only its shape is known here: ``None``."""
    return None if "<0x" in piece else visible_piece(piece)


def _post_order(tree, panel, depth=0):
    """(depth, shown label) of the core tree's nodes, leaves left to right, parents after children."""
    token_id, piece, left, right = tree
    if left is None:
        return [(depth, _shown(token_id, piece, panel))]
    return (
        _post_order(left, panel, depth + 1)
        + _post_order(right, panel, depth + 1)
        + [(depth, _shown(token_id, piece, panel))]
    )


def test_banner_shows_each_steps_merge_as_the_core_made_it(trained):
    panel, _, core = trained
    for step in (1, 17, MERGES):
        panel.set_step(step)
        assert banner_text(panel) == merge_banner_line(core[step - 1], panel)


def test_selecting_a_vocabulary_row_shows_that_tokens_merge_tree(trained, qtbot):
    panel, trainer, core = trained
    model = trainer.model(MERGES)
    # a token built from merges of merges (a tree at least three levels deep)
    step = next(s for s in core if panel.replay.merge_tree(s.token_id).depth() >= 3)
    row = next(r for r in range(panel.vocab_filter.rowCount()) if panel.vocab_filter.index(r, 0).data() == step.step)
    panel.vocab_view.setCurrentIndex(panel.vocab_filter.index(row, 1))  # the user clicks the row
    expected = model.merge_tree(step.token_id)
    assert _as_tuple(panel.tree_view.tree) == expected
    drawn, wanted = panel.tree_view.drawn_labels(), _post_order(expected, panel)
    assert [d for d, _ in drawn] == [d for d, _ in wanted]
    for (_, label), (_, want) in zip(drawn, wanted, strict=True):
        if want is None:  # part of a character: named by a character of the token, ``것 1–2/3``
            assert re.fullmatch(r"(\S+ )?\S \d(–\d)?/\d( \S+)*", label), label
        else:
            assert label == want
    assert f"{_leaves(expected)} base tokens" in panel.tree_title.text()
    # another row, another tree
    other = core[0]
    row = next(r for r in range(panel.vocab_filter.rowCount()) if panel.vocab_filter.index(r, 0).data() == other.step)
    panel.vocab_view.setCurrentIndex(panel.vocab_filter.index(row, 1))
    assert _as_tuple(panel.tree_view.tree) == model.merge_tree(other.token_id)


def _expected_runs(encoding):
    """(text, tokens) per drawn run: a token of whole characters alone, byte tokens of one split
    character grouped (the grey run whose subscript counts them)."""
    out, data, n = [], b"", 0
    for tok in encoding.tokens:
        data, n = data + tok.bytes, n + 1
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        out.append((text, n))
        data, n = b"", 0
    return out


def test_editing_the_probe_resegments_it_at_the_current_step(trained, qtbot):
    panel, trainer, _ = trained
    for step, probe in ((30, "토크나이저 영화 🙂 the lowest"), (MERGES, "안녕하세요 재미있어요 tokens 😀")):
        panel.set_step(step)
        panel.probe_edit.setText(probe)
        qtbot.waitUntil(lambda: not panel.probe_timer.isActive(), timeout=2000)
        enc = trainer.model(step).encode(probe)
        runs = panel.probe_view.line_runs(0)
        assert [(r.text, int(r.sub or 1)) for r in runs if r.bg] == _expected_runs(enc), step
        assert panel.probe_status.text().startswith(f"{len(enc.tokens)} tokens")
        assert any(r.sub for r in runs)  # some characters are still split into byte tokens


def test_the_sample_highlights_the_occurrences_of_the_merge_just_made(trained, monkeypatch):
    from tokviz.ui.train import render

    # every line in the frame of the step, those out of sight too (they follow a few per frame)
    monkeypatch.setattr(render, "OFFSCREEN_BUDGET_S", 60.0)
    panel, trainer, core = trained
    lines = panel.sample_lines
    assert lines
    # a step whose new token (whole characters) occurs several times in the sample
    for s in core[5:]:
        try:
            piece = s.new_bytes.decode("utf-8")
        except UnicodeDecodeError:
            continue
        model = trainer.model(s.step)
        count = sum(model.encode(line).ids.count(s.token_id) for line in lines)
        if count >= 2:
            break
    else:
        pytest.fail("no merge of whole characters occurs twice in the sample")
    panel.set_step(s.step)
    runs = [r for i in range(len(lines)) for r in panel.sample_view.line_runs(i)]
    fresh = [r for r in runs if r.bold]
    assert [r.text for r in fresh] == [piece] * count
    assert all(r.bg == FRESH_BG for r in fresh)
    # one step later those pieces are ordinary coloured tokens again
    panel.set_step(s.step + 1)
    runs = [r for i in range(len(lines)) for r in panel.sample_view.line_runs(i)]
    assert all(r.text != piece or not r.bold for r in runs)


def _near(a: QColor, b: QColor, tol: int = 40) -> bool:
    return all(abs(u - v) <= tol for u, v in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def test_repeated_pieces_in_the_probe_and_sample_are_told_apart_by_a_gap(trained, qtbot, monkeypatch):
    from tokviz.ui.train import render

    monkeypatch.setattr(render, "OFFSCREEN_BUDGET_S", 60.0)  # every sample line in the step's frame
    panel, _, _ = trained
    panel.set_step(0)
    panel.probe_edit.setText("))))")  # one pre-token, four byte tokens of one id at step 0
    qtbot.waitUntil(lambda: not panel.probe_timer.isActive(), timeout=2000)
    runs = panel.probe_view.line_runs(0)
    assert [r.text for r in runs] == [")"] * 4
    assert len({r.bg for r in runs}) == 1  # the id keeps its one colour ...
    assert [r.mark for r in runs] == [False, True, False, True]  # ... every other one is marked
    view = panel.probe_view
    rects = view.mark_rects(0)
    assert len(rects) == 2
    image = view.viewport().grab().toImage()
    page, bg = view.viewport().palette().base().color(), QColor(runs[1].bg)
    for rect in rects:
        # a gap of page colour at the marked piece's left edge, between two patches of its colour
        y = int(rect.top()) + 2  # above the glyphs
        assert _near(QColor(image.pixel(int(rect.left()), y)), page, tol=12), rect
        assert _near(QColor(image.pixel(int(rect.left()) - 3, y)), bg), rect
        assert _near(QColor(image.pixel(int(rect.left()) + 2, y)), bg), rect

    # the sample view draws them the same way: every marked run of every line gets its gaps
    panel.set_step(len(panel.replay))
    marked = [i for i in range(panel.sample_view.line_count()) if any(r.mark for r in panel.sample_view.line_runs(i))]
    for i in marked:
        runs = panel.sample_view.line_runs(i)
        assert all(not b.mark or (a.bg == b.bg and not a.mark) for a, b in zip(runs, runs[1:], strict=False))
        assert len(panel.sample_view.mark_rects(i)) >= sum(r.mark for r in runs)


def test_the_probe_document_is_rebuilt_only_when_its_text_changes(trained, qtbot, monkeypatch):
    panel, trainer, _ = trained
    calls = []
    real = panel.probe_view.set_plain_lines
    monkeypatch.setattr(panel.probe_view, "set_plain_lines", lambda lines: (calls.append(lines), real(lines)))
    probe = panel.probe_edit.text()
    for step in range(1, MERGES + 1, 7):  # playback: a new step on every frame
        panel.set_step(step)
        panel.segment_probe()
        enc = trainer.model(step).encode(probe)
        assert [(r.text, int(r.sub or 1)) for r in panel.probe_view.line_runs(0) if r.bg] == _expected_runs(enc)
    assert calls == []
    panel.probe_edit.setText("영화 the lowest")
    qtbot.waitUntil(lambda: not panel.probe_timer.isActive(), timeout=2000)
    assert calls == [["영화 the lowest"]]
    runs = panel.probe_view.line_runs(0)
    assert "".join(r.text for r in runs) == "영화 the lowest"
    assert panel.probe_view.toPlainText() == "".join(r.text + r.sub for r in runs)  # one line, no leftovers
