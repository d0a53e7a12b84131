"""Every encoder name the README documents works, and a near miss says which name was meant."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tokviz.cli import main
from tokviz.core.encoders.builtin import build_registry
from tokviz.core.errors import EncoderUnavailable

README = Path(__file__).resolve().parents[3] / "README.md"


def documented_names() -> set[str]:
    """``-e NAME`` in every example, and the catalogue's list (``mistral-sp-v1/v3/v7`` is three names)."""
    text = README.read_text(encoding="utf-8")
    # NAME, A, B are placeholders; ORG/NAME repo ids are whatever the reader's Hugging Face cache holds
    names = {n for n in re.findall(r"-e ([\w.:/-]+)", text) if not n.isupper() and "/" not in n}
    listed = re.search(r"each checked by SHA-256:(.*?)\.\n", text, flags=re.DOTALL)
    assert listed, "the README no longer lists the catalogue's names"
    for name in re.findall(r"`([^`]+)`", listed.group(1)):
        first, *more = name.split("/")
        names.add(first)
        names.update(first.rsplit("-", 1)[0] + "-" + m for m in more)
    return names


def test_every_name_the_readme_documents_is_an_encoder():
    registry = build_registry()
    names = documented_names()
    assert {"llama-3.2", "mistral-sp-v7", "cl100k_base"} <= names
    for name in sorted(names):
        assert registry.resolve(name) in registry, name


@pytest.mark.parametrize(("typed", "meant"), [("llama3.2", "llama-3.2"), ("o200k", "o200k_base"), ("Qwen", None)])
def test_a_near_miss_suggests_the_name(typed, meant):
    registry = build_registry()
    if meant is None:  # another case of a registered name is that name
        assert registry.resolve(typed) == "qwen"
        return
    with pytest.raises(EncoderUnavailable, match=f"no such encoder; did you mean {re.escape(meant)}"):
        registry.resolve(typed)


def test_the_documented_short_name_reaches_the_model(capsys):
    code = main(["encode", "-e", "llama-3.2", "x"])
    err = capsys.readouterr().err
    assert "no such encoder" not in err and (code == 0 or "not installed" in err)
