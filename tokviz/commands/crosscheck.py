"""``tokviz crosscheck MODEL [TEXT | --file CORPUS] [--json]``: one model's files through every
implementation that reads them, line by line. Exit 0 when all agree, 1 when they differ, 2 on bad input.
"""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser(
        "crosscheck",
        help="run one model's files through every implementation that reads them and show where their ids differ",
        description="Encode each line with every implementation that reads MODEL's files (tokenizer.json via "
        "tokenizers and via tokviz, tokenizer.model via sentencepiece and via tokviz, tekken.json via "
        "mistral-common and via tokviz, rank files and GGUF via tokviz) and print, per line, the first token "
        "where an implementation leaves the first one. "
        "MODEL is a model folder, a Hugging Face cache folder or repo id, or one model file. "
        "Exit status: 0 all agree, 1 they differ, 2 bad input.",
    )
    p.add_argument("model", metavar="MODEL", help="model folder, models--ORG--NAME folder, cached repo id, or file")
    p.add_argument("text", nargs="?", metavar="TEXT", help="the text (each line is checked), or - for standard input")
    p.add_argument("--file", metavar="CORPUS", help="a UTF-8 text file; each line is checked")
    p.add_argument(
        "--pattern",
        metavar="NAME",
        help="pre-split pattern for files that need one (a rank file of unknown origin), as for tokviz encode --model",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help='print JSON: {"model", "implementations", "lines", "agree", "differences": [{"line", '
        '"implementation", "reference", "index", "ids", "tokens"}]}',
    )
    p.set_defaults(func=run)


def _lines(args) -> list[str]:
    from tokviz.commands.encode import decode_input, read_text
    from tokviz.core.encoders.files import read_regular_file
    from tokviz.core.errors import TokvizError

    if args.file is not None and args.text is not None:
        raise TokvizError("give either TEXT or --file CORPUS, not both")
    if args.file is not None:
        data = read_regular_file(args.file, what="a text corpus")
        text = decode_input(data, args.file)
    else:
        text = read_text(args.text)
    lines = text.splitlines()
    if not lines:
        raise TokvizError("the text is empty: give a TEXT or a --file CORPUS with at least one line")
    return lines


def run(args) -> int:
    from tokviz.commands.output import print_json, print_text
    from tokviz.core.crosscheck import crosscheck, implementations, model_files
    from tokviz.core.display import visible_piece

    lines = _lines(args)
    impls = implementations(model_files(args.model), args.pattern)
    report = crosscheck(args.model, impls, lines)
    if args.json:
        print_json(report.as_json())
        return 0 if report.agree else 1
    out = [f"{report.model}: {len(impls)} implementations: " + ", ".join(report.implementations)]
    for d in report.differences:
        ref_id, got_id = d.ids
        ref_tok, got_tok = (visible_piece(t) if t is not None else "(end)" for t in d.tokens)
        out.append(
            f"line {d.line}, token {d.index}: {d.implementation} gives {got_id} {got_tok!r}, "
            f"{d.reference} gives {ref_id} {ref_tok!r}"
        )
    differing = len({d.line for d in report.differences})
    out.append(f"{report.lines} lines: " + ("all agree" if report.agree else f"{differing} differ"))
    print_text("\n".join(out) + "\n")
    return 0 if report.agree else 1
