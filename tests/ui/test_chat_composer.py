"""The Inspector's chat composer (pytest-qt, offscreen): the prompt's ids are `tokviz chat --json`'s,
per-message counts add up with the template's overhead, and a template that raises or runs away is
a message, not a traceback or a hang."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from tokviz.cli import main as cli_main
from tokviz.core.encoders.builtin import default_registry
from tokviz.ui.inspect.chat_composer import ChatComposer
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session

MESSAGES = [
    ("system", "너는 친절한 도우미야. Answer briefly."),
    ("user", "토큰화가 뭐예요? 👋🏽\ttab\u00a0nbsp"),
    ("assistant", "텍스트를 작은 조각으로 나누는 거예요. "),
    ("user", "한국어는 토큰이 더 드나요?\n"),
]


@pytest.fixture(scope="module")
def registry():
    return default_registry()


@pytest.fixture
def panel(qtbot, registry):
    p = InspectPanel(Session(registry))
    qtbot.addWidget(p)
    p.resize(1200, 800)
    p.show()
    yield p
    p.shutdown()


def chat_result(qtbot, panel, encoder: str, messages=MESSAGES):
    """Show ``messages`` on the Chat tab with ``encoder`` and wait for the worker's prompt."""
    if panel.current_encoder() != encoder:
        panel.set_encoder(encoder)
    panel.input_tabs.setCurrentWidget(panel.composer)
    panel.composer.set_messages(messages)
    generation = panel.encode_now()
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.request.generation >= generation, timeout=60_000)
    return panel.result


def cli_chat(tmp_path, encoder: str, messages=MESSAGES, *extra: str) -> dict:
    path = tmp_path / "messages.json"
    path.write_text(json.dumps([{"role": r, "content": c} for r, c in messages], ensure_ascii=False),
                    encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli_main(["chat", "-e", encoder, str(path), "--json", *extra]) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("encoder", ["llama-3", "mistral-sp-v1", "qwen"])
def test_the_composer_shows_the_cli_prompt_id_for_id(qtbot, panel, registry, tmp_path, encoder):
    if encoder not in {s.name for s in registry.statuses() if s.available}:
        pytest.skip(f"{encoder} is not installed")
    result = chat_result(qtbot, panel, encoder)
    assert result.error is None, result.error
    cli = cli_chat(tmp_path, encoder)
    assert result.encoding.ids == [t["id"] for t in cli["tokens"]]
    assert result.encoding.text == cli["text"] == panel.composer.text
    # the token view draws that Encoding, special tokens as single tokens
    assert panel.token_view.encoding is result.encoding
    specials = [t for t in result.encoding.tokens if t.kind == "special"]
    assert specials and all(t.bytes.decode() in registry.get(encoder).special_tokens() for t in specials)
    # per-message counts equal the CLI's and add up with the template's overhead
    prompt = result.chat.prompt
    assert [m["tokens"] for m in cli["messages"]] == list(prompt.message_tokens)
    assert cli["overhead"] == prompt.overhead
    rows = panel.composer.counts()
    numbers = [int(n.replace(",", "")) for _, n in rows]
    assert numbers[-1] == len(result.encoding) == sum(numbers[:-1])
    assert numbers[:len(MESSAGES)] == list(prompt.message_tokens)


def test_the_model_own_choice_follows_the_model_and_a_builtin_can_be_forced(qtbot, panel, tmp_path):
    result = chat_result(qtbot, panel, "llama-3")
    assert result.chat.template == "llama3" and "Llama 3" in panel.composer.note.text()
    assert result.encoding.tokens[0].bytes == b"<|begin_of_text|>"
    # ChatML forced on Llama 3: its markers are not Llama's special tokens, the note says so
    panel.composer.set_template("chatml")
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.chat is not None
                    and panel.result.chat.template == "chatml", timeout=30_000)
    assert "<|im_start|>" in panel.composer.note.text()
    cli = cli_chat(tmp_path, "llama-3", MESSAGES, "--template", "chatml")
    assert panel.result.encoding.ids == [t["id"] for t in cli["tokens"]]


def test_generation_prompt_toggle_changes_the_prompt_and_its_row(qtbot, panel):
    on = chat_result(qtbot, panel, "llama-3")
    labels = [label for label, _ in panel.composer.counts()]
    assert "(generation prompt)" in labels
    generation = dict(panel.composer.counts())["(generation prompt)"]
    assert int(generation) == on.chat.generation_tokens == 4  # <|start_header_id|>assistant<|end_header_id|>\n\n
    panel.composer.generation_prompt.setChecked(False)
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.request.chat is not None
                    and not panel.result.request.chat.add_generation_prompt, timeout=30_000)
    off = panel.result
    assert len(off.encoding) == len(on.encoding) - 4
    assert "(generation prompt)" not in [label for label, _ in panel.composer.counts()]


@pytest.mark.parametrize("source,words", [
    ("{{ raise_exception('no system role here') }}", "no system role here"),
    ("{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}", "stopped"),
    ("{% for m in messages %}{{ m.role ", "syntax error"),
])
def test_a_failing_or_runaway_template_is_a_message(qtbot, panel, tmp_path, monkeypatch, source, words):
    monkeypatch.setattr("tokviz.core.chat.RENDER_SECONDS", 0.3)  # the runaway is stopped as at 2 s, sooner
    chat_result(qtbot, panel, "qwen")
    template = tmp_path / "bad.jinja"
    template.write_text(source, encoding="utf-8")
    assert panel.composer.load_template_file(template)
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.request.chat is not None
                    and panel.result.request.chat.file_name == "bad.jinja", timeout=60_000)
    assert panel.result.encoding is None and words in panel.result.error
    assert words in panel.composer.note.text() and panel.composer.table.rowCount() == 0
    assert panel.message_bar.isVisible() and words in panel.message_bar.text()
    # nothing is lost: the messages are still there, and a good template brings the counts back
    assert [m.content for m in panel.composer.messages()] == [c for _, c in MESSAGES]
    panel.composer.set_template(None)
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.encoding is not None, timeout=60_000)
    assert panel.composer.table.rowCount() > 0 and panel.composer.error is None


def test_a_tokenizer_config_template_file_is_read_and_a_bad_file_is_a_message(qtbot, tmp_path):
    composer = ChatComposer()
    qtbot.addWidget(composer)
    config = tmp_path / "tokenizer_config.json"
    config.write_text(json.dumps({"chat_template": "{% for m in messages %}[{{ m.role }}]{{ m.content }}"
                                                   "{% endfor %}"}), encoding="utf-8")
    assert composer.load_template_file(config)
    request = composer.request()
    assert request.file_name == "tokenizer_config.json" and request.template.startswith("{% for m")
    for name, data, words in (("none.json", b"{}", "no chat_template"), ("bin.jinja", b"\xff\xfe{{", "not UTF-8"),
                              ("bad.json", b"{", "not valid JSON")):
        (tmp_path / name).write_bytes(data)
        assert not composer.load_template_file(tmp_path / name)
        assert words in composer.note.text()
    assert not composer.load_template_file(tmp_path)  # a folder
    assert composer.request().file_name == "tokenizer_config.json"  # the good one stays chosen


def test_korean_roles_and_rows(qtbot, panel):
    from tokviz.ui.i18n import install_translation

    try:
        assert install_translation("ko") == "ko"
        composer = ChatComposer()
        qtbot.addWidget(composer)
        roles = [composer.message_rows()[0].role.itemText(i) for i in range(4)]
        assert roles == ["시스템", "사용자", "어시스턴트", "도구"]
        assert composer.message_rows()[1].content.placeholderText() != "User message"
        # the data the template gets stays the English role
        assert [m.role for m in composer.messages()][:2] == ["system", "user"]
    finally:
        install_translation("en")


def test_a_pasted_crlf_and_nbsp_reach_the_prompt_as_pasted(qtbot, panel, tmp_path):
    from PySide6.QtGui import QGuiApplication, QKeySequence

    chat_result(qtbot, panel, "llama-3", [("user", "")])
    row = panel.composer.message_rows()[0]
    QGuiApplication.clipboard().setText("첫 줄\r\n둘째\u00a0줄")
    row.content.setFocus()
    qtbot.keySequence(row.content, QKeySequence.StandardKey.Paste)
    assert panel.composer.messages()[0].content == "첫 줄\r\n둘째\u00a0줄"
    generation = panel.encode_now()
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.request.generation >= generation, timeout=30_000)
    cli = cli_chat(tmp_path, "llama-3", [("user", "첫 줄\r\n둘째\u00a0줄")])
    assert panel.result.encoding.ids == [t["id"] for t in cli["tokens"]]


def test_the_composer_is_built_when_its_tab_is_first_shown_and_then_encodes_the_chat(qtbot, panel):
    """Every Inspector built the composer at start, chat or not: it is built when the user first shows
    the Chat tab, in the tab's place, and the chat is encoded as before."""
    tabs = panel.input_tabs
    assert panel.findChildren(ChatComposer) == [] and tabs.tabText(1) == "Chat"
    tabs.tabBar().setCurrentIndex(1)  # as a click on the tab does
    composer = panel.findChild(ChatComposer)
    qtbot.waitUntil(lambda: composer is not None and composer.isVisible())
    assert tabs.currentIndex() == 1 and tabs.currentWidget() is composer and tabs.tabText(1) == "Chat"
    assert panel.composer is composer and len(panel.findChildren(ChatComposer)) == 1
    # the chat is what is encoded now: its prompt, or why the template failed, is on screen
    qtbot.waitUntil(lambda: panel.is_current() and panel.result.request.chat is not None, timeout=60_000)
    result = panel.result
    assert (result.encoding is not None and result.encoding.text == composer.text) or result.error
