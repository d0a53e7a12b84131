"""tokviz BPE training speed and memory vs HF tokenizers (char mode) and rustbpe (byte mode).

    python benchmarks/bench_bpe.py [--corpus FILE] [--merges 1000] [--more-merges 10000] [--rounds 1]
    python benchmarks/bench_bpe.py --big [--big-mb 100] [--big-merges 32000]   adds the 100 MB row

The corpus is ``--corpus``, else ``$TOKVIZ_BENCH_CORPUS``, else nsmc_train_150k.txt in the shared corpora.

Every measurement is a separate process timed from start to exit (imports, reading the corpus,
counting, merging), so Python start-up and library imports count for everyone. tokviz runs through
its CLI (``python -m tokviz train ... -q``). The runs alternate tokviz / peer so that load from
other work on the machine hits both alike. Peak memory is the child's ``ru_maxrss`` from
``os.wait4``. The naive loop (recount all pairs, rewrite all words) runs a few merges for scale.

Char mode: HF ``BpeTrainer`` with ``WhitespaceSplit``, ``end_of_word_suffix="</w>"``,
``min_frequency=2``; its vocab_size is set to its initial alphabet (distinct characters plus
distinct word-final ``x</w>`` symbols) + N so that it makes N merges (checked in its output).
Byte mode: rustbpe ``train_from_iterator([whole text], 256 + N)`` with tokviz's GPT-4 pattern.

``--big``: a ~100 MB corpus is generated into a temporary folder, the same bytes on every run with
the same inputs (seeded): the NSMC corpus's lines in shuffled blocks of 2,000, interleaved with the
Python standard library's own source files (code with English comments and docstrings) in a
shuffled order, until the size is reached. All three trainers make 32,000 merges on it; the row
gives wall time and peak memory (limit 4 GB).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the shared corpora sit next to the checkout (/work/main) or two levels up (a worktree in /work/wt/NAME)
_SHARED = [p / "shared" / "corpora" / "nsmc_train_150k.txt" for p in (ROOT.parent, ROOT.parent.parent)]
DEFAULT_CORPUS = Path(os.environ.get("TOKVIZ_BENCH_CORPUS") or next((p for p in _SHARED if p.exists()), _SHARED[0]))
BIG_SEED = 15


def make_big_corpus(path: Path, nsmc: Path, target_bytes: int, seed: int = BIG_SEED) -> int:
    """Write a mixed Korean / code / English corpus of about ``target_bytes`` to ``path``: shuffled
    2,000-line blocks of ``nsmc`` interleaved with the standard library's ``.py`` files (a seeded
    order; files that are not UTF-8 are skipped). Returns the size written."""
    rng = random.Random(seed)
    with nsmc.open(encoding="utf-8") as f:
        korean = f.read().splitlines(keepends=True)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    code_files = sorted(p for p in stdlib.rglob("*.py") if "site-packages" not in p.parts)
    rng.shuffle(code_files)
    written = 0
    next_code = 0
    tmp = path.with_name(path.name + ".part")
    with tmp.open("w", encoding="utf-8", newline="") as out:
        while written < target_bytes:
            if rng.random() < 0.5:
                text = "".join(rng.sample(korean, 2000))
            else:
                try:
                    text = code_files[next_code % len(code_files)].read_text(encoding="utf-8")
                except (UnicodeDecodeError, OSError):
                    text = ""
                next_code += 1
                if text and not text.endswith("\n"):
                    text += "\n"
            out.write(text)
            written += len(text.encode("utf-8"))
    tmp.replace(path)
    return written


def run_process(cmd: list[str]) -> dict:
    """Run ``cmd``; return wall seconds, peak RSS (MB) and its JSON output if any."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err.decode(errors='replace')}")
    result = {"wall": wall}
    text = out.decode("utf-8", "replace").strip()
    if text.startswith("{"):
        result.update(json.loads(text.splitlines()[-1]))
    else:
        result["stdout"] = text
    return result


def measured(cmd: list[str]) -> dict:
    """Run ``cmd`` through a tiny wrapper process that reports the child's own peak RSS."""
    wrapper = (
        "import json, os, resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)\n"
        "out = p.stdout.read()\n"
        "_, status, ru = os.wait4(p.pid, 0)\n"
        "wall = time.perf_counter() - t\n"
        "code = os.waitstatus_to_exitcode(status)\n"
        "sys.stdout.write(json.dumps({'wall_child': wall, 'rss_mb': ru.ru_maxrss / 1024, 'code': code, "
        "'cpu': ru.ru_utime + ru.ru_stime, "
        "'out': out.decode('utf-8', 'replace')}))\n"
        "sys.exit(code)\n"
    )
    res = run_process([sys.executable, "-c", wrapper, *cmd])
    inner = res.get("out", "").strip()
    info = {"wall": res["wall_child"], "rss_mb": res["rss_mb"], "cpu": res["cpu"]}
    if inner.startswith("{"):
        info.update(json.loads(inner.splitlines()[-1]))
    else:
        info["stdout"] = inner
    return info


def hf_vocab_size(corpus: Path, merges: int) -> int:
    chars: set[str] = set()
    finals: set[str] = set()
    with corpus.open(encoding="utf-8") as f:
        words = Counter(f.read().split())
    for w in words:
        chars.update(w)
        finals.add(w[-1])
    return len(chars) + len(finals) + merges


def tokviz_cmd(corpus: Path, mode: str, merges: int) -> list[str]:
    cmd = [sys.executable, "-m", "tokviz", "train", str(corpus), "--mode", mode, "--merges", str(merges), "-q"]
    return cmd + (["--pattern", "gpt4"] if mode == "byte" else [])


def merges_done(info: dict) -> int | None:
    if "merges" in info:
        return info["merges"]
    for line in info.get("stdout", "").splitlines():
        if line.startswith("merges"):
            return int(line.split()[1].replace(",", ""))
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--merges", type=int, default=1000)
    ap.add_argument("--more-merges", type=int, default=10000, help="the larger run (0 to skip)")
    ap.add_argument("--big", action="store_true", help="add the ~100 MB generated corpus row (minutes)")
    ap.add_argument("--big-mb", type=float, default=100.0, help="size of the generated corpus in MB")
    ap.add_argument("--big-merges", type=int, default=32000)
    ap.add_argument("--skip-table", action="store_true", help="only the --big row")
    ap.add_argument("--rounds", type=int, default=1, help="alternating rounds of the main comparison")
    ap.add_argument("--naive-merges", type=int, default=3)
    args = ap.parse_args()
    corpus = args.corpus
    size_mb = corpus.stat().st_size / 1e6
    print(f"corpus {corpus} ({size_mb:.1f} MB); cores {os.cpu_count()}; load {os.getloadavg()[0]:.2f} at start")
    print("(whole-process wall time, and user+system CPU time of the process; on a shared machine the CPU time\n"
          " is the steadier measure, since HF tokenizers and rustbpe use threads that wait for cores)\n")

    sizes = [args.merges] + ([args.more_merges] if args.more_merges else [])
    if args.skip_table:
        sizes = []
    rows = []
    for n in sizes:
        vocab = hf_vocab_size(corpus, n)
        rounds = args.rounds if n == args.merges else 1
        for _ in range(rounds):
            pairs = [
                ("char", tokviz_cmd(corpus, "char", n), "HF tokenizers BpeTrainer",
                 [sys.executable, "benchmarks/bpe_peers.py", "hf-char", str(corpus), str(vocab)]),
                ("byte gpt4", tokviz_cmd(corpus, "byte", n), "rustbpe",
                 [sys.executable, "benchmarks/bpe_peers.py", "rustbpe", str(corpus), str(n)]),
            ]
            for mode, ours_cmd, peer_name, peer_cmd in pairs:
                ours = measured(ours_cmd)
                peer = measured(peer_cmd)
                rows.append((n, mode, ours, peer_name, peer))
                print(
                    f"  {mode:9s} {n:6d} merges  tokviz {ours['wall']:6.2f} s ({merges_done(ours)} merges, "
                    f"{ours['rss_mb']:.0f} MB)   {peer_name} {peer['wall']:6.2f} s ({merges_done(peer)} merges, "
                    f"{peer['rss_mb']:.0f} MB)   wall ratio {ours['wall'] / peer['wall']:.2f}x  "
                    f"cpu ratio {ours['cpu'] / peer['cpu']:.2f}x",
                    flush=True,
                )
    if args.big:
        big_row(corpus, args.big_mb, args.big_merges)
    if not rows:
        return
    naive = measured([sys.executable, "benchmarks/bpe_peers.py", "naive", str(corpus), str(args.naive_merges)])

    print("\n| mode | merges | tokviz wall s | tokviz cpu s | tokviz peak MB | peer | peer wall s | peer cpu s "
          "| peer peak MB | wall ratio | cpu ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n, mode, ours, peer_name, peer in rows:
        print(
            f"| {mode} | {n} | {ours['wall']:.2f} | {ours['cpu']:.2f} | {ours['rss_mb']:.0f} | {peer_name} | "
            f"{peer['wall']:.2f} | {peer['cpu']:.2f} | {peer['rss_mb']:.0f} | {ours['wall'] / peer['wall']:.2f}x | "
            f"{ours['cpu'] / peer['cpu']:.2f}x |"
        )
    spm = naive["seconds_per_merge"]
    print(f"\nnaive recount-everything loop (char mode): {spm:.2f} s per merge "
          f"-> {spm * args.merges / 60:.1f} min for {args.merges} merges (process {naive['wall']:.1f} s for "
          f"{args.naive_merges} merges, {naive['rss_mb']:.0f} MB)")
    worst = max(o["rss_mb"] for _, _, o, _, _ in rows)
    print(f"tokviz peak memory over all runs: {worst:.0f} MB (limit 2048 MB)")
    for n in sizes:
        for mode in ("char", "byte gpt4"):
            ratios = [o["wall"] / p["wall"] for m, md, o, _, p in rows if m == n and md == mode]
            if ratios:
                target = 1.0  # issue 15: at or below the Rust trainers
                geo = math.prod(ratios) ** (1 / len(ratios))
                verdict = "meets" if geo <= target else "MISSES"
                print(f"wall ratio {mode} {n} merges: {', '.join(f'{x:.2f}x' for x in ratios)}; geometric mean "
                      f"{geo:.2f}x ({verdict} the <= {target}x target; wall time is noisy on a shared machine)")


def big_row(nsmc: Path, size_mb: float, merges: int) -> None:
    """Generate the big corpus, train all three trainers on it, print wall time and peak memory."""
    with tempfile.TemporaryDirectory(prefix="tokviz-bench-") as tmp:
        path = Path(tmp) / f"mixed_{size_mb:g}mb.txt"
        t = time.perf_counter()
        size = make_big_corpus(path, nsmc, int(size_mb * 1e6))
        print(f"\nbig corpus: {size / 1e6:.1f} MB generated (seed {BIG_SEED}) in {time.perf_counter() - t:.1f} s; "
              f"load {os.getloadavg()[0]:.2f}", flush=True)
        vocab = hf_vocab_size(path, merges)
        runs = [
            ("char", "tokviz", tokviz_cmd(path, "char", merges)),
            ("char", "HF tokenizers BpeTrainer",
             [sys.executable, "benchmarks/bpe_peers.py", "hf-char", str(path), str(vocab)]),
            ("byte gpt4", "tokviz", tokviz_cmd(path, "byte", merges)),
            ("byte gpt4", "rustbpe", [sys.executable, "benchmarks/bpe_peers.py", "rustbpe", str(path), str(merges)]),
        ]
        results = []
        for mode, who, cmd in runs:
            info = measured(cmd)
            results.append((mode, who, info))
            print(f"  {mode:9s} {who:25s} {info['wall']:7.1f} s wall  {info['cpu']:7.1f} s cpu  "
                  f"{info['rss_mb']:6.0f} MB peak  ({merges_done(info)} merges)", flush=True)
        print("\n| corpus | mode | merges | trainer | wall s | cpu s | peak MB |")
        print("|---|---|---|---|---|---|---|")
        for mode, who, info in results:
            print(f"| {size / 1e6:.0f} MB mixed | {mode} | {merges} | {who} | {info['wall']:.1f} | {info['cpu']:.1f} | "
                  f"{info['rss_mb']:.0f} |")
        for mode in ("char", "byte gpt4"):
            ours, peer = [info for m, _, info in results if m == mode]
            print(f"big {mode}: wall ratio {ours['wall'] / peer['wall']:.2f}x, tokviz peak {ours['rss_mb']:.0f} MB "
                  f"({'under' if ours['rss_mb'] < 4096 else 'OVER'} the 4 GB limit)")


if __name__ == "__main__":
    main()
