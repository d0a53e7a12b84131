"""``tokviz vocab merges|tree|unreachable|use|diff|maps``: production vocabularies laid open.

- ``merges``       the merges recovered from a rank vocabulary; ``--export tokviz OUT`` writes a tokviz
                   BPE model that encodes exactly like it (and so takes ``tokviz encode --dropout``)
- ``tree``         the merge tree of a token found by text, hex bytes or id
- ``unreachable``  tokens whose own text, encoded alone, is not that token (``--json``)
- ``use``          which tokens a corpus never uses, uses once, and how much of a script it uses
- ``diff``         two vocabularies: shared, only in one, same id, renumbered, per-script census
- ``maps``         how numbers 0–9999 and runs of spaces/tabs split (table, ``--csv OUT``, ``--json``)

Never imports Qt. Encoders are named as in ``tokviz encode`` (``-e NAME`` or ``--model FILE``).
"""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace


def _which(p, *, many: bool = False) -> None:
    if many:
        p.add_argument("-e", "--encoder", metavar="NAME", action="append", required=True,
                       help="encoder name from `tokviz encoders` (give it once per encoder)")
        return
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("-e", "--encoder", metavar="NAME", help="encoder name from `tokviz encoders`")
    group.add_argument("--model", metavar="FILE", help="model file, as in `tokviz encode --model`")
    p.add_argument("--pattern", metavar="NAME", help="pre-split pattern for --model files that need one")


def add_parser(sub) -> None:
    top = sub.add_parser("vocab", help="look inside a vocabulary: recovered merges, merge trees, unreachable "
                         "tokens, corpus use, diffs, number and indentation maps",
                         description="Look inside a production vocabulary (cl100k_base, o200k_base, Llama, Qwen, "
                         "tekken, ...).")
    vs = top.add_subparsers(dest="vocab_command", metavar="WHAT", required=True)

    p = vs.add_parser("merges", help="the merges recovered from a rank vocabulary; --export tokviz OUT")
    _which(p)
    p.add_argument("--json", action="store_true", help="print JSON: merges, tokens no merge builds")
    p.add_argument("--limit", type=int, metavar="N", help="list only the first N merges")
    p.add_argument("--export", nargs=2, metavar=("FORMAT", "OUT"),
                   help="write a model that encodes exactly like the encoder (FORMAT: tokviz)")
    p.set_defaults(func=run_merges)

    p = vs.add_parser("tree", help="the merge tree of a token (by text, hex bytes like 'EA B2 83', or #id)")
    _which(p)
    p.add_argument("query", metavar="TOKEN", help="the token's text, its bytes in hex, or #id")
    p.add_argument("--json", action="store_true", help="print the tree as JSON")
    p.set_defaults(func=run_tree)

    p = vs.add_parser("unreachable", help="tokens whose own text, encoded alone, does not give that token")
    _which(p)
    p.add_argument("--json", action="store_true", help='print JSON: {"unreachable": [ids], ...}')
    p.set_defaults(func=run_unreachable)

    p = vs.add_parser("use", help="which tokens a corpus never uses or uses once, and how much of a script")
    _which(p)
    p.add_argument("corpus", nargs="+", metavar="FILE", help="UTF-8 corpus file, one text per line")
    p.add_argument("--script", default="hangul", metavar="NAME",
                   help="script whose share of the vocabulary to report (default: hangul)")
    p.add_argument("--json", action="store_true", help="print JSON with the id lists")
    p.set_defaults(func=run_use)

    p = vs.add_parser("diff", help="two vocabularies: shared, only in one, renumbered, per-script census")
    _which(p, many=True)
    p.add_argument("--json", action="store_true", help="print JSON with the token lists behind each number")
    p.set_defaults(func=run_diff)

    p = vs.add_parser("maps", help="how numbers 0-9999 and runs of 1-16 spaces/tabs split")
    _which(p, many=True)
    p.add_argument("--kind", choices=("numbers", "indentation"), default="numbers", help="which map (default numbers)")
    p.add_argument("--upto", type=int, default=10_000, metavar="N", help="numbers 0..N-1 (default 10000)")
    p.add_argument("--csv", metavar="OUT", help="write the rows of every encoder to a CSV file")
    p.add_argument("--json", action="store_true", help="print JSON rows")
    p.set_defaults(func=run_maps)


# ---- shared --------------------------------------------------------------------------------------
def _encoder(args, name: str | None = None):
    from tokviz.commands.encode import load_encoder

    if name is not None:
        return load_encoder(SimpleNamespace(encoder=name, model=None, pattern=None))
    return load_encoder(args)


def _utf8_stdout() -> bool:
    enc = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return enc in ("utf8", "utf8sig")


def _print_json(doc) -> int:
    json.dump(doc, sys.stdout, ensure_ascii=not _utf8_stdout(), indent=1)
    sys.stdout.write("\n")
    sys.stdout.flush()
    return 0


def _print_text(text: str) -> int:
    """Korean and emoji as they are on a UTF-8 terminal, as escapes on any other (never an error)."""
    codec = getattr(sys.stdout, "encoding", None) or "utf-8"
    sys.stdout.write(text.encode(codec, "backslashreplace").decode(codec, "replace"))
    sys.stdout.flush()
    return 0


class _Progress:
    """Progress on standard error, only on a terminal (pipes and tests stay clean)."""

    def __init__(self, what: str):
        self.what = what
        self.tty = bool(getattr(sys.stderr, "isatty", lambda: False)())

    def is_cancelled(self) -> bool:
        return False

    def progress(self, done: int, total: int) -> None:
        if self.tty and total:
            end = "\n" if done >= total else ""
            sys.stderr.write(f"\r{self.what}: {done:,}/{total:,}{end}")


def _show(data: bytes) -> str:
    from tokviz.core.display import visible_piece

    return visible_piece(data.decode("utf-8", "backslashreplace"))


# ---- merges and trees ----------------------------------------------------------------------------
def run_merges(args) -> int:
    from tokviz.core.errors import TokvizError
    from tokviz.core.vocab.encoder_merges import recover_merges

    if args.limit is not None and args.limit < 0:
        raise TokvizError(f"--limit is a number of merges, not {args.limit}")
    if args.export is not None and args.export[0] != "tokviz":
        raise TokvizError(f"--export writes the tokviz format only, not {args.export[0]!r}: --export tokviz OUT")
    encoder = _encoder(args)
    if args.export is not None:
        from tokviz.core.vocab.export import exportable_pattern

        exportable_pattern(encoder)  # refuse before seconds of recovery
    rec = recover_merges(encoder, _Progress("recovering merges"))
    if args.export is not None:
        from tokviz.core.bpe.formats import save_model
        from tokviz.core.vocab.export import export_bpe_model

        written = save_model(export_bpe_model(encoder, rec), args.export[1], "tokviz")
        print(f"tokviz: wrote {written[0]} ({len(rec.merges) + len(rec.unbuilt):,} merges)", file=sys.stderr)
    if args.json:
        return _print_json(rec.as_json(limit=args.limit))
    tb = rec.token_bytes
    how = "read from the file" if rec.merge_rank else "recovered from the ranks"
    lines = [f"{encoder.name}: {len(rec.merges):,} merges {how}; {len(rec.unbuilt):,} tokens no merge of two "
             "tokens builds"]
    shown = rec.merges if args.limit is None else rec.merges[:args.limit]
    if args.export is None or args.limit is not None:
        lines += [f"{t:>7}  {_show(tb[a])} + {_show(tb[b])} → {_show(tb[t])}" for a, b, t in shown]
    if rec.unbuilt:
        lines.append("not reachable by merges (merges stop at the parts shown):")
        lines += [f"{t:>7}  {_show(tb[t])}  stops at " + " + ".join(_show(tb[p]) for p in rec.unbuilt_parts[t])
                  for t in rec.unbuilt[: args.limit if args.limit is not None else None]]
    return _print_text("\n".join(lines) + "\n")


def run_tree(args) -> int:
    from tokviz.core.errors import TokvizError
    from tokviz.core.vocab.encoder_merges import token_merges
    from tokviz.core.vocab.merges import find_tokens, merge_tree

    encoder = _encoder(args)
    merges = token_merges(encoder)
    found = find_tokens(merges, args.query)
    if not found:
        raise TokvizError(f"{encoder.name} has no token matching {args.query!r} (give its text, hex bytes such as "
                          "'EA B2 83', or #id)")
    tree = merge_tree(merges, found[0])
    if args.json:
        return _print_json({"encoder": encoder.name, "query": args.query, "matches": found, "tree": tree.as_json()})
    out = "\n".join(tree.lines())
    if len(found) > 1:
        out += "\nother matches: " + ", ".join(f"#{t} {_show(merges.token_bytes[t])}" for t in found[1:10])
    return _print_text(out + "\n")


# ---- reachability and use ------------------------------------------------------------------------
def run_unreachable(args) -> int:
    from tokviz.core.vocab.reach import reachability

    encoder = _encoder(args)
    r = reachability(encoder, _Progress("checking tokens"))
    if args.json:
        return _print_json(r.as_json())
    lines = [f"{encoder.name}: {len(r.unreachable):,} of {r.checked:,} tokens are unreachable alone; "
             f"{len(r.partial_utf8):,} are not valid UTF-8"
             + ("" if r.partial_never is None else f" ({len(r.partial_never):,} of them built by no merge)")]
    for t in r.unreachable:
        got = " ".join(_show(encoder.token_bytes(i)) for i in r.encodes_as[t])
        lines.append(f"{t:>7}  {_show(encoder.token_bytes(t))}  encodes as  {got}")
    return _print_text("\n".join(lines) + "\n")


def run_use(args) -> int:
    from tokviz.core.compare.corpus import corpus_set
    from tokviz.core.errors import TokvizError
    from tokviz.core.vocab.reach import corpus_use
    from tokviz.core.vocab.scripts import SCRIPTS

    if args.script not in SCRIPTS:
        raise TokvizError(f"unknown script {args.script!r}: use one of {', '.join(SCRIPTS)}")
    texts = [t for path in args.corpus for t in corpus_set(path).texts]  # bad files fail before the encoder loads
    encoder = _encoder(args)
    use = corpus_use(encoder, texts)
    never, once = use.never_used(), use.used_once()
    used, of = use.script_share(encoder, args.script)
    if args.json:
        return _print_json({"encoder": encoder.name, "texts": use.texts, "tokens": use.tokens,
                            "vocabulary": len(use.ordinary), "never_used": never, "used_once": once,
                            "script": args.script, "script_used": used, "script_tokens": of})
    return _print_text(
        f"{encoder.name}: {use.texts:,} texts, {use.tokens:,} tokens; of {len(use.ordinary):,} tokens "
        f"{len(never):,} never used, {len(once):,} used once; {args.script}: {used:,} of {of:,} used\n")


# ---- diffs and maps ------------------------------------------------------------------------------
def run_diff(args) -> int:
    from tokviz.core.errors import TokvizError
    from tokviz.core.vocab.diff import vocab_diff

    if len(args.encoder) != 2:
        raise TokvizError(f"vocab diff compares two encoders: give -e A -e B (got {len(args.encoder)})")
    a, b = (_encoder(args, name) for name in args.encoder)
    d = vocab_diff(a, b)
    if args.json:
        return _print_json(d.as_json())
    c = d.counts()
    lines = [f"{a.name}: {c['first_size']:,} tokens · {b.name}: {c['second_size']:,} tokens",
             f"shared {c['shared']:,} (same id {c['same_id']:,}, renumbered {c['renumbered']:,}) · only in "
             f"{a.name} {c['only_first']:,} · only in {b.name} {c['only_second']:,}",
             f"special tokens: shared {c['specials_shared']}, only in {a.name} {c['specials_only_first']}, "
             f"only in {b.name} {c['specials_only_second']}", "census:"]
    for name, counts in d.census().items():
        lines.append(f"  {name}: " + " · ".join(f"{k} {v:,}" for k, v in counts.items()))
    return _print_text("\n".join(lines) + "\n")


def run_maps(args) -> int:
    from tokviz.core.display import visible_piece
    from tokviz.core.vocab.maps import indentation_map, number_map

    encoders = [_encoder(args, name) for name in args.encoder]
    if args.kind == "numbers":
        maps = [number_map(e, args.upto) for e in encoders]
    else:
        maps = [indentation_map(e) for e in encoders]
    if args.csv:
        from tokviz.core.atomic import write_atomic

        # one header: each map's CSV starts with the same one
        body = "".join(m.csv() if i == 0 else m.csv().split("\n", 1)[1] for i, m in enumerate(maps))
        write_atomic(args.csv, body)  # a WriteError names the file and what went wrong
        print(f"tokviz: wrote {args.csv}", file=sys.stderr)
    if args.json:
        return _print_json([{"encoder": m.encoder, "kind": m.kind, "histogram": m.histogram(),
                             "rows": [{"label": r.label, "tokens": r.tokens, "cuts": list(r.cuts),
                                       "pieces": list(r.pieces), "ids": list(r.ids)} for r in m.rows]}
                            for m in maps])
    lines = []
    for m in maps:
        lines.append(f"{m.encoder} ({m.kind}): " + " · ".join(f"{k} token{'s' if k > 1 else ''}: {v:,}"
                                                               for k, v in m.histogram().items()))
        rows = m.rows if m.kind == "indentation" else [r for r in m.rows if int(r.label) in _SHOWN_NUMBERS]
        lines += [f"  {r.label:>16}  {' | '.join(visible_piece(p) for p in r.pieces)}" for r in rows]
    return _print_text("\n".join(lines) + "\n")


_SHOWN_NUMBERS = frozenset({0, 7, 42, 100, 999, 1000, 1234, 2024, 9999, 12345, 99999})
