"""ruff over the code, with the rules in pyproject.toml's [tool.ruff]: the code base stays clean.

A finding fails the suite like any other test. Fix it, or when a line truly cannot follow a rule
(a doctest's expected output, an import that must come after a skip), mark that line with
``# noqa: CODE`` and the reason.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "tokviz", "tests", "benchmarks"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def test_test_modules_share_helpers_only_through_tests_support():
    """A test module imports shared helpers from tests/support, never from another test folder or a
    conftest (pytest imports a conftest itself; importing it again makes a second copy of its state)."""
    import ast

    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                bad = module.startswith("tests.") and not module.startswith("tests.support")
                if bad or "conftest" in module:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {module}")
    assert offenders == []
