"""Keep None, True and False alive under PySide6 6.12 on Python 3.11.

PySide6/shiboken6 6.12.0 returns ``None`` from every void method (``QPainter.drawLine``,
``QWidget.update``, ``QTimer.setInterval``...) and ``True`` from ``Signal.emit`` without taking a
reference. On Python >= 3.12 these objects are immortal (PEP 683) and nothing happens; on 3.11 each
call drops one reference, and after a few thousand calls (one pyqtgraph redraw makes hundreds) the
interpreter aborts with ``Fatal Python error: none_dealloc`` (or ``bool_dealloc``).

Measured here: 100 ``QPainter.setPen`` calls lower ``sys.getrefcount(None)`` by exactly 100.
The repair gives the three singletons a reference count so large that no session can exhaust it,
which is what Python 3.12 does for every interpreter.
"""

from __future__ import annotations

import ctypes
import sys

_MARGIN = 1 << 40  # ~10^12 leaked calls before anything could happen


def protect_singletons() -> bool:
    """Raise the reference counts of None/True/False on affected interpreters; True when applied."""
    # Applied whatever the PySide6 version: importing PySide6 to ask cost every process that imports
    # tokviz.ui ~180 ms (the Vocabulary panel's worker process among them, which never uses Qt), and
    # a count no session can exhaust harms nothing, as on Python 3.12.
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    for obj in (None, True, False):
        refcnt = ctypes.c_ssize_t.from_address(id(obj))  # ob_refcnt is PyObject's first field
        if refcnt.value < _MARGIN:
            refcnt.value += _MARGIN
    return True


protect_singletons()
