"""Compare with the catalogue's models and model files (pytest-qt, offscreen): the models are picked
like the OpenAI encoders, with their source shown and an uninstalled one's pip line; model files are
parsed off the GUI thread (the event loop keeps running); closing the panel mid-comparison cancels
the job instead of joining it; byte labels and invisible characters are drawn as the Inspector draws them."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QThread, QTimer

from tokviz.core.encoders import builtin
from tokviz.core.encoders.base import EncoderEntry
from tokviz.core.encoders.builtin import build_registry
from tokviz.core.encoding import Encoding
from tokviz.core.errors import PatternNeeded
from tokviz.ui.compare import panel as compare_panel
from tokviz.ui.compare.panel import ComparePanel
from tokviz.ui.session import Session
from tokviz.ui.settings import Settings

KOREAN = "안녕하세요, 오늘 날씨가 참 좋네요! 토큰화 👋🏽\r\n둘째 줄"
CATALOGUE = ["llama-3", "qwen", "deepseek-v4"]
GATE_LIMIT_S = 20  # a fake encoder or loader gives up waiting after this (only reached if the GUI is blocked)


@pytest.fixture(scope="module")
def registry():
    reg = build_registry()  # its own: the fake catalogue model below must not reach other tests' windows
    # a catalogue model whose package is missing: listed, not usable, with the line that installs it
    reg.register(EncoderEntry(
        "llama-9", "tiktoken",
        probe=lambda: (False, 'not installed: pip install llama-nine  (or pip install ".[models]" in the tokviz '
                              'checkout)'),
        load=lambda: (_ for _ in ()).throw(RuntimeError("not installed")),
    ))
    return reg


@pytest.fixture
def session(registry):
    return Session(registry=registry, settings=Settings.ephemeral())


def make_panel(qtbot, session, names, text=KOREAN):
    panel = ComparePanel(session, encoders=names)
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    with qtbot.waitSignal(panel.rowsUpdated, timeout=60_000):
        panel.set_text(text)
        panel.refresh_now()
    return panel


def available(registry, names):
    ok = {s.name for s in registry.statuses() if s.available}
    missing = [n for n in names if n not in ok]
    if missing:
        pytest.skip(f"not installed: {missing}")


def test_catalogue_models_are_picked_like_the_openai_encoders(qtbot, session, registry):
    available(registry, CATALOGUE)
    panel = make_panel(qtbot, session, ["o200k_base"])
    combo = panel.add_combo
    items = {combo.itemText(i): i for i in range(combo.count())}
    for name in CATALOGUE:
        assert name in items
        tip = combo.itemData(items[name], Qt.ItemDataRole.ToolTipRole)
        assert "SHA-256 verified" in tip and "package" in tip  # where its files come from
    # the uninstalled one is listed, greyed, with its pip line
    missing = items["llama-9 (not installed)"]
    assert not combo.model().item(missing).isEnabled()
    assert "pip install llama-nine" in combo.itemData(missing, Qt.ItemDataRole.ToolTipRole)
    with qtbot.waitSignal(panel.rowsUpdated, timeout=60_000):
        for name in CATALOGUE:
            combo.setCurrentIndex(combo.findText(name))
            panel.add_encoder_name(combo.currentText())
    assert panel.encoder_names() == ["o200k_base", *CATALOGUE]
    for row, name in zip(panel.view.rows[1:], CATALOGUE, strict=True):
        assert row.data.error is False, row.data.message
        assert row.data.encoding.ids == registry.get(name).encode(KOREAN).ids
    tips = [panel.encoder_list.item(i).toolTip() for i in range(panel.encoder_list.count())]
    assert all("SHA-256 verified" in t for t in tips[1:])
    panel.shutdown()


def test_opening_a_model_file_keeps_the_event_loop_running(qtbot, session, monkeypatch, tmp_path):
    """A slow parse (a huge or hostile file) runs off the GUI thread: a GUI-thread heartbeat fires
    while it runs. The loader waits for three beats; were it run on the GUI thread, none could fire."""
    panel = make_panel(qtbot, session, ["gpt2"], text="hello")
    beats = []
    heart = QTimer(panel)
    heart.setInterval(10)
    heart.timeout.connect(lambda: beats.append(1))
    gate = threading.Event()
    seen = {}

    def slow_open(path, *, pattern=None, loaders=None):
        seen["thread"] = QThread.currentThread()
        deadline_beats = 3
        for _ in range(GATE_LIMIT_S * 100):
            if len(beats) >= deadline_beats:
                break
            gate.wait(0.01)
        seen["beats"] = len(beats)
        return ByteToy(path.name)

    monkeypatch.setattr(builtin, "open_model_file", slow_open)
    heart.start()
    with qtbot.waitSignal(panel.modelOpened, timeout=(GATE_LIMIT_S + 10) * 1000) as opened:
        panel.open_model_file(str(tmp_path / "huge.model"))
        assert "huge.model" in panel.message_bar.text()  # "Opening huge.model…" while it parses
    heart.stop()
    assert opened.args == [True, "huge.model"]
    assert seen["thread"] is not QCoreApplication.instance().thread()
    assert seen["beats"] >= 3  # the GUI thread kept running during the parse
    assert "huge.model" in panel.encoder_names()
    panel.shutdown()


def test_the_pattern_question_is_asked_on_the_gui_thread(qtbot, session, monkeypatch, tmp_path):
    panel = make_panel(qtbot, session, ["gpt2"], text="hello")
    parses = []

    def needs_pattern(path, *, pattern=None, loaders=None):
        parses.append((pattern, QThread.currentThread() is QCoreApplication.instance().thread()))
        if pattern is None:
            raise PatternNeeded(path, "records no pre-split pattern")
        return ByteToy(path.name)

    asked = []
    monkeypatch.setattr(builtin, "open_model_file", needs_pattern)
    panel.ask_pattern = lambda path: asked.append(QThread.currentThread() is QCoreApplication.instance().thread()) \
        or "gpt4"
    with qtbot.waitSignal(panel.modelOpened, timeout=20_000) as opened:
        panel.open_model_file(str(tmp_path / "ranks.tiktoken"))
    assert opened.args[0] is True
    assert parses == [(None, False), ("gpt4", False)] and asked == [True]
    panel.shutdown()


@pytest.mark.parametrize("name,data", [
    ("tokenizer.json", b"[" * 100_000 + b"]" * 100_000),  # nesting deeper than any parser's stack
    ("ranks.tiktoken", b"IQ== " + b"9" * 5000 + b"\n"),  # a 5000-digit rank
    ("tokenizer.json", b'{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ['),  # truncated
    ("model.gguf", b"GGUF\x03\x00\x00\x00" + b"\xff" * 64),  # absurd counts
])
def test_a_hostile_model_file_is_a_message(qtbot, session, tmp_path, name, data):
    panel = make_panel(qtbot, session, ["gpt2"], text="hello")
    panel.ask_pattern = lambda path: "gpt4"
    bad = tmp_path / name
    bad.write_bytes(data)
    with qtbot.waitSignal(panel.modelOpened, timeout=60_000) as opened:
        panel.open_model_file(str(bad))
    assert opened.args[0] is False
    assert panel.message_bar.level == "error" and name in panel.message_bar.text() or opened.args[1]
    assert panel.encoder_names() == ["gpt2"]
    panel.shutdown()


class ByteToy:
    """A byte-per-token encoder; ``gate`` makes its encode wait (a stand-in for a 23-second call)."""

    family, source, byte_level, vocab_size = "toy", "test", True, 256

    def __init__(self, name="toy", gate: threading.Event | None = None):
        self.name = name
        self.gate = gate
        self.started = threading.Event()
        self.returned = threading.Event()

    def encode(self, text, *, allow_special=False):
        if self.gate is not None:
            self.started.set()
            self.gate.wait(GATE_LIMIT_S)
            self.returned.set()
        return Encoding.from_byte_tokens(self.name, text, [(b, bytes([b])) for b in text.encode()])

    def decode(self, ids):
        return bytes(ids).decode("utf-8", "replace")

    def special_tokens(self):
        return {}

    def token_bytes(self, token_id):
        return bytes([token_id])


def test_closing_mid_comparison_cancels_the_job_and_does_not_join_it(qtbot, session):
    """The encoder call waits for a gate that only the test opens, after shutdown has returned: a
    shutdown that joined the call would return only once the call gave up waiting."""
    panel = make_panel(qtbot, session, ["gpt2"], text="hello")
    gate = threading.Event()
    slow = ByteToy("slow", gate)
    session.add_encoder(slow)
    panel.add_encoder_name("slow")
    panel.refresh_now()
    qtbot.waitUntil(slow.started.is_set, timeout=20_000)
    task = panel.jobs.current
    assert task is not None and task.running
    panel.shutdown()
    assert not slow.returned.is_set()  # shutdown came back while the call still runs
    assert task.cancelled and task.superseded  # the job is cancelled; its result will be dropped
    assert session.work.running == 1
    panel.close()
    panel.deleteLater()  # the pool is the session's: deleting the panel joins nothing
    QCoreApplication.processEvents()
    assert not slow.returned.is_set()
    gate.set()  # the call returns into the pool, and its outcome goes nowhere
    qtbot.waitUntil(lambda: session.work.running == 0, timeout=20_000)
    assert slow.returned.is_set()


def test_byte_labels_are_upper_case_and_legible_and_cr_has_its_marker(qtbot, session):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter

    from tokviz.ui.compare import rows as compare_rows

    panel = make_panel(qtbot, session, ["gpt2", "o200k_base"], text="안녕\r\n👋🏽 x\u00a0y")
    drawn = []

    class RecordingPainter(QPainter):
        def drawText(self, *args):  # noqa: N802
            if len(args) == 3 and isinstance(args[0], QRectF):
                drawn.append((args[2], self.font()))
            return super().drawText(*args)

    real = compare_rows.QPainter
    compare_rows.QPainter = RecordingPainter
    try:
        panel.view.grab()
    finally:
        compare_rows.QPainter = real
    texts = [t for t, _ in drawn]
    hex_labels = [t for t, f in drawn if f == panel.view.hex_font()]
    assert "EC 95" in hex_labels or "EC" in hex_labels
    assert all(t == t.upper() for t in hex_labels)
    assert panel.view.hex_font().pointSizeF() >= 9  # was 7.5 pt (~8 px)
    assert any("⟨CR⟩" in t for t in texts)  # "\r" was drawn as "↵", the same as "\n"
    assert any("⍽" in t for t in texts)  # NBSP has the Inspector's marker
    panel.shutdown()


def test_saving_is_a_notice_and_the_korean_demo_text(qtbot, session, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from tokviz.ui.i18n import install_translation

    panel = make_panel(qtbot, session, ["gpt2"], text="hello")
    target = tmp_path / "rows.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    panel.png_button.click()
    assert target.exists() and panel.message_bar.level == "info" and "rows.png" in panel.message_bar.text()
    panel.shutdown()
    try:
        assert install_translation("ko") == "ko"
        korean = compare_panel.default_text()
        assert korean != compare_panel.DEFAULT_TEXT and "이모지" in korean and "Emoji" not in korean
    finally:
        install_translation("en")


def test_special_tokens_switch_reads_each_models_own_markers_as_one_token(qtbot, session, registry):
    available(registry, ["qwen", "llama-3"])
    from tokviz.core.chat import Message, build_prompt

    prompt = build_prompt(registry.get("qwen"), [Message("user", "안녕하세요? 한국어 토큰 👋🏽")], "chatml")
    panel = make_panel(qtbot, session, ["qwen", "llama-3"], text=prompt.text)
    plain = [r.data.encoding.ids for r in panel.view.rows]
    assert plain[0] == registry.get("qwen").encode(prompt.text).ids  # off: markers are text
    with qtbot.waitSignal(panel.rowsUpdated, timeout=60_000):
        panel.special_check.setChecked(True)
    qwen, llama = (r.data.encoding for r in panel.view.rows)
    assert qwen.ids == prompt.encoding.ids  # the chat prompt's own ids, <|im_start|> one token
    assert sum(t.kind == "special" for t in qwen.tokens) == 3  # im_start, im_end, im_start (generation)
    assert llama.ids == registry.get("llama-3").encode(prompt.text, allow_special=True).ids
    assert not any(t.kind == "special" for t in llama.tokens)  # Qwen's markers are not Llama's
    panel.shutdown()


def test_a_model_folder_opens_in_the_background_with_its_special_tokens(qtbot, session, tmp_path):
    """A folder as models ship (tokenizer.json + tokenizer_config.json), made here with the
    tokenizers library; Compare's row equals tokenizers' own encoding."""
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers import decoders, models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["<s>", "</s>", "<|user|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(["안녕하세요 오늘 날씨가 좋네요", "토큰화 hello world 👋🏽"] * 20, trainer)
    folder = tmp_path / "tiny-model"
    folder.mkdir()
    tok.save(str(folder / "tokenizer.json"))
    (folder / "tokenizer_config.json").write_text(
        '{"bos_token": "<s>", "eos_token": "</s>", "chat_template": "{% for m in messages %}<|user|>'
        '{{ m.content }}{% endfor %}"}', encoding="utf-8")
    text = "<|user|>안녕하세요 오늘 hello 👋🏽"
    panel = make_panel(qtbot, session, ["gpt2"], text=text)
    panel.special_check.setChecked(True)
    with qtbot.waitSignal(panel.modelOpened, timeout=60_000) as opened:
        panel.open_model_file(str(folder))
    assert opened.args[0] is True, opened.args
    name = opened.args[1]
    qtbot.waitUntil(lambda: not panel.busy() and len(panel.view.rows) == 2, timeout=60_000)
    row = panel.view.rows[1].data
    assert row.name == name and not row.error, row.message
    assert row.encoding.ids == tok.encode(text).ids
    assert row.encoding.tokens[0].kind == "special"  # <|user|> is one special token
    panel.shutdown()


@pytest.mark.parametrize("pasted", ["둘째\r\n셋째\r\n", "x\u00a0y\rz", "끝\u2029문단\u2028줄"])
def test_pasted_text_reaches_every_encoder_byte_for_byte(qtbot, session, registry, pasted):
    """Ctrl+V through the real editor: CRLF, lone CR, NBSP and U+2028/2029 are encoded as pasted
    (the editor turned CRLF into LF and NBSP into a space: other ids than the CLI)."""
    from PySide6.QtGui import QGuiApplication, QKeySequence, QTextCursor

    panel = make_panel(qtbot, session, ["gpt2", "o200k_base"], text="첫째\r\n")
    cursor = panel.editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    panel.editor.setTextCursor(cursor)
    QGuiApplication.clipboard().setText(pasted)
    panel.editor.setFocus()
    with qtbot.waitSignal(panel.rowsUpdated, timeout=20_000):
        qtbot.keySequence(panel.editor, QKeySequence.StandardKey.Paste)
    expected = "첫째\r\n" + pasted
    assert panel.source_text() == expected
    for row in panel.view.rows:
        assert row.data.encoding.text == expected
        assert row.data.encoding.ids == registry.get(row.data.name).encode(expected).ids
    # typed text is read raw: NBSP and U+2028 stay (a CR cannot live in the editor once it is edited)
    qtbot.keyClicks(panel.editor, "!")
    assert panel.source_text().endswith("!")
    assert ("\u00a0" in panel.source_text()) == ("\u00a0" in pasted)
    panel.shutdown()
