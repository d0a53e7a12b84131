"""``tokviz sweep CORPUS --heldout FILE [--algorithm bpe|wordpiece|unigram] [--mode char|byte]
(--merges N1,N2,... | --vocab-sizes V1,V2,...) [-e NAME ...] [--model FILE ...] [--json] [--csv OUT]``.

Trains on CORPUS and measures the held-out text at every size (tokens, chars/token, fertility,
continued words, Rényi efficiency, the share of the vocabulary it never uses), with production
encoders as extra points on the same axes. A progress line on stderr; Ctrl-C stops. Never imports Qt.
"""

from __future__ import annotations

import json


def _sizes(value: str) -> list[int]:
    import argparse

    try:
        sizes = [int(part.replace("_", "")) for part in value.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r}: give whole numbers separated by commas, e.g. 1000,4000,16000") from None
    if not sizes or any(n < 0 for n in sizes):
        raise argparse.ArgumentTypeError(f"{value!r}: give whole numbers 0 or more, separated by commas")
    return sizes


def add_parser(sub) -> None:
    from tokviz.core.pretokenize import PATTERNS

    p = sub.add_parser(
        "sweep",
        help="vocabulary-size sweep: train once, measure a held-out text at every size, beside production encoders",
        description="Train a tokenizer on CORPUS and measure the held-out text at several sizes. BPE's merges are "
        "a prefix of a longer run's and WordPiece's vocabulary of a larger one's, so one run gives every size; "
        "Unigram trains once per size. Production encoders (-e, --model; default gpt2, cl100k_base, o200k_base) "
        "are measured on the same held-out text.",
    )
    p.add_argument("corpus", metavar="CORPUS", help="UTF-8 training text")
    p.add_argument("--heldout", required=True, metavar="FILE", help="UTF-8 text to measure (not in the corpus)")
    p.add_argument("--algorithm", choices=["bpe", "wordpiece", "unigram"], default="bpe")
    p.add_argument("--mode", choices=["char", "byte"], default="byte", help="BPE: char or byte (default)")
    p.add_argument("--pattern", choices=list(PATTERNS), default="gpt4", help="BPE byte mode pre-split (default gpt4)")
    p.add_argument("--min-frequency", type=int, default=2, metavar="K",
                   help="BPE: stop when the best pair occurs fewer than K times (default 2)")
    sizes = p.add_mutually_exclusive_group(required=True)
    sizes.add_argument("--merges", type=_sizes, metavar="N1,N2,...", help="BPE: merge counts to measure")
    sizes.add_argument("--vocab-sizes", type=_sizes, metavar="V1,V2,...",
                       help="vocabulary sizes to measure (BPE byte mode: 256 + merges)")
    p.add_argument("-e", "--encoder", action="append", dest="encoders", metavar="NAME", default=None,
                   help="production encoder to add as a point (repeat)")
    p.add_argument("--model", action="append", default=[], metavar="FILE", help="model file to add as a point")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--csv", metavar="OUT", default=None, help="also write one row per point to OUT")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=run)


def run(args) -> int:
    from tokviz.commands.compare import DEFAULT_ENCODERS, collect_encoders
    from tokviz.commands.terminal import TerminalProgress, write_out
    from tokviz.core.encoders.builtin import default_registry
    from tokviz.core.sweep import check_readable, check_sizes, run_sweep

    # every request error before loading encoders or training
    check_sizes(args.algorithm, args.mode, args.merges, args.vocab_sizes)
    check_readable(args.corpus)
    check_readable(args.heldout)
    if args.csv is not None:
        from tokviz.core.atomic import check_target

        check_target(args.csv)
    registry = default_registry()
    if not args.encoders and not args.model:
        args.encoders = [n for n in DEFAULT_ENCODERS if n in registry]
    slots, _ = collect_encoders(args, registry)
    progress = TerminalProgress(not args.quiet)
    try:
        result = run_sweep(args.corpus, args.heldout, algorithm=args.algorithm, mode=args.mode, merges=args.merges,
                           vocab_sizes=args.vocab_sizes, encoders=[s for s in slots if not isinstance(s, dict)],
                           state=progress, pattern=args.pattern, min_frequency=args.min_frequency)
    finally:
        progress.done()
    doc = result.as_json()
    doc["encoders"] += [{"label": s["encoder"], "error": s["error"]} for s in slots if isinstance(s, dict)]
    if args.csv is not None:
        from tokviz.core.atomic import write_atomic
        from tokviz.core.token_stats import rows_csv

        failed = [{"kind": "encoder", "label": s["encoder"], "error": s["error"]} for s in slots if isinstance(s, dict)]
        rows = result.rows() + failed
        keys = list(dict.fromkeys(k for row in rows for k in row))
        write_atomic(args.csv, rows_csv([{k: row.get(k, "") for k in keys} for row in rows]))
    if args.json:
        write_out(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    else:
        write_out(sweep_table(doc))
    return 1 if any("error" in p for p in doc["points"] + doc["encoders"]) else 0


def sweep_table(doc: dict) -> str:
    """One row per point: trained sizes first, then the production encoders."""
    header = ("model", "vocab", "tokens", "chars/tok", "fertility", "continued", "rényi", "unused")
    rows = []
    for kind, points in (("trained", doc["points"]), ("encoder", doc["encoders"])):
        for p in points:
            name = f"{doc['algorithm']} {p['label']}" if kind == "trained" else p["label"]
            if "error" in p:
                rows.append((name, f"{p.get('vocab_size', 0):,}", "error", "", "", "", "", ""))
                continue
            rows.append((name, f"{p['vocab_size']:,}", f"{p['tokens']:,}", f"{p['chars_per_token']:.3f}",
                         f"{p['fertility']:.3f}", f"{p['continued_share']:.1%}", f"{p['renyi_efficiency']:.3f}",
                         f"{p['unused_share']:.1%}"))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             for r in [header, *rows]]
    if doc.get("stopped_early"):
        lines.append(f"training stopped before the largest size: {doc['stopped_early']}")
    for p in doc["points"] + doc["encoders"]:
        if "error" in p:
            lines.append(f"  error: {p['label']}: {p['error']}")
    return "\n".join(line.rstrip() for line in lines) + "\n"
