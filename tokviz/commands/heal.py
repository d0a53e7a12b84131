"""``tokviz heal (-e NAME | --model FILE) [--back K] [--json] TEXT``: token healing of a prompt's end.
Never imports Qt.
"""

from __future__ import annotations


def add_parser(sub) -> None:
    from tokviz.commands.encoder_choice import add_encoder_options

    p = sub.add_parser(
        "heal", help="token healing: back up a prompt's last tokens and list the tokens that may replace them",
        description="Encode TEXT, remove its last token (--back K: K tokens), and show the removed text, how many "
        "vocabulary tokens start with its bytes (with a sample in id order) and the healed prompt's ids.")
    add_encoder_options(p)
    p.add_argument("--back", type=int, default=1, metavar="K", help="tokens to back up (default 1)")
    p.add_argument("--sample", type=int, default=20, metavar="N", help="candidates to list (default 20)")
    p.add_argument("--json", action="store_true",
                   help='print JSON: {"removed_text", "candidates", "sample": [...], "healed_ids", ...}')
    p.add_argument("text", nargs="?", metavar="TEXT", help="the prompt, or - for standard input")
    p.set_defaults(func=run)


def run(args) -> int:
    from tokviz.commands.encode import load_encoder, read_text
    from tokviz.commands.output import print_json, print_text
    from tokviz.core.boundaries.healing import heal
    from tokviz.core.display import visible_piece
    from tokviz.core.errors import TokvizError

    if args.sample < 0:
        raise TokvizError(f"--sample is a number of candidates to list, 0 or more, not {args.sample}")
    text = read_text(args.text)
    encoder = load_encoder(args)
    healed = heal(encoder, text, args.back)
    doc = healed.as_json(encoder, args.sample)
    if args.json:
        print_json(doc)
        return 0
    lines = [f"{encoder.name} · backed up {healed.back} token{'s' if healed.back > 1 else ''}: "
             f"{visible_piece(healed.removed_text)} ({doc['removed_bytes']})",
             f"healed prompt: {visible_piece(text.encode('utf-8')[:healed.kept_byte_end].decode('utf-8', 'replace'))}"
             f"  ids {' '.join(map(str, healed.kept_ids))}",
             f"{healed.candidates:,} tokens start with those bytes" + (":" if doc["sample"] else "")]
    lines += [f"  {c['id']:>7}  {visible_piece(c['text'])}" for c in doc["sample"]]
    if healed.cuts_character:
        lines.append("note: the healed prompt ends inside a character; --back 2 backs up to its start")
    print_text("\n".join(lines) + "\n")
    return 0
