"""tokviz's Qt-free core: encodings, encoders, BPE, Unicode layers, metrics.

Nothing under this package may import PySide6, shiboken6 or pyqtgraph (tests/core/test_qt_free.py).
"""
