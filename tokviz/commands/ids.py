"""``tokviz ids (-e NAME | --model FILE) [--json] ID...``: are these ids what the encoder writes?

Decodes the ids, re-encodes the text and shows where the two sequences part, with the other ways the
vocabulary spells the differing stretch. Never imports Qt.
"""

from __future__ import annotations


def add_parser(sub) -> None:
    from tokviz.commands.encoder_choice import add_encoder_options

    p = sub.add_parser(
        "ids", help="check whether token ids are canonical (what the encoder gives for their text)",
        description="Decode ID... (space- or comma-separated, or a JSON list), re-encode the text, and show whether "
        "the encoder writes the same ids; when not, where they part and the other segmentations of that stretch.")
    add_encoder_options(p)
    p.add_argument("--json", action="store_true",
                   help='print JSON: {"text", "canonical_ids", "is_canonical", "divergence": {...}}')
    p.add_argument("ids", nargs="+", metavar="ID", help="token ids")
    p.set_defaults(func=run)


def _pieces(encoder, ids) -> str:
    from tokviz.core.display import visible_piece

    return " │ ".join(f"{visible_piece(encoder.token_bytes(i).decode('utf-8', 'replace'))}" for i in ids)


def run(args) -> int:
    from tokviz.commands.encode import load_encoder
    from tokviz.commands.encoder_choice import parse_ids
    from tokviz.commands.output import print_json, print_text
    from tokviz.core.boundaries.canonical import check_canonical
    from tokviz.core.display import visible_piece

    ids = parse_ids(args.ids)
    encoder = load_encoder(args)
    check = check_canonical(encoder, ids)
    if args.json:
        print_json(check.as_json())
        return 0
    lines = [f"{encoder.name} · text {visible_piece(check.text)}",
             f"given      {' '.join(map(str, check.ids))}", f"canonical  {' '.join(map(str, check.canonical_ids))}"]
    d = check.divergence
    if d is None:
        lines.append("canonical: the encoder writes this text with these ids")
    else:
        lines.append(f"NOT canonical: from token {d.index_a} (byte {d.byte_start}) to byte {d.byte_end}, "
                     f"{_pieces(encoder, check.ids[d.index_a:d.end_a])}  →  "
                     f"{_pieces(encoder, check.canonical_ids[d.index_b:d.end_b])}")
        if d.segmentations is None:
            lines.append(f"the stretch is {len(d.stretch)} bytes long; its segmentations are not counted")
        else:
            lines.append(f"{d.segmentations:,} segmentations of {visible_piece(d.stretch.decode('utf-8', 'replace'))}"
                         f" by the vocabulary; the shortest:")
            lines += [f"  {' '.join(map(str, seq))}  ({_pieces(encoder, seq)})" for seq in d.examples[:10]]
    if not check.valid_utf8:
        lines.append("note: the ids' bytes break off inside a character; decoding printed U+FFFD for them, so no "
                     "text encodes back to these ids")
    print_text("\n".join(lines) + "\n")
    return 0
