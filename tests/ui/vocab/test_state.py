"""The Vocabulary panel's state without Qt: intents, what work it wants, results cached per encoder
object, and results of superseded requests dropped."""

from __future__ import annotations

import pytest

import tokviz.ui.vocab.jobs as jobs_module
import tokviz.ui.vocab.state as state_module
from tests.support.vocab_encoders import GEOT, small_encoder
from tokviz.core.errors import InvalidTextError
from tokviz.ui.vocab.jobs import run_request
from tokviz.ui.vocab.state import Request, VocabState


def _heard(state: VocabState) -> list[tuple[str, object]]:
    heard: list[tuple[str, object]] = []
    state.events.connect(lambda name, value: heard.append((name, value)))
    return heard


def _run(state: VocabState, encoders: dict, request: Request) -> bool:
    """Start ``request`` and deliver what it computes, as the panel's worker does."""
    state.started(request)
    return state.deliver(run_request(request, encoders.__getitem__, cached=state.cached))


def test_state_and_jobs_import_no_qt():
    for module in (state_module, jobs_module):
        source = open(module.__file__, encoding="utf-8").read()
        assert "PySide6" not in source and "pyqtgraph" not in source


def test_bad_intents_are_refused_with_a_reason_and_change_nothing():
    state = VocabState(["a", "b"])
    heard = _heard(state)
    assert state.choose_encoder("zz") == "no encoder named zz"
    assert state.choose_second("zz") == "no encoder named zz"
    assert "unknown map" in state.choose_map("words")
    assert "unknown tab" in state.show_tab("nope")
    assert (state.encoder, state.second, state.map_kind, state.tab) == ("a", None, "numbers", "tree")
    assert heard == []


def test_a_search_selects_its_best_match_and_then_wants_that_tokens_tree():
    encoders = {"s": small_encoder("s")}
    state = VocabState(["s"])
    state.search("것")
    (search,) = state.wanted()
    assert search == Request("search", "s", param="것")
    assert _run(state, encoders, search)
    geot = encoders["s"].mergeable_ranks()[GEOT]
    assert state.selected == geot  # the token that is exactly the text comes first
    (tree,) = state.wanted()
    assert tree == Request("tree", "s", param=str(geot))
    assert _run(state, encoders, tree)
    assert state.result("tree").tree.id == geot and state.wanted() == []


def test_a_new_query_selects_its_own_first_match_and_the_same_query_keeps_a_pick():
    encoders = {"s": small_encoder("s")}
    ranks = encoders["s"].mergeable_ranks()
    state = VocabState(["s"])
    state.search("ab")
    assert _run(state, encoders, state.wanted()[0]) and state.selected == ranks[b"ab"]
    state.search("a")  # "ab" is among the matches of "a", but the token that is exactly "a" comes first
    assert _run(state, encoders, state.wanted()[0]) and state.selected == ranks[b"a"]
    state.select(ranks[b"abc"])  # picked in the list
    search = Request("search", "s", param="a")
    assert _run(state, encoders, search) and state.selected == ranks[b"abc"]


def test_text_no_token_holds_lists_the_tokens_it_is_written_as_and_shows_the_first():
    encoders = {"s": small_encoder("s")}
    state = VocabState(["s"])
    state.search("것이")  # 것 is a token, 이 (EC 9D B4) only its three bytes
    (search,) = state.wanted()
    assert _run(state, encoders, search)
    result = state.result("search")
    geot = encoders["s"].mergeable_ranks()[GEOT]
    assert result.written_as and result.written_in == 4
    assert result.matches == [(geot, "것"), (0xEC, "\\xec"), (0x9D, "\\x9d"), (0xB4, "\\xb4")]
    assert state.selected == geot and state.wanted() == [Request("tree", "s", param=str(geot))]
    # a token that holds the text is listed as before; ids and hex bytes never fall back to text
    assert not jobs_module.search_tokens(encoders["s"], "것").written_as
    for query in ("#99999", "EC 9D", "0xEC9DB4"):
        assert jobs_module.search_tokens(encoders["s"], query) == jobs_module.SearchResult(query, [])
    with pytest.raises(InvalidTextError, match="surrogate"):  # shown as a message, not a traceback
        jobs_module.search_tokens(encoders["s"], "a\udc00b")


def test_cl100k_writes_saenggak_as_one_hangul_token_and_two_byte_tokens():
    """The case a Korean user meets first: 생각 is one token of o200k_base, none of cl100k_base."""
    from tokviz.core.encoders.builtin import default_registry

    registry = default_registry()
    o200k = jobs_module.search_tokens(registry.get("o200k_base"), "생각")
    assert not o200k.written_as and any(token.endswith("생각") for _, token in o200k.matches)
    cl100k = registry.get("cl100k_base")
    found = jobs_module.search_tokens(cl100k, "생각")
    assert found.written_as and [token for _, token in found.matches] == ["생", "\\xea\\xb0", "\\x81"]
    assert [i for i, _ in found.matches] == cl100k.encode("생각").ids


def test_a_result_that_arrives_after_the_user_moved_on_is_dropped():
    encoders = {"s": small_encoder("s"), "t": small_encoder("t")}
    state = VocabState(["s", "t"])
    state.search("ab")
    old = state.wanted()[0]
    state.started(old)
    state.search("abc")  # typed on before the first search returned
    heard = _heard(state)
    assert not state.deliver(run_request(old, encoders.__getitem__))
    assert state.result("search") is None and ("result", "search") not in heard
    assert state.selected is None  # the stale matches selected nothing
    assert not state.fail(old, "boom") and state.jobs["search"].status != "failed"
    state.search("")  # nothing to search: the stale search's end leaves nothing running
    stale_search = Request("search", "s", param="abc")
    state.started(stale_search)
    assert not state.deliver(run_request(stale_search, encoders.__getitem__))
    assert state.jobs["search"].status == "idle"
    state.choose_encoder("t")  # another encoder: the reach work of "s" is stale too
    state.show_tab("reach")
    stale = Request("reach", "s")
    state.started(stale)
    assert not state.deliver(run_request(stale, encoders.__getitem__))
    assert state.result("reach") is None


def test_results_are_cached_per_encoder_object_not_per_name(monkeypatch):
    first = small_encoder("s")
    encoders = {"s": first}
    state = VocabState(["s"])
    state.show_tab("reach")
    (reach,) = state.wanted()
    assert _run(state, encoders, reach)
    shown = state.result("reach")
    assert ("reach", "") in state.cached_kinds(first)
    # the list of names is offered again (a model opened elsewhere): the same object's result is
    # answered from the cache, nothing is computed
    state.set_names(["s"])
    assert state.result("reach") is None and state.wanted() == [reach]
    monkeypatch.setattr(jobs_module, "reach_rows", lambda *a: (_ for _ in ()).throw(AssertionError("computed")))
    assert _run(state, encoders, reach)
    assert state.result("reach") is shown
    # another object under the same name (a file opened again) is computed anew
    monkeypatch.undo()
    encoders["s"] = small_encoder("s", extra=(b"xyz",))
    state.set_names(["s"])
    assert _run(state, encoders, reach)
    assert state.result("reach") is not shown


def test_a_diff_is_cached_under_both_encoders():
    encoders = {"a": small_encoder("a"), "b": small_encoder("b", extra=(b"xy",))}
    state = VocabState(["a", "b"])
    state.show_tab("diff")
    assert state.wanted() == []  # no second vocabulary chosen: nothing to compute
    state.choose_second("b")
    (diff,) = state.wanted()
    assert _run(state, encoders, diff)
    result = state.result("diff")
    assert result.counts["only_second"] == 1 and result.counts["only_first"] == 0
    computed_with = encoders["b"]
    encoders["b"] = small_encoder("b", extra=(b"xz",))  # B is another object now
    assert state.cached(diff, (encoders["a"], encoders["b"])) is None
    assert state.cached(diff, (encoders["a"], computed_with)) is result


def test_progress_is_reported_for_the_current_job_only():
    state = VocabState(["a"])
    state.show_tab("maps")
    (maps,) = state.wanted()
    state.started(maps)
    state.progress(maps, 3, 10)
    assert (state.jobs["maps"].status, state.jobs["maps"].done, state.jobs["maps"].total) == ("running", 3, 10)
    state.choose_map("indentation")
    state.progress(maps, 9, 10)  # the numbers job is stale now
    assert state.jobs["maps"].done == 3
