"""The Compare panel's truth as plain Python (no Qt): the text, the encoders listed (in order), special
tokens, which request is the latest and what the rows show, whether the rows wait for the tab to be
shown, the demo BPE trained on first use, the Train panel's model followed, a cross-check of one model's
readers, and what is remembered between sessions.

Widgets send intents (:meth:`CompareState.add`, :meth:`CompareState.move` …) and render what the model
says; the model validates each intent and tells its observers what changed. Each encoding of the rows is
asked for with a new generation: rows that come back for an older one are stale and dropped.

>>> state = CompareState(placeholder="(Train panel)")
>>> state.set_encoders(["gpt2", "cl100k_base", "gpt2"])  # listed once each
>>> state.encoders
['gpt2', 'cl100k_base']
>>> old = state.next_rows()
>>> state.remove("gpt2")
True
>>> state.show_rows(old, ["gpt2's row", "cl100k_base's row"], "text")  # asked before the removal: dropped
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from tokviz.ui.common.emitter import Emitter


@dataclass
class CrossCheck:
    """One model's readers as rows, and whether they agree on the text (see :mod:`tokviz.core.crosscheck`)."""

    model: str
    readers: tuple[str, ...] = ()  # the rows added for it (registry names), once they are open
    verdict: object = None  # the core Report for ``checked_text``, or an error sentence (str)
    checked_text: str | None = None
    pending: bool = True  # the readers are being opened, or the text being checked

    def stale(self, text: str) -> bool:
        return self.checked_text != text


@dataclass
class Rows:
    """What the rows show: one outcome per encoder (the core's EncoderOutcome), for ``text``."""

    generation: int
    outcomes: list = field(default_factory=list)
    text: str = ""


class CompareState:
    """All the Compare panel's row state; see the module docstring."""

    def __init__(self, placeholder: str) -> None:
        self.events = Emitter()
        self.placeholder = placeholder  # the Train panel's row while it has no model (reset)
        self.text = ""
        self.encoders: list[str] = []
        self.allow_special = False
        self.generation = 0
        self.rows: Rows | None = None
        self.waiting_to_show = False  # a hidden tab does no work: the rows are asked for when it shows
        self.demo_bpe_pending = False
        self.demo_bpe_failed: str | None = None
        self.known: set[str] = set()  # the registry's names last seen
        self.trained_name: str | None = None
        self.crosscheck: CrossCheck | None = None
        self.opened: dict[str, str] = {}  # encoder name -> the model file or folder it was opened from
        self.corpus_path: str | None = None  # the Corpus tab's own file (one text per line)
        self.corpus_totals: list = []  # the core's CorpusTotals shown in the Corpus tab
        self.corpus_running = False
        self.closed = False

    # ---------------------------------------------------------------- the encoders listed
    def set_encoders(self, names: Iterable[str]) -> None:
        names = list(dict.fromkeys(names))
        if names != self.encoders:
            self.encoders = names
            self._encoders_changed()

    def add(self, name: str | None) -> bool:
        if not name or name in self.encoders:
            return False
        self.encoders.append(name)
        self._encoders_changed()
        return True

    def insert_after(self, anchor: str, names: Sequence[str]) -> None:
        """List ``names`` right after ``anchor`` (moving those already listed there)."""
        rest = [n for n in self.encoders if n not in names]
        at = rest.index(anchor) + 1 if anchor in rest else len(rest)
        self.set_encoders(rest[:at] + list(names) + rest[at:])

    def remove(self, name: str) -> bool:
        if name not in self.encoders:
            return False
        self.encoders.remove(name)
        self._encoders_changed()
        return True

    def move(self, name: str, delta: int) -> int | None:
        """Move ``name`` ``delta`` places (clamped); its new index, or None when it is not listed."""
        if name not in self.encoders:
            return None
        i = self.encoders.index(name)
        j = max(0, min(len(self.encoders) - 1, i + delta))
        if i != j:
            self.encoders.insert(j, self.encoders.pop(i))
            self._encoders_changed()
        return j

    def rename(self, old: str, new: str) -> bool:
        """Show ``new`` where ``old`` was (the Train panel's model at another step), keeping its place;
        when ``new`` is listed already, ``old`` goes (one row twice would be one row)."""
        if old not in self.encoders:
            return False
        i = self.encoders.index(old)
        if new in self.encoders:
            del self.encoders[i]
        else:
            self.encoders[i] = new
        # the same model under its new name: rows on their way still show it (a Train panel stepping
        # faster than the rows encode would otherwise never see them)
        self._encoders_changed(rows_stale=False)
        return True

    def _encoders_changed(self, rows_stale: bool = True) -> None:
        if rows_stale:
            self.generation += 1  # rows asked for before the user's edit are not shown
        check = self.crosscheck
        if check is not None and (check.model not in self.encoders or not set(check.readers) <= set(self.encoders)):
            self.end_crosscheck()  # its model or one of its readers was taken off the list
        self.events.emit("encoders", list(self.encoders))

    def model_opened(self, name: str, path: str) -> None:
        """Encoder ``name`` was opened from ``path`` (a cross-check reads that file or folder again)."""
        self.opened[name] = str(path)

    def trained_model_changed(self, name: str | None) -> bool:
        """The Train panel offers model ``name`` (None: reset). Its row says so instead of "no such
        encoder", and takes the next model's name. True when the list changed."""
        previous, self.trained_name = self.trained_name, name
        if name is None and previous is not None:
            return self.rename(previous, self.placeholder)
        if name is not None:
            return self.rename(self.placeholder, name)
        return False

    def registry_changed(self, names: Iterable[str], leave_out: Iterable[str] = ()) -> list[str]:
        """The registry lists ``names`` now. A model opened meanwhile joins the comparison (those in
        ``leave_out`` do not: the Train panel's model of the moment, the demo BPE). Returns the added."""
        names = set(names)
        new = sorted(names - self.known - set(leave_out))
        self.known = names
        return [n for n in new if self.add(n)]

    # ---------------------------------------------------------------- the text and its rows
    def set_text(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.events.emit("text", text)

    def set_allow_special(self, on: bool) -> None:
        if bool(on) != self.allow_special:
            self.allow_special = bool(on)
            self.generation += 1  # rows on their way read special tokens the other way
            self.events.emit("allow_special", self.allow_special)

    def next_rows(self, visible: bool = True) -> int | None:
        """A new generation for the rows of the current text and encoders; None when nothing is to be
        asked now (shut down, or the tab is hidden: then the rows are asked for when it shows)."""
        if self.closed:
            return None
        if not visible:
            self.waiting_to_show = True
            return None
        self.waiting_to_show = False
        self.generation += 1
        return self.generation

    def shown(self) -> bool:
        """The tab was shown: True when it must ask for its rows (it waited while hidden)."""
        waited, self.waiting_to_show = self.waiting_to_show, False
        return waited

    def is_latest(self, generation: int) -> bool:
        return generation == self.generation and not self.closed

    def show_rows(self, generation: int, outcomes: Sequence, text: str) -> bool:
        """The rows for ``generation``: kept when it is the latest (True), dropped when the text or the
        encoders changed since they were asked for (False)."""
        if not self.is_latest(generation):
            return False
        self.rows = Rows(generation, [o for o in outcomes if o is not None], text)
        self.events.emit("rows", self.rows)
        return True

    @property
    def outcomes(self) -> list:
        return self.rows.outcomes if self.rows is not None else []

    @property
    def last_full_text(self) -> str | None:
        """The text the rows last showed in full (None before the first rows)."""
        return self.rows.text if self.rows is not None else None

    # ---------------------------------------------------------------- the demo BPE (trained on first use)
    def demo_bpe_wanted(self, listed: bool, registered: bool) -> bool:
        """Whether to start training the demo BPE now: listed, not there yet, not training, not failed."""
        if not listed or registered or self.demo_bpe_pending or self.demo_bpe_failed:
            return False
        self.demo_bpe_pending = True
        return True

    def demo_bpe_done(self, failure: str | None = None) -> None:
        self.demo_bpe_pending = False
        self.demo_bpe_failed = failure

    # ---------------------------------------------------------------- cross-check of one model's readers
    def start_crosscheck(self, model: str | None) -> str | None:
        """Cross-check ``model`` (a listed encoder): None when started, else why not."""
        if not model or model not in self.encoders:
            return "Select an encoder in the list to cross-check its model."
        self.crosscheck = CrossCheck(model)
        self.events.emit("crosscheck", self.crosscheck)
        return None

    def crosscheck_ready(self, model: str, readers: Sequence[str]) -> bool:
        """The readers of ``model`` are open (registered under ``readers``): listed right after it."""
        check = self.crosscheck
        if check is None or check.model != model:
            return False  # ended or replaced meanwhile
        check.readers = tuple(readers)
        self.insert_after(model, readers)
        return self.crosscheck is check

    def crosscheck_result(self, model: str, text: str, verdict: object) -> bool:
        """The verdict (a core Report, or an error sentence) for ``text``; dropped when stale."""
        check = self.crosscheck
        if check is None or check.model != model or text != self.text:
            return False
        check.verdict, check.checked_text, check.pending = verdict, text, False
        self.events.emit("crosscheck", check)
        return True

    def crosscheck_failed(self, model: str, message: str, text: str | None = None) -> None:
        """Opening the readers (``text`` None) or checking ``text`` failed: the message is the verdict."""
        check = self.crosscheck
        if check is not None and check.model == model:
            check.verdict, check.checked_text, check.pending = message, text, False
            self.events.emit("crosscheck", check)

    def crosscheck_wanted(self) -> bool:
        """The readers are listed and their verdict is for another text: check again."""
        check = self.crosscheck
        return check is not None and bool(check.readers) and check.stale(self.text)

    def crosscheck_checking(self) -> None:
        """The text is being checked: the verdict on screen is on its way out."""
        if self.crosscheck is not None:
            self.crosscheck.pending = True
            self.events.emit("crosscheck", self.crosscheck)

    def end_crosscheck(self) -> None:
        if self.crosscheck is not None:
            self.crosscheck = None
            self.events.emit("crosscheck", None)

    # ---------------------------------------------------------------- the Corpus tab
    def choose_corpus_file(self, path: str) -> None:
        self.corpus_path = path
        self.events.emit("corpus_path", path)

    def start_corpus(self) -> bool:
        """A corpus run may start (True), or one runs already (False: the button does nothing)."""
        if self.corpus_running or self.closed:
            return False
        self.corpus_running = True
        return True

    def show_corpus(self, totals: Sequence, *, ended: bool = False) -> None:
        """The totals so far (``ended``: the run is over, finished or cancelled)."""
        self.corpus_totals = list(totals)
        if ended:
            self.corpus_running = False
        self.events.emit("corpus", self.corpus_totals)

    def corpus_failed(self) -> None:
        self.corpus_running = False

    def close(self) -> None:
        self.closed = True

    # ---------------------------------------------------------------- remembered between sessions
    def remembered(self) -> list[str]:
        """The encoder list the next start restores (the Train panel's placeholder row is not kept)."""
        return [n for n in self.encoders if n != self.placeholder]

    def restore(self, saved: Sequence[str], available: Callable[[str], bool], defaults: Sequence[str]) -> list[str]:
        """The list :meth:`remembered` gave, without names no longer available (an opened file that moved,
        a trained model); the available ``defaults`` when none is left. Returns the list restored."""
        names = [n for n in dict.fromkeys(saved) if available(n)]
        self.set_encoders(names or [n for n in defaults if available(n)])
        return list(self.encoders)
