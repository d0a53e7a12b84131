"""The Train panel's replay of recorded merges (Qt-free logic), against a naive reference BPE."""

from __future__ import annotations

import regex
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.support.naive_trainer import TEXT, NaiveTrainer
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.pretokenize import PATTERNS
from tokviz.core.training import Finished
from tokviz.ui.train_replay import MergeReplay, keep_hangul


def _events(config: TrainerConfig):
    trainer = NaiveTrainer(config)
    events = list(trainer.run(TEXT.splitlines(keepends=True), total_bytes=len(TEXT.encode())))
    return trainer, events


def test_replay_segments_like_applying_merges_in_order_at_every_step():
    config = TrainerConfig(mode="byte", merges=40, pattern="gpt4")
    trainer, events = _events(config)
    steps = [e for e in events if isinstance(e, MergeStep)]
    assert len(steps) == 40 and isinstance(events[-1], Finished)
    replay = MergeReplay("byte", "gpt4")
    replay.add(steps)
    line = "안녕하세요 lower 😀 print(z) 안녕히"
    for step in (0, 1, 7, 20, 40):
        segs = replay.segment(line, step)
        ids = [s.token_id for s in segs]
        expected = [
            t for chunk in regex.findall(PATTERNS["gpt4"], line) for t in trainer.encode_chunk(chunk.encode(), step)
        ]
        assert ids == expected
        assert b"".join(s.data for s in segs) == line.encode()
        fresh = [s for s in segs if s.fresh]
        assert all(s.token_id == 255 + step for s in fresh)


def test_merge_tree_goes_down_to_bytes_and_respects_the_step():
    config = TrainerConfig(mode="byte", merges=30, pattern="gpt4")
    _, events = _events(config)
    replay = MergeReplay("byte", "gpt4")
    replay.add([e for e in events if isinstance(e, MergeStep)])
    last = replay.steps[-1]
    tree = replay.merge_tree(last.token_id)
    assert tree.step == last.step and tree.token_id == last.token_id

    def leaves(node):
        return [node] if node.left is None else leaves(node.left) + leaves(node.right)

    assert b"".join(bytes([n.token_id]) for n in leaves(tree)) == last.new_bytes
    assert all(0 <= n.token_id < 256 for n in leaves(tree))
    # before the token existed it is a base (unmerged) node
    assert replay.merge_tree(last.token_id, step=last.step - 1).left is None


def test_char_mode_replay_glues_end_of_word_and_keeps_hangul_only():
    steps = [
        MergeStep(1, 10, 1, 2, "안", "녕</w>", "안녕</w>", "안녕".encode(), 5, 11, 20, 30),
        MergeStep(2, 11, 3, 4, "하", "세", "하세", "하세".encode(), 3, 12, 18, 30),
    ]
    replay = MergeReplay("char", keep="hangul")
    replay.add(steps)
    segs = replay.segment(keep_hangul("안녕 hi 하세요!"), 2)
    words = [s.text for s in segs if s.token_id is not None]
    assert words == ["안녕", "하세", "요"]
    assert [s.fresh for s in segs if s.token_id is not None] == [False, True, False]
    assert replay.segment("안녕", 0)[0].text == "안"


def _real_run(mode: str, merges: int):
    from tests.support.corpora import english_text, korean_text, single_spaced
    from tokviz.core.bpe.trainer import BPETrainer

    text = single_spaced(korean_text(150) + english_text()[:4000])
    trainer = BPETrainer(TrainerConfig(mode=mode, merges=merges, min_frequency=2))
    steps = [e for e in trainer.run([text]) if isinstance(e, MergeStep)]
    assert len(steps) == merges
    return trainer, steps


PROBES = [
    "영화 정말 재밌었어요 최고의 배우",
    "the quick brown fox jumps over 12,345 lazy dogs!",
    "  안녕하세요\t😀😀 print(x)\n",
    "ㅋㅋㅋ 진짜 대박 omg",
]


def test_byte_replay_equals_the_trained_model_at_every_step():
    trainer, steps = _real_run("byte", 120)
    replay = MergeReplay("byte", "gpt4")
    replay.add(steps[:50])
    replay.add(steps[50:])  # recorded in batches, as the panel receives them
    for step in range(len(steps) + 1):
        model = trainer.model(step)
        for line in PROBES:
            segs = replay.segment(line, step)
            assert [s.token_id for s in segs] == model.encode(line).ids, (step, line)
            assert replay.model.encode(line, max_rank=step).ids == model.encode(line).ids
    tree = replay.merge_tree(steps[-1].token_id)
    assert tree.step == len(steps) and tree.piece == model.token_piece(steps[-1].token_id)


def test_char_replay_equals_the_trained_model_at_every_step():
    trainer, steps = _real_run("char", 120)
    replay = MergeReplay("char")
    replay.add(steps)
    known = {s.token_id for s in steps} | {s.left for s in steps} | {s.right for s in steps}
    for step in range(len(steps) + 1):
        model = trainer.model(step)
        for line in PROBES:
            tokens = model.encode(line).tokens
            segs = [s for s in replay.segment(line, step) if s.token_id is not None]
            assert [s.text for s in segs] == [t.raw.removesuffix("</w>") for t in tokens], (step, line)
            # a character no merge uses has a stand-in id in the replay (it does not know the base)
            assert [s.token_id for s in segs] == [t.id if t.id in known else -1 - ord(t.raw[0]) for t in tokens]
            fresh = {s.token_id for s in segs if s.fresh}
            assert fresh <= {steps[step - 1].token_id} if step else not fresh


def test_char_replay_shows_a_literal_end_of_word_mark_inside_a_word_as_text():
    """A text about BPE can hold ``</w>`` itself: a piece ending in it inside a word is still that text."""
    from tokviz.core.bpe.trainer import BPETrainer

    trainer = BPETrainer(TrainerConfig(mode="char", merges=8, min_frequency=2))
    steps = [e for e in trainer.run(["b</w>x b</w>x b</w>x a</w>z a</w>z\n"]) if isinstance(e, MergeStep)]
    assert any(s.new_piece.endswith("</w>") and "<" in s.new_piece[:-4] for s in steps)
    replay = MergeReplay("char")
    replay.add(steps)
    line = "b</w>x a</w>z"
    for step in range(len(steps) + 1):
        tokens = trainer.model(step).encode(line).tokens
        segs = [s for s in replay.segment(line, step) if s.token_id is not None]
        assert [s.text for s in segs] == [line[t.start : t.end] for t in tokens], step
        assert "".join(s.text for s in segs) == line.replace(" ", "")


_RUN: list = []


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 120), min_size=2, max_size=8), st.integers(1, 120))
@example(frames=[0, 1], recorded=1)  # drawn at the step that made a token, then at that step again
def test_byte_replay_moved_on_between_frames_equals_encoding_anew(frames, recorded):
    """A line moved on from the step it was drawn at (merges recorded in batches while frames jump
    forward and back) shows exactly the pieces, and fresh tokens, of encoding it anew at that step."""
    if not _RUN:
        _RUN.append(_real_run("byte", 120)[1])
    steps = _RUN[0]
    replay = MergeReplay("byte", "gpt4")
    replay.add(steps[:recorded])
    for k, step in enumerate(frames):
        if k == len(frames) // 2:
            replay.add(steps[recorded:])  # the trainer went on between two frames
        for at in {min(step, len(replay)), min(step + 1, len(replay))}:  # the next step: a fresh token ages
            expected = MergeReplay("byte", "gpt4")
            expected.add(steps[:at])
            for line in PROBES:
                assert replay.segment(line, at) == expected.segment(line, at), (at, line)


def test_byte_replay_moved_on_sees_a_merge_made_from_another_split_of_its_bytes():
    """Merges go by the joined bytes' rank: "abc" made as ab + c merges a + bc too."""

    def merge(step, left, right, data):
        return MergeStep(
            step=step,
            token_id=255 + step,
            left=left,
            right=right,
            left_piece="",
            right_piece="",
            new_piece=data.decode(),
            new_bytes=data,
            count=1,
            vocab_size=256 + step,
            corpus_tokens=1,
            corpus_chars=1,
        )

    replay = MergeReplay("byte", "gpt4")
    replay.add([merge(1, 98, 99, b"bc"), merge(2, 97, 98, b"ab"), merge(3, 257, 99, b"abc")])
    assert [s.data for s in replay.segment("abc abca", 2)] == [b"a", b"bc", b" ", b"a", b"bc", b"a"]
    assert [s.data for s in replay.segment("abc abca", 3)] == [b"abc", b" ", b"abc", b"a"]
