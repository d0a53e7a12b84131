"""The README installs tokviz from its checkout, in the order a new machine needs, and says what the CLI says.

PyPI's ``tokviz`` is an unrelated project: a ``pip install`` of a registry name of ours would install it.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tokviz import cli

ROOT = Path(__file__).resolve().parent.parent
OUR_NAMES = {"tokviz", "tokviz-app"}


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


def code_blocks(markdown: str) -> list[str]:
    """Every fenced block's text, continuation lines joined."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", markdown, flags=re.MULTILINE | re.DOTALL)
    return [re.sub(r"\\\n\s*", " ", block) for block in blocks]


def pip_installs(markdown: str) -> list[str]:
    """Every ``pip install ...`` command of the text: in fenced blocks and in inline code, up to ``&&``."""
    prose = re.sub(r"^```.*?^```", "", markdown, flags=re.MULTILINE | re.DOTALL)
    pieces = code_blocks(markdown) + re.findall(r"`([^`\n]+)`", prose)
    found = []
    for piece in pieces:
        for m in re.finditer(r"pip install ([^\n&|;]*)", piece):
            found.append(m.group(1).strip())
    return found


def requirements(args: str) -> list[str]:
    words = shlex.split(args)
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-r", "-c", "--target", "-t", "--index-url", "-i"):
            skip = True
        elif word == "-e" or not word.startswith("-"):
            if word != "-e":
                out.append(word)
    return out


def registry_name(requirement: str) -> str | None:
    """The distribution a requirement asks a registry for (None for a path such as ``.`` or ``.[models]``)."""
    if requirement.startswith((".", "/", "file:")):
        return None
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_every_pip_install_installs_the_checkout_never_a_registry_name_of_ours():
    commands = pip_installs(readme())
    assert len(commands) >= 4, commands  # app, models, test, package at least
    for command in commands:
        reqs = requirements(command)
        assert reqs, command
        for req in reqs:
            assert registry_name(req) not in OUR_NAMES, f"`pip install {command}` installs PyPI's {req}"
    installs = [requirements(c) for c in commands]
    for wanted in (["."], [".[models]"], [".[test]"]):
        assert wanted in installs, wanted


def test_the_checker_would_have_caught_the_old_readme_line():
    old = 'with `pip install "tokviz[models]"`, the catalogue\n\n```sh\npython -m pip install tokviz-app\n```\n'
    names = [registry_name(r) for c in pip_installs(old) for r in requirements(c)]
    assert names == ["tokviz-app", "tokviz"]


def test_system_packages_come_before_the_install_and_run_line():
    text = readme()
    apt = text.index("sudo apt install")
    venv = text.index("python3 -m venv")
    run = text.index("python -m pip install . && tokviz")
    assert apt < venv < run


def test_readme_says_how_long_the_tests_take():
    setup = readme().split("## Tour")[0]
    assert re.search(r"about [\d,]+ tests, which take roughly .* minutes|half an hour", setup)


def test_encode_help_names_every_model_format_the_readme_lists(capsys):
    with pytest.raises(SystemExit):
        cli.main(["encode", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    text = readme()
    listed = text[text.index("`--model PATH` takes"):text.index("`-` reads stdin exactly")]
    for fmt in ("tokenizer.json", "model folder", "GGUF", "tekken.json", ".model", "rank file", "--pattern",
                "tokviz train"):
        assert fmt in listed, f"the README no longer lists {fmt}"
        assert fmt in help_text, f"tokviz encode --help does not name {fmt}"


def test_the_readmes_python_example_runs():
    block = next(b for b in code_blocks(readme()) if b.startswith("import tokviz"))
    lines = [line for line in block.splitlines() if "open_model" not in line and not line.startswith("model.")]
    namespace: dict = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - the README's own example
    assert namespace["enc"].ids == [31495, 230, 75265, 243, 92245, 62904, 233]
    comment = re.search(r"enc\.ids\s+# (\[.*\])", block).group(1)
    assert eval(comment) == namespace["enc"].ids
