"""How long a training run takes to stop after cancel, in each phase (target: under 0.5 s at any moment).

    python benchmarks/cancel_latency.py [--corpus FILE | --mb 100] [--modes char,byte] [--trainers thread,process]

The corpus is ``--corpus``, else a generated one of ``--mb`` MB (bench_bpe.py's ``--big`` recipe, from
``$TOKVIZ_BENCH_CORPUS`` or the shared NSMC corpus). Each run trains in a thread, as the Train panel and
the CLI do: ``thread`` runs :class:`BPETrainer` in that thread, ``process`` runs :class:`ProcessTrainer`
(the Train panel's; the thread only relays). A watcher thread sets the cancel flag when the run reaches
a phase (counting at 10 % and 90 %, indexing, merge 1, merge 100, merge 3000) and the latency is the
time from setting the flag to the Finished("cancelled") event arriving in the training thread.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

# found through the sys.path entries just made (the script runs from any folder)
from bench_bpe import DEFAULT_CORPUS, make_big_corpus  # noqa: E402

from tokviz.core.bpe.corpus import corpus_size, read_corpus_blocks  # noqa: E402
from tokviz.core.bpe.events import MergeStep, TrainerConfig  # noqa: E402
from tokviz.core.bpe.trainer import BPETrainer  # noqa: E402
from tokviz.core.training import Finished, Progress  # noqa: E402
from tokviz.core.training.process import ProcessTrainer  # noqa: E402

PHASES = ["counting 10%", "counting 90%", "indexing", "merge 1", "merge 100", "merge 3000"]


def reached(phase: str, event) -> bool:
    if phase.startswith("counting"):
        share = int(phase.split()[1].rstrip("%")) / 100
        return isinstance(event, Progress) and event.phase == "counting" and bool(event.total) and \
            event.done >= share * event.total
    if phase == "indexing":
        return isinstance(event, Progress) and event.phase == "indexing" and event.done == 0
    step = int(phase.split()[1])
    return isinstance(event, MergeStep) and event.step >= step


def one_run(corpus: Path, mode: str, trainer_kind: str, phase: str) -> tuple[float | None, str]:
    """Cancel at ``phase``; return (latency in seconds, how the run ended)."""
    trainer = BPETrainer(TrainerConfig(mode=mode, merges=32000))
    if trainer_kind == "process":
        trainer = ProcessTrainer(trainer)
    flag = threading.Event()
    last = {"event": None}
    marks: dict[str, float] = {}
    done = threading.Event()
    ending: list = []

    def train():
        try:
            for event in trainer.run(read_corpus_blocks(corpus), cancel=flag.is_set, total_bytes=corpus_size(corpus)):
                last["event"] = event
                if isinstance(event, Finished):
                    marks["finished"] = time.perf_counter()
                    ending.append(event)
        finally:
            done.set()

    thread = threading.Thread(target=train, daemon=True)
    thread.start()
    while not done.is_set():  # the watcher: as the GUI thread would, it sets the flag from outside
        event = last["event"]
        if event is not None and reached(phase, event):
            marks["cancel"] = time.perf_counter()
            flag.set()
            break
        time.sleep(0.001)
    done.wait()
    thread.join()
    fin = ending[-1] if ending else None
    how = f"{fin.reason} after {fin.merges} merges" if fin else "no Finished"
    if "cancel" not in marks:
        return None, how + " (ended before the phase)"
    return marks["finished"] - marks["cancel"], how


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path)
    ap.add_argument("--mb", type=float, default=100.0)
    ap.add_argument("--modes", default="char,byte")
    ap.add_argument("--trainers", default="thread,process")
    ap.add_argument("--phases", default=",".join(PHASES))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tokviz-cancel-") as tmp:
        corpus = args.corpus
        if corpus is None:
            corpus = Path(tmp) / "mixed.txt"
            make_big_corpus(corpus, DEFAULT_CORPUS, int(args.mb * 1e6))
        print(f"corpus {corpus} ({corpus.stat().st_size / 1e6:.1f} MB); cores {os.cpu_count()}; "
              f"load {os.getloadavg()[0]:.2f}")
        worst = 0.0
        print("| trainer | mode | cancelled at | latency ms | ended |")
        print("|---|---|---|---|---|")
        for kind in args.trainers.split(","):
            for mode in args.modes.split(","):
                for phase in args.phases.split(","):
                    latency, how = one_run(corpus, mode, kind, phase)
                    shown = "-" if latency is None else f"{latency * 1000:.0f}"
                    print(f"| {kind} | {mode} | {phase} | {shown} | {how} |", flush=True)
                    if latency is not None:
                        worst = max(worst, latency)
        verdict = "meets" if worst <= 0.5 else "MISSES"
        print(f"\nworst cancel latency {worst * 1000:.0f} ms ({verdict} the 500 ms target)")


if __name__ == "__main__":
    main()
