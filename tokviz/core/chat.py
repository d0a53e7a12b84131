"""Chat prompts: a list of messages rendered the way a model sees them, and what each part costs in tokens.

Two kinds of template:

- **Jinja2 ``chat_template``s**, the model's own (tokenizer_config.json / chat_template.jinja) or the
  built-in ``chatml`` (Qwen) and ``gemma``: rendered in jinja2's sandbox exactly as transformers
  renders them (``trim_blocks``, ``lstrip_blocks``, ``raise_exception``, ``tojson``, ``strftime_now``,
  ``bos_token``, ``eos_token``, ``add_generation_prompt``, ``tools``), then the whole prompt is encoded
  with special-token strings read as single special tokens.
- **Token-exact formats** that the model's own library builds piece by piece, not from one string:
  ``llama3`` (Meta's ChatFormat: each header, role and content encoded on its own) and ``mistral-v1`` /
  ``mistral-v3`` / ``mistral-v7`` (mistral-common's encode_chat_completion). Encoding the rendered
  string instead would merge pieces across the boundaries and give other ids.

A template that raises, runs too long, writes too much or asks for too much memory is stopped with a
:class:`ChatTemplateError`: Jinja templates render in a child process (:mod:`tokviz.core.template_process`)
under a hard wall-clock deadline and a memory limit, in a sandbox that refuses huge values before
building them (:mod:`tokviz.core.template_sandbox`); Ctrl-C and a GUI's cancel end the render at once.

>>> msgs = [Message("user", "안녕")]
>>> render_jinja("{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}", msgs)
'<user>안녕'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tokviz.core.encoders.base import HasChatTemplate
from tokviz.core.encoding import Encoding
from tokviz.core.errors import TokvizError, message_of, user_message
from tokviz.core.template_sandbox import RENDER_CHARS, RENDER_SECONDS, TemplateFailure


class ChatTemplateError(TokvizError):
    """A chat template failed, ran away, or does not fit the encoder; the message says which."""


@dataclass(frozen=True)
class Message:
    """One chat message: ``role`` (system, user, assistant, tool) and its text ``content``."""

    role: str
    content: str


def parse_messages(data: Any, source: str = "messages") -> list[Message]:
    """Messages from parsed JSON: a list of ``{"role": ..., "content": ...}`` objects.

    >>> parse_messages([{"role": "user", "content": "hi"}])
    [Message(role='user', content='hi')]
    """
    if not isinstance(data, list):
        raise ChatTemplateError(f"{source}: expected a JSON list of {{\"role\", \"content\"}} objects")
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("role"), str) \
                or not isinstance(item.get("content"), str):
            raise ChatTemplateError(f"{source}: message {i} needs a string \"role\" and a string \"content\"")
        out.append(Message(item["role"], item["content"]))
    return out


# ---- Jinja2, sandboxed, bounded and in a process that can be stopped ------------------------------------
def render_jinja(source: str, messages: Sequence[Message], *, bos_token: str = "", eos_token: str = "",
                 add_generation_prompt: bool = True, tools: list | None = None,
                 extra: Mapping[str, Any] | None = None, seconds: float | None = None,
                 max_chars: int = RENDER_CHARS, cancelled: Callable[[], bool] | None = None) -> str:
    """Render a Jinja2 chat template as transformers' ``apply_chat_template(tokenize=False)`` does.

    Raises ChatTemplateError for a syntax error, ``raise_exception(...)``, any other error inside the
    template, more than ``seconds`` (default :data:`RENDER_SECONDS`) of work, more than ``max_chars`` of
    output, a huge value or too much memory, and when ``cancelled()`` turns true. ``tools`` and
    ``extra`` must be JSON values (they travel to the template process as JSON).
    """
    from tokviz.core import template_process

    content = sum(len(m.content) for m in messages)
    if content > max_chars:
        raise ChatTemplateError(user_message("the messages are {content:,} characters long; a chat template may "
                                             "write at most {max_chars:,}", content=content, max_chars=max_chars))
    context = {
        "messages": [{"role": m.role, "content": m.content} for m in messages],
        "bos_token": bos_token, "eos_token": eos_token, "add_generation_prompt": add_generation_prompt,
        "tools": tools, "documents": None, **(extra or {}),
    }
    try:
        json.dumps(context)
    except (TypeError, ValueError) as err:
        raise ChatTemplateError(f"the chat template's tools or extra values are not JSON: {err}") from None
    try:
        # RENDER_SECONDS is read at each call, so a test can lengthen it for a whole command
        return template_process.render(source, context, seconds=RENDER_SECONDS if seconds is None else seconds,
                                       max_chars=max_chars, cancelled=cancelled)
    except TemplateFailure as err:
        raise ChatTemplateError(message_of(err)) from None


# ---- built-in templates -------------------------------------------------------------------------------
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)

# Gemma (2 and 3): no system role, so a system message is put before the first user turn; the
# assistant is called "model"; contents are trimmed.
GEMMA_TEMPLATE = (
    "{{ bos_token }}"
    "{% if messages and messages[0]['role'] == 'system' %}"
    "{% set first_user_prefix = messages[0]['content'] + '\\n\\n' %}{% set loop_messages = messages[1:] %}"
    "{% else %}{% set first_user_prefix = '' %}{% set loop_messages = messages %}{% endif %}"
    "{% for message in loop_messages %}"
    "{% set role = 'model' if message['role'] == 'assistant' else message['role'] %}"
    "{{ '<start_of_turn>' + role + '\\n' + (first_user_prefix if loop.first else '') + message['content'] | trim"
    " + '<end_of_turn>\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<start_of_turn>model\\n' }}{% endif %}"
)

JINJA_BUILTINS = {"chatml": CHATML_TEMPLATE, "gemma": GEMMA_TEMPLATE}
EXACT_BUILTINS = ("llama3", "mistral-v1", "mistral-v3", "mistral-v7")
BUILTIN_TEMPLATES = (*EXACT_BUILTINS, *JINJA_BUILTINS)


@dataclass
class _Unit:
    """One piece encoded on its own: a special token, or text (with where message contents sit in it)."""

    text: str
    special: bool = False
    contents: list[tuple[int, int, int]] = field(default_factory=list)  # (message, start, end) chars in text


class _Builder:
    def __init__(self):
        self.units: list[_Unit] = []

    def special(self, token: str) -> None:
        self.units.append(_Unit(token, special=True))

    def text(self, *pieces: str | tuple[int, str]) -> None:
        """One unit of text; a ``(message index, text)`` piece marks a message's content."""
        unit = _Unit("")
        for piece in pieces:
            if isinstance(piece, tuple):
                index, content = piece
                unit.contents.append((index, len(unit.text), len(unit.text) + len(content)))
                unit.text += content
            else:
                unit.text += piece
        if unit.text:
            self.units.append(unit)


def _llama3_units(messages: Sequence[Message], add_generation_prompt: bool) -> list[_Unit]:
    """Meta's ChatFormat.encode_dialog_prompt: bos, then per message a header, the content and eot."""
    b = _Builder()
    b.special("<|begin_of_text|>")
    for i, m in enumerate(messages):
        b.special("<|start_header_id|>")
        b.text("ipython" if m.role == "tool" else m.role)
        b.special("<|end_header_id|>")
        b.text("\n\n")
        b.text((i, m.content))
        b.special("<|eot_id|>")
    if add_generation_prompt:
        b.special("<|start_header_id|>")
        b.text("assistant")
        b.special("<|end_header_id|>")
        b.text("\n\n")
    return b.units


def _mistral_turns(messages: Sequence[Message], keep_system: bool) -> list[tuple[str, list[tuple[int, str]]]]:
    """mistral-common's request normalizer: consecutive messages of one role become one turn, their
    contents joined by a blank line; below v7 system messages leave the conversation (the system prompt)."""
    turns: list[tuple[str, list[tuple[int, str]]]] = []
    for i, m in enumerate(messages):
        if m.role not in ("system", "user", "assistant"):
            raise ChatTemplateError(user_message("the Mistral format takes system, user and assistant messages, "
                                                 "not {role!r}", role=m.role))
        if m.role == "system" and not keep_system:
            continue
        if turns and turns[-1][0] == m.role:
            turns[-1][1].append((i, m.content))
        else:
            turns.append((m.role, [(i, m.content)]))
    return turns


def _joined(parts: list[tuple[int, str]], sep: str = "\n\n") -> list[str | tuple[int, str]]:
    out: list[str | tuple[int, str]] = []
    for k, part in enumerate(parts):
        if k:
            out.append(sep)
        out.append(part)
    return out


def _mistral_units(messages: Sequence[Message], version: str) -> list[_Unit]:
    """mistral-common's encode_chat_completion for plain-text conversations (v1, v3 and tekken, v7)."""
    keep_system = version == "v7"
    system = [(i, m.content) for i, m in enumerate(messages) if m.role == "system"]
    turns = _mistral_turns(messages, keep_system)
    users = [k for k, (role, _) in enumerate(turns) if role == "user"]
    if not users or turns[-1][0] != "user":
        raise ChatTemplateError(user_message("the Mistral format needs the conversation to end with a user message"))
    first_user, last_user = users[0], users[-1]
    b = _Builder()
    b.special("<s>")
    for k, (role, parts) in enumerate(turns):
        if role == "system":  # v7 only
            b.special("[SYSTEM_PROMPT]")
            b.text(*_joined(parts))
            b.special("[/SYSTEM_PROMPT]")
        elif role == "user":
            body = _joined(parts)
            if version == "v1":
                if k == first_user and system:
                    body = [*_joined(system), "\n\n", *body]
                b.text("[INST] ", *body, " [/INST]")
            else:
                if version == "v3" and k == last_user and system:
                    body = [*_joined(system), "\n\n", *body]
                b.special("[INST]")
                b.text(*body)
                b.special("[/INST]")
        else:
            body = _joined(parts)
            if version != "v1":  # from v2 on a reply's trailing spaces are dropped
                idx, last = body[-1]
                body[-1] = (idx, last.rstrip(" "))
            b.text(*body)
            b.special("</s>")
    return b.units


# ---- the prompt and its costs -------------------------------------------------------------------------
@dataclass(frozen=True)
class ChatPrompt:
    """A rendered chat prompt and its tokens.

    ``message_tokens[i]`` counts the tokens that carry message i's content; ``overhead`` counts the
    rest (special tokens, role names, separators the template adds).
    """

    template: str
    text: str
    encoding: Encoding
    messages: tuple[Message, ...]
    message_tokens: tuple[int, ...]
    overhead: int
    contents: tuple[tuple[int, int, int], ...] = ()  # (message, byte start, byte end) of each content

    def as_json(self) -> dict:
        return {
            "template": self.template,
            "text": self.text,
            "messages": [{"role": m.role, "tokens": n}
                         for m, n in zip(self.messages, self.message_tokens, strict=True)],
            "overhead": self.overhead,
            "total": len(self.encoding),
        }


def _special_id(encoder, token: str) -> int:
    found = encoder.special_tokens().get(token)
    if found is None:
        raise ChatTemplateError(user_message(
            "the template needs the special token {token!r}, which {encoder} does not have; "
            "choose a template made for this model", token=token, encoder=encoder.name,
        ))
    return found


def _encode_units(encoder, units: list[_Unit], content_specials: bool = False
                  ) -> tuple[str, Encoding, list[tuple[int, int, int]]]:
    """Encode each unit on its own and join them into one Encoding of the whole prompt; special-token
    strings in text units stay text unless ``content_specials``."""
    text = "".join(u.text for u in units)
    rows: list[tuple] = []
    contents: list[tuple[int, int, int]] = []  # (message, byte start, byte end) in the whole prompt
    normalized_parts: list[str] = []
    changed = False
    offset = 0
    for unit in units:
        data = unit.text.encode("utf-8")
        if unit.special:
            rows.append((_special_id(encoder, unit.text), data, offset, offset + len(data), "special", unit.text))
            normalized_parts.append(unit.text)
        else:
            enc = encoder.encode(unit.text, allow_special=content_specials)
            for t in enc.tokens:
                rows.append((t.id, t.bytes, t.byte_start + offset, t.byte_end + offset, t.kind, t.raw))
            normalized_parts.append(enc.normalized_text if enc.normalized_text is not None else unit.text)
            changed |= enc.normalized_text is not None
            for index, start, end in unit.contents:
                bs = offset + len(unit.text[:start].encode("utf-8"))
                contents.append((index, bs, bs + len(unit.text[start:end].encode("utf-8"))))
        offset += len(data)
    encoding = Encoding.from_spans(encoder.name, text, rows, "".join(normalized_parts) if changed else None)
    return text, encoding, contents


def _locate_contents(text: str, messages: Sequence[Message]) -> list[tuple[int, int, int]]:
    """Where each message's content appears in a rendered prompt (in order; a template may trim it)."""
    found = []
    pos = 0
    for i, m in enumerate(messages):
        needle = m.content if m.content in text[pos:] else m.content.strip()
        if not needle:
            continue
        at = text.find(needle, pos)
        if at < 0:
            continue  # the template changed or dropped it: its tokens count as template text
        bs = len(text[:at].encode("utf-8"))
        found.append((i, bs, bs + len(needle.encode("utf-8"))))
        pos = at + len(needle)
    return found


def _content_safe_units(encoder, text: str, contents: list[tuple[int, int, int]]) -> list[_Unit] | None:
    """A rendered prompt as units where only the template's special-token strings are special: one
    inside a message's content stays text (a user cannot inject ``<|im_end|>``). None when no content
    holds a special-token string (then the whole text encodes as before)."""
    from tokviz.core.encoding import char_byte_starts
    from tokviz.core.special_tokens import SpecialSpans

    starts = char_byte_starts(text)
    units: list[_Unit] = []
    injected = False
    for start, end, special in SpecialSpans(encoder.special_tokens()).segments(text):
        inside = special is not None and any(s <= starts[start] and starts[end] <= e for _, s, e in contents)
        injected |= inside
        if special is not None and not inside:
            units.append(_Unit(text[start:end], special=True))
        elif units and not units[-1].special:
            units[-1].text += text[start:end]
        else:
            units.append(_Unit(text[start:end]))
    return units if injected else None


def _count(encoding: Encoding, contents: list[tuple[int, int, int]], n_messages: int) -> tuple[list[int], int]:
    """Tokens per message (a token counts for the content it overlaps) and the rest."""
    counts = [0] * n_messages
    overhead = 0
    for t in encoding.tokens:
        owner = None
        for index, start, end in contents:
            overlaps = t.byte_start < end and start < t.byte_end
            if overlaps or (t.byte_start == t.byte_end and start <= t.byte_start < end):
                owner = index
                break
        if owner is None or t.kind == "special":
            overhead += 1
        else:
            counts[owner] += 1
    return counts, overhead


def build_prompt(encoder, messages: Sequence[Message], template: str, *, add_generation_prompt: bool = True,
                 bos_token: str | None = None, eos_token: str | None = None, tools: list | None = None,
                 cancelled: Callable[[], bool] | None = None, content_specials: bool | None = None
                 ) -> ChatPrompt:
    """Render ``messages`` with ``template`` and encode the prompt with ``encoder``.

    ``content_specials``: whether a special-token string inside a message's content becomes a control
    token. None does what the template's own library does: transformers parses them in a Jinja
    template's output (True), Meta's ChatFormat and mistral-common keep them text (False).
    :mod:`tokviz.core.boundaries.chat_turns` renders both ways to show the injection.

    ``template`` is a built-in name (:data:`BUILTIN_TEMPLATES`) or Jinja2 source. bos/eos default to
    the encoder's config (tokenizer_config.json) or its known tokens. ``cancelled`` is polled while a
    Jinja template renders (a GUI's "a newer request came"); when it turns true the render stops with
    a ChatTemplateError.
    """
    messages = tuple(messages)
    if template == "llama3":
        text, encoding, contents = _encode_units(encoder, _llama3_units(messages, add_generation_prompt),
                                                 bool(content_specials))
        name = template
    elif template in ("mistral-v1", "mistral-v3", "mistral-v7"):
        text, encoding, contents = _encode_units(encoder, _mistral_units(messages, template.split("-")[1]),
                                                 bool(content_specials))
        name = template
    else:
        source = JINJA_BUILTINS.get(template, template)
        name = template if template in JINJA_BUILTINS else "model's chat_template"
        config = encoder.config if isinstance(encoder, HasChatTemplate) else None
        bos = bos_token if bos_token is not None else (
            (config and config.bos_token) or getattr(encoder, "bos_token", None) or _first_special(
                encoder, ("<bos>", "<|begin_of_text|>", "<s>")))
        eos = eos_token if eos_token is not None else (
            (config and config.eos_token) or getattr(encoder, "eos_token", None) or "")
        text = render_jinja(source, messages, bos_token=bos or "", eos_token=eos or "",
                            add_generation_prompt=add_generation_prompt, tools=tools, cancelled=cancelled)
        contents = _locate_contents(text, messages)
        units = None if content_specials in (None, True) else _content_safe_units(encoder, text, contents)
        encoding = encoder.encode(text, allow_special=True) if units is None else _encode_units(encoder, units)[1]
    counts, overhead = _count(encoding, contents, len(messages))
    return ChatPrompt(name, text, encoding, messages, tuple(counts), overhead, tuple(contents))


def _first_special(encoder, names: Sequence[str]) -> str:
    specials = encoder.special_tokens()
    return next((n for n in names if n in specials), "")


def default_template(encoder) -> str:
    """The template for an encoder that names none: its own chat_template, else the built-in its
    special tokens call for (Llama 3 headers, Mistral [INST], ChatML, Gemma turns).

    Raises ChatTemplateError when nothing fits (give --template).
    """
    own = encoder.config.chat_template if isinstance(encoder, HasChatTemplate) else None
    if own:
        return own
    specials = encoder.special_tokens()
    if "<|start_header_id|>" in specials:
        return "llama3"
    if "<|im_start|>" in specials:
        return "chatml"
    if "<start_of_turn>" in specials:
        return "gemma"
    version = getattr(encoder, "version", None)  # tekken.json records its instruct version
    if version in ("v1", "v2", "v3", "v7") and "[INST]" in specials:
        return "mistral-v3" if version == "v2" else f"mistral-{version}"
    if "[SYSTEM_PROMPT]" in specials:
        return "mistral-v7"
    if "[INST]" in specials:
        return "mistral-v3"
    if getattr(encoder, "name", "") == "mistral-sp-v1":
        return "mistral-v1"
    raise ChatTemplateError(user_message(
        "{encoder} has no chat template and none of the built-in ones fits its special tokens; "
        "give one with --template ({templates}, or a Jinja file)",
        encoder=encoder.name, templates=", ".join(BUILTIN_TEMPLATES),
    ))


# what special tokens of the common chat formats look like: <|im_start|>, <start_of_turn>, [INST]
_MARKER = re.compile(r"<\|[^|<>\s]{1,40}\|>|<(?:start|end)_of_turn>|\[/?INST\]")


def unknown_markers(text: str, encoder) -> list[str]:
    """Special-token-like markers in a rendered prompt (``<|im_start|>``, ``<start_of_turn>``, ``[INST]``)
    that the encoder does not have as special tokens, so they cost several plain tokens each.

    >>> class E: special_tokens = staticmethod(lambda: {"<|im_end|>": 1})
    >>> unknown_markers("<|im_start|>user hi<|im_end|>", E())
    ['<|im_start|>']
    """
    specials = encoder.special_tokens()
    return sorted({m for m in _MARKER.findall(text) if m not in specials})
