"""``tokviz cut (-e NAME | --model FILE) --tokens N [--json] TEXT``: keep the first N tokens and say what
the cut splits (a character, a grapheme, a word) and where the nearest safe cut is. Never imports Qt.
"""

from __future__ import annotations


def add_parser(sub) -> None:
    from tokviz.commands.encoder_choice import add_encoder_options

    p = sub.add_parser(
        "cut", help="truncate a text at N tokens and show whether the cut splits a character, grapheme or word",
        description="Encode TEXT and keep its first N tokens: what they print (incomplete bytes at the end left "
        "out), whether the cut splits a character, a grapheme (emoji, flag, jamo) or a word, and the nearest cut "
        "at or before N that splits no grapheme.")
    add_encoder_options(p)
    p.add_argument("--tokens", type=int, required=True, metavar="N", help="tokens to keep")
    p.add_argument("--json", action="store_true",
                   help='print JSON: {"kept_text", "splits_character", "splits_grapheme", "splits_word", '
                   '"safe_tokens", ...}')
    p.add_argument("text", nargs="?", metavar="TEXT", help="the text, or - for standard input")
    p.set_defaults(func=run)


def run(args) -> int:
    from tokviz.commands.encode import load_encoder, read_text
    from tokviz.commands.output import print_json, print_text
    from tokviz.core.boundaries.cut import budget_cut
    from tokviz.core.display import visible_piece
    from tokviz.core.errors import TokvizError

    if args.tokens < 0:
        raise TokvizError(f"--tokens is a number of tokens to keep, 0 or more, not {args.tokens}")
    text = read_text(args.text)
    encoder = load_encoder(args)
    cut = budget_cut(encoder, text, args.tokens)
    if args.json:
        print_json(cut.as_json())
        return 0
    splits = [what for what, yes in (("a character", cut.splits_character), ("a grapheme", cut.splits_grapheme),
                                     ("a word", cut.splits_word)) if yes]
    lines = [f"{encoder.name} · {min(cut.tokens, cut.total)} of {cut.total} tokens · cut at byte {cut.byte_end}",
             f"kept: {visible_piece(cut.kept_text)}" + (f"  (+ {cut.dropped_bytes.hex(' ')} left out)"
                                                         if cut.dropped_bytes else ""),
             "splits " + ", ".join(splits) + (f" ({visible_piece(cut.grapheme)})" if cut.grapheme else "")
             if splits else "splits nothing",
             f"nearest safe cut: {cut.safe_tokens} tokens, {visible_piece(cut.safe_text)}"]
    print_text("\n".join(lines) + "\n")
    return 0
