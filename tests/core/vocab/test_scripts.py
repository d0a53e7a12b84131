"""A token's script class: the ASCII shortcut and the per-character cache give what reading every
character's Unicode category gives; a diff's census is counted once and handed out as copies."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.bpe.model import BPEModel
from tokviz.core.vocab.diff import vocab_diff
from tokviz.core.vocab.scripts import _letter_script, script_of


def _plain_script_of(data: bytes) -> str:
    """The classification character by character, as the module docstring states it."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "partial"
    letters = {_letter_script(ch) for ch in text if unicodedata.category(ch)[0] in "LM"}
    if len(letters) == 1:
        return letters.pop()
    if letters:
        return "other"
    core = text.strip()
    if core and all(ch.isdigit() for ch in core):
        return "digits"
    if all(ch.isspace() or (ch.isascii() and ch.isprintable()) for ch in text):
        return "whitespace/code"
    return "other"


_TOKEN = st.one_of(
    st.binary(max_size=6),
    st.text(alphabet=st.characters(max_codepoint=127), max_size=6).map(str.encode),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=4).map(str.encode),
    st.text(alphabet=st.sampled_from(list(" \t\n\x1c\x1f٣1aé생ᄀ中\u0301")), max_size=4).map(str.encode),
)


@settings(max_examples=300, deadline=None)
@given(token=_TOKEN)
def test_script_of_equals_reading_every_character(token):
    assert script_of(token) == _plain_script_of(token)


def test_a_diffs_census_is_counted_once_and_given_as_copies():
    d = vocab_diff(
        BPEModel(mode="byte", merges=[(104, 105, 256)], name="a"),
        BPEModel(mode="byte", merges=[(104, 97, 256)], name="b"),
    )
    first = d.census()
    first["a"]["latin"] = -1
    assert d.census()["a"]["latin"] == 52 + 1 and d.as_json(lists=False)["census"] == d.census()
