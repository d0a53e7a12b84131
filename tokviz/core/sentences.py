"""Sentences that core builds for people, ready for translation without Qt.

tokviz's core does not import Qt, so it cannot call ``tr()``. A sentence is kept as an English
*template* with named fields (:class:`Sentence`) and the translation ``context`` it belongs to;
:meth:`Sentence.render` takes a ``translate(context, template)`` callable, the signature of
``QCoreApplication.translate``, and formats the translated template with the same fields. A
translation whose fields differ from its template's (a typo in ``{count}``) is ignored and the
English shown, so a broken translation never breaks a view. :func:`templates_in` lists a module's
templates for translators and tests.

Where a value is typed ``str`` and read by code that wants English (an encoder's ``source``, printed
by the CLI and compared by tests), :meth:`Sentence.text` gives a :class:`SentenceText`: the English
string that keeps its sentence, so a view can still show it translated (:func:`translated`).

>>> s = Sentence("{n:,} pieces", {"n": 1200}, context="Demo")
>>> s.render()
'1,200 pieces'
>>> s.render(lambda context, t: {"{n:,} pieces": "조각 {n:,}개"}.get(t, t))
'조각 1,200개'
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

Translate = Callable[[str, str], str]


def fields_of(template: str) -> set[str]:
    """The names of a template's fields: ``{"n"}`` for ``"{n:,} pieces"``."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(frozen=True)
class Sentence:
    """One sentence: an English ``template`` (``str.format`` syntax), the values of its fields (a
    value may be a Sentence, rendered in the same language) and the translation ``context`` (step
    explanations are the first user, so theirs is the default)."""

    template: str
    fields: Mapping[str, object] = field(default_factory=dict)
    context: str = "StepText"

    def render(self, translate: Translate | None = None) -> str:
        """The sentence, translated when ``translate`` knows the template (see the module docstring)."""
        template = self.template
        if translate is not None:
            found = translate(self.context, self.template)
            if found and fields_of(found) == fields_of(self.template):
                template = found
        # a field may itself be a Sentence (a region's name, a jamo's role): translated the same way
        values = {k: translated(v, translate) for k, v in self.fields.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a translation with a bad format spec
            return self.template.format(**values)

    def text(self) -> SentenceText:
        """The English sentence as a string that remembers this sentence (see :class:`SentenceText`)."""
        return SentenceText(self)

    def as_plain(self) -> dict:
        """The sentence as JSON-ready values (sent by a worker process; read back by :meth:`from_plain`).

        >>> s = Sentence("{n} of {what}", {"n": 2, "what": Sentence("pieces", {}, "Demo").text()}, "Demo")
        >>> Sentence.from_plain(s.as_plain()).text() == s.text()
        True
        """

        def plain(value):
            if isinstance(value, SentenceText):
                value = value.sentence
            return {"sentence": value.as_plain()} if isinstance(value, Sentence) else value

        return {
            "template": self.template,
            "context": self.context,
            "fields": {k: plain(v) for k, v in self.fields.items()},
        }

    @classmethod
    def from_plain(cls, data: object, depth: int = 0) -> Sentence | None:
        """The sentence :meth:`as_plain` wrote, or None for anything else (the data crossed a process
        boundary: a malformed one is ignored, never an error)."""
        if depth > 8 or not isinstance(data, dict):
            return None
        template, context, fields = data.get("template"), data.get("context"), data.get("fields")
        if not (isinstance(template, str) and isinstance(context, str) and isinstance(fields, dict)):
            return None
        values = {}
        for key, value in fields.items():
            if isinstance(value, dict):
                inner = cls.from_plain(value.get("sentence"), depth + 1)
                if inner is None:
                    return None
                value = inner.text()
            elif not isinstance(value, (str, int, float)) or not isinstance(key, str):
                return None
            values[key] = value
        sentence = cls(template, values, context)
        try:
            sentence.render()
        except Exception:  # noqa: BLE001 - a template that does not format with its own fields
            return None
        return sentence


class SentenceText(str):
    """A sentence's English text that keeps the :class:`Sentence`: code that reads it as a string (the
    CLI, JSON, comparisons, ``in``) gets the English exactly, and :func:`translated` renders it in
    another language. String operations (``+``, ``strip``) give plain English strings.

    >>> t = Sentence("{n} pieces", {"n": 3}, "Demo").text()
    >>> t == "3 pieces", translated(t, lambda context, s: {"{n} pieces": "조각 {n}개"}.get(s, s))
    (True, '조각 3개')
    """

    sentence: Sentence

    def __new__(cls, sentence: Sentence) -> SentenceText:
        text = super().__new__(cls, sentence.render())
        text.sentence = sentence
        return text

    def __reduce__(self):  # pickled (to a worker process) as its sentence, not as the English
        return SentenceText, (self.sentence,)


def translated(value: object, translate: Translate | None) -> object:
    """``value`` in the language of ``translate`` when it is a Sentence or a SentenceText; any other
    value (a plain string, a number) as it is."""
    if isinstance(value, SentenceText):
        return value.sentence.render(translate)
    if isinstance(value, Sentence):
        return value.render(translate)
    return value


def templates_in(module, call: str) -> tuple[str, ...]:
    """Every string literal passed first to ``call(...)`` in ``module``'s source, in source order.

    Read from the source, so a list for translators cannot fall behind the code.
    """
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(module))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == call and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append(arg.value)
    return tuple(dict.fromkeys(found))
