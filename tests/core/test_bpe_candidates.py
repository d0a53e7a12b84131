"""The runners-up of each merge, recomputed from the model at the step before: the winner must be the
pair the trainer merged, with the trainer's own count, at the chosen steps of a real run (both modes):
the first, a spread, the last and the first ties."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.model import BPEModel
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.bpe_candidates import count_words, most_frequent, top_pairs

NSMC = Path(__file__).resolve().parents[1] / "data" / "nsmc_ko_600.txt"


def _lines():
    return NSMC.read_text(encoding="utf-8").splitlines(keepends=True)


def _steps_to_check(steps: list[MergeStep]) -> set[int]:
    """The steps worth recomputing (each recount encodes every word again, ~0.1 s): the first ones, the
    last, a spread between, and the first steps whose count the next merge repeats, which is where
    the trainer broke a tie, so the tie order is checked there."""
    tie_like = [k for k in range(1, len(steps)) if steps[k - 1].count == steps[k].count]
    return {1, 2, 3, len(steps)} | set(range(25, len(steps), 25)) | set(tie_like[:6])


@pytest.mark.parametrize("mode", ["byte", "char"])
def test_winner_is_the_trainers_merge_with_its_count_at_every_step(mode):
    config = TrainerConfig(mode=mode, merges=150, min_frequency=2)
    steps = [e for e in BPETrainer(config).run(_lines()) if isinstance(e, MergeStep)]
    assert len(steps) == 150
    words = count_words(config, _lines())
    model = BPEModel.growing(mode, config.pattern)
    checked = _steps_to_check(steps)
    ties = 0
    for k, step in enumerate(steps, start=1):
        if k in checked:  # the model still grows through every step, so each check sees the real step before
            cands = top_pairs(model, mode, words, k, limit=5)
            best = cands.pairs[0]
            assert (best.left_piece, best.right_piece, best.count) == (step.left_piece, step.right_piece, step.count), k
            if mode == "byte":  # char mode's growing model knows base pieces only once a merge used them
                assert (best.left, best.right) == (step.left, step.right)
            assert all(a.count >= b.count for a, b in zip(cands.pairs, cands.pairs[1:], strict=False))
            ties += cands.tied > 1
        model.grow_steps([step])
    assert ties >= 3  # the checked steps include ties, so the tie order was really checked


def test_cap_keeps_the_most_frequent_words_and_says_so():
    config = TrainerConfig(mode="char")
    words = count_words(config, _lines())
    kept = most_frequent(words, 100)
    assert len(kept) == 100 and min(kept.values()) >= sorted(words.values())[-100]
    cands = top_pairs(BPEModel.growing("char"), "char", kept, 1, words_total=len(words))
    assert cands.capped and cands.words_used == 100 and cands.words_total == len(words)


def test_tie_order_byte_smallest_ids_char_largest_strings():
    from collections import Counter

    byte = top_pairs(BPEModel.growing("byte", "none"), "byte", Counter({"ab": 1, "cd": 1}), 1)
    assert [(c.left_piece, c.right_piece) for c in byte.pairs] == [("a", "b"), ("c", "d")] and byte.tied == 2
    char = top_pairs(BPEModel.growing("char"), "char", Counter({"ab": 1, "cd": 1}), 1)
    assert [(c.left_piece, c.right_piece) for c in char.pairs] == [("c", "d</w>"), ("a", "b</w>")]
