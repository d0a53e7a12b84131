"""How long does pasting a big text into the Inspector stall the GUI?

    QT_QPA_PLATFORM=offscreen python benchmarks/inspector_stall.py --chars 5000000

Opens the real main window offscreen, shows the Inspector, lets the other panels finish loading, then
pastes N characters (Korean, English and emoji, in lines of about 80 characters) through the
clipboard into the editor, as a user's Ctrl+V does, while a 10 ms heartbeat QTimer runs on the main
thread. A stall is how late the heartbeat fires. The run ends a second after the views show the
pasted text's tokens (so freeing the previous result counts too). Prints one JSON object:

    {"max_stall_ms", "p99_ms", "chars", "tokens", "seconds", "stalls_over_50ms", ...}

Target (issue 11): max stall <= 100 ms at 5,000,000 characters. ``--kind one-line`` / ``--kind zwj``
paste one line without a break (issue 16: the editor froze for minutes laying it out; target <= 1 s).
``--text-file F --mb 20`` pastes F's text repeated to 20 MB of UTF-8 (with ``--encoder deepseek-v4`` or a
SentencePiece model: issue 23's 20 MB Korean paste). ``--where`` also samples every thread's stack during each
stall over 50 ms and prints the lines seen most.
``--events`` lists, for the longest stalls, every event the GUI thread handled in them (receiver, event type,
milliseconds until the next event began): which slot, paint or timer made the stall.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import os
import sys
import threading
import time
import traceback
from pathlib import Path

# run from a source checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HEARTBEAT_MS = 10
PIECES = ["안녕하세요 ", "토크나이저는 글자를 조각으로 나눕니다. ", "Tokenizers split text into tokens ", "👋 ",
          "👨‍👩‍👧‍👦 ", "값은 얼마예요? ", "def greet(name): ", "return f\"Hello, {name}!\" ", "🇰🇷 ", "1234567.89 "]


def mixed_text(chars: int) -> str:
    """``chars`` characters of mixed Korean, English and emoji, a newline about every 80."""
    out: list[str] = []
    n = line = 0
    i = 0
    while n < chars:
        piece = PIECES[i % len(PIECES)]
        i += 1
        if line + len(piece) > 80:
            piece = piece.rstrip() + "\n"
            line = 0
        else:
            line += len(piece)
        out.append(piece)
        n += len(piece)
    return "".join(out)[:chars]


def one_line_text(chars: int) -> str:
    """``chars`` characters on one line without a break or a space (issue 16's frozen window)."""
    unit = "abcdefghij"
    return (unit * (chars // len(unit) + 1))[:chars]


def zwj_text(chars: int) -> str:
    """About ``chars`` characters of family emoji (ZWJ sequences), on one line."""
    unit = "👨‍👩‍👧‍👦"
    return unit * max(1, chars // len(unit))


TEXTS = {"mixed": mixed_text, "one-line": one_line_text, "zwj": zwj_text}


def file_text(path: str, chars: int, mb: float) -> str:
    """The text of ``path`` repeated to ``mb`` megabytes of UTF-8 (or ``chars`` characters), cut after a line."""
    base = Path(path).read_text(encoding="utf-8")
    if not base.endswith("\n"):
        base += "\n"
    if mb:
        per_char = len(base.encode("utf-8")) / len(base)
        chars = int(mb * 1_000_000 / per_char)
    text = (base * (chars // len(base) + 1))[:chars]
    cut = text.rfind("\n")
    return text[:cut + 1] if cut > 0 else text


def peak_rss_mb() -> float:
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def event_clock():
    """An application event filter that notes when each event (to any object, nested ones too) begins
    being handled; the time to the next one is what handling it cost, nested events counted apart."""
    from PySide6.QtCore import QObject

    class EventClock(QObject):
        def __init__(self):
            super().__init__()
            self.log: list[tuple[float, str]] = []

        def eventFilter(self, watched, event) -> bool:  # noqa: N802
            parent = watched.parent() if watched is not None and hasattr(watched, "parent") else None
            owner = f"{type(watched).__name__}" + (f"<{type(parent).__name__}" if parent is not None else "")
            self.log.append((time.perf_counter(), f"{owner} {event.type().name}"))
            return False

        def in_stall(self, start: float, end: float, top: int = 8) -> list[str]:
            """The events that began in ``[start, end)``, the longest first."""
            log = self.log
            spans = []
            for i, (t, what) in enumerate(log):
                if start <= t < end:
                    nxt = log[i + 1][0] if i + 1 < len(log) else end
                    spans.append((min(nxt, end) - t, what))
            spans.sort(reverse=True)
            return [f"{ms * 1000:.1f} ms {what}" for ms, what in spans[:top]]

    return EventClock()


def run(chars: int, encoder: str, settle: float, where: bool, kind: str = "mixed", events: bool = False,
        text: str | None = None) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtGui import QGuiApplication

    from tokviz.ui.app import make_application
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.settings import Settings

    app = make_application()
    settings_dir = Path(os.environ.get("TMPDIR", "/tmp")) / f"tokviz-inspector-stall-{os.getpid()}"
    window = MainWindow(settings=Settings.at(settings_dir / "tokviz.ini"))
    window.resize(1400, 900)
    panel = window.show_view("inspect")
    window.show()
    if encoder:
        panel.set_encoder(encoder)
    loop = QEventLoop()
    QTimer.singleShot(int(settle * 1000), loop.quit)  # the other panels load their encoders meanwhile
    loop.exec()
    panel.wait_for_result()

    text = TEXTS[kind](chars) if text is None else text
    chars = len(text)
    rss_before = peak_rss_mb()
    QGuiApplication.clipboard().setText(text)
    lateness: list[float] = []
    long_stalls: list[dict] = []
    state = {"last": 0.0, "cpu_last": 0.0, "shown_at": None, "phase": "pasting"}
    main_ident = threading.get_ident()
    samples: collections.Counter = collections.Counter()
    stop_sampler = threading.Event()

    def sample_threads() -> None:
        # a stall is a heartbeat that is late: look at what every thread does meanwhile (the main
        # thread busy itself, or waiting for the GIL a worker holds in one long call)
        me = threading.get_ident()
        while not stop_sampler.wait(0.02):
            if time.perf_counter() - state["last"] > 0.05:
                for ident, frame in sys._current_frames().items():
                    if ident == me:
                        continue
                    who = "main" if ident == main_ident else "worker"
                    for fs in traceback.extract_stack(frame)[-2:]:
                        samples[f"{who} {Path(fs.filename).name}:{fs.lineno} {fs.name}"] += 1

    heartbeat = QTimer()
    heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
    heartbeat.setInterval(HEARTBEAT_MS)

    def beat() -> None:
        now = time.perf_counter()
        late = (now - state["last"]) * 1000 - HEARTBEAT_MS
        state["last"] = now
        cpu = time.thread_time()
        lateness.append(max(0.0, late))
        if late > 50 or (events and late > 15):
            long_stalls.append({"ms": round(late, 1), "gui_cpu_ms": round((cpu - state["cpu_last"]) * 1000, 1),
                                "during": state["phase"], "span": (state["last_beat"], now)})
        state["cpu_last"] = cpu
        state["last_beat"] = now
        enc = panel.result.encoding if panel.result is not None else None
        if state["shown_at"] is None:
            if panel.is_current() and enc is not None and len(enc.text) == len(text):
                state["shown_at"] = now
                state["phase"] = "after showing (freeing the previous result)"
            elif state["phase"] != "pasting":
                decoding = getattr(panel.editor, "decoding", lambda: False)()
                state["phase"] = ("decoding the paste" if decoding
                                  else "loading the editor" if panel.exact_text.loading()
                                  else "waiting for the debounce" if panel._debounce.isActive()
                                  else "encoding and laying out (worker), showing the result")
        elif now - state["shown_at"] > 1.0:
            heartbeat.stop()
            QTimer.singleShot(0, loop.quit)

    def paste() -> None:
        state["phase"] = "pasting"
        panel.editor.selectAll()
        panel.editor.paste()  # the real path: insertFromMimeData -> the panel's lone-surrogate check
        state["phase"] = "waiting for the debounce"

    gc_worst = {0: 0.0, 1: 0.0, 2: 0.0}
    gc_start: dict[str, float] = {}

    def on_gc(phase: str, info: dict) -> None:
        # a collection holds the GIL: every thread waits, whichever thread triggered it
        if phase == "start":
            gc_start["t"] = time.perf_counter()
        elif "t" in gc_start:
            ms = (time.perf_counter() - gc_start.pop("t")) * 1000
            gc_worst[info["generation"]] = max(gc_worst[info["generation"]], round(ms, 1))

    gc.callbacks.append(on_gc)
    heartbeat.timeout.connect(beat)
    clock = event_clock() if events else None
    sampler = threading.Thread(target=sample_threads, daemon=True)
    if where:
        sampler.start()
    load_before = os.getloadavg()[0]
    if clock is not None:
        app.installEventFilter(clock)
    t0 = state["last"] = state["last_beat"] = time.perf_counter()
    state["cpu_last"] = time.thread_time()
    heartbeat.start()
    QTimer.singleShot(50, paste)
    QTimer.singleShot(600_000, loop.quit)  # a hard stop: never hang a shared machine
    loop.exec()
    if clock is not None:
        app.removeEventFilter(clock)
    stop_sampler.set()
    gc.callbacks.remove(on_gc)
    seconds = (state["shown_at"] or time.perf_counter()) - t0
    enc = panel.result.encoding if panel.result is not None else None
    tokens = len(enc.tokens) if enc is not None and len(enc.text) == len(text) else None
    window.close()
    app.processEvents()
    lateness.sort()
    p99 = lateness[int(0.99 * (len(lateness) - 1))] if lateness else 0.0
    out = {
        "max_stall_ms": round(lateness[-1], 1) if lateness else 0.0,
        "p99_ms": round(p99, 1),
        "chars": chars,
        "kind": kind,
        "encoder": panel.current_encoder(),
        "tokens": tokens,
        "seconds": round(seconds, 2),
        "utf8_mb": round(len(text.encode("utf-8")) / 1e6, 1),
        "peak_rss_mb": peak_rss_mb(),
        "peak_rss_mb_before_paste": rss_before,
        "heartbeats": len(lateness),
        "load_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "stalls_over_50ms": [{k: v for k, v in d.items() if k != "span"}
                             for d in sorted(long_stalls, key=lambda d: -d["ms"]) if d["ms"] > 50][:6],
        "gc_max_ms_by_generation": gc_worst,
    }
    if clock is not None:
        out["events_in_longest_stalls"] = [
            {"ms": d["ms"], "gui_cpu_ms": d["gui_cpu_ms"], "during": d["during"], "events": clock.in_stall(*d["span"])}
            for d in sorted(long_stalls, key=lambda d: -d["ms"])[:6]
        ]
    if where:
        out["threads_during_stalls"] = [f"{n}x {line}" for line, n in samples.most_common(16)]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chars", type=int, default=1_000_000)
    ap.add_argument("--encoder", default="cl100k_base")
    ap.add_argument("--settle", type=float, default=3.0, help="seconds to let the other panels load first")
    ap.add_argument("--where", action="store_true", help="sample the threads' stacks during stalls")
    ap.add_argument("--events", action="store_true", help="list the GUI thread's events in the longest stalls")
    ap.add_argument("--kind", choices=sorted(TEXTS), default="mixed",
                    help="mixed lines of about 80 characters (default), one line of ASCII, or one line of ZWJ emoji")
    ap.add_argument("--text-file", help="paste this file's text, repeated to --chars (or --mb) instead of --kind")
    ap.add_argument("--mb", type=float, default=0.0, help="with --text-file: megabytes of UTF-8 to paste")
    args = ap.parse_args()
    text = file_text(args.text_file, args.chars, args.mb) if args.text_file else None
    out = run(args.chars, args.encoder, args.settle, args.where, args.kind, args.events, text)
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
