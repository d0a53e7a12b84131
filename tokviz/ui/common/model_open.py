"""Opening a model file from the GUI: the one place that turns a file into an encoder for every panel.

A rank file of unknown origin records no pre-split pattern, and a wrong pattern gives wrong ids
silently, so tokviz asks for it (the CLI's ``--pattern``) instead of guessing. Every problem with the
file comes back as a message; nothing is raised into the event loop.

Parsing a model is slow for a big or hostile file (a 200k-rank file, a deeply nested JSON, a sparse
GGUF that takes a minute to reject), so :func:`open_model_in_background` parses on a detached thread
of a channel (:meth:`~tokviz.ui.common.work.Channel.start_detached`): two files opened one after
the other both load, and closing the window never waits for a parse. Only the pattern question, a
dialog, is asked on the GUI thread, between two parses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog, QWidget

from tokviz.core.errors import PatternNeeded, TokvizError
from tokviz.core.pretokenize import PATTERNS
from tokviz.ui.common.work import is_interrupt

# What the model dialogs offer: every format open_model_file reads (translated when shown).
MODEL_FILE_FILTER = (
    "Models (*.model *.tiktoken *.json *.codes *.txt *.gguf);;"
    "Hugging Face tokenizer.json (tokenizer.json);;GGUF (*.gguf);;All files (*)"
)

AskPattern = Callable[[Path], "str | None"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("ModelOpen", text)


def model_file_filter() -> str:
    """The model dialogs' file filter in the interface's language (the patterns stay as they are)."""
    return _tr(MODEL_FILE_FILTER)


def ask_pattern_dialog(parent: QWidget | None) -> AskPattern:
    """A question for the rank file's pre-split pattern: one of tokviz's named patterns."""

    def ask(path: Path) -> str | None:
        names = list(PATTERNS)
        choice, ok = QInputDialog.getItem(
            parent,
            _tr("Pre-split pattern"),
            _tr("{name} is a rank file tokviz does not recognise, and rank files do not record how text is "
                "split before merging. Which pattern was it trained with?\n(A wrong pattern gives wrong ids "
                "without any error.)").format(name=path.name),
            names, names.index("gpt4"), False,
        )
        return choice if ok and choice else None

    return ask


def open_model(path: str | Path, ask_pattern: AskPattern | None = None):
    """``(encoder, None)`` or ``(None, message)``; a rank file without a known pattern asks first
    (cancelling the question is a message, not an error)."""
    from tokviz.core.encoders.builtin import open_model_file

    p = Path(path)
    try:
        try:
            return open_model_file(p), None
        except PatternNeeded:
            if ask_pattern is None:
                raise
            pattern = ask_pattern(p)
            if pattern is None:
                return None, _tr("Not opened: {name} needs its pre-split pattern").format(name=p.name)
            return open_model_file(p, pattern=pattern), None
    except TokvizError as err:
        return None, str(err)
    except BaseException as err:  # noqa: BLE001 - a broken file (or a Rust panic) must never take the window down
        if is_interrupt(err):
            raise
        return None, f"{p}: {type(err).__name__}: {err}"


@dataclass(frozen=True)
class ModelLoad:
    """What parsing a model file gave: the encoder, or a message, or that it needs its pattern."""

    encoder: object | None = None
    message: str | None = None
    needs_pattern: bool = False


def load_model(path: str | Path, pattern: str | None = None) -> ModelLoad:
    """Parse the model file at ``path`` (any thread; never raises, never asks)."""
    from tokviz.core.encoders.builtin import open_model_file

    p = Path(path)
    try:
        encoder = open_model_file(p, pattern=pattern) if pattern else open_model_file(p)
    except PatternNeeded:
        if pattern:  # asked and answered: a loader that still wants one is a broken file
            return ModelLoad(message=_tr("{name}: the pattern {pattern} was not accepted").format(
                name=p.name, pattern=pattern))
        return ModelLoad(needs_pattern=True)
    except TokvizError as err:
        return ModelLoad(message=str(err))
    except BaseException as err:  # noqa: BLE001 - RecursionError, MemoryError, a Rust panic: a message
        if is_interrupt(err):
            raise
        return ModelLoad(message=f"{p}: {type(err).__name__}: {err}")
    return ModelLoad(encoder=encoder)


ModelDone = Callable[[object, "str | None"], None]


def open_model_in_background(channel, path: str | Path, ask_pattern: AskPattern | None, done: ModelDone):
    """Open ``path`` on ``channel`` (a :class:`~tokviz.ui.common.work.Channel`) and call
    ``done(encoder, None)`` or ``done(None, message)`` on the GUI thread; the event loop runs meanwhile.

    A rank file that needs its pre-split pattern is asked about here, on the GUI thread, then parsed
    again with the answer. Returns the first parse's Task.
    """
    p = Path(path)

    def parsed(result: ModelLoad | None, pattern: str | None = None) -> None:
        if result is None:
            done(None, _tr("Not opened: {name} (cancelled)").format(name=p.name))
        elif result.needs_pattern and pattern is None:
            answer = ask_pattern(p) if ask_pattern is not None else None
            if answer is None:
                done(None, _tr("Not opened: {name} needs its pre-split pattern").format(name=p.name))
                return
            channel.start_detached(lambda state: load_model(p, answer), finished=lambda r: parsed(r, answer),
                                   failed=lambda message: done(None, message))
        else:
            done(result.encoder, result.message)

    return channel.start_detached(lambda state: load_model(p), finished=parsed,
                                  failed=lambda message: done(None, message))
