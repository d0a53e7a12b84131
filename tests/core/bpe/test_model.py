"""Encoding with learned merges: by rank like tiktoken (byte), like apply_bpe (char); dropout; trees."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.corpora import code_text, emoji_text, english_text, korean_text, single_spaced
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.model import BPEModel
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import InvalidTextError, TokvizError
from tokviz.core.pretokenize import PATTERNS

MIXED = korean_text(300) + english_text()[:4000] + code_text()[:4000] + emoji_text(100)
SAMPLES = [
    "안녕하세요, 영화 정말 재밌었어요!! 10점 만점에 10점 👍🏽👨‍👩‍👧‍👦",
    "def f(x):\n    return x ** 2  # it's fine\n\n\n   \t",
    "The quick brown fox — isn't it? I'll go; we've been there.  \n",
    "🇰🇷🇰🇷 ㅋㅋㅋㅋ 大家好 ﷽ e\u0301 \u200d\u200d",
    "",
    " ",
    "\n\n\n",
]


def trained(mode: str, merges: int = 400, **cfg) -> BPEModel:
    t = BPETrainer(TrainerConfig(mode=mode, merges=merges, min_frequency=2, **cfg))
    text = MIXED if mode == "byte" else single_spaced(MIXED)
    for _ in t.run([text]):
        pass
    return t.model()


@pytest.fixture(scope="module")
def byte_model() -> BPEModel:
    return trained("byte")


@pytest.fixture(scope="module")
def char_model() -> BPEModel:
    return trained("char")


def test_is_an_encoder(byte_model, char_model):
    for m in (byte_model, char_model):
        assert isinstance(m, Encoder)
        assert m.family == "tokviz-bpe" and m.name == "tokviz BPE (step 400)"
    assert byte_model.byte_level and not char_model.byte_level


@pytest.mark.parametrize("pattern", ["gpt2", "gpt4", "o200k"])
def test_byte_encoding_equals_tiktoken(pattern):
    import tiktoken

    m = trained("byte", 300, pattern=pattern)
    tt = tiktoken.Encoding(f"t-{pattern}", pat_str=PATTERNS[pattern], mergeable_ranks=m.ranks(), special_tokens={})
    for text in SAMPLES + [MIXED[:20000]]:
        assert m.encode(text).ids == tt.encode_ordinary(text), text[:40]


def test_byte_encoding_tiles_text(byte_model):
    for text in SAMPLES:
        enc = byte_model.encode(text)
        assert enc.round_trip_exact()
        assert byte_model.decode(enc.ids) == text


def test_char_encoding_equals_apply_bpe(char_model, tmp_path):
    from subword_nmt.apply_bpe import BPE

    from tokviz.core.bpe.formats import save_model

    codes = tmp_path / "codes.txt"
    save_model(char_model, codes, "subword-nmt")
    with codes.open(encoding="utf-8") as f:
        bpe = BPE(f)
    for line in single_spaced(MIXED).splitlines()[:300] + ["영화 재밌다", "unseen wörds ok"]:
        ref = bpe.process_line(line).split(" ")
        ours = []
        for word in _words_from_tokens(char_model.encode(line)):
            ours.extend(p + "@@" for p in word[:-1])
            ours.append(word[-1])
        assert ours == ref, line


def _words_from_tokens(enc):
    """Group char-mode tokens into words (a word ends with the token whose raw ends in </w>)."""
    words, cur = [], []
    for t in enc.tokens:
        cur.append(t.raw.removesuffix("</w>"))
        if t.raw.endswith("</w>"):
            words.append(cur)
            cur = []
    return words


def test_char_encoding_spans_and_unknown(char_model):
    text = "영화  재밌다\n☃"
    enc = char_model.encode(text)
    assert enc.tokens[0].byte_start == 0 and enc.tokens[0].start == 0
    assert all(text[t.start: t.end].strip() == text[t.start: t.end] for t in enc.tokens)  # no token covers a space
    assert enc.tokens[-1].kind == "unknown" and enc.tokens[-1].id == 0 and enc.tokens[-1].raw == "☃</w>"
    # whitespace is a gap: token bytes join to the text without its spaces
    assert b"".join(t.bytes for t in enc.tokens) == "영화재밌다☃".encode()
    assert char_model.decode(char_model.encode("영화 재밌다").ids) == "영화 재밌다"


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_byte_round_trip_any_unicode(text):
    m = _HYP_MODEL
    enc = m.encode(text)
    assert m.decode(enc.ids) == text
    assert enc.round_trip_exact()


@settings(max_examples=100, deadline=None)
@given(st.text(), st.integers(0, 2**32))
def test_dropout_zero_is_plain(text, seed):
    for m in (_HYP_MODEL, _HYP_CHAR):
        assert m.encode_dropout(text, 0.0, seed).ids == m.encode(text).ids


_HYP_MODEL = trained("byte", 200)
_HYP_CHAR = trained("char", 200)


def test_dropout_is_seeded_and_varies(byte_model, char_model):
    text = "영화 정말 재밌었어요 the quick brown fox " * 3
    for m in (byte_model, char_model):
        a = m.encode_dropout(text, 0.3, seed=1).ids
        assert a == m.encode_dropout(text, 0.3, seed=1).ids
        assert any(m.encode_dropout(text, 0.3, seed=s).ids != a for s in range(2, 8))
        assert len(m.encode_dropout(text, 0.3, seed=1)) >= len(m.encode(text))
    assert byte_model.encode_dropout("영화", 1.0, seed=0).ids == list("영화".encode())
    assert byte_model.decode(byte_model.encode_dropout(text, 0.5, seed=3).ids) == text
    with pytest.raises(TokvizError):
        byte_model.encode_dropout(text, 1.5)


def test_merge_tree_reaches_base_tokens(byte_model, char_model):
    def leaves(tree):
        tid, piece, left, right = tree
        if left is None:
            return [tid]
        return leaves(left) + leaves(right)

    for tid in range(256, byte_model.vocab_size):
        tree = byte_model.merge_tree(tid)
        assert b"".join(bytes([x]) for x in leaves(tree)) == byte_model.token_bytes(tid)
    top = char_model.merges[-1][2]
    tree = char_model.merge_tree(top)
    assert "".join(char_model.token_piece(x) for x in leaves(tree)) == char_model.token_piece(top)


def test_token_pieces_mark_partial_bytes(byte_model):
    assert byte_model.token_piece(0xEC) == "<0xEC>"
    assert byte_model.token_piece(ord("a")) == "a"
    with pytest.raises(TokvizError):
        byte_model.token_piece(10**6)


def test_lone_surrogate_is_invalid_text(byte_model, char_model):
    for m in (byte_model, char_model):
        with pytest.raises(InvalidTextError):
            m.encode("ok\ud83d")


def test_pattern_none_is_one_piece():
    m = BPEModel(mode="byte", pattern="none", merges=[(32, 97, 256)])
    assert m.encode("a a").ids == [97, 256]


def test_char_dropout_same_in_every_process(tmp_path):
    # set iteration order of strings changes with PYTHONHASHSEED; the seeded dropout must not
    import os
    import subprocess
    import sys

    from tokviz.core.bpe.formats import save_model

    path = tmp_path / "c.json"
    t = BPETrainer(TrainerConfig(mode="char", merges=300))
    for _ in t.run([single_spaced(korean_text(300))]):
        pass
    save_model(t.model(), path, "tokviz")
    code = (
        "import sys; from tokviz.core.bpe.formats import load_model; "
        "m = load_model(sys.argv[1]); "
        "print(m.encode_dropout('영화 정말 재밌었어요 최고의 배우 연기 스토리 지루하다 감동 다시 보고 싶다 ' * 3,"
        " 0.4, seed=5).ids)"
    )
    outs = set()
    for hashseed in ("1", "2", "3", "4"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        outs.add(subprocess.run([sys.executable, "-c", code, str(path)], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert len(outs) == 1
