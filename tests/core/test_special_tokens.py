"""Special tokens cut out of a text before a model segments the rest."""

from __future__ import annotations

from tokviz.core.special_tokens import SpecialSpans
from tokviz.core.unigram.model import UnigramModel
from tokviz.core.wordpiece.model import WordPieceModel


def test_the_longer_special_wins_and_stretches_tile_the_text():
    s = SpecialSpans({"<|end": 7, "<|endoftext|>": 9})
    text = "a<|endoftext|><|end|>b"
    got = list(s.segments(text))
    assert got == [(0, 1, None), (1, 14, 9), (14, 19, 7), (19, 22, None)]
    assert "".join(text[a:b] for a, b, _ in got) == text


def test_no_specials_or_not_allowed_is_one_plain_stretch():
    assert list(SpecialSpans({}).segments("a [CLS]")) == [(0, 7, None)]
    assert list(SpecialSpans({"[CLS]": 2}).segments("a [CLS]", allow_special=False)) == [(0, 7, None)]
    assert list(SpecialSpans({"[CLS]": 2}).segments("")) == []


def test_wordpiece_and_unigram_models_cut_specials_the_same_way():
    wp = WordPieceModel(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a"])
    assert [t.kind for t in wp.encode("a[SEP]a", allow_special=True).tokens] == ["normal", "special", "normal"]
    assert wp.encode("[SEP]").ids != wp.encode("[SEP]", allow_special=True).ids
    ug = UnigramModel(["<unk>", "<s>", "</s>", "▁a", "a"], [0, 0, 0, -1, -1])
    assert [t.kind for t in ug.encode("a</s>a", allow_special=True).tokens] == ["normal", "special", "normal"]
