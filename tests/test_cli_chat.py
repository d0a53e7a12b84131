"""`tokviz chat`: a chat prompt rendered with the model's template, its tokens and what each message costs."""

from __future__ import annotations

import io
import json

import pytest

from tests.support.packages import package_file
from tokviz.cli import main

MESSAGES = [{"role": "system", "content": "짧게 답해."}, {"role": "user", "content": "안녕하세요 😀\r\nx\u00a0y"}]


@pytest.fixture
def messages(tmp_path):
    path = tmp_path / "messages.json"
    path.write_text(json.dumps(MESSAGES, ensure_ascii=False), encoding="utf-8")
    return path


def test_mistral_v3_json_equals_mistral_common(messages, capsys):
    mistral = pytest.importorskip("mistral_common.tokens.tokenizers.mistral")
    from mistral_common.protocol.instruct.messages import SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    model = package_file("mistral_common", "data", "mistral_instruct_tokenizer_240323.model.v3")
    assert main(["chat", "--model", str(model), "--json", str(messages)]) == 0
    doc = json.loads(capsys.readouterr().out)
    ref = mistral.MistralTokenizer.from_file(str(model)).encode_chat_completion(ChatCompletionRequest(
        messages=[SystemMessage(content=MESSAGES[0]["content"]), UserMessage(content=MESSAGES[1]["content"])]))
    assert [t["id"] for t in doc["tokens"]] == ref.tokens
    assert doc["template"] == "mistral-v3" and doc["total"] == len(ref.tokens)
    # the encode --json schema, and per-message counts that add up with the template's overhead
    assert set(doc["tokens"][0]) == {"id", "bytes", "piece", "byte_start", "byte_end", "start", "end", "partial",
                                     "kind"}
    assert [m["role"] for m in doc["messages"]] == ["system", "user"]
    assert sum(m["tokens"] for m in doc["messages"]) + doc["overhead"] == doc["total"]
    assert all(m["tokens"] > 0 for m in doc["messages"])


def test_messages_from_stdin_and_the_text_view(monkeypatch, capsys):
    model = package_file("mistral_common", "data", "tokenizer.model.v1")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(MESSAGES[1:]).encode())))
    assert main(["chat", "--model", str(model), "--template", "mistral-v1", "-"]) == 0
    out = capsys.readouterr().out
    assert "template mistral-v1" in out and "user" in out and "total" in out


def test_a_template_the_encoder_lacks_markers_for_is_said(messages, capsys):
    assert main(["chat", "-e", "cl100k_base", "--template", "chatml", str(messages)]) == 0
    assert "has no special token <|im_end|>, <|im_start|>" in capsys.readouterr().err


def test_a_jinja_file_template(messages, tmp_path, capsys):
    tpl = tmp_path / "t.jinja"
    tpl.write_text("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}",
                   encoding="utf-8")
    assert main(["chat", "-e", "o200k_base", "--template", str(tpl), "--json", str(messages)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["text"].startswith("<|im_start|>system\n짧게 답해.<|im_end|>")


@pytest.mark.parametrize("content, message", [
    ("not json", "is not valid JSON"),
    ('{"role": "user"}', "expected a JSON list"),
    ("[" * 100000, "is not valid JSON"),
])
def test_bad_messages_are_messages(tmp_path, content, message, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    assert main(["chat", "-e", "cl100k_base", "--template", "chatml", str(bad)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_no_template_fits_and_not_a_file(tmp_path, messages, capsys):
    assert main(["chat", "-e", "cl100k_base", str(messages)]) == 2
    assert "give one with --template" in capsys.readouterr().err
    assert main(["chat", "-e", "cl100k_base", "--template", "chatml", str(tmp_path)]) == 2
    assert "is not a regular file" in capsys.readouterr().err
