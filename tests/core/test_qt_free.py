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


def test_core_and_the_commands_that_need_no_window_load_no_qt():
    """In a fresh interpreter: every core module, the CLI's parser, then the commands that never need
    a window — encode (a model file and a named encoder), compare, parity and sweep — and still no
    Qt in sys.modules. One interpreter for all of them (one per command cost ~1 s each)."""
    from tests.support.packages import package_file
    from tokviz import resources_dir

    sp_model = package_file("mistral_common", "data", "tokenizer.model.v1")
    corpus = resources_dir() / "corpora" / "demo.txt"
    code = (
        "import pkgutil, importlib, sys, tokviz.core, tokviz.cli\n"
        "for m in pkgutil.walk_packages(tokviz.core.__path__, 'tokviz.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "tokviz.cli.build_parser()\n"  # imports every command module (train's too)
        # the Vocabulary panel's worker process imports only this (and starts ~180 ms sooner without Qt)
        "import tokviz.ui.vocab.process\n"
        # so does the Train panel's corpus reader for a big corpus
        "import tokviz.ui.train.corpus_facts\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "assert not bad, ('importing core and the CLI', bad)\n"
        "from tokviz.cli import main\n"
        f"assert main(['encode', '--model', {str(sp_model)!r}, '--json', '안녕']) == 0\n"
        "assert main(['encode', '-e', 'gpt2', 'hi']) == 0\n"
        "main(['compare', '--json', '-e', 'gpt2', 'hi'])\n"
        "main(['parity', '--json', '-e', 'gpt2'])\n"
        f"main(['sweep', {str(corpus)!r}, '--heldout', {str(corpus)!r}, '--merges', '5', '-e', 'gpt2', '-q'])\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "assert not bad, ('encode, compare, parity, sweep', bad)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8", cwd=CORE.parents[1], timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
