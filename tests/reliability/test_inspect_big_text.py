"""Big and hostile texts in the Inspector: a line of 300,000 characters, of emoji, a big paste, and a
FIFO, device or folder given as the text file. Each is shown (or refused with a message) without the
editor laying out what would freeze the window, and the encoder still gets the whole exact text."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt

from tests.support.inspect_panel import wait_shown
from tokviz.core.encoders.builtin import default_registry
from tokviz.ui.common import exact_text
from tokviz.ui.common.exact_text import PREVIEW_CHARS, PREVIEW_LINE_CHARS, SLICE_CHARS
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session

ZWJ_FAMILY = "👨‍👩‍👧‍👦"


@pytest.fixture(scope="module")
def registry():
    return default_registry()


@pytest.fixture
def panel(qtbot, registry):
    p = InspectPanel(Session(registry))
    qtbot.addWidget(p)
    p.resize(1200, 800)
    p.show()
    wait_shown(qtbot, p)
    yield p
    p.shutdown()


def largest_insert(panel) -> list[int]:
    """Record the largest single change of the editor's document (UTF-16 units added at once)."""
    seen = [0]
    panel.editor.document().contentsChange.connect(lambda _pos, _rem, added: seen.__setitem__(0, max(seen[0], added)))
    return seen


# A line twice the slice size and three times the longest line the editor lays out: it is pasted in
# slices and previewed, as a million-character line (which froze the window 6 minutes) is, at a third
# of the encoding work. On code without the preview the same assertions fail at this size.
LONG_LINE_CHARS = 2 * SLICE_CHARS
assert LONG_LINE_CHARS >= 3 * PREVIEW_LINE_CHARS


@pytest.mark.parametrize(
    ("encoder", "text"),
    [
        ("sp:demo_unigram", "abcdefghij" * (LONG_LINE_CHARS // 10)),  # one line of plain letters
        ("cl100k_base", ZWJ_FAMILY * (LONG_LINE_CHARS // len(ZWJ_FAMILY))),  # a line of ZWJ emoji
    ],
    ids=["one-line", "zwj-emoji"],
)
def test_a_line_too_long_to_lay_out_is_previewed_and_encoded_whole(qtbot, panel, encoder, text):
    panel.set_encoder(encoder)
    biggest = largest_insert(panel)
    panel.editor.selectAll()
    assert panel.paste_text(text)
    assert panel.text() == text  # at once, while the editor takes it slice by slice
    # the first slice holds no line break: the editor shows a preview, Qt never lays the long line out
    qtbot.waitUntil(lambda: not panel.exact_text.loading(), timeout=60_000)
    assert panel.exact_text.previewing()
    assert panel.editor.isReadOnly()
    assert panel.editor.document().characterCount() <= 2 * PREVIEW_CHARS + 1
    assert biggest[0] <= 2 * PREVIEW_CHARS + 1
    assert panel.text() == text
    panel.encode_now()
    wait_shown(qtbot, panel, text, timeout=120_000)
    assert "read-only" in panel.message_bar.text()
    # the message's action gives an empty, editable editor back
    qtbot.mouseClick(panel.message_bar.action, Qt.MouseButton.LeftButton)
    assert not panel.exact_text.previewing() and not panel.editor.isReadOnly()
    assert panel.text() == ""


def test_a_big_paste_goes_into_the_editor_in_slices_and_stays_exact(qtbot, panel):
    line = "안녕 tokens\u00a0👋 CRLF\r\n" + "lone CR\r" + "plain line\n" + "\u2029"
    text = "\ufeff" + line * (3 * SLICE_CHARS // len(line))
    biggest = largest_insert(panel)
    panel.editor.selectAll()
    assert panel.paste_text(text)
    assert panel.exact_text.loading() and panel.editor.isReadOnly()
    assert panel.text() == text  # the whole text at once, while the editor fills
    qtbot.waitUntil(lambda: not panel.exact_text.loading(), timeout=60_000)
    assert not panel.editor.isReadOnly()
    assert biggest[0] <= 2 * SLICE_CHARS  # never the whole text at once (UTF-16 units: emoji count two)
    panel.exact_text._text = None  # rebuild from the document: every break came through the slices
    assert panel.text() == text
    panel.encode_now()
    wait_shown(qtbot, panel, text, timeout=120_000)


def test_typing_after_a_sliced_load_keeps_the_text_exact(qtbot, panel):
    text = "a\r\n" * (SLICE_CHARS // 2)
    panel.set_text(text)
    qtbot.waitUntil(lambda: not panel.exact_text.loading(), timeout=60_000)
    panel.editor.moveCursor(panel.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(panel.editor, "end")
    assert panel.text() == text + "end"


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_only_regular_files_are_opened_as_text(panel, tmp_path, kind):
    if kind == "fifo":
        path = tmp_path / "pipe"
        os.mkfifo(path)  # opening it for reading would block until a writer comes
    elif kind == "device":
        path = "/dev/zero"  # never ends
    else:
        path = tmp_path
    before = panel.text()
    assert not panel.open_text_file(path)
    assert panel.message_bar.isVisible() and panel.message_bar.level == "error"
    assert re.search(r"FIFO|device|folder", panel.message_bar.text())
    assert panel.text() == before


def test_longest_line_counts_every_kind_of_break():
    assert exact_text.longest_line("ab\r\ncde\rf\u2029ghij\u2028k") == 6  # U+2028 stays inside a block
    assert PREVIEW_LINE_CHARS < SLICE_CHARS  # a slice without a break is always a previewed line


def test_a_big_paste_into_the_middle_of_a_crlf_text_keeps_both_exact(qtbot, panel):
    panel.set_text("first\r\nsecond 👋 line\r\nthird")
    cursor = panel.editor.textCursor()
    cursor.setPosition(13)  # "first", one block boundary for the CRLF, "second "
    cursor.setPosition(15, cursor.MoveMode.KeepAnchor)  # 👋 is two UTF-16 units
    panel.editor.setTextCursor(cursor)
    pasted = "α\rβ\u2029γ\n" * (SLICE_CHARS // 3)
    assert panel.paste_text(pasted)
    expected = "first\r\nsecond " + pasted + " line\r\nthird"
    assert panel.text() == expected
    qtbot.waitUntil(lambda: not panel.exact_text.loading(), timeout=60_000)
    panel.exact_text._text = None  # rebuild from the document
    assert panel.text() == expected


# ---- a big paste with a native encoder (tokenizers, sentencepiece hold the GIL for a whole call) ----------
class _Counting:
    """A byte-level encoder that notes how much text each call got; ``pause`` seconds per call (sleeping
    releases the GIL, as the pieces between native calls do)."""

    family = "tokenizer.json"
    source = "a test stand-in"
    byte_level = True

    def __init__(self, inner, name="counting", pause=0.0):
        self.inner, self.name, self.pause = inner, name, pause
        self.vocab_size = inner.vocab_size
        self.calls: list[int] = []

    def encode(self, text, *, allow_special=False):
        import time

        self.calls.append(len(text))
        time.sleep(self.pause)
        return self.inner.encode(text, allow_special=allow_special)

    def decode(self, ids):
        return self.inner.decode(ids)

    def special_tokens(self):
        return self.inner.special_tokens()

    def token_bytes(self, token_id):
        return self.inner.token_bytes(token_id)


def _korean_lines(chars: int) -> str:
    line = "이런 드라마가 또 나왔으면ㅜㅜ 👋 tokens  and\tspaces \n\n  들여쓴 줄\r\n끝.\n"
    return (line * (chars // len(line) + 1))[:chars]


def test_a_big_text_is_encoded_in_pieces_that_give_the_whole_text_encoding(registry, monkeypatch):
    from tokviz.ui.inspect import jobs

    monkeypatch.setattr(jobs, "PIECES_FROM_CHARS", 2_000)
    monkeypatch.setattr(jobs, "PIECE_CHARS", 300)
    cl100k = registry.get("cl100k_base")
    encoder = _Counting(cl100k)
    text = _korean_lines(6_000)
    done = jobs.encode_in_pieces(encoder, text, False)
    assert len(encoder.calls) > 10 and max(encoder.calls) < 1_000  # never the whole text in one native call
    whole = cl100k.encode(text)
    assert done.encoder == "counting" and whole.encoder == "cl100k_base"
    done.encoder = whole.encoder
    assert done == whole  # ids, spans, bytes: the same Encoding as one call


def test_a_newer_request_stops_a_big_encoding_between_pieces(registry, monkeypatch):
    from tokviz.ui.inspect import jobs

    monkeypatch.setattr(jobs, "PIECES_FROM_CHARS", 2_000)
    monkeypatch.setattr(jobs, "PIECE_CHARS", 300)
    encoder = _Counting(registry.get("cl100k_base"))
    stale = iter([False, False, True])
    assert jobs.encode_in_pieces(encoder, _korean_lines(6_000), False, lambda: next(stale, True)) is None
    assert len(encoder.calls) == 2


def test_a_big_paste_shows_how_far_its_encoding_got(qtbot, registry, monkeypatch):
    from tokviz.core.encoders.registry import Registry
    from tokviz.ui.inspect import jobs

    monkeypatch.setattr(jobs, "PIECES_FROM_CHARS", 2_000)
    monkeypatch.setattr(jobs, "PIECE_CHARS", 300)
    monkeypatch.setattr(jobs, "PROGRESS_S", 0.0)
    session = Session(Registry())
    session.registry.add(_Counting(registry.get("cl100k_base"), pause=0.02))
    p = InspectPanel(session)
    qtbot.addWidget(p)
    p.show()
    try:
        wait_shown(qtbot, p)
        p.result.error = "an older encoder's failure"  # as a failed encoder left it
        p.message_bar.show_message(p.result.error, "error")
        notes = []
        bar = []  # what the message bar said while the encoding went on
        p.counts.note.setText = lambda text, real=p.counts.note.setText: (
            notes.append(text), bar.append(p.message_bar.text() if p.message_bar.isVisible() else ""), real(text))
        text = _korean_lines(6_000)
        p.set_text(text)
        p.encode_now()
        wait_shown(qtbot, p, text, timeout=30_000)
        assert any("counting" in n and "%" in n for n in notes)
        assert not any("older encoder" in b for b, n in zip(bar, notes, strict=True) if "%" in n)  # cleared
        assert "%" not in p.counts.note.text()  # the result's own note replaced it
    finally:
        p.shutdown()


def _same_tokens(a, b) -> bool:
    columns = ("id_array", "byte_start_array", "byte_end_array", "start_array", "end_array", "partial_array",
               "kind_array")
    return (all((getattr(a, c) == getattr(b, c)).all() and len(getattr(a, c)) == len(getattr(b, c))
                for c in columns)
            and a.tokens[:] == b.tokens[:] and a.text == b.text)


def test_a_sentencepiece_model_is_encoded_in_overlapping_windows_that_give_the_whole_text_tokens(registry,
                                                                                               monkeypatch):
    from tokviz.ui.inspect import jobs

    monkeypatch.setattr(jobs, "PIECES_FROM_CHARS", 2_000)
    monkeypatch.setattr(jobs, "PIECE_CHARS", 400)
    monkeypatch.setattr(jobs, "OVERLAP_CHARS", 100)
    sp = registry.get("sp:demo_unigram")  # NFKC, dummy prefix: a piece cut after a line break differs
    calls = []
    monkeypatch.setattr(sp, "encode", lambda text, allow_special=False, real=sp.encode: calls.append(len(text))
                        or real(text, allow_special=allow_special))
    text = _korean_lines(5_000) + "ﬁ ①  e\u0301 x" * 30  # NFKC changes these
    done, round_trip = jobs._encode_pieces(sp, text, False)
    assert len(calls) > 10 and max(calls) <= 400
    whole = sp.encode(text)
    assert _same_tokens(done, whole)
    assert round_trip is whole.round_trip_exact() is False  # NFKC changed the text: known without joining again


def test_windows_that_never_agree_fall_back_to_one_call(monkeypatch):
    from tokviz.core.encoding import Encoding
    from tokviz.ui.inspect import jobs

    monkeypatch.setattr(jobs, "PIECE_CHARS", 400)
    monkeypatch.setattr(jobs, "OVERLAP_CHARS", 100)

    class OneToken:  # a whole text is one token: no two windows share a boundary
        name = "one-token"
        calls: list[int] = []

        def encode(self, text, *, allow_special=False):
            self.calls.append(len(text))
            return Encoding.from_byte_tokens(self.name, text, [(1, text.encode("utf-8"))])

    encoder = OneToken()
    text = _korean_lines(3_000)
    done, round_trip = jobs.encode_overlapping(encoder, text, False)
    assert round_trip is None
    assert len(done) == 1 and encoder.calls[-1] == len(text)  # the whole text, as one call gives it


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab 가나\n\r\t①ﬁ👋\u0301.", min_size=0, max_size=400))
def test_overlapping_windows_give_the_whole_text_tokens_or_one_call(registry, text):
    from tokviz.ui.inspect import jobs

    old = jobs.PIECE_CHARS, jobs.OVERLAP_CHARS
    jobs.PIECE_CHARS, jobs.OVERLAP_CHARS = 60, 24
    try:
        sp = registry.get("sp:demo_unigram")
        done, round_trip = jobs.encode_overlapping(sp, text, False)
    finally:
        jobs.PIECE_CHARS, jobs.OVERLAP_CHARS = old
    whole = sp.encode(text)
    assert _same_tokens(done, whole)
    assert round_trip in (None, whole.round_trip_exact())
