"""The bulk readers of model files agree with the plain readers they stand in for.

A rank file laid out as OpenAI's and Meta's are is read in bulk, anything else line by line; the JSON
nesting depth is scanned with numpy in slices; a GGUF's string arrays are read in one loop. Each must
give exactly what the plain reading gives: the same values in the same order, or the same message.
"""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokviz.core.encoders import files, gguf_family, rank_encoder
from tokviz.core.errors import ModelFileError

BYTES = [bytes([i]) for i in range(256)]


def _outcome(parse, data: bytes):
    try:
        return "ranks", list(parse(data).items())
    except ModelFileError as err:
        return "message", str(err)


def _line_by_line(data: bytes) -> dict[bytes, int]:
    return rank_encoder._checked_ranks(rank_encoder._rank_lines(data, "<rank file>"), "<rank file>")


_DAMAGE = st.sampled_from(
    [
        b" ",
        b"\n",
        b"\r\n",
        b"\r",
        b"\t",
        b"  ",
        b"=",
        b"QQ==",
        b"0",
        b"7" * 21,
        b"300",
        b"\n\n",
        b"\x0b",
        b"Zg== 5\n",
        b"IQ== 0\n",
        b"70000",
        b"\xff",
    ]
)


@settings(max_examples=100, deadline=None)
@given(
    extra=st.lists(st.binary(min_size=2, max_size=3), max_size=4, unique=True),
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3), _DAMAGE), max_size=3),
    final_newline=st.booleans(),
)
def test_rank_file_read_in_bulk_equals_line_by_line(extra, edits, final_newline):
    tokens = BYTES + [t for t in extra if t not in BYTES]
    data = bytearray(b"\n".join(b"%s %d" % (base64.b64encode(t), i) for i, t in enumerate(tokens)))
    data += b"\n" if final_newline else b""
    for at, cut, piece in edits:
        at %= len(data) + 1
        data[at : at + cut] = piece
    got = _outcome(rank_encoder.parse_tiktoken_ranks, bytes(data))
    assert got == _outcome(_line_by_line, bytes(data))
    if not edits:
        assert got == ("ranks", [(t, i) for i, t in enumerate(tokens)])


def test_a_big_rank_gap_names_its_line_whichever_reader():
    data = b"".join(b"%s %d\n" % (base64.b64encode(t), i) for i, t in enumerate(BYTES)) + b"YWI= 99999\n"
    with pytest.raises(ModelFileError, match="line 257: rank 99,999 leaves"):
        rank_encoder.parse_tiktoken_ranks(data)


def _plain_depth(text: str) -> int:
    """Character by character: the specification of the depth scan."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


_NASTY = st.text(alphabet=st.sampled_from(list('"\\[]{}aé\n😀')), max_size=8)  # dumped as \" and \\ runs
_JSON = st.recursive(
    _NASTY | st.integers(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_NASTY, inner, max_size=3),
    max_leaves=12,
)


@pytest.mark.parametrize("slice_bytes", [2, 1 << 23])
@settings(max_examples=60, deadline=None)
@given(doc=_JSON, ascii_only=st.booleans())
def test_json_depth_equals_a_plain_scan_across_slices(slice_bytes, doc, ascii_only):
    # slices of 2 bytes cut runs of backslashes and every character between two slices
    text = json.dumps(doc, ensure_ascii=ascii_only)
    kept, files._DEPTH_SLICE = files._DEPTH_SLICE, slice_bytes
    try:
        assert files._json_depth(text) == _plain_depth(text)
    finally:
        files._DEPTH_SLICE = kept


# ---- GGUF string arrays ------------------------------------------------------------------------------
class _StringByString(gguf_family._MetadataWalk):
    """The plain walk: every string item through ``string()``, named as it is read."""

    def strings(self, count, what, keep, distinct):
        if not distinct:
            items = [self.string(f"item {i} of {what}", keep) for i in range(count)]
            return items if keep else None
        seen: dict[str, int] = {}
        for i in range(count):
            item = self.string(f"item {i} of {what}")
            if not item:
                self.refuse(f"token {i:,} of {what} is an empty string; every token stands for some text")
            if item in seen:
                self.refuse(
                    f"token {i:,} of {what} repeats token {seen[item]:,} ({item[:40]!r}); a vocabulary's "
                    "tokens are distinct"
                )
            seen[item] = i
        return list(seen) if keep else None


@pytest.fixture(scope="module")
def small_gguf(tmp_path_factory):
    pytest.importorskip("gguf")
    from tests.support.gguf_files import write_gguf

    tokens = [bytes([i]).decode("latin-1") for i in range(256)] + ["ab", "abc", "안녕", "😀"]
    path = tmp_path_factory.mktemp("gguf") / "m.gguf"
    return write_gguf(path, tokens, ["a b", "ab c"], [1] * len(tokens), "default", template="{{ x }}").read_bytes()


def _walk(walk, data: bytes):
    try:
        return "metadata", walk(data, "m.gguf").read()
    except ModelFileError as err:
        return "message", str(err)


_GGUF_DAMAGE = st.sampled_from(
    [b"\xff" * 8, (2**40).to_bytes(8, "little"), (3).to_bytes(8, "little"), bytes(8), b"\xed\xa0\x80", b"\x00", b""]
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 8), _GGUF_DAMAGE), min_size=1, max_size=3),
    cut=st.none() | st.integers(8, 10**6),
)
def test_gguf_strings_read_in_one_loop_equal_string_by_string(small_gguf, edits, cut):
    data = bytearray(small_gguf)
    for at, span, piece in edits:
        at %= len(data)
        data[at : at + span] = piece
    data = bytes(data if cut is None else data[: max(8, cut % len(data))])
    assert _walk(gguf_family._MetadataWalk, data) == _walk(_StringByString, data)


def test_gguf_cut_at_every_byte_of_its_string_arrays_reads_as_string_by_string(small_gguf):
    # the last bytes hold the merges and the template: a cut one byte into a string, or just after it
    for size in range(len(small_gguf) - 120, len(small_gguf) + 1):
        assert _walk(gguf_family._MetadataWalk, small_gguf[:size]) == _walk(_StringByString, small_gguf[:size])
