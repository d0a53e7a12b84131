"""Unreachable tokens and vocabulary diffs equal brute force on cl100k/o200k; corpus use counts;
number and indentation maps; what the tokviz export refuses (tests/test_cli_vocab.py writes, reads
and encodes with an export)."""

from __future__ import annotations

import csv
import io
from collections import Counter

import pytest

from tests.support.vocabularies import registry_encoder
from tokviz.core.vocab.diff import vocab_diff
from tokviz.core.vocab.maps import indentation_map, number_map, split_row
from tokviz.core.vocab.reach import corpus_use, reachability
from tokviz.core.vocab.scripts import SCRIPTS, script_of


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_unreachable_list_equals_brute_force(name):
    encoder = registry_encoder(name)
    tt = encoder.tiktoken
    specials = set(encoder.special_tokens().values())
    brute, partial, ordinary = [], [], 0
    for tid in range(tt.n_vocab):  # every id, holes and specials included, straight from tiktoken
        if tid in specials:
            continue
        try:
            data = tt.decode_single_token_bytes(tid)
        except KeyError:
            continue
        ordinary += 1
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            partial.append(tid)
            continue
        if tt.encode(text, allowed_special=set(), disallowed_special=()) != [tid]:
            brute.append(tid)
    r = reachability(encoder)
    assert list(r.unreachable) == brute and list(r.partial_utf8) == partial
    assert r.checked == ordinary
    # the generic route (Encoder.encode with its whole pipeline) agrees where it is checked
    for tid in brute[:20]:
        assert list(encoder.encode(tt.decode([tid])).ids) == list(r.encodes_as[tid])
    assert r.partial_never == ()  # every partial token of these two is built by some merge


def test_o200k_has_unreachable_tokens_that_context_still_uses():
    encoder = registry_encoder("o200k_base")
    r = reachability(encoder)
    tid = encoder.mergeable_ranks()[" 亚洲AV".encode()]
    assert tid in r.unreachable  # alone, the pattern splits the case change off ...
    assert tid in encoder.encode(" 亚洲AVx").ids  # ... which a following lowercase letter keeps together
    newline = encoder.mergeable_ranks()[b"\n//"]
    assert newline in r.unreachable and r.encodes_as[newline] == (198, 393)  # "\n" + "//": no piece starts "\n/"


def test_sentencepiece_tokens_are_tested_after_the_dummy_prefix():
    encoder = registry_encoder("sp:demo_unigram")
    r = reachability(encoder)
    the = [i for i in range(encoder.vocab_size) if encoder.token_bytes(i) == b" the"]
    assert the and the[0] not in r.unreachable  # "the" alone encodes as "▁the"
    assert len(r.unreachable) < r.checked // 2


@pytest.mark.parametrize(("a", "b"), [("cl100k_base", "o200k_base")])
def test_diff_counts_equal_brute_force(a, b):
    first, second = registry_encoder(a), registry_encoder(b)

    def walk(enc):  # every id through the Encoder protocol, not the rank table the diff reads
        specials = set(enc.special_tokens().values())
        out = {}
        for i in range(enc.vocab_size):
            if i not in specials:
                try:
                    out.setdefault(enc.token_bytes(i), i)
                except Exception:
                    pass
        return out

    wa, wb = walk(first), walk(second)
    d = vocab_diff(first, second)
    c = d.counts()
    assert c["shared"] == len(wa.keys() & wb.keys()) and c["only_first"] == len(wa.keys() - wb.keys())
    assert c["only_second"] == len(wb.keys() - wa.keys())
    assert c["same_id"] == sum(1 for t in wa.keys() & wb.keys() if wa[t] == wb[t])
    assert c["same_id"] + c["renumbered"] == c["shared"]
    assert set(d.only_first) == wa.keys() - wb.keys() and set(d.renumbered) == {
        t for t in wa.keys() & wb.keys() if wa[t] != wb[t]}
    sa, sb = set(first.special_tokens()), set(second.special_tokens())
    assert set(d.specials_shared) == sa & sb and set(d.specials_only_second) == sb - sa
    if a == "cl100k_base":
        assert c["shared"] == 85_033  # the overlap Compare reports for this pair
    for counts, table in zip(d.census().values(), (wa, wb), strict=True):
        assert set(counts) == set(SCRIPTS) and sum(counts.values()) == len(table)
    doc = d.as_json()
    assert len(doc["only_second_tokens"]) == c["only_second"] and doc["shared_tokens"][0][1:] == [
        wa[d.shared[0]], wb[d.shared[0]]]


def test_corpus_use_counts_and_script_share():
    encoder = registry_encoder("o200k_base")
    texts = ["영화 정말 재밌어요", "별로였다 ㅋㅋ", "최고의 영화!"]
    use = corpus_use(encoder, texts)
    want = Counter(i for t in texts for i in encoder.encode(t).ids)
    assert use.tokens == sum(want.values()) and all(use.counts[i] == n for i, n in want.items())
    assert set(use.used_once()) == {i for i, n in want.items() if n == 1}
    assert len(use.never_used()) == len(use.ordinary) - len(want)
    used, of = use.script_share(encoder, "hangul")
    assert of == 2360 and used == sum(1 for i in want if script_of(encoder.token_bytes(i)) == "hangul")


def test_number_map_rows_tile_their_text_and_fast_route_equals_encode():
    encoder = registry_encoder("o200k_base")
    m = number_map(encoder, 10_000)
    assert len(m.rows) == 10_000 and m.histogram() == {1: 1000, 2: 9000}  # o200k: up to 3 digits a token
    for row in m.rows[::37]:
        assert "".join(row.pieces) == row.text and row == split_row(encoder, row.label, row.text)
        assert list(row.cuts) == [len("".join(row.pieces[:k + 1])) for k in range(len(row.pieces) - 1)]
    assert m.rows[1234].pieces == ("123", "4")
    rows = list(csv.reader(io.StringIO(m.csv())))
    assert rows[0][:5] == ["encoder", "kind", "label", "text", "tokens"] and rows[1235][3] == "1234"


def test_indentation_map_runs_of_spaces_and_tabs():
    encoder = registry_encoder("cl100k_base")
    m = indentation_map(encoder)
    assert len(m.rows) == 64
    for row in m.rows:
        assert "".join(row.pieces) == row.text
    assert {r.label for r in m.rows} >= {"16 spaces", "16 tabs + code", "1 tab"}


def test_export_refuses_what_a_tokviz_model_cannot_hold():
    from tokviz.core.errors import TokvizError
    from tokviz.core.vocab.export import export_bpe_model
    from tokviz.core.vocab.merges import recover_from_ranks

    encoder = registry_encoder("llama-3")
    toy = recover_from_ranks({bytes([i]): i for i in range(256)}, fast=False)
    with pytest.raises(TokvizError, match="pattern"):
        export_bpe_model(encoder, toy)


def test_long_work_reports_progress_and_stops_when_cancelled():
    from tokviz.core.bpe.model import BPEModel
    from tokviz.core.vocab.ranks import VocabCancelled

    class State:
        def __init__(self, stop: bool):
            self.stop, self.reports = stop, []

        def is_cancelled(self):
            return self.stop

        def progress(self, done, total):
            self.reports.append((done, total))

    model = BPEModel(mode="byte", merges=[(104, 105, 256)])
    with pytest.raises(VocabCancelled):
        reachability(model, State(stop=True))
    with pytest.raises(VocabCancelled):
        number_map(model, 10, State(stop=True))
    state = State(stop=False)
    assert reachability(model, state).checked == 257  # the cancelled walk left nothing half-made behind
    assert state.reports[-1][0] == state.reports[-1][1] == 257
