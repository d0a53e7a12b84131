"""Render the lecture screenshots: the Train panel in presentation mode, Korean interface, NSMC
reviews, byte and char mode, at steps 5, 50 and 300, at 1366×768 and 1920×1080.

    QT_QPA_PLATFORM=offscreen python docs/screenshots/lecture/make_screenshots.py OUT_DIR [--only byte-1366x768-50]

Each run trains once per mode (300 merges) and grabs every step and size from it. The pictures in
this folder are its output on the current main (both modes, both sizes, three steps); run it again after a
change to the Train panel.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
NSMC = ROOT / "tests" / "data" / "nsmc_ko_600.txt"
SIZES = ((1366, 768), (1920, 1080))
STEPS = (5, 50, 300)


def _spin(app, until, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while not until() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    return until()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", action="append", default=[],
                        help="MODE-WxH-STEP to render (repeatable); default all twelve")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from tokviz.ui.app import make_application
    from tokviz.ui.i18n import install_translation
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.settings import Settings
    from tokviz.ui.train.corpus import CorpusSource
    from tokviz.ui.train.views import SPEEDS

    app = make_application()
    install_translation("ko")
    written = []
    for mode in ("byte", "char"):
        wanted = [(size, step) for size in SIZES for step in STEPS
                  if not args.only or f"{mode}-{size[0]}x{size[1]}-{step}" in args.only]
        if not wanted:
            continue
        settings = Settings.ephemeral()
        settings.language = "ko"
        settings.presentation_pace = 0.0  # the picture shows a chosen step, not auto-play
        window = MainWindow(settings=settings)
        window.resize(*SIZES[0])
        panel = window.show_view("train")
        window.show()
        window.toggle_presentation(True, full_screen=False)
        panel.mode_combo.setCurrentIndex(panel.mode_combo.findData(mode))
        panel.set_source(CorpusSource.file(NSMC))
        panel.merges_spin.setValue(max(STEPS))
        panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
        panel.start_training()
        panel.run_to_end()
        panel.wait_until_trained(300.0)
        panel.playing = False
        _spin(app, lambda p=panel: p._facts is not None)
        for size, step in wanted:
            window.resize(*size)
            panel.set_step(step)
            _spin(app, lambda p=panel, n=step: p._step_facts is not None and p._step_facts.step == n)
            for _ in range(20):  # the sample, plots and tree follow the step over a few frames
                app.processEvents()
                time.sleep(0.02)
            panel._render()
            app.processEvents()
            out = args.out / f"train-presentation-{mode}-ko-{size[0]}x{size[1]}-step{step}.png"
            out.parent.mkdir(parents=True, exist_ok=True)
            from tokviz.ui.common.image_export import save_widget_png

            save_widget_png(window, out)
            written.append(out)
            lines = panel.sample_view.visible_line_count()
            print(out, f"{lines} sample lines visible, window {window.width()}×{window.height()}")
        window.toggle_presentation(False)
        window.close()
        app.processEvents()
    install_translation("en")
    return 0 if written else 1


if __name__ == "__main__":
    raise SystemExit(main())
