"""``tokviz chat (-e NAME | --model PATH) [--template NAME|FILE] MESSAGES.json [--json]``.

Renders a list of chat messages the way a model sees them (its own Jinja ``chat_template``, or a
built-in: Llama 3 as Meta's ChatFormat builds it, Mistral as mistral-common does, ChatML, Gemma)
and shows the prompt's tokens with what each message costs and what the template adds. MESSAGES is
a JSON list of ``{"role": ..., "content": ...}`` objects, or ``-`` for standard input. Never imports Qt.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def add_parser(sub) -> None:
    from tokviz.core.chat import BUILTIN_TEMPLATES
    from tokviz.core.pretokenize import PATTERNS

    p = sub.add_parser(
        "chat",
        help="render chat messages with a model's chat template and count the prompt's tokens",
        description="Render MESSAGES (a JSON list of {\"role\", \"content\"} objects, or - for standard input) "
        "with the model's chat template and encode the prompt: every token, the tokens of each message and "
        "the template's overhead. A generation prompt (the assistant's turn header) is added unless "
        "--no-generation-prompt.",
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("-e", "--encoder", metavar="NAME", help="encoder name from `tokviz encoders`")
    which.add_argument("--model", metavar="PATH",
                       help="model file or model folder (tokenizer.json + tokenizer_config.json)")
    p.add_argument("--template", metavar="NAME|FILE",
                   help=f"a built-in template ({', '.join(BUILTIN_TEMPLATES)}) or a Jinja file; "
                   "default: the model's own chat_template, else the built-in its special tokens call for")
    p.add_argument("--no-generation-prompt", action="store_true", help="do not add the assistant's turn header")
    p.add_argument("--pattern", choices=list(PATTERNS), metavar="NAME", help="pre-split pattern for rank files")
    p.add_argument("--json", action="store_true",
                   help='print JSON: {"text", "tokens": [...as tokviz encode --json...], '
                   '"messages": [{"role", "tokens"}], '
                   '"overhead", "total"}')
    p.add_argument("--turns", action="store_true",
                   help="prefix stability: whether the prompt of each turn starts with the previous turn's tokens "
                   "(a KV cache can be reused) and, where not, the tokens that change and why")
    p.add_argument("--injection", action="store_true",
                   help="special-token injection: the prompt with special-token strings in message contents kept "
                   "as text beside the prompt with them parsed as control tokens, the injected ones marked")
    p.add_argument("messages", metavar="MESSAGES", help="JSON file of messages, or - for standard input")
    p.set_defaults(func=run)


TEMPLATE_BYTES = 1024 * 1024  # a chat template is a few kilobytes; a megabyte is not one (as the GUI's limit)
MESSAGES_BYTES = 64 * 1024 * 1024


def _read_utf8(path: str, what: str, limit: int = MESSAGES_BYTES) -> str:
    """A regular file's text (strict UTF-8), or standard input for ``-``; a FIFO, device or folder is refused."""
    from tokviz.commands.encode import decode_input
    from tokviz.core.errors import TokvizError

    if path == "-":
        if sys.stdin is None:
            raise TokvizError(f"there is no standard input to read the {what} from")
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8", "surrogatepass")
        return decode_input(data)
    p = Path(path)
    if not p.exists():
        raise TokvizError(f"{path}: no such file (the {what})")
    if not p.is_file():
        raise TokvizError(f"{path} is not a regular file; give the {what} as a file")
    if p.stat().st_size > limit:
        raise TokvizError(f"{path} is over {limit >> 20} MB; that is not a {what} file")
    return decode_input(p.read_bytes(), path)


def _template(arg: str | None, encoder) -> str:
    from tokviz.core.chat import BUILTIN_TEMPLATES, default_template

    if arg is None:
        return default_template(encoder)
    if arg in BUILTIN_TEMPLATES:
        return arg
    return _read_utf8(arg, "chat template", TEMPLATE_BYTES)


def run(args) -> int:
    from tokviz.commands.encode import load_encoder, render_tokens, use_color
    from tokviz.core import template_process
    from tokviz.core.chat import EXACT_BUILTINS, build_prompt, parse_messages, unknown_markers
    from tokviz.core.display import token_json, visible_piece
    from tokviz.core.errors import TokvizError

    raw = _read_utf8(args.messages, "messages")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as err:
        where = f" (line {err.lineno}, column {err.colno})" if isinstance(err, json.JSONDecodeError) else ""
        raise TokvizError(f"{args.messages} is not valid JSON{where}: give a list of "
                          '{"role": ..., "content": ...} objects') from None
    messages = parse_messages(data, args.messages)
    if args.template not in EXACT_BUILTINS:
        template_process.prepare()  # a Jinja template may come: its process starts while the encoder loads
    args.allow_special = True
    encoder = load_encoder(args)
    template = _template(args.template, encoder)
    if args.turns or args.injection:
        from tokviz.commands.chat_boundaries import print_injection, print_turns

        kw = {"add_generation_prompt": not args.no_generation_prompt, "as_json": args.json}
        (print_turns if args.turns else print_injection)(encoder, messages, template, **kw)
        return 0
    prompt = build_prompt(encoder, messages, template, add_generation_prompt=not args.no_generation_prompt)
    unknown = unknown_markers(prompt.text, encoder)
    if unknown:
        print(f"tokviz: note: {encoder.name} has no special token {', '.join(unknown)}: the template's markers are "
              "counted as plain text (choose the model the template was made for)", file=sys.stderr)
    if args.json:
        doc = {
            "encoder": encoder.name,
            "template": prompt.template,
            "text": prompt.text,
            "tokens": [token_json(t) for t in prompt.encoding.tokens],
            "messages": [{"role": m.role, "tokens": n}
                         for m, n in zip(prompt.messages, prompt.message_tokens, strict=True)],
            "overhead": prompt.overhead,
            "total": len(prompt.encoding),
        }
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    out = [f"{encoder.name} · template {prompt.template}",
           render_tokens(prompt.encoding, color=use_color(sys.stdout)), ""]
    width = max([len("template"), *(len(m.role) for m in prompt.messages)])
    for m, n in zip(prompt.messages, prompt.message_tokens, strict=True):
        preview = visible_piece(m.content[:40]) + ("…" if len(m.content) > 40 else "")
        out.append(f"{m.role:<{width}}  {n:>6,} tokens  {preview}")
    out.append(f"{'template':<{width}}  {prompt.overhead:>6,} tokens  (special tokens, roles, separators)")
    out.append(f"{'total':<{width}}  {len(prompt.encoding):>6,} tokens")
    text = "\n".join(out) + "\n"
    codec = getattr(sys.stdout, "encoding", None) or "utf-8"
    sys.stdout.write(text.encode(codec, "backslashreplace").decode(codec))
    return 0
