"""``tokviz encoders [--json]``: every encoder, available or not, with the reason."""

from __future__ import annotations

import json
import sys


def add_parser(sub) -> None:
    p = sub.add_parser("encoders", help="list encoders and whether their data is available offline")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=run)


def run(args) -> int:
    from tokviz.core.encoders.builtin import default_registry

    statuses = default_registry().statuses()
    if args.json:
        json.dump([s.as_json() for s in statuses], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    width = max(len(s.name) for s in statuses)
    for s in statuses:
        mark = "✓" if s.available else "✗"
        vocab = f"{s.vocab_size:>7,}" if s.vocab_size else " " * 7
        print(f"{mark} {s.name:<{width}}  {s.family:<13} {vocab}  {s.reason}")
    return 0
