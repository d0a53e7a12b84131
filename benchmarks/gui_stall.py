"""How much does training in the Train panel stall the GUI, and how much slower is it than the core?

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_stall.py \
        --corpus ../shared/corpora/nsmc_train_150k.txt --merges 3000

Trains in the real panel (worker thread, batched events, the frame timer redrawing everything at
"as fast as possible" speed) while a 10 ms heartbeat QTimer runs on the main thread. A stall is how
late the heartbeat fires; the counting phase is included. Then times the core trainer alone on the
same corpus in the same process (no Qt involved) and prints one JSON object:

    {"max_stall_ms", "p99_stall_ms", "frame_cpu_ms", "frame_paint_cpu_ms", "prepare_slice_cpu_ms", "merges",
     "seconds", "core_seconds", ...}

``frame_paint_cpu_ms`` is the turn that draws a frame (every view changes in it); while following the
trainer, a frame's computing is done before it in slices of their own turns (``prepare_slice_cpu_ms``).

Targets: max stall <= 50 ms and p99 <= 16 ms (issue 15; the stalls depend on the machine's load, so
quote them with ``load_1min``); panel seconds <= 1.3 x core seconds (issue 5).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from pathlib import Path

# run from a source checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HEARTBEAT_MS = 10


def time_core(corpus: Path, merges: int, mode: str, pattern: str) -> tuple[float, int]:
    from tokviz.core.bpe.corpus import read_corpus_blocks
    from tokviz.core.bpe.events import MergeStep, TrainerConfig
    from tokviz.core.bpe.trainer import BPETrainer

    trainer = BPETrainer(TrainerConfig(mode=mode, merges=merges, pattern=pattern))
    t0 = time.perf_counter()
    n = 0
    # the same reader as the panel and `tokviz train` use
    for event in trainer.run(read_corpus_blocks(corpus), total_bytes=corpus.stat().st_size):
        if isinstance(event, MergeStep):
            n += 1
    return time.perf_counter() - t0, n


def settle(app, seconds: float) -> None:
    """Let the other panels finish their start-up work (they load tiktoken ranks in background
    threads, which holds the GIL for long stretches) so that the stalls measured are training's."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def percentiles(ms: list[float]) -> dict | None:
    return {"p50": round(sorted(ms)[len(ms) // 2], 1), "max": round(max(ms), 1)} if ms else None


def flush_paint(panel) -> None:
    """Paint what a frame changed now, as the event loop's next pass would (the same work, timed): the
    plots' scene updates and layout requests are posted events, then the window's update request."""
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    QCoreApplication.sendPostedEvents(panel.plots.scene(), QEvent.Type.MetaCall)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.UpdateRequest)


def time_panel(
    corpus: Path,
    merges: int,
    mode: str,
    pattern: str,
    switch_interval: float | None,
    settle_seconds: float = 3.0,
    events: bool = False,
) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt, QTimer

    from tokviz.ui.app import make_application
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.train.corpus import CorpusSource

    if switch_interval is not None:
        sys.setswitchinterval(switch_interval)
    app = make_application()
    app.setQuitOnLastWindowClosed(False)  # several runs in one process
    clock = None
    if events:  # what the GUI thread handled in the longest stalls (the same clock as inspector_stall's)
        from inspector_stall import event_clock

        clock = event_clock()
    window = MainWindow()
    window.resize(1400, 900)
    panel = window.show_view("train")
    window.show()
    app.processEvents()
    panel.set_source(CorpusSource.file(corpus))
    panel.mode_combo.setCurrentIndex(panel.mode_combo.findData(mode))
    panel.pattern_combo.setCurrentText(pattern)
    panel.merges_spin.setValue(merges)
    app.processEvents()
    settle(app, settle_seconds)

    lateness: list[float] = []
    phase_of_worst = {"phase": None, "ms": 0.0}
    worst_by_phase: dict[str, float] = {}  # counting / indexing / merging: where a stall comes from
    state = {"last": 0.0, "t0": 0.0, "t1": None, "cpu_last": 0.0}
    # what a long stall was: the GUI thread busy itself (its CPU time grew by about the stall) or
    # waiting for the GIL while the worker held it; and the longest garbage collection per generation
    long_stalls: list[dict] = []
    gc_worst = {0: 0.0, 1: 0.0, 2: 0.0}
    gc_start: dict[str, float] = {}

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            gc_start["t"] = time.perf_counter()
        elif "t" in gc_start:
            ms = (time.perf_counter() - gc_start.pop("t")) * 1000
            gen = info["generation"]
            gc_worst[gen] = max(gc_worst[gen], round(ms, 1))

    gc.callbacks.append(on_gc)
    heartbeat = QTimer()
    heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
    heartbeat.setInterval(HEARTBEAT_MS)

    def beat() -> None:
        now = time.perf_counter()
        late = (now - state["last"]) * 1000 - HEARTBEAT_MS
        previous, state["last"] = state["last"], now
        cpu = time.thread_time()
        if late > 50 or (clock is not None and late > 25):
            long_stalls.append(
                {
                    "ms": round(late, 1),
                    "gui_cpu_ms": round((cpu - state["cpu_last"]) * 1000, 1),
                    "span": (previous, now),
                }
            )
        state["cpu_last"] = cpu
        lateness.append(max(0.0, late))
        phase = panel.progress_bar.format().split("…")[0] if panel.progress_bar.isVisible() else "merging"
        worst_by_phase[phase] = max(worst_by_phase.get(phase, 0.0), round(late, 1))
        if late > phase_of_worst["ms"]:
            phase_of_worst["ms"] = late
            phase_of_worst["phase"] = phase if phase != "merging" else f"merging (step {len(panel.replay or ())})"
        if panel.run is None and state["t1"] is None:
            state["t1"] = now
            state["cpu1"] = time.thread_time()
            heartbeat.stop()
            QTimer.singleShot(0, app.quit)

    heartbeat.timeout.connect(beat)
    # the GUI thread's CPU per frame drawn (the views' updates, not the repaint that follows): it
    # hardly depends on the machine's load, unlike the stalls
    frame_cpu: list[float] = []
    paint_cpu: list[float] = []  # the same frames with the repaint they cause (the plots' strokes, mostly)
    draw_frame = panel.draw_frame

    def timed_draw_frame(snapshot, full: bool = True) -> None:
        cpu = time.thread_time()
        draw_frame(snapshot, full=full)
        frame_cpu.append((time.thread_time() - cpu) * 1000)
        flush_paint(panel)
        paint_cpu.append((time.thread_time() - cpu) * 1000)

    panel.draw_frame = timed_draw_frame  # the frame scheduler calls it on the panel
    # a frame drawn while following the trainer is prepared first, in slices of their own turns
    # (segmenting the sample, the plots' axes): the GUI thread's CPU of each slice
    slice_cpu: list[float] = []
    prepare_frame = panel.prepare_frame

    def timed_prepare_frame():
        slices = iter(prepare_frame())
        while True:
            cpu = time.thread_time()
            try:
                turn_done = next(slices)
            except StopIteration:
                return
            finally:
                slice_cpu.append((time.thread_time() - cpu) * 1000)
            yield turn_done

    panel.prepare_frame = timed_prepare_frame
    load_before = os.getloadavg()[0]  # the machine is shared: other work stretches every stall
    state["t0"] = state["last"] = time.perf_counter()
    state["cpu0"] = state["cpu_last"] = time.thread_time()
    if clock is not None:
        app.installEventFilter(clock)
    panel.run_to_end()  # start training, follow it as fast as it goes
    heartbeat.start()
    app.exec()
    if clock is not None:
        app.removeEventFilter(clock)
    gc.callbacks.remove(on_gc)
    seconds = state["t1"] - state["t0"]
    learned = len(panel.replay or ())
    failed = panel.message.isVisible() and panel.message.label.text()
    window.close()
    app.processEvents()
    lateness.sort()
    longest = sorted(long_stalls, key=lambda d: -d["ms"])[:5]
    p99 = lateness[int(0.99 * (len(lateness) - 1))] if lateness else 0.0
    return {
        "max_stall_ms": round(lateness[-1], 1) if lateness else 0.0,
        "p99_stall_ms": round(p99, 1),
        "merges": learned,
        "seconds": round(seconds, 3),
        "heartbeats": len(lateness),
        # CPU the GUI thread used while training ran (redraws, batches, heartbeats): load-independent
        "gui_cpu_seconds": round(state["cpu1"] - state["cpu0"], 3),
        "frames": len(frame_cpu),
        "frame_cpu_ms": percentiles(frame_cpu),
        "frame_paint_cpu_ms": percentiles(paint_cpu),
        "prepare_slice_cpu_ms": percentiles(slice_cpu),
        "worst_stall_during": phase_of_worst["phase"],
        "max_stall_by_phase": worst_by_phase,
        "load_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "stalls_over_50ms": [{k: v for k, v in d.items() if k != "span"} for d in longest if d["ms"] > 50],
        "events_in_longest_stalls": [
            {"ms": d["ms"], "gui_cpu_ms": d["gui_cpu_ms"], "events": clock.in_stall(*d["span"])} for d in longest[:3]
        ]
        if clock is not None
        else None,
        "gc_max_ms_by_generation": gc_worst,
        "error": failed or None,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", required=True, type=Path)
    ap.add_argument("--merges", type=int, default=3000)
    ap.add_argument("--mode", choices=("byte", "char"), default="byte")
    ap.add_argument("--pattern", default="gpt4")
    ap.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="sys.setswitchinterval for the panel run (default: Python's 5 ms)",
    )
    ap.add_argument("--no-core", action="store_true", help="skip timing the core alone")
    ap.add_argument(
        "--settle",
        type=float,
        default=3.0,
        help="seconds to let the window finish loading other panels' encoders before training",
    )
    ap.add_argument(
        "--events",
        action="store_true",
        help="list the GUI thread's events in the three longest stalls of each run (over 25 ms)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=2,
        help="panel and core runs, alternating (the machine is shared: best times are compared)",
    )
    args = ap.parse_args()
    result = {"corpus": args.corpus.name, "mode": args.mode, "pattern": args.pattern}
    panel_runs, core_runs = [], []
    for _ in range(max(1, args.repeat)):
        panel_runs.append(
            time_panel(
                args.corpus, args.merges, args.mode, args.pattern, args.switch_interval, args.settle, args.events
            )
        )
        if not args.no_core:
            core_runs.append(time_core(args.corpus, args.merges, args.mode, args.pattern))
    # stalls: the worst run (a stall target is a promise for every run); speed: the best run of each
    worst = max(panel_runs, key=lambda r: r["max_stall_ms"])
    best = min(panel_runs, key=lambda r: r["seconds"])
    result.update(worst)
    result["seconds"] = best["seconds"]
    kept = (
        "max_stall_ms",
        "p99_stall_ms",
        "seconds",
        "gui_cpu_seconds",
        "merges",
        "frame_cpu_ms",
        "frame_paint_cpu_ms",
        "prepare_slice_cpu_ms",
        "frames",
        "heartbeats",
        "max_stall_by_phase",
        "load_1min",
        "stalls_over_50ms",
        "gc_max_ms_by_generation",
        "events_in_longest_stalls",
    )
    result["runs"] = [{k: r[k] for k in kept} for r in panel_runs]
    if core_runs:
        core_seconds = min(t for t, _ in core_runs)
        result["core_seconds"] = round(core_seconds, 3)
        result["core_runs"] = [round(t, 3) for t, _ in core_runs]
        result["core_merges"] = core_runs[0][1]
        result["ratio"] = round(result["seconds"] / core_seconds, 3) if core_seconds else None
    result["targets"] = {"max_stall_ms<=": 50, "p99_stall_ms<=": 16, "ratio<=": 1.3}
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
