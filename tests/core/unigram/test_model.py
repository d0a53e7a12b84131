"""UnigramModel against the real sentencepiece on a model sentencepiece trained itself."""

from __future__ import annotations

import io
import math
import random
from collections import Counter

import pytest
import sentencepiece as spm

from tests.support.mixed_corpus import HELD_OUT, mixed_lines
from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import TokvizError
from tokviz.core.unigram.model import UnigramModel


@pytest.fixture(scope="module")
def sp_and_model(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("sp") / "corpus.txt"
    corpus.write_text("".join(mixed_lines()), encoding="utf-8")
    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_writer=buf, model_type="unigram", vocab_size=400, character_coverage=1.0,
        normalization_rule_name="identity", num_threads=1, minloglevel=2,
    )
    sp = spm.SentencePieceProcessor(model_proto=buf.getvalue())
    n = sp.get_piece_size()
    pieces = [sp.id_to_piece(i) for i in range(n)]
    scores = [sp.get_score(i) for i in range(n)]
    special = [pieces[i] for i in range(n) if sp.is_control(i) or sp.is_unknown(i)]
    return sp, UnigramModel(pieces, scores, special=special, name="copy of sp")


TEXTS = HELD_OUT + [line.rstrip("\n") for line in mixed_lines(40, seed=11)]


@pytest.mark.parametrize("text", TEXTS)
def test_viterbi_matches_sentencepiece(sp_and_model, text):
    sp, model = sp_and_model
    assert model.encode(text).ids == sp.encode(text)


@pytest.mark.parametrize("text", HELD_OUT + TEXTS[5:12])
def test_nbest_matches_sentencepiece(sp_and_model, text):
    sp, model = sp_and_model
    ours = model.nbest(text, 5)
    theirs = sp.nbest_encode_as_ids(text, 5)
    surfaces = {tuple(ids): pieces for ids, pieces in zip(theirs, sp.nbest_encode_as_pieces(text, 5), strict=True)}

    def score(ids):
        # sentencepiece reports a run of unknown characters as one <unk>: each character scores unk_score
        pieces = surfaces[tuple(ids)]
        return round(sum(len(p) * model.unk_score if i == model.unk_id else model.score(i)
                         for i, p in zip(ids, pieces, strict=True)), 4)

    # the same scores, best first; the same paths, except that paths with equal scores (the same
    # split in two equal words) may come in another order
    scores = [s for _, s in ours]
    assert [round(s, 4) for s in scores] == [score(ids) for ids in theirs]
    assert scores == sorted(scores, reverse=True)
    last = round(scores[-1], 4)
    assert {tuple(e.ids) for e, s in ours if round(s, 4) > last} == {tuple(t) for t in theirs if score(t) > last}
    lat = model.lattice(text)
    assert scores[0] == pytest.approx(lat.viterbi_score)


def test_encoding_spans_cover_the_text(sp_and_model):
    _, model = sp_and_model
    text = "  시간   아깝다 😀 Ωmega"
    enc = model.encode(text)
    data = text.encode("utf-8")
    for t in enc.tokens:
        assert t.bytes == data[t.byte_start:t.byte_end]
    # the first ▁ is the dummy prefix? no: it covers the space just before the word
    first = enc.tokens[0]
    assert first.raw.startswith("▁") and (first.byte_start, data[first.byte_start:first.byte_start + 1]) == (1, b" ")
    unknown = [t for t in enc.tokens if t.kind == "unknown"]
    assert [data[t.byte_start:t.byte_end].decode() for t in unknown] == ["Ω"]
    assert isinstance(model, Encoder)


def test_dummy_prefix_covers_nothing():
    m = UnigramModel(["<unk>", "<s>", "</s>", "▁", "a", "▁a"], [0, 0, 0, -2, -2, -1])
    enc = m.encode("a a")
    assert [(t.raw, t.byte_start, t.byte_end) for t in enc.tokens] == [("▁a", 0, 1), ("▁a", 1, 3)]
    assert m.decode(enc.ids) == "a a"


def test_unknown_run_is_one_token_and_specials_only_on_request():
    m = UnigramModel(["<unk>", "<s>", "</s>", "▁", "a"], [0, 0, 0, -1, -1])
    enc = m.encode("a가나a")
    assert [(t.raw, t.kind, t.bytes) for t in enc.tokens] == [
        ("▁", "normal", b""), ("a", "normal", b"a"), ("<unk>", "unknown", "가나".encode()), ("a", "normal", b"a")]
    assert m.encode("<s>", allow_special=True).ids == [1]
    assert 1 not in m.encode("<s>").ids


def test_sampling_follows_p_to_the_alpha():
    # ▁ab: four segmentations with probabilities .001, .02, .02, .3 (see the trainer's EM test)
    m = UnigramModel(["<unk>", "▁", "a", "b", "▁a", "ab", "▁ab"],
                     [0, math.log(.1), math.log(.1), math.log(.1), math.log(.2), math.log(.2), math.log(.3)],
                     special=["<unk>"])
    alpha = 0.5
    weights = {("▁", "a", "b"): .001, ("▁a", "b"): .02, ("▁", "ab"): .02, ("▁ab",): .3}
    z = sum(w ** alpha for w in weights.values())
    rng_seeds = range(4000)
    seen = Counter(tuple(t.raw for t in m.sample("ab", alpha, seed=s).tokens) for s in rng_seeds)
    for seg, w in weights.items():
        assert seen[seg] / 4000 == pytest.approx(w ** alpha / z, abs=0.03)
    # same seed, same sample; a huge alpha is Viterbi
    assert m.sample("ab ab", 0.3, seed=9).ids == m.sample("ab ab", 0.3, seed=9).ids
    assert m.sample("ab", 200.0, seed=1).ids == m.encode("ab").ids
    with pytest.raises(TokvizError):
        m.sample("ab", -1.0)


def test_lattice_is_plain_data_with_every_arc():
    m = UnigramModel(["<unk>", "▁", "a", "b", "▁a", "ab", "▁ab"], [0, -2.3, -2.3, -2.3, -1.6, -1.6, -1.2],
                     special=["<unk>"])
    lat = m.lattice("ab")
    assert lat.symbols == ("▁", "a", "b")
    assert sorted((a.start, a.end, a.piece) for a in lat.arcs) == [
        (0, 1, "▁"), (0, 2, "▁a"), (0, 3, "▁ab"), (1, 2, "a"), (1, 3, "ab"), (2, 3, "b")]
    assert lat.path_pieces(lat.viterbi) == ["▁ab"]
    # ▁a|b and ▁|ab tie: the longer last piece first, as Viterbi breaks ties
    assert [lat.path_pieces(p) for p, _ in lat.nbest(10)] == [["▁ab"], ["▁", "ab"], ["▁a", "b"], ["▁", "a", "b"]]
    rng = random.Random(0)
    assert "".join(lat.path_pieces(lat.sample(1.0, rng))) == "▁ab"
