"""A Compare panel for tests: a toy encoder (fails on digits, or sleeps for cancel tests), a session with
the OpenAI encoders loaded once per process and the demo SentencePiece model, and a shown panel with rows."""

from __future__ import annotations

import time

from tokviz import resources_dir
from tokviz.core.encoders import tiktoken_family
from tokviz.core.encoders.registry import Registry
from tokviz.core.encoders.sentencepiece_family import SentencePieceEncoder
from tokviz.core.encoding import Encoding
from tokviz.ui.compare.panel import ComparePanel
from tokviz.ui.session import Session
from tokviz.ui.settings import Settings

TEXT = "안녕하세요 world! 👋🏽 1234"
DEMO_SP = resources_dir() / "models" / "demo_unigram.model"


class Toy:
    """A byte-per-token encoder that fails on digits, or sleeps per text (for cancel)."""

    family, source, byte_level, vocab_size = "toy", "test", True, 256

    def __init__(self, name="toy", fail_on_digits=True, delay=0.0):
        self.name = name
        self.fail_on_digits = fail_on_digits
        self.delay = delay
        self.calls = 0

    def encode(self, text, *, allow_special=False):
        self.calls += 1
        if self.delay:
            time.sleep(self.delay)
        if self.fail_on_digits and any(c.isdigit() for c in text):
            raise RuntimeError("digits are not supported")
        return Encoding.from_byte_tokens(self.name, text, [(b, bytes([b])) for b in text.encode()])

    def decode(self, ids):
        return bytes(ids).decode("utf-8", "replace")

    def special_tokens(self):
        return {}

    def token_bytes(self, token_id):
        return bytes([token_id])


_CACHE: dict = {}


def openai_encoder(name):
    if name not in _CACHE:
        _CACHE[name] = tiktoken_family.load(name)
    return _CACHE[name]


def compare_session() -> Session:
    """The OpenAI encoders (loaded once per process) and the demo SentencePiece model, with throwaway settings."""
    reg = Registry()
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        reg.add(openai_encoder(name))
    reg.add(SentencePieceEncoder(DEMO_SP, name="sp:demo_unigram"))
    return Session(registry=reg, settings=Settings.ephemeral())


def make_panel(qtbot, session, names, text=TEXT):
    panel = ComparePanel(session, encoders=names)
    qtbot.addWidget(panel)
    panel.resize(1200, 800)
    panel.show()
    with qtbot.waitSignal(panel.rowsUpdated, timeout=20000):
        panel.set_text(text)
        panel.refresh_now()
    return panel
