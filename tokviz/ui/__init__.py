"""tokviz's PySide6 + pyqtgraph interface: one module per panel, small reusable widgets."""

# Before any widget exists: PySide6 6.12 on Python 3.11 leaks references to None/True/False.
from tokviz.ui import pyside_refcount as _pyside_refcount  # noqa: E402,F401
