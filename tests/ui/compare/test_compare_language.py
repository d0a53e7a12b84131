"""The Compare panel in Korean: every string it shows (painted row names, the corpus file, round-trip
notes) reads Korean, and a language change while running reaches every panel at once."""

from __future__ import annotations

import pytest

from tests.support.compare_panel import Toy, compare_session, make_panel
from tokviz.ui.i18n import install_translation


@pytest.fixture
def session(qtbot):
    return compare_session()


@pytest.fixture
def korean():
    try:
        assert install_translation("ko") == "ko"
        yield
    finally:
        install_translation("en")


def test_rows_paint_trained_model_names_in_korean(qtbot, session, korean, monkeypatch):  # noqa: F811
    """The rows' gutter painted "tokviz BPE (step 111)" (and, fitted to the shorter Korean name,
    "tokviz BP…o corpus)") while the list said "(111단계)" / "(데모 말뭉치)"."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter

    from tokviz.ui.compare import rows as compare_rows

    painted: list[str] = []

    class RecordingPainter(QPainter):
        def drawText(self, *args):  # noqa: N802
            if len(args) == 3 and isinstance(args[0], QRectF):
                painted.append(args[2])
            return super().drawText(*args)

    monkeypatch.setattr(compare_rows, "QPainter", RecordingPainter)
    for name in ("tokviz BPE (step 111)", "tokviz BPE (demo corpus)"):
        session.registry.add(Toy(name, fail_on_digits=False))
    panel = make_panel(qtbot, session, ["tokviz BPE (step 111)", "tokviz BPE (demo corpus)"], text="안녕 hi")
    panel.view.grab()
    assert "tokviz BPE (111단계)" in painted and "tokviz BPE (데모 말뭉치)" in painted
    assert not any("step" in t or "corpus" in t for t in painted), painted
    panel.shutdown()


def test_corpus_file_line_limit_and_round_trip_notes_read_korean(qtbot, session, korean, tmp_path):  # noqa: F811
    corpus = tmp_path / "nsmc_train.txt"
    corpus.write_text("안녕\n", encoding="utf-8")
    # the demo unigram model normalizes NFKC: a fullwidth h does not come back
    panel = make_panel(qtbot, session, ["gpt2", "sp:demo_unigram"], text="ｈi 안녕")
    panel.set_corpus_file(str(corpus))
    assert panel.corpus_source.currentText() == "파일: nsmc_train.txt"
    assert panel.max_lines.text() == "최대 200000 줄"
    note = panel.diff_label.text()
    assert "위치 0: &#x27;ｈ&#x27;이(가) &#x27;h&#x27;(으)로 바뀜" in note and "became" not in note
    assert "became" not in panel.stats_table.item(1, 9).toolTip()
    panel.shutdown()
