"""The bounded sandbox renders ordinary templates exactly as jinja2's own sandbox (transformers') does:
its checks refuse only huge values, never the padding, formatting and joining real templates use."""

from __future__ import annotations

import json

import jinja2
import jinja2.ext
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2.sandbox import ImmutableSandboxedEnvironment

from tokviz.core.template_sandbox import RENDER_CHARS, TemplateFailure, render_bounded

CONTEXT = {
    "messages": [{"role": "system", "content": "짧게.\n둘째 줄"}, {"role": "user", "content": "안녕 😀\ttab"}],
    "tools": [{"name": "검색", "parameters": {"q": {"type": "string"}}}],
    "bos_token": "<s>", "add_generation_prompt": True,
}

ORDINARY = [
    "{{ messages | tojson }}",
    "{{ messages | tojson(indent=4) }}",
    "{{ tools | tojson(separators=(',', ':')) }}",
    "{{ messages[0].content | indent(4, true) }}",
    "{{ messages[1].content | center(30) }}|{{ 'x'.center(9, '*') }}|{{ 'x'.ljust(5) }}|{{ 'x'.rjust(5) }}",
    "{{ '7'.zfill(3) }} {{ messages[1].content.expandtabs(4) }}",
    "{{ '%-10s|%5.2f|%*d' % ('a', 3.14159, 4, 7) }} {{ '%(a)s' % {'a': 1} }} {{ '%s and %s' | format('a', 'b') }}",
    "{{ '{:>8}|{:.3f}|{:,}'.format('r', 2.5, 1234567) }} {{ '{0}{0}'.format('d') }}"
    " {{ '{x:^7}'.format_map({'x': 'm'}) }}",
    "{{ messages | map(attribute='role') | join(', ') }} {{ ', '.join(['a', 'b']) }}",
    "{{ messages[0].content | replace('\\n', ' / ') }} {{ 'aXbX'.replace('X', '--', 1) }}",
    "{{ 2 ** 10 }} {{ 10 ** 300 % 7 }} {{ 12345 * 6789 }} {{ 'ab' * 3 }} {{ [1] * 3 }} {{ 'a' + 'b' }} {{ [1] + [2] }}",
    "{{ bos_token ~ messages[0].role ~ 1 ~ none }}",
    "{% for row in messages | batch(1, '-') %}{{ row | length }}{% endfor %}"
    "{% for col in [1, 2, 3] | slice(2) %}{{ col }}{% endfor %}",
    "{{ 'one two three four' | wordwrap(7) }}",
    "{% set ns = namespace(text='') %}{% for m in messages %}{% set ns.text = ns.text + m.content %}{% endfor %}"
    "{{ ns.text | length }}",
    "{% macro turn(m) %}<{{ m.role }}>{{ m.content | trim }}{% endmacro %}{% for m in messages %}{{ turn(m) }}"
    "{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}",
]


def plain_sandbox(source: str) -> str:
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = lambda x, ensure_ascii=False, indent=None, separators=None, sort_keys=False: json.dumps(
        x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)
    return env.from_string(source).render(**CONTEXT)


@pytest.mark.parametrize("source", ORDINARY)
def test_ordinary_templates_render_as_the_plain_sandbox_does(source):
    assert render_bounded(source, CONTEXT) == plain_sandbox(source)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=40), width=st.integers(-5, 60), count=st.integers(-1, 5))
def test_padding_and_replacing_within_the_bounds_equal_python(text, width, count):
    context = {"t": text, "w": width, "n": count}
    source = "{{ t.center(w) }}|{{ t.ljust(w, '.') }}|{{ t.zfill(w) }}|{{ t.replace('a', 'bc', n) }}|{{ t * w }}"
    want = f"{text.center(width)}|{text.ljust(width, '.')}|{text.zfill(width)}|{text.replace('a', 'bc', count)}|" \
        f"{text * width}"
    assert render_bounded(source, context) == want


def test_a_value_just_at_the_bound_is_allowed_and_one_past_it_is_not():
    assert len(render_bounded("{{ 'x' * n }}", {"n": RENDER_CHARS})) == RENDER_CHARS
    with pytest.raises(TemplateFailure, match="repeats a value"):
        render_bounded("{{ 'x' * n }}", {"n": RENDER_CHARS + 1})


def test_markup_concatenation_still_escapes():
    assert render_bounded("{% autoescape true %}{{ '<' ~ 'b' }}{% endautoescape %}", {}) == "&lt;b"


def test_a_failure_keeps_its_sentence_across_the_template_process():
    """The render runs in a child process: its message comes back as the same English, still carrying
    the template and fields a view translates (nested: "stopped: {why}" with the reason inside)."""
    from tokviz.core.chat import ChatTemplateError, Message, render_jinja
    from tokviz.core.errors import message_of

    ko = {
        "the chat template has a syntax error on line {line}: {detail}": "{line}번째 줄 문법 오류: {detail}",
        "the chat template was stopped: {why}": "중단: {why}",
        "the template wrote over {max_chars:,} characters": "{max_chars:,}자 초과",
    }
    translate = lambda context, template: ko.get(template, "") if context == "Errors" else ""  # noqa: E731
    with pytest.raises(ChatTemplateError) as caught:
        render_jinja("{% if %}", [Message("user", "안녕")])
    message = message_of(caught.value)
    assert str(caught.value) == str(message)
    assert str(message).startswith("the chat template has a syntax error on line 1: ")
    assert message.sentence.render(translate).startswith("1번째 줄 문법 오류: ")
    with pytest.raises(ChatTemplateError) as caught:
        render_jinja("{% for i in range(99) %}{{ 'x' * 90 }}{% endfor %}", [Message("user", "hi")], max_chars=1000)
    message = message_of(caught.value)
    assert str(message) == "the chat template was stopped: the template wrote over 1,000 characters"
    assert message.sentence.render(translate) == "중단: 1,000자 초과"


@pytest.mark.parametrize("data", [
    None, "text", {"template": 3, "context": "Errors", "fields": {}},
    {"template": "{a}", "context": "Errors", "fields": {}},  # a field it does not have
    {"template": "{a}", "context": "Errors", "fields": {"a": [1, 2]}},  # not a plain value
    {"template": "{a}", "context": "Errors", "fields": {"a": {"sentence": "no"}}},
    {"template": "{0}", "context": "Errors", "fields": {}},
])
def test_a_malformed_sentence_from_another_process_is_ignored(data):
    from tokviz.core.sentences import Sentence

    assert Sentence.from_plain(data) is None
