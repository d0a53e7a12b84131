"""The Boundaries panel's model without Qt: intents, stale results, the stream's cursor, and the jobs'
results against an independent reference (Python's incremental UTF-8 decoder, decoding the byte prefix)."""

from __future__ import annotations

import codecs

import pytest

import tokviz.ui.boundaries.jobs as jobs_module
import tokviz.ui.boundaries.model as model_module
from tokviz.core.encoders.builtin import default_registry
from tokviz.ui.boundaries.jobs import ROW_CHARS, compute, split_a_token
from tokviz.ui.boundaries.model import BAD_BACK, BAD_BUDGET, BoundariesState, Request, Status

KOREAN = "안녕하세요 👋"


@pytest.fixture(scope="module")
def cl100k():
    return default_registry().get("cl100k_base")


def _heard(state: BoundariesState) -> list[tuple[str, object]]:
    heard: list[tuple[str, object]] = []
    state.events.connect(lambda name, value: heard.append((name, value)))
    return heard


def test_the_model_and_the_jobs_import_no_qt():
    for module in (model_module, jobs_module):
        source = open(module.__file__, encoding="utf-8").read()
        assert "PySide6" not in source and "pyqtgraph" not in source


def test_a_result_of_inputs_no_longer_on_screen_is_dropped():
    state = BoundariesState("cl100k_base", "안녕")
    old = state.needs("cut")
    state.started(old)
    assert state.needs("cut") is None  # asked already: no second job for the same inputs
    state.set_text("안녕하세요")
    new = state.needs("cut")
    assert new is not None and new.text == "안녕하세요"
    assert state.finished(old, "stale result") is False
    assert "cut" not in state.results and state.status["cut"] == Status("running")
    state.started(new)
    assert state.finished(new, "result") is True and state.results["cut"] == "result"
    assert state.status["cut"].kind == "done" and state.needs("cut") is None


def test_a_failure_is_kept_with_its_reason_and_clears_the_old_result():
    state = BoundariesState("cl100k_base", "x")
    req = state.needs("heal")
    state.started(req)
    state.finished(req, "old")
    state.set_back(2)
    req = state.needs("heal")
    state.started(req)
    assert state.failed(req, "the text has 1 token; cannot back up 2")
    assert state.status["heal"] == Status("failed", "the text has 1 token; cannot back up 2")
    assert "heal" not in state.results


def test_ids_that_do_not_parse_stop_canonical_and_stream_only():
    state = BoundariesState("cl100k_base", "안녕")
    heard = _heard(state)
    assert state.set_ids_text("393 x") is not None
    assert state.ids_error and ("ids_error", state.ids_error) in heard
    assert state.request("canonical") is None and state.request("stream") is None
    assert state.request("heal") is not None  # the text hazards do not read the ids
    assert state.set_ids_text("[393, 30002]") is None
    assert state.request("canonical").ids == (393, 30002) and state.request("cut").ids is None
    assert state.set_ids_text("") is None and state.request("stream").ids is None  # empty: the text's own ids


def test_bad_numbers_are_refused_and_the_inputs_stay():
    state = BoundariesState("cl100k_base", "안녕")
    heard = _heard(state)
    assert state.set_back(0) == BAD_BACK and state.back == 1
    assert state.set_budget(-1) == BAD_BUDGET and state.budget == 8
    assert heard == []
    with pytest.raises(ValueError):
        state.show("everything")


def test_chat_hazards_read_the_conversation_not_the_text():
    state = BoundariesState("qwen", "안녕")
    assert state.request("turns") is None  # no conversation yet
    state.set_chat("messages")
    assert state.request("injection") == Request("injection", "qwen", chat="messages")
    state.set_text("other")
    assert state.request("turns") == Request("turns", "qwen", chat="messages")


def _stream_state(cl100k) -> BoundariesState:
    state = BoundariesState("cl100k_base", KOREAN)
    state.show("stream")
    req = state.needs()
    state.started(req)
    state.finished(req, compute(req, cl100k))
    return state


def test_the_stream_steps_to_its_end_and_playing_stops_there(cl100k):
    state = _stream_state(cl100k)
    n = state.stream_length()
    assert n == len(cl100k.encode(KOREAN).ids)
    assert state.play() and state.playing
    while state.step():
        pass
    assert state.stream_cursor == n and not state.playing
    assert state.play() and state.stream_cursor == 0  # play at the end starts over
    state.step()
    state.reset_stream()
    assert state.stream_cursor == 0 and not state.playing
    state.play()
    state.show("cut")  # leaving the view pauses the replay
    assert not state.playing


def test_each_stream_step_prints_what_pythons_incremental_decoder_prints(cl100k):
    result = compute(Request("stream", "cl100k_base", text=KOREAN), cl100k)
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for step, token_id in zip(result.steps, cl100k.encode(KOREAN).ids, strict=True):
        assert step.emitted == decoder.decode(cl100k.token_bytes(token_id))
    assert any(s.pending for s in result.steps) and "�" in "".join(s.naive for s in result.steps)


@pytest.mark.parametrize("budget", range(8))
def test_the_cut_keeps_what_the_byte_prefix_prints(cl100k, budget):
    ids = cl100k.encode(KOREAN).ids
    prefix = b"".join(cl100k.token_bytes(i) for i in ids[:budget])
    result = compute(Request("cut", "cl100k_base", text=KOREAN, budget=budget), cl100k)
    assert result.cut.kept_text == codecs.getincrementaldecoder("utf-8")().decode(prefix)
    assert len(result.kept) == min(budget, len(ids)) and result.encoding.ids == ids


def test_a_split_token_spells_the_same_bytes_with_ids_the_encoder_does_not_give(cl100k):
    ids = tuple(cl100k.encode(KOREAN).ids)
    split = split_a_token(cl100k, None, KOREAN)
    assert len(split) == len(ids) + 1
    assert b"".join(map(cl100k.token_bytes, split)) == KOREAN.encode("utf-8")
    result = compute(Request("canonical", "cl100k_base", ids=split), cl100k)
    assert not result.check.is_canonical and result.check.canonical_ids == ids
    assert result.given.text == KOREAN and result.canonical.ids == list(ids)


FAMILY_TEXT = "안녕하세요 세계, hello 🙂!"


def test_every_text_hazard_works_for_every_encoder_family(family):
    """What the views show for SentencePiece, tokenizer.json, GGUF and tokviz's own BPE: each hazard gives a
    result, a stream prints the text the tokens spell, and a split token is not canonical."""
    name = family.name
    for hazard in ("canonical", "heal", "cut"):
        assert compute(Request(hazard, name, text=FAMILY_TEXT, budget=3), family) is not None
    ids = tuple(family.encode(FAMILY_TEXT).ids)
    stream = compute(Request("stream", name, ids=ids), family)
    data = b"".join(family.token_bytes(i) for i in ids)
    assert "".join(s.emitted for s in stream.steps) == codecs.getincrementaldecoder("utf-8")("replace").decode(data)
    split = split_a_token(family, ids, FAMILY_TEXT)
    assert not compute(Request("canonical", name, ids=split), family).check.is_canonical


def test_a_text_too_long_to_align_gets_its_answer_without_rows(cl100k):
    text = "가나 " * (ROW_CHARS // 3 + 1)
    cut = compute(Request("cut", "cl100k_base", text=text, budget=5), cl100k)
    assert cut.kept is None and cut.cut.tokens == 5
    check = compute(Request("canonical", "cl100k_base", text=text), cl100k)
    assert check.given is None and check.check.is_canonical


def test_the_screenshot_options_of_the_boundaries_view_are_checked_before_any_window(tmp_path, capsys):
    from tokviz.cli import main

    out = str(tmp_path / "shot.png")
    assert main(["screenshot", "--view", "inspect", "--hazard", "cut", "-o", out]) == 2
    assert "--hazard and --budget are for the boundaries view" in capsys.readouterr().err
    assert main(["screenshot", "--view", "boundaries", "--budget", "-1", "-o", out]) == 2
