"""``tokviz compare -e NAME ... [--model FILE ...] [--json] [TEXT | -]``: one text through several
encoders, as a table or JSON. Never imports Qt.

An encoder that is unavailable or fails on the text gets an error entry; the others are still
measured. Exit status (EXIT_STATUS, also in --help): 0 every encoder measured; 1 at least one encoder
(an unknown name, a bad model file, a failure on the text) has an error entry instead; 2 nothing was
compared because the command itself was wrong (bad arguments, text not UTF-8, a lone surrogate, no
encoders at all).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

DEFAULT_ENCODERS = ("gpt2", "cl100k_base", "o200k_base")
# one rule for every kind of encoder failure, so a script can tell "some encoder failed" from "wrong command"
EXIT_STATUS = ("exit status: 0 every encoder was measured; 1 at least one encoder (unknown name, bad model "
               "file, failure on the text) has an error entry, the others are still measured; 2 nothing was "
               "compared: bad arguments, text that is not UTF-8 or holds a lone surrogate, or no encoders")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "compare",
        help="the same text through several encoders: tokens, chars/token, bytes/token, round trip",
        description="Compare encoders on one text. Without -e: gpt2, cl100k_base, o200k_base and the "
        "built-in SentencePiece models.",
        epilog=EXIT_STATUS,
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
    from tokviz.core.errors import EncoderUnavailable, ModelFileError, TokvizError

    names = args.encoders if args.encoders else ([] if args.model else default_encoder_names(registry))
    slots: list = []
    for name in names:
        try:
            slots.append(registry.get(name))
        except EncoderUnavailable as err:  # the entry is named already: the reason alone
            slots.append({"encoder": name, "error": err.reason if err.name == name else str(err)})
        except TokvizError as err:
            slots.append({"encoder": name, "error": str(err)})
    for path in args.model:
        try:
            from tokviz.core.encoders.builtin import open_model_file

            slots.append(open_model_file(path))
        except ImportError:
            slots.append({"encoder": path, "error": "opening model files is not available in this build"})
        except ModelFileError as err:  # the entry is named by the path: say the path once
            same = Path(err.path) == Path(path)
            slots.append({"encoder": path, "error": err.problem if same else str(err)})
        except Exception as err:  # noqa: BLE001 - a bad file is reported in its own row
            slots.append({"encoder": path, "error": describe_failure(err)})
    return slots, []


def run(args) -> int:
    from tokviz.core.compare import compare_text
    from tokviz.core.encoders.builtin import default_registry
    from tokviz.core.encoders.native import call_interruptibly
    from tokviz.core.errors import TokvizError, check_text

    text = read_text(args.text)
    check_text(text)
    slots, _ = call_interruptibly(lambda: collect_encoders(args, default_registry()))
    if not slots:
        raise TokvizError("no encoders to compare (use -e NAME or --model FILE)")
    encoders = [s for s in slots if not isinstance(s, dict)]
    # in a helper thread: Ctrl-C works while an encoder's native code is busy on a slow regex
    outcomes = iter(call_interruptibly(lambda: compare_text(encoders, text)))
    entries = [s if isinstance(s, dict) else next(outcomes).as_json() for s in slots]
    if args.json:
        json.dump({"text_characters": len(text), "encoders": entries}, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        print_table(text, entries)
    return 1 if any("error" in e for e in entries) else 0


def print_table(text: str, entries: list[dict]) -> None:
    from tokviz.core.words import count_words  # the words every fertility counts (eojeol, CJK characters)

    print(f"{len(text):,} characters, {len(text.encode('utf-8')):,} UTF-8 bytes, {count_words(text):,} words")
    header = ("encoder", "tokens", "chars/tok", "bytes/tok", "tok/word", "continued", "partial", "fallback",
              "round trip")
    rows = []
    errors = []
    for e in entries:
        if "error" in e:
            rows.append((e["encoder"], "error", "", "", "", "", "", "", ""))
            errors.append(f"{e['encoder']}: {e['error']}")
            continue
        rows.append((
            e["encoder"], f"{e['tokens']:,}", f"{e['chars_per_token']:.2f}", f"{e['bytes_per_token']:.2f}",
            f"{e['fertility']:.2f}", f"{e['continued_share']:.1%}", str(e["partial_tokens"]), str(e["fallback_tokens"]),
            "exact" if e["round_trip"] else "differs",
        ))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        cells = (c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        print("  ".join(cells).rstrip())
    for e in entries:
        for d in e.get("round_trip_differences", [])[:5]:
            print(f"  {e['encoder']} round trip: {d}")
    for msg in errors:
        print(f"  error: {msg}")
