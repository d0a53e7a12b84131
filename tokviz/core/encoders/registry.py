"""A registry that lists every encoder as available or unavailable, with the reason.

Entries are cheap to list: availability is probed (files found and their hashes checked, once per
file per run) and the encoder itself is built on first use and cached. The registry knows no family:
tokviz.core.encoders.builtin fills the default one from the families' ``entries()``.

>>> reg = Registry()
>>> reg.register(EncoderEntry("none", "tiktoken", lambda: (False, "no data"), lambda: None))
>>> [(s.name, s.available, s.reason) for s in reg.statuses()]
[('none', False, 'no data')]
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from tokviz.core.encoders.base import Encoder, EncoderEntry
from tokviz.core.encoders.sources import said
from tokviz.core.errors import EncoderUnavailable, TokvizError


@dataclass(frozen=True)
class EncoderStatus:
    name: str
    family: str
    available: bool
    reason: str  # why unavailable, or where the data comes from when available
    vocab_size: int | None

    def as_json(self) -> dict:
        return {
            "name": self.name,
            "family": self.family,
            "available": self.available,
            "reason": self.reason,
            "vocab_size": self.vocab_size,
        }


class Registry:
    """Named encoders: built-in families plus models added at run time (trained, opened)."""

    def __init__(self, entries: Iterable[EncoderEntry] = ()) -> None:
        self._entries: dict[str, EncoderEntry] = {e.name: e for e in entries}
        self._loaded: dict[str, Encoder] = {}
        self._added: set[str] = set()  # names of encoders added ready (see added)
        self._lock = threading.Lock()  # encoders are loaded from worker threads too

    def register(self, entry: EncoderEntry) -> None:
        with self._lock:
            self._entries[entry.name] = entry
            self._loaded.pop(entry.name, None)
            self._added.discard(entry.name)

    def add(self, encoder: Encoder) -> None:
        """Add (or replace) a ready encoder, e.g. a model trained in the app or opened from a file."""
        with self._lock:
            self._entries[encoder.name] = EncoderEntry(
                encoder.name, encoder.family, lambda: (True, encoder.source), lambda: encoder,
                encoder.vocab_size,
            )
            self._loaded[encoder.name] = encoder
            self._added.add(encoder.name)

    def added(self, name: str) -> bool:
        """True when ``name`` is an encoder added ready (:meth:`add`: trained, opened from a file), which
        only this process holds; False for an entry its family loads from data (another process can too)."""
        with self._lock:
            return name in self._added

    def remove(self, name: str) -> None:
        with self._lock:
            self._entries.pop(name, None)
            self._loaded.pop(name, None)
            self._added.discard(name)

    def entries(self) -> dict[str, EncoderEntry]:
        """The registered entries by name (a copy: what a caller changes in it is not registered)."""
        with self._lock:
            return dict(self._entries)

    def names(self) -> list[str]:
        return list(self._entries)

    def __contains__(self, name: str) -> bool:
        return name in self._entries

    def statuses(self) -> list[EncoderStatus]:
        out = []
        for e in list(self._entries.values()):
            try:
                ok, reason = e.probe()
            except Exception as err:  # a probe must never break listing
                ok, reason = False, said("probe failed: {error}", error=err)
            vocab = e.vocab_size
            if e.name in self._loaded:
                vocab = self._loaded[e.name].vocab_size
            out.append(EncoderStatus(e.name, e.family, ok, reason, vocab))
        return out

    def resolve(self, name: str) -> str:
        """The registered name ``name`` means: itself, the same name in another case, or the one entry
        whose name it is before a parenthesis (``llama-3.2`` for ``llama-3.2 (tokenizer.json)``).

        Raises EncoderUnavailable for any other name, suggesting the nearest ones.

        >>> reg = Registry([EncoderEntry("llama-3.2 (tokenizer.json)", "tokenizer.json", lambda: (True, ""), None)])
        >>> reg.resolve("Llama-3.2")
        'llama-3.2 (tokenizer.json)'
        >>> reg.resolve("llama-32")
        Traceback (most recent call last):
        ...
        tokviz.core.errors.EncoderUnavailable: Encoder 'llama-32' is unavailable: no such encoder; did you mean llama-3.2? (known: llama-3.2 (tokenizer.json))
        """  # noqa: E501 (a doctest's expected output line cannot be wrapped)
        with self._lock:
            names = list(self._entries)
        if name in names:
            return name
        short: dict[str, list[str]] = {}  # a spelling, lowercased -> the names it answers for
        spelled: dict[str, str] = {}  # a spelling, lowercased -> as the registry writes it
        for full in names:
            for alias in dict.fromkeys((full, full.split(" (", 1)[0].strip())):
                short.setdefault(alias.lower(), []).append(full)
                spelled.setdefault(alias.lower(), alias)
        found = short.get(name.strip().lower(), [])
        if len(found) == 1:
            return found[0]
        if found:
            raise EncoderUnavailable(name, f"ambiguous: it could be {' or '.join(found)}")
        near = difflib.get_close_matches(name.strip().lower(), list(short), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(spelled[n] for n in near)}?" if near else ""
        known = ", ".join(names) or "none"
        raise EncoderUnavailable(name, f"no such encoder{hint} (known: {known})")

    def get(self, name: str) -> Encoder:
        """The encoder called ``name`` (or a spelling :meth:`resolve` accepts), loading it on first use.

        Raises EncoderUnavailable (with the reason) if it is unknown or its data is missing/corrupt.
        """
        with self._lock:
            if name in self._loaded:
                return self._loaded[name]
        name = self.resolve(name)
        with self._lock:
            if name in self._loaded:
                return self._loaded[name]
            entry = self._entries[name]
        ok, reason = entry.probe()
        if not ok:
            raise EncoderUnavailable(name, reason)
        try:
            enc = entry.load()
        except TokvizError as err:
            raise EncoderUnavailable(name, str(err)) from err
        with self._lock:
            self._loaded[name] = enc
        return enc
