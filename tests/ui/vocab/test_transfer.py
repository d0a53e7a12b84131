"""Results cross from the vocabulary process in slices that each unpickle in a short call, and arrive
equal to what was sent."""

from __future__ import annotations

import pickle
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.ui.vocab import transfer
from tokviz.ui.vocab.jobs import token_rows
from tokviz.ui.vocab.transfer import SLICE_BYTES, Sliced, packed


@dataclass(frozen=True)
class Holder:
    rows: list
    name: str


leaves = st.one_of(st.integers(), st.binary(max_size=6), st.text(max_size=4), st.none())
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=12),
        st.lists(inner, max_size=12).map(tuple),
        st.dictionaries(st.text(max_size=3), inner, max_size=4),
        st.builds(Holder, st.lists(inner, max_size=12), st.text(max_size=3)),
    ),
    max_leaves=20,
)


@settings(max_examples=40, deadline=None)
@given(values)
def test_a_packed_value_unpickles_equal_to_the_original(value):
    long, transfer.LONG = transfer.LONG, 3  # slice even short lists, so that every shape is sliced somewhere
    try:
        assert pickle.loads(pickle.dumps(packed(value))) == value
    finally:
        transfer.LONG = long


def test_a_long_table_travels_in_small_slices_and_shared_lists_stay_shared():
    from tests.support.vocab_encoders import small_encoder

    data = [b"tok%d" % i for i in range(60_000)]
    table = token_rows(small_encoder("s"), list(range(60_000)), data)
    wrapped = packed(table)
    assert isinstance(wrapped.columns[0], Sliced) and wrapped.tokens is wrapped.columns[1]
    _join, (_as_tuple, slices) = wrapped.columns[1].__reduce__()
    assert len(slices) > 10 and max(len(s) for s in slices) <= 2 * SLICE_BYTES
    back = pickle.loads(pickle.dumps(wrapped))
    assert back.columns == table.columns and back.tokens is back.columns[1] and back.tokens == data
    assert all((a == b).all() for a, b in zip(back.orders, table.orders, strict=True))
