"""Both routes of a merge (vectorized and plain Python; occurrences apart and touching) give the
reference trainers' merges: each route is forced on its own here, where the trainer would mix them."""

from __future__ import annotations

import io

import pytest

from tests.support.corpora import code_text, emoji_text, korean_text, single_spaced
from tokviz.core.bpe import merge_update
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.pretokenize import GPT4_PATTERN

ROUTES = {"numpy": 0, "python": 10**9}  # _SMALL_MERGE: every merge vectorized / every merge in plain Python

# runs that make touching occurrences ("a b a b", "a a a a") common, among ordinary text
TOUCHING = "".join(f"{w} " * k + "\n" for k, w in enumerate(
    ["abab", "aaaa", "ababab", "aaaaaaa", "ㅋㅋㅋㅋㅋ", "ㅎㅎㅎ", "....", "!!!!!!", "lalala", "abba"], start=2))


def corpus_text() -> str:
    return korean_text(300) + code_text()[:20000] + emoji_text(150) + TOUCHING * 3


def steps(text: str, **cfg) -> list[MergeStep]:
    return [e for e in BPETrainer(TrainerConfig(**cfg)).run([text]) if isinstance(e, MergeStep)]


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_byte_route_equals_rustbpe(route, monkeypatch):
    import rustbpe

    monkeypatch.setattr(merge_update, "_SMALL_MERGE", ROUTES[route])
    text = corpus_text()
    tok = rustbpe.Tokenizer()
    tok.train_from_iterator([text], 256 + 400, pattern=GPT4_PATTERN)
    ref = sorted(tok.get_mergeable_ranks(), key=lambda x: x[1])[256:]
    got = steps(text, mode="byte", pattern="gpt4", merges=400, min_frequency=1)
    assert [(s.new_bytes, s.token_id) for s in got] == ref


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_char_route_equals_subword_nmt(route, monkeypatch):
    from subword_nmt.learn_bpe import learn_bpe

    monkeypatch.setattr(merge_update, "_SMALL_MERGE", ROUTES[route])
    text = single_spaced(corpus_text())
    out = io.StringIO()
    learn_bpe(io.StringIO(text), out, 400, min_frequency=2)
    ref = [tuple(line.split(" ")) for line in out.getvalue().splitlines()[1:]]
    got = steps(text, mode="char", merges=400, min_frequency=2)
    assert [(s.left_piece, s.right_piece) for s in got] == ref


@pytest.mark.parametrize("mode", ["byte", "char"])
def test_routes_agree_on_counts_and_corpus_tokens(mode, monkeypatch):
    text = corpus_text()
    runs = {}
    for route, small in ROUTES.items():
        monkeypatch.setattr(merge_update, "_SMALL_MERGE", small)
        runs[route] = [(s.left, s.right, s.token_id, s.count, s.corpus_tokens)
                       for s in steps(text, mode=mode, pattern="gpt4", merges=600, min_frequency=2)]
    assert runs["numpy"] == runs["python"]
    assert len(runs["numpy"]) > 300


@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("text", ["abab ababab abab abab\n", "aaaa aaaaaaa aaa aaaaa\n", "xyxyxy xyxy zxyxyz\n"])
def test_touching_occurrences_equal_the_references(route, text, monkeypatch):
    import rustbpe
    from subword_nmt.learn_bpe import learn_bpe

    monkeypatch.setattr(merge_update, "_SMALL_MERGE", ROUTES[route])
    tok = rustbpe.Tokenizer()
    tok.train_from_iterator([text], 256 + 20, pattern=GPT4_PATTERN)
    ref = sorted(tok.get_mergeable_ranks(), key=lambda x: x[1])[256:]
    got = steps(text, mode="byte", pattern="gpt4", merges=20, min_frequency=1)
    assert [(s.new_bytes, s.token_id) for s in got] == ref
    out = io.StringIO()
    learn_bpe(io.StringIO(text), out, 20, min_frequency=1)
    ref_char = [tuple(line.split(" ")) for line in out.getvalue().splitlines()[1:]]
    got_char = steps(text, mode="char", merges=20, min_frequency=1)
    assert [(s.left_piece, s.right_piece) for s in got_char] == ref_char


@pytest.mark.parametrize("mode", ["byte", "char"])
def test_a_merge_whose_occurrences_partly_touch(mode, monkeypatch):
    # merging (a, b): the chain in "xababr" is merged apart from the other occurrences (49 words
    # "abcd" .. "abii"), and both parts make the pair (x, ab) once - below min_frequency 2 for each
    # part alone, enough together. Merging (x, ab) later must find both ("xabq" too).
    words = [f"ab{c}{d}" for c in "cdefghi" for d in "cdefghi"]
    text = " ".join(words * 2) + " xabq xababr\n"
    runs = {}
    for route, small in {**ROUTES, "mixed": 48}.items():  # mixed: the chain alone in plain Python
        monkeypatch.setattr(merge_update, "_SMALL_MERGE", small)
        runs[route] = [(s.new_piece, s.count, s.corpus_tokens)
                       for s in steps(text, mode=mode, pattern="whitespace", merges=400, min_frequency=2)]
    assert runs["numpy"] == runs["python"] == runs["mixed"]
    assert runs["numpy"][0][:2] == ("ab", 101)
    assert ("xab", 2) in [step[:2] for step in runs["numpy"]]
