"""Vocabulary panel speed on o200k_base, measured in the real panel offscreen.

1. Open: the panel is shown on o200k_base (not loaded yet) with its default query; timed until the
   merge tree of the best match is drawn (the rank file read, the token found, the tree built, all in
   the worker) and painted.
2. Each other tab opened in turn — reachability (every token of o200k encoded alone), the diff with
   cl100k_base (two tables, six sorted lists), the number map 0–9999 — timed until it is drawn.

Throughout, a 5 ms heartbeat QTimer on the GUI thread records the longest gap between its ticks: the
worst time the window could not respond (target: at most 50 ms). The machine may be shared: numbers
are wall-clock, and the load average is printed with them.

Run: ``python benchmarks/vocab_view.py [--encoder o200k_base] [--second cl100k_base]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # run from a checkout


class Heartbeat:
    """A timer on the GUI thread; the longest gap between ticks is the worst stall."""

    def __init__(self, interval_ms: int = 5):
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)
        self.last: float | None = None
        self.max_gap = 0.0
        self.where = ""
        self.phase = ""
        self.by_phase: dict[str, float] = {}
        self.spans: dict[str, tuple[float, float]] = {}  # each phase's worst gap, as (start, end)
        # the GUI thread's own CPU time between two ticks: what a loaded machine's noise does not inflate
        self.last_cpu = 0.0
        self.cpu_by_phase: dict[str, float] = {}

    def _tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        if self.last is not None:
            gap = now - self.last
            if gap > self.by_phase.get(self.phase, 0.0):
                self.spans[self.phase] = (self.last, now)
            self.by_phase[self.phase] = max(self.by_phase.get(self.phase, 0.0), gap)
            used = cpu - self.last_cpu
            self.cpu_by_phase[self.phase] = max(self.cpu_by_phase.get(self.phase, 0.0), used)
            if gap > self.max_gap:
                self.max_gap, self.where = gap, self.phase
        self.last, self.last_cpu = now, cpu

    def start(self) -> None:
        self.last = None
        self.timer.start()


def spin_until(done, timeout: float = 300.0) -> bool:
    """Run the event loop (as the app does) until ``done()``."""
    from PySide6.QtCore import QEventLoop, QTimer

    end = time.monotonic() + timeout
    while not done() and time.monotonic() < end:
        loop = QEventLoop()
        QTimer.singleShot(5, loop.quit)
        loop.exec()
    return done()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--encoder", default="o200k_base")
    ap.add_argument("--second", default="cl100k_base")
    ap.add_argument("--third", default="o200k_base", help="diffed last, both encoders loaded (default: itself)")
    ap.add_argument("--events", action="store_true", help="the GUI thread's longest events in each phase's worst gap")
    args = ap.parse_args()

    # Qt is imported here, not at the top: the vocabulary process (started with "spawn") imports this
    # script as its main module, and the app's own entry point costs it no such imports
    from tokviz.ui.app import make_application

    app = make_application()
    clock = None
    if args.events:  # the same clock as inspector_stall's (an application event filter)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from inspector_stall import event_clock

        clock = event_clock()
        app.installEventFilter(clock)
    from PySide6.QtCore import QCoreApplication

    from tokviz.ui.session import Session
    from tokviz.ui.vocab.panel import VocabPanel

    load = os.getloadavg()
    session = Session()
    panel = VocabPanel(session)
    panel.resize(1400, 900)
    panel.set_encoders(args.encoder)
    beat = Heartbeat()
    beat.start()
    spin_until(lambda: beat.last is not None, 5)

    def drawn(tab, ready) -> float:
        start = time.perf_counter()
        beat.phase = tab
        if tab != "tree":
            panel.tabs.setCurrentIndex(("tree", "reach", "diff", "maps").index(tab.split(",")[0]))
        else:
            panel.show()
        if not spin_until(lambda: ready() and not panel.busy()):
            print(f"{tab}: not drawn within the timeout ({panel.status.text()} {panel.message_bar.text()})")
            return float("nan")
        # the paint the result caused, as the app's event loop does it (only what changed); a
        # synchronous panel.repaint() here repainted every widget, a cost no user action causes, and
        # its gap was counted in the next phase
        QCoreApplication.processEvents()
        return time.perf_counter() - start

    # the machine's own noise: the heartbeat's worst gap while nothing at all runs
    beat.phase = "idle"
    spin_until(lambda: False, 2.0)
    print(f"idle heartbeat, nothing running: worst gap {beat.by_phase.get('idle', 0) * 1000:.0f} ms")
    first = drawn("tree", lambda: panel.tree_tab.result is not None)
    print(f"open on {args.encoder} (load + search + merge tree drawn): {first * 1000:.0f} ms")
    reach = drawn("reach", lambda: panel.reach_tab.reach is not None)
    print(f"reachability tab ({panel.reach_tab.reach.reach.checked:,} tokens encoded alone): {reach * 1000:.0f} ms")
    panel.diff_tab.second_combo.setCurrentIndex(panel.diff_tab.second_combo.findData(args.second))
    diff = drawn("diff", lambda: panel.diff_tab.result is not None)
    print(f"diff tab with {args.second} (incl. loading it): {diff * 1000:.0f} ms")
    maps = drawn("maps", lambda: panel.maps_tab.split_map is not None)
    print(f"number map 0-9999: {maps * 1000:.0f} ms")
    # the encoders are loaded now: a new token's tree and a new diff cost only the panel's own work
    panel.tabs.setCurrentIndex(0)
    panel.tree_tab.search_edit.setText("indentation")
    panel.tree_tab.search_now()
    warm = drawn(
        "tree, warm", lambda: panel.tree_tab.result is not None and panel.tree_tab.result.tree.data == b" indentation"
    )
    print(f"another token's tree, encoder loaded: {warm * 1000:.0f} ms")
    panel.diff_tab.second_combo.setCurrentIndex(panel.diff_tab.second_combo.findData(args.third))
    again = drawn("diff, warm", lambda: panel.diff_tab.result is not None)
    print(f"diff with {args.third}, both loaded: {again * 1000:.0f} ms")
    print(
        f"worst GUI-thread stall: {beat.max_gap * 1000:.0f} ms (during {beat.where}); by phase: "
        + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in beat.by_phase.items())
    )
    if clock is not None:
        for phase, (start, end) in beat.spans.items():
            print(f"  {phase}: " + "; ".join(clock.in_stall(start, end, top=6)))
    print(
        "largest GUI-thread CPU slice between two ticks, by phase: "
        + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in beat.cpu_by_phase.items())
    )
    print(f"load average before: {load[0]:.2f} (1 min), after: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    panel.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
