"""Property tests on arbitrary Unicode (astral, control, combining; no surrogates): spans tile, bytes
join to the text, character spans agree with byte spans, and ids equal the reference libraries'."""

from __future__ import annotations

import pytest
import sentencepiece
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.packages import mistral_model
from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder
from tokviz.core.encoding import char_byte_starts

# Every code point except surrogates (which cannot be UTF-8); weighted towards the interesting
# parts: Hangul syllables and jamo, emoji with their joiners and modifiers, controls, combining marks.
_interesting = st.sampled_from(
    list("안녕값똠뷁\u1100\u1161\u11a8\u200d\ufe0f\u20e3\u0301 \t\r\n\x00\x7f🇰🇷👍🏽👨👩▁")
)
TEXT = st.text(
    alphabet=st.one_of(st.characters(blacklist_categories=("Cs",)), _interesting), max_size=40,
)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def check_char_spans(enc) -> None:
    """Each token's character span is exactly the characters its bytes touch; partial iff a cut."""
    starts = char_byte_starts(enc.text)
    for tok in enc.tokens:
        if tok.byte_end > tok.byte_start:
            touched = [i for i in range(len(enc.text)) if starts[i] < tok.byte_end and starts[i + 1] > tok.byte_start]
            assert (tok.start, tok.end) == (touched[0], touched[-1] + 1)
        cut = tok.byte_start not in starts or tok.byte_end not in starts
        assert tok.partial == cut
        # Whole characters have a piece, unless a normalizer changed them: then byte-fallback pieces
        # keep SentencePiece's own alignment (the bytes they spell are not the text's bytes).
        if not tok.partial and tok.byte_end > tok.byte_start and tok.kind != "unknown" and enc.normalized_text is None:
            assert tok.piece is not None


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
@SETTINGS
@given(text=TEXT)
def test_byte_level_encoders_tile_and_round_trip(name, text, tokviz_tiktoken, tiktoken_own):
    encoder = tokviz_tiktoken[name]
    enc = encoder.encode(text)
    assert enc.ids == tiktoken_own[name].encode_ordinary(text)
    data = text.encode("utf-8")
    assert enc.joined_bytes() == data
    pos = 0
    for tok in enc.tokens:
        assert tok.byte_start == pos and tok.byte_end == pos + len(tok.bytes) and tok.bytes
        assert data[tok.byte_start:tok.byte_end] == tok.bytes
        pos = tok.byte_end
    assert pos == len(data)
    check_char_spans(enc)
    assert encoder.decode(enc.ids) == text


@pytest.fixture(scope="module")
def sp_models(tiny_unigram_model, tiny_fallback_model):
    out = {}
    for path in (mistral_model("tokenizer.model.v1"), tiny_unigram_model, tiny_fallback_model):
        out[path.name] = (SentencePieceEncoder(path), sentencepiece.SentencePieceProcessor(model_file=str(path)))
    return out


@pytest.mark.parametrize("model", ["tokenizer.model.v1", "tiny_unigram.model", "tiny_fallback.model"])
@SETTINGS
@given(text=TEXT)
def test_sentencepiece_spans_ordered_inside_the_text(model, text, sp_models):
    encoder, sp = sp_models[model]
    enc = encoder.encode(text)
    assert enc.ids == sp.encode(text)
    data = text.encode("utf-8")
    prev = 0
    for tok in enc.tokens:
        assert prev <= tok.byte_start <= tok.byte_end <= len(data)
        assert 0 <= tok.start <= tok.end <= len(text)
        prev = tok.byte_end
        if tok.kind == "byte_fallback" and tok.byte_end - tok.byte_start == 1:
            assert data[tok.byte_start:tok.byte_end] == tok.bytes
    check_char_spans(enc)
    if model == "tokenizer.model.v1":
        # identity normalizer + byte fallback: the spans cover every byte of the text
        assert b"".join(data[t.byte_start:t.byte_end] for t in enc.tokens) == data
