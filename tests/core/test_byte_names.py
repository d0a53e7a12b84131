"""Byte pieces named by the character they belong to, at every byte position of 2-, 3- and 4-byte
characters, with the text around them, with corpus guesses, and for merges."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.byte_names import CharGuesser, byte_parts, describe_merge, describe_piece, name_merge

# Two characters of each UTF-8 length, Korean and emoji among them.
CHARS = ["é", "ж", "것", "한", "€", "😀", "𝄞"]


def _ranges(n):
    return [(i, j) for i in range(n) for j in range(i + 1, n + 1)]


@pytest.mark.parametrize("ch", CHARS)
def test_every_byte_range_named_exactly_from_context(ch):
    data = ch.encode("utf-8")
    n = len(data)
    assert n in (2, 3, 4)
    text = "a" + ch + "b"
    raw = text.encode("utf-8")
    for i, j in _ranges(n):
        piece = data[i:j]
        parts = byte_parts(piece, before=raw[: 1 + i], after=raw[1 + j:])
        assert len(parts) == 1, (ch, i, j, parts)
        part = parts[0]
        assert (part.char, part.first, part.last, part.length) == (ch, i + 1, j, n), (i, j)
        assert part.whole == (i == 0 and j == n)
        assert not part.guessed
        if not part.whole:
            span = f"byte {i + 1}" if j == i + 1 else f"bytes {i + 1}–{j}"
            assert part.label == f"{ch} {span} of {n}"
            assert part.hex == piece.hex(" ").upper()


@pytest.mark.parametrize("ch", CHARS)
def test_every_byte_range_guessed_from_corpus_counts(ch):
    data = ch.encode("utf-8")
    n = len(data)
    # The character itself is the most frequent; its neighbours in code point order share prefixes.
    counts = {ch: 50, chr(ord(ch) + 1): 5, chr(ord(ch) - 1): 5}
    guesser = CharGuesser(counts)
    for i, j in _ranges(n):
        piece = data[i:j]
        parts = byte_parts(piece, guesser=guesser)
        assert len(parts) == 1
        part = parts[0]
        if i == 0 and j == n:
            assert part.whole and part.char == ch
            continue
        assert part.char == ch, (i, j, part)
        assert part.guessed
        assert (part.first, part.last, part.length) == (i + 1, j, n), (i, j)


def test_guess_prefers_the_more_frequent_character():
    guesser = CharGuesser({"것": 3, "가": 40})
    head = "것".encode()[:2]  # EA B2; 가 is EA B0 80, so it cannot be the guess
    assert byte_parts(head, guesser=guesser)[0].char == "것"
    both = CharGuesser({"것": 3, "겅": 40})  # 겅 is EA B2 85: same first two bytes
    assert byte_parts(head, guesser=both)[0].char == "겅"


def test_no_context_no_guess_names_the_range():
    part = byte_parts("것".encode()[:2])[0]
    assert part.char is None and part.candidates == (0xAC80, 0xACBF)
    assert part.label == "bytes 1–2 of 3 of one of 검–겿 (U+AC80–U+ACBF)"
    lone = byte_parts(b"\xb2")[0]  # a continuation byte alone: position unknown
    assert lone.char is None and lone.first == 0
    assert describe_piece(b"\xb2") == "1 continuation byte B2"


@pytest.mark.parametrize("ch", CHARS)
def test_every_split_of_a_character_names_both_sides_and_completes(ch):
    data = ch.encode("utf-8")
    n = len(data)
    for k in range(1, n):
        merge = name_merge(data[:k], data[k:])
        assert merge.completes == (ch,)
        (left,), (right,) = merge.left, merge.right
        assert (left.char, left.first, left.last, left.length) == (ch, 1, k, n)
        assert (right.char, right.first, right.last, right.length) == (ch, k + 1, n, n)
        assert merge.text.endswith(f"→ {ch} (completes {ch})")


def test_merge_that_completes_nothing_says_nothing_about_completing():
    guesser = CharGuesser({"것": 1})
    assert describe_merge(b"\xea", b"\xb2", guesser=guesser) == "것 byte 1 of 3 + 것 byte 2 of 3 → 것 bytes 1–2 of 3"
    assert name_merge(b" ", "것".encode(), guesser=guesser).completes == ()


def test_piece_across_two_characters():
    text = "각것"
    raw = text.encode()
    piece = raw[2:5]  # last byte of 각, first two of 것
    parts = byte_parts(piece, before=raw[:2], after=raw[5:])
    assert [(p.char, p.first, p.last, p.length) for p in parts] == [("각", 3, 3, 3), ("것", 1, 2, 3)]


def test_invalid_bytes_do_not_raise():
    for junk in (b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe0\x80"):
        parts = byte_parts(junk)
        assert b"".join(p.data for p in parts) == junk


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=12), st.data())
def test_any_cut_names_the_real_characters(text, data):
    """Cut any text's UTF-8 anywhere: with the text around it, every part of every piece names the
    character it really lies in and its true byte positions."""
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:
        return  # lone surrogates have no UTF-8
    cuts = sorted(set(data.draw(st.lists(st.integers(1, len(raw)), max_size=6)) + [len(raw)]))
    # where each byte really is: (char, 1-based position, length)
    truth = []
    for ch in text:
        b = ch.encode("utf-8")
        truth += [(ch, i + 1, len(b)) for i in range(len(b))]
    start = 0
    for end in cuts:
        if end <= start:
            continue
        pos = start
        for part in byte_parts(raw[start:end], before=raw[:start], after=raw[end:]):
            first = truth[pos]
            last = truth[pos + len(part.data) - 1]
            assert part.char == first[0] == last[0]
            assert (part.first, part.last, part.length) == (first[1], last[1], first[2])
            pos += len(part.data)
        assert pos == end
        start = end
