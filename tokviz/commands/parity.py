"""``tokviz parity [-e NAME ...] [--model FILE ...] [--corpus DIR] [--reference LANG] [--json] [--csv OUT]``.

What the same sentences cost in tokens in each language: a folder of ``LANG.txt`` files whose lines
are translations of each other (default: tokviz's own parallel sample sentences) through several
encoders; the premium of a language is its tokens over the reference language's. Never imports Qt.

Exit status as ``tokviz compare``: 0 every encoder measured; 1 some encoder has an error entry
instead; 2 nothing measured (bad arguments or corpus).
"""

from __future__ import annotations

import json

EXIT_STATUS = ("exit status: 0 every encoder was measured; 1 at least one encoder (unknown name, bad model file, "
               "failure on a line) has an error entry, the others are still measured; 2 nothing was measured: bad "
               "arguments or a bad corpus folder")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "parity",
        help="cross-lingual parity: tokens and premium per language of a parallel corpus, per encoder",
        description="Encode the same sentences in many languages and compare their token counts: the premium "
        "of a language is its tokens over the reference language's (1.0 = same cost). Without --corpus: "
        "tokviz's 10 parallel sentences in 12 languages. Without -e: gpt2, cl100k_base, o200k_base and the "
        "built-in SentencePiece models.",
        epilog=EXIT_STATUS,
    )
    p.add_argument("-e", "--encoder", action="append", dest="encoders", metavar="NAME", default=None,
                   help="encoder name from `tokviz encoders` (repeat)")
    p.add_argument("--model", action="append", default=[], metavar="FILE",
                   help="model file to measure as well (repeat)")
    p.add_argument("--corpus", metavar="DIR", default=None,
                   help="folder of LANG.txt files, line N of each the same sentence (default: tokviz's samples)")
    p.add_argument("--reference", metavar="LANG", default=None, help="reference language (default: en)")
    p.add_argument("--json", action="store_true", help="print JSON (per language and per line)")
    p.add_argument("--csv", metavar="OUT", default=None, help="also write one row per encoder and language to OUT")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=run)


def run(args) -> int:
    from tokviz.commands.compare import collect_encoders
    from tokviz.commands.terminal import TerminalProgress, write_out
    from tokviz.core.encoders.builtin import default_registry
    from tokviz.core.errors import TokvizError
    from tokviz.core.parity import measure_parity, read_parallel_corpus

    corpus = read_parallel_corpus(args.corpus)  # before loading encoders: a bad folder fails fast
    if args.reference is not None and args.reference not in corpus.languages:
        raise TokvizError(f"no {args.reference}.txt in {corpus.folder} for --reference "
                          f"(languages: {', '.join(corpus.languages)})")
    if args.csv is not None:
        from tokviz.core.atomic import check_target

        check_target(args.csv)
    slots, _ = collect_encoders(args, default_registry())
    if not slots:
        raise TokvizError("no encoders to measure (use -e NAME or --model FILE)")
    encoders = [s for s in slots if not isinstance(s, dict)]
    progress = TerminalProgress(not args.quiet, " bytes")
    try:
        result = measure_parity(encoders, corpus, progress, reference=args.reference, per_line=args.json)
    finally:
        progress.done()
    doc = result.as_json()
    order = [s["encoder"] if isinstance(s, dict) else s.name for s in slots]
    doc["encoders"] = {name: doc["encoders"].get(name) or _error_of(slots, name) for name in order}
    if args.csv is not None:
        from tokviz.core.atomic import write_atomic
        from tokviz.core.token_stats import rows_csv

        write_atomic(args.csv, rows_csv(result.rows()))
    if args.json:
        write_out(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    else:
        write_out(premium_table(doc))
    return 1 if any("error" in entry for entry in doc["encoders"].values()) else 0


def _error_of(slots, name: str) -> dict:
    return next({"error": s["error"]} for s in slots if isinstance(s, dict) and s["encoder"] == name)


def premium_table(doc: dict) -> str:
    """Languages down, encoders across: the premium, then the tokens in brackets."""
    ok = {name: e for name, e in doc["encoders"].items() if "error" not in e}
    header = ["language", *ok, ""]
    rows = []
    for lang in doc["languages"]:
        cells = [lang + (" (reference)" if lang == doc["reference"] else "")]
        for entry in ok.values():
            m = entry[lang]
            premium = "-" if m["premium"] is None else f"{m['premium']:.2f}"
            cells.append(f"{premium} ({m['tokens']:,})")
        cells.append(doc["language_names"].get(lang, ""))  # last: double-width letters shift nothing after them
        rows.append(cells)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [f"{doc['lines']:,} parallel lines in {len(doc['languages'])} languages; premium = tokens / tokens of "
             f"{doc['reference']} (tokens in brackets)"]
    for r in [header, *rows]:
        cells = (c.ljust(w) if i == 0 or i == len(r) - 1 else c.rjust(w)
                 for i, (c, w) in enumerate(zip(r, widths, strict=True)))
        lines.append("  ".join(cells))
    for name, entry in doc["encoders"].items():
        if "error" in entry:
            lines.append(f"  error: {name}: {entry['error']}")
    return "\n".join(line.rstrip() for line in lines) + "\n"
