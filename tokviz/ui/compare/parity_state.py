"""The Parity tab's truth as plain Python (no Qt): which parallel corpus, which encoders, which metric
the chart shows, and the run on screen.

Widgets send intents (:meth:`ParityState.choose_folder`, :meth:`ParityState.set_encoders`,
:meth:`ParityState.start` …) and render what the state says. Each run is stamped with a generation:
a result, progress or failure of any run but the latest is dropped, so a slow earlier run never
overwrites a newer one. The measuring itself is :func:`measure`, a plain function of a request, a
registry and a ``state`` (progress, cancel), which the tab runs on its work channel.

>>> state = ParityState()
>>> state.set_encoders([])
'Choose at least one encoder.'
>>> request = state.start()
>>> state.finish(request.generation - 1, None)  # an older run's result: dropped
False
"""

from __future__ import annotations

from dataclasses import dataclass

from tokviz.core.errors import TokvizError
from tokviz.core.parity import ParityResult, language_name, measure_parity, read_parallel_corpus
from tokviz.core.token_stats import rows_csv
from tokviz.ui.common.emitter import Emitter

DEFAULT_ENCODERS = ("gpt2", "cl100k_base", "o200k_base", "llama-3", "qwen")
# what the chart can show, as the keys of ParityResult.rows()
METRICS = (
    "premium",
    "tokens",
    "fertility",
    "chars_per_token",
    "bytes_per_token",
    "continued_share",
    "renyi_efficiency",
    "gini",
)
NO_ENCODERS = "Choose at least one encoder."


@dataclass(frozen=True)
class ParityRequest:
    """What one run measures."""

    generation: int
    folder: str | None  # None: tokviz's own parallel sentences
    encoders: tuple[str, ...]


class ParityState:
    """All the Parity tab's state; see the module docstring.

    ``status``: idle | running | done | cancelled | failed. Events: ``options`` (folder or encoders
    changed), ``metric``, ``run`` (a run started), ``progress`` ((done, total)), ``result``,
    ``failed`` (the message), ``refused`` (why an intent was not applied).
    """

    def __init__(self, encoders: tuple[str, ...] = DEFAULT_ENCODERS) -> None:
        self.events = Emitter()
        self.folder: str | None = None
        self.encoders: tuple[str, ...] = tuple(encoders)
        self.metric = "premium"
        self.status = "idle"
        self.result: ParityResult | None = None
        self.message: str | None = None
        self.progress: tuple[int, int] | None = None
        self.generation = 0

    # ---------------------------------------------------------------- intents
    def choose_folder(self, folder: str | None) -> None:
        """A folder of LANG.txt files (None: the shipped sentences); the next run measures it."""
        if folder != self.folder:
            self.folder = folder
            self.events.emit("options", self.folder)

    def set_encoders(self, names) -> str | None:
        """The encoders the next run measures, in order: None when applied, else why not."""
        names = tuple(dict.fromkeys(names))
        if not names:
            self.events.emit("refused", NO_ENCODERS)
            return NO_ENCODERS
        if names != self.encoders:
            self.encoders = names
            self.events.emit("options", self.encoders)
        return None

    def set_metric(self, metric: str) -> str | None:
        if metric not in METRICS:
            reason = f"unknown metric {metric!r}"
            self.events.emit("refused", reason)
            return reason
        if metric != self.metric:
            self.metric = metric
            self.events.emit("metric", metric)
        return None

    def start(self) -> ParityRequest:
        """A new run with the folder and encoders chosen; any earlier run's outcome is dropped."""
        self.generation += 1
        self.status = "running"
        self.message = None
        self.progress = None
        request = ParityRequest(self.generation, self.folder, self.encoders)
        self.events.emit("run", request)
        return request

    def cancel(self) -> bool:
        """Ask the running run to stop (its rows so far still arrive): True when one was running."""
        return self.status == "running"

    # ---------------------------------------------------------------- what the run reports
    def report(self, generation: int, done: int, total: int) -> bool:
        if generation != self.generation or self.status != "running":
            return False
        self.progress = (done, total)
        self.events.emit("progress", self.progress)
        return True

    def finish(self, generation: int, result: ParityResult | None) -> bool:
        """The run's result (False: not the latest run's, dropped)."""
        if generation != self.generation or self.status != "running":
            return False
        self.result = result
        self.status = "cancelled" if result is not None and result.cancelled else "done"
        self.events.emit("result", result)
        return True

    def fail(self, generation: int, message: str) -> bool:
        if generation != self.generation or self.status != "running":
            return False
        self.status = "failed"
        self.message = message
        self.events.emit("failed", message)
        return True

    # ---------------------------------------------------------------- what views show
    def rows(self) -> list[dict]:
        """One dict per (encoder, language) of the result on screen (core's ``ParityResult.rows()``)."""
        return self.result.rows() if self.result is not None else []

    def chart(self) -> tuple[list[str], list[str], list[list[float]]]:
        """(language labels, encoders measured, ``values[e][l]`` of the chosen metric; 0 where none)."""
        result = self.result
        if result is None:
            return [], [], []
        rows = {(r["encoder"], r["language"]): r for r in result.rows()}
        names = [n for n in result.encoders if n not in result.errors]
        values = [[rows[(n, lang)].get(self.metric) or 0.0 for lang in result.languages] for n in names]
        return [language_name(lang) for lang in result.languages], names, values

    def errors(self) -> dict[str, str]:
        """Encoders that could not be measured, and why."""
        return dict(self.result.errors) if self.result is not None else {}

    def csv_text(self) -> str:
        return rows_csv(self.rows())


def measure(request: ParityRequest, registry, state) -> ParityResult:
    """Load the request's encoders from ``registry`` and measure the corpus (in a worker: loading
    o200k_base takes a second). An encoder that cannot be loaded gets an error entry; the others
    are measured. Raises TokvizError for a bad folder."""
    corpus = read_parallel_corpus(request.folder)
    loaded, errors, order = [], {}, []
    for name in request.encoders:
        if state.is_cancelled():
            break
        try:
            encoder = registry.get(name)
        except TokvizError as err:
            errors[name] = str(err)
            order.append(name)
        else:
            loaded.append(encoder)
            order.append(encoder.name)  # the name its numbers are filed under
    result = measure_parity(loaded, corpus, state, per_line=False)
    result.errors.update(errors)
    result.encoders = order  # as asked, the unloadable ones included
    if state.is_cancelled():
        result.cancelled = True
    return result
