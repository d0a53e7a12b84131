"""tokviz's PySide6 + pyqtgraph interface: one module per panel, small reusable widgets."""
