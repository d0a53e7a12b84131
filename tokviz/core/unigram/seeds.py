"""The seed vocabulary of a Unigram run, and the lattices EM and pruning work on.

Steps 1, 2 and 5 of the trainer (see :mod:`tokviz.core.unigram.trainer`): the required characters
and the coverage, every valid substring of up to ``max_piece_length`` characters inside a word
counted exactly (polynomial hashes over the concatenated words, in numpy, one length at a time), the
seed pieces by ``frequency × length``, the flattened lattice of every unique word's arcs (for EM and
Viterbi), and what pruning needs to make each multi-character piece's alternative lattice later.
Validity follows SentencePiece's ``IsValidSentencePiece``: one Unicode script per piece
(:func:`script_of`), ``▁`` only first, no unknown character.
"""

from __future__ import annotations

import heapq
import itertools
import unicodedata
from collections import Counter
from collections.abc import Generator

import numpy as np
import regex

from tokviz.core.errors import TokvizError
from tokviz.core.unigram.config import UnigramConfig
from tokviz.core.unigram.flat_lattice import Cancelled, FlatLattice, numbered
from tokviz.core.unigram.model import META_PIECES, SPACE_MARK
from tokviz.core.unigram.sorting import argsort_steps, compress_steps, concat_steps, take_steps
from tokviz.core.unigram.state import UnigramState

LIST_BLOCK = 1 << 15  # words or strings sorted or made in Python between two yields of seeding (~50 ms)
UNK_CHAR = "\u2585"  # SentencePiece's kUNKChar: characters outside the coverage become this

# Unicode scripts, as SentencePiece's split_by_unicode_script groups them
_SCRIPTS = ["Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Syriac", "Thaana", "Devanagari", "Bengali",
            "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada", "Malayalam", "Sinhala", "Thai", "Lao",
            "Tibetan", "Myanmar", "Georgian", "Hangul", "Ethiopic", "Cherokee", "Khmer", "Mongolian", "Han", "Hiragana",
            "Katakana", "Bopomofo", "Yi", "Inherited", "Common"]
_SCRIPT_RX = regex.compile("|".join(f"(?P<{s}>\\p{{Script={s}}})" for s in _SCRIPTS))
_ANY, _INHERITED, _INVALID = -1, -2, -3


def script_of(ch: str) -> str:
    """Unicode script of a character as SentencePiece groups them (Hiragana/Katakana → Han).

    >>> script_of("가"), script_of("a"), script_of("カ"), script_of("1"), script_of("!")
    ('Hangul', 'Latin', 'Han', 'Common', 'Common')
    """
    if ch == "\u30fc":
        return "Han"
    m = _SCRIPT_RX.match(ch)
    if m is None:  # a script not in the list above: its own group, named by the character name
        return "Other:" + unicodedata.name(ch, "?").split(" ")[0]
    s = m.lastgroup
    return "Han" if s in ("Hiragana", "Katakana") else s


def seed_state(cfg: UnigramConfig, words: Counter, cancelled) -> UnigramState:
    """The state a run starts from: the seed pieces of ``words`` (unique word -> count) with their
    initial scores, and the word and piece lattices. Raises TokvizError when ``cfg.vocab_size``
    cannot hold the required characters, Cancelled when ``cancelled()`` says stop."""
    stages = seed_stages(cfg, words, cancelled)
    while True:
        try:
            next(stages)
        except StopIteration as end:
            return end.value


def seed_stage_count(cfg: UnigramConfig) -> int:
    """How many steps :func:`seed_stages` reports at most (its last yield is this number)."""
    return 8 + FlatLattice.BUILD_STEPS + cfg.max_piece_length


def seed_stages(cfg: UnigramConfig, words: Counter, cancelled) -> Generator[int, None, UnigramState]:
    """:func:`seed_state` as a generator: it yields the number of each step done (up to
    :func:`seed_stage_count`), so the trainer reports progress while seeding and can stop between
    any two yields. Every step yields within a bounded amount of work (a block of words, strings,
    positions or arcs: see :mod:`tokviz.core.unigram.sorting`), several times when it is long."""
    st = UnigramState()
    # 1. characters and coverage (counted over "▁word", weighted by the word's count)
    wl = yield from numbered(0, _sorted_strings(list(words)))  # deterministic, whatever the corpus's order
    wstr = yield from numbered(0, _mapped(lambda w: SPACE_MARK + w, wl))  # "▁" + word sorts the same
    freq = np.array((yield from numbered(0, _mapped(words.__getitem__, wl))), dtype=np.float64)
    del wl
    yield 1
    joined, codes, first, last, lens, uc, inv = _join(wstr)
    yield 1  # joining and numbering the words' characters, then counting them, took ~0.2 s of CPU at 390k words
    pos_freq = np.repeat(freq, lens + 1)
    pos_freq[last] = 0.0  # the separators
    per_char = np.bincount(inv, weights=pos_freq, minlength=len(uc))
    char_count: Counter = Counter({chr(u): int(k) for u, k in zip(uc.tolist(), per_char.tolist(), strict=True)
                                   if k > 0})
    st.required = _required(cfg, char_count)
    if cancelled():
        raise Cancelled
    yield 2
    # 2. rare characters as UNK_CHAR (merging words that become equal)
    if len(st.required) < len(char_count):
        wstr, freq = yield from numbered(2, _rare_as_unknown(wstr, freq, char_count, st.required))
        joined, codes, first, last, lens, uc, inv = _join(wstr)
        pos_freq = np.repeat(freq, lens + 1)
    st.freq = freq
    yield 3
    # 3. every valid substring of 2..max_len characters inside a word occurring at least twice: its
    # occurrences (start node, length) and id
    room = yield from numbered(3, _valid_room(uc, inv, first, lens))
    occ_start, occ_len, sub_ids_arr, sub_first, sub_len, sub_count = yield from _frequent_substrings(
        codes, room, pos_freq, cfg.max_piece_length, first_stage=4)
    del room
    if cancelled():
        raise Cancelled
    # 4. seeds: characters, then substrings occurring at least twice by frequency x length
    last_stage = seed_stage_count(cfg) - 1
    chars = sorted(((c, k) for c, k in st.required.items()), key=lambda x: (-x[1], x[0]))
    cand, order = yield from numbered(last_stage - FlatLattice.BUILD_STEPS - 3, _ranked_seeds(
        st, cfg, chars, joined, sub_first, sub_len, sub_count))
    seed_of_sub = np.full(len(sub_len), -1, dtype=np.int64)
    seed_of_sub[cand[order]] = np.arange(len(chars), len(st.seeds))
    yield last_stage - FlatLattice.BUILD_STEPS - 2
    # 5. the word lattices: seed substrings plus single characters
    occ_seed = seed_of_sub[sub_ids_arr]
    keep = occ_seed >= 0
    char_id = {c: i for i, (c, _) in enumerate(chars)}
    is_sep = np.zeros(len(codes), dtype=bool)
    is_sep[last] = True
    pos_nodes = np.flatnonzero(~is_sep)
    char_seed = np.array([char_id.get(chr(x), -1) for x in uc.tolist()], dtype=np.int64)[inv]
    known_pos = pos_nodes[char_seed[pos_nodes] >= 0]
    del pos_nodes, is_sep
    yield last_stage - FlatLattice.BUILD_STEPS - 2
    # the occurrences are tens of millions: gathered and joined a block at a time (see compress_steps)
    stage = last_stage - FlatLattice.BUILD_STEPS - 2
    kept_start = yield from numbered(stage, compress_steps(occ_start, keep))
    arc_s = yield from numbered(stage, concat_steps((known_pos, kept_start)))
    kept_end = yield from numbered(stage, compress_steps(occ_len, keep))
    kept_end += kept_start
    del kept_start
    arc_e = yield from numbered(stage, concat_steps((known_pos + 1, kept_end)))
    del kept_end
    kept_seed = yield from numbered(stage, compress_steps(occ_seed, keep))
    arc_p = yield from numbered(stage, concat_steps((char_seed[known_pos], kept_seed)))
    del char_seed, known_pos, kept_seed
    yield last_stage - FlatLattice.BUILD_STEPS - 1
    st.words, building = FlatLattice.staged(first, last, arc_s, arc_e, arc_p)
    for k in building:
        yield last_stage - FlatLattice.BUILD_STEPS + k
    yield last_stage
    # 6. for pruning, each multi-character seed's alternative lattice is made from the word arcs inside
    # its first occurrence (on the first pruning round, for the seeds EM kept: see UnigramState.prune)
    n_chars = len(chars)
    occ_first = np.full(len(st.seeds), -1, dtype=np.int64)
    kk = np.flatnonzero(keep)[::-1]  # reversed, so the first occurrence is written last
    occ_first[occ_seed[kk]] = occ_start[kk]
    st.seed_first = occ_first
    st.seed_len = np.concatenate((np.ones(n_chars, dtype=np.int64), sub_len[cand[order]]))
    st.word_arcs = (arc_s, arc_e, arc_p)
    st.pieces = None
    st.n_chars = n_chars
    return st


def _required(cfg: UnigramConfig, char_count: Counter) -> dict[str, int]:
    """The characters the vocabulary must hold (most frequent first, up to the coverage), with their
    counts; raises TokvizError when ``cfg.vocab_size`` cannot hold them."""
    total = sum(char_count.values())
    ranked = sorted(char_count.items(), key=lambda x: (-x[1], x[0]))
    required: dict[str, int] = {}
    acc = 0
    for c, k in ranked:
        if cfg.character_coverage < 1.0 and acc / total >= cfg.character_coverage:
            break
        acc += k
        required[c] = k
    need = len(required) + len(META_PIECES)
    if cfg.vocab_size < need:
        raise TokvizError(
            f"The vocabulary size {cfg.vocab_size:,} is smaller than the {len(required):,} characters the corpus "
            f"needs plus {len(META_PIECES)} meta pieces: use at least {need:,}, or lower the character coverage."
        )
    return required


def _rare_as_unknown(wstr, freq, char_count, required) -> Generator[None, None, tuple[list[str], np.ndarray]]:
    """The words with every character outside ``required`` as UNK_CHAR, equal ones merged (sorted,
    with their summed counts)."""
    table = {ord(c): UNK_CHAR for c in char_count if c not in required}
    merged: Counter = Counter()
    fl = freq.tolist()
    for lo in range(0, len(wstr), LIST_BLOCK):
        for w, f in zip(wstr[lo : lo + LIST_BLOCK], fl[lo : lo + LIST_BLOCK], strict=True):
            merged[SPACE_MARK + w[1:].translate(table)] += f  # the word's own mark stays, however rare
        yield
    keys = yield from _sorted_strings(list(merged))
    counts = yield from _mapped(merged.__getitem__, keys)
    return keys, np.array(counts, dtype=np.float64)


def _valid_room(uc, inv, first, lens) -> Generator[None, None, np.ndarray]:
    """How long a valid substring starting at each node can be: no unknown character (nor the
    separator) in it, one script (``▁`` and combining marks fit any)."""
    scripts = _script_codes(uc)[inv]
    yield
    # effective script: combining marks take the one before them (forward fill within a word)
    # (a yield after every pass or two: over the millions of nodes of a few hundred thousand words, the
    # passes between two yields took 0.2-0.3 s of CPU)
    eff = scripts.copy()
    idx = np.where(eff == _INHERITED, -1, np.arange(len(eff)))
    np.maximum.accumulate(idx, out=idx)
    yield
    eff = np.where(idx >= 0, eff[np.maximum(idx, 0)], _ANY)
    del idx
    eff[scripts == _INVALID] = _INVALID
    eff[eff == _INHERITED] = _ANY
    del scripts
    yield
    # the last real script seen at or before each node (▁ and leading marks: none)
    n = len(eff)
    known = np.where(eff >= 0, np.arange(n), -1)
    np.maximum.accumulate(known, out=known)
    prev_known = np.concatenate(([-1], known[:-1]))
    del known
    yield
    change = (eff >= 0) & (prev_known >= 0) & (eff != eff[np.maximum(prev_known, 0)])
    yield
    # a change point only counts inside the word it belongs to
    change &= prev_known >= np.repeat(first, lens + 1)
    del prev_known
    yield
    # a substring [a, a + k) is valid when no invalid character lies in it and no script changes
    # after its first character: k <= reach[a] - a
    next_bad = np.minimum.accumulate(np.where(eff == _INVALID, np.arange(n), n)[::-1])[::-1]
    yield
    next_change = np.minimum.accumulate(np.where(change, np.arange(n), n)[::-1])[::-1]
    yield
    return np.minimum(next_bad, np.append(next_change[1:], n)) - np.arange(n)


def _ranked_seeds(st: UnigramState, cfg: UnigramConfig, chars, joined, sub_first, sub_len, sub_count):
    """Fill ``st``'s seeds (the characters, then the candidates by frequency × length, ties in string
    order), their string ranks and initial scores; returns the candidates (substring ids occurring at
    least twice) and the order of those kept. A generator, yielding between blocks."""
    cand = np.flatnonzero(sub_count >= 2)
    cand_score = sub_count[cand] * sub_len[cand]
    yield
    # made a block of candidates at a time: a list of (start, length) of millions, made and freed in one go,
    # held the run ~0.7 s of CPU without a cancel poll
    cand_first, cand_len = sub_first[cand], sub_len[cand]
    cand_str: list[str] = []
    for lo in range(0, len(cand), LIST_BLOCK):
        spans = zip(cand_first[lo : lo + LIST_BLOCK].tolist(), cand_len[lo : lo + LIST_BLOCK].tolist(), strict=True)
        cand_str += [joined[a : a + n] for a, n in spans]
        yield
    del cand_first, cand_len
    # ranks in string order (as Python compares them: by code point), for the ties of equal scores;
    # the strings are distinct (characters, and substrings of two or more)
    all_str = [c for c, _ in chars] + cand_str
    by_str = yield from _sorted_strings(all_str, indices=True)
    rank = np.empty(len(all_str), dtype=np.int64)
    rank[np.array(by_str, dtype=np.int64)] = np.arange(len(all_str))
    del by_str
    yield
    n_top = max(0, cfg.seed_size - len(chars))
    whole = len(cand) and float(cand_score.max()) * len(all_str) < 2.0**62 and np.all(cand_score % 1 == 0)
    if whole:  # (score, rank) as one integer key, to sort it a block at a time
        key = (-cand_score).astype(np.int64) * len(all_str) + rank[len(chars) :]
        order = (yield from argsort_steps(key))[:n_top]
        del key
    else:
        order = np.lexsort((rank[len(chars) :], -cand_score))[:n_top]
    seeds = [c for c, _ in chars] + (yield from _mapped(cand_str.__getitem__, order.tolist()))
    del cand_str, all_str
    raw = np.concatenate((np.array([k for _, k in chars], dtype=np.float64), cand_score[order]))
    st.seeds = seeds
    kept = np.concatenate((np.arange(len(chars)), len(chars) + order))
    st.str_rank = np.empty(len(seeds), dtype=np.int64)
    st.str_rank[(yield from argsort_steps(rank[kept]))] = np.arange(len(seeds))
    st.n_seeds = len(seeds)
    st.scores = np.log(raw) - np.log(raw.sum())
    st.alive = np.ones(len(seeds), dtype=bool)
    return cand, order


def _sorted_strings(strings: list[str], indices: bool = False) -> Generator[None, None, list]:
    """``sorted(strings)`` of distinct strings (or the indices in that order), sorted ``LIST_BLOCK``
    at a time and merged, yielding between blocks: a Python sort of a few hundred thousand words
    takes most of a second."""
    n = len(strings)
    key = strings.__getitem__
    runs = []
    for lo in range(0, n, LIST_BLOCK):
        runs.append(sorted(range(lo, min(n, lo + LIST_BLOCK)), key=key))
        yield
    if len(runs) <= 1:
        order = runs[0] if runs else []
    else:
        merged = heapq.merge(*runs, key=key)
        order = []
        while len(order) < n:
            order.extend(itertools.islice(merged, LIST_BLOCK))
            yield
    if indices:
        return order
    return (yield from _mapped(key, order))


def _mapped(f, items: list) -> Generator[None, None, list]:
    """``[f(x) for x in items]``, ``LIST_BLOCK`` items at a time, yielding between blocks."""
    out: list = []
    for lo in range(0, len(items), LIST_BLOCK):
        out += [f(x) for x in items[lo : lo + LIST_BLOCK]]
        yield
    return out


_B1 = np.uint64(0x9E3779B97F4A7C15)
_B2 = np.uint64(0xC2B2AE3D27D4EB4F)


def _join(wstr: list[str]):
    """The words joined with NUL after each: the text, its code points, each word's first and last
    node, its length, and the distinct code points with the index of each position's among them."""
    joined = "\x00".join(wstr) + "\x00"
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    lens = np.array([len(w) for w in wstr], dtype=np.int64)
    first = np.concatenate(([0], np.cumsum(lens + 1)[:-1]))
    # distinct code points through a table over all of Unicode: linear, where np.unique sorts
    present = np.zeros(0x110000, dtype=bool)
    present[codes] = True
    uc = np.flatnonzero(present).astype(np.uint32)
    rank = np.cumsum(present, dtype=np.int64) - 1
    return joined, codes, first, first + lens, lens, uc, rank[codes]


def _frequent_substrings(codes, room, weight, maxlen: int, min_count: float = 2.0, first_stage: int = 0):
    """Every substring of 2..maxlen characters starting at node ``a`` and at most ``room[a]`` long
    (the valid ones: see :func:`seed_state`) whose count (the ``weight`` of its start nodes summed)
    is at least ``min_count``, grouped into distinct strings.

    Returns ``(start, length, id)`` per occurrence and ``(first start, length, count)`` per id.
    Lengths go up one at a time, and a substring is only looked at when the two one shorter inside
    it (without its last, without its first character) were frequent: it cannot occur more often
    than they do. Substrings of a length are grouped by a 64-bit polynomial hash, and every group is
    checked with a second, independent one; should two different substrings ever share the first,
    that length is grouped exactly with a dict. Why hashes: ~1.3 million slices and dict lookups
    took ~2.5 s of Python on 20,000 lines, the hashes take a few numpy passes.

    A generator (its value is the tuple above): it yields ``first_stage + k - 2`` after each length
    ``k``, one of the seeding steps the trainer reports.
    """
    n = len(codes)
    c = codes.astype(np.uint64)
    pos = np.flatnonzero(room >= 2)
    h1, h2 = c[pos], c[pos] ^ np.uint64(0x5BD1E995)
    frequent = np.zeros(n + 1, dtype=bool)
    starts, lengths, ids, firsts, counts = [], [], [], [], []
    n_ids = 0
    for k in range(2, maxlen + 1):
        stage = first_stage + k - 3  # the step before this length's: reported while it works
        if k > 2:
            more = (room[pos] >= k) & frequent[pos] & frequent[pos + 1]
            pos, h1, h2 = pos[more], h1[more], h2[more]
            yield stage
        if not len(pos):
            break
        with np.errstate(over="ignore"):
            h1 = h1 * _B1 + c[pos + k - 1]
            h2 = h2 * _B2 + (c[pos + k - 1] ^ np.uint64(0x5BD1E995))
        yield stage
        order = yield from numbered(stage, argsort_steps(h1))  # within a group, by start
        sk = yield from numbered(stage, take_steps(h1, order))
        new_group = np.concatenate(([True], sk[1:] != sk[:-1]))
        s2 = yield from numbered(stage, take_steps(h2, order))
        collided = np.any(~new_group[1:] & (s2[1:] != s2[:-1]))
        del sk, s2
        yield stage
        if collided:  # a hash collision: group this length exactly
            joined = codes.tobytes().decode("utf-32-le")
            index: dict[str, int] = {}
            local = np.array([index.setdefault(joined[a:a + k], len(index)) for a in pos.tolist()], dtype=np.int64)
            order = np.argsort(local, kind="stable")
            sl = local[order]
            new_group = np.concatenate(([True], sl[1:] != sl[:-1]))
        group = np.empty(len(pos), dtype=np.int64)
        group[order] = np.cumsum(new_group) - 1
        yield stage
        count = np.bincount(group, weights=weight[pos])
        keep_group = count >= min_count
        gid = np.cumsum(keep_group) - 1 + n_ids
        keep = keep_group[group]
        frequent[:] = False
        frequent[pos[keep]] = True
        yield stage
        starts.append(pos[keep])
        lengths.append(np.full(int(keep.sum()), k, dtype=np.int64))
        ids.append(gid[group[keep]])
        firsts.append(pos[order[np.flatnonzero(new_group)]][keep_group])
        counts.append(count[keep_group])
        n_ids += int(keep_group.sum())
        yield first_stage + k - 2
    if not starts:
        e = np.zeros(0, dtype=np.int64)
        return e, e, e, e, e, np.zeros(0)
    sub_len = np.concatenate([np.full(len(f), k, dtype=np.int64) for k, f in enumerate(firsts, start=2)])
    # the occurrences are tens of millions: joined a block at a time, yielding (one call each took ~0.1 s)
    stage = first_stage + maxlen - 2
    occ_start = yield from numbered(stage, concat_steps(tuple(starts)))
    del starts
    occ_len = yield from numbered(stage, concat_steps(tuple(lengths)))
    del lengths
    occ_id = yield from numbered(stage, concat_steps(tuple(ids)))
    del ids
    return occ_start, occ_len, occ_id, np.concatenate(firsts), sub_len, np.concatenate(counts)


def _script_codes(uniq: np.ndarray) -> np.ndarray:
    """Script id of each distinct code point (``▁``: any, combining marks: inherited, NUL and
    UNK_CHAR: invalid)."""
    names: dict[str, int] = {}
    ids = []
    for u in uniq.tolist():
        ch = chr(u)
        if ch == SPACE_MARK:
            ids.append(_ANY)
        elif ch in ("\x00", UNK_CHAR):
            ids.append(_INVALID)
        else:
            s = script_of(ch)
            ids.append(_INHERITED if s == "Inherited" else names.setdefault(s, len(names)))
    return np.array(ids, dtype=np.int64)
