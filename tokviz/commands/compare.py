"""``tokviz compare -e NAME ... [--model FILE ...] [--json] [TEXT | -]``: one text through several
encoders, as a table or JSON. Never imports Qt.

An encoder that is unavailable or fails on the text gets an error entry; the others are still
measured, and the exit status is 1 when any encoder failed (2 when nothing could be compared).
"""

from __future__ import annotations

import json
import sys

DEFAULT_ENCODERS = ("gpt2", "cl100k_base", "o200k_base")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "compare",
        help="the same text through several encoders: tokens, chars/token, bytes/token, round trip",
        description="Compare encoders on one text. Without -e: gpt2, cl100k_base, o200k_base and the "
        "built-in SentencePiece models.",
    )
    p.add_argument("-e", "--encoder", action="append", dest="encoders", metavar="NAME", default=None,
                   help="encoder name from `tokviz encoders` (repeat)")
    p.add_argument("--model", action="append", default=[], metavar="FILE",
                   help="model file to compare as well (.model, .tiktoken, tokviz JSON; repeat)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("text", nargs="?", help="the text, or - to read standard input (UTF-8)")
    p.set_defaults(func=run)


def read_text(arg: str | None) -> str:
    from tokviz.core.errors import TokvizError

    if arg is None:
        if sys.stdin is None or sys.stdin.isatty():
            raise TokvizError("give a TEXT to compare, or - to read it from standard input")
        arg = "-"
    if arg != "-":
        return arg
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise TokvizError(f"standard input is not UTF-8 (byte {err.start}: {err.reason})") from None


def default_encoder_names(registry) -> list[str]:
    names = [n for n in DEFAULT_ENCODERS if n in registry]
    names += [s.name for s in registry.statuses() if s.name.startswith("sp:") and s.available]
    return names


def collect_encoders(args, registry) -> tuple[list, list]:
    """(encoders in the order asked, error entries for the ones that could not be loaded)."""
    from tokviz.core.compare import describe_failure
    from tokviz.core.errors import TokvizError

    names = args.encoders if args.encoders else ([] if args.model else default_encoder_names(registry))
    slots: list = []
    for name in names:
        try:
            slots.append(registry.get(name))
        except TokvizError as err:
            slots.append({"encoder": name, "error": str(err)})
    for path in args.model:
        try:
            from tokviz.core.encoders.files import open_model_file

            slots.append(open_model_file(path))
        except ImportError:
            slots.append({"encoder": path, "error": "opening model files is not available in this build"})
        except Exception as err:  # noqa: BLE001 - a bad file is reported in its own row
            slots.append({"encoder": path, "error": describe_failure(err)})
    return slots, []


def run(args) -> int:
    from tokviz.core.compare import compare_text
    from tokviz.core.encoders import default_registry
    from tokviz.core.errors import TokvizError, check_text

    text = read_text(args.text)
    check_text(text)
    slots, _ = collect_encoders(args, default_registry())
    if not slots:
        raise TokvizError("no encoders to compare (use -e NAME or --model FILE)")
    encoders = [s for s in slots if not isinstance(s, dict)]
    outcomes = iter(compare_text(encoders, text))
    entries = [s if isinstance(s, dict) else next(outcomes).as_json() for s in slots]
    if args.json:
        json.dump({"text_characters": len(text), "encoders": entries}, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print_table(text, entries)
    failed = sum(1 for e in entries if "error" in e)
    if failed == len(entries):
        return 2
    return 1 if failed else 0


def print_table(text: str, entries: list[dict]) -> None:
    print(f"{len(text):,} characters, {len(text.encode('utf-8')):,} UTF-8 bytes, {len(text.split()):,} words")
    header = ("encoder", "tokens", "chars/tok", "bytes/tok", "tok/word", "partial", "fallback", "round trip")
    rows = []
    errors = []
    for e in entries:
        if "error" in e:
            rows.append((e["encoder"], "error", "", "", "", "", "", ""))
            errors.append(f"{e['encoder']}: {e['error']}")
            continue
        rows.append((
            e["encoder"], f"{e['tokens']:,}", f"{e['chars_per_token']:.2f}", f"{e['bytes_per_token']:.2f}",
            f"{e['fertility']:.2f}", str(e["partial_tokens"]), str(e["fallback_tokens"]),
            "exact" if e["round_trip"] else "differs",
        ))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    for e in entries:
        for d in e.get("round_trip_differences", [])[:5]:
            print(f"  {e['encoder']} round trip: {d}")
    for msg in errors:
        print(f"  error: {msg}")
