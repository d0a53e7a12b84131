"""The lecture views' corpus facts read in a child process (a big corpus) equal the ones read in the
calling thread, a cancel ends the child at once, and a failure is a message. No Qt here."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.errors import TokvizError
from tokviz.core.jamo import decompose_lines
from tokviz.ui.train import corpus_facts as facts_reading
from tokviz.ui.train import follow
from tokviz.ui.train.corpus_facts import corpus_facts, read_in_child, source_lines

LINES = ["영화 정말 재밌어요 👍\n", "The movie was fine, 10/10\n", "def f(x):\n", "\treturn x  # 코드\n"] * 40


class Never:
    @staticmethod
    def is_cancelled() -> bool:
        return False


def same(a, b) -> None:
    assert len(a.index) == len(b.index) and a.index.text(0, len(a.index)) == b.index.text(0, len(b.index))
    assert a.words == b.words and list(a.words) == list(b.words) and a.words_total == b.words_total
    assert a.guesser.__dict__ == b.guesser.__dict__


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("facts") / "corpus.txt"
    path.write_text("".join(LINES), encoding="utf-8")
    return path


@pytest.mark.parametrize("mode,jamo", [("byte", False), ("char", True)])
def test_the_child_reads_the_same_facts_as_this_thread(corpus, mode, jamo):
    config = TrainerConfig(mode=mode, merges=10, jamo=jamo)
    lines = source_lines(corpus, None)
    here = corpus_facts(config, decompose_lines(lines) if jamo else lines, Never(), max_words=7)
    there = read_in_child(config, corpus, None, "strict", jamo, lambda: False, max_words=7)
    same(there, here)
    assert len(there.words) == 7 and there.words_total > 7  # capped the same way


def test_a_pasted_text_is_read_in_the_child_too():
    config = TrainerConfig(mode="byte", merges=10)
    text = "".join(LINES)
    here = corpus_facts(config, source_lines(None, text), Never())
    same(read_in_child(config, None, text, "strict", False, lambda: False), here)


def test_a_cancel_ends_the_child_and_gives_none(corpus):
    before = set(multiprocessing.active_children())
    assert read_in_child(TrainerConfig(mode="byte", merges=10), corpus, None, "strict", False, lambda: True) is None
    assert set(multiprocessing.active_children()) <= before  # nothing left running


def test_a_failure_in_the_child_is_a_message(tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(TokvizError, match="reading the corpus for the lecture views failed: .*UTF-8"):
        read_in_child(TrainerConfig(mode="byte", merges=10), bad, None, "strict", False, lambda: False)


class Source:
    def __init__(self, path: Path, size: int):
        self.path, self.text, self.errors, self.total_bytes = path, None, "strict", size

    def lines(self):
        return source_lines(self.path, None)


def test_the_panel_reads_a_big_corpus_in_a_child_and_a_small_one_here(corpus, monkeypatch):
    used = []
    monkeypatch.setattr(facts_reading, "read_in_child", lambda *a, **k: used.append("child"))
    config = TrainerConfig(mode="byte", merges=10)
    small = follow.read_facts(config, Source(corpus, facts_reading.CHILD_BYTES), False, Never())
    assert used == [] and small.words_total > 0
    follow.read_facts(config, Source(corpus, facts_reading.CHILD_BYTES + 1), False, Never())
    assert used == ["child"]
