"""The boundary tools through every encoder family tokviz opens: SentencePiece, tokenizer.json, GGUF and
tokviz's own trained BPE (the OpenAI rank files are covered in the other modules)."""

from __future__ import annotations

import codecs

import pytest

from tests.support.boundary_encoders import FAMILIES, brute_vocab, family_encoder
from tokviz.core.boundaries.canonical import check_canonical
from tokviz.core.boundaries.cut import budget_cut
from tokviz.core.boundaries.healing import heal
from tokviz.core.boundaries.streaming import stream_text

TEXT = "안녕하세요 세계, hello world 🙂!"


@pytest.fixture(scope="module", params=FAMILIES)
def family(request, tmp_path_factory):
    return family_encoder(request.param, tmp_path_factory.mktemp(request.param))


@pytest.fixture(scope="module")
def vocab(family):
    return brute_vocab(family)


def test_own_ids_are_canonical_and_a_split_token_is_not(family, vocab):
    ids = family.encode(TEXT).ids
    assert check_canonical(family, ids).is_canonical
    by_bytes = {}
    for i, b in sorted(vocab.items(), reverse=True):
        by_bytes[b] = i
    for pos, token in enumerate(ids):
        b = vocab.get(token, b"")
        k = next((k for k in range(1, len(b)) if b[:k] in by_bytes and b[k:] in by_bytes), None)
        if k is None:
            continue
        check = check_canonical(family, ids[:pos] + [by_bytes[b[:k]], by_bytes[b[k:]]] + ids[pos + 1:])
        if check.text == family.decode(ids):  # (a split the family's decoder spells alike)
            assert not check.is_canonical and check.divergence.index_a == pos
            assert check.divergence.segmentations >= 2
            return
    pytest.fail(f"no token of {family.name} splits into two vocabulary tokens")


def test_streaming_equals_pythons_decoder_over_the_token_bytes(family):
    ids = family.encode(TEXT).ids
    replay = stream_text(family, TEXT)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    assert [s.emitted for s in replay.steps] == [decoder.decode(family.token_bytes(i)) for i in ids]
    # SentencePiece pieces carry the dummy prefix as a leading space; the rest is the text
    assert replay.text.lstrip(" ") == TEXT.lstrip(" ")


def test_healing_candidates_equal_a_scan(family, vocab):
    h = heal(family, TEXT, 2)
    assert h.candidate_ids == tuple(i for i, b in sorted(vocab.items()) if b.startswith(h.removed_bytes))


def test_every_cut_prints_a_prefix_of_the_text(family):
    n = len(family.encode(TEXT).ids)
    for k in range(n + 1):
        cut = budget_cut(family, TEXT, k)
        assert TEXT.startswith(cut.kept_text) and TEXT.startswith(cut.safe_text)
        assert cut.safe_tokens <= k and (k < n or cut.kept_text == TEXT)
