"""Letting go of a big Inspector result a slice at a time on the GUI thread (see SlicedRelease)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

if TYPE_CHECKING:
    from tokviz.ui.inspect.jobs import EncodeResult

class _Moving:
    """A tuple being emptied: it cannot shrink, so its items move to a list a slice at a time."""

    __slots__ = ("tup", "items")

    def __init__(self, tup: tuple):
        self.tup = tup
        self.items: list = []

    def __len__(self) -> int:
        return len(self.tup)


class SlicedRelease(QObject):
    """Lets go of big results a slice at a time on the GUI thread, from a zero timer.

    Freeing a 5 MB text's result at once (1.4 million tokens, the Encoding's two lookup tables,
    150,000 cells) takes ~165 ms, all of it holding the GIL: on the GUI thread that is a stall,
    and in a pool thread it is the same stall, since deallocation runs in C without giving up the
    GIL. Here each step frees at most SLICE objects, and the event loop runs between steps. Only
    objects nobody else refers to are taken apart (their reference counts say so); a result or
    Encoding still held elsewhere is simply let go, and is not freed now anyway. QColors and
    QFonts are freed on the GUI thread, where they were used.
    """

    SLICE = 20_000

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._inbox: list[EncodeResult] = []  # results to take apart at the next step
        self._work: list = []  # lists and dicts to empty, tuples (as _Moving) to turn into lists first
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.step)

    def drop(self, result: EncodeResult) -> None:
        """Free ``result`` in steps, once its caller (and the views) have let go of it."""
        self._inbox.append(result)
        if not self._timer.isActive():
            self._timer.start()

    def _take_apart(self) -> None:
        result = self._inbox.pop()
        # references: ``result`` and getrefcount's argument. More: someone still holds it.
        if sys.getrefcount(result) > 2:
            return
        enc, result.encoding = result.encoding, None
        parts = [result.cells, result.colors, result.marks]
        result.cells = result.colors = result.marks = []
        if result.layout is not None:
            parts.append(result.layout.token_cell)  # its positions are flat arrays: free at once
            result.layout = None
        del result
        if enc is not None and sys.getrefcount(enc) <= 2:
            for name in ("_starts", "_byte_ends"):  # cached lookup tables, rebuilt on demand
                table = vars(enc).pop(name, None)
                if table is not None:
                    parts.append(table)
            parts.append(enc.tokens)
            object.__setattr__(enc, "tokens", ())  # a frozen dataclass, but this one is ours alone
        del enc
        for part in parts:
            # emptied in place only if nothing else refers to it (``parts``, ``part``, the argument)
            if len(part) > 0 and sys.getrefcount(part) <= 3:
                self._work.append(_Moving(part) if isinstance(part, tuple) else part)

    def pending(self) -> int:
        """Objects still waiting to be freed (a result not yet taken apart counts one)."""
        return len(self._inbox) + sum(len(p) for p in self._work)

    def step(self) -> None:
        """Free up to SLICE objects."""
        if self._inbox:
            self._take_apart()
            return
        budget = self.SLICE
        while self._work and budget > 0:
            part = self._work[-1]
            if isinstance(part, _Moving):
                # copying pointers is several times cheaper than freeing what they point to
                done = len(part.items)
                n = min(4 * budget, len(part.tup) - done)
                part.items.extend(part.tup[done:done + n])
                budget -= max(1, n // 4)
                if len(part.items) == len(part.tup):
                    # the tuple goes: one pass over its pointers (~10 ms for 2 million), nothing freed
                    self._work[-1] = part.items
                    del part
                continue
            n = min(budget, len(part))
            if isinstance(part, dict):
                pop = part.popitem
                for _ in range(n):
                    pop()
            else:
                del part[len(part) - n:]
            budget -= n
            if not part:
                self._work.pop()
        if not self._work and not self._inbox:
            self._timer.stop()
