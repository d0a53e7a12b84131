"""``tokviz stream (-e NAME | --model FILE) [--json] (TEXT | --ids ID...)``: replay a model's output token
by token, as an incremental UTF-8 decoder prints it and as a naive per-token decoder does. Never imports Qt.
"""

from __future__ import annotations


def add_parser(sub) -> None:
    from tokviz.commands.encoder_choice import add_encoder_options

    p = sub.add_parser(
        "stream", help="replay ids token by token: what a streaming UTF-8 decoder prints after each",
        description="Replay the ids of TEXT (or --ids) one token at a time: the text an incremental UTF-8 decoder "
        "can print after each token, the bytes it holds back (hex), and what a naive per-token decoder prints.")
    add_encoder_options(p)
    p.add_argument("--json", action="store_true",
                   help='print JSON: {"steps": [{"id", "bytes", "emitted", "pending", "naive"}], "text", ...}')
    p.add_argument("--ids", nargs="+", metavar="ID", help="replay these token ids instead of a text's")
    p.add_argument("text", nargs="?", metavar="TEXT", help="the text whose ids to replay, or - for standard input")
    p.set_defaults(func=run)


def _print_json_steps(replay) -> None:
    """``{"encoder", "steps": [...], "text", ...}`` written step by step, one step per line."""
    import json

    from tokviz.commands.output import json_ascii, print_text

    ascii_only = json_ascii()
    print_text(f'{{"encoder": {json.dumps(replay.name, ensure_ascii=ascii_only)},\n "steps": [\n')
    batch: list[str] = []
    for k, step in enumerate(replay.iter_steps()):
        batch.append(("" if k == 0 else ",\n") + "  " + json.dumps(step.as_json(), ensure_ascii=ascii_only))
        if len(batch) == 4096:
            print_text("".join(batch))
            batch.clear()
    rest = json.dumps(replay.summary_json(), ensure_ascii=ascii_only)[1:]
    print_text("".join(batch) + "\n ],\n " + rest + "\n")


def run(args) -> int:
    from tokviz.commands.encode import load_encoder, read_text
    from tokviz.commands.encoder_choice import parse_ids
    from tokviz.commands.output import print_text
    from tokviz.core.boundaries.streaming import stream_ids, stream_text
    from tokviz.core.display import visible_piece
    from tokviz.core.errors import TokvizError

    if (args.ids is None) == (args.text is None):
        raise TokvizError("give either a TEXT or --ids ID..., not both or neither")
    ids = parse_ids(args.ids) if args.ids is not None else None
    text = read_text(args.text) if ids is None else None
    encoder = load_encoder(args)
    replay = stream_ids(encoder, ids) if ids is not None else stream_text(encoder, text)
    if args.json:
        _print_json_steps(replay)
        return 0
    print_text(f"{encoder.name} · {len(replay.ids)} tokens\n     id  bytes         streamed      pending   naive\n")
    batch: list[str] = []
    for s in replay.iter_steps():  # printed in batches: a long text's replay is never held whole
        batch.append(f"{s.id:>7}  {s.bytes.hex(' '):<12}  {visible_piece(s.emitted):<12}  "
                     f"{s.pending.hex(' '):<8}  {visible_piece(s.naive)}\n")
        if len(batch) == 4096:
            print_text("".join(batch))
            batch.clear()
    print_text("".join(batch))
    lines = [f"streamed: {visible_piece(replay.text)}"]
    lines.append(f"naive:    {visible_piece(replay.naive_text)}")
    if replay.pending:
        lines.append(f"still pending at the end: {replay.pending.hex(' ')}")
    print_text("\n".join(lines) + "\n")
    return 0
