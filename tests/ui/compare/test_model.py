"""The Compare panel's model without Qt: what a user does, as intents, and what the model then says."""

from __future__ import annotations

import tokviz.ui.compare.model as model_module
from tokviz.ui.compare.model import CompareState

PLACEHOLDER = "tokviz BPE (Train panel)"


def _state(*names: str) -> CompareState:
    state = CompareState(PLACEHOLDER)
    state.set_encoders(names or ["gpt2", "cl100k_base", "o200k_base"])
    state.set_text("hello")
    return state


def _heard(state: CompareState) -> list[tuple[str, object]]:
    heard: list[tuple[str, object]] = []
    state.events.connect(lambda name, value: heard.append((name, value)))
    return heard


def test_the_model_imports_no_qt():
    source = open(model_module.__file__, encoding="utf-8").read()
    assert "PySide6" not in source and "pyqtgraph" not in source


def test_rows_asked_before_the_encoders_changed_are_dropped():
    state = _state()
    pending = state.next_rows()
    state.remove("gpt2")
    latest = state.next_rows()
    assert not state.show_rows(pending, ["g", "c", "o"], "hello")
    assert state.outcomes == [] and state.last_full_text is None
    assert state.show_rows(latest, ["c", "o"], "hello")
    assert state.outcomes == ["c", "o"] and state.last_full_text == "hello"


def test_adding_moving_and_removing_keep_each_encoder_once_in_order():
    state = _state()
    heard = _heard(state)
    assert state.add("qwen") and not state.add("qwen") and not state.add("")
    assert state.move("qwen", -10) == 0
    assert state.move("gpt2", 99) == 3  # clamped to the end
    assert state.encoders == ["qwen", "cl100k_base", "o200k_base", "gpt2"][:3] + ["gpt2"]
    assert state.move("nothing", 1) is None
    assert not state.remove("nothing")
    assert [name for name, _ in heard] == ["encoders"] * 3


def test_a_hidden_tab_asks_for_its_rows_when_shown():
    state = _state()
    assert state.next_rows(visible=False) is None
    assert state.shown() and not state.shown()  # once
    assert state.next_rows() is not None


def test_the_train_panels_row_keeps_its_place_through_a_reset_and_is_not_remembered():
    state = _state("gpt2", "tokviz BPE (step 3)", "cl100k_base")
    state.trained_name = "tokviz BPE (step 3)"
    assert state.trained_model_changed(None)
    assert state.encoders == ["gpt2", PLACEHOLDER, "cl100k_base"]
    assert state.remembered() == ["gpt2", "cl100k_base"]
    assert state.trained_model_changed("tokviz BPE (step 1)")
    assert state.encoders[1] == "tokviz BPE (step 1)"


def test_a_renamed_encoder_already_listed_is_listed_once():
    state = _state("a", "b", "c")
    assert state.rename("a", "c")
    assert state.encoders == ["b", "c"]


def test_restore_skips_encoders_that_are_gone_and_falls_back_to_the_defaults():
    state = CompareState(PLACEHOLDER)
    available = {"gpt2", "cl100k_base", "o200k_base"}.__contains__
    assert state.restore(["o200k_base", "a model file that moved", "gpt2"], available, ["cl100k_base"]) == [
        "o200k_base",
        "gpt2",
    ]
    assert state.restore(["a model file that moved"], available, ["cl100k_base", "not installed"]) == ["cl100k_base"]


def test_models_opened_elsewhere_join_but_the_train_panels_model_and_the_demo_bpe_do_not():
    state = _state("gpt2")
    state.known = {"gpt2", "cl100k_base"}
    added = state.registry_changed(
        ["gpt2", "cl100k_base", "my.model", "tokviz BPE (step 9)", "demo"], leave_out=("tokviz BPE (step 9)", "demo")
    )
    assert added == ["my.model"] and state.encoders == ["gpt2", "my.model"]
    assert state.registry_changed(["gpt2", "cl100k_base", "my.model"]) == []


def test_the_demo_bpe_is_trained_once_and_not_again_after_it_failed():
    state = _state()
    assert not state.demo_bpe_wanted(listed=False, registered=False)
    assert state.demo_bpe_wanted(listed=True, registered=False)
    assert not state.demo_bpe_wanted(listed=True, registered=False)  # training already
    state.demo_bpe_done("no corpus")
    assert not state.demo_bpe_wanted(listed=True, registered=False)
    assert state.demo_bpe_failed == "no corpus"


def test_a_crosscheck_lists_its_readers_after_the_model_and_checks_each_new_text():
    state = _state("gpt2", "mistral-sp-v7", "o200k_base")
    assert state.start_crosscheck("not listed") is not None
    assert state.start_crosscheck("mistral-sp-v7") is None
    readers = ["mistral-sp-v7 via sentencepiece"]
    assert state.crosscheck_ready("mistral-sp-v7", readers)
    assert state.encoders == ["gpt2", "mistral-sp-v7", readers[0], "o200k_base"]
    assert state.crosscheck_wanted()
    assert state.crosscheck_result("mistral-sp-v7", "hello", "agree")
    assert not state.crosscheck_wanted() and state.crosscheck.verdict == "agree"
    state.set_text("hello again")
    assert state.crosscheck_wanted()  # the verdict is for the old text
    assert not state.crosscheck_result("mistral-sp-v7", "hello", "late")  # stale: dropped


def test_taking_a_reader_off_the_list_ends_the_crosscheck():
    state = _state("mistral-sp-v7")
    state.start_crosscheck("mistral-sp-v7")
    state.crosscheck_ready("mistral-sp-v7", ["r1", "r2"])
    heard = _heard(state)
    state.remove("r2")
    assert state.crosscheck is None and ("crosscheck", None) in heard
    assert not state.crosscheck_ready("mistral-sp-v7", ["r1"])  # readers that arrive late are not listed


def test_after_shutdown_no_rows_are_asked_and_late_ones_are_dropped():
    state = _state()
    pending = state.next_rows()
    state.close()
    assert state.next_rows() is None
    assert not state.show_rows(pending, ["late"], "hello")


def test_a_corpus_run_at_a_time_and_its_totals_kept_through_a_cancel():
    state = _state()
    state.choose_corpus_file("corpus.txt")
    assert state.start_corpus() and not state.start_corpus()  # a second click while it runs does nothing
    state.show_corpus(["partial"])
    assert state.corpus_running and state.corpus_totals == ["partial"]
    state.show_corpus(["partial", "more"], ended=True)  # cancelled: what it counted stays
    assert not state.corpus_running and state.corpus_totals == ["partial", "more"]
    assert state.start_corpus()
    state.corpus_failed()
    assert state.start_corpus() and state.corpus_path == "corpus.txt"


def test_rows_on_their_way_are_dropped_at_a_users_edit_but_kept_through_a_training_rename():
    state = _state("gpt2", "tokviz BPE (step 3)")
    pending = state.next_rows()
    state.rename("tokviz BPE (step 3)", "tokviz BPE (step 4)")  # the same model, one step on
    assert state.show_rows(pending, ["g", "t"], "hello")
    pending = state.next_rows()
    state.remove("gpt2")  # before the next request is even made
    assert not state.show_rows(pending, ["g", "t"], "hello")
    pending = state.next_rows()
    state.set_allow_special(True)
    assert not state.show_rows(pending, ["t"], "hello")
