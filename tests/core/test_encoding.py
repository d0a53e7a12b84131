from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# ---- the columns and the lazy token sequence ------------------------------------------------------
def _sample():
    return Encoding.from_byte_tokens("t", "a안😀", [(5, b"a\xec"), (6, b"\x95\x88"), (7, "😀".encode())],
                                     kinds=["normal", "normal", "special"], raws=["a?", None, "E"])


def test_columns_are_read_only_arrays_of_the_documented_types():
    import numpy as np

    from tokviz.core.encoding import KIND_NAMES

    enc = _sample()
    assert KIND_NAMES == ("normal", "special", "byte_fallback", "unknown")
    for name, dtype in [("id_array", np.int64), ("byte_start_array", np.int64), ("byte_end_array", np.int64),
                        ("start_array", np.int64), ("end_array", np.int64), ("partial_array", bool),
                        ("kind_array", np.uint8)]:
        column = getattr(enc, name)
        assert column.dtype == dtype and not column.flags.writeable, name
        with pytest.raises(ValueError):
            column[0] = 1
    assert enc.kind_array.tolist() == [0, 0, 1] and enc.ids == [5, 6, 7] and isinstance(enc.ids, list)


def test_tokens_are_a_lazy_sequence_with_indexing_slicing_and_iteration():
    enc = _sample()
    toks = enc.tokens
    every = list(toks)
    assert len(toks) == 3 and [t.id for t in every] == [5, 6, 7]
    assert toks[-1] == every[2] == enc.token(2) == enc.token(-1)
    assert (toks[-1].bytes, toks[-1].kind, toks[-1].raw, toks[0].raw, toks[1].raw) == ("😀".encode(), "special", "E",
                                                                                         "a?", None)
    assert list(toks[1:]) == every[1:] and len(toks[5:]) == 0 and list(toks[::2]) == [every[0], every[2]]
    assert list(toks[1:][-1:]) == [every[2]]
    assert toks == tuple(every) and list(reversed(toks)) == every[::-1]
    with pytest.raises(IndexError):
        toks[3]
    with pytest.raises(IndexError):
        enc.token(-4)


def test_from_arrays_equals_the_tuple_constructors_and_concat_equals_the_whole():
    text = "ab 값\n😀 cd"
    pairs = [(i, bytes([b])) for i, b in enumerate(text.encode())]
    whole = Encoding.from_byte_tokens("t", text, pairs)
    data = text.encode()
    arrays = Encoding.from_arrays("t", text, [p[0] for p in pairs], range(len(data)), range(1, len(data) + 1))
    assert arrays.tokens == whole.tokens
    cut = text.index("\n") + 1
    first = Encoding.from_byte_tokens("t", text[:cut], pairs[:len(text[:cut].encode())])
    second = Encoding.from_byte_tokens("t", text[cut:], pairs[len(text[:cut].encode()):])
    joined = Encoding.concat("t", text, [(first, 0, 0), (second, cut, len(text[:cut].encode()))])
    assert joined.tokens == whole.tokens and joined.round_trip_exact()


@pytest.mark.parametrize("block", [1, 2, 3, 7, 1 << 18])
def test_concat_stitches_in_bounded_calls_and_gives_the_same_encoding(monkeypatch, block):
    """Pieces are stitched a batch of about STITCH_BLOCK tokens per numpy call (one call over millions of
    tokens held the GIL while the GUI waited); any batch size gives the same Encoding, raw forms and
    token bytes of pieces that do not spell their text (a byte-fallback row) included."""
    from tokviz.core import encoding as encoding_module

    monkeypatch.setattr(encoding_module, "STITCH_BLOCK", block)
    text = "ab 값\n\n😀 cd\n\n\nxyz"
    lines = text.split("\n")
    parts, char_at, byte_at = [], 0, 0
    for k, line in enumerate(lines):
        piece = line + ("\n" if k < len(lines) - 1 else "")
        data = piece.encode()
        if k == 1:  # an empty piece holds no token
            parts.append((Encoding.from_byte_tokens("t", "", []), char_at, byte_at))
        if k % 2:  # tokens that carry their own bytes, not the text's
            enc = Encoding.from_spans("t", piece, [(9, b"<" + data + b">", 0, len(data), "normal", "raw")])
        else:
            enc = Encoding.from_byte_tokens("t", piece, [(b, bytes([b])) for b in data])
        parts.append((enc, char_at, byte_at))
        char_at, byte_at = char_at + len(piece), byte_at + len(data)
    joined = Encoding.concat("t", text, parts)
    monkeypatch.setattr(encoding_module, "STITCH_BLOCK", 1 << 30)
    once = Encoding.concat("t", text, parts)
    assert joined.tokens == once.tokens and joined.ids == once.ids
    assert joined.joined_bytes() == once.joined_bytes() and b"<xyz>" in joined.joined_bytes()
    assert [t.start for t in joined.tokens] == [t.start for t in once.tokens]


def test_from_arrays_refuses_spans_out_of_order():
    with pytest.raises(EncodingMismatch, match="token 1"):
        Encoding.from_arrays("t", "abc", [1, 2], [0, 0], [2, 3])


def test_an_encoding_holds_columns_not_one_object_per_token():
    # one Python Token per token cost ~260 bytes each (a 5 MB paste: half a gigabyte); columns ~45
    import tracemalloc

    text = "안녕 hello 😀 " * 20_000
    data = text.encode()
    pairs = [(b, bytes([b])) for b in data]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        enc = Encoding.from_byte_tokens("t", text, pairs)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(enc) == len(data) and held / len(enc) < 80
    assert enc.tokens[5].bytes == data[5:6]


def test_tiktoken_columns_equal_tokens_built_from_tiktokens_own_bytes():
    # the family fills the columns from a table of byte lengths per id; tiktoken's decode_tokens_bytes
    # is the reference for what each token's bytes are
    from tokviz.core.encoders.builtin import default_registry

    encoder = default_registry().get("cl100k_base")  # the family's loader, run once per test process
    text = "안녕하세요 👨‍👩‍👧 hello<|endoftext|> wörld\r\n\t값"
    for allow in (False, True):
        enc = encoder.encode(text, allow_special=allow)
        ids = enc.ids
        kinds = ["special" if i in encoder.special_tokens().values() and allow else "normal" for i in ids]
        reference = Encoding.from_byte_tokens("cl100k_base", text,
                                              zip(ids, encoder.tiktoken.decode_tokens_bytes(ids), strict=True),
                                              kinds=kinds)
        assert enc.tokens == reference.tokens and enc.round_trip_exact()
        assert enc.kind_counts()["special"] == (1 if allow else 0)


def test_an_encoding_is_freed_by_reference_counting_and_its_token_view_outlives_it():
    # tokens pointing back at their Encoding would make every Encoding a reference cycle: kept alive
    # until the cyclic collector runs (the Inspector frees big results itself, once unreferenced)
    import gc
    import weakref

    enc = _sample()
    toks = enc.tokens[1:]
    gone = weakref.ref(enc)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        del enc
        assert gone() is None
    finally:
        if was_enabled:
            gc.enable()
    assert [t.id for t in toks] == [6, 7] and "tokens of 't'" in repr(toks)


def test_encodings_are_equal_by_value():
    a, b = _sample(), _sample()
    assert a == b and a is not b
    other_raw = Encoding.from_byte_tokens("t", "a안😀", [(5, b"a\xec"), (6, b"\x95\x88"), (7, "😀".encode())],
                                          kinds=["normal", "normal", "special"], raws=["a?", None, "F"])
    other_kind = Encoding.from_byte_tokens("t", "a안😀", [(5, b"a\xec"), (6, b"\x95\x88"), (7, "😀".encode())])
    spans = [(1, b"x", 0, 1, "normal", None)]
    assert a != other_raw and a != other_kind and a != "a안😀"
    assert Encoding.from_spans("t", "a", spans) != Encoding.from_spans("t", "a", [(1, b"y", 0, 1, "normal", None)])
    assert Encoding.from_spans("t", "a", spans) == Encoding.from_spans("t", "a", spans)


@pytest.mark.parametrize("piece", [1, 2, 5, 1 << 20])
def test_a_big_text_is_checked_a_slice_at_a_time_with_the_same_bytes_and_surrogate_position(monkeypatch, piece):
    from tokviz.core import errors

    monkeypatch.setattr(errors, "_ENCODE_SLICE", piece)
    text = "ab 값😀\n가나 xyz 👨‍👩‍👧" * 3
    assert errors.check_text(text) == text.encode("utf-8")
    bad = text + "q\ud83d" + text
    with pytest.raises(InvalidTextError) as caught:
        errors.check_text(bad)
    assert caught.value.index == len(text) + 1


def test_concat_keeps_every_raw_form_without_listing_them_all():
    """Raw forms are renumbered a piece at a time (a list of all of them, millions for a 20 MB paste,
    was built and freed in calls that held the GIL); each token keeps its own, None included, and
    a piece whose table is not in first-use order (given as table and index) reads right."""
    text = "ab cd ef"
    spans = [(0, 3), (3, 6), (6, 8)]
    raws = [["a", None, "X"], ["X", "c", "a"], ["Z", "a"]]
    parts = []
    for (a, b), piece_raws in zip(spans, raws, strict=True):
        piece = text[a:b]
        ids, bs, be = [1] * len(piece), list(range(len(piece))), list(range(1, len(piece) + 1))
        if a == 3:  # table out of first-use order, index into it
            table = ("a", "c", "X")
            index = np.array([table.index(r) for r in piece_raws], dtype=np.int32)
            enc = Encoding.from_arrays("t", piece, ids, bs, be, raws=(table, index))
        else:
            enc = Encoding.from_arrays("t", piece, ids, bs, be, raws=piece_raws)
        parts.append((enc, a, a))
    joined = Encoding.concat("t", text, parts)
    every = [r for rs in raws for r in rs]
    assert [t.raw for t in joined.tokens] == every
    assert joined == Encoding.from_arrays("t", text, [1] * 8, range(8), range(1, 9), raws=every)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="a값😀\n", max_size=40), st.integers(1, 9), st.booleans())
def test_round_trip_and_kind_counts_are_the_same_for_any_slice(text, size, damaged):
    """The text is compared with the token bytes, and the kinds counted, a slice at a time (one call over
    a 20 MB paste held the GIL while the GUI thread waited): any slice gives the one-call answer."""
    from tokviz.core import encoding as encoding_module

    data = text.encode("utf-8")
    n = len(data)
    blob = data[:-1] + b"x" if damaged and n else data  # a last token whose bytes are not the text's
    codes = [k % 3 for k in range(n)]
    enc = Encoding.from_arrays("t", text, list(range(n)), range(n), range(1, n + 1), kinds=codes,
                               token_bytes=(blob, range(n), range(1, n + 1)))
    once = (enc.round_trip_exact(), enc.kind_counts())
    assert once[0] == (blob == data) and sum(once[1].values()) == n
    old = encoding_module.TEXT_SLICE, encoding_module.STITCH_BLOCK
    encoding_module.TEXT_SLICE = encoding_module.STITCH_BLOCK = size
    try:
        assert (enc.round_trip_exact(), enc.kind_counts()) == once
    finally:
        encoding_module.TEXT_SLICE, encoding_module.STITCH_BLOCK = old


def _one_dict_raw_columns(encodings):
    """The raw forms of ``encodings`` end to end, numbered in order of first use by one dict: the
    specification the sharded join must equal."""
    code: dict[str, int] = {}
    index = [-1 if r is None else code.setdefault(r, len(code)) for e in encodings for r in e._raws_list()]
    return tuple(code), index


_FORMS = st.one_of(st.none(), st.sampled_from(["a", "b", "값", "😀", "Ġx"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.lists(_FORMS, max_size=10), st.sampled_from(["list", "table", "none"]), st.randoms()),
                min_size=1, max_size=6))
def test_joined_raw_forms_equal_one_dict_numbering(pieces):
    """Raw forms are numbered across pieces in small dicts chosen by hash (one dict of a 20 MB paste's
    forms rehashed over a million entries at once, holding the GIL ~0.1 s): the codes and their order
    are those one dict gives, whatever the pieces' own tables look like (a table out of first-use
    order, forms it lists but no token uses, no forms at all)."""
    from tokviz.core.encoding import _joined_raw_columns

    encodings = []
    for forms, kind, rng in pieces:
        n = len(forms)
        args = ("t", "x" * n, [1] * n, range(n), range(1, n + 1))
        if kind == "none":
            encodings.append(Encoding.from_arrays(*args))
        elif kind == "table":
            table = ["a", "b", "값", "😀", "Ġx", "unused"]
            rng.shuffle(table)
            index = np.array([-1 if f is None else table.index(f) for f in forms], dtype=np.int32)
            encodings.append(Encoding.from_arrays(*args, raws=(tuple(table), index)))
        else:
            encodings.append(Encoding.from_arrays(*args, raws=forms))
    counts = np.array([len(e.id_array) for e in encodings], dtype=np.int64)
    table, index = _joined_raw_columns(encodings, counts)
    expected_table, expected_index = _one_dict_raw_columns(encodings)
    assert table == expected_table and index.tolist() == expected_index
