"""The Inspector's model without Qt: what a user does, as intents, and what the model then says."""

from __future__ import annotations

import pytest

import tokviz.ui.inspect.model as model_module
from tokviz.core.encoding import Encoding
from tokviz.ui.inspect.model import InspectState


def _heard(state: InspectState) -> list[tuple[str, object]]:
    heard: list[tuple[str, object]] = []
    state.events.connect(lambda name, value: heard.append((name, value)))
    return heard


def _state(*names: str) -> InspectState:
    state = InspectState()
    state.set_available(list(names) or ["gpt2", "cl100k_base", "mine"])
    state.set_text("ab cd")
    return state


def _tokens(text: str, cuts: list[int], ids: list[int] | None = None) -> Encoding:
    """An Encoding of ``text`` cut at ``cuts`` (ASCII text: characters are bytes)."""
    bounds = [0, *cuts, len(text)]
    ids = ids or list(range(len(bounds) - 1))
    return Encoding.from_arrays("toy", text, ids, bounds[:-1], bounds[1:])


def test_the_model_imports_no_qt():
    source = open(model_module.__file__, encoding="utf-8").read()
    assert "PySide6" not in source and "pyqtgraph" not in source


def test_changing_the_encoder_while_a_result_is_pending_drops_the_stale_result():
    state = _state()
    pending = state.next_request()
    assert pending.encoder == "cl100k_base"  # the default
    state.choose_encoder("gpt2")
    latest = state.next_request()
    assert not state.show(pending.generation, "cl100k_base's tokens")
    assert state.result is None and not state.is_current()
    assert state.show(latest.generation, "gpt2's tokens") and state.is_current()
    assert state.result == "gpt2's tokens"


def test_an_unavailable_encoder_is_refused_and_the_choice_stays():
    state = _state()
    with pytest.raises(ValueError):
        state.choose_encoder("a model file that moved")
    assert state.encoder == "cl100k_base"


def test_each_option_change_makes_a_new_request_and_the_old_result_stale():
    state = _state()
    first = state.next_request()
    state.set_normalization("NFC")
    second = state.next_request()
    assert (second.normalization, second.generation) == ("NFC", first.generation + 1)
    assert not state.show(first.generation, "old")
    with pytest.raises(ValueError):
        state.set_normalization("NFX")
    assert state.normalization == "NFC"


def test_the_chat_input_asks_for_special_tokens_and_no_normalization():
    state = _state()
    state.set_normalization("NFKC")
    state.set_input("chat")
    asked = state.next_request("<|im_start|>user\nhi<|im_end|>")
    assert asked.chat and asked.allow_special and asked.normalization == "none"
    assert asked.text.startswith("<|im_start|>")
    state.set_input("text")
    assert state.next_request().text == "ab cd"  # the editor's own text again


def test_a_relayout_needs_a_shown_encoding_otherwise_the_text_is_encoded():
    state = _state()
    assert state.next_relayout() is None  # nothing shown yet: encode instead
    asked = state.next_request()
    state.show(asked.generation, "r", _tokens("ab cd", [2]))
    again = state.next_relayout()
    assert again == asked.generation + 1
    assert state.next_relayout() == again + 1  # a second resize while the first layout is on its way


def test_the_selection_survives_a_reencode_that_keeps_its_tokens():
    state = _state()
    asked = state.next_request()
    state.show(asked.generation, "r1", _tokens("ab cd", [2, 3]))
    state.select((2, 2))
    assert state.selection == (2, 2)
    # the text typed further: the tokens selected are still there, the same
    state.show(state.next_request().generation, "r2", _tokens("ab cd ef", [2, 3, 5, 6]))
    assert state.selection == (2, 2)
    # another encoder cuts there differently: the selection would point at another token
    heard = _heard(state)
    state.choose_encoder("gpt2")
    state.show(state.next_request().generation, "r3", _tokens("ab cd ef", [1, 3], [7, 8, 9]))
    assert state.selection is None and ("selection", None) in heard


def test_a_selection_past_the_tokens_is_clamped_or_none():
    state = _state()
    state.show(state.next_request().generation, "r", _tokens("ab cd", [2]))
    state.select((1, 9))
    assert state.selection == (1, 1)
    state.select((-1, -1))
    assert state.selection is None


def test_restore_with_a_missing_encoder_keeps_the_default_and_restores_the_text():
    state = InspectState()
    state.set_available(["gpt2", "cl100k_base"])
    restored = state.restore({"encoder": "a model file that moved", "text": "안녕\r\n"}, "demo")
    assert restored == ["text"]
    assert (state.encoder, state.text) == ("cl100k_base", "안녕\r\n")
    fresh = InspectState()
    fresh.set_available(["gpt2", "cl100k_base"])
    assert fresh.restore({}, "demo") == [] and fresh.text == "demo"
    assert fresh.restore({"encoder": "gpt2"}, "demo") == ["encoder"]
    assert fresh.remembered() == {"encoder": "gpt2", "text": "demo"}


def test_the_trained_model_is_followed_through_renames_and_a_reset():
    state = _state("cl100k_base", "tokviz BPE (step 3)")
    state.trained_model_changed("tokviz BPE (step 3)")
    state.choose_encoder("tokviz BPE (step 3)")
    assert state.encoder_renamed("tokviz BPE (step 3)", "tokviz BPE (step 4)")
    assert state.encoder == "tokviz BPE (step 4)"
    state.trained_name = "tokviz BPE (step 4)"
    assert state.trained_model_changed(None) == "lost"
    assert state.encoder == "cl100k_base"
    assert state.trained_model_changed("tokviz BPE (step 1)") == "back"
    assert state.encoder == "tokviz BPE (step 1)"
    assert state.trained_model_changed("tokviz BPE (step 2)") is None  # followed by renames, not here


def test_after_shutdown_nothing_is_asked_and_a_late_result_is_dropped():
    state = _state()
    asked = state.next_request()
    state.close()
    assert state.next_request() is None and state.next_relayout() is None
    assert not state.show(asked.generation, "late")


def test_a_held_back_paste_is_given_once():
    state = _state()
    state.hold("a\ud800b")
    assert state.held_text == "a\ud800b"
    assert state.take_held() == "a\ud800b" and state.take_held() is None
