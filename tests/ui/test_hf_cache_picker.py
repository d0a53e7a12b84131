"""The Inspector's encoder picker lists the tokenizers in the user's Hugging Face cache by repo id."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.support.hf_cache import add_repo
from tests.support.packages import mistral_model
from tokviz.core.encoders.builtin import build_registry
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session


def test_the_picker_lists_a_cached_repo(qtbot, tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    add_repo(
        tmp_path / "hub",
        "mistralai/Mistral-7B-v0.1",
        {"tokenizer.model": mistral_model("tokenizer.model.v1").read_bytes()},
    )
    panel = InspectPanel(Session(build_registry()))
    qtbot.addWidget(panel)
    try:
        combo = panel.encoder_combo
        model = combo.model()
        rows = {model.item(i).text(): model.item(i) for i in range(combo.count())}
        item = rows.get("mistralai/Mistral-7B-v0.1")
        assert item is not None, sorted(rows)
        assert item.isEnabled()
        assert item.data(Qt.ItemDataRole.UserRole) == "mistralai/Mistral-7B-v0.1"
        assert item.toolTip().endswith("tokenizer.model")
    finally:
        panel.shutdown()
