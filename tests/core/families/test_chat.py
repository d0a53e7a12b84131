"""Chat prompts equal to each model's own library; Jinja templates as transformers renders them; runaways stopped."""

from __future__ import annotations

import functools
import json

import jinja2
import jinja2.ext
import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment

from tests.support.packages import package_file
from tokviz.core.chat import (
    ChatTemplateError,
    Message,
    build_prompt,
    default_template,
    parse_messages,
    render_jinja,
)
from tokviz.core.encoders.hf_json import HFTokenizerEncoder
from tokviz.core.encoders.model_catalog import BY_NAME, load, probe

MESSAGES = [
    Message("system", "You are helpful. 한국어로 답하세요."),
    Message("user", "안녕하세요! 😀 What is 2+2?\r\n"),
    Message("assistant", "  4 입니다. "),
    Message("user", "고마워\u00a0요 <|eot_id|> [INST]"),
]
CONVERSATIONS = [MESSAGES, MESSAGES[1:2], [MESSAGES[0], MESSAGES[1], MESSAGES[1]]]


def catalog(name):
    ok, reason = probe(BY_NAME[name])
    if not ok:
        pytest.skip(reason)
    return _loaded(name)


@functools.cache
def _loaded(name):
    """A catalogue model built once for the module (tekken and Qwen are each read by two tests, ~1 s a
    build); encoders are read-only."""
    return load(name)


@pytest.mark.parametrize("name", ["llama-3", "llama3_json"])
def test_llama3_equals_meta_chat_format(name, hf_encoder):
    chat_format = pytest.importorskip("llama_models.llama3.chat_format")
    from llama_models.datatypes import RawMessage
    from llama_models.llama3.tokenizer import Tokenizer

    ref = chat_format.ChatFormat(Tokenizer(package_file("llama_models", "llama3", "tokenizer.model")))
    # the tiktoken catalogue entry, and Meta's tokenizer.json through Hugging Face tokenizers
    enc = catalog(name) if name == "llama-3" else hf_encoder(name)
    assert default_template(enc) == "llama3"
    for conv in CONVERSATIONS:
        want = ref.encode_dialog_prompt([RawMessage(role=m.role, content=m.content) for m in conv]).tokens
        got = build_prompt(enc, conv, "llama3")
        assert got.encoding.ids == want
        assert sum(got.message_tokens) + got.overhead == len(want)
        assert got.text.startswith("<|begin_of_text|><|start_header_id|>")
        assert got.text.endswith("<|start_header_id|>assistant<|end_header_id|>\n\n")
        assert got.encoding.joined_bytes() == got.text.encode()


@pytest.mark.parametrize("name, file", [
    ("mistral-sp-v1", "tokenizer.model.v1"),
    ("mistral-sp-v3", "mistral_instruct_tokenizer_240323.model.v3"),
    ("mistral-sp-v7", "mistral_instruct_tokenizer_241114.model.v7"),
    ("mistral-tekken", "tekken_240911.json"),
])
def test_mistral_equals_encode_chat_completion(name, file):
    mistral = pytest.importorskip("mistral_common.tokens.tokenizers.mistral")
    from mistral_common.protocol.instruct.messages import AssistantMessage, SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest

    kinds = {"system": SystemMessage, "user": UserMessage, "assistant": AssistantMessage}
    ref = mistral.MistralTokenizer.from_file(str(package_file("mistral_common", "data", file)))
    enc = catalog(name)
    template = default_template(enc)
    assert template == {"mistral-sp-v1": "mistral-v1", "mistral-sp-v7": "mistral-v7"}.get(name, "mistral-v3")
    for conv in CONVERSATIONS:
        request = ChatCompletionRequest(messages=[kinds[m.role](content=m.content) for m in conv])
        want = ref.encode_chat_completion(request).tokens
        got = build_prompt(enc, conv, template)
        assert got.encoding.ids == want
        assert sum(got.message_tokens) + got.overhead == len(want)


def test_mistral_format_needs_a_final_user_message():
    enc = catalog("mistral-tekken")
    with pytest.raises(ChatTemplateError, match="end with a user message"):
        build_prompt(enc, MESSAGES[:3], "mistral-v3")


def test_chatml_special_tokens_are_single_tokens():
    enc = catalog("qwen")
    prompt = build_prompt(enc, MESSAGES[1:2], default_template(enc))
    assert prompt.template == "chatml"
    assert prompt.text == "<|im_start|>user\n" + MESSAGES[1].content + "<|im_end|>\n<|im_start|>assistant\n"
    specials = [t for t in prompt.encoding.tokens if t.kind == "special"]
    assert [t.id for t in specials] == [151644, 151645, 151644]
    assert prompt.message_tokens[0] == len(enc.encode(MESSAGES[1].content))
    no_gen = build_prompt(enc, MESSAGES[1:2], "chatml", add_generation_prompt=False)
    assert not no_gen.text.endswith("assistant\n")


def test_gemma_template_folds_the_system_message_into_the_first_turn():
    text = render_jinja(build_gemma_source(), MESSAGES[:3], bos_token="<bos>")
    assert text.startswith("<bos><start_of_turn>user\nYou are helpful.")
    assert "<start_of_turn>model\n4 입니다.<end_of_turn>\n" in text
    assert text.endswith("<start_of_turn>model\n")


def build_gemma_source():
    from tokviz.core.chat import GEMMA_TEMPLATE

    return GEMMA_TEMPLATE


# A template in the style of real ones: tojson, raise_exception, a namespace, loop controls, strftime_now.
FOLDER_TEMPLATE = """{{- bos_token }}
{%- set ns = namespace(sys='') %}
{%- for message in messages %}
    {%- if message['role'] == 'system' %}{% set ns.sys = message['content'] %}{% continue %}{% endif %}
    {%- if message['role'] not in ['user', 'assistant'] %}{{ raise_exception('bad role') }}{% endif %}
    {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n' }}
    {%- if loop.index0 == 1 and ns.sys %}{{ ns.sys + '\n\n' }}{% endif %}
    {{- message['content'] | trim + '<|eot_id|>' }}
{%- endfor %}
{%- if tools %}{{ tools | tojson }}{% endif %}
{%- if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}
"""


def transformers_render(source, messages, **kw):
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = lambda x, **k: json.dumps(x, ensure_ascii=False)

    def raise_exception(msg):
        raise jinja2.exceptions.TemplateError(msg)

    env.globals["raise_exception"] = raise_exception
    return env.from_string(source).render(messages=messages, **kw)


def test_model_folder_template_equals_a_plain_sandbox_render(tmp_path, llama3_json):
    (tmp_path / "tokenizer.json").write_bytes(llama3_json.read_bytes())
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({
        "bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>", "chat_template": FOLDER_TEMPLATE}),
        encoding="utf-8")
    enc = HFTokenizerEncoder.from_file(tmp_path)
    assert default_template(enc) == FOLDER_TEMPLATE
    tools = [{"name": "검색", "parameters": {}}]
    prompt = build_prompt(enc, MESSAGES, default_template(enc), tools=tools)
    want = transformers_render(FOLDER_TEMPLATE, [{"role": m.role, "content": m.content} for m in MESSAGES],
                               bos_token="<|begin_of_text|>", eos_token="<|eot_id|>", add_generation_prompt=True,
                               tools=tools)
    assert prompt.text == want
    assert '"검색"' in want
    assert prompt.encoding.ids == enc.tokenizer.encode(want, add_special_tokens=False).ids
    assert prompt.encoding.tokens[0].kind == "special" and prompt.encoding.tokens[0].id == 128000
    assert prompt.message_tokens[1] > 0 and prompt.overhead > 0


@pytest.mark.parametrize("source, expected", [
    ("{{ raise_exception('System role not supported') }}", "raised an error: System role not supported"),
    ("{% for m in messages %}{{ m.nope.deeper }}{% endfor %}", "no attribute .nope."),
    ("{% if %}", "syntax error on line 1"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "ran for over"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}", "ran for over|wrote over"),
    ("{{ 'x' * 10000000000 }}", "repeats a value"),
    ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "recursed|ran for over"),
    ("{{ messages.__class__.__mro__ }}", "failed|raised"),
])
def test_a_template_that_raises_or_runs_away_is_stopped(source, expected):
    with pytest.raises(ChatTemplateError, match=expected):
        render_jinja(source, MESSAGES, seconds=0.5)


def test_output_is_bounded():
    with pytest.raises(ChatTemplateError, match="wrote over 1,000 characters"):
        render_jinja("{% for i in range(1000) %}{{ 'abc' }}{% endfor %}", MESSAGES, max_chars=1000)


def test_parse_messages():
    assert parse_messages([{"role": "user", "content": "x"}]) == [Message("user", "x")]
    with pytest.raises(ChatTemplateError, match="message 0 needs"):
        parse_messages([{"role": "user"}])
    with pytest.raises(ChatTemplateError, match="expected a JSON list"):
        parse_messages({"role": "user"})


def test_missing_special_token_is_a_clear_error():
    enc = catalog("qwen")
    with pytest.raises(ChatTemplateError, match="needs the special token '<\\|begin_of_text\\|>'"):
        build_prompt(enc, MESSAGES, "llama3")
