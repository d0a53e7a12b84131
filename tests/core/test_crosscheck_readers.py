"""One model's readers as Encoders (the Compare panel's cross-check), without Qt."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.crosscheck import Implementation, ReaderEncoder, catalogue_files, check_readers, placed
from tokviz.core.encoding import Encoding
from tokviz.core.errors import TokvizError


class Bytes:
    """A byte-per-token encoder: tokviz's reading of the toy model."""

    name, family, source, byte_level, vocab_size = "toy", "toy", "test", True, 256

    def encode(self, text, *, allow_special=False):
        return Encoding.from_byte_tokens(self.name, text, [(b, bytes([b])) for b in text.encode()])

    def decode(self, ids):
        return bytes(ids).decode("utf-8", "replace")

    def special_tokens(self):
        return {}

    def token_bytes(self, token_id):
        return bytes([token_id])


def _reader(encode) -> ReaderEncoder:
    return ReaderEncoder(Implementation("lib", encode, lambda i: chr(i)), Bytes(), "toy")


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=40))
def test_a_reader_that_agrees_draws_exactly_the_reference_tokens(text):
    reader = _reader(lambda line: list(line.encode("utf-8")))
    mine, theirs = reader.encode(text), reader.reference.encode(text)
    assert reader.name == "toy via lib"
    assert mine.ids == theirs.ids
    assert [(t.bytes, t.start, t.end) for t in mine.tokens] == [(t.bytes, t.start, t.end) for t in theirs.tokens]


def test_a_reader_that_differs_is_placed_on_the_text_where_its_bytes_are():
    # it leaves out the byte of "b": "c" is still placed on the c, the rest of the text is covered
    reader = _reader(lambda line: [i for i in line.encode("utf-8") if i != ord("b")])
    enc = reader.encode("abc")
    assert enc.ids == [ord("a"), ord("c")]
    assert [(t.start, t.end) for t in enc.tokens] == [(0, 1), (1, 1)]  # c found nowhere next: covers nothing


def test_a_sentencepiece_space_that_the_text_does_not_have_covers_nothing_more():
    pieces = {1: b" he", 2: b"llo", 3: b" w"}
    enc = placed("sp", "hello w", [1, 2, 3], pieces.__getitem__)
    assert [(t.bytes, t.start, t.end) for t in enc.tokens] == [(b" he", 0, 2), (b"llo", 2, 5), (b" w", 5, 7)]


def test_check_readers_names_the_first_differing_token_per_line():
    reader = _reader(lambda line: list(line.encode("utf-8"))[:-1] if line == "two" else list(line.encode("utf-8")))
    report = check_readers("toy", reader.reference, [reader], "one\ntwo")
    assert report.implementations == ["toy via lib", "toy via tokviz"]
    assert [(d.line, d.index, d.ids) for d in report.differences] == [(2, 2, (None, ord("o")))]


def test_a_model_outside_the_catalogue_cannot_be_cross_checked_here():
    with pytest.raises(TokvizError, match="catalogue"):
        catalogue_files("gpt2")
