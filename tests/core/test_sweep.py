"""Vocabulary-size sweep: a point of the one long run equals a model trained for that size alone, on
the same held-out text; production encoders as points; requests that cannot be met; cancel."""

from __future__ import annotations

import pytest

from tokviz import resources_dir
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.errors import TokvizError
from tokviz.core.sweep import run_sweep
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer

CORPUS = resources_dir() / "corpora" / "demo.txt"


@pytest.fixture(scope="module")
def heldout(tmp_path_factory):
    folder = resources_dir() / "parallel"
    text = "".join((folder / f"{lang}.txt").read_text(encoding="utf-8") for lang in ("en", "ko", "ja"))
    path = tmp_path_factory.mktemp("sweep") / "heldout.txt"
    path.write_text(text, encoding="utf-8")
    return path


def trained_alone(trainer):
    for _ in trainer.run(CORPUS.read_text(encoding="utf-8").splitlines(keepends=True)):
        pass
    return trainer.model()


@pytest.mark.parametrize("mode, merges", [("byte", [40, 300, 700]), ("char", [0, 25, 400])])
def test_a_bpe_point_equals_a_model_trained_with_that_many_merges(heldout, mode, merges):
    result = run_sweep(CORPUS, heldout, algorithm="bpe", mode=mode, merges=merges)
    assert [p.merges for p in result.points] == merges and result.stopped_early is None
    text = heldout.read_text(encoding="utf-8")
    middle = result.points[1]
    alone = trained_alone(BPETrainer(TrainerConfig(mode=mode, merges=merges[1])))
    assert middle.stats.tokens == len(alone.encode(text))
    assert middle.vocab_size == alone.vocab_size
    assert middle.stats.characters == len(text)
    tokens = [p.stats.tokens for p in result.points]
    assert tokens == sorted(tokens, reverse=True)  # more merges, fewer tokens


def test_byte_vocabulary_sizes_are_256_plus_merges(heldout):
    result = run_sweep(CORPUS, heldout, algorithm="bpe", vocab_sizes=[300, 256])
    assert [(p.merges, p.vocab_size) for p in result.points] == [(0, 256), (44, 300)]
    assert result.points[0].as_json()["chars"] == len(heldout.read_text(encoding="utf-8"))


def test_a_wordpiece_point_equals_a_model_trained_to_that_size(heldout):
    result = run_sweep(CORPUS, heldout, algorithm="wordpiece", vocab_sizes=[1300, 1600])
    alone = trained_alone(WordPieceTrainer(WordPieceConfig(vocab_size=1300)))
    point = result.points[0]
    assert point.vocab_size == alone.vocab_size == 1300
    assert point.stats.tokens == len(alone.encode(heldout.read_text(encoding="utf-8")))


def test_unigram_trains_per_size_and_a_size_below_the_alphabet_is_an_error_point(heldout):
    result = run_sweep(CORPUS, heldout, algorithm="unigram", vocab_sizes=[10, 1000])
    small, ok = result.points
    assert small.error is not None and "at least" in small.error
    assert ok.error is None and ok.vocab_size == 1000 and ok.stats.tokens > 0
    assert "error" in small.as_json() and "tokens" in ok.as_json()


def test_production_encoders_are_points_with_their_own_counts(heldout):
    enc = default_registry().get("cl100k_base")
    result = run_sweep(CORPUS, heldout, algorithm="bpe", merges=[10], encoders=[enc])
    (point,) = result.encoders
    assert point.vocab_size == enc.vocab_size
    assert point.stats.tokens == len(enc.tiktoken.encode_ordinary(heldout.read_text(encoding="utf-8")))
    assert result.as_json()["encoders"][0]["label"] == "cl100k_base"


def test_training_that_stops_early_says_so(tmp_path, heldout):
    corpus = tmp_path / "tiny.txt"
    corpus.write_text("ab ab ab\n", encoding="utf-8")
    result = run_sweep(corpus, heldout, algorithm="bpe", mode="char", merges=[1, 50])
    assert result.stopped_early and "no pair left" in result.stopped_early
    assert result.points[-1].requested == 50 and result.points[-1].merges < 50


@pytest.mark.parametrize("kwargs, message", [
    ({"algorithm": "wordpiece", "merges": [10]}, "vocabulary sizes, not merges"),
    ({"algorithm": "bpe", "mode": "char", "vocab_sizes": [500]}, "give merges"),
    ({"algorithm": "bpe", "vocab_sizes": [100]}, "256 bytes"),
    ({"algorithm": "bpe"}, "one of the two"),
    ({"algorithm": "bpe", "merges": [-1]}, "0 or more"),
    ({"algorithm": "bpe2", "merges": [1]}, "unknown algorithm"),
])
def test_requests_that_cannot_be_met_fail_before_training(heldout, kwargs, message):
    with pytest.raises(TokvizError, match=message):
        run_sweep(CORPUS, heldout, **kwargs)


class NeverUsed:
    name = "never used"

    def encode(self, text, *, allow_special=False):
        raise AssertionError("a cancelled sweep measures no encoder")


class Cancelled:
    def is_cancelled(self) -> bool:
        return True

    def progress(self, done, total, result) -> None:
        pass


def test_cancel_stops_with_no_points(heldout):
    result = run_sweep(CORPUS, heldout, algorithm="bpe", merges=[10, 20], state=Cancelled(),
                       encoders=[NeverUsed()])
    assert result.cancelled and result.points == [] and result.encoders == []


class CancelAfterFirstPoint:
    def __init__(self):
        self.result = None

    def is_cancelled(self) -> bool:
        return self.result is not None and len(self.result.points) >= 1

    def progress(self, done, total, result) -> None:
        self.result = result


def test_cancel_while_measuring_keeps_the_points_so_far(heldout):
    result = run_sweep(CORPUS, heldout, algorithm="bpe", merges=[10, 20, 30], state=CancelAfterFirstPoint(),
                       encoders=[NeverUsed()])
    assert result.cancelled and [p.merges for p in result.points] == [10] and result.encoders == []


def test_a_cancelled_encoder_point_is_not_cached(tmp_path):
    from tokviz.core.sweep import encoder_point, measure_text_file

    fresh = tmp_path / "fresh.txt"  # a file no other test measured: nothing cached for it yet
    fresh.write_text("새 파일\n", encoding="utf-8")
    assert measure_text_file(len, fresh, cancel=lambda: True) is None
    enc = default_registry().get("cl100k_base")
    assert encoder_point(enc, fresh, cancel=lambda: True) is None
    assert encoder_point(enc, fresh).stats.tokens == len(enc.encode("새 파일\n"))
    assert encoder_point(enc, fresh, cancel=lambda: True) is not None  # now cached: nothing left to cancel
