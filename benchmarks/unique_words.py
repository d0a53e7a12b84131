"""Training on a corpus of mostly unique words: peak memory, progress gaps and cancel latency per phase.

    python benchmarks/unique_words.py [--mb 200] [--algorithms bpe-char,bpe-byte,wordpiece,unigram]
                                      [--cap N] [--as-gb 6] [--cancel]

A corpus of ``--mb`` MB is generated into a temporary folder (deleted afterwards) from a fixed seed:
lines of ~12 words, 9 in 10 of them random lowercase strings of 4-12 letters (so nearly every one
occurs once), the rest from a list of 2,000 common made-up words (a Zipf-like head that real text has).
Each algorithm trains in a child process under an address-space cap (``--as-gb``, default 6 GB;
``prlimit --as`` in effect), reading the corpus as ``tokviz train`` does. The child reports:

- its peak RSS (its own plus the counting helper's, the largest of the two processes at once is not
  known, so both are printed),
- the time to the first Progress event and the longest gap between two events, per phase,
- the longest gap between two polls of the cancel flag, per phase: the worst cancel latency there,
- any note the counting made (distinct words over the cap).

With ``--cancel`` each algorithm is also run once more per phase with the cancel flag set when the phase
starts (and again 0.3 s into it), and the time until Finished("cancelled") arrives is printed.
``--cap`` overrides the distinct-word cap (the default is tokviz's own).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ALGORITHMS = {
    "bpe-char": "BPETrainer(TrainerConfig(mode='char', merges=1000))",
    "bpe-byte": "BPETrainer(TrainerConfig(mode='byte', merges=1000))",
    "wordpiece": "WordPieceTrainer(WordPieceConfig(vocab_size=8000))",
    "unigram": "UnigramTrainer(UnigramConfig(vocab_size=8000))",
}


def make_corpus(path: Path, mb: int, seed: int = 23) -> None:
    """Write ``mb`` MB of mostly unique words to ``path`` (numpy: 200 MB in a few seconds)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    common = ["".join(chr(97 + c) for c in rng.integers(0, 26, size=int(n))) for n in rng.integers(2, 8, size=2000)]
    zipf = 1.0 / np.arange(1, len(common) + 1)
    zipf /= zipf.sum()
    target = mb * 1_000_000
    written = 0
    with open(path, "w", encoding="utf-8") as f:
        while written < target:
            n = 200_000  # words per block
            lens = rng.integers(4, 13, size=n)
            letters = rng.integers(97, 123, size=int(lens.sum()), dtype=np.uint8).tobytes().decode("ascii")
            ends = np.cumsum(lens).tolist()
            starts = [0, *ends[:-1]]
            pick = rng.random(n) < 0.1
            heads = rng.choice(len(common), size=n, p=zipf).tolist()
            words = [common[h] if p else letters[a:b]
                     for a, b, p, h in zip(starts, ends, pick.tolist(), heads, strict=True)]
            lines = [" ".join(words[i:i + 12]) for i in range(0, n, 12)]
            text = "\n".join(lines) + "\n"
            f.write(text)
            written += len(text)


CHILD = r"""
import json, resource, sys, threading, time
from tokviz.core.bpe.corpus import corpus_size, read_corpus_blocks
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.training import Finished, Progress
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer
from tokviz.core import word_counts

corpus, make, cap, cancel_phase = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
cancel_after = float(sys.argv[5])
if cap > 0:
    word_counts.DISTINCT_WORDS_CAP = word_counts.UNIGRAM_DISTINCT_WORDS_CAP = cap
trainer = eval(make)
phase = "start"
start = last_event = last_poll = time.monotonic()
first_progress = None
gaps, polls, durations, notes = {}, {}, {}, []
# the same gaps in CPU time (the trainer runs on one thread; the counting helper is another process), with
# where the longest poll gap of each phase began and ended: wall times on a loaded machine say little
cpu_polls, cpu_where = {}, {}
last_cpu = {"t": time.process_time(), "at": ""}


def _caller():
    f = sys._getframe(2)
    out = []
    while f is not None and len(out) < 3:
        out.append(f"{f.f_code.co_filename.rsplit('/', 1)[-1]}:{f.f_lineno}")
        f = f.f_back
    return " < ".join(out)
entered = {"start": start}
flag = {"set": None}

def poll():
    global last_poll
    now = time.monotonic()
    polls[phase] = max(polls.get(phase, 0.0), now - last_poll)
    last_poll = now
    cpu, at = time.process_time(), _caller()
    if cpu - last_cpu["t"] > cpu_polls.get(phase, 0.0):
        cpu_polls[phase] = cpu - last_cpu["t"]
        cpu_where[phase] = f"{last_cpu['at']} -> {at}"
    last_cpu["t"], last_cpu["at"] = cpu, at
    if cancel_phase == phase and flag["set"] is None and now - entered[phase] >= cancel_after:
        flag["set"] = now
    return flag["set"] is not None

ending = None
try:
    for event in trainer.run(read_corpus_blocks(corpus), cancel=poll, total_bytes=corpus_size(corpus)):
        now = time.monotonic()
        gaps[phase] = max(gaps.get(phase, 0.0), now - last_event)
        last_event = now
        if isinstance(event, Progress):
            if first_progress is None:
                first_progress = now - start
            new = event.phase
        elif isinstance(event, Finished):
            ending = event
            new = phase
        elif hasattr(event, "text") and not hasattr(event, "step"):
            notes.append(event.text)
            new = phase
        else:
            new = "steps"
        if new != phase:
            durations[phase] = now - entered[phase]
            phase = new
            entered[phase] = now
            last_poll = now
            last_cpu["t"], last_cpu["at"] = time.process_time(), "phase start"
            if cancel_phase == phase and cancel_after == 0.0:
                flag["set"] = now
    durations[phase] = time.monotonic() - entered[phase]
    result = {"finished": ending.reason if ending else None, "message": ending.message if ending else None}
except Exception as err:
    result = {"error": f"{type(err).__name__}: {err}"}
result.update(
    peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    helper_peak_rss_mb=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    first_progress_s=first_progress, event_gap_s=gaps, poll_gap_s=polls, poll_gap_cpu_s=cpu_polls,
    poll_gap_cpu_where=cpu_where, phase_s=durations, notes=notes,
    cancel_latency_s=(time.monotonic() - flag["set"]) if flag["set"] is not None else None,
)
print(json.dumps(result))
"""


def run_child(corpus: Path, algorithm: str, cap: int, as_gb: float, cancel_phase: str = "", cancel_after: float = 0.0,
              timeout: float = 900) -> dict:
    limit = int(as_gb * (1 << 30))

    def cap_memory():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(corpus), ALGORITHMS[algorithm], str(cap), cancel_phase or "-",
         str(cancel_after)],
        capture_output=True, text=True, env=env, preexec_fn=cap_memory, timeout=timeout)
    wall = time.monotonic() - started
    lines = proc.stdout.strip().splitlines()
    try:
        out = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        out = {"error": f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:] }"}
    out["wall_s"] = wall
    return out


def _fmt(d: dict) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in d.items())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--algorithms", default=",".join(ALGORITHMS))
    ap.add_argument("--cap", type=int, default=0, help="distinct-word cap (0: tokviz's default)")
    ap.add_argument("--as-gb", type=float, default=6.0, help="address-space cap per child, GB")
    ap.add_argument("--cancel", action="store_true", help="also measure cancel latency in each phase")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tokviz-unique-") as tmp:
        corpus = Path(tmp) / "unique.txt"
        t0 = time.monotonic()
        make_corpus(corpus, args.mb)
        print(f"corpus: {corpus.stat().st_size / 1e6:.0f} MB generated in {time.monotonic() - t0:.1f} s", flush=True)
        for algorithm in args.algorithms.split(","):
            r = run_child(corpus, algorithm, args.cap, args.as_gb)
            print(f"\n{algorithm}: {r.get('finished') or r.get('error')}  wall {r['wall_s']:.1f} s  "
                  f"peak RSS {r.get('peak_rss_mb', 0):.0f} MB (helper {r.get('helper_peak_rss_mb', 0):.0f} MB)",
                  flush=True)
            if "phase_s" in r:
                print(f"  first progress {r['first_progress_s']:.3f} s")
                print(f"  phase time      {_fmt(r['phase_s'])}")
                print(f"  max event gap   {_fmt(r['event_gap_s'])}")
                print(f"  max cancel poll {_fmt(r['poll_gap_s'])}")
                print(f"  ... in CPU time {_fmt(r['poll_gap_cpu_s'])}")
                for ph, where in r["poll_gap_cpu_where"].items():
                    print(f"    {ph}: {where}")
                for note in r["notes"]:
                    print(f"  note: {note}")
            if args.cancel and "phase_s" in r:
                for phase in [p for p in r["phase_s"] if p != "start"]:
                    for after in (0.0, 0.3):
                        c = run_child(corpus, algorithm, args.cap, args.as_gb, phase, after)
                        lat = c.get("cancel_latency_s")
                        shown = f"{lat:.3f} s" if lat is not None else "not reached"
                        print(f"  cancel in {phase} (+{after:.1f} s): {c.get('finished') or c.get('error')}, "
                              f"latency {shown}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
