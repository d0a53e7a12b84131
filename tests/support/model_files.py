"""Real tokenizer files read by tokviz once per test process, for the modules that only read them.

Llama 3's tokenizer.json takes about a second to open; several modules (the families, the vocabulary
and the parity tests) encode with it or read its merges, and xdist runs many modules in one worker.
Encoders are read-only (the special-token switch is set under a lock per call), and what is worked
out from one (its merges) is cached per encoder object, so sharing it changes no test's answer."""

from __future__ import annotations

import functools
from pathlib import Path


@functools.cache
def tokenizer_json_encoder(path: Path):
    """tokviz's tokenizer.json family encoder of ``path``, opened once per process."""
    from tokviz.core.encoders.hf_json import HFTokenizerEncoder

    return HFTokenizerEncoder.from_file(path)


@functools.cache
def tekkenizer(path: Path):
    """mistral-common's own Tekkenizer of a tekken.json, the reference tokviz's tekken reader is checked
    against, built once per process (it decodes all 131,072 tokens: 1.5-2 s). Only its encode and
    control-token lookups are used."""
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    return Tekkenizer.from_file(str(path))
