"""What one frame of the Train panel costs the GUI thread, view by view, while following a trainer.

    QT_QPA_PLATFORM=offscreen python benchmarks/train_frame_cost.py \
        --corpus ../shared/corpora/nsmc_train_150k.txt --merges 3000

Trains once in the real panel (as gui_stall.py does), then replays busy frames at steps ``--every``,
2 x ``--every``, ... as a frame drawn while following a computing trainer is: prepared in slices, then
drawn and painted in one turn. Prints one JSON object with the CPU (``time.thread_time``, so it hardly
depends on the machine's load, unlike gui_stall's stalls) of the frame's turn and of each view in it:

    {"frames", "total_ms", "draw_ms", "paint_ms", "layout_ms", "views_ms": {"draw:light", "draw:sample", ...,
     "paint:plots", "paint:sample", "paint:tree"}}

each as {"p50", "p90", "max"}. ``draw:*`` is a view's update in ``draw_frame``; ``paint:*`` its paint
event in the repaint that follows (the rest of the paint is layout, labels and the other widgets);
``layout_ms`` the part of ``paint_ms`` spent re-laying out widgets the frame changed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a source checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))  # gui_stall's helpers


def _spread(values: list[float]) -> dict:
    v = sorted(values) or [0.0]
    return {"p50": round(v[len(v) // 2], 2), "p90": round(v[int(0.9 * (len(v) - 1))], 2), "max": round(v[-1], 2)}


def _time_views(cost: dict[str, float]) -> None:
    """Add each view's CPU in a frame to ``cost`` (wrapping the panel's and views' methods)."""
    import pyqtgraph as pg

    from tokviz.ui.train import render, sample, tree

    def timed(cls, name, key) -> None:
        orig = getattr(cls, name)

        def wrapper(self, *args, **kwargs):
            k = key(args) if callable(key) else key
            t = time.thread_time()
            try:
                return orig(self, *args, **kwargs)
            finally:
                cost[k] = cost.get(k, 0.0) + (time.thread_time() - t) * 1000

        setattr(cls, name, wrapper)

    timed(render.StepRenderer, "_draw_light", "draw:light")
    timed(render.StepRenderer, "_draw_heavy", lambda args: "draw:" + args[0])
    timed(tree.MergeTreeView, "paintEvent", "paint:tree")
    timed(sample.TokenLinesView, "paintEvent", "paint:sample")
    timed(pg.GraphicsView, "paintEvent", "paint:plots")


def run(corpus: Path, merges: int, every: int, passes: int) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from gui_stall import flush_paint, settle
    from PySide6.QtCore import QCoreApplication, QEvent

    from tokviz.ui.app import make_application
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.train.corpus import CorpusSource

    cost: dict[str, float] = {}
    _time_views(cost)
    app = make_application()
    window = MainWindow()
    window.resize(1400, 900)
    panel = window.show_view("train")
    window.show()
    panel.set_source(CorpusSource.file(corpus))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData("byte"))
    panel.merges_spin.setValue(merges)
    settle(app, 2.0)
    panel.run_to_end()
    deadline = time.monotonic() + 600
    while panel.run is not None and time.monotonic() < deadline:
        settle(app, 0.1)
    settle(app, 1.0)
    learned = len(panel.replay or ())
    panel.computing = lambda: True  # replayed as frames drawn while the trainer computes
    rows = []
    for _ in range(passes):
        for step in range(every, learned + 1, every):
            panel.playback.seek(step, learned)
            for _turn in panel.prepare_frame():  # the slices (their own turns in the app)
                pass
            flush_paint(panel)
            app.processEvents()
            cost.clear()
            t0 = time.thread_time()
            panel.draw_frame(panel.state.snapshot(), full=False)
            t1 = time.thread_time()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)  # the relayout the frame asked for
            layout = (time.thread_time() - t1) * 1000
            flush_paint(panel)
            t2 = time.thread_time()
            rows.append(
                {
                    **cost,
                    "draw": (t1 - t0) * 1000,
                    "layout": layout,
                    "paint": (t2 - t1) * 1000,
                    "total": (t2 - t0) * 1000,
                }
            )
            app.processEvents()
        panel.playback.seek(0, learned)  # the next pass starts from an empty frame again
        panel.draw_frame(panel.state.snapshot(), full=True)
        flush_paint(panel)
    window.close()
    app.processEvents()
    views = sorted({k for r in rows for k in r if ":" in k})
    return {
        "corpus": corpus.name,
        "merges": learned,
        "frames": len(rows),
        "total_ms": _spread([r["total"] for r in rows]),
        "draw_ms": _spread([r["draw"] for r in rows]),
        "paint_ms": _spread([r["paint"] for r in rows]),
        "layout_ms": _spread([r["layout"] for r in rows]),
        "views_ms": {k: _spread([r.get(k, 0.0) for r in rows]) for k in views},
        "load_1min": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--merges", type=int, default=3000)
    ap.add_argument("--every", type=int, default=150, help="merges between two replayed frames")
    ap.add_argument("--passes", type=int, default=2, help="times the run's frames are replayed")
    args = ap.parse_args()
    print(json.dumps(run(args.corpus, args.merges, args.every, args.passes), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
