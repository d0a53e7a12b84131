"""The Unigram trainer: EM worked out by hand, the protocol, bad input, cancel."""

from __future__ import annotations

import math

import pytest

from tests.support.mixed_corpus import mixed_lines
from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.training import Finished, Progress, StepEvent
from tokviz.core.training.factory import Trainer
from tokviz.core.unigram.events import EMStep, FinalStep, PruneStep
from tokviz.core.unigram.seeds import script_of
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer


def test_first_em_iteration_by_hand():
    # Ten lines "ab": one word ▁ab with count 10. Seeds: the characters ▁ a b (count 10 each) and the
    # substrings ▁a, ab (count 10, score 10 x 2 = 20) and ▁ab (10 x 3 = 30); the scores sum to 100, so
    # p(▁) = p(a) = p(b) = .1, p(▁a) = p(ab) = .2, p(▁ab) = .3.
    # Segmentations of ▁ab: ▁|a|b .001, ▁a|b .02, ▁|ab .02, ▁ab .3; Z = .341.
    # Expected counts (x 10 occurrences): ▁ab 3/.341, ▁a .2/.341, ab .2/.341, ▁ .21/.341, b .21/.341,
    # a .01/.341 = 0.029 < 0.5, so the M-step drops a.
    from scipy.special import digamma as exact_digamma  # here: scipy costs every worker ~0.6 s to import

    t = UnigramTrainer(UnigramConfig(vocab_size=9))
    events = list(t.run(["ab\n"] * 10))
    em1 = next(e for e in events if isinstance(e, EMStep))
    assert em1.step == 1 and em1.round == 0 and em1.iteration == 1
    assert em1.log_likelihood == pytest.approx(10 * math.log(0.341))
    assert [(r.piece, r.reason) for r in em1.removed] == [("a", "low_expected_count")]
    assert em1.removed[0].value == pytest.approx(10 * 0.001 / 0.341)
    expected = {"▁ab": 3 / .341, "▁a": .2 / .341, "ab": .2 / .341, "▁": .21 / .341, "b": .21 / .341}
    total = sum(expected.values())
    m = t.model(1)
    got = {p: m.score(m.token_id(p)) for p in expected}
    for p, c in expected.items():  # M-step: digamma(count) - digamma(sum of counts)
        assert got[p] == pytest.approx(exact_digamma(c) - exact_digamma(total), rel=1e-9)
    assert "a" not in m.pieces
    # the required character a comes back at the end
    final = t.model()
    assert "a" in final.pieces and isinstance(events[-2], FinalStep) and "a" in events[-2].readded


def test_runs_to_the_vocabulary_size_with_events():
    t = UnigramTrainer(UnigramConfig(vocab_size=300))
    assert isinstance(t, Trainer) and t.algorithm == "unigram"
    events = list(t.run(mixed_lines()))
    steps = [e for e in events if not isinstance(e, (Progress, Finished))]
    assert [e.step for e in steps] == list(range(1, len(steps) + 1))
    assert all(isinstance(e, StepEvent) and e.description for e in steps)
    # every step counts as the model does, meta pieces included: EM and pruning steps said 3 fewer,
    # so the Train panel's size plot jumped by 3 at the final step
    assert [e.vocab_size for e in steps] == [t.model(e.step).vocab_size for e in steps]
    shrinking = [(prev, e) for prev, e in zip(steps, steps[1:], strict=False) if hasattr(e, "vocab_before")]
    assert all(e.vocab_before == prev.vocab_size for prev, e in shrinking)
    prunes = [e for e in steps if isinstance(e, PruneStep)]
    assert prunes and all(p.vocab_size < p.vocab_before for p in prunes)
    for p in prunes:  # about a quarter goes each round, the smallest losses first among the "loss" ones
        assert p.vocab_size >= int(0.75 * p.vocab_before)
        losses = [r.value for r in p.removed if r.reason == "loss"]
        assert losses == sorted(losses)
        if losses and p.kept_loss_min is not None:
            assert max(losses) <= p.kept_loss_min
    ems = [e for e in steps if isinstance(e, EMStep)]
    assert ems[1].log_likelihood > ems[0].log_likelihood  # EM raises the likelihood within a round
    assert events[-1] == t.finished and t.finished.reason == "merges"
    model = t.model()
    assert isinstance(model, Encoder) and model.vocab_size == 300
    assert model.pieces[:3] == ["<unk>", "<s>", "</s>"]
    # every character of the corpus stays in the vocabulary
    chars = {c for line in mixed_lines() for c in line if not c.isspace()}
    assert chars <= set(model.pieces)
    # intermediate models are usable too
    assert t.model(1).encode("정말 재밌다").tokens


def test_pieces_never_cross_words_or_scripts():
    t = UnigramTrainer(UnigramConfig(vocab_size=300))
    list(t.run(mixed_lines()))
    for p in t.model().pieces[3:]:
        assert "▁" not in p[1:]
        scripts = {script_of(c) for c in p if c != "▁"} - {"Inherited"}
        assert len(scripts) <= 1, p


def test_empty_corpus_and_too_small_vocabulary():
    with pytest.raises(CorpusError):
        list(UnigramTrainer(UnigramConfig(vocab_size=100)).run(["  \n", "\n"]))
    with pytest.raises(TokvizError, match="smaller than"):
        list(UnigramTrainer(UnigramConfig(vocab_size=10)).run(mixed_lines(50)))
    with pytest.raises(TokvizError):
        UnigramTrainer(UnigramConfig(vocab_size=2))
    with pytest.raises(TokvizError):
        UnigramTrainer().model()


def test_cancel_inside_an_em_iteration():
    calls = {"n": 0, "em": False}

    def cancel():
        calls["n"] += 1
        # cancel on the 5th poll after the first EM step started: inside the E-step's level loop
        return calls["em"] and calls["n"] > 5

    t = UnigramTrainer(UnigramConfig(vocab_size=300))
    events = []
    for e in t.run(mixed_lines(), cancel=cancel):
        events.append(e)
        if isinstance(e, Progress) and e.phase == "indexing" and e.done == e.total:
            calls["em"], calls["n"] = True, 0
    assert isinstance(events[-1], Finished) and events[-1].reason == "cancelled"
    assert not any(isinstance(e, EMStep) for e in events)  # it stopped inside the first iteration
    assert t.finished is events[-1]


def test_cancel_between_steps_keeps_the_model():
    t = UnigramTrainer(UnigramConfig(vocab_size=300))
    stop = {"now": False}
    for e in t.run(mixed_lines(), cancel=lambda: stop["now"]):
        if getattr(e, "step", None) == 3:
            stop["now"] = True
    assert t.finished.reason == "cancelled" and t.steps == 3
    assert t.model().encode("정말").ids
