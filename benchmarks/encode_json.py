"""``tokviz encode`` on 1 MB of Korean: plain output against ``--json`` (and ``--ndjson``).

Each run is a fresh ``python -m tokviz encode -e ENCODER -`` process reading the text from standard input and
writing to a file; the script prints its wall time, the ratio to plain, peak RSS (the child's own, from
wait4) and the output size.

    python benchmarks/encode_json.py [--corpus FILE] [--megabytes 1] [--encoder cl100k_base] [--repeat 2]

The corpus is the first MB of ``--corpus`` (cut at a line end), default: NSMC reviews from the shared
corpora when present, else generated Korean sentences with emoji.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the shared corpora sit beside the checkout (or two levels up, from a worktree)
_SHARED = [p / "shared" / "corpora" / "nsmc_train_20k.txt" for p in (Path(__file__).resolve().parents[1].parent,
                                                                  Path(__file__).resolve().parents[1].parent.parent)]
DEFAULT_CORPUS = next((p for p in _SHARED if p.exists()), _SHARED[0])


def korean_text(megabytes: float, corpus: Path | None) -> bytes:
    size = int(megabytes * 1_000_000)
    if corpus is not None and corpus.is_file():
        data = corpus.read_bytes()[:size]
        return data[: data.rfind(b"\n") + 1]
    rng = random.Random(0)
    words = ["안녕하세요", "오늘", "날씨가", "정말", "좋네요", "영화", "재미있었어요", "👋", "🙂", "ㅋㅋㅋ",
             "감사합니다", "드라마", "배우", "연기가", "최고", "!", "?", "1234", "tokenizer", "😀👍🏽"]
    out: list[str] = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(3, 15))) + "\n"
        out.append(line)
        total += len(line.encode())
    return "".join(out).encode()[:size].decode("utf-8", "ignore").encode()


def run(args: list[str], text: Path, out: Path) -> tuple[float, int]:
    """(wall seconds, peak RSS in MB) of one tokviz process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), NO_COLOR="1")
    with text.open("rb") as stdin, out.open("wb") as stdout:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "tokviz", "encode", *args, "-"], stdin=stdin, stdout=stdout,
                                env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"tokviz encode {' '.join(args)} failed with {proc.returncode}")
    return wall, usage.ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--megabytes", type=float, default=1.0)
    parser.add_argument("--encoder", default="cl100k_base")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each mode; the fastest counts")
    opts = parser.parse_args()
    data = korean_text(opts.megabytes, opts.corpus)
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp, "text.txt")
        text.write_bytes(data)
        print(f"{len(data):,} bytes, {len(data.decode()):,} characters, encoder {opts.encoder}")
        modes = {"plain": [], "json": ["--json"], "ndjson": ["--ndjson"]}
        results = {}
        for name, flags in modes.items():
            out = Path(tmp, f"{name}.out")
            try:
                best = min((run(["-e", opts.encoder, *flags], text, out) for _ in range(opts.repeat)),
                           key=lambda r: r[0])
            except SystemExit as err:
                print(f"{name:7} {err}")
                continue
            results[name] = (*best, out.stat().st_size)
        plain = results["plain"][0]
        for name, (wall, rss, size) in results.items():
            print(f"{name:7} {wall:6.2f} s  {wall / plain:5.2f}x plain  peak RSS {rss:5d} MB  output {size:,} bytes")


if __name__ == "__main__":
    main()
