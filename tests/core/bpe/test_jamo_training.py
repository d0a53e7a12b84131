"""Jamo BPE (``TrainerConfig(jamo=True)``): the trainer counts the words of the text as given and
decomposes only the distinct ones. That must train exactly what decomposing every line first trains,
in both modes and with every pre-split pattern, because decomposing turns a syllable (a letter) into
two or three jamo (letters too) and no pattern cuts a run of letters differently for its length."""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.bpe.corpus import line_pieces
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.jamo import decompose, decompose_lines
from tokviz.core.pretokenize import PATTERNS
from tokviz.core.training import Finished, Progress
from tokviz.core.training.process import ProcessTrainer

NSMC = Path(__file__).resolve().parents[2] / "data" / "nsmc_ko_600.txt"  # Korean movie reviews (CC0)


def korean_text(lines: int = 600) -> str:
    """The first ``lines`` reviews of the Korean test corpus, each with its newline."""
    with NSMC.open(encoding="utf-8") as f:
        return "".join(line for _, line in zip(range(lines), f, strict=False))


CONFIGS = [TrainerConfig(mode="char", merges=400, min_frequency=2)] + [
    TrainerConfig(mode="byte", merges=400, min_frequency=2, pattern=p) for p in PATTERNS
]
IDS = ["char"] + [f"byte-{p}" for p in PATTERNS]

# syllables, conjoining jamo typed as such (they decompose to themselves: two spellings of one
# word), compatibility jamo, Latin letters of every case class (Lu, Ll, Lt, Lm), a combining mark,
# digits, apostrophes (the patterns' 's 't ...), spaces and line breaks of every kind, emoji with
# a skin tone and a joiner, punctuation and a NUL
ALPHABET = list("가갔힣한글것했다ㅋㅠ aZsdtǅʰé0123'!?.\t\n\r\u00a0\u3000") + [
    "\u1100", "\u1161", "\u11a8", "\u11bb", "\u1103", "\u0301", "😀", "👍", "\U0001f3fd", "\u200d", "\x00",
]
# whole words too, some spelled both ways (가 and ᄀ ᅡ), so that words meet once decomposed
WORDS = ["가", "\u1100\u1161", "갔다", "\u1100\u1161\u11bb다", "각", "\u1100\u1161\u11a8", "ok", "OK's", "ㅋㅋ",
         "😀👍\U0001f3fd", "123456", " ", "\n", "!", "'"]
mixed_text = st.one_of(st.text(alphabet=st.sampled_from(ALPHABET), max_size=80),
                       st.lists(st.sampled_from(WORDS), max_size=30).map("".join))


def run(config: TrainerConfig, lines) -> tuple:
    """Everything a run shows: each merge (pieces, ids, counts, corpus sizes), the base, the stats
    and how it ended."""
    trainer = BPETrainer(config)
    events = list(trainer.run(lines))
    steps = [(e.left, e.right, e.token_id, e.left_piece, e.right_piece, e.new_piece, e.new_bytes, e.count,
              e.vocab_size, e.corpus_tokens, e.corpus_chars) for e in events if isinstance(e, MergeStep)]
    return steps, trainer.base, trainer.stats, events[-1]


def assert_same_as_decomposing_first(config: TrainerConfig, lines: list[str]) -> None:
    counted_then_decomposed = run(replace(config, jamo=True), lines)
    decomposed_first = run(config, list(decompose_lines(lines)))
    assert counted_then_decomposed == decomposed_first


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_korean_reviews_train_the_same_merges(config):
    lines = korean_text().splitlines(keepends=True)
    steps, _, _, finished = run(replace(config, jamo=True), lines)
    assert len(steps) > 100 and isinstance(finished, Finished)  # a real run, with many merges
    assert not any("\uac00" <= ch <= "\ud7a3" for s in steps for ch in s[5])  # it learned jamo
    assert_same_as_decomposing_first(config, lines)


@pytest.mark.parametrize("config", CONFIGS[:3], ids=IDS[:3])
def test_one_block_and_line_parts_train_the_same_merges(config):
    # a reader's blocks hold many lines; a very long line comes in parts cut anywhere, inside words too
    text = korean_text(200)
    assert_same_as_decomposing_first(config, [text])
    assert_same_as_decomposing_first(config, list(line_pieces(text.replace("\n", " "), 997)))


def test_jamo_typed_as_jamo_are_counted_with_their_syllables():
    # 가 as a syllable and as the jamo ᄀ ᅡ are one word once decomposed: their counts add up
    lines = ["가 가 \u1100\u1161 각\n"] * 3
    steps, _, stats, _ = run(TrainerConfig(mode="char", merges=5, min_frequency=1, jamo=True), lines)
    assert steps[0][5:8] == ("\u1100\u1161</w>", "\u1100\u1161".encode(), 9)
    assert stats["unique_words"] == 2
    assert_same_as_decomposing_first(TrainerConfig(mode="char", merges=5, min_frequency=1), lines)


@pytest.mark.parametrize("mode", ["char", "byte"])
def test_the_hangul_filter_still_sees_decomposed_text(mode):
    # keep="hangul" keeps syllables and compatibility jamo: on decomposed text it drops the jamo,
    # as it did when the lines were decomposed first (the panel never offers both at once)
    config = TrainerConfig(mode=mode, merges=20, min_frequency=1, keep="hangul")
    lines = ["ㅋㅋ 재밌다 ㅋㅋㅋ ok\n", "ㅠㅠ 별로 ㅠ\n"]
    assert_same_as_decomposing_first(config, lines)
    steps, *_ = run(replace(config, jamo=True), lines)
    learned = "".join(s[6].decode("utf-8", "ignore") for s in steps)
    assert "ㅋㅋ" in learned and not any("\u1100" <= ch <= "\u11ff" or "\uac00" <= ch <= "\ud7a3" for ch in learned)


def test_the_model_records_that_it_reads_jamo():
    trainer = BPETrainer(TrainerConfig(mode="byte", merges=10, min_frequency=1, jamo=True))
    events = list(trainer.run(["갔다 갔다 왔다\n"]))
    assert trainer.model().settings["jamo"] is True
    assert "jamo" not in BPETrainer(TrainerConfig(mode="byte", merges=1)).model().settings
    # counting reports the bytes of the text as given, which is what total_bytes measures
    done = [e.done for e in events if isinstance(e, Progress) and e.phase == "counting"]
    assert done[-1] == len("갔다 갔다 왔다\n".encode())


def test_cancel_after_counting_stops_a_jamo_run():
    trainer = BPETrainer(TrainerConfig(mode="char", merges=50, jamo=True))
    indexing: list = []
    events = []
    for event in trainer.run(korean_text().splitlines(keepends=True), cancel=lambda: bool(indexing)):
        events.append(event)
        if isinstance(event, Progress) and event.phase == "indexing":
            indexing.append(event)
    assert events[-1] == Finished("cancelled", 0, "cancelled while indexing the corpus")
    assert not any(isinstance(e, MergeStep) for e in events)


@settings(max_examples=300, deadline=None)
@given(mixed_text)
def test_every_pre_split_cuts_syllables_and_their_jamo_alike(text):
    # the property the trainer relies on, for every pattern tokviz offers and for char mode
    assert [decompose(w) for w in text.split()] == decompose(text).split()
    for name, pattern in PATTERNS.items():
        if pattern is not None:
            assert [decompose(p) for p in regex.findall(pattern, text)] == regex.findall(pattern, decompose(text)), name


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(lines=st.lists(mixed_text, min_size=1, max_size=6))
def test_random_mixed_text_trains_the_same_merges(config, lines):
    config = replace(config, merges=30, min_frequency=1)
    try:
        decomposed_first = run(config, list(decompose_lines(lines)))
    except Exception as err:  # noqa: BLE001 - e.g. no words at all: the new path must fail alike
        with pytest.raises(type(err), match=regex.escape(str(err))):
            run(replace(config, jamo=True), lines)
        return
    assert run(replace(config, jamo=True), lines) == decomposed_first


def test_a_training_process_decomposes_in_the_child():
    # the Train panel's trainer: the corpus goes to the child as given, the child decomposes the words
    config = TrainerConfig(mode="char", merges=60, min_frequency=2)
    lines = korean_text(150).splitlines(keepends=True)
    trainer = ProcessTrainer(BPETrainer(replace(config, jamo=True)))
    steps = [e.new_piece for e in trainer.run(lines) if isinstance(e, MergeStep)]
    assert steps == [s[5] for s in run(config, list(decompose_lines(lines)))[0]]
    assert trainer.model().settings["jamo"] is True


@functools.cache  # the same reference for each merge route: subword-nmt takes ~4 s on it
def nfd_subword_nmt(text: str, merges: int) -> list[tuple[str, str]]:
    """subword-nmt's merges on the text decomposed into jamo (it splits on single spaces)."""
    import io

    from subword_nmt.learn_bpe import learn_bpe

    out = io.StringIO()
    learn_bpe(io.StringIO(decompose(text)), out, merges, min_frequency=2)
    return [tuple(line.split(" ")) for line in out.getvalue().splitlines()[1:]]


@pytest.mark.parametrize("small_merge", [0, 48, 10**9], ids=["numpy", "mixed", "python"])
def test_jamo_char_mode_equals_subword_nmt_to_exhaustion(small_merge, monkeypatch):
    # jamo text merges syllables back first, where occurrences often touch (ㅋㅋㅋ, 하하하) and a
    # string is often made again (ᄒ ᅡ + ᄒ and ᄒ + ᅡᄒ): every route of the merge engine, to the end
    from tokviz.core.bpe import merge_update

    monkeypatch.setattr(merge_update, "_SMALL_MERGE", small_merge)
    text = "".join(" ".join(line.split()) + "\n" for line in korean_text(300).splitlines() if line.strip())
    steps, _, _, finished = run(TrainerConfig(mode="char", merges=20_000, min_frequency=2, jamo=True), [text])
    assert [(s[3], s[4]) for s in steps] == nfd_subword_nmt(text, 20_000)
    assert finished.reason == "min_frequency"


@pytest.mark.parametrize("small_merge", [0, 48], ids=["numpy", "mixed"])
def test_jamo_byte_mode_equals_rustbpe_on_nfd_text(small_merge, monkeypatch):
    # min_frequency=2 leaves pairs below the floor, which byte mode keeps no slots for unless the
    # merge still makes more of them (one that touches: its chains are merged second)
    import rustbpe

    from tokviz.core.bpe import merge_update
    from tokviz.core.pretokenize import GPT4_PATTERN

    monkeypatch.setattr(merge_update, "_SMALL_MERGE", small_merge)
    text = korean_text(300) + "ㅋㅋ하하하하 하하하 ㅎㅎㅎ 아아아아아\n" * 20
    steps, _, _, finished = run(TrainerConfig(mode="byte", merges=3000, min_frequency=2, jamo=True), [text])
    tok = rustbpe.Tokenizer()
    tok.train_from_iterator([decompose(text)], 256 + 3000, pattern=GPT4_PATTERN)
    ref = sorted(tok.get_mergeable_ranks(), key=lambda x: x[1])[256:]
    assert finished.reason == "min_frequency" and len(steps) > 500
    # rustbpe merges on down to count 1: the same merges while they are counted twice or more
    assert [(s[6], s[2]) for s in steps] == ref[: len(steps)]
