"""Where an encoder's data comes from, and why it is unavailable, as sentences a view can translate.

An encoder's ``source`` and a registry entry's probe reason are strings: the CLI prints them and the
app shows them as tooltips. The families word them with :func:`said`, which gives the English string
(:class:`~tokviz.core.sentences.SentenceText`) that keeps its sentence, in the translation context
:data:`CONTEXT` (every family's templates: :func:`tokviz.core.encoders.builtin.source_templates`);
the app shows it in the interface's language, and paths, package names and hashes stay as they are
(they are fields, never part of a template).

>>> source = said("package {package} ({path}), SHA-256 verified", package="llama-models", path="a/b.model")
>>> source
'package llama-models (a/b.model), SHA-256 verified'
>>> ko = {"package {package} ({path}), SHA-256 verified": "{package} 패키지 ({path}), SHA-256 확인됨"}
>>> source.sentence.render(lambda context, t: ko.get(t, t))
'llama-models 패키지 (a/b.model), SHA-256 확인됨'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tokviz.core.errors import ModelFileError
from tokviz.core.sentences import Sentence, SentenceText, fields_of

CONTEXT = "EncoderSources"


def said(template: str, **fields) -> SentenceText:
    """The English of ``template`` with ``fields``, keeping the sentence for translation."""
    return Sentence(template, fields, CONTEXT).text()


def listed(parts: Iterable[str], separator: str = "; ") -> str:
    """``parts`` joined by ``separator``, each still translatable (a plain string when none is)."""
    parts = list(parts)
    if not any(isinstance(p, SentenceText) for p in parts):
        return separator.join(parts)
    template = separator.replace("{", "{{").replace("}", "}}").join(f"{{part{i}}}" for i in range(len(parts)))
    return Sentence(template, {f"part{i}": p for i, p in enumerate(parts)}, CONTEXT).text()


def problem_of(err: ModelFileError) -> str:
    """``str(err)`` (``path: problem``), translatable when the problem was :func:`said`."""
    if isinstance(err.problem, SentenceText):
        return said("{path}: {problem}", path=err.path, problem=err.problem)
    return str(err)


def has_words(template: str) -> bool:
    """Whether a template says anything besides its fields (``"{path} ({model})"`` does not)."""
    bare = template
    for name in fields_of(template):
        bare = re.sub(r"\{" + re.escape(name) + r"[^}]*\}", "", bare)
    return re.search(r"[A-Za-z]", bare) is not None
