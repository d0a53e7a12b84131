"""Compare panel speed, measured in the real panel offscreen.

1. View update: 5 encoders (gpt2, cl100k_base, o200k_base, sp:demo_unigram, tokviz BPE trained on
   the demo corpus) over a 10,000-character mixed text. Timed from ``refresh_now()`` (encoding in the
   worker thread) until the aligned rows, stats table and chart are set and the visible part of the
   view has been painted (``repaint()``). Target: < 200 ms.
2. Corpus comparison of nsmc_train_20k through 4 encoders in the worker thread: total seconds and
   the longest gap of a 10 ms heartbeat QTimer on the GUI thread (how long the window could freeze).

Run: ``python benchmarks/compare_view.py [--corpus PATH] [--repeats N]``. The machine may be shared:
numbers are wall-clock.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # run from a checkout

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tokviz import resources_dir  # noqa: E402
from tokviz.ui.app import make_application  # noqa: E402


def mixed_text(n: int) -> str:
    base = (resources_dir() / "samples" / "mixed.txt").read_text(encoding="utf-8")
    text = (base * (n // len(base) + 1))[:n]
    return text


def wait_for(signal, timeout: float = 60.0) -> bool:
    """Run Qt's event loop until ``signal`` fires, as the app does. (Polling processEvents from
    Python instead would keep taking the GIL from the worker thread and slow it down.)"""
    fired = []
    loop = QEventLoop()

    def done(*_args):
        fired.append(True)
        loop.quit()

    signal.connect(done)
    QTimer.singleShot(int(timeout * 1000), loop.quit)
    if not fired:
        loop.exec()
    signal.disconnect(done)
    return bool(fired)


class Heartbeat:
    """A 10 ms timer on the GUI thread; the longest gap between ticks is the worst stall."""

    def __init__(self, interval_ms: int = 10):
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.last = None
        self.max_gap = 0.0
        self.gaps: list[float] = []

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.last is not None:
            gap = now - self.last
            self.gaps.append(gap)
            if gap > self.max_gap:
                self.max_gap = gap
                self.max_at = now - self.started
        self.last = now

    def start(self) -> None:
        self.started = time.perf_counter()
        self.max_at = 0.0
        self.last = None
        self.max_gap = 0.0
        self.gaps = []
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
                                            / "nsmc_train_20k.txt"))
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--chars", type=int, default=10_000)
    ap.add_argument("--lines", type=int, default=None, help="use only the corpus's first N lines")
    ap.add_argument("--skip-view", action="store_true", help="only the corpus comparison")
    args = ap.parse_args()

    make_application()
    from tokviz.core.compare import corpus_set
    from tokviz.ui.compare.panel import DEMO_BPE_NAME, PREVIEW_CHARS, ComparePanel
    from tokviz.ui.session import Session

    session = Session()
    panel = ComparePanel(session)
    panel.resize(1400, 900)
    panel.show()
    panel.set_encoders(["gpt2", "cl100k_base", "o200k_base", "sp:demo_unigram", DEMO_BPE_NAME])
    panel.wait_until_idle(120)  # encoders loaded, demo BPE trained
    panel.set_text(mixed_text(args.chars if not args.skip_view else 100))
    panel.refresh_now()
    wait_for(panel.rowsUpdated)
    panel.wait_until_idle()
    errors = [o.encoder for o in panel.outcomes if not o.ok]
    print(f"encoders: {', '.join(panel.encoder_names())}" + (f"  (errors: {errors})" if errors else ""))

    times = []
    parts = []
    previews = []
    for r in range(0 if args.skip_view else args.repeats):
        # a slightly different text each time, so no encoder answers from a whole-text cache
        panel.editor.blockSignals(True)
        panel.editor.setPlainText(mixed_text(args.chars - r - 1))
        panel.editor.blockSignals(False)
        t0 = time.perf_counter()
        preview_at = []
        # disconnected below, before the next round makes a new preview_at
        panel.rowsPreviewed.connect(
            lambda: (panel.view.repaint(), preview_at.append(time.perf_counter())))  # noqa: B023
        panel.refresh_now()
        ok = wait_for(panel.rowsUpdated)
        panel.rowsPreviewed.disconnect()
        QApplication.processEvents()
        if preview_at:
            previews.append((preview_at[0] - t0) * 1000)
        panel.view.repaint()
        panel.stats_table.repaint()
        times.append((time.perf_counter() - t0) * 1000)
        parts.append(dict(panel.timings))
        assert ok, "view did not update"
    if times:
        tokens = {o.encoder: o.metrics.tokens for o in panel.outcomes if o.ok}
        print(f"view update, {len(panel.view.text):,} chars x {len(panel.encoder_names())} encoders "
              f"(tokens {tokens}):")
        if previews:
            print(f"  first view (the first ~{PREVIEW_CHARS:,} characters, more than a window shows) painted: "
                  f"median {statistics.median(previews):.0f} ms, max {max(previews):.0f} ms "
                  f"(target < 200 ms) -> {'OK' if statistics.median(previews) < 200 else 'MISSED'}")
        print(f"  whole text in every row + stats table + chart: median {statistics.median(times):.0f} ms, "
              f"min {min(times):.0f} ms, max {max(times):.0f} ms "
              f"(target < 200 ms) -> {'OK' if statistics.median(times) < 200 else 'MISSED'}")
        worker = statistics.median(p["worker_ms"] for p in parts)
        gui = statistics.median(p["gui_ms"] for p in parts)
        encode = statistics.median(p["encode_ms"] for p in parts)
        print(f"  of which: worker {worker:.0f} ms (whole-text encoding {encode:.0f} ms; the rest is the preview "
              f"and preparing rows), "
              f"GUI thread (cells, wrap, table, chart) {gui:.0f} ms; the rest is the paint and thread hand-offs")

    if args.corpus and os.path.exists(args.corpus):
        text_set = corpus_set(args.corpus, max_lines=args.lines)
        panel.set_encoders(["gpt2", "cl100k_base", "o200k_base", "sp:demo_unigram"])
        panel.wait_until_idle()
        import gc

        gc_pauses = []

        gc_started = [0.0]

        def gc_timer(phase, info):
            # the cyclic collector holds the GIL: its pauses stall the GUI thread too
            if phase == "start":
                gc_started[0] = time.perf_counter()
            else:
                gc_pauses.append((time.perf_counter() - gc_started[0], info["generation"]))

        gc.callbacks.append(gc_timer)
        beat = Heartbeat(10)
        beat.start()
        progress_events = []
        panel._corpus_job = None
        t0 = time.perf_counter()
        panel.run_corpus([text_set])
        panel._corpus_job.progressed.connect(lambda p: progress_events.append(time.perf_counter()))
        wait_for(panel.corpusFinished, timeout=600)
        total = time.perf_counter() - t0
        beat.stop()
        gc.callbacks.remove(gc_timer)
        worst_gc = max(gc_pauses, default=(0.0, 0))
        gaps = sorted(beat.gaps)
        p99 = gaps[int(len(gaps) * 0.99)] * 1000 if gaps else 0.0
        print(f"corpus comparison: {os.path.basename(args.corpus)} ({len(text_set.texts):,} lines, "
              f"{text_set.characters:,} chars) x 4 encoders")
        print(f"  total {total:.1f} s, {len(progress_events)} progress updates, "
              f"heartbeat max gap {beat.max_gap * 1000:.0f} ms (at {beat.max_at:.1f} s), "
              f"p99 {p99:.0f} ms (10 ms timer)")
        print(f"  garbage collections: {len(gc_pauses)}, "
              f"longest {worst_gc[0] * 1000:.0f} ms (generation {worst_gc[1]})")
        for c in panel.corpus_totals:
            print(f"    {c.encoder:<16} tokens {c.tokens:>9,}  chars/token {c.chars_per_token:.2f}  "
                  f"partial {c.partial_tokens:,}  fallback {c.fallback_tokens:,}")
    panel.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
