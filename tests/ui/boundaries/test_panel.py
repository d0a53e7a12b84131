"""The Boundaries panel in pytest-qt: each sub-view shows what core computes for a Korean example.

One panel for the module (building one costs more than most of these tests); each test sets what it
needs (encoder, text, hazard) and waits for the view's result.
"""

from __future__ import annotations

import codecs

import pytest

from tokviz.core.boundaries.healing import heal
from tokviz.core.display import visible_piece
from tokviz.core.encoders.builtin import default_registry
from tokviz.ui.boundaries.model import HAZARDS
from tokviz.ui.boundaries.panel import BoundariesPanel
from tokviz.ui.session import Session

KOREAN = "안녕하세요 👋"


@pytest.fixture(scope="module")
def panel(qapp):
    p = BoundariesPanel(Session(default_registry()))
    p.resize(1200, 800)
    p.show()
    yield p
    p.shutdown()
    p.close()
    p.deleteLater()


def shown(qtbot, panel, hazard: str, *, encoder: str = "cl100k_base", text: str | None = None, ids: str = ""):
    """Show ``hazard`` of ``text`` (or the ids) with ``encoder`` and wait until its view has the result."""
    panel.set_encoder(encoder)
    if text is not None:
        panel.set_text(text)
    panel.set_ids(ids)
    panel.show_hazard(hazard)
    qtbot.waitUntil(lambda: panel.wait_until_idle(0.05), timeout=30_000)
    status = panel.state.status[hazard]
    assert status.kind in ("done", "failed")
    return panel.views[hazard]


def test_each_step_of_the_stream_prints_what_pythons_incremental_decoder_prints(qtbot, panel):
    view = shown(qtbot, panel, "stream", text=KOREAN)
    ids = default_registry().get("cl100k_base").encode(KOREAN).ids
    encoder = default_registry().get("cl100k_base")
    view.reset_button.click()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    printed = ""
    for k, token_id in enumerate(ids, 1):
        view.step_button.click()
        printed += decoder.decode(encoder.token_bytes(token_id))
        assert view.printed() == visible_piece(printed)
        assert view.table.rowCount() == k
    assert printed == KOREAN
    assert "�" in view.naive.text()  # the naive decoder's replacement characters, beside
    assert not view.step_button.isEnabled()


def test_play_runs_the_stream_to_its_end(qtbot, panel):
    view = shown(qtbot, panel, "stream", text=KOREAN)
    view.reset_button.click()
    panel.set_pace(1000)  # the pace is not what is tested
    view.play_button.click()
    qtbot.waitUntil(lambda: not panel.state.playing, timeout=10_000)
    panel.set_pace()
    assert view.printed() == visible_piece(KOREAN) and view.play_button.text() == "▶ Play"


@pytest.mark.parametrize("budget", [1, 6])
def test_the_cut_view_shows_what_the_first_n_tokens_print_and_that_they_split_a_character(qtbot, panel, budget):
    panel.views["cut"].spin.setValue(budget)
    view = shown(qtbot, panel, "cut", text=KOREAN)
    encoder = default_registry().get("cl100k_base")
    prefix = b"".join(encoder.token_bytes(i) for i in encoder.encode(KOREAN).ids[:budget])
    kept = codecs.getincrementaldecoder("utf-8")().decode(prefix)
    assert view.kept_text().startswith(visible_piece(kept))
    assert "left out" in view.kept_text()  # the cut character's bytes, as hex
    assert "splits a character" in view.verdict.text()
    assert view.spin.value() == budget and view.slider.value() == budget


def test_split_a_token_fills_the_ids_and_the_canonical_view_marks_where_they_part(qtbot, panel):
    view = shown(qtbot, panel, "canonical", text=KOREAN)
    assert view.summary.text().startswith("Canonical")
    view.split_button.click()
    qtbot.waitUntil(lambda: panel.ids_edit.text() != "", timeout=10_000)
    qtbot.waitUntil(lambda: panel.wait_until_idle(0.05), timeout=30_000)
    assert view.summary.text().startswith("Not canonical")
    assert [r.data.name for r in view.rows.rows] == ["given ids", "canonical ids"]
    encoder = default_registry().get("cl100k_base")
    assert view.rows.rows[1].ids == encoder.encode(KOREAN).ids
    assert view.rows.highlighted_tokens()  # the first divergence is marked in both rows
    assert view.examples.count() >= 2  # other segmentations, the canonical and the given among them


def test_ids_that_do_not_parse_say_why(qtbot, panel):
    panel.show_hazard("canonical")
    panel.set_ids("393 abc")
    assert panel.ids_note.isVisible() and "'abc' is not a token id" in panel.ids_note.text()
    panel.set_ids("")
    assert not panel.ids_note.isVisible()


def test_healing_shows_the_removed_text_and_the_candidate_count_of_core(qtbot, panel):
    view = shown(qtbot, panel, "heal", text="https://www.")
    expected = heal(default_registry().get("cl100k_base"), "https://www.")
    assert view.removed.text().startswith(".  (2E)")
    assert f"{expected.candidates:,}" in view.count.text()
    assert view.healed.text().startswith("https://www")
    assert view.table.rowCount() == min(40, expected.candidates)


def test_chat_turns_and_injection_on_qwen(qtbot, panel):
    panel.composer.set_template("chatml")
    view = shown(qtbot, panel, "turns", encoder="qwen")
    cells = view.cells()
    assert [c[0] for c in cells] == ["1", "2"]
    assert cells[0][2] == "merge across the boundary" and cells[1][2] == "stable"
    # the broken turn's two prompts aligned, the boundary's tokens marked in both
    assert [r.data.name for r in view.rows.rows] == ["turn 1", "turn 2"]
    marked = view.rows.highlighted_tokens()
    assert set(marked) == {"turn 1", "turn 2"} and all(marked.values())
    view = shown(qtbot, panel, "injection", encoder="qwen")
    assert "<|im_end|>" in view.summary.text() and "<|im_start|>" in view.summary.text()
    assert [r.data.name for r in view.rows.rows] == ["safe (content as text)", "parsed (specials in content)"]
    panel.composer.set_template(None)


def test_an_encoder_without_a_chat_template_says_so_in_the_view(qtbot, panel):
    view = shown(qtbot, panel, "turns", encoder="cl100k_base")
    assert view.status_label.isVisible() and "no chat template" in view.status_label.text()
    assert view.table.rowCount() == 0


def test_the_hazard_list_shows_each_view(qtbot, panel):
    # last: every view it shows starts its job, which the tests above need not wait behind
    for row, hazard in enumerate(HAZARDS):
        panel.hazard_list.setCurrentRow(row)
        assert panel.stack.currentWidget() is panel.views[hazard]
        # the conversation editor for the chat hazards, the text and ids for the others
        assert (panel.inputs.currentWidget() is panel.composer) == (hazard in ("turns", "injection"))
        assert panel.ids_edit.isVisible() == (hazard in ("canonical", "stream"))  # the hazards that read ids


def test_the_panel_follows_a_language_switch(qtbot, panel):
    from tokviz.ui.i18n import install_translation

    view = shown(qtbot, panel, "cut", text=KOREAN)
    try:
        install_translation("ko")
        assert panel.hazard_list.item(0).text() == "정규 ID"
        assert panel.views["stream"].step_button.text() == "한 단계"
        assert view.spin.suffix() == " 토큰" and view.verdict.text().startswith("토큰 ")  # the result recomposed
    finally:
        install_translation("en")
    assert panel.hazard_list.item(0).text() == "Canonical ids" and " tokens, byte " in view.verdict.text()


def test_the_menus_step_shows_the_stream_and_steps_it(qtbot, panel):
    step = next(entry for entry in panel.menu_actions() if entry.key == "step")
    shown(qtbot, panel, "cut", text=KOREAN)
    step.slot()
    assert panel.stack.currentWidget() is panel.views["stream"]
    qtbot.waitUntil(lambda: panel.wait_until_idle(0.05), timeout=30_000)
    panel.views["stream"].reset_button.click()
    step.slot()
    assert panel.views["stream"].table.rowCount() == 1 and panel.views["stream"].pending.text() == "EC 95"


def test_a_running_job_says_so_in_korean_in_every_view(qtbot, panel):
    from tokviz.ui.boundaries.model import Status
    from tokviz.ui.i18n import install_translation

    try:
        install_translation("ko")
        for view in panel.views.values():  # the note is the base view's: its words must not get lost
            view.show_status(Status("running"))
            assert view.status_label.text() == "계산 중…"
    finally:
        install_translation("en")
        for hazard, view in panel.views.items():
            view.show_status(panel.state.status[hazard])


def test_a_conversation_of_one_message_asks_for_another_in_korean(qtbot, panel):
    from tokviz.ui.i18n import install_translation

    messages = panel.composer.messages()
    panel.composer.set_template("chatml")
    panel.composer.set_messages([("user", "안녕")])
    try:
        install_translation("ko")
        view = shown(qtbot, panel, "turns", encoder="qwen")
        assert view.status_label.text() == "턴을 보려면 메시지가 두 개 필요합니다: 하나 더 추가하세요."
    finally:
        install_translation("en")
        panel.composer.set_messages(messages)
        panel.composer.set_template(None)


def test_cores_messages_read_korean_in_the_korean_interface(qtbot, panel, tmp_path):
    """An id the encoder does not have (core's check) and a template that does not compile (worded in
    the template process): both in Korean, with the numbers and the library's own words kept."""
    from tokviz.ui.i18n import install_translation

    messages = panel.composer.messages()
    broken = tmp_path / "broken.jinja"
    broken.write_text("{% for m in messages %}{{ m.content }", encoding="utf-8")
    try:
        install_translation("ko")
        view = shown(qtbot, panel, "canonical", ids="393 99999999")
        assert view.status_label.text() == (
            "ID 99999999(위치 1)는 cl100k_base의 토큰이 아닙니다. cl100k_base의 ID는 0부터 100276까지입니다")
        assert panel.composer.load_template_file(broken)
        panel.composer.set_messages([("user", "안녕"), ("assistant", "네")])
        view = shown(qtbot, panel, "turns", encoder="qwen")
        assert "채팅 템플릿 1번째 줄에 문법 오류가 있습니다: " in view.cells()[0][2]
    finally:
        install_translation("en")
        panel.composer.set_messages(messages)
        panel.composer.set_template(None)
