"""Opening a model file from the GUI: the one place that turns a file into an encoder for every panel.

A rank file of unknown origin records no pre-split pattern, and a wrong pattern gives wrong ids
silently, so tokviz asks for it (the CLI's ``--pattern``) instead of guessing. Every problem with the
file comes back as a message; nothing is raised into the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog, QWidget

from tokviz.core.errors import PatternNeeded, TokvizError
from tokviz.core.pretokenize import PATTERNS

# What the model dialogs offer: every format open_model_file reads.
MODEL_FILE_FILTER = (
    "Models (*.model *.tiktoken *.json *.codes *.txt *.gguf);;"
    "Hugging Face tokenizer.json (tokenizer.json);;GGUF (*.gguf);;All files (*)"
)

AskPattern = Callable[[Path], "str | None"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("ModelOpen", text)


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
    from tokviz.core.encoders.files import open_model_file

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
    except Exception as err:  # noqa: BLE001 - a broken file must never take the window down
        return None, f"{p}: {type(err).__name__}: {err}"
