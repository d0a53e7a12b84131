"""Render the Compare panel's documentation screenshots offscreen (``docs/screenshots/compare*.png``).

``tokviz screenshot --view compare`` covers the main view; the Corpus and SentencePiece tabs need a
corpus run and a segmentation first, which this does:

    python -m tokviz.ui.compare.screenshots docs/screenshots
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _save(widget, path: Path) -> None:
    from tokviz.ui.common.image_export import save_widget_png

    save_widget_png(widget, path)


def render(folder: str | Path, size: tuple[int, int] = (1400, 900)) -> list[Path]:
    """Write compare.png, compare_corpus.png and compare_sentencepiece.png into ``folder``."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from tokviz.ui.app import make_application
    from tokviz.ui.main_window import MainWindow

    app = make_application()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    from tokviz.ui.settings import Settings

    window = MainWindow(settings=Settings.ephemeral())  # never the user's remembered encoder list
    window.resize(*size)
    panel = window.show_view("compare")
    window.show()
    app.processEvents()
    panel.prepare_screenshot(None)
    app.processEvents()
    out = [folder / "compare.png", folder / "compare_corpus.png", folder / "compare_sentencepiece.png"]
    _save(window, out[0])
    panel.view.set_hovered_char(None)
    panel.tabs.setCurrentIndex(1)
    panel.run_corpus()
    panel.wait_until_idle(300)
    panel.compute_overlap("cl100k_base", "o200k_base")
    panel.wait_until_idle(300)
    app.processEvents()
    _save(window, out[1])
    panel.tabs.setCurrentIndex(2)
    panel.show_segmentations("sp:demo_unigram", "안녕하세요 반갑습니다 오늘 날씨가 좋네요")
    app.processEvents()
    _save(window, out[2])
    window.close()
    app.processEvents()
    return out


if __name__ == "__main__":
    for p in render(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"):
        print(p)
