"""The Train panel's Jamo option: the trainer gets the corpus as it is and a config that says jamo (it
decomposes the distinct words it counts), while the lecture views still follow decomposed lines."""

from __future__ import annotations

import pytest

from tests.support.train_panel import TEXT, core_steps, open_train_panel
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.jamo import decompose, decompose_lines, has_jamo, has_syllables
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.views import SPEEDS


class RecordingTrainer(BPETrainer):
    """The core trainer, keeping the config and the lines each run was given."""

    runs: list = []

    def run(self, lines, **kwargs):
        lines = list(lines)
        RecordingTrainer.runs.append((self.config, lines))
        yield from super().run(lines, **kwargs)


@pytest.fixture
def panel(qtbot):
    panel = open_train_panel(qtbot)
    RecordingTrainer.runs = []
    panel.trainer_factory = RecordingTrainer
    panel.set_source(CorpusSource.paste(TEXT))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("char"))
    panel.merges_spin.setValue(30)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    yield panel
    panel.window().close()


@pytest.mark.parametrize("jamo", [True, False])
def test_the_trainer_decomposes_and_the_views_follow_jamo(panel, qtbot, jamo):
    panel.jamo_check.setChecked(jamo)
    panel.start_training()
    panel.run_to_end()
    qtbot.waitUntil(lambda: panel.run is None and panel.corpus_facts is not None, timeout=20_000)
    config, lines = RecordingTrainer.runs[-1]
    assert config.jamo is jamo
    assert has_syllables("".join(lines)) and not has_jamo("".join(lines))  # the corpus as it is
    pieces = [s.new_piece for s in panel.replay.steps]
    assert any(has_jamo(p) for p in pieces) is jamo
    # the same merges as training on the decomposed corpus
    _, want = core_steps(TrainerConfig(mode="char", merges=30, min_frequency=config.min_frequency),
                         list(decompose_lines(lines)) if jamo else lines)
    assert pieces == [s.new_piece for s in want]
    # the followed lines and the counted words are decomposed, as the model reads them
    facts = panel.corpus_facts
    assert facts.index.line(0) == (decompose(lines[0]) if jamo else lines[0]).rstrip("\n")
    assert any(has_jamo(w) for w in facts.words) is jamo
