"""Dependencies run one way (issue 24): no import circle, no arrow from a lower layer up. And the shape
the code keeps (at the end: it reads the same parsed files): no function over 100 lines, UI tests that
reach few private attributes.

Every module under tokviz/ is parsed with ``ast``; an arrow is any import in it — at module level,
inside a function or class, under ``if TYPE_CHECKING``, a relative ``from . import x``, or an
``importlib.import_module`` of a string literal (an f-string with a literal prefix points at every
module under that prefix). An import inside a function that exists for start-up speed is fine as
long as it points down; hiding a circle inside a function is not, so those count like any other.

``from package import name`` points at the package's ``__init__`` unless ``name`` is a submodule.
Importing ``a.b.c`` from outside package ``a.b`` also points at ``a.b``'s ``__init__``, since Python
runs it first: a package ``__init__`` that re-exports from above its package makes every import of
one of its modules a circle. A package's ``__init__`` is a module like the others, with its own layer.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tokviz"

# Layers, lowest first. A module may import modules of its own layer or below, never above.
LAYERS = [
    "core-basics",     # errors, atomic writes, sentences, the Encoding columns, Unicode layers, display
    "core-formats",    # tokviz's own BPE/WordPiece/Unigram and their files, the Encoder protocol, reading model
                       # files and rank files safely: what every family parses and words through
    "core-families",   # one module per encoder family (tiktoken, rank files, SentencePiece, tokenizer.json, GGUF)
    "core-catalogue",  # the registry and builtin: the only modules that list the families
    "core-services",   # what runs on encoders and trainers: comparison, vocabularies, boundaries, parity, sweeps
    "ui-parts",        # PySide6 pieces every panel shares: common/, fonts, theme, settings, session, lattice view
    "ui-panels",       # one package per panel: inspect/, train/, compare/, boundaries/
    "ui-window",       # the main window and the application that holds the panels
    "commands",        # one module per CLI subcommand (only `screenshot` reaches into the ui: it renders it)
    "entry",           # the command line and ``python -m tokviz``
]

# module or package -> layer; the longest matching name wins, so a package's entry is the default for
# its modules. A package's own __init__ is matched as ``package.__init__`` first.
LAYER_OF = {
    "tokviz": "entry",  # the library face (tokviz.encode, ...): only the root module itself (others match more)
    "tokviz.api": "core-services",  # tokviz.encode / open_model / encoders over the catalogue
    "tokviz.core": "core-basics",
    "tokviz.core.bpe": "core-formats",
    "tokviz.core.wordpiece": "core-formats",
    "tokviz.core.unigram": "core-formats",
    "tokviz.core.word_counts": "core-formats",
    "tokviz.core.training": "core-formats",  # make_trainer and the training process: over the trainers
    "tokviz.core.training.__init__": "core-basics",  # the event types every trainer family imports
    "tokviz.core.training.events": "core-basics",
    "tokviz.core.bpe_candidates": "core-formats",
    "tokviz.core.hf_export": "core-formats",
    "tokviz.core.encoders": "core-families",
    "tokviz.core.encoders.__init__": "core-formats",  # the package itself re-exports base only
    "tokviz.core.encoders.base": "core-formats",
    "tokviz.core.encoders.files": "core-formats",
    "tokviz.core.encoders.sources": "core-formats",
    "tokviz.core.encoders.native": "core-formats",
    "tokviz.core.encoders.rank_encoder": "core-formats",
    "tokviz.core.encoders.registry": "core-catalogue",
    "tokviz.core.encoders.builtin": "core-catalogue",
    "tokviz.core.chat": "core-services",  # asks an encoder for its chat template (HasChatTemplate)
    "tokviz.core.dropout": "core-services",  # asks an encoder for SupportsDropout
    "tokviz.core.compare": "core-services",
    "tokviz.core.vocab": "core-services",
    "tokviz.core.boundaries": "core-services",
    "tokviz.core.parity": "core-services",
    "tokviz.core.sweep": "core-services",
    "tokviz.core.merge_disagreement": "core-services",
    "tokviz.core.merge_criteria": "core-services",
    "tokviz.core.step_text": "core-services",
    "tokviz.core.crosscheck": "core-services",  # runs one model's files through every implementation
    "tokviz.ui": "ui-parts",
    "tokviz.ui.inspect": "ui-panels",
    "tokviz.ui.train": "ui-panels",
    "tokviz.ui.compare": "ui-panels",
    "tokviz.ui.boundaries": "ui-panels",
    "tokviz.ui.vocab": "ui-panels",
    "tokviz.ui.main_window": "ui-window",
    "tokviz.ui.app": "ui-window",
    "tokviz.ui.compare.screenshots": "ui-window",  # a script that builds the whole window
    "tokviz.commands": "commands",
    "tokviz.cli": "entry",
    "tokviz.__main__": "entry",
    "tokviz.display_check": "entry",
}

# The one command that needs Qt; every other one must run where PySide6 is missing.
GUI_COMMANDS = {"tokviz.commands.screenshot"}

# Circles through files another change is rewriting right now; to be removed next. The test fails
# when one of them is gone (take it out of this set) as well as when any other circle appears.
KNOWN_CYCLES: set[frozenset[str]] = set()


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve_relative(importer: str, is_package: bool, level: int, module: str | None) -> str:
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The tokviz module that ``name`` (a dotted import target) loads, or None outside tokviz."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _dynamic_targets(node: ast.Call, modules: dict[str, Path]) -> list[str]:
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if called != "import_module" or not node.args:
        return []
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        prefix = str(arg.values[0].value)
        return [m for m in modules if m.startswith(prefix)]
    return []


@cache
def parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> dict[str, int]:
    """The tokviz modules ``name`` imports, each with the first line that does."""
    tree = parsed(path)
    is_package = path.name == "__init__.py"
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = _resolve_relative(name, is_package, node.level, node.module)
            # ``from pkg import sub`` loads pkg.sub; ``from pkg import value`` loads pkg itself
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        elif isinstance(node, ast.Call):
            targets = _dynamic_targets(node, modules)
        for target in targets:
            owner = _owner(target, modules)
            loaded = [owner] + _outer_packages(owner, name, modules) if owner else []
            for module in loaded:
                if module != name and module not in found:
                    found[module] = node.lineno
    return found


def _outer_packages(target: str, importer: str, modules: dict[str, Path]) -> list[str]:
    """The packages Python runs before ``target``: its parents' ``__init__`` files, except those of
    packages ``importer`` itself sits in (already running when ``importer`` is)."""
    parts = target.split(".")
    found = []
    for i in range(1, len(parts)):
        package = ".".join(parts[:i])
        if package in modules and not (importer + ".").startswith(package + "."):
            found.append(package)
    return found


def import_graph() -> dict[str, dict[str, int]]:
    modules = all_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, dict[str, int]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def describe_cycle(component: frozenset[str], graph: dict[str, dict[str, int]]) -> str:
    arrows = [f"    {a} -> {b} (line {graph[a][b]})" for a in sorted(component) for b in sorted(graph[a])
              if b in component]
    return f"  circle of {len(component)}: " + ", ".join(sorted(component)) + "\n" + "\n".join(arrows)


def layer_of(name: str, path: Path | None = None) -> str:
    """The declared layer of module ``name`` (a package is also matched as ``pkg.__init__``)."""
    keys = [f"{name}.__init__"] if path is not None and path.name == "__init__.py" else []
    keys.append(name)
    for key in keys:
        for candidate in sorted(LAYER_OF, key=len, reverse=True):
            if key == candidate or (candidate != "tokviz" and key.startswith(candidate + ".")):
                return LAYER_OF[candidate]
    raise KeyError(name)


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    return import_graph()


def test_no_import_circle_but_the_known_ones(graph):
    found = set(cycles(graph))
    new = [describe_cycle(c, graph) for c in found - KNOWN_CYCLES]
    gone = [", ".join(sorted(c)) for c in KNOWN_CYCLES - found]
    assert not new, "import circles (move the shared code down instead of importing inside a function):\n" + (
        "\n".join(new))
    assert not gone, "these known circles are gone: take them out of KNOWN_CYCLES:\n  " + "\n  ".join(gone)


def test_every_module_has_a_layer():
    missing = [name for name, path in all_modules().items() if not _has_layer(name, path)]
    assert missing == [], f"add these modules to LAYER_OF: {missing}"


def _has_layer(name: str, path: Path) -> bool:
    try:
        return layer_of(name, path) in LAYERS
    except KeyError:
        return False


def test_no_arrow_points_up_the_layers(graph):
    modules = all_modules()
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    up = []
    for importer, targets in sorted(graph.items()):
        here = layer_of(importer, modules[importer])
        for target, line in sorted(targets.items()):
            there = layer_of(target, modules[target])
            if rank[there] > rank[here]:
                up.append(f"  {importer} ({here}) -> {target} ({there}), line {line}")
    assert up == [], "imports from a lower layer up (move the code down, or pass in what it needs):\n" + (
        "\n".join(up))


def _arrows(graph, source_prefix: str, target_prefixes: tuple[str, ...]) -> list[str]:
    def under(name: str, prefix: str) -> bool:
        return (name + ".").startswith(prefix + ".")

    return [f"{a} -> {b} (line {line})" for a, targets in sorted(graph.items()) for b, line in sorted(targets.items())
            if under(a, source_prefix) and any(under(b, t) for t in target_prefixes)]


def test_ui_never_imports_the_commands(graph):
    assert _arrows(graph, "tokviz.ui", ("tokviz.commands", "tokviz.cli")) == []


def test_core_never_imports_ui_commands_or_cli(graph):
    assert _arrows(graph, "tokviz.core", ("tokviz.ui", "tokviz.commands", "tokviz.cli", "tokviz.__main__")) == []


def test_only_the_screenshot_command_imports_the_ui(graph):
    found = _arrows(graph, "tokviz.commands", ("tokviz.ui",))
    assert [a for a in found if a.split(" ")[0] not in GUI_COMMANDS] == []


def test_the_graph_sees_every_kind_of_import(tmp_path):
    """Imports hidden in functions, relative ones, importlib strings and the package __init__ Python
    runs first are all arrows; a circle made of them is found."""
    files = {
        "pkg/__init__.py": "from pkg.top import registry\n",
        "pkg/top.py": "def registry():\n    from .low import parse\n",
        "pkg/low.py": "import importlib\ndef parse():\n    importlib.import_module('other.helper')\n",
        "other/__init__.py": "",
        "other/helper.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import low\n",
        "other/side.py": "from . import helper\nfrom pkg.low import parse\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    modules = {module_name(p, tmp_path): p for p in sorted(tmp_path.rglob("*.py"))}
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert set(graph["pkg.top"]) == {"pkg.low"}  # inside the package: its __init__ already runs
    assert set(graph["other.helper"]) == {"pkg.low", "pkg"}  # pkg/__init__ runs before pkg.low
    assert set(graph["other.side"]) == {"other.helper", "pkg.low", "pkg"}
    assert cycles(graph) == [frozenset({"pkg", "pkg.top", "pkg.low", "other.helper"})]


if __name__ == "__main__":  # a quick look while untangling: python tests/test_import_graph.py
    g = import_graph()
    for c in sorted(cycles(g), key=len):
        print(describe_cycle(c, g))


# ---------------------------------------------------------------- the code's shape
# no function in tokviz/ over 100 lines (a reader holds one idea at a time); the UI tests check what a
# user sees, not the panels' private attributes (at most 15 distinct ones reached, each a deliberate seam)
MAX_FUNCTION_LINES = 100
MAX_PRIVATE_ATTRIBUTES = 15


def _trees(folder: Path):
    for path in sorted(folder.rglob("*.py")):
        yield path, parsed(path)


def _statements(body):
    """Every statement under ``body``, nested ones included (expressions skipped: a def is a statement)."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            yield from _statements(getattr(node, field, None) or [])


def long_functions(folder: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    found = []
    for path, tree in _trees(folder):
        for node in _statements(tree.body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(folder)}:{node.lineno} {node.name} ({lines} lines)")
    return found


def private_attributes(folder: Path) -> set[str]:
    """Names ``x._name`` reached in ``folder``'s code (dunders are the language's, not a panel's)."""
    return {
        node.attr
        for _, tree in _trees(folder)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
    }


def test_no_function_in_tokviz_is_over_100_lines():
    assert long_functions(ROOT / "tokviz") == []


def test_ui_tests_reach_few_private_attributes():
    reached = private_attributes(ROOT / "tests" / "ui")
    assert len(reached) <= MAX_PRIVATE_ATTRIBUTES, sorted(reached)


def test_the_checks_see_what_they_look_for(tmp_path):
    body = "\n".join(f"    x = {i}" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "m.py").write_text(
        f"def f():\n{body}\n\ndef g(p):\n    return p._state, p.__class__\n", encoding="utf-8"
    )
    assert long_functions(tmp_path) == ["m.py:1 f (101 lines)"]
    assert private_attributes(tmp_path) == {"_state"}
