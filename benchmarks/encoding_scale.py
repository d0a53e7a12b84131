"""Encode a large mixed Korean/English/emoji paste: time and memory of the Encoding and its metrics.

    python benchmarks/encoding_scale.py [--mb 5] [--encoder cl100k_base | sp:demo_unigram]

The paste is resources/corpora/demo.txt (Korean and English lines) repeated, with an emoji line
(ZWJ families, skin tones, flags, keycaps, VS16) after every tenth line, up to ``--mb`` megabytes.
Prints one JSON object:

- ``tiktoken_encode_s``: tiktoken's own ``encode_ordinary`` of the same text, the floor every
  tiktoken-backed encode pays and the baseline of the ratios (``sentencepiece_encode_s``, the
  processor's own ``encode``, for a SentencePiece model);
- ``encode_s`` / ``encode_over_tiktoken``: tokviz's encode (the library plus building the Encoding);
- ``measure_s`` / ``encode_measure_over_tiktoken``: ``measure()`` on it, and both together;
- ``held_mb`` / ``held_bytes_per_token``: what the Encoding keeps (tracemalloc: Python objects and
  numpy arrays; tiktoken's Rust-side scratch memory is not traced);
- ``peak_mb``: the traced peak during encode + measure, above what was allocated before;
- ``iterate_s``: making every Token object once (what a view that walks all tokens pays).

Times are the best of five runs (three for measure) in this process; compare ratios, not seconds, across machines.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tracemalloc
from pathlib import Path

# run from a source checkout without installing
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EMOJI_LINE = "👨‍👩‍👧‍👦 가족 사진 📸 👍🏽 좋아요! 🇰🇷🇺🇸 1️⃣ ❤️ 😀😂🤔 done ✅\n"


def build_paste(megabytes: float) -> str:
    """demo.txt's lines repeated, an emoji line after every tenth, cut at a line end near the size."""
    lines = (ROOT / "resources" / "corpora" / "demo.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    target = int(megabytes * 1_000_000)
    out: list[str] = []
    size = 0
    i = 0
    while size < target:
        line = lines[i % len(lines)]
        out.append(line)
        size += len(line.encode("utf-8"))
        i += 1
        if i % 10 == 0:
            out.append(EMOJI_LINE)
            size += len(EMOJI_LINE.encode("utf-8"))
    return "".join(out)


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    """Shortest wall time of ``repeat`` calls, and the last call's result."""
    times, out = [], None
    for _ in range(repeat):
        out = None  # the previous result is freed before the next run, outside the timing
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=5.0, help="size of the paste in megabytes of UTF-8 (default 5)")
    ap.add_argument("--encoder", default="cl100k_base",
                    help="a tiktoken or SentencePiece encoder name from `tokviz encoders` (default cl100k_base)")
    args = ap.parse_args()

    from tokviz.core.encoders.builtin import default_registry
    from tokviz.core.metrics import measure

    text = build_paste(args.mb)
    encoder = default_registry().get(args.encoder)
    if hasattr(encoder, "tiktoken"):
        library, raw_encode = "tiktoken", encoder.tiktoken.encode_ordinary
    else:  # a SentencePiece model: its processor's own encode is the floor
        library, raw_encode = "sentencepiece", encoder.processor.encode
    t_library, ids = best_of(lambda: raw_encode(text), repeat=5)
    n_ids = len(ids)
    del ids
    t_encode, enc = best_of(lambda: encoder.encode(text), repeat=5)
    t_measure, metrics = best_of(lambda: measure(enc))
    t_iterate, _ = best_of(lambda: sum(1 for _ in enc.tokens), repeat=1)
    # (a normalizing SentencePiece model's pieces need not spell the text: only byte-level ones must)
    assert len(enc) == n_ids and (metrics.round_trip or library != "tiktoken")
    enc = metrics = None
    gc.collect()

    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        enc = encoder.encode(text)
        held = tracemalloc.get_traced_memory()[0] - base
        metrics = measure(enc)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()

    print(json.dumps({
        "encoder": args.encoder,
        "bytes": len(text.encode("utf-8")),
        "characters": len(text),
        "tokens": len(enc),
        "partial_tokens": metrics.partial_tokens,
        f"{library}_encode_s": round(t_library, 3),
        "encode_s": round(t_encode, 3),
        f"encode_over_{library}": round(t_encode / t_library, 2),
        "measure_s": round(t_measure, 3),
        f"encode_measure_over_{library}": round((t_encode + t_measure) / t_library, 2),
        "iterate_s": round(t_iterate, 3),
        "held_mb": round(held / 1e6, 1),
        "held_bytes_per_token": round(held / len(enc), 1),
        "peak_mb": round(peak / 1e6, 1),
    }))


if __name__ == "__main__":
    main()
