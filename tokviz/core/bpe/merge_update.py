"""Applying one merge to the merge state: the pair's occurrences become the new token, and the pair
counts, the heap and the pair -> slots index follow (the state itself: :mod:`~tokviz.core.bpe.merge_state`).

Merging ``(a, b)`` into ``t`` at an occurrence with left neighbour ``x`` and right neighbour ``y``
takes the word's weight off ``(x, a)`` and ``(b, y)`` and gives it to ``(x, t)`` and ``(t, y)``. When no
occurrence touches another one (the usual case: ``a b a b`` and ``a a a a`` are the exceptions), the
pairs lost and the pairs born come in matching groups - one per distinct neighbour token, with the
same summed weight - so each merge groups its neighbours *once* and derives both from the groups.
Occurrences that touch take the general route, which looks at each side twice.

Each route exists twice: vectorized with numpy for merges with many candidate slots (early in
training: 100k+ occurrences cost milliseconds as array operations, seconds as Python loops), and in
plain Python through memoryviews for a few dozen slots (most merges after the first thousand: a
numpy call costs microseconds of fixed overhead, reading a memoryview item ~30 ns).
"""

from __future__ import annotations

import heapq
from itertools import compress, repeat
from operator import sub

import numpy as np

from tokviz.core.bpe.pair_heap import KEY_BITS, MAXC, SHIFT, push_all

_SMALL_MERGE = 48  # at most this many candidate slots: merge in plain Python
_SMALL_SUBTRACT = 160  # at most this many broken pairs: their counts are summed in plain Python


def merge_pair(st, key: int, a: int, b: int, t: int) -> None:
    """Replace every occurrence of pair ``(a, b)`` (key ``key``, left to right) in the merge state
    ``st`` by token ``t``; update the counts, the index and the heap."""
    cand, maybe_dup = st.candidates(key)
    if len(cand) <= _SMALL_MERGE:
        _merge_few(st, cand, key, a, b, t)
        return
    tok, nxt = st.tok, st.nxt
    if type(cand) is list:
        cand = np.array(cand, dtype=np.intp)
    nc = nxt[cand]
    found = (tok[cand] == a) & (tok[nc] == b)
    pos = cand[found]
    if maybe_dup or (a == b and len(pos) > 1):
        pos.sort()  # a fresh array (a boolean selection): sorted, as the left-to-right rule below needs
        pos = pos[np.concatenate(([True], pos[1:] != pos[:-1]))]
        if a == b and len(pos) > 1:
            pos = _non_overlapping(pos, nxt)
        j = nxt[pos]
    else:
        j = nc[found]
    if not len(pos):
        st.pair_counts[key] = 0
        return
    prv = st.prv
    left = prv[pos]
    tl = tok[left]
    # touching: an occurrence's left neighbour is another one's b. With a != b every (a, b) in the
    # words is listed in pos, so a left neighbour b preceded by a is one; (a, a) runs are checked
    # against the occurrences kept (only those merge)
    mark = st.mark
    if a == b:
        mark[j] = True
        touching = bool(mark[left].any())
        mark[j] = False
        if touching:
            _merge_many_touching(st, pos, key, a, b, t)
            return
        _merge_many(st, pos, j, left, tl, key, a, b, t)
        return
    lb = (tl == b).nonzero()[0]
    hit = lb[tok[prv[left[lb]]] == a] if len(lb) else lb
    if not len(hit):
        _merge_many(st, pos, j, left, tl, key, a, b, t)
        return
    # Some occurrences touch ("a b a b"): only their chains take the general route. In jamo text
    # most frequent pairs touch somewhere (하하하), yet hardly one occurrence in fifty does.
    mark[pos[hit]] = True
    mark[prv[left[hit]]] = True  # the occurrence on the left of each one that touches
    chained = mark[pos]
    mark[pos] = False
    if 2 * len(hit) > len(pos):
        _merge_many_touching(st, pos, key, a, b, t)
        return
    apart = ~chained
    _merge_many(st, pos[apart], j[apart], left[apart], tl[apart], key, a, b, t)
    # the chains' neighbours are no occurrence of the rest, so merging them second reads nothing the
    # first part wrote; the pairs they make may have just been made by it: their counts are added
    chains = pos[chained]
    if len(chains) <= _SMALL_MERGE:  # usually a handful
        _merge_few_touching(st, sorted(chains.tolist()), key, a, b, t)
    else:
        _merge_many_touching(st, chains, key, a, b, t, new_keys=False)


# ---- occurrences apart: one grouping of the neighbours gives the pairs lost and born -----------
def _merge_many(st, pos, j, left, tl, key: int, a: int, b: int, t: int) -> None:
    tok, nxt, prv = st.tok, st.nxt, st.prv
    right = nxt[j]
    tr = tok[right]
    w = st.weight[pos]
    st.corpus_tokens -= int(w.sum())
    tok[pos] = t
    tok[j] = -2
    nxt[pos] = right
    prv[right] = pos
    vl = tl >= 0
    vr = tr >= 0
    n_vocab = max(st.next_id, t + 1)  # char mode may reuse an old id for t: bound by every id
    # the neighbour tokens, right ones shifted by n_vocab: (x, a) -> (x, t) at the left neighbour's
    # slot, (b, y) -> (t, y) at the occurrence's slot
    other = np.concatenate((tl[vl], tr[vr] + n_vocab))
    if not len(other):
        st.pair_counts[key] = 0
        return
    slots = np.concatenate((left[vl], pos[vr]))
    weights = np.concatenate((w[vl], w[vr]))
    if 2 * n_vocab <= 0x10000:  # 16-bit sort keys: numpy sorts them by radix
        order = other.astype(np.uint16).argsort(kind="stable")
    else:
        order = other.argsort()  # any order within a group will do
    so = other[order]
    starts = np.concatenate(([True], so[1:] != so[:-1])).nonzero()[0]
    sums = np.add.reduceat(weights[order], starts).astype(np.int64).tolist()
    xs = so[starts].astype(np.int64)
    split = int(xs.searchsorted(n_vocab))
    xl, xr = xs[:split], xs[split:] - n_vocab
    lost = np.concatenate(((xl << SHIFT) | a, (b << SHIFT) | xr)).tolist()
    born = np.concatenate(((xl << SHIFT) | t, (t << SHIFT) | xr)).tolist()
    bounds = starts.tolist()
    bounds.append(len(so))
    pc = st.pair_counts
    # one key may be lost from both sides ((b, a) in "b a b" and "a b a"): the map reads each
    # count just before its update, so both subtractions land
    pc.update(zip(lost, map(sub, map(pc.get, lost, repeat(0)), sums), strict=True))
    pc[key] = 0  # left-to-right merging leaves no occurrence behind
    _add_groups(st, t, born, sums, slots[order], bounds)


def _add_groups(st, t: int, born: list[int], sums: list[int], sorted_slots, bounds: list[int],
                new_keys: bool = True) -> None:
    """Count the pairs just made with token ``t``: ``born[i]`` (ascending) with weight ``sums[i]`` at the
    slots ``sorted_slots[bounds[i]:bounds[i + 1]]``; heap entries for the mergeable ones, and the slots
    of every one. ``new_keys=False``: this merge may have made some of these pairs already (they are
    added to)."""
    pc, heap, floor = st.pair_counts, st.heap, st.floor
    if new_keys and (st.fresh_keys or st.made_new) and t not in st.births:
        # every key holds the brand-new token t: new and distinct. Their slots stay where they are, in
        # t's birth record, found when one of them is merged (a few are, of the thousands made): a
        # dict entry and a tuple per pair made cost as much as counting them
        pc.update(zip(born, sums, strict=True))
        st.births[t] = (born, sorted_slots, bounds)
        if floor > 1:
            keep = list(map(floor.__le__, sums))
            born, sums = list(compress(born, keep)), list(compress(sums, keep))
        push_all(heap, sums, born)
        return
    # a string made again (char mode), or pairs this merge made already: each adds to the count its
    # pair has (and a key may come from both sides when t is an old id), so one at a time
    new_slots = st.new_slots
    for i, k in enumerate(born):
        c = pc.get(k, 0) + sums[i]
        pc[k] = c
        if c >= floor:
            heapq.heappush(heap, ((MAXC - c) << KEY_BITS) | k)
        _add_slots(new_slots, k, sorted_slots[bounds[i]: bounds[i + 1]])


def _merge_few(st, cand, key: int, a: int, b: int, t: int) -> None:
    """:func:`merge_pair` for a handful of slots, element by element through memoryviews of the
    arrays (a memoryview item is a plain int, ~20x cheaper to read than a numpy scalar)."""
    T, N, P, W = st.views
    pc = st.pair_counts
    pos = {c for c in (cand if type(cand) is list else cand.tolist()) if T[c] == a and T[N[c]] == b}
    if not pos:
        pc[key] = 0
        return
    if a == b and len(pos) > 1:
        keep, taken = [], -1
        for p_ in sorted(pos):  # in a run "a a a" only the first two merge (left to right)
            if p_ != taken:
                keep.append(p_)
                taken = N[p_]
        pos = keep
    if not {N[p_] for p_ in pos}.isdisjoint(map(P.__getitem__, pos)):
        _merge_few_touching(st, sorted(pos), key, a, b, t)
        return
    # group the neighbours: left token x as x, right token y as ~y (negative), each with its
    # summed weight and slots; no occurrence touches another, so the writes never change a read
    groups: dict[int, list] = {}
    total = 0.0
    for p_ in pos:
        w = W[p_]
        total += w
        left = P[p_]
        x = T[left]
        j = N[p_]
        r = N[j]
        y = T[r]
        T[p_] = t
        T[j] = -2
        N[p_] = r
        P[r] = p_
        if x >= 0:
            g = groups.get(x)
            if g is None:
                groups[x] = [w, left]
            else:
                g[0] += w
                g.append(left)
        if y >= 0:
            g = groups.get(~y)
            if g is None:
                groups[~y] = [w, p_]
            else:
                g[0] += w
                g.append(p_)
    st.corpus_tokens -= int(total)
    heap, new_slots, floor, fresh = st.heap, st.new_slots, st.floor, st.fresh_keys
    high_b, high_t = b << SHIFT, t << SHIFT
    for x, g in groups.items():
        w = int(g[0])
        if x >= 0:
            pc[(x << SHIFT) | a] -= w
            k = (x << SHIFT) | t
        else:
            pc[high_b | ~x] -= w
            k = high_t | ~x
        cnt = pc.get(k, 0) + w
        pc[k] = cnt
        if cnt < floor:
            if fresh:
                continue  # never merged, never made again: only its count is kept
        else:
            heapq.heappush(heap, ((MAXC - cnt) << KEY_BITS) | k)
        del g[0]  # what is left are the slots
        _add_slots(new_slots, k, g)
    pc[key] = 0  # left-to-right merging leaves no occurrence behind


def _add_slots(new_slots: dict, k: int, slots: list) -> None:
    lst = new_slots.get(k)
    if lst is None:
        new_slots[k] = [slots]
    else:
        lst.append(slots)


# ---- occurrences that touch ("a b a b", "a a a a"): each side looked at before and after -------
def _merge_many_touching(st, pos, key: int, a: int, b: int, t: int, new_keys: bool = True) -> None:
    tok, nxt, prv, weight, mark = st.tok, st.nxt, st.prv, st.weight, st.mark
    pc = st.pair_counts
    n_vocab = max(st.next_id, t + 1)
    j = nxt[pos]
    left = prv[pos]
    right = nxt[j]
    # pairs that disappear: (l, a) at the left neighbour unless that neighbour is the b of an
    # adjacent occurrence (then it is that occurrence's (b, r)), and (b, r) at each j
    mark[j] = True
    lsel = left[(tok[left] >= 0) & ~mark[left]]
    mark[j] = False
    rsel = right[tok[right] >= 0]
    if len(lsel) + len(rsel) <= _SMALL_SUBTRACT:
        _subtract_few(pc, tok[lsel].tolist(), weight[lsel].tolist(), tok[rsel].tolist(), weight[rsel].tolist(),
                      a, b)
    else:
        _subtract_by_token(pc, tok[lsel], weight[lsel], n_vocab, 0, a)
        _subtract_by_token(pc, tok[rsel], weight[rsel], n_vocab, b, 0)
    pc[key] = 0
    st.corpus_tokens -= int(weight[pos].sum())
    tok[pos] = t
    tok[j] = -2
    nxt[pos] = right
    prv[right] = pos
    # pairs that appear, all holding t: (l', t) at the left neighbour (unless it is an
    # adjacent occurrence: then it is that one's (t, t)) and (t, r) at pos
    new_left = prv[pos]
    mark[pos] = True
    lborn = new_left[(tok[new_left] >= 0) & ~mark[new_left]]
    mark[pos] = False
    rborn = pos[tok[nxt[pos]] >= 0]
    xl = tok[lborn].astype(np.int64)
    xr = tok[nxt[rborn]].astype(np.int64)
    keys = np.concatenate(((xl << SHIFT) | t, (t << SHIFT) | xr))
    if not len(keys):
        return
    slots = np.concatenate((lborn, rborn))
    if (st.fresh_keys or st.made_new) and 2 * n_vocab <= 0x10000:
        # a new t: a left neighbour is never t (every t is an occurrence, and those were left out),
        # so the other token (+ n_vocab on the right) tells the keys apart: 16-bit keys, sorted by radix
        order = np.concatenate((xl, xr + n_vocab)).astype(np.uint16).argsort(kind="stable")
    else:
        order = keys.argsort(kind="stable")  # a string made again: (t, t) may come from both sides
    sk = keys[order]
    starts = np.concatenate(([True], sk[1:] != sk[:-1])).nonzero()[0]
    sorted_slots = slots[order]
    sums = np.add.reduceat(weight[sorted_slots], starts).astype(np.int64).tolist()
    bounds = starts.tolist()
    bounds.append(len(sk))
    _add_groups(st, t, sk[starts].tolist(), sums, sorted_slots, bounds, new_keys)


def _merge_few_touching(st, pos: list[int], key: int, a: int, b: int, t: int) -> None:
    T, N, P, W = st.views
    pc = st.pair_counts
    # 1. pairs that disappear, read before anything changes: (l, a) at the left neighbour unless
    #    that neighbour is the b of an adjacent occurrence, and (b, r) after each occurrence
    jset = {N[p_] for p_ in pos}
    total = 0.0
    lost: dict[int, float] = {}
    for p_ in pos:
        w = W[p_]
        total += w
        left = P[p_]
        tl = T[left]
        if tl >= 0 and left not in jset:
            k = (tl << SHIFT) | a
            lost[k] = lost.get(k, 0.0) + w
        tr = T[N[N[p_]]]
        if tr >= 0:
            k = (b << SHIFT) | tr
            lost[k] = lost.get(k, 0.0) + w
    for k, d in lost.items():
        pc[k] -= int(d)
    pc[key] = 0
    st.corpus_tokens -= int(total)
    # 2. merge: the occurrence's slot takes t, its right half is absorbed
    for p_ in pos:
        j = N[p_]
        r = N[j]
        T[p_] = t
        T[j] = -2
        N[p_] = r
        P[r] = p_
    # 3. pairs that appear, all holding t: (l', t) at the new left neighbour unless it is another
    #    occurrence (then it is that one's (t, t)), and (t, r) at the occurrence
    pset = set(pos)
    born: dict[int, list] = {}
    for p_ in pos:
        w = W[p_]
        left = P[p_]
        tl = T[left]
        if tl >= 0 and left not in pset:
            k = (tl << SHIFT) | t
            entry = born.get(k)
            if entry is None:
                born[k] = [w, left]
            else:
                entry[0] += w
                entry.append(left)
        tr = T[N[p_]]
        if tr >= 0:
            k = (t << SHIFT) | tr
            entry = born.get(k)
            if entry is None:
                born[k] = [w, p_]
            else:
                entry[0] += w
                entry.append(p_)
    heap, new_slots, floor, fresh = st.heap, st.new_slots, st.floor, st.fresh_keys
    for k, entry in born.items():
        cnt = pc.get(k, 0) + int(entry[0])
        pc[k] = cnt
        if cnt < floor:
            if fresh:
                continue
        else:
            heapq.heappush(heap, ((MAXC - cnt) << KEY_BITS) | k)
        del entry[0]
        _add_slots(new_slots, k, entry)


def _subtract_by_token(pc: dict, toks, weights, n_vocab: int, left: int, right: int) -> None:
    """Take the weights of the pairs that disappear off their counts: for every token x in ``toks``,
    the pair ``(x, right)`` (when ``left`` is 0) or ``(left, x)`` loses the summed weight of its
    occurrences. Sums by ``bincount`` over the vocabulary when that is cheaper than sorting (many
    occurrences), else by ``np.unique``; the dict is updated without a Python-level loop."""
    if not len(toks):
        return
    if len(toks) * 8 > n_vocab:
        sums = np.bincount(toks, weights=weights, minlength=n_vocab)
        present = sums.nonzero()[0]
        vals = sums[present].astype(np.int64).tolist()
    else:
        present, inv = np.unique(toks, return_inverse=True)
        vals = np.bincount(inv, weights=weights).astype(np.int64).tolist()
    present = present.astype(np.int64)
    keys = ((present << SHIFT) | right if left == 0 else (left << SHIFT) | present).tolist()
    pc.update(zip(keys, map(sub, map(pc.get, keys, repeat(0)), vals), strict=True))


def _subtract_few(pc: dict, left_toks: list, left_weights: list, right_toks: list, right_weights: list,
                  a: int, b: int) -> None:
    """:func:`_subtract_by_token` for both sides of a merge of ``(a, b)`` at once, in plain Python:
    for a few hundred neighbours, cheaper than sorting or counting them with numpy."""
    lost: dict[int, float] = {}
    get = lost.get
    for x, w in zip(left_toks, left_weights, strict=True):
        k = (x << SHIFT) | a
        lost[k] = get(k, 0.0) + w
    high = b << SHIFT
    for y, w in zip(right_toks, right_weights, strict=True):
        k = high | y
        lost[k] = get(k, 0.0) + w
    for k, w in lost.items():
        pc[k] -= int(w)


def _non_overlapping(pos, nxt):
    """For a pair ``(a, a)``: in a run ``a a a`` only the first two merge (left to right), so drop
    every occurrence that starts on the right half of a kept one."""
    keep = []
    taken = -1
    nx = nxt[pos].tolist()
    for p, q in zip(pos.tolist(), nx, strict=True):
        if p == taken:
            continue
        keep.append(p)
        taken = q
    return np.array(keep, dtype=np.intp)
