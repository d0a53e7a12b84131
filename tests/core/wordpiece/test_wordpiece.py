"""WordPiece: the trainer against a naive reference, the encoder against HF tokenizers' WordPiece."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer
from tokenizers.models import WordPiece
from tokenizers.pre_tokenizers import BertPreTokenizer

from tests.support.mixed_corpus import HELD_OUT, mixed_lines
from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.training import Finished
from tokviz.core.training.factory import Trainer
from tokviz.core.wordpiece.model import SPECIALS, WordPieceModel, bert_words
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceStep, WordPieceTrainer


def naive_wordpiece(text: str, vocab_size: int) -> list[tuple[str, str, str]]:
    """The rule written out plainly: recount everything before every merge."""
    words = Counter(bert_words(text))
    seqs = {w: [w[0]] + ["##" + c for c in w[1:]] for w in words}
    vocab = list(SPECIALS) + sorted({s for seq in seqs.values() for s in seq})
    merges = []
    while len(vocab) < vocab_size:
        sym, pairs = Counter(), Counter()
        for w, seq in seqs.items():
            for s in seq:
                sym[s] += words[w]
            for p in itertools.pairwise(seq):
                pairs[p] += words[w]
        if not pairs:
            break
        # largest score, then largest count, then smallest (a, b)
        (a, b) = min(pairs, key=lambda p: (-pairs[p] / (sym[p[0]] * sym[p[1]]), -pairs[p], p))
        new = a + b[2:]
        merges.append((a, b, new))
        if new not in vocab:
            vocab.append(new)
        for w, seq in seqs.items():
            out, i = [], 0
            while i < len(seq):
                if i + 1 < len(seq) and seq[i] == a and seq[i + 1] == b:
                    out.append(new)
                    i += 2
                else:
                    out.append(seq[i])
                    i += 1
            seqs[w] = out
    return merges


def train(lines, vocab_size):
    t = WordPieceTrainer(WordPieceConfig(vocab_size=vocab_size))
    events = list(t.run(lines))
    return t, events


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcab가나다!. ", min_size=1, max_size=30), min_size=1, max_size=12),
       st.integers(min_value=0, max_value=40))
def test_merges_equal_the_naive_rule(lines, extra):
    text = "\n".join(lines)
    if not bert_words(text):
        return
    base = len(SPECIALS) + len({w[0] for w in bert_words(text)} | {"##" + c for w in bert_words(text) for c in w[1:]})
    _t, events = train([text], base + extra)
    ours = [(e.left, e.right, e.new_piece) for e in events if isinstance(e, WordPieceStep)]
    assert ours == naive_wordpiece(text, base + extra)


def test_merges_equal_the_naive_rule_on_mixed_text():
    lines = mixed_lines(150)
    _t, events = train(lines, 700)
    ours = [(e.left, e.right, e.new_piece) for e in events if isinstance(e, WordPieceStep)]
    assert ours == naive_wordpiece("".join(lines), 700)
    step = next(e for e in events if isinstance(e, WordPieceStep))
    assert step.score == step.pair_count / (step.left_count * step.right_count)
    assert str(step.pair_count) in step.description and step.step == 1


def test_events_vocabulary_and_protocol():
    t, events = train(mixed_lines(), 600)
    assert isinstance(t, Trainer) and t.algorithm == "wordpiece"
    steps = [e for e in events if isinstance(e, WordPieceStep)]
    assert [e.step for e in steps] == list(range(1, len(steps) + 1))
    assert isinstance(events[-1], Finished) and events[-1].reason == "merges"
    vocab = t.vocab
    assert len(vocab) == 600 and vocab[:5] == list(SPECIALS)
    assert vocab[5:5 + t.alphabet_size] == sorted(vocab[5:5 + t.alphabet_size])
    learned = list(dict.fromkeys(e.new_piece for e in steps))
    assert vocab[5 + t.alphabet_size:] == learned
    model = t.model()
    assert isinstance(model, Encoder) and model.vocab_size == 600
    assert t.model(3).vocab_size == 5 + t.alphabet_size + len(dict.fromkeys(e.new_piece for e in steps[:3]))


@pytest.mark.parametrize("text", HELD_OUT + ["[CLS] 🇰🇷👍🏽 don't stop-me now!!", "a" * 120 + " ok", ""])
def test_encoder_equals_hf_wordpiece(text):
    t, _ = train(mixed_lines(), 700)
    model = t.model()
    hf = Tokenizer(WordPiece({p: i for i, p in enumerate(model.vocab)}, unk_token="[UNK]",
                             max_input_chars_per_word=100))
    hf.pre_tokenizer = BertPreTokenizer()
    assert model.encode(text).ids == hf.encode(text, add_special_tokens=False).ids
    enc = model.encode(text)
    data = text.encode("utf-8")
    for tok in enc.tokens:
        assert tok.bytes == data[tok.byte_start:tok.byte_end]
        if tok.kind == "normal":
            assert tok.bytes == model.token_bytes(tok.id)


def test_bad_input_and_cancel():
    with pytest.raises(CorpusError):
        train([" \n", "\t\n"], 100)
    with pytest.raises(TokvizError, match="smaller than"):
        train(mixed_lines(50), 20)
    with pytest.raises(TokvizError):
        WordPieceTrainer(WordPieceConfig(vocab_size=3))
    t = WordPieceTrainer(WordPieceConfig(vocab_size=900))
    stop = {"now": False}
    events = []
    for e in t.run(mixed_lines(), cancel=lambda: stop["now"]):
        events.append(e)
        if isinstance(e, WordPieceStep) and e.step == 4:
            stop["now"] = True
    assert events[-1].reason == "cancelled" and events[-1].merges == 4
    made = {e.new_piece for e in events if isinstance(e, WordPieceStep)}
    assert t.model().vocab_size == 5 + t.alphabet_size + len(made)


def test_exhausted_when_every_word_is_one_token():
    t, events = train(["ab ab\n"], 100)
    assert events[-1].reason == "exhausted" and t.vocab[-1] == "ab"
    assert WordPieceModel(t.vocab).encode("ab abc").ids == [t.vocab.index("ab"), 1]


@pytest.mark.parametrize("text", [
    "a" * 301,  # every merge overlaps itself: aaaa -> aa aa, left to right
    "ab" * 150 + "a" + " abab aab",
    "# ## ### #a# a##",  # '#' + '###' makes '##', and '##' + '##a' makes '##a', an existing continuation
    "bxyxyxyc" + " bc" * 20,  # ##xy ##xy ##xy, formed by a merge, merges left to right: ##xyxy ##xy
])
def test_merges_equal_the_naive_rule_on_repeats_and_hashes(text):
    words = bert_words(text)
    base = len(SPECIALS) + len({w[0] for w in words} | {"##" + c for w in words for c in w[1:]})
    _t, events = train([text], base + 60)
    ours = [(e.left, e.right, e.new_piece) for e in events if isinstance(e, WordPieceStep)]
    assert ours == naive_wordpiece(text, base + 60)


def test_one_long_word_merges_where_the_pair_is():
    # a long word holding many pairs once each: every merge must touch only its own places
    rng = random.Random(7)
    word = "".join(rng.choice("가나다라마바사아자차카타파하") for _ in range(4000))
    base = len(SPECIALS) + len({word[0]} | {"##" + c for c in word[1:]})
    _t, events = train([word], base + 150)
    ours = [(e.left, e.right, e.new_piece, e.pair_count) for e in events if isinstance(e, WordPieceStep)]
    assert [m[:3] for m in ours] == naive_wordpiece(word, base + 150)
    assert len(ours) == 150
