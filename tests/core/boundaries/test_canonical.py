"""Canonical ids against brute force: sequences made non-canonical by splitting one token into two
vocabulary tokens, on cl100k_base and o200k_base."""

from __future__ import annotations

import random

import pytest

from tests.support.boundary_encoders import TEXTS
from tokviz.core.boundaries.canonical import MAX_LISTED, check_canonical, count_segmentations
from tokviz.core.boundaries.vocabulary import TokenTable, token_table
from tokviz.core.errors import TokvizError


def all_segmentations(data: bytes, ids_of: dict[bytes, list[int]]) -> list[tuple[int, ...]]:
    """Every id sequence spelling ``data``, by plain recursion (no memo, no pruning)."""
    if not data:
        return [()]
    out = []
    for k in range(1, len(data) + 1):
        for i in ids_of.get(data[:k], ()):
            out += [(i, *rest) for rest in all_segmentations(data[k:], ids_of)]
    return out


def split_sequences(encoder, vocab, by_bytes, text, rng, limit=6):
    """(ids, position, token bytes, split ids): ``text``'s ids with one token replaced by two vocabulary
    tokens spelling the same bytes."""
    ids = encoder.encode(text).ids
    out = []
    for pos in rng.sample(range(len(ids)), len(ids)):
        b = vocab[ids[pos]]
        for k in range(1, len(b)):
            if b[:k] in by_bytes and b[k:] in by_bytes:
                out.append((ids, pos, b, [by_bytes[b[:k]], by_bytes[b[k:]]]))
                break
        if len(out) == limit:
            break
    return out


def test_split_tokens_are_found_non_canonical_with_the_brute_force_segmentations(openai):
    encoder, vocab = openai
    ids_of: dict[bytes, list[int]] = {}
    for i, b in vocab.items():
        ids_of.setdefault(b, []).append(i)
    rng = random.Random(27)
    by_bytes = {b: ids[0] for b, ids in ids_of.items()}
    cases = [c for text in TEXTS for c in split_sequences(encoder, vocab, by_bytes, text, rng)]
    assert len(cases) >= 12
    for ids, pos, b, pair in cases:
        given = ids[:pos] + pair + ids[pos + 1:]
        check = check_canonical(encoder, given)
        assert check.text == encoder.decode(ids)
        assert not check.is_canonical and check.canonical_ids == tuple(ids)
        d = check.divergence
        assert (d.index_a, d.end_a, d.index_b, d.end_b) == (pos, pos + 2, pos, pos + 1)
        assert d.stretch == b and d.byte_start == len(b"".join(vocab[i] for i in ids[:pos]))
        every = all_segmentations(b, ids_of)
        assert d.segmentations == len(every)
        assert set(d.examples) <= set(every) and len(d.examples) == min(MAX_LISTED, len(every))
        assert [len(e) for e in d.examples] == sorted(len(e) for e in every)[:len(d.examples)]


def test_an_encoders_own_ids_are_canonical(openai):
    encoder, _ = openai
    for text in TEXTS:
        check = check_canonical(encoder, encoder.encode(text).ids)
        assert check.is_canonical and check.divergence is None and check.text == text


def test_a_special_token_in_the_ids_comes_back_as_itself(openai):
    encoder, _ = openai
    eot = encoder.special_tokens()["<|endoftext|>"]
    ids = encoder.encode("안녕").ids + [eot]
    assert check_canonical(encoder, ids).is_canonical


def test_counting_is_exact_where_listing_is_bounded():
    table = TokenTable({i: bytes([97]) * (i + 1) for i in range(4)})  # a, aa, aaa, aaaa
    # compositions of 30 into parts of at most 4: far more than anyone lists
    assert count_segmentations(b"a" * 30, table) == 201061985


def test_ids_outside_the_vocabulary_are_a_clear_error(openai):
    encoder, _ = openai
    with pytest.raises(TokvizError, match=r"id 9999999 \(position 1\) is not a token"):
        check_canonical(encoder, [0, 9999999])


def test_the_vocabulary_table_is_cached_per_encoder_and_can_be_cancelled():
    from tokviz.core.boundaries.vocabulary import ScanCancelled
    from tokviz.core.encoders.builtin import default_registry

    encoder = default_registry().get("sp:demo_unigram")

    class Stop:
        calls = []

        def is_cancelled(self):
            return bool(self.calls)

        def progress(self, done, total):
            self.calls.append((done, total))

    class Toy:  # a fresh object: nothing cached for it yet
        name, vocab_size = "toy", 20000

        def special_tokens(self):
            return {}

        def token_bytes(self, i):
            return str(i).encode()

    with pytest.raises(ScanCancelled):
        token_table(Toy(), Stop())
    assert Stop.calls == [(0, 20000)]
    assert token_table(encoder) is token_table(encoder)
