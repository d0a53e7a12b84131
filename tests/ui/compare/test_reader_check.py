"""The Compare panel's cross-check preset: a model's readers as rows, and the verdict under the stats."""

from __future__ import annotations

import pytest

from tests.support.compare_panel import DEMO_SP, compare_session, make_panel
from tokviz.core.crosscheck import Implementation, ReaderEncoder
from tokviz.core.encoders.model_catalog import BY_NAME, probe
from tokviz.ui.compare import reader_check

MODEL = "mistral-sp-v7"  # a SentencePiece model: sentencepiece itself reads it too
TEXT = "Hello world\n안녕하세요 👋🏽"

pytestmark = pytest.mark.skipif(not probe(BY_NAME[MODEL])[0], reason=f"{MODEL} is not installed (mistral-common)")


@pytest.fixture(scope="module")
def model():
    from tokviz.core.encoders.model_catalog import load

    return load(MODEL)


@pytest.fixture
def panel(qtbot, model):
    session = compare_session()
    session.registry.add(model)
    panel = make_panel(qtbot, session, ["gpt2", MODEL], text=TEXT)
    yield panel
    panel.shutdown()


def _verdict(qtbot, panel, words: str) -> str:
    qtbot.waitUntil(lambda: words in panel.crosscheck_label.text(), timeout=20_000)
    return panel.crosscheck_label.text()


def test_the_selected_model_gets_its_readers_as_rows_and_they_agree(qtbot, panel):
    panel.encoder_list.setCurrentRow(1)
    with qtbot.waitSignal(panel.rowsUpdated, timeout=20_000):
        panel.crosscheck_button.click()
    reader = f"{MODEL} via sentencepiece"
    qtbot.waitUntil(lambda: panel.encoder_names() == ["gpt2", MODEL, reader], timeout=20_000)
    assert "all 2 readers agree on every line (2)" in _verdict(qtbot, panel, "agree")
    panel.wait_until_idle()
    shown = [r.data.name for r in panel.view.rows]
    assert shown == ["gpt2", MODEL, reader]
    # the reader's row is the model's own tokens (the same ids drawn the same)
    assert panel.outcomes[2].encoding.ids == panel.outcomes[1].encoding.ids
    # a new text is checked again
    panel.set_text("one\ntwo\nthree")
    assert "every line (3)" in _verdict(qtbot, panel, "(3)")


def test_readers_that_differ_are_shown_with_the_first_differing_token(qtbot, panel, model, monkeypatch):
    def drops_one_token(name, reference, files=None):
        def encode(line):
            ids = reference.encode(line).ids
            return ids[:1] + ids[2:] if "안녕" in line else ids  # the second line differs at its token 1

        wrong = Implementation(
            "model.v7 via a broken library", encode, lambda i: reference.token_bytes(i).decode("utf-8", "replace")
        )
        return [ReaderEncoder(wrong, reference, name)]

    monkeypatch.setattr(reader_check, "open_readers", drops_one_token)
    assert panel.crosscheck_model(MODEL)
    text = _verdict(qtbot, panel, "differ")
    assert "differ on 1 of 2 lines" in text
    # the library's reading is the reference; tokviz's is compared with it
    assert f"line 2, token 1: {MODEL} via tokviz gives" in text and f", {MODEL} via a broken library gives" in text


def test_a_model_no_library_reads_says_so_and_the_list_stays(qtbot, panel):
    assert panel.crosscheck_model("gpt2")
    assert "open its file to cross-check it" in _verdict(qtbot, panel, "catalogue")
    assert panel.encoder_names() == ["gpt2", MODEL]
    panel.remove_encoder_name("gpt2")
    assert panel.crosscheck_label.text() == ""  # the preset ended with its model's row


def test_the_button_and_the_verdict_follow_a_language_change(qtbot, panel):
    from tokviz.ui.i18n import install_translation

    panel.crosscheck_model(MODEL)
    _verdict(qtbot, panel, "agree")
    try:
        install_translation("ko")
        assert panel.crosscheck_button.text() == "구현 교차 검증"
        assert "모든 줄(2줄)에서 일치합니다" in panel.crosscheck_label.text()
    finally:
        install_translation("en")
    assert panel.crosscheck_button.text() == "Cross-check readers"
    assert "agree on every line (2)" in panel.crosscheck_label.text()


def test_a_model_file_opened_here_is_cross_checked_with_its_own_library(qtbot, panel):
    with qtbot.waitSignal(panel.modelOpened, timeout=20_000) as opened:
        panel.open_model_file(str(DEMO_SP))
    ok, name = opened.args
    assert ok
    assert panel.crosscheck_model(name)
    assert "agree on every line (2)" in _verdict(qtbot, panel, "agree")
    assert f"{name} via sentencepiece" in panel.encoder_names()
