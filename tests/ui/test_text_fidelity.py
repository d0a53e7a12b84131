"""The user's exact text reaches the encoder byte for byte: typed, pasted (Ctrl+V) or opened (File → Open),
NBSP, CRLF, lone CR, U+2028/2029, BOM, tabs, trailing newlines, NUL and controls give the ids the CLI gives
(``tokviz encode --json``), and the token view shows each of them with a marker."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QByteArray, QEvent, QMimeData, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent, QTextCursor
from PySide6.QtWidgets import QApplication, QPlainTextEdit

from tests.support.inspect_panel import wait_shown
from tokviz import cli
from tokviz.core.encoders.builtin import default_registry
from tokviz.ui.common.exact_text import ExactText, join_blocks, line_breaks
from tokviz.ui.inspect import text_input
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session

ENCODERS = ["cl100k_base", "sp:demo_unigram"]
TEXTS = {
    "nbsp": "x\u00a0y",
    "line breaks": "a\r\nb\rc\nd\u2029e\u2028f",
    "bom and controls": "\ufeffBOM\ttab\x00nul\x01soh\x1besc\x7fdel\x85nel",
    "trailing newlines": "end\n\n\n",
    "korean crlf": "안녕\r\n👨‍👩‍👧‍👦\u00a0값\r",
    "lone cr first": "\r\r\n\n\r",
}


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


def cli_json(monkeypatch, capsys, encoder: str, text: str) -> dict:
    """What ``tokviz encode --json -e ENCODER -`` prints for ``text`` given as UTF-8 on standard input
    (in this process: the command's output is the reference here, not its process)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))
    capsys.readouterr()
    assert cli.main(["encode", "--json", "-e", encoder, "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["text"] == text
    return out


def cli_ids(monkeypatch, capsys, encoder: str, text: str) -> list[int]:
    """The ids ``tokviz encode --json -e ENCODER -`` prints for ``text``."""
    return cli_json(monkeypatch, capsys, encoder, text)["ids"]


def type_text(qtbot, widget, text: str) -> None:
    """Type ``text`` key by key (QTest's keyClicks takes only ASCII: other characters are sent as the
    key events an input method sends, with the character as the event's text)."""
    for ch in text:
        if ch.isascii():
            qtbot.keyClicks(widget, ch)
        else:
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, ch))


def shown(qtbot, panel, text: str) -> list[int]:
    assert panel.text() == text
    panel.encode_now()  # skip the debounce; the text is what the widgets hold
    wait_shown(qtbot, panel, text)
    return list(panel.result.encoding.ids)


def paste(qtbot, panel, text: str) -> None:
    mime = QMimeData()
    mime.setData("text/plain;charset=utf-8", QByteArray(text.encode("utf-8")))
    QGuiApplication.clipboard().setMimeData(mime)
    panel.editor.setFocus()
    panel.editor.selectAll()
    qtbot.keyClick(panel.editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def open_through_menu(panel, monkeypatch, path) -> None:
    monkeypatch.setattr(text_input.QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    action = next(a for a in panel.menu_actions() if a is not None and a.key == "open")
    action.slot()


@pytest.mark.parametrize("encoder", ENCODERS)
@pytest.mark.parametrize("name", list(TEXTS))
def test_pasted_text_gives_the_cli_ids(qtbot, panel, monkeypatch, capsys, encoder, name):
    text = TEXTS[name]
    panel.set_encoder(encoder)
    paste(qtbot, panel, text)
    assert shown(qtbot, panel, text) == cli_ids(monkeypatch, capsys, encoder, text)


@pytest.mark.parametrize("encoder", ENCODERS)
def test_file_open_from_the_window_menu_gives_the_cli_ids(qtbot, monkeypatch, capsys, tmp_path, encoder):
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.settings import Settings

    text = "".join(TEXTS.values())
    path = tmp_path / "exact.txt"
    path.write_bytes(text.encode("utf-8"))
    win = MainWindow(settings=Settings.ephemeral())
    qtbot.addWidget(win)
    win.show()
    panel = win.panels["inspect"]
    panel.set_encoder(encoder)
    monkeypatch.setattr(text_input.QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    win.panel_actions["inspect"]["open"].trigger()  # Inspect → Open text… (Ctrl+O)
    assert shown(qtbot, panel, text) == cli_ids(monkeypatch, capsys, encoder, text)


def test_typed_text_gives_the_cli_ids(qtbot, panel, monkeypatch, capsys):
    panel.set_encoder("cl100k_base")
    panel.set_text("")
    panel.editor.setFocus()
    # (no BOM here: PySide drops it from a one-character key event text; pastes and files carry it)
    type_text(qtbot, panel.editor, "x\u00a0y\tz\u2028w\u200dv")
    qtbot.keyClick(panel.editor, Qt.Key.Key_Return)
    type_text(qtbot, panel.editor, "끝\u2029")  # an input method's paragraph separator stays one
    qtbot.keyClick(panel.editor, Qt.Key.Key_Return)
    text = "x\u00a0y\tz\u2028w\u200dv\n끝\u2029\n"
    assert shown(qtbot, panel, text) == cli_ids(monkeypatch, capsys, "cl100k_base", text)


def test_editing_keeps_the_other_line_breaks_and_undo_puts_them_back(qtbot, panel, tmp_path, monkeypatch):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"one\r\ntwo\r\nthree\rfour")
    open_through_menu(panel, monkeypatch, path)
    editor = panel.editor
    editor.setFocus()
    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    editor.setTextCursor(cursor)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "five")
    assert panel.text() == "one\r\ntwo\r\nthree\rfour\nfive"
    cursor.setPosition(2)  # delete "e\r\ntw" across a CRLF
    cursor.setPosition(6, QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    assert panel.text() == "ono\r\nthree\rfour\nfive"
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert panel.text() == "one\r\ntwo\r\nthree\rfour\nfive"
    shown(qtbot, panel, "one\r\ntwo\r\nthree\rfour\nfive")


def test_the_view_marks_every_invisible_character(qtbot, panel):
    text = "a\u00a0b\r\nc\rd\u2028e\u2029f\ufeffg\th\x00i\n"
    panel.set_encoder("cl100k_base")
    paste(qtbot, panel, text)
    shown(qtbot, panel, text)
    segments = {(seg.kind, seg.text) for cell in panel.token_view.cells for seg in cell.segments}
    marks = {text for kind, text in segments if kind == "mark"}
    assert {"⍽", "⟨CR⟩", "↵", "⟨BOM⟩", "→", "⟨NUL⟩"} <= marks
    # cl100k_base splits U+2028 and U+2029 into byte tokens: they show as their bytes
    assert {("hex", "E2 80"), ("hex", "A8"), ("hex", "A9")} <= segments


@pytest.mark.parametrize("text", list(TEXTS.values()))
def test_exact_text_round_trips_through_a_plain_editor(qtbot, text):
    # the helper Compare's text box and the chat composer use: set, then read back unchanged
    editor = QPlainTextEdit()
    qtbot.addWidget(editor)
    exact = ExactText(editor)
    exact.set_text(text)
    assert editor.toPlainText() != text or "\r" not in text  # Qt alone loses them
    exact._text = None  # rebuild from the document, not from the cache
    assert exact.text() == text
    assert join_blocks(editor.document().toRawText(), line_breaks(text)) == text


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "tokviz", *args], input=stdin, capture_output=True, env=env, timeout=120, check=False
    )


def test_screenshot_takes_a_text_file_exactly_and_writes_the_tokens_it_shows(tmp_path, monkeypatch, capsys):
    text = "".join(TEXTS.values())
    source = tmp_path / "exact.txt"
    source.write_bytes(text.encode("utf-8"))
    png, tokens = tmp_path / "inspect.png", tmp_path / "tokens.json"
    shot = run_cli("screenshot", "--view", "inspect", "-e", "cl100k_base", "--text-file", str(source),
                   "--tokens", str(tokens), "-o", str(png), "--size", "900x600")
    assert shot.returncode == 0, shot.stderr.decode()
    assert png.stat().st_size > 0
    expected = cli_json(monkeypatch, capsys, "cl100k_base", text)["tokens"]
    assert json.loads(tokens.read_text(encoding="utf-8")) == {"tokens": expected}


def test_screenshot_tokens_of_compare_name_each_row(qapp, tmp_path, monkeypatch, capsys):
    # In this process, through the same entry point: the test above is the real process end to end,
    # this one is about what the Compare rows write (a process start and its imports cost ~2 s CPU).
    text = "안녕 tokens 👋\n"
    source = tmp_path / "plain.txt"
    source.write_bytes(text.encode("utf-8"))
    tokens = tmp_path / "tokens.json"
    args = ["screenshot", "--view", "compare", "-e", "cl100k_base", "-e", "sp:demo_unigram", "--size", "900x600"]
    code = cli.main([*args, "--text-file", str(source), "--tokens", str(tokens), "-o", str(tmp_path / "compare.png")])
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "compare.png").stat().st_size > 0
    rows = json.loads(tokens.read_text(encoding="utf-8"))["encoders"]
    assert [r["name"] for r in rows][:2] == ["cl100k_base", "sp:demo_unigram"]
    for row in rows[:2]:
        assert row["tokens"] == cli_json(monkeypatch, capsys, row["name"], text)["tokens"]


@pytest.mark.parametrize("view", ["inspect", "compare"])
def test_screenshot_refuses_a_fifo_as_the_text_file_before_building_a_window(tmp_path, monkeypatch, capsys, view):
    """In this process: the message and exit status are what is checked, and no window is built for a
    file that cannot be read (building one first cost ~3 s before the same message)."""
    from tokviz.ui import main_window

    def no_window(*args, **kwargs):
        raise AssertionError("a window was built for a text file that cannot be read")

    monkeypatch.setattr(main_window, "MainWindow", no_window)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code = cli.main(["screenshot", "--view", view, "--text-file", str(fifo), "-o", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2
    assert "FIFO" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == [fifo]


def test_a_clicked_token_is_highlighted_on_its_own_characters_after_crlf_and_emoji(qtbot, panel, monkeypatch, tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes("👋\r\n👋\r\nend".encode())
    open_through_menu(panel, monkeypatch, path)
    panel.set_encoder("cl100k_base")
    text = "👋\r\n👋\r\nend"
    shown(qtbot, panel, text)
    enc = panel.result.encoding
    last = len(enc.tokens) - 1
    assert enc.text[enc.tokens[last].start : enc.tokens[last].end] == "end"
    rect = panel.token_view.token_rect(last)
    qtbot.mouseClick(panel.token_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    marks = panel.editor.extraSelections()
    assert len(marks) == 1 and marks[0].cursor.selectedText() == "end"
