"""The Train plots' titles and axis labels follow a language switch live (Korean, English, Korean again)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tests.support.train_panel import open_train_panel
from tokviz.ui.i18n import install_translation

# what each plot shows: title, left axis, bottom axis (the corpus plot's right axis last)
SOURCES = [
    ("Vocabulary size", "tokens", "merge step"),
    ("Merged pair count", "count (log)", "merge step"),
    ("Corpus length", "tokens", "merge step"),
    ("Token lengths", "tokens", "length ({unit})"),
]


def _shown(plots) -> list[str]:
    texts = []
    for plot in (plots.vocab_plot, plots.count_plot, plots.corpus_plot, plots.length_plot):
        texts += [plot.titleLabel.text, plot.getAxis("left").labelText, plot.getAxis("bottom").labelText]
    return [*texts, plots.corpus_plot.getAxis("right").labelText]


def _expected() -> list[str]:
    def tr(text: str) -> str:
        return QCoreApplication.translate("TrainPlots", text)

    texts = [tr(t) for row in SOURCES for t in row]
    texts[-1] = texts[-1].format(unit=tr("bytes"))  # a byte-mode panel measures lengths in bytes
    return [*texts, tr("chars / token")]


def test_plot_titles_and_axis_labels_follow_the_language_live(qtbot):
    install_translation("en")
    try:
        panel = open_train_panel(qtbot)
        english = _shown(panel.plots)
        assert english == _expected() and english[0] == "Vocabulary size"
        for language in ("ko", "en", "ko"):
            install_translation(language)
            assert _shown(panel.plots) == _expected(), language
        assert _shown(panel.plots)[0] == "어휘 크기"  # Korean indeed, not the English kept
    finally:
        install_translation("en")
