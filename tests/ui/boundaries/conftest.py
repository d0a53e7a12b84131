"""The encoder families of the core boundary tests (SentencePiece, tokenizer.json, GGUF, tokviz's own BPE),
for the panel's jobs."""

from tests.core.boundaries.test_families import family  # noqa: F401 - a fixture, shared
