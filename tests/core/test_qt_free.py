"""The one hard rule: tokviz/core never imports Qt or pyqtgraph, directly or through imports."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import tokviz

CORE = pathlib.Path(tokviz.__file__).parent / "core"
FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "PyQt5", "PyQt6")


def test_no_qt_import_statement_under_core():
    offenders = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(CORE)}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_core_and_cli_loads_no_qt():
    # Import every core module plus the CLI, in a fresh interpreter, and check sys.modules.
    code = (
        "import pkgutil, importlib, sys, tokviz.core, tokviz.cli\n"
        "for m in pkgutil.walk_packages(tokviz.core.__path__, 'tokviz.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "tokviz.cli.build_parser()\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8")
    assert proc.returncode == 0, proc.stdout + proc.stderr
