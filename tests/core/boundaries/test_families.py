"""The boundary tools through every encoder family tokviz opens: SentencePiece, tokenizer.json, GGUF and
tokviz's own trained BPE (the OpenAI rank files are covered in the other modules)."""

from __future__ import annotations

import codecs

import pytest

from tests.support.boundary_encoders import brute_vocab, gguf_from_bpe
from tests.support.trained_models import bpe_model
from tokviz.core.boundaries.canonical import check_canonical
from tokviz.core.boundaries.cut import budget_cut
from tokviz.core.boundaries.healing import heal
from tokviz.core.boundaries.streaming import stream_text
from tokviz.core.encoders.builtin import default_registry

TEXT = "안녕하세요 세계, hello world 🙂!"


@pytest.fixture(scope="module", params=["sentencepiece", "tokenizer.json", "gguf", "tokviz-bpe"])
def family(request, tmp_path_factory):
    if request.param == "sentencepiece":
        return default_registry().get("sp:demo_unigram")
    if request.param == "tokenizer.json":  # tokviz's own BPE exported: a real tokenizer.json, small
        pytest.importorskip("tokenizers")
        from tokviz.core.encoders.hf_json import HFTokenizerEncoder
        from tokviz.core.hf_export import write_tokenizer_json

        path = write_tokenizer_json(bpe_model("byte", 80), tmp_path_factory.mktemp("hf") / "tokenizer.json")
        return HFTokenizerEncoder.from_file(path)
    if request.param == "gguf":
        pytest.importorskip("gguf")
        from tokviz.core.encoders.gguf_family import load_gguf

        return load_gguf(gguf_from_bpe(bpe_model("byte", 80), tmp_path_factory.mktemp("gguf") / "bpe.gguf"))
    return bpe_model("byte", 60)


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
