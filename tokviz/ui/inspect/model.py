"""The Inspector's truth as plain Python (no Qt): the text, the encoder and how it is asked (normalization,
special tokens, text or chat), which request is the latest and which result is shown, the tokens selected,
the Train panel's model followed, a text held back for repair, and what is remembered between sessions.

Widgets send intents (:meth:`InspectState.choose_encoder`, :meth:`InspectState.set_text` …) and render what
the model says; the model validates each intent and tells its observers what changed. Every encoding is
asked for with a new generation: a result that comes back for an older one is stale and dropped, so the
views never show the tokens of an encoder or text the user has already left.

>>> state = InspectState()
>>> state.set_available(["gpt2", "cl100k_base"])  # the encoder changed: none was chosen before
True
>>> state.encoder
'cl100k_base'
>>> first = state.next_request()
>>> state.choose_encoder("gpt2")
>>> second = state.next_request()
>>> state.show(first.generation, "cl100k_base's tokens")  # came back after gpt2 was chosen: dropped
False
>>> state.show(second.generation, "gpt2's tokens"), state.result
(True, "gpt2's tokens")
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tokviz.ui.common.emitter import Emitter

NORMALIZATIONS = ("none", "NFC", "NFD", "NFKC", "NFKD")
INPUTS = ("text", "chat")  # the editor's own text, or the chat composer's rendered prompt
VIEW_MODES = ("text", "ids")
DEFAULT_ENCODER = "cl100k_base"


@dataclass(frozen=True)
class Request:
    """What one generation encodes (the Qt-free part of the worker's request)."""

    generation: int
    text: str
    encoder: str
    normalization: str
    allow_special: bool
    chat: bool


def same_tokens(old, new, first: int, last: int) -> bool:
    """Whether Encodings ``old`` and ``new`` hold the same tokens (ids and character spans) at indexes
    ``first``..``last``: then a selection of them still means what the user selected."""
    if old is None or new is None or last >= len(new.id_array) or last >= len(old.id_array):
        return False
    part = slice(first, last + 1)
    return bool(
        (old.id_array[part] == new.id_array[part]).all()
        and (old.start_array[part] == new.start_array[part]).all()
        and (old.end_array[part] == new.end_array[part]).all()
    )


class InspectState:
    """All the Inspector's state; see the module docstring."""

    def __init__(self) -> None:
        self.events = Emitter()
        self.text = ""
        self.encoder: str | None = None
        self.available: list[str] = []  # encoders that can be chosen, in the picker's order
        self.normalization = "none"
        self.allow_special = False
        self.input = "text"
        self.view_mode = "text"
        self.generation = 0
        self.relayout_pending = False  # the latest request only lays the shown Encoding out again
        self.result: object = None  # what the views show (the panel's EncodeResult)
        self.shown_generation: int | None = None
        self.encoding = None  # the shown result's Encoding (None: an error, or nothing yet)
        self.selection: tuple[int, int] | None = None
        self.held_text: str | None = None  # a paste held back for a lone surrogate: nothing is lost
        self.trained_name: str | None = None  # the Train panel's model of the moment
        self.lost_trained = False  # showing the default because the Train panel was reset
        self.closed = False

    # ---------------------------------------------------------------- the encoder
    def set_available(self, names: Sequence[str]) -> bool:
        """The registry's available encoders (listed again). The chosen one stays when still there,
        else the default takes its place; True when the encoder changed."""
        self.available = list(names)
        if self.encoder in self.available:
            return False
        self._set_encoder(self.default_encoder())
        return True

    def default_encoder(self) -> str | None:
        if DEFAULT_ENCODER in self.available:
            return DEFAULT_ENCODER
        return self.available[0] if self.available else None

    def choose_encoder(self, name: str) -> None:
        """The user picked ``name``: no longer waiting for the Train panel's next model. Raises
        ValueError for a name that is not available (the widget says why, the choice stays)."""
        if name not in self.available:
            raise ValueError(f"{name!r} is not an available encoder")
        self.lost_trained = False
        self._set_encoder(name)

    def _set_encoder(self, name: str | None) -> None:
        if name != self.encoder:
            self.encoder = name
            self.events.emit("encoder", name)

    def encoder_renamed(self, old: str, new: str) -> bool:
        """The Train panel's model at another step is listed as ``new``: followed when shown."""
        if self.encoder != old:
            return False
        if new not in self.available:
            self.available = [new if n == old else n for n in self.available]
        self._set_encoder(new)
        return True

    def trained_model_changed(self, name: str | None) -> str | None:
        """The Train panel offers model ``name`` (None: it was reset). Returns what happened to the
        view: ``"lost"`` (the model shown is gone; the default encoder shows instead), ``"back"`` (a new
        model after a reset: it is shown again) or None (the view is not concerned)."""
        previous, self.trained_name = self.trained_name, name
        if name is None and previous is not None and self.encoder == previous:
            self.lost_trained = True
            self.available = [n for n in self.available if n != previous]
            self._set_encoder(self.default_encoder())
            return "lost"
        if name is not None and self.lost_trained:
            self.lost_trained = False
            if name not in self.available:
                self.available.append(name)
            self._set_encoder(name)
            return "back"
        return None

    # ---------------------------------------------------------------- how the text is asked
    def set_text(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.events.emit("text", text)

    def set_normalization(self, form: str) -> None:
        if form not in NORMALIZATIONS:
            raise ValueError(f"unknown normalization {form!r} (one of {', '.join(NORMALIZATIONS)})")
        if form != self.normalization:
            self.normalization = form
            self.events.emit("normalization", form)

    def set_allow_special(self, on: bool) -> None:
        if bool(on) != self.allow_special:
            self.allow_special = bool(on)
            self.events.emit("allow_special", self.allow_special)

    def set_input(self, which: str) -> None:
        """The editor's text or the chat prompt. A chat prompt's template tokens are special tokens,
        so the chat input turns special tokens on."""
        if which not in INPUTS:
            raise ValueError(f"unknown input {which!r}")
        if which != self.input:
            self.input = which
            self.events.emit("input", which)
        if which == "chat":
            self.set_allow_special(True)

    def set_view_mode(self, mode: str) -> None:
        if mode not in VIEW_MODES:
            raise ValueError(f"unknown view mode {mode!r}")
        if mode != self.view_mode:
            self.view_mode = mode
            self.events.emit("view_mode", mode)

    # ---------------------------------------------------------------- requests and results
    def next_request(self, text: str | None = None) -> Request | None:
        """A new generation for the current text and options (``text``: the chat prompt instead of
        the editor's text); None when nothing can be encoded (shut down, or no encoder)."""
        if self.closed or self.encoder is None:
            return None
        self.generation += 1
        self.relayout_pending = False
        chat = self.input == "chat"
        return Request(
            self.generation,
            self.text if text is None else text,
            self.encoder,
            "none" if chat else self.normalization,
            self.allow_special,
            chat,
        )

    def next_relayout(self) -> int | None:
        """A new generation that only lays the shown Encoding out again (fonts, width, theme), or None
        when there is none to lay out: then the text must be encoded (:meth:`next_request`)."""
        if self.closed:
            return None
        latest = self.shown_generation == self.generation  # shown, or its second part is next
        if self.encoding is None or not (latest or self.relayout_pending):
            return None
        self.generation += 1
        self.relayout_pending = True
        return self.generation

    def is_latest(self, generation: int) -> bool:
        return generation == self.generation

    def show(self, generation: int, result: object, encoding=None) -> bool:
        """The worker's result for ``generation``: shown when it is the latest (True), dropped when the
        text or the options changed since it was asked for (False). The selection stays when the
        tokens it covers are the same tokens in the new Encoding (a re-layout, the same text encoded
        again), and is cleared otherwise."""
        if generation != self.generation or self.closed:
            return False
        previous = self.encoding
        self.result, self.encoding, self.shown_generation = result, encoding, generation
        if self.selection is not None and not same_tokens(previous, encoding, *self.selection):
            self.select(None)
        self.events.emit("result", result)
        return True

    def is_current(self) -> bool:
        """The views show the result of the latest request."""
        return self.result is not None and self.shown_generation == self.generation

    def select(self, selection: tuple[int, int] | None) -> None:
        """Select tokens ``(first, last)`` of the shown Encoding (None: no selection); out of range is none."""
        if selection is not None:
            first, last = sorted(selection)
            n = len(self.encoding.id_array) if self.encoding is not None else 0
            selection = None if first < 0 or n == 0 else (first, min(last, n - 1))
        if selection != self.selection:
            self.selection = selection
            self.events.emit("selection", selection)

    # ---------------------------------------------------------------- a text held back
    def hold(self, text: str) -> None:
        self.held_text = text

    def take_held(self) -> str | None:
        text, self.held_text = self.held_text, None
        return text

    def close(self) -> None:
        """Shut down: no new request, and a result still on its way is dropped."""
        self.closed = True

    # ---------------------------------------------------------------- remembered between sessions
    def remembered(self) -> dict[str, str | None]:
        """What the next start restores: the encoder and the editor's text."""
        return {"encoder": self.encoder, "text": self.text}

    def restore(self, saved: dict[str, str | None], default_text: str) -> list[str]:
        """Take back what :meth:`remembered` gave. A remembered encoder that is no longer available (a
        model file that moved, a trained model) is skipped: the default stays. A missing text gives
        ``default_text``. Returns the keys restored."""
        restored = []
        text = saved.get("text")
        self.set_text(default_text if text is None else text)
        if text is not None:
            restored.append("text")
        encoder = saved.get("encoder")
        if encoder is not None and encoder in self.available:
            self.choose_encoder(encoder)
            restored.append("encoder")
        return restored
