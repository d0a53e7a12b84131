"""Streaming replay equals Python's incremental UTF-8 decoder, on arbitrary byte chunks and on the
tokens of cl100k_base and o200k_base."""

from __future__ import annotations

import codecs

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.boundary_encoders import TEXTS
from tokviz.core.boundaries.streaming import replay_bytes, stream_ids, stream_text


def python_steps(chunks):
    """(printed, pending) after each chunk, by codecs' incremental decoder with errors="replace"."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    out = []
    for chunk in chunks:
        printed = decoder.decode(chunk)
        out.append((printed, decoder.getstate()[0]))
    return out


# bytes around the edges of UTF-8: ASCII, continuation bytes, every lead byte class, invalid bytes
_BYTE = st.sampled_from([0x41, 0x0A, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xEC, 0xED,
                         0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xFF]) | st.integers(0, 255)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=6) | st.lists(_BYTE, max_size=6).map(bytes), max_size=12))
def test_replay_equals_pythons_incremental_decoder_on_any_bytes(chunks):
    steps = replay_bytes(chunks)
    assert [(s.emitted, s.pending) for s in steps] == python_steps(chunks)
    assert [s.naive for s in steps] == [c.decode("utf-8", "replace") for c in chunks]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=20), st.data())
def test_valid_text_cut_anywhere_streams_back_exactly(text, data):
    raw = text.encode("utf-8")
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=8)))
    chunks = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    steps = replay_bytes(chunks)
    assert "".join(s.emitted for s in steps) == text
    assert not steps or steps[-1].pending == b""


def test_tokens_of_korean_and_emoji_stream_as_pythons_decoder(openai):
    encoder, vocab = openai
    for text in TEXTS:
        ids = encoder.encode(text).ids
        replay = stream_ids(encoder, ids)
        chunks = [vocab[i] for i in ids]
        assert [(s.emitted, s.pending) for s in replay.steps] == python_steps(chunks)
        assert replay.text == text and replay.pending == b""
    # byte-level BPE splits Hangul syllables: the naive printer shows U+FFFD where the streamer waits
    replay = stream_text(encoder, "놟뛣")
    assert "\ufffd" in replay.naive_text and replay.text == "놟뛣"
    assert any(s.pending and not s.emitted for s in replay.steps)


def test_a_stream_may_end_pending_and_the_json_shows_it_in_hex(openai):
    encoder, _ = openai
    ids = encoder.encode("한").ids
    if len(ids) == 1:  # o200k has 한 whole; cut it by hand with byte tokens
        ids = [next(i for i, b in openai[1].items() if b == bytes([x])) for x in "한".encode()][:2]
    else:
        ids = ids[:-1]
    doc = stream_ids(encoder, ids).as_json()
    assert doc["text"] == "" and doc["pending"] == " ".join(f"{x:02x}" for x in "한".encode()[:len(
        b"".join(encoder.token_bytes(i) for i in ids))])
