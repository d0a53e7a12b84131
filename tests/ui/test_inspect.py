"""The Inspector, driven like a user drives it: typing, switching encoders, clicking tokens, pasting
bad text. Every test asserts what the panel shows (labels, counts, layers), not only that it ran."""

from __future__ import annotations

import json
import threading
import time
import unicodedata
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QByteArray, QMimeData, Qt
from PySide6.QtGui import QGuiApplication, QImage, QTextCursor
from PySide6.QtWidgets import QToolTip

from tests.support.inspect_panel import own_session
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoders.registry import Registry
from tokviz.ui.inspect import jobs as inspect_jobs
from tokviz.ui.inspect import panel as inspect_panel
from tokviz.ui.inspect import release as inspect_release
from tokviz.ui.inspect import views as inspect_views
from tokviz.ui.inspect.describe import encoding_json
from tokviz.ui.inspect.panel import DEMO_TEXT, InspectPanel
from tokviz.ui.session import Session

FAMILY = "👨‍👩‍👧‍👦"
DEBOUNCE_WAIT_MS = 400  # the 150 ms debounce plus slack


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


def wait_shown(qtbot, panel, text: str | None = None, timeout: int = 15_000) -> None:
    """Wait until the views show the latest request (and, if given, this text)."""
    def ready():
        if not panel.is_current():
            return False
        if text is not None:
            assert panel.result.encoding is not None, panel.result.error
            return panel.result.encoding.text == text
        return True

    qtbot.waitUntil(ready, timeout=timeout)


def show(qtbot, panel, text: str, encoder: str = "cl100k_base") -> None:
    if panel.current_encoder() != encoder:
        panel.set_encoder(encoder)
    panel.set_text(text)
    panel.encode_now()
    wait_shown(qtbot, panel, text)


def click_token(qtbot, panel, index: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    rect = panel.token_view.token_rect(index)
    assert rect is not None, f"token {index} is not drawn"
    qtbot.mouseClick(panel.token_view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center().toPoint())


# ---- typing and encoders ---------------------------------------------------------------------------
def test_typing_updates_tokens_after_the_debounce(qtbot, panel, registry):
    panel.editor.clear()
    qtbot.keyClicks(panel.editor, "hello world")
    assert not panel.busy() and panel.result.encoding.text != "hello world"  # not encoded per keystroke
    wait_shown(qtbot, panel, "hello world")
    assert panel.token_view.shown_labels() == ["hello", "·world"]
    assert panel.result.encoding.ids == registry.get("cl100k_base").encode("hello world").ids
    assert panel.counts.value("tokens") == "2"
    assert panel.counts.value("characters") == "11"
    assert panel.counts.value("words") == "2"


def test_switching_encoders_changes_counts_to_what_the_encoder_gives(qtbot, panel, registry):
    text = "안녕하세요, 세계! Tokenization is fun."
    show(qtbot, panel, text)
    seen = {}
    for name in ("cl100k_base", "o200k_base", "gpt2"):
        panel.set_encoder(name)
        wait_shown(qtbot, panel, text)
        expected = registry.get(name).encode(text)
        assert panel.result.encoding.encoder == name
        assert panel.counts.value("tokens") == str(len(expected.tokens))
        assert panel.counts.value("partial_tokens") == str(sum(t.partial for t in expected.tokens))
        seen[name] = len(expected.tokens)
    assert len(set(seen.values())) > 1  # the point of the picker: the encoders differ on Korean
    assert panel.counts.value("bytes") == str(len(text.encode("utf-8")))


def test_picker_lists_every_encoder_unavailable_ones_disabled_with_reason(qtbot, panel, registry):
    entries = panel.encoder_names()
    names = [n for n, _, _ in entries]
    statuses = {s.name: s for s in registry.statuses()}
    assert names[:-1] == list(statuses)
    assert entries[-1][0] != "" and "Open model" in panel.encoder_combo.itemText(len(entries) - 1)
    for name, enabled, tip in entries[:-1]:
        assert enabled == statuses[name].available
        if not enabled:
            assert tip.startswith("Unavailable:") and statuses[name].reason in tip


class _Renamed:
    """A trained-model stand-in: cl100k under the name the Train panel uses."""

    family = "tokviz-bpe"
    source = "trained in tokviz"
    byte_level = True

    def __init__(self, inner, name):
        self.inner, self.name = inner, name
        self.vocab_size = inner.vocab_size

    def encode(self, text, *, allow_special=False):
        return self.inner.encode(text, allow_special=allow_special)

    def decode(self, ids):
        return self.inner.decode(ids)

    def special_tokens(self):
        return {}

    def token_bytes(self, token_id):
        return self.inner.token_bytes(token_id)


def test_trained_model_appears_and_follows_its_newest_step(qtbot, registry):
    session = own_session(registry)
    p = InspectPanel(session)
    qtbot.addWidget(p)
    try:
        cl = registry.get("cl100k_base")
        session.offer_trained_model(_Renamed(cl, "tokviz BPE (step 10)"))
        assert "tokviz BPE (step 10)" in [n for n, _, _ in p.encoder_names()]
        p.set_encoder("tokviz BPE (step 10)")
        session.offer_trained_model(_Renamed(cl, "tokviz BPE (step 20)"))
        names = [n for n, _, _ in p.encoder_names()]
        assert "tokviz BPE (step 10)" not in names
        assert p.current_encoder() == "tokviz BPE (step 20)"
        wait_shown(qtbot, p)
        assert p.result.request.encoder == "tokviz BPE (step 20)"
    finally:
        p.shutdown()


def test_after_the_train_panels_reset_the_inspector_says_so_and_follows_the_next_model(qtbot, registry):
    """Followed through the session's signals, whatever the model is called; Reset is said in the
    message bar (the tokens below change encoder) and the next trained model is shown again."""
    session = own_session(registry)
    p = InspectPanel(session)
    qtbot.addWidget(p)
    p.show()
    try:
        cl = registry.get("o200k_base") if "o200k_base" in session.registry else registry.get("cl100k_base")
        session.offer_trained_model(_Renamed(cl, "Korean merges, step 10"))
        p.set_encoder("Korean merges, step 10")
        session.offer_trained_model(_Renamed(cl, "Korean merges, step 20"))
        assert p.current_encoder() == "Korean merges, step 20"  # no name guess: it is not called "tokviz BPE"
        session.offer_trained_model(None)  # the Train panel's Reset
        wait_shown(qtbot, p)
        assert p.current_encoder() == "cl100k_base" and p.result.request.encoder == "cl100k_base"
        assert p.encoder_combo.currentData() == "cl100k_base"
        said = p.message_bar.text()
        assert "Train panel was reset" in said and "Korean merges, step 20" in said and "cl100k_base" in said
        session.offer_trained_model(_Renamed(cl, "Korean merges, step 5"))
        wait_shown(qtbot, p)
        assert p.current_encoder() == "Korean merges, step 5" and p.result.request.encoder == "Korean merges, step 5"
        assert p.message_bar.text() == ""
        # a user who picked another encoder after a Reset is not switched back
        session.offer_trained_model(None)
        p.set_encoder("cl100k_base")
        assert p.message_bar.text() == ""
        session.offer_trained_model(_Renamed(cl, "Korean merges, step 7"))
        assert p.current_encoder() == "cl100k_base"
    finally:
        p.shutdown()


# ---- the token view --------------------------------------------------------------------------------
def test_partial_tokens_show_hex_pieces_and_ids_mode(qtbot, panel):
    show(qtbot, panel, "안녕")
    # cl100k cuts both syllables: 안 = EC 95 | 88, 녕 = EB 85 | 95. Never a replacement character.
    assert panel.token_view.shown_labels() == ["EC 95", "88", "EB 85", "95"]
    assert "\ufffd" not in "".join(panel.token_view.shown_labels())
    assert panel.counts.value("partial_tokens") == "4"
    panel.set_view_mode("ids")
    assert panel.token_view.shown_labels() == ["31495", "230", "75265", "243"]
    panel.set_view_mode("text")
    assert panel.token_view.shown_labels()[0] == "EC 95"


def test_whitespace_and_invisibles_are_marked(qtbot, panel):
    show(qtbot, panel, "a b\tc\n\u200bd\ufeff")
    labels = "".join(panel.token_view.shown_labels())
    for marker in ("·", "→", "↵", "⟨ZWSP⟩", "⟨BOM⟩"):
        assert marker in labels, (marker, labels)


def test_hover_shows_id_bytes_piece_and_spans(qtbot, panel):
    show(qtbot, panel, "안녕 hi")
    tip = panel.token_view.tooltip_for_token(0)
    assert "id 31495" in tip
    assert "bytes: EC 95" in tip
    assert "piece: part of 안" in tip and "cuts 안 U+C548" in tip
    assert "byte span: [0, 2)" in tip and "char span: [0, 1)" in tip
    last = len(panel.result.encoding.tokens) - 1
    assert "piece: ·hi" in panel.token_view.tooltip_for_token(last)  # core.display's markers, not repr
    # a real mouse move over the first token shows that text as the tooltip
    rect = panel.token_view.token_rect(0)
    qtbot.mouseMove(panel.token_view.viewport(), rect.center().toPoint())
    qtbot.waitUntil(lambda: QToolTip.isVisible() and "id 31495" in QToolTip.text(), timeout=3000)


def test_selecting_a_partial_token_shows_byte_layers_with_ownership(qtbot, panel):
    show(qtbot, panel, "안녕")
    click_token(qtbot, panel, 1)  # the lone continuation byte 88 of 안
    assert panel.token_view.selected_tokens() == (1, 1)
    layers = panel.layers_view
    assert layers.row_labels("Grapheme") == ["안"]
    assert layers.row_labels("Code point") == ["안"]
    assert [s.detail for s in layers.layers.code_points] == ["U+C548"]
    assert layers.row_labels("Jamo") == ["ㅇ", "ㅏ", "ㄴ"]
    assert [s.detail for s in layers.layers.jamo] == ["초성", "중성", "종성"]
    assert layers.row_labels("UTF-8 byte") == ["EC", "95", "88"]
    assert layers.layers.byte_roles == ["lead", "continuation", "continuation"]
    assert layers.layers.owners == [0, 0, 1]  # EC 95 belong to token 0, 88 to token 1
    assert layers.row_labels("Token id") == ["31495", "230"]
    assert "token 2 of 4" in panel.layers_title.text()
    # the hover text stays on screen for the selection (tooltips do not show on a projector)
    assert "id 230" in panel.details.text() and "piece: part of 안" in panel.details.text()
    # shift-click extends the selection to 녕 as well
    click_token(qtbot, panel, 3, Qt.KeyboardModifier.ShiftModifier)
    assert panel.token_view.selected_tokens() == (1, 3)
    assert layers.row_labels("UTF-8 byte") == ["EC", "95", "88", "EB", "85", "95"]
    assert layers.layers.owners == [0, 0, 1, 2, 2, 3]
    assert [sel.cursor.selectedText() for sel in panel.editor.extraSelections()] == ["안녕"]  # marked in the editor
    assert panel.details.text().splitlines()[0] == "tokens 2–4: 3 tokens, 4 bytes"
    assert panel.details.text().splitlines()[-1].split() == ["243", "95", "part", "of", "녕"]


def test_byte_layers_of_a_family_emoji_show_every_owner(qtbot, panel, registry):
    text = "값 " + FAMILY
    show(qtbot, panel, text)
    enc = panel.result.encoding
    emoji_token = enc.tokens_at_char(4)[0]  # a token holding part of 👩 (characters: 값, space, 👨, ZWJ, 👩)
    panel.select_tokens(emoji_token)
    # the editor counts UTF-16 units: the mark must land on 👩 (astral characters count two)
    assert [sel.cursor.selectedText() for sel in panel.editor.extraSelections()] == ["👩"]
    layers = panel.layers_view.layers
    # the whole cluster is shown even though the token holds only a piece of it
    assert [g.label for g in layers.graphemes] == [FAMILY]
    assert len(layers.code_points) == 7
    assert [c.label for c in layers.code_points][1] == "⟨ZWJ⟩"
    assert layers.columns == 25
    # cl100k: " F0 9F 91" | A8 | E2 80 | 8D | F0 9F | 91 | A9 | E2 80 | 8D | F0 9F | 91 | A7 | E2 80 | 8D
    #         | F0 9F | 91 | A6
    assert layers.byte_start == 4
    assert layers.owners == [1, 1, 1, 2, 3, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 10, 11, 12, 13, 13, 14, 15, 15, 16, 17]
    assert panel.layers_view.row_labels("Token id") == [
        "62904", "101", "378", "235", "9468", "239", "102", "378", "235", "9468", "239", "100", "378", "235", "9468",
        "239", "99"]
    assert set(layers.owners) == {s.token for s in layers.tokens}
    assert layers.tokens[0].open_left  # token " F0 9F 91" starts before the cluster (the space)
    # no selection: the layers show the start of the whole text, 값 with its jamo
    panel.select_tokens(-1)
    assert panel.layers_view.row_labels("Jamo") == ["ㄱ", "ㅏ", "ㅄ"]


# ---- options ---------------------------------------------------------------------------------------
def test_nfd_normalization_changes_the_split(qtbot, panel, registry):
    text = "한국어"
    show(qtbot, panel, text)
    before = list(panel.result.encoding.ids)
    panel.set_normalization("NFD")
    nfd = unicodedata.normalize("NFD", text)
    wait_shown(qtbot, panel, nfd)
    assert len(nfd) == 8
    assert panel.result.encoding.ids == registry.get("cl100k_base").encode(nfd).ids != before
    assert panel.counts.value("characters") == "8"
    assert f"NFD: 3 → 8 characters, {len(before)} → {len(panel.result.encoding.ids)} tokens" in panel.counts.note.text()
    panel.set_normalization("none")
    wait_shown(qtbot, panel, text)
    assert panel.result.encoding.ids == before


def test_special_tokens_switch(qtbot, panel):
    text = "hi<|endoftext|>"
    show(qtbot, panel, text)
    assert 100257 not in panel.result.encoding.ids
    panel.set_allow_special(True)
    wait_shown(qtbot, panel, text)
    assert panel.result.encoding.ids[-1] == 100257
    assert panel.result.encoding.tokens[-1].kind == "special"
    assert "1 special" in panel.counts.note.text()


def test_copy_ids_text_and_json(qtbot, panel):
    show(qtbot, panel, "안녕 hi")
    clip = QGuiApplication.clipboard()
    panel.copy_ids()
    assert clip.text() == " ".join(str(i) for i in panel.result.encoding.ids)
    panel.copy_text()
    assert clip.text() == "안녕 hi"
    panel.copy_json()
    data = json.loads(clip.text())
    assert data["encoder"] == "cl100k_base"
    assert data["tokens"][0] == {"id": 31495, "bytes": "ec95", "piece": None, "byte_start": 0, "byte_end": 2,
                                 "start": 0, "end": 1, "partial": True, "kind": "normal"}
    assert data["metrics"]["tokens"] == len(data["ids"]) == len(data["tokens"])
    assert data == json.loads(json.dumps(encoding_json(panel.result.encoding, panel.result.metrics)))


def test_export_png_is_written_atomically(qtbot, panel, tmp_path):
    show(qtbot, panel, "안녕 👋")
    out = tmp_path / "view.png"
    assert panel.export_png(out)
    img = QImage(str(out))
    assert not img.isNull() and img.width() > 100
    assert [p.name for p in tmp_path.iterdir()] == ["view.png"]  # no temp file left behind


def test_prepare_screenshot_selects_cut_characters(qtbot, panel):
    panel.prepare_screenshot(SimpleNamespace(text=None, encoders=None, model=[]))
    assert panel.result.encoding.text == DEMO_TEXT
    a, b = panel.token_view.selected_tokens()
    assert panel.result.encoding.tokens[a].partial
    assert panel.layers_view.row_labels("Grapheme")[:2] == ["안", "녕"]
    assert "👋" in panel.layers_view.row_labels("Grapheme")


# ---- bad input -------------------------------------------------------------------------------------
def test_lone_surrogate_is_held_back_with_a_replace_action(qtbot, panel):
    show(qtbot, panel, "keep me")
    assert not panel.set_text("broken \ud83d emoji")
    assert "lone surrogate U+D83D" in panel.message_bar.text()
    assert panel.message_bar.action_text() == "Replace with U+FFFD"
    assert panel.editor.toPlainText() == "keep me"  # nothing replaced silently, nothing lost
    assert panel.pending_text() == "broken \ud83d emoji"
    qtbot.mouseClick(panel.message_bar.action, Qt.MouseButton.LeftButton)
    assert panel.editor.toPlainText() == "broken \ufffd emoji"
    wait_shown(qtbot, panel, "broken \ufffd emoji")
    assert not panel.message_bar.isVisible()


def paste_with_ctrl_v(qtbot, panel, fmt: str, data: bytes) -> None:
    """Put ``data`` on the real clipboard under ``fmt`` and press Ctrl+V in the editor."""
    mime = QMimeData()
    mime.setData(fmt, QByteArray(data))
    QGuiApplication.clipboard().setMimeData(mime)
    panel.editor.setFocus()
    panel.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClick(panel.editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


@pytest.mark.parametrize("fmt, data", [
    # UTF-16 as Windows apps and Java hand it over (Qt itself would paste nothing at all)
    ("text/plain;charset=utf-16", b"\xff\xfe" + "a".encode("utf-16-le") + b"\x3d\xd8" + "b".encode("utf-16-le")),
    ("text/plain;charset=utf-16le", "a".encode("utf-16-le") + b"\x3d\xd8" + "b".encode("utf-16-le")),
    # WTF-8 (a surrogate written as UTF-8 bytes): Qt would paste three U+FFFD without a word
    ("text/plain;charset=utf-8", b"a\xed\xa0\xbdb"),
])
def test_ctrl_v_of_a_lone_surrogate_gets_the_message_and_keeps_the_text(qtbot, panel, fmt, data):
    show(qtbot, panel, "x")
    paste_with_ctrl_v(qtbot, panel, fmt, data)
    assert "lone surrogate U+D83D" in panel.message_bar.text()
    assert panel.message_bar.action_text() == "Replace with U+FFFD"
    assert panel.editor.toPlainText() == "x"  # nothing inserted silently
    assert panel.pending_text() == "a\ud83db"  # nothing lost either (the BOM is not text)
    qtbot.mouseClick(panel.message_bar.action, Qt.MouseButton.LeftButton)
    assert panel.editor.toPlainText() == "xa\ufffdb"
    wait_shown(qtbot, panel, "xa\ufffdb")


def test_ctrl_v_of_ordinary_text_pastes_it(qtbot, panel):
    show(qtbot, panel, "x")
    paste_with_ctrl_v(qtbot, panel, "text/plain;charset=utf-8", "값 👨‍👩‍👧‍👦".encode())
    paste_with_ctrl_v(qtbot, panel, "text/plain;charset=utf-16", "\ufeff안녕".encode("utf-16-le"))
    assert panel.editor.toPlainText() == "x값 👨‍👩‍👧‍👦안녕"
    assert not panel.message_bar.isVisible()
    paste_with_ctrl_v(qtbot, panel, "text/plain;charset=utf-8", b"bad \xff byte")  # not even WTF-8: Qt's U+FFFD
    assert panel.editor.toPlainText().endswith("bad \ufffd byte")


@pytest.mark.parametrize("codec, fmt", [("utf-8", "text/plain;charset=utf-8"),
                                         ("utf-16-le", "text/plain;charset=utf-16le")])
def test_a_big_ctrl_v_is_decoded_in_slices_and_pasted_exactly(qtbot, panel, monkeypatch, codec, fmt):
    # slices of 7 bytes cut every character of several bytes (Hangul, emoji, a surrogate pair) somewhere
    monkeypatch.setattr(inspect_views, "DECODE_SLICE_BYTES", 7)
    show(qtbot, panel, "x")
    pasted = "값 👨\u200d👩\u200d👧 안녕\r\n끝\u00a0🇰🇷"
    paste_with_ctrl_v(qtbot, panel, fmt, pasted.encode(codec))
    assert panel.editor.decoding() and panel.editor.isReadOnly()  # nothing typed lands inside the paste
    qtbot.waitUntil(lambda: not panel.editor.decoding())
    assert panel.text() == "x" + pasted
    assert not panel.editor.isReadOnly()
    wait_shown(qtbot, panel, "x" + pasted)


def test_a_lone_surrogate_in_a_big_ctrl_v_gets_the_message_and_keeps_the_text(qtbot, panel, monkeypatch):
    monkeypatch.setattr(inspect_views, "DECODE_SLICE_BYTES", 4)
    show(qtbot, panel, "x")
    paste_with_ctrl_v(qtbot, panel, "text/plain;charset=utf-8", "안녕 ".encode() + b"\xed\xa0\xbd" + "끝".encode())
    qtbot.waitUntil(lambda: not panel.editor.decoding())
    assert "lone surrogate U+D83D" in panel.message_bar.text()
    assert panel.pending_text() == "안녕 \ud83d끝"
    assert panel.text() == "x"


def test_a_big_result_shows_its_tokens_first_and_its_byte_layers_a_turn_later(qtbot, panel, registry, monkeypatch):
    monkeypatch.setattr(inspect_panel, "GUI_MEASURE_LIMIT", 3)
    show(qtbot, panel, "x")
    text = "안녕 👋 hello world, 값은 얼마예요?"
    panel.set_text(text)
    panel.encode_now()
    seen = []  # what the views show right after the result arrived, before the next event-loop turn
    panel.session.work.channel(panel, "encode").current.finished.connect(lambda _result: seen.append(
        (panel.token_view.encoding.text, panel.is_current(), panel.layers_view.row_labels("Grapheme"))))
    wait_shown(qtbot, panel, text)
    # the tokens at once; the byte layers are still the old text's
    assert seen == [(text, False, ["x"])]
    assert panel.layers_view.row_labels("Grapheme")[0] == "안"


def test_byte_layers_painted_in_part_still_know_every_tooltip(qtbot, panel):
    show(qtbot, panel, "👨\u200d👩\u200d👧\u200d👦 안녕 " * 4)
    panel.select_tokens(0, len(panel.result.encoding.tokens) - 1)
    view = panel.layers_view
    spans = sum(len(getattr(view.layers, row)) for row in ("graphemes", "code_points", "jamo", "bytes", "tokens"))
    view.repaint(0, 0, 40, view.height())  # only the titles' strip is exposed
    assert len(view.tooltip_rects()) == spans
    assert view.tooltip_rects()[-1][0].right() > 40


def test_nul_is_encoded_and_marked(qtbot, panel, registry):
    show(qtbot, panel, "a\x00b")
    assert "⟨NUL⟩" in "".join(panel.token_view.shown_labels())
    assert panel.result.encoding.ids == registry.get("cl100k_base").encode("a\x00b").ids
    assert "NUL" in panel.message_bar.text()
    panel.select_tokens(1)
    # every layer row shows the marker, the token row too (not a Python escape like \x00)
    assert panel.layers_view.row_labels("Code point") == ["⟨NUL⟩"]
    assert [s.detail for s in panel.layers_view.layers.tokens] == ["⟨NUL⟩"]


def test_invalid_utf8_file_reports_offset_and_offers_replacement(qtbot, panel, tmp_path):
    show(qtbot, panel, "before")
    bad = tmp_path / "bad.txt"
    bad.write_bytes("값".encode() + b"\xff" + b"ok")
    assert not panel.open_text_file(bad)
    assert "not valid UTF-8" in panel.message_bar.text() and "FF at offset 3" in panel.message_bar.text()
    assert panel.editor.toPlainText() == "before"
    qtbot.mouseClick(panel.message_bar.action, Qt.MouseButton.LeftButton)
    assert panel.editor.toPlainText() == "값\ufffdok"
    good = tmp_path / "good.txt"
    good.write_text("안녕\n", encoding="utf-8")
    assert panel.open_text_file(good)
    wait_shown(qtbot, panel, "안녕\n")


def test_broken_model_file_gets_a_message_and_the_panel_keeps_working(qtbot, panel, tmp_path):
    show(qtbot, panel, "hello")
    broken = tmp_path / "broken.tiktoken"
    broken.write_bytes(b"this is not base64 !!\n\x00\xff")
    panel.open_model_path(str(broken))
    qtbot.waitUntil(lambda: panel.message_bar.text().startswith("Cannot open the model file"), timeout=10_000)
    assert "broken.tiktoken" in panel.message_bar.text()
    assert panel.current_encoder() == "cl100k_base"
    show(qtbot, panel, "still works")
    assert panel.token_view.shown_labels() == ["still", "·works"]


def test_genuine_model_file_becomes_an_encoder(qtbot, panel):
    from pathlib import Path

    import mistral_common

    model = Path(mistral_common.__file__).parent / "data" / "tokenizer.model.v1"
    if not model.is_file():
        pytest.skip("mistral_common's tokenizer.model.v1 is not installed")
    panel.open_model_path(str(model))
    qtbot.waitUntil(lambda: panel.current_encoder() != "cl100k_base", timeout=20_000)
    assert panel.current_encoder() in [n for n, _, _ in panel.encoder_names()]
    show(qtbot, panel, "안녕", panel.current_encoder())
    assert panel.result.encoding.encoder == panel.current_encoder()


def test_encoder_whose_data_is_corrupt_gets_a_message(qtbot, registry):
    from tokviz.core.encoders.registry import EncoderEntry
    from tokviz.core.errors import ModelFileError

    def load():
        raise ModelFileError("/data/cl100k.tiktoken", "SHA-256 does not match")

    session = Session(Registry())
    session.registry.add(registry.get("cl100k_base"))
    session.registry.register(EncoderEntry("corrupt", "tiktoken", lambda: (True, "found"), load))
    p = InspectPanel(session)
    qtbot.addWidget(p)
    try:
        wait_shown(qtbot, p)
        p.set_encoder("corrupt")
        wait_shown(qtbot, p)
        assert "SHA-256 does not match" in p.message_bar.text()
        assert p.token_view.cells == [] and p.counts.value("tokens") == "–"
        p.set_encoder("cl100k_base")
        wait_shown(qtbot, p)
        assert p.counts.value("tokens") == str(len(registry.get("cl100k_base").encode(p.text()).tokens))
        assert not p.message_bar.isVisible()
    finally:
        p.shutdown()


class _LineEncoder(_Renamed):
    """A cheap stand-in for an encoder on a 5 MB text (the real cl100k takes ~14 s for that, in the
    worker, which is benchmark material): one token per line, and every call takes a moment, half a
    second for the whole text, less for a piece of it (sleeping releases the GIL, like tiktoken's
    native code)."""

    def encode(self, text, *, allow_special=False):
        from tokviz.core.encoding import Encoding

        time.sleep(min(0.5, len(text) / 3_000_000))
        lines = text.encode("utf-8").splitlines(keepends=True)
        return Encoding.from_byte_tokens(self.name, text, [(i % 50_000, b) for i, b in enumerate(lines)])


def test_large_paste_is_encoded_off_the_gui_thread_and_the_drawing_is_capped(qtbot, registry, monkeypatch):
    """How long the GUI stalls meanwhile is measured by benchmarks/inspector_stall.py."""
    cap = 30_000  # lower than the real cap so that ~100k line tokens exceed it
    monkeypatch.setattr(inspect_jobs, "MAX_DRAWN_TOKENS", cap)
    session = Session(Registry())
    session.registry.add(_LineEncoder(registry.get("cl100k_base"), "lines"))
    p = InspectPanel(session)
    qtbot.addWidget(p)
    p.show()
    try:
        line = "안녕하세요 반갑습니다 hello world 👋 값\n"
        # 2 MB: past every size the Inspector treats differently (pieces, paused collection, a slice,
        # the measuring limit, the cap above); 5 MB proved nothing more and cost ~1.4 s CPU more
        big = line * (2_000_000 // len(line.encode("utf-8")))
        assert len(big.encode("utf-8")) > 1_900_000 and len(big.splitlines()) > cap
        p.editor.clear()
        assert p.paste_text(big)
        p.encode_now()
        assert not p.is_current()  # encoding happens in the worker, after the call returned
        wait_shown(qtbot, p, big, timeout=60_000)
        n = len(big.splitlines())
        assert p.counts.value("tokens") == f"{n:,}"
        assert p.token_view.hidden_token_count() == n - cap
        assert "the view draws the first 30,000 tokens" in p.message_bar.text()
        # a short text asked for while a big one is still being encoded is shown without waiting for it
        p.set_text(big + "x")
        p.encode_now()
        p.set_text("short")
        p.encode_now()
        wait_shown(qtbot, p, "short", timeout=30_000)
        assert p.token_view.shown_labels() == ["short"]
        assert not p.message_bar.isVisible()
    finally:
        p.shutdown()


class _Gated:
    """cl100k under another name whose encode waits for a gate: a call nothing can interrupt."""

    name, family, source, byte_level = "gated", "tiktoken", "a test", True

    def __init__(self, inner):
        self.inner, self.vocab_size = inner, inner.vocab_size
        self.gate, self.started, self.returned = threading.Event(), threading.Event(), threading.Event()

    def encode(self, text, *, allow_special=False):
        self.started.set()
        self.gate.wait(30)  # only keeps a broken build from hanging: the test opens it
        self.returned.set()
        return self.inner.encode(text, allow_special=allow_special)

    def decode(self, ids):
        return self.inner.decode(ids)

    def special_tokens(self):
        return {}

    def token_bytes(self, token_id):
        return self.inner.token_bytes(token_id)


def test_closing_mid_encode_waits_for_nothing(qtbot, registry):
    """The close used to join the running encode (up to two minutes for a 5 MB text)."""
    session = Session(Registry())
    gated = _Gated(registry.get("cl100k_base"))
    session.add_encoder(gated)
    panel = InspectPanel(session)
    qtbot.addWidget(panel)
    panel.show()
    try:
        panel.set_encoder("gated")
        panel.encode_now()
        qtbot.waitUntil(gated.started.is_set, timeout=15_000)
        panel.shutdown()
        assert not gated.returned.is_set()  # the close came back while the call still runs
        gated.gate.set()
        qtbot.waitUntil(lambda: session.work.running == 0, timeout=15_000)
        assert not panel.is_current()  # its result went nowhere
    finally:
        gated.gate.set()


def test_stale_results_are_dropped(qtbot, registry):
    """The first request's call returns only after a newer request was shown: its late result is
    dropped, and the stuck call never held the newer request up."""
    session = Session(Registry())
    session.registry.add(registry.get("cl100k_base"))
    gated = _Gated(registry.get("cl100k_base"))
    session.add_encoder(gated)
    panel = InspectPanel(session)
    qtbot.addWidget(panel)
    panel.show()
    try:
        show(qtbot, panel, "first")
        panel.set_encoder("gated")
        panel.encode_now()
        qtbot.waitUntil(gated.started.is_set, timeout=15_000)
        panel.set_encoder("cl100k_base")
        panel.set_text("second")
        panel.encode_now()
        wait_shown(qtbot, panel, "second")
        gated.gate.set()  # the first request's result arrives late: it must not be shown as the answer
        qtbot.waitUntil(lambda: session.work.running == 0, timeout=15_000)
        qtbot.wait(10)  # its outcome's queued signal is delivered (and dropped)
        assert panel.is_current() and panel.current_encoder() == "cl100k_base"
        assert panel.token_view.shown_labels() == ["second"]
    finally:
        gated.gate.set()
        panel.shutdown()


def test_no_work_after_shutdown(qtbot, registry):
    p = InspectPanel(Session(registry))
    qtbot.addWidget(p)
    wait_shown(qtbot, p)
    p.shutdown()
    shown = p.result
    p.set_text("typed while the window closes")
    p.encode_now()  # what the debounce timer would call
    p.relayout()  # and a zoom
    assert not p.busy() and p.result is shown


def test_screenshot_selection_without_cut_characters_takes_the_first_tokens(registry):
    from tokviz.ui.inspect.describe import screenshot_selection

    enc = registry.get("o200k_base").encode("토큰화는 재미있어요 tokenization")
    assert not any(t.partial for t in enc.tokens)
    first, last = screenshot_selection(enc, demo=False)
    assert first == 0 and last >= 1 and enc.tokens[last].byte_end <= 20 < enc.tokens[last + 1].byte_end


# ---- fitting a screen --------------------------------------------------------------------------------
def test_window_fits_a_1280_screen_and_a_1920_projector_on_the_inspector(qtbot):
    from tokviz.ui import fonts
    from tokviz.ui.main_window import PRESENTATION_SCALE, MainWindow
    from tokviz.ui.settings import Settings

    win = MainWindow(settings=Settings.ephemeral())
    qtbot.addWidget(win)
    try:
        panel = win.show_view("inspect")
        win.resize(1280, 720)
        win.show()
        wait_shown(qtbot, panel)
        # no selection gives the longest caption: "Byte layers — the beginning of the text (click a token
        # to choose): … (first bytes only). Each byte is owned …" (unwrapped: 1,305 px wide)
        panel.select_tokens(-1)
        assert len(panel.layers_title.text()) > 170
        # it wraps, so no caption (a longer text, another language) can set the window's width
        assert panel.layers_title.minimumSizeHint().width() < 640
        assert win.minimumSizeHint().width() <= 1280, win.minimumSizeHint()
        # every byte-layer row down to the token ids is within the window at 1280x720
        qtbot.waitUntil(lambda: panel.layers_scroll.viewport().height() >= panel.layers_view.height(), timeout=3000)
        win.set_font_scale(PRESENTATION_SCALE)
        panel.select_tokens(-1)
        assert win.minimumSizeHint().width() <= 1920, win.minimumSizeHint()
        assert panel.minimumSizeHint().width() <= 1920
    finally:
        win.set_font_scale(1.0)
        assert fonts.scale() == 1.0
        for p in win.panels.values():
            getattr(p, "shutdown", lambda: None)()


def _lightness_extremes(image: QImage) -> tuple[float, float, float]:
    """(median, darkest, lightest) lightness of the pixels of ``image``."""
    values = sorted(image.pixelColor(x, y).lightnessF()
                    for y in range(0, image.height(), 2) for x in range(0, image.width(), 2))
    return values[len(values) // 2], values[0], values[-1]


def test_dark_theme_details_box_and_byte_cells_are_readable(qtbot, panel):
    from tokviz.ui import theme

    show(qtbot, panel, "안녕 hi")
    try:
        theme.apply_theme("dark")
        panel.session.themeChanged.emit(True)  # the switch happens after the panel was built
        panel.select_tokens(0, 3)
        qtbot.wait(50)
        background, _, lightest = _lightness_extremes(panel.details.grab().toImage())
        assert background < 0.25 and lightest > 0.75, (background, lightest)  # light text on the dark box
        cells = {role: panel.layers_view.byte_cell_color(role) for role in ("lead", "continuation", "ascii")}
        for role, bg in cells.items():
            assert bg.lightnessF() < 0.55, role  # no glaring pale cells on a dark window
        theme.apply_theme("light")
        panel.session.themeChanged.emit(False)
        qtbot.wait(50)
        background, darkest, _ = _lightness_extremes(panel.details.grab().toImage())
        assert background > 0.8 and darkest < 0.3, (background, darkest)
        assert panel.layers_view.byte_cell_color("continuation").lightnessF() > 0.7
    finally:
        theme.apply_theme("light")


def test_big_result_is_laid_out_in_the_worker(qtbot, panel):
    """Wrapping 150,000 cells took the GUI thread ~150 ms per result; the worker does it now and the
    view takes the lines as they are (same cells, same positions as a wrap done by the view)."""
    from tokviz.ui.inspect.cells import wrap_cells

    text = "값싼 컴퓨터 뷁 🇰🇷 " * 400
    show(qtbot, panel, text)
    layout = panel.result.layout
    assert layout is not None and layout.width == panel.token_view.viewport().width() and layout.mode == "text"
    assert panel.token_view.cell_positions() is layout.pos  # used as is, not wrapped again
    again = wrap_cells(panel.token_view.cells, panel.result.widths[0], layout.width, "text")
    assert again.line_first == layout.line_first and list(again.pos.x) == list(layout.pos.x)
    rect = panel.token_view.token_rect(len(panel.result.encoding.tokens) - 1)
    assert rect is not None  # the last token has its place on the last line
    panel.set_view_mode("ids")  # another mode: the view wraps the id widths itself
    assert panel.token_view.cell_positions() is not layout.pos
    panel.set_view_mode("text")


def test_projector_1366x768_shows_every_byte_layer_and_three_token_rows(qtbot):
    """A common projector size in presentation mode: the Token id row (which token owns which byte,
    the point of the layers) is not scrolled off, and the token view keeps three rows of cells."""
    from PySide6.QtCore import QPoint, QRect

    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.settings import Settings

    text = f"안녕하세요 {FAMILY} 값 🇰🇷"
    settings = Settings.ephemeral()
    settings.presentation_pace = 0.0
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    try:
        panel = win.show_view("inspect")
        win.resize(1366, 768)
        win.show()
        win.toggle_presentation(True, full_screen=False)
        win.resize(1366, 768)  # what full screen gives on a 1366x768 projector
        show(qtbot, panel, text)
        first_partial = next(i for i, t in enumerate(panel.result.encoding.tokens) if t.partial)
        panel.select_tokens(first_partial)
        qtbot.wait(50)
        lv, scroll = panel.layers_view, panel.layers_scroll
        assert lv.row_labels("Token id") == [str(panel.result.encoding.tokens[first_partial].id), "230"]
        row = lv.row_rect("Token id")
        shown = QRect(lv.mapTo(scroll.viewport(), row.topLeft()), row.size())
        assert scroll.viewport().rect().contains(shown), (shown, scroll.viewport().rect())
        # three rows of cells, each with its cut-character labels (the text wraps to three lines here)
        tv = panel.token_view
        assert tv.line_count() >= 3
        assert tv.viewport().height() >= tv.lines_height(3) >= 250, (tv.viewport().height(), tv.lines_height(3))
        # the counts made room by moving beside the layers, all seven still on screen with their values
        assert panel.counts.isVisible() and panel.counts.value("tokens") == str(len(panel.result.encoding.tokens))
        counts_at, scroll_at = panel.counts.mapTo(panel, QPoint(0, 0)), scroll.mapTo(panel, QPoint(0, 0))
        assert counts_at.x() >= scroll_at.x() + scroll.width() and counts_at.y() >= scroll_at.y()
        # leaving presentation mode brings back the one-row counts under the tokens and the full rows
        win.toggle_presentation(False)
        win.resize(1400, 900)
        qtbot.waitUntil(lambda: not lv.compact and panel.counts.columns == 7, timeout=3000)
        assert panel.counts.mapTo(panel, QPoint(0, 0)).y() < scroll.mapTo(panel, QPoint(0, 0)).y()
    finally:
        win.toggle_presentation(False)
        for p in win.panels.values():
            getattr(p, "shutdown", lambda: None)()


def test_byte_layers_token_row_reads_like_the_token_box_for_a_whole_emoji():
    """A token holding a whole ZWJ sequence reads as the picture on the token row, as its box in the
    token view does; the code point row above still names the ZWJ."""
    from tokviz.core.encoding import Encoding
    from tokviz.ui.inspect.byte_layers import build_layers
    from tokviz.ui.inspect.cells import token_cells

    text = "👨‍👩 a"
    enc = Encoding.from_byte_tokens("test", text, [(7, "👨‍👩".encode()), (8, b" a")])
    layers = build_layers(enc, 0, len(text))
    box = "".join(s.text for s in token_cells(enc)[0].segments)
    assert [s.detail for s in layers.tokens] == [box, "·a"] == ["👨‍👩", "·a"]
    assert "⟨ZWJ⟩" in [c.label for c in layers.code_points]


def test_a_zoom_while_the_worker_measures_does_not_leave_boxes_too_small(qtbot, panel):
    """The worker measures cell widths in the fonts of the moment it was asked; a zoom before its
    result arrives must not leave boxes measured at the old scale (text spilling out of them)."""
    from tokviz.ui import fonts
    from tokviz.ui.inspect.cells import CellMeasure, view_fonts

    text = "hello wonderful world of tokens 안녕하세요"
    show(qtbot, panel, text)
    wait_shown(qtbot, panel, text)
    panel.set_text(text + "!")
    panel.encode_now()  # its result is queued behind this test's code: it arrives after the zoom
    try:
        fonts.set_scale(1.6)
        panel.session.fontScaleChanged.emit(1.6)
        wait_shown(qtbot, panel, text + "!")
        view = panel.token_view
        assert view.shown_labels()[-1] == "!"
        # what each box needs at the new scale: its text (hex pieces in their own font) plus padding
        need = CellMeasure(*view_fonts()[:2]).widths(view.cells)
        shown = [view.token_rect(c.token).width() for c in view.cells]
        assert all(w >= n - 0.5 for w, n in zip(shown, need, strict=True)), \
            list(zip(view.shown_labels(), shown, need, strict=True))
    finally:
        fonts.set_scale(1.0)
        panel.session.fontScaleChanged.emit(1.0)


def test_a_dragged_layers_splitter_stays_where_the_user_put_it(qtbot, panel):
    """Clicking tokens and resizing fit the byte layers' height only until the user drags the
    splitter; a new font scale (presentation mode) fits it again."""
    from tokviz.ui import fonts

    show(qtbot, panel, DEMO_TEXT)
    wait_shown(qtbot, panel, DEMO_TEXT)
    split = panel.split
    total = sum(split.sizes())
    split.moveSplitter(int(total * 0.8), 1)  # what a drag of the handle does (emits splitterMoved)
    dragged = split.sizes()
    assert dragged[1] < total * 0.25
    panel.select_tokens(3)
    qtbot.wait(50)
    assert split.sizes() == dragged
    panel.resize(1200, 840)
    qtbot.wait(100)
    # the splitter shares out the new height by its stretch factors; nothing refits the layers
    assert split.sizes()[0] > dragged[0] and dragged[1] <= split.sizes()[1] < total * 0.25, (split.sizes(), dragged)
    try:
        fonts.set_scale(1.6)
        panel.session.fontScaleChanged.emit(1.6)
        qtbot.wait(50)
        assert split.sizes()[1] > dragged[1]  # fitted again to the taller rows
    finally:
        fonts.set_scale(1.0)
        panel.session.fontScaleChanged.emit(1.0)


def test_a_big_previous_result_is_freed_in_slices_and_one_still_held_is_left_alone(qtbot, registry):
    """Freeing a big result at once holds the GIL for its whole length (a GUI stall, in any thread):
    it is freed from a zero timer, at most SLICE objects a step, and never while someone holds it."""
    import weakref

    from tokviz.ui.inspect.cells import token_cells

    def big_result(text):
        enc = registry.get("cl100k_base").encode(text)
        enc.token_at_byte(0), enc.tokens_at_char(0)  # the lookup tables, as the worker builds them
        return inspect_jobs.EncodeResult(inspect_jobs.EncodeRequest(1, text, "cl100k_base"), encoding=enc,
                                           cells=token_cells(enc))

    release = inspect_release.SlicedRelease()
    held = big_result("hello world " * 20_000)
    tokens = held.encoding.tokens
    release.drop(held)
    qtbot.waitUntil(lambda: release.pending() == 0, timeout=5000)
    assert held.encoding.tokens == tokens and len(tokens) > 40_000 and len(held.cells) == len(tokens)

    result = big_result("안녕 world " * 20_000)
    n = len(result.encoding.tokens)
    gone = weakref.ref(result.encoding)
    release.drop(result)
    del result
    steps = 0
    while release.pending():
        before = release.pending()
        release.step()
        steps += 1
        assert before - release.pending() <= release.SLICE
    assert gone() is None
    # tokens, their two lookup tables and the cells: many steps, each short
    assert steps >= 2 * n // release.SLICE
