"""The Train panel's sample follows the training: at every step, lines of the whole corpus in which the
model at that step produces the new token, with the occurrences marked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.sample_follow import SampleIndex

DEMO = Path(__file__).resolve().parents[2] / "resources" / "corpora" / "demo.txt"


@pytest.fixture(scope="module")
def demo_lines():
    return DEMO.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("mode", ["char", "byte"])
def test_every_step_has_its_merge_visible(demo_lines, mode):
    trainer = BPETrainer(TrainerConfig(mode=mode, merges=300, min_frequency=2))
    steps = [e for e in trainer.run([line + "\n" for line in demo_lines]) if isinstance(e, MergeStep)]
    assert len(steps) == 300
    index = SampleIndex(demo_lines)
    for step in steps:
        model = trainer.model(step.step)
        hits = index.follow(step.new_bytes, step.token_id, model.encode, start_line=step.step * 7)
        assert hits, f"step {step.step} ({step.new_piece!r}) shows in no line"
        for hit in hits:
            encoding = model.encode(hit.text)
            marked = [(t.start, t.end) for t in encoding.tokens if t.id == step.token_id]
            assert list(hit.spans) == marked and marked
            assert step.new_bytes in hit.text.encode("utf-8")


def test_consecutive_steps_move_through_the_corpus():
    lines = [f"line {i} ab" for i in range(50)]
    index = SampleIndex(lines)
    assert index.lines_containing(b"ab", start_line=10, limit=3) == [10, 11, 12]
    assert index.lines_containing(b"ab", start_line=49, limit=3) == [49, 0, 1]


def test_short_lines_come_first_and_misses_are_empty():
    lines = ["x" * 300 + " ab", "ab", "zz"]
    index = SampleIndex(lines)

    class Enc:  # the byte model with no merges except "ab" -> 1000
        @staticmethod
        def encode(text):
            from tokviz.core.encoding import Encoding

            data, out, i = text.encode(), [], 0
            while i < len(data):
                if data[i:i + 2] == b"ab":
                    out.append((1000, b"ab"))
                    i += 2
                else:
                    out.append((data[i], data[i:i + 1]))
                    i += 1
            return Encoding.from_byte_tokens("t", text, out)

    hits = index.follow(b"ab", 1000, Enc.encode, limit=2)
    assert [h.line for h in hits] == [1, 0]
    assert index.follow(b"qq", 1000, Enc.encode) == []
    assert index.follow(b"", 1000, Enc.encode) == []
    assert SampleIndex([]).follow(b"ab", 1000, Enc.encode) == []


def test_a_failing_line_is_skipped():
    index = SampleIndex(["ab", "ab"])

    def encode(text):
        raise ValueError("cannot")

    assert index.follow(b"ab", 1, encode) == []


def test_lines_read_back_as_given_without_their_line_breaks():
    lines = ["안녕 😀\r\n", "", "a\rb\n", "\ud800 lone surrogate", "👨\u200d👩\u200d👧 끝\n"]
    index = SampleIndex(lines)
    assert len(index) == 5
    assert [index.line(i) for i in range(5)] == [ln.rstrip("\r\n") for ln in lines]
    assert index.text(2, 4) == "a\rb\n\ud800 lone surrogate"
    assert index.text(4, 9) == "👨\u200d👩\u200d👧 끝"  # past the end: to the last line
    assert len(SampleIndex(iter(lines), max_lines=2)) == 2


def test_a_big_corpus_index_holds_no_container_the_cycle_collector_walks():
    # The index is built in one of the app's threads while the GUI thread runs the cycle collector:
    # a list of a big corpus's lines cost every young collection 40-50 ms (1.3M lines).
    import gc

    index = SampleIndex(f"줄 {i}\n" for i in range(50_000))
    assert index.line(49_999) == "줄 49999"
    walked = {name: len(gc.get_referents(value)) for name, value in vars(index).items() if gc.is_tracked(value)}
    assert all(n < 100 for n in walked.values()), walked  # a list of the lines: 50,000
