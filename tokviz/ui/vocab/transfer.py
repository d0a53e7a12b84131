"""Results sent from the vocabulary process to the GUI process in slices that unpickle in short calls.

Unpickling is one C call that holds the GIL for as long as it runs: the diff of o200k and cl100k
(~10 MB, a million objects) took 67 ms, the number map (10,000 rows) 54 ms, and the GUI thread waited
that long. :func:`packed` replaces every long list or tuple in a result by a :class:`Sliced` whose
pickle is a list of small pickles (about :data:`SLICE_BYTES` each); unpickling joins them in a Python
loop, so the interpreter can hand the GIL to the GUI thread between two slices. The result unpickles
to the same values and types as the original.

>>> import pickle
>>> data = pickle.dumps(packed({"rows": list(range(50_000)), "name": "x"}))
>>> pickle.loads(data) == {"rows": list(range(50_000)), "name": "x"}
True
"""

from __future__ import annotations

import dataclasses
import pickle

LONG = 2048  # lists and tuples with more items than this are sent in slices
SLICE_BYTES = 32 << 10  # about this many pickled bytes per slice (~0.5-3 ms to unpickle)
PROTOCOL = pickle.HIGHEST_PROTOCOL


class Sliced:
    """A long list or tuple that pickles as small pickles of its consecutive slices."""

    def __init__(self, items: list | tuple):
        self.items = items

    def __reduce__(self):
        items = self.items
        probe = min(len(items), 256)
        size = max(1, len(pickle.dumps(items[:probe], PROTOCOL)) // probe)  # bytes per item, about
        step = max(1, SLICE_BYTES // size)
        slices = [pickle.dumps(items[k : k + step], PROTOCOL) for k in range(0, len(items), step)]
        return _joined, (type(items) is tuple, slices)


def _joined(as_tuple: bool, slices: list[bytes]) -> list | tuple:
    """The items of ``slices`` again, one short ``pickle.loads`` per loop turn (see the module docstring)."""
    out: list = []
    for data in slices:
        out.extend(pickle.loads(data))
    return tuple(out) if as_tuple else out


def packed(value, _seen: dict | None = None):
    """``value`` with its long lists and tuples wrapped in :class:`Sliced` (containers, dataclasses and
    plain objects are walked; a list reached twice is wrapped once, so it arrives as one list)."""
    seen = {} if _seen is None else _seen
    key = id(value)
    if key in seen:
        return seen[key]
    kind = type(value)
    if kind in (list, tuple) and len(value) > LONG:
        out = Sliced(value)
    elif kind in (list, tuple):
        items = [packed(v, seen) for v in value]
        out = value if all(a is b for a, b in zip(items, value, strict=True)) else kind(items)
    elif kind is dict:
        items = {k: packed(v, seen) for k, v in value.items()}
        out = value if all(items[k] is v for k, v in value.items()) else items
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        changed = {f.name: packed(getattr(value, f.name), seen) for f in dataclasses.fields(value)}
        same = all(changed[f.name] is getattr(value, f.name) for f in dataclasses.fields(value))
        out = value if same else _replaced(value, changed)
    else:
        out = value
    seen[key] = out
    return out


def _replaced(value, fields: dict):
    """A copy of dataclass ``value`` with ``fields`` set, made without running its ``__init__`` (a
    frozen dataclass's checks would see a Sliced where a list belongs)."""
    copy = object.__new__(type(value))
    copy.__dict__.update(value.__dict__)
    copy.__dict__.update(fields)
    return copy
