from __future__ import annotations

import pytest

from tokviz.core.encoding import Encoding, EncodingMismatch, char_byte_starts
from tokviz.core.errors import InvalidTextError, replace_lone_surrogates


def test_partial_tokens_share_the_character_they_cut():
    # cl100k splits 안 (EC 95 88) as EC 95 | 88
    enc = Encoding.from_byte_tokens("t", "안녕", [(1, b"\xec\x95"), (2, b"\x88"), (3, "녕".encode())])
    spans = [(t.byte_start, t.byte_end, t.start, t.end, t.partial, t.piece) for t in enc.tokens]
    assert spans == [(0, 2, 0, 1, True, None), (2, 3, 0, 1, True, None), (3, 6, 1, 2, False, "녕")]
    assert enc.tokens_at_char(0) == [0, 1]
    assert enc.tokens_at_char(1) == [2]
    assert [enc.token_at_byte(i) for i in range(6)] == [0, 0, 1, 2, 2, 2]
    assert enc.round_trip_exact()


def test_token_spanning_two_characters_and_cutting_the_third():
    text = "a값😀"
    assert char_byte_starts(text) == [0, 1, 4, 8]
    enc = Encoding.from_byte_tokens("t", text, [(1, b"a\xea\xb0\x92\xf0"), (2, "😀".encode()[1:])])
    t0, t1 = enc.tokens
    assert (t0.start, t0.end, t0.partial) == (0, 3, True)
    assert (t1.start, t1.end, t1.partial) == (2, 3, True)


def test_bytes_must_join_to_the_text():
    with pytest.raises(EncodingMismatch):
        Encoding.from_byte_tokens("t", "ab", [(1, b"a"), (2, b"c")])
    with pytest.raises(EncodingMismatch):
        Encoding.from_byte_tokens("t", "ab", [(1, b"a")])


def test_empty_text_is_fine():
    enc = Encoding.from_byte_tokens("t", "", [])
    assert enc.tokens == () and enc.round_trip_exact() and enc.tokens_at_char(0) == []


def test_lone_surrogate_is_a_clear_error():
    with pytest.raises(InvalidTextError, match=r"U\+D83D at character 2 \(line 1, column 3\)"):
        Encoding.from_byte_tokens("t", "ok\ud83d", [])
    assert replace_lone_surrogates("a\ud83d\ude00b\ud800") == "a😀b\ufffd"
