"""Chat prompts across turns and across the content/template line.

**Prefix stability.** A server that keeps the KV cache of turn n reuses it for turn n+1 only as far
as the new prompt's tokens start with the old ones. Tokenization is not compositional at message
boundaries: the text after the boundary can merge with the text before it, or change how a
pre-tokenizer splits the whitespace before it, and the cache silently stops matching.

**Special-token injection.** A user message containing ``<|im_end|>`` becomes a control token when a
pipeline parses specials in content; :func:`injection` renders the prompt both ways and marks the
injected tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tokviz.core.chat import ChatPrompt, ChatTemplateError, Message, build_prompt
from tokviz.core.errors import message_of, user_message

STABLE = "stable"
MERGE = "merge across the boundary"
LOOKAHEAD = "retokenized before the boundary"
REWRITE = "template rewrites earlier turns"


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """Length of the longest common prefix of two id sequences.

    >>> common_prefix([1, 2, 3], [1, 2, 4, 5])
    2
    """
    n = 0
    for x, y in zip(a, b, strict=False):  # the shorter one ends the prefix
        if x != y:
            break
        n += 1
    return n


@dataclass(frozen=True)
class TurnBoundary:
    """The prompt of the first ``turn`` messages against the prompt with one message more.

    ``common``: the tokens the two prompts share from the start; ``before``/``after``: the earlier
    prompt's tokens from there on, and the later prompt's tokens over the same bytes (the ones that
    replace them); ``reason``: :data:`STABLE`, :data:`MERGE` (a token of the later prompt runs over the
    end of the earlier one), :data:`LOOKAHEAD` (the earlier prompt's text is a prefix of the later
    one's, yet its last tokens split otherwise once text follows: a pre-tokenizer looking ahead at
    whitespace), :data:`REWRITE` (the earlier prompt's text is not a prefix at all), or the template's
    error for a conversation it cannot render at this point (``error``).
    """

    turn: int
    earlier: ChatPrompt | None
    later: ChatPrompt | None
    common: int
    before: tuple[int, ...]
    after: tuple[int, ...]
    reason: str
    error: str | None = None

    @property
    def stable(self) -> bool:
        return self.reason == STABLE

    def as_json(self) -> dict:
        return {"turn": self.turn, "common": self.common,
                "earlier": len(self.earlier.encoding) if self.earlier else None,
                "later": len(self.later.encoding) if self.later else None,
                "stable": self.stable, "reason": self.reason, "before": list(self.before),
                "after": list(self.after), "error": self.error}


def _boundary(turn: int, earlier: ChatPrompt, later: ChatPrompt) -> TurnBoundary:
    a, b = earlier.encoding.ids, later.encoding.ids
    common = common_prefix(a, b)
    end = len(earlier.text.encode("utf-8"))
    if common == len(a):
        return TurnBoundary(turn, earlier, later, common, (), (), STABLE)
    starts = later.encoding.byte_start_array.tolist()
    # the later prompt's tokens over the bytes the earlier prompt's changed tokens covered
    after = tuple(b[k] for k in range(common, len(b)) if starts[k] < end or k == common)
    if not later.text.startswith(earlier.text):
        reason = REWRITE
    elif any(int(later.encoding.byte_end_array[k]) > end and starts[k] < end for k in range(common, len(b))):
        reason = MERGE
    else:
        reason = LOOKAHEAD
    return TurnBoundary(turn, earlier, later, common, tuple(a[common:]), after, reason)


def prefix_stability(encoder, messages: Sequence[Message], template: str, *, add_generation_prompt: bool = True,
                     cancelled: Callable[[], bool] | None = None) -> list[TurnBoundary]:
    """For each turn n (1 ≤ n < len(messages)): does the prompt of messages[:n+1] start with the tokens of
    the prompt of messages[:n]?

    The earlier prompt ends with a generation prompt when the next message is the assistant's (the
    model was asked to answer, and the cache holds that prompt); the last prompt takes
    ``add_generation_prompt``. ``cancelled`` is polled between renders and inside Jinja renders.
    """
    messages = list(messages)
    prompts: list[ChatPrompt | str] = []
    for n in range(1, len(messages) + 1):
        if cancelled is not None and cancelled():
            raise ChatTemplateError(user_message("the turn comparison was cancelled"))
        gen = add_generation_prompt if n == len(messages) else messages[n].role == "assistant"
        try:
            prompts.append(build_prompt(encoder, messages[:n], template, add_generation_prompt=gen,
                                        cancelled=cancelled))
        except ChatTemplateError as err:  # Mistral formats cannot end on an assistant turn, for one
            prompts.append(message_of(err))
    out = []
    for n in range(1, len(messages)):
        earlier, later = prompts[n - 1], prompts[n]
        if isinstance(earlier, str) or isinstance(later, str):
            error = earlier if isinstance(earlier, str) else later
            out.append(TurnBoundary(n, None if isinstance(earlier, str) else earlier,
                                    None if isinstance(later, str) else later, 0, (), (), "not rendered", error))
        else:
            out.append(_boundary(n, earlier, later))
    return out


@dataclass(frozen=True)
class Injection:
    """One conversation encoded ``safe`` (special-token strings in contents stay text) and ``unsafe``
    (parsed as control tokens); ``injected``: indexes of the unsafe prompt's special tokens that lie
    inside a message's content, each with the message index."""

    safe: ChatPrompt
    unsafe: ChatPrompt
    injected: tuple[tuple[int, int], ...]

    def as_json(self) -> dict:
        tokens = self.unsafe.encoding.tokens
        return {"safe": list(self.safe.encoding.ids), "unsafe": list(self.unsafe.encoding.ids),
                "injected": [{"index": k, "message": m, "id": tokens[k].id,
                              "text": tokens[k].bytes.decode("utf-8", "replace")} for k, m in self.injected]}


def injection(encoder, messages: Sequence[Message], template: str, *, add_generation_prompt: bool = True,
              cancelled: Callable[[], bool] | None = None) -> Injection:
    """The prompt with content specials kept as text beside the prompt with them parsed."""
    kw = {"add_generation_prompt": add_generation_prompt, "cancelled": cancelled}
    safe = build_prompt(encoder, messages, template, content_specials=False, **kw)
    unsafe = build_prompt(encoder, messages, template, content_specials=True, **kw)
    injected = []
    enc = unsafe.encoding
    for k in range(len(enc)):
        if enc.kind_array[k] != 1:  # KIND_CODES["special"]
            continue
        s, e = int(enc.byte_start_array[k]), int(enc.byte_end_array[k])
        owner = next((m for m, cs, ce in unsafe.contents if cs <= s and e <= ce), None)
        if owner is not None:
            injected.append((k, owner))
    return Injection(safe, unsafe, tuple(injected))
