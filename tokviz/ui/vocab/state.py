"""The Vocabulary panel's truth as plain Python (no Qt): the encoder examined and the second one of
the diff, the token query and the token selected, the corpus of the use counts, the map shown, each
job's progress and status, and the results, cached per encoder object.

Widgets send intents and render what the state says. Work is described by a :class:`Request` (what
to compute for which encoder names); the panel runs the requests :meth:`VocabState.wanted` lists and
hands back what they computed with :meth:`VocabState.deliver`. A result is cached under the encoder
*object* it was computed for (an encoder never changes; a file opened again under the same name is
another object; the panel passes a handle per registry entry in its place, since the encoder lives in
its vocabulary process), and one that arrives for a request no longer current (the user typed on, chose
another encoder) is cached but never shown.

>>> state = VocabState(["a", "b"])
>>> state.choose_encoder("c")
'no encoder named c'
>>> state.choose_encoder("b"); state.encoder
'b'
>>> state.search("  ")
>>> state.request_for("search") is None
True
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from tokviz.ui.common.emitter import Emitter

KINDS = ("search", "tree", "reach", "use", "diff", "maps")
TABS = ("tree", "reach", "diff", "maps")
TAB_KINDS = {"tree": ("search", "tree"), "reach": ("reach", "use"), "diff": ("diff",), "maps": ("maps",)}
MAP_KINDS = ("numbers", "indentation")


@dataclass(frozen=True)
class Request:
    """One piece of work: ``kind`` for the encoder named ``encoder`` (and ``second``, for a diff);
    ``param`` is the query (search), the token id (tree), the corpus (use) or the map kind (maps)."""

    kind: str
    encoder: str
    second: str | None = None
    param: str = ""

    def cache_key(self) -> tuple[str, str]:
        return self.kind, self.param


@dataclass(frozen=True)
class Outcome:
    """What a job computed for ``request``: the encoder objects it used (first, second) and the result."""

    request: Request
    encoders: tuple
    result: object


@dataclass
class JobStatus:
    """``idle`` | ``running`` | ``done`` | ``failed``; ``done``/``total`` while running; ``message`` on failure."""

    status: str = "idle"
    done: int = 0
    total: int = 0
    message: str = ""


class VocabState:
    """All the Vocabulary panel's state; see the module docstring. ``names``: the encoders offered."""

    def __init__(self, names: list[str] | None = None) -> None:
        self.events = Emitter()
        self.names: list[str] = list(names or [])
        self.encoder: str | None = self.names[0] if self.names else None
        self.second: str | None = None
        self.query = ""
        self._new_query = False  # the query changed since its matches last arrived
        self.selected: int | None = None
        self.corpus: str | None = None
        self.map_kind = "numbers"
        self.tab = "tree"
        self.jobs: dict[str, JobStatus] = {k: JobStatus() for k in KINDS}
        self._running: dict[str, Request] = {}
        # encoder object -> {(kind, param): result}; a diff's is {(kind, param): (weakref(second), result)}
        self._cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # the encoder objects last seen under each name (weak: a replaced encoder's results go with it)
        self._objects: dict[str, weakref.ref] = {}

    # ------------------------------------------------------------------ intents
    def set_names(self, names: list[str]) -> None:
        """The encoders offered changed (a model opened, a trained one renamed); a chosen one that is
        gone falls back to the first, and names may now stand for other objects."""
        self.names = list(names)
        self._objects.clear()
        if self.encoder not in self.names:
            self._set("encoder", self.names[0] if self.names else None)
        if self.second not in self.names:
            self._set("second", None)
        self.events.emit("names", self.names)

    def choose_encoder(self, name: str) -> str | None:
        """Examine ``name``: None when done, else why not."""
        if name not in self.names:
            return f"no encoder named {name}"
        if name != self.encoder:
            self._set("encoder", name)
            self.selected = None
            self.events.emit("selection", None)
        return None

    def choose_second(self, name: str | None) -> str | None:
        """The diff's other vocabulary (None: no diff)."""
        if name is not None and name not in self.names:
            return f"no encoder named {name}"
        self._set("second", name)
        return None

    def search(self, query: str) -> None:
        """Find tokens by text, hex bytes or ``#id`` (the first match is selected when it arrives)."""
        query = query.strip()
        if query != self.query:
            self._new_query = True  # its first match replaces a token selected for another query
            self._set("query", query)

    def select(self, token_id: int | None) -> None:
        if token_id != self.selected:
            self.selected = token_id
            self.events.emit("selection", token_id)

    def choose_corpus(self, corpus: str | None) -> None:
        """The corpus (a file path) the use counts are taken over (None: none)."""
        self._set("corpus", corpus)

    def choose_map(self, kind: str) -> str | None:
        if kind not in MAP_KINDS:
            return f"unknown map {kind!r} (known: {', '.join(MAP_KINDS)})"
        self._set("map_kind", kind)
        return None

    def show_tab(self, tab: str) -> str | None:
        if tab not in TABS:
            return f"unknown tab {tab!r}"
        self._set("tab", tab)
        return None

    def _set(self, name: str, value) -> None:
        if getattr(self, name) != value:
            setattr(self, name, value)
            self.events.emit(name, value)

    # ------------------------------------------------------------------ work
    def request_for(self, kind: str) -> Request | None:
        """The work ``kind`` needs for what is chosen now (None: nothing to compute)."""
        enc = self.encoder
        if enc is None:
            return None
        if kind == "search":
            return Request("search", enc, param=self.query) if self.query else None
        if kind == "tree":
            return Request("tree", enc, param=str(self.selected)) if self.selected is not None else None
        if kind == "use":
            return Request("use", enc, param=self.corpus) if self.corpus else None
        if kind == "diff":
            return Request("diff", enc, self.second) if self.second else None
        if kind == "maps":
            return Request("maps", enc, param=self.map_kind)
        if kind == "reach":
            return Request("reach", enc)
        raise ValueError(f"unknown kind {kind!r}")

    def wanted(self) -> list[Request]:
        """What the tab on screen needs and has neither cached nor running."""
        out = []
        for kind in TAB_KINDS[self.tab]:
            req = self.request_for(kind)
            if req is not None and self.result(kind) is None and self._running.get(kind) != req:
                out.append(req)
        return out

    def started(self, request: Request) -> None:
        self._running[request.kind] = request
        self.jobs[request.kind] = JobStatus("running")
        self.events.emit("job", request.kind)

    def is_current(self, request: Request) -> bool:
        return request == self.request_for(request.kind)

    def progress(self, request: Request, done: int, total: int) -> None:
        if self.is_current(request) and self._running.get(request.kind) == request:
            self.jobs[request.kind] = JobStatus("running", done, total)
            self.events.emit("job", request.kind)

    def deliver(self, outcome: Outcome) -> bool:
        """Cache what a job computed; True when it is what the panel shows now (else it is dropped)."""
        req = outcome.request
        first = outcome.encoders[0]
        self._objects[req.encoder] = weakref.ref(first)
        store = self._cache.setdefault(first, {})
        if req.kind == "diff":
            second = outcome.encoders[1]
            self._objects[req.second] = weakref.ref(second)
            store[req.cache_key()] = (weakref.ref(second), outcome.result)
        else:
            store[req.cache_key()] = outcome.result
        self._finished(req)
        if not self.is_current(req):
            return False
        self.jobs[req.kind] = JobStatus("done")
        self.events.emit("result", req.kind)
        if req.kind == "search":  # the best match is shown at once
            matches = outcome.result.matches if outcome.result is not None else []
            new_query, self._new_query = self._new_query, False
            # (the same query's matches again keep a match the user picked among them)
            if matches and (new_query or self.selected not in [m[0] for m in matches]):
                self.select(matches[0][0])
        return True

    def fail(self, request: Request, message: str) -> bool:
        self._finished(request)
        if not self.is_current(request):
            return False
        self.jobs[request.kind] = JobStatus("failed", message=message)
        self.events.emit("job", request.kind)
        return True

    def _finished(self, request: Request) -> None:
        if self._running.get(request.kind) == request:
            del self._running[request.kind]
        if request.kind not in self._running and self.jobs[request.kind].status == "running":
            self.jobs[request.kind] = JobStatus()  # nothing of this kind runs any more (a stale job ended)
            self.events.emit("job", request.kind)

    def result(self, kind: str):
        """The cached result of what ``kind`` needs now (None: not computed for these encoders yet)."""
        req = self.request_for(kind)
        if req is None:
            return None
        first = self._object(req.encoder)
        if first is None:
            return None
        hit = self._cache.get(first, {}).get(req.cache_key())
        if hit is None or req.kind != "diff":
            return hit
        ref, value = hit
        return value if ref() is not None and ref() is self._object(req.second) else None

    def cached(self, request: Request, encoders: tuple):
        """The result cached for ``request`` computed with these encoder objects, or None (a job asks
        before it computes: names may have been offered anew, the objects behind them not)."""
        hit = self._cache.get(encoders[0], {}).get(request.cache_key())
        if hit is None or request.kind != "diff":
            return hit
        ref, value = hit
        return value if ref() is encoders[1] else None

    def _object(self, name: str | None):
        ref = self._objects.get(name) if name is not None else None
        return ref() if ref is not None else None

    def cached_kinds(self, encoder) -> set[tuple[str, str]]:
        """The (kind, param) results cached for ``encoder`` (tests)."""
        return set(self._cache.get(encoder, {}))
