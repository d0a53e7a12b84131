"""Train a SentencePiece model (unigram or BPE) from tokviz, Qt-free.

The genuine ``sentencepiece`` trainer does the work; tokviz only chooses deterministic settings
(one thread, no sampling or shuffling of the input) so the same corpus and settings always give the
same model, writes the model atomically, and wraps it in the SentencePiece adapter.

The trainer releases the GIL while it runs, so a GUI can run it on a worker thread and stay
responsive. It cannot be interrupted half-way: a cancelled run is simply not used.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tokviz.core.atomic import write_atomic
from tokviz.core.errors import CorpusError, TokvizError

ModelType = Literal["unigram", "bpe"]

DEMO_MODEL_NAME = "demo_unigram"

# SentencePiece refuses sentences longer than this (in bytes) and skips them; tokviz cuts long lines
# at whitespace instead so a corpus of long paragraphs still trains.
MAX_SENTENCE_BYTES = 4192


@dataclass(frozen=True)
class SentencePieceConfig:
    """Training settings tokviz exposes (the rest are SentencePiece's defaults).

    ``character_coverage``: share of the corpus characters the model must cover with pieces of
    their own (0.9995 suits Korean/CJK, 1.0 small alphabets); rarer characters become ``<unk>``, or
    with ``byte_fallback`` their UTF-8 bytes ``<0xNN>``.
    """

    model_type: ModelType = "unigram"
    vocab_size: int = 2000
    character_coverage: float = 0.9995
    byte_fallback: bool = True

    def check(self) -> None:
        """Raise TokvizError with a clear message for settings the trainer would reject."""
        if self.model_type not in ("unigram", "bpe"):
            raise TokvizError(f"model type must be 'unigram' or 'bpe', not {self.model_type!r}")
        if not 20 <= self.vocab_size <= 1_000_000:
            raise TokvizError(f"vocabulary size {self.vocab_size} is out of range (20..1,000,000)")
        if self.byte_fallback and self.vocab_size < 260:
            raise TokvizError(
                f"with byte fallback the vocabulary needs the 256 byte pieces plus specials: "
                f"use a size of at least 260, not {self.vocab_size}"
            )
        if not 0.9 <= self.character_coverage <= 1.0:
            raise TokvizError(f"character coverage {self.character_coverage} is out of range (0.9..1.0)")

    def describe(self) -> str:
        return (
            f"{self.model_type}, vocab {self.vocab_size}, coverage {self.character_coverage:g}, "
            f"byte fallback {'on' if self.byte_fallback else 'off'}"
        )


def _sentences(lines: Iterable[str]) -> Iterable[str]:
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if len(line.encode("utf-8")) <= MAX_SENTENCE_BYTES:
            yield line
            continue
        chunk: list[str] = []
        size = 0
        for word in line.split():
            n = len(word.encode("utf-8")) + 1
            if size + n > MAX_SENTENCE_BYTES and chunk:
                yield " ".join(chunk)
                chunk, size = [], 0
            if n <= MAX_SENTENCE_BYTES:
                chunk.append(word)
                size += n
        if chunk:
            yield " ".join(chunk)


def train_model_bytes(lines: Iterable[str], config: SentencePieceConfig = SentencePieceConfig()) -> bytes:
    """Train on ``lines`` (one sentence each) and return the serialized model (``.model`` bytes).

    Raises CorpusError for an empty corpus or when SentencePiece rejects the corpus/settings
    (for example a vocabulary larger than the corpus can fill), with SentencePiece's reason.
    """
    import sentencepiece as spm

    config.check()
    sentences = list(_sentences(lines))
    if not sentences:
        raise CorpusError("the corpus has no text to train a SentencePiece model on")
    sink = io.BytesIO()
    try:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(sentences),
            model_writer=sink,
            model_type=config.model_type,
            vocab_size=config.vocab_size,
            character_coverage=config.character_coverage,
            byte_fallback=config.byte_fallback,
            # Determinism: one thread, every sentence, in corpus order.
            num_threads=1,
            input_sentence_size=0,
            shuffle_input_sentence=False,
            # Small corpora cannot always fill the asked vocabulary; a smaller model beats an error.
            hard_vocab_limit=False,
            minloglevel=2,
        )
    except RuntimeError as err:
        raise CorpusError(f"SentencePiece could not train on this corpus: {_trainer_reason(err)}") from None
    data = sink.getvalue()
    if not data:
        raise CorpusError("SentencePiece produced no model")
    return data


def _trainer_reason(err: RuntimeError) -> str:
    # SentencePiece messages look like "Internal: src/trainer_interface.cc(661) [...] Vocabulary size
    # is too high (8000). Please set it to a value <= 5183."; keep the sentence a user can act on.
    msg = str(err).strip()
    if "] " in msg:
        msg = msg.rsplit("] ", 1)[1]
    return msg


def write_model(data: bytes, path: str | Path) -> Path:
    """Write model bytes atomically (temp file in the same folder, then rename)."""
    return write_atomic(path, data)


def trained_models_dir() -> Path:
    """Where models trained in the app are kept (``$XDG_DATA_HOME/tokviz/models``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "tokviz" / "models"


def load_encoder(path: str | Path, name: str | None = None):
    """The SentencePiece adapter for a ``.model`` file (named ``name``, default the file name)."""
    from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder

    return SentencePieceEncoder(path, name=name)


def train_sentencepiece(
    lines: Iterable[str],
    config: SentencePieceConfig = SentencePieceConfig(),
    *,
    name: str,
    folder: str | Path | None = None,
    display_name: str | None = None,
):
    """Train, save as ``<folder>/<name>.model`` and return the SentencePiece encoder for it
    (called ``display_name`` in the app, default the file name)."""
    data = train_model_bytes(lines, config)
    path = write_model(data, Path(folder or trained_models_dir()) / f"{name}.model")
    return load_encoder(path, display_name)


def demo_corpus_path() -> Path:
    from tokviz.core.package_data import resources_dir

    return resources_dir() / "corpora" / "demo.txt"


DEMO_CONFIG = SentencePieceConfig(model_type="unigram", vocab_size=2000, character_coverage=0.9995, byte_fallback=True)


def train_demo_model(corpus: str | Path | None = None, out: str | Path | None = None) -> Path:
    """Regenerate ``resources/models/demo_unigram.model`` from the demo corpus (deterministic:
    the same corpus gives the same bytes). Run ``python -m tokviz.core.encoders.sentencepiece_train``."""
    corpus = Path(corpus) if corpus else demo_corpus_path()
    try:
        text = corpus.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CorpusError(f"{corpus}: cannot read the demo corpus ({err})") from None
    if out is None:
        from tokviz.core.package_data import resources_dir

        out = resources_dir() / "models" / f"{DEMO_MODEL_NAME}.model"
    return write_model(train_model_bytes(text.splitlines(), DEMO_CONFIG), out)


if __name__ == "__main__":
    print(train_demo_model())
