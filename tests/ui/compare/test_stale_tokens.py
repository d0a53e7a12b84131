"""Compare never shows tokens of an older model: the Train panel offers a new model at every step and
after every Reset, under a name an earlier run used too; a cache keyed by ``id(encoder)`` served the
tokens of a freed model whose id the new one reused."""

from __future__ import annotations

import gc

from tokviz.core.encoders.registry import Registry
from tokviz.core.encoding import Encoding
from tokviz.ui.compare.jobs import OutcomeCache
from tokviz.ui.compare.panel import ComparePanel
from tokviz.ui.session import Session
from tokviz.ui.settings import Settings

NAME = "tokviz BPE (step 5)"
TEXT = "a short text: no paragraph cache"


class StepModel:
    """One run's model at step 5: one token per byte, its ids tell the run apart. Small and plain,
    so that a freed one's memory (and id) goes to the next at once."""

    family, source, byte_level, vocab_size = "tokviz", "test", False, 256

    def __init__(self, run: int):
        self.name = NAME
        self.run = run

    def encode(self, text, *, allow_special=False):
        base = 1000 * self.run
        return Encoding.from_byte_tokens(self.name, text, [(base + b, bytes([b])) for b in text.encode()])

    def decode(self, ids):
        return bytes(i % 1000 for i in ids).decode("utf-8", "replace")

    def special_tokens(self):
        return {}

    def token_bytes(self, token_id):
        return bytes([token_id % 1000])


def test_every_run_shows_its_own_model_even_when_ids_are_reused(qtbot):
    session = Session(registry=Registry(), settings=Settings.ephemeral())
    session.offer_trained_model(StepModel(0))
    panel = ComparePanel(session, encoders=[NAME])
    qtbot.addWidget(panel)
    panel.show()
    seen_ids = set()
    reused = 0
    # No gc.collect() between runs: the model is freed by its last reference going, and a full collection
    # (slow in a big test process) churns memory enough that ids were reused far less often. Runs stop
    # once a few of them reused a freed model's id: each such run is one the id-keyed cache got wrong.
    for run in range(1, 120):
        if reused >= 3:
            break
        session.offer_trained_model(None)  # Reset: the model is withdrawn ...
        model = StepModel(run)  # ... and the next run offers its step 5 under the same name
        reused += id(model) in seen_ids
        seen_ids.add(id(model))
        with qtbot.waitSignal(panel.rowsUpdated, timeout=20_000):
            session.offer_trained_model(model)
            del model
            panel.set_text(TEXT)
            panel.refresh_now()
        row = panel.view.rows[0].data
        assert row.name == NAME and row.encoding is not None
        assert {i // 1000 for i in row.encoding.ids} == {run}, f"run {run} shows tokens of an older model"
    assert reused > 0  # the situation the bug needs did happen


def test_the_cache_lets_go_of_a_model_that_is_gone():
    cache = OutcomeCache()
    model = StepModel(1)
    cache.put(NAME, model, TEXT, "outcome")
    assert len(cache) == 1 and cache.get(NAME, model, TEXT) == "outcome"
    assert cache.get(NAME, model, "another text") is None
    del model
    gc.collect()
    assert len(cache) == 0 and cache.names_with(TEXT) == set()
