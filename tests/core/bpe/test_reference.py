"""Every fast BPE route equals the reference kernel (:mod:`tokviz.core.bpe.reference`).

Corpora are drawn from tiny alphabets so that pairs repeat, overlap (``aaaa``) and touch (``abab``):
that is what sends a merge down each route of :mod:`~tokviz.core.bpe.merge_update` (more than
``_SMALL_MERGE`` candidate slots: numpy; touching occurrences: the touching routes; more than
``_SMALL_SUBTRACT`` broken pairs: the bincount subtraction). The route configurations below force
each one on its own, and :func:`test_the_route_corpus_reaches_every_route` checks that the
default thresholds really take every route on one corpus.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokviz.core.bpe import blocks, merge_update, reference
from tokviz.core.bpe import merge_state as merge_state_module
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.merge import apply_merges
from tokviz.core.bpe.model import BPEModel, pattern_regex
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.bpe_candidates import top_pairs
from tokviz.core.jamo import decompose
from tokviz.core.merge_criteria import _bpe_symbols, _replay, _wordpiece_symbols, bpe_surface, wordpiece_surface
from tokviz.core.wordpiece.merge_state import CONTINUATION, WordPieceMergeState

FEW = settings(max_examples=30, deadline=None)
PATCHED = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# a byte-mode corpus needs multi-byte characters too; the pattern keeps letter runs whole
# and a literal "</w>" in the text must not be taken for char mode's end-of-word mark
ALPHABETS = ["a", "ab", "abc", "ab가", "a😀b", "b</w>"]

words = st.sampled_from(ALPHABETS).flatmap(
    lambda alphabet: st.dictionaries(st.text(alphabet, min_size=1, max_size=30), st.integers(1, 6),
                                     min_size=1, max_size=12))
# more slots per pair than merge_update._SMALL_MERGE: repeated motifs (runs "aaaa", chains "abab")
# in many words, so that the default thresholds send merges down the numpy routes too
big_words = st.sampled_from(ALPHABETS).flatmap(
    lambda alphabet: st.dictionaries(
        st.builds(lambda motif, k, tail: motif * k + tail, st.text(alphabet, min_size=1, max_size=3),
                  st.integers(1, 25), st.text(alphabet, max_size=3)),
        st.integers(1, 6), min_size=5, max_size=30))


def corpus_text(word_counts: dict[str, int]) -> str:
    """One line per word, the word repeated its count times."""
    return "".join(" ".join([w] * n) + "\n" for w, n in word_counts.items())


def pieces(text: str, pattern: str = "gpt4") -> list[str]:
    return pattern_regex(pattern).findall(text)


def fast_steps(text: str, mode: str, merges: int, min_frequency: int) -> list[MergeStep]:
    cfg = TrainerConfig(mode=mode, merges=merges, min_frequency=min_frequency, pattern="gpt4")
    return [e for e in BPETrainer(cfg).run([text]) if isinstance(e, MergeStep)]


def reference_counts(text: str, mode: str) -> Counter:
    return Counter(text.split() if mode == "char" else pieces(text))


def as_reference(steps: list[MergeStep], mode: str) -> list[tuple]:
    """The trainer's steps written as :func:`reference.train` writes merges."""
    if mode == "char":
        return [(s.left_piece, s.right_piece, s.new_piece, s.count) for s in steps]
    return [(s.left, s.right, s.token_id, s.count) for s in steps]


# ---- training ----------------------------------------------------------------------------------
@FEW
@given(words | big_words, st.sampled_from(["char", "byte"]), st.integers(1, 3))
def test_training_equals_the_reference(word_counts, mode, min_frequency):
    text = corpus_text(word_counts)
    counts = reference_counts(text, mode)
    expected = reference.train(counts, 60, mode, min_frequency)
    steps = fast_steps(text, mode, 60, min_frequency)
    assert as_reference(steps, mode) == expected
    # and the ids (char mode: <unk>, the sorted base symbols, then each new string) that models are built of
    assert [(s.left, s.right, s.token_id) for s in steps] == model_of(counts, expected, mode).merges


# syllables only (decomposed as code points while indexing), or syllables also typed as conjoining
# jamo (가 and ᄀ+ᅡ: the words are decomposed as strings, and words that meet are summed)
jamo_words = st.sampled_from([["가", "각", "a"], ["가", "각", "\u1100\u1161", "\u1100\u1161\u11a8"]]).flatmap(
    lambda letters: st.dictionaries(st.lists(st.sampled_from(letters), min_size=1, max_size=5).map("".join),
                                    st.integers(1, 6), min_size=1, max_size=10))


@FEW
@given(jamo_words, st.sampled_from(["char", "byte"]))
def test_jamo_training_equals_the_reference_on_the_decomposed_text(word_counts, mode):
    text = corpus_text(word_counts)
    expected = reference.train(reference_counts(decompose(text), mode), 40, mode)
    cfg = TrainerConfig(mode=mode, merges=40, min_frequency=1, pattern="gpt4", jamo=True)
    assert as_reference([e for e in BPETrainer(cfg).run([text]) if isinstance(e, MergeStep)], mode) == expected


@settings(max_examples=15, deadline=None)
@given(words | big_words, st.sampled_from(["char", "byte"]))
def test_why_this_pair_ranks_the_reference_merge_first(word_counts, mode):
    """The Train panel's candidates (recounted by encoding each word with the model of the step
    before) put the reference's merge first, with its count."""
    counts = reference_counts(corpus_text(word_counts), mode)
    merges = reference.train(counts, 20, mode)
    model = model_of(counts, merges, mode)
    for step, (a, b, _, count) in enumerate(merges, 1):
        best = top_pairs(model, mode, counts, step, limit=1).pairs[0]
        assert ((best.left_piece, best.right_piece) if mode == "char" else (best.left, best.right)) == (a, b)
        assert best.count == count


# Each configuration forces one family of routes: every merge vectorized (with the bincount
# subtraction, the two-pass pair sort instead of the dense char table, and indexing in chunks of a
# few slots), or every merge in plain Python.
ROUTES = {
    "numpy": {(merge_update, "_SMALL_MERGE"): 0, (merge_update, "_SMALL_SUBTRACT"): 0,
              (blocks, "INDEX_BLOCK"): 7, (merge_state_module, "_DENSE_SYMBOLS"): 0},
    "python": {(merge_update, "_SMALL_MERGE"): 10**9, (merge_update, "_SMALL_SUBTRACT"): 10**9},
}


@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("mode", ["char", "byte"])
def test_each_merge_route_equals_the_reference(route, mode, monkeypatch):
    for (module, name), value in ROUTES[route].items():
        monkeypatch.setattr(module, name, value)

    @PATCHED
    @given(words, st.integers(1, 2))
    def check(word_counts, min_frequency):
        text = corpus_text(word_counts)
        expected = reference.train(reference_counts(text, mode), 40, mode, min_frequency)
        assert as_reference(fast_steps(text, mode, 40, min_frequency), mode) == expected

    check()


def route_corpus() -> dict[str, int]:
    """Words whose merges take every route at the default thresholds: many words holding ``ab``
    apart (numpy), a few chains ``abab`` among them (the split route), long chains with hundreds
    of neighbours (numpy touching, bincount subtraction), runs ``aaaa`` and rare words (plain Python)."""
    rng = random.Random(7)
    corpus = {f"{rng.choice('efgh')}ab{rng.choice('efgh')}{i % 5 * 'x'}": rng.randint(1, 4) for i in range(90)}
    corpus.update({"eabababf": 2, "ababx": 1, "cd" * 120: 1, "dc" * 90 + "e": 2, "zaaaaaaaz": 3, "yaaaay": 2})
    corpus.update({f"q{'cd' * k}r": 1 for k in range(2, 40)})
    return corpus


@pytest.mark.parametrize("mode", ["char", "byte"])
def test_the_route_corpus_reaches_every_route(mode, monkeypatch):
    taken: Counter = Counter()

    def spy(name, route):
        def counted(*args, **kwargs):
            taken[name] += 1
            return route(*args, **kwargs)
        return counted

    for name in ("_merge_few", "_merge_many", "_merge_few_touching", "_merge_many_touching",
                 "_subtract_few", "_subtract_by_token", "_non_overlapping"):
        monkeypatch.setattr(merge_update, name, spy(name, getattr(merge_update, name)))
    text = corpus_text(route_corpus())
    expected = reference.train(reference_counts(text, mode), 80, mode)
    assert as_reference(fast_steps(text, mode, 80, 1), mode) == expected
    assert len(taken) == 7, taken


# ---- encoding, the model at any step, the replay, dropout ---------------------------------------
@st.composite
def corpus_and_text(draw):
    """Words to train on and a text to encode: the same alphabet plus a character never trained on."""
    alphabet = draw(st.sampled_from(ALPHABETS))
    word_counts = draw(st.dictionaries(st.text(alphabet, min_size=1, max_size=20), st.integers(1, 6),
                                       min_size=1, max_size=10))
    text = " ".join(draw(st.lists(st.text(alphabet + "z", min_size=1, max_size=20), min_size=1, max_size=6)))
    return word_counts, text


def model_of(word_counts: dict[str, int], merges: list[tuple], mode: str) -> BPEModel:
    """The BPEModel of the reference's merges (char mode numbers the pieces as the trainer does:
    <unk>, the sorted base symbols, then each new string)."""
    if mode == "byte":
        return BPEModel(mode="byte", pattern="gpt4", merges=[(a, b, t) for a, b, t, _ in merges])
    base = sorted({s for w in word_counts for s in reference.char_symbols(w)})
    ids = {piece: i for i, piece in enumerate(base, 1)}
    triples = []
    for a, b, new, _ in merges:
        triples.append((ids[a], ids[b], ids.setdefault(new, len(ids) + 1)))
    return BPEModel(mode="char", merges=triples, base=base)


def byte_ids(parts: list[bytes], merges: list[tuple]) -> list[int]:
    """Token ids of byte parts: a byte is its value, a longer part 256 + the first merge making it."""
    made = {i: bytes([i]) for i in range(256)}
    first: dict[bytes, int] = {}
    for a, b, t, _ in merges:
        made[t] = made[a] + made[b]
        first.setdefault(made[t], t)
    return [p[0] if len(p) == 1 else first[p] for p in parts]


def expected_tokens(text: str, merges: list[tuple], mode: str, p: float = 0.0, rng=None) -> list:
    """The reference's tokens of ``text``: pieces in char mode, ids in byte mode."""
    if mode == "char":
        return [piece for w in text.split() for piece in reference.encode_word(w, merges, "char", p=p, rng=rng)]
    return [i for piece in pieces(text) for i in byte_ids(reference.encode_word(piece, merges, "byte", p=p, rng=rng),
                                                          merges)]


def tokens(enc, mode: str) -> list:
    return [enc.token(i).raw for i in range(len(enc))] if mode == "char" else enc.ids


def assert_spans_exact(enc, text: str) -> None:
    """Each token's bytes are the text at its span, and the tokens cover every non-space character."""
    data = text.encode("utf-8")
    toks = [enc.token(i) for i in range(len(enc))]
    assert [t.bytes for t in toks] == [data[t.byte_start: t.byte_end] for t in toks]
    assert b"".join(t.bytes for t in toks) == "".join(text.split()).encode("utf-8")


@FEW
@given(corpus_and_text(), st.sampled_from(["char", "byte"]), st.integers(0, 40))
def test_model_encode_at_any_step_equals_the_reference(corpus, mode, step):
    word_counts, text = corpus
    merges = reference.train(word_counts, 40, mode)
    model = model_of(word_counts, merges, mode)
    assert tokens(model.encode(text), mode) == expected_tokens(text, merges, mode)
    assert tokens(model.encode(text, max_rank=step), mode) == expected_tokens(text, merges[:step], mode)
    if mode == "char":
        assert_spans_exact(model.encode(text), text)


def test_a_piece_inside_a_word_ending_in_a_literal_end_of_word_mark_keeps_its_span():
    """A corpus that writes "</w>" (a text about BPE) can make the piece "b</w>" inside a word; its
    span is all five characters, not one (the mark belongs to a word's last piece only)."""
    word_counts = {"b</w>x": 9, "b</wy": 20, "b": 2}
    merges = reference.train(word_counts, 5)
    assert merges[-1][2] == "b</w>"
    enc = model_of(word_counts, merges, "char").encode("b</w>x b")
    assert tokens(enc, "char") == ["b</w>", "x</w>", "b</w>"] == expected_tokens("b</w>x b", merges, "char")
    assert_spans_exact(enc, "b</w>x b")


@FEW
@given(corpus_and_text(), st.sampled_from(["char", "byte"]), st.integers(0, 40))
def test_replay_model_equals_the_reference(corpus, mode, step):
    """The Train panel's replay: a model that grows from the trainer's MergeStep events."""
    word_counts, text = corpus
    steps = fast_steps(corpus_text(word_counts), mode, 40, 1)
    replay = BPEModel.growing(mode)
    replay.grow_steps(steps[:step])
    merges = reference.train(reference_counts(corpus_text(word_counts), mode), step, mode)
    assert tokens(replay.encode(text), mode) == expected_tokens(text, merges, mode)


# rank tables over short strings, several pairs may share a rank (tiktoken: ab + c and a + bc)
rank_tables = st.dictionaries(st.tuples(st.text("ab", min_size=1, max_size=3), st.text("ab", min_size=1, max_size=3)),
                              st.integers(0, 12), max_size=20)


@FEW
@given(st.lists(st.sampled_from("ab"), max_size=14), rank_tables, st.booleans(), st.none() | st.integers(0, 13))
def test_apply_merges_equals_the_reference(parts, ranks, every_occurrence, max_rank):
    limit = 10**9 if max_rank is None else max_rank

    def rank(a, b):
        r = ranks.get((a, b))
        return r if r is not None and r < limit else None

    got = apply_merges(parts, lambda a, b: ranks.get((a, b)), str.__add__, max_rank=max_rank,
                       every_occurrence=every_occurrence)
    assert got == reference.encode(parts, rank, every_occurrence=every_occurrence)


probabilities = st.sampled_from([0.0, 1.0]) | st.floats(0.05, 0.95)


@FEW
@given(st.lists(st.sampled_from("ab"), max_size=14), rank_tables, st.booleans(), probabilities, st.integers(0, 99))
def test_dropout_draws_like_the_reference(parts, ranks, every_occurrence, p, seed):
    """Same seed, same draws: the same pieces, and both generators left in the same state."""
    fast_rng, ref_rng = random.Random(seed), random.Random(seed)
    got = apply_merges(parts, lambda a, b: ranks.get((a, b)), str.__add__, every_occurrence=every_occurrence,
                       dropout=p, rng=fast_rng)
    assert got == reference.encode(parts, lambda a, b: ranks.get((a, b)), every_occurrence=every_occurrence,
                                   p=p, rng=ref_rng)
    assert fast_rng.random() == ref_rng.random()
    if p == 1.0:
        assert got == parts


@FEW
@given(corpus_and_text(), st.sampled_from(["char", "byte"]), probabilities, st.integers(0, 99), st.integers(0, 40))
def test_model_dropout_equals_the_reference(corpus, mode, p, seed, step):
    word_counts, text = corpus
    merges = reference.train(word_counts, 40, mode)
    model = model_of(word_counts, merges, mode)
    got = tokens(model.encode_dropout(text, p, seed=seed), mode)
    assert got == expected_tokens(text, merges, mode, p, random.Random(seed))
    at_step = tokens(model.encode_dropout(text, p, seed=seed, max_rank=step), mode)
    assert at_step == expected_tokens(text, merges[:step], mode, p, random.Random(seed))
    if p == 0.0:
        assert got == tokens(model.encode(text), mode)
    if p == 1.0:
        assert got == expected_tokens(text, [], mode)


# ---- the merge criteria's replay and WordPiece's merge ------------------------------------------
@FEW
@given(st.data(), st.sampled_from(["bpe", "wordpiece"]))
def test_merge_criteria_replay_equals_the_reference(data, kind):
    word_counts = data.draw(words)
    symbols, surface = (_bpe_symbols, bpe_surface) if kind == "bpe" else (_wordpiece_symbols, wordpiece_surface)

    def join(a, b):
        return a + b if kind == "bpe" else a + b[len(CONTINUATION):]

    state = {w: symbols(w) for w in word_counts}
    merges = []
    for _ in range(data.draw(st.integers(0, 12))):
        present = sorted(reference.count_pairs({tuple(s): 1 for s in state.values()}))
        if not present:
            break
        pair = data.draw(st.sampled_from(present))
        merges.append(pair)
        state = {w: reference.merge(s, pair, join(*pair)) for w, s in state.items()}
    assert _replay(Counter(word_counts), symbols, merges, surface, join) == [
        (state[w], n) for w, n in word_counts.items()]


def wordpiece_words(st_: WordPieceMergeState, lens: list[int]) -> list[list[str]]:
    """The words as the state holds them now: each one's symbols, following the links from its first slot."""
    out, start = [], 0
    for n in lens:
        seq, i = [], start
        while i >= 0:
            seq.append(st_.names[st_.sym[i]])
            i = st_.nxt[i]
        out.append(seq)
        start += n
    return out


def wordpiece_best(words_now: list[list[str]], freqs: list[int]) -> tuple[str, str]:
    """WordPiece's rule on the reference counts: the largest count(ab) / (count(a) · count(b)),
    then the larger count, then the smaller strings."""
    pairs = reference.count_pairs(dict(zip(map(tuple, words_now), freqs, strict=True)))
    singles: Counter = Counter()
    for seq, n in zip(words_now, freqs, strict=True):
        for s in seq:
            singles[s] += n
    return min(pairs, key=lambda p: (-pairs[p] / (singles[p[0]] * singles[p[1]]), -pairs[p], p))


@FEW
@given(st.data())
def test_wordpiece_merge_of_a_chosen_pair_equals_the_reference(data):
    """WordPiece's merge of its own best pair or of any other pair present leaves the same words
    and counts as the reference merge; its best pair follows the likelihood rule."""
    word_counts = data.draw(words)
    ws, freqs = list(word_counts), list(word_counts.values())
    state = WordPieceMergeState(ws, freqs)
    ref = [_wordpiece_symbols(w) for w in ws]
    for _ in range(data.draw(st.integers(1, 15))):
        pairs = reference.count_pairs(dict(zip(map(tuple, ref), freqs, strict=True)))
        best = state.best()
        if not pairs:
            assert best is None
            break
        a, b, count = best
        assert (state.names[a], state.names[b]) == wordpiece_best(ref, freqs)
        assert count == pairs[state.names[a], state.names[b]]
        if data.draw(st.booleans()):
            left, right = data.draw(st.sampled_from(sorted(pairs)))
            a, b = state.id_of[left], state.id_of[right]
        pair = (state.names[a], state.names[b])
        new = state.names[state.merge(a, b)]
        assert new == pair[0] + pair[1][len(CONTINUATION):]
        ref = [reference.merge(s, pair, new) for s in ref]
        assert wordpiece_words(state, list(map(len, ws))) == ref
        assert {(state.names[k >> 32], state.names[k & 0xFFFFFFFF]): c for k, c in state.pair_count.items()} == \
            dict(reference.count_pairs(dict(zip(map(tuple, ref), freqs, strict=True))))
