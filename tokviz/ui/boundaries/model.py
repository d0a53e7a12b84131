"""The Boundaries panel's truth as plain Python (no Qt): the encoder, the text or ids the user gave, the
conversation, which hazard is shown, each hazard's inputs (tokens to back up, the token budget), each
hazard's result and job status, and the streaming replay's cursor.

Widgets send intents and render what the model says. Every hazard's result is computed from a
:class:`Request` (plain data, the inputs that hazard reads); a result arriving for a request that is no
longer current (the user typed on) is dropped, so no view ever shows a result of other inputs than
those on screen.

>>> state = BoundariesState()
>>> state.set_ids_text("393, 30002")
>>> state.ids
(393, 30002)
>>> state.set_ids_text("393 x")
"'x' is not a token id; give ids as whole numbers, e.g. 393 30002 or [393, 30002]"
>>> state.set_back(0)
'Back up at least one token.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tokviz.ui.common.emitter import Emitter

HAZARDS = ("canonical", "stream", "heal", "turns", "injection", "cut")
CHAT_HAZARDS = ("turns", "injection")  # these read the conversation; the others the text (or ids)
STREAM_LIMIT = 4096  # tokens a replay steps through (a paste of a book is not streamed token by token)

BAD_BACK = "Back up at least one token."
BAD_BUDGET = "The budget is a number of tokens, 0 or more."


def parse_ids(text: str) -> tuple[int, ...]:
    """Token ids as typed or pasted: ``1 2 3``, ``1,2,3`` or ``[1, 2, 3]``; ValueError with a message
    the view shows for anything else (an empty text is no ids).

    >>> parse_ids("[393, 30002]")
    (393, 30002)
    """
    out = []
    for word in re.split(r"[\s,\[\]]+", text):
        if not word:
            continue
        if not re.fullmatch(r"\d{1,12}", word):
            raise ValueError(f"{word!r} is not a token id; give ids as whole numbers, e.g. 393 30002 or [393, 30002]")
        out.append(int(word))
    return tuple(out)


@dataclass(frozen=True)
class Request:
    """What one hazard's result is computed from. Equal requests give equal results."""

    hazard: str
    encoder: str | None
    text: str = ""
    ids: tuple[int, ...] | None = None  # canonical / stream: the ids given (None: the text's own)
    back: int = 1
    budget: int = 0
    chat: object = None  # turns / injection: the composer's request (messages, template, generation prompt)


@dataclass(frozen=True)
class Status:
    """A hazard's job: ``idle`` (nothing asked), ``running``, ``done`` or ``failed`` (``message`` says why:
    an encoder that cannot do this hazard, a template that fails, ids the encoder lacks)."""

    kind: str = "idle"
    message: str = ""


class BoundariesState:
    """All the Boundaries panel's state; see the module docstring.

    Events: ``inputs`` (some hazard's request changed: the panel asks for results again), ``hazard``,
    ``status`` (hazard), ``result`` (hazard), ``stream`` (the replay's cursor), ``playing``.
    """

    def __init__(self, encoder: str | None = None, text: str = "") -> None:
        self.events = Emitter()
        self.encoder = encoder
        self.text = text
        self.ids_text = ""
        self.ids: tuple[int, ...] | None = None  # parsed from ids_text; None when it holds no ids
        self.ids_error: str | None = None
        self.bad_id = ""
        self.chat: object = None
        self.hazard = HAZARDS[0]
        self.back = 1
        self.budget = 8
        self.results: dict[str, object] = {}
        self.status: dict[str, Status] = {h: Status() for h in HAZARDS}
        self._asked: dict[str, Request] = {}  # the request each result (or running job) belongs to
        self.stream_cursor = 0  # steps of the replay shown
        self.playing = False

    # ---------------------------------------------------------------- intents
    def set_encoder(self, name: str | None) -> None:
        if name != self.encoder:
            self.encoder = name
            self.events.emit("inputs", None)

    def set_text(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.events.emit("inputs", None)

    def set_ids_text(self, text: str) -> str | None:
        """The ids field as typed: None when it parses (empty: the text's own ids are used), else the
        reason, kept in ``ids_error``; while it stands, canonical ids and streaming compute nothing."""
        self.ids_text = text
        try:
            ids = parse_ids(text)
        except ValueError as err:
            self.ids_error = str(err)
            self.bad_id = self.ids_error.split(" ", 1)[0]  # the word that is not an id, for a translated message
            self.events.emit("ids_error", self.ids_error)
            return self.ids_error
        self.ids_error = None
        self.events.emit("ids_error", None)
        ids = ids or None
        if ids != self.ids:
            self.ids = ids
            self.events.emit("inputs", None)
        return None

    def set_chat(self, chat: object) -> None:
        if chat != self.chat:
            self.chat = chat
            self.events.emit("inputs", None)

    def set_back(self, back: int) -> str | None:
        if back < 1:
            return BAD_BACK
        if back != self.back:
            self.back = back
            self.events.emit("inputs", None)
        return None

    def set_budget(self, budget: int) -> str | None:
        if budget < 0:
            return BAD_BUDGET
        if budget != self.budget:
            self.budget = budget
            self.events.emit("inputs", None)
        return None

    def show(self, hazard: str) -> None:
        if hazard not in HAZARDS:
            raise ValueError(f"no such hazard: {hazard!r}")
        if hazard != self.hazard:
            self.hazard = hazard
            self.pause()
            self.events.emit("hazard", hazard)

    # ---------------------------------------------------------------- results
    def request(self, hazard: str | None = None) -> Request | None:
        """What ``hazard`` (default: the one shown) is computed from now; None when there is nothing to
        compute (no encoder, or ids that do not parse)."""
        hazard = hazard or self.hazard
        if self.encoder is None:
            return None
        if hazard in CHAT_HAZARDS:
            return None if self.chat is None else Request(hazard, self.encoder, chat=self.chat)
        if hazard in ("canonical", "stream") and self.ids_error is not None:
            return None
        ids = self.ids if hazard in ("canonical", "stream") else None
        return Request(
            hazard,
            self.encoder,
            text=self.text,
            ids=ids,
            back=self.back if hazard == "heal" else 1,
            budget=self.budget if hazard == "cut" else 0,
        )

    def needs(self, hazard: str | None = None) -> Request | None:
        """The request to run for ``hazard``: None when its result (or its running job) is of the
        current inputs already."""
        hazard = hazard or self.hazard
        req = self.request(hazard)
        if req is None or self._asked.get(hazard) == req:
            return None
        return req

    def started(self, req: Request) -> None:
        self._asked[req.hazard] = req
        self._set_status(req.hazard, Status("running"))

    def finished(self, req: Request, result: object) -> bool:
        """A job's result: shown when ``req`` is still the hazard's current request, else dropped."""
        if not self._current(req):
            return False
        self.results[req.hazard] = result
        if req.hazard == "stream":
            self.stream_cursor = 0
            self.pause()
        self._set_status(req.hazard, Status("done"))
        self.events.emit("result", req.hazard)
        if req.hazard == "stream":
            self.events.emit("stream", 0)
        return True

    def failed(self, req: Request, message: str) -> bool:
        if not self._current(req):
            return False
        self.results.pop(req.hazard, None)
        self._set_status(req.hazard, Status("failed", message))
        self.events.emit("result", req.hazard)
        return True

    def _current(self, req: Request) -> bool:
        # the inputs on screen, and the job asked last for them (not one the user typed past)
        return self._asked.get(req.hazard) == req and self.request(req.hazard) == req

    def _set_status(self, hazard: str, status: Status) -> None:
        self.status[hazard] = status
        self.events.emit("status", hazard)

    # ---------------------------------------------------------------- streaming replay
    def stream_length(self) -> int:
        result = self.results.get("stream")
        return len(result.steps) if result is not None else 0

    def step(self) -> bool:
        """One more token of the replay; False at its end (playing then stops)."""
        if self.stream_cursor >= self.stream_length():
            self.pause()
            return False
        self.stream_cursor += 1
        self.events.emit("stream", self.stream_cursor)
        if self.stream_cursor >= self.stream_length():
            self.pause()
        return True

    def reset_stream(self) -> None:
        self.pause()
        self.stream_cursor = 0
        self.events.emit("stream", 0)

    def play(self) -> bool:
        """Play from where the cursor is (from the start when at the end); False with nothing to play."""
        if self.stream_length() == 0:
            return False
        if self.stream_cursor >= self.stream_length():
            self.stream_cursor = 0
            self.events.emit("stream", 0)
        if not self.playing:
            self.playing = True
            self.events.emit("playing", True)
        return True

    def pause(self) -> None:
        if self.playing:
            self.playing = False
            self.events.emit("playing", False)
