"""``tokviz encode (-e NAME | --model FILE) [--json] [--allow-special] [--pattern NAME] [TEXT | -]``.

Prints how one encoder splits a text: a colored terminal view (one background per token, invisible
characters as the views' markers, bytes of cut characters in hex) and a summary line, or the token
JSON of core.display (every token's id, bytes, byte span and character span plus the metrics).
Never imports Qt.

The text is taken exactly as given: ``-`` (or no TEXT with a pipe) reads standard input as raw
bytes and decodes them as strict UTF-8, keeping a final newline.
"""

from __future__ import annotations

import json
import os
import sys


def add_parser(sub) -> None:
    from tokviz.core.pretokenize import PATTERNS

    p = sub.add_parser(
        "encode",
        help="show how one encoder splits a text (colored view or --json)",
        description="Encode TEXT (or standard input with -) with one encoder and show every token: "
        "id, bytes, byte span, character span, and whether it cuts a character.",
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("-e", "--encoder", metavar="NAME", help="encoder name from `tokviz encoders`")
    which.add_argument("--model", metavar="PATH",
                       help="model file or folder: a Hugging Face tokenizer.json or model folder, a GGUF file, "
                       "Mistral's tekken.json, a SentencePiece .model, a tiktoken rank file (Llama 3/4 and Qwen "
                       "are recognised by hash; any other needs --pattern) or a model `tokviz train` exported "
                       "(tokviz JSON, GPT-2 vocab.json + merges.txt, subword-nmt codes; not BERT's vocab.txt)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON: encoder, text, ids, tokens, metrics")
    out.add_argument("--ndjson", action="store_true",
                     help="print one JSON object per line, for very large inputs: {encoder, characters, bytes}, "
                     "then one per token (the --json token fields), then {metrics}")
    p.add_argument("--allow-special", action="store_true",
                   help="read special-token strings such as <|endoftext|> as special tokens (default: plain text)")
    p.add_argument("--pattern", choices=list(PATTERNS), metavar="NAME",
                   help=f"pre-split pattern for --model files that need one ({', '.join(PATTERNS)}; "
                   "default: gpt4 for .tiktoken files)")
    p.add_argument("--dropout", type=float, metavar="P",
                   help="BPE-dropout: skip each applicable merge with probability P (0 = plain encoding, 1 = base "
                   "tokens); for BPE models tokviz runs itself")
    p.add_argument("--seed", type=int, metavar="S", help="with --dropout: the random seed (same seed, same result)")
    p.add_argument("--samples", type=int, metavar="N",
                   help="with --dropout: encode N times and show how often each token boundary appears")
    p.add_argument("--jamo", action="store_true",
                   help="decompose Hangul syllables into conjoining jamo first, for a model trained with --jamo "
                   "whose file does not record it (tiktoken, GPT-2, subword-nmt exports; spans then refer to the "
                   "decomposed text). A tokviz model file records it and decomposes by itself")
    p.add_argument("text", nargs="?", metavar="TEXT",
                   help="the text, or - to read standard input (UTF-8, taken exactly)")
    p.set_defaults(func=run)


# ---- reading the text ---------------------------------------------------------------------------
def _utf8_error(source: str, data: bytes, err: UnicodeDecodeError) -> str:
    line = data.count(b"\n", 0, err.start) + 1
    bad = data[err.start:err.end]
    # ED A0..BF xx is a UTF-16 surrogate written as if it were a character (CESU-8 / WTF-8): half
    # of an emoji from a program that split it
    surrogate = data[err.start] == 0xED and err.start + 1 < len(data) and 0xA0 <= data[err.start + 1] <= 0xBF
    what = "an encoded lone surrogate, half of an astral character such as an emoji" if surrogate else err.reason
    return (
        f"{source} is not valid UTF-8: byte 0x{bad[0]:02X} at byte offset {err.start} (line {line}) "
        f"({what}); give the text as UTF-8."
    )


def decode_input(data: bytes, source: str = "standard input") -> str:
    """Strict UTF-8 decoding of raw input; TokvizError naming the first bad byte's offset.

    >>> decode_input("값\\n".encode())
    '값\\n'
    """
    from tokviz.core.errors import TokvizError

    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise TokvizError(_utf8_error(source, data, err)) from None


def read_text(arg: str | None) -> str:
    """The text to encode: ``arg`` itself, or standard input for ``-`` / no argument with a pipe."""
    from tokviz.core.errors import TokvizError, check_text

    if arg is None:
        if sys.stdin is None or sys.stdin.isatty():
            raise TokvizError("give the TEXT to encode, or - to read it from standard input")
        arg = "-"
    if arg == "-":
        if sys.stdin is None:
            raise TokvizError("there is no standard input to read the text from; give the TEXT instead")
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8", "surrogatepass")
        text = decode_input(data)
    else:
        text = arg
        # Bytes of the command line that are not UTF-8 arrive as U+DC80..U+DCFF (surrogateescape):
        # report them as the bad bytes they were, not as a surrogate.
        if any("\udc80" <= ch <= "\udcff" for ch in text):
            try:
                raw = os.fsencode(text)
            except UnicodeError:
                raw = None
            if raw is not None:
                decode_input(raw, "the TEXT argument")
    check_text(text)  # lone surrogates: InvalidTextError with position and advice
    return text


# ---- the terminal view --------------------------------------------------------------------------
_RESET = "\x1b[0m"
# Light backgrounds with black text, cycled so neighbouring tokens always differ.
_BACKGROUNDS = (153, 223, 194, 225, 230, 189)
_SPECIAL_STYLE = "\x1b[1;48;5;183;38;5;16m"
_UNKNOWN_STYLE = "\x1b[48;5;210;38;5;16m"
_PARTIAL_STYLE = "\x1b[3;48;5;{bg};38;5;88m"

def render_tokens(encoding, *, color: bool) -> str:
    """The tokens on one or more lines: colored backgrounds, or ``│`` between tokens without color."""
    from tokviz.core.display import token_label

    parts: list[str] = []
    for i, tok in enumerate(encoding.tokens):
        label = token_label(tok)
        newline = tok.piece is not None and tok.piece.endswith("\n")
        if color:
            bg = _BACKGROUNDS[i % len(_BACKGROUNDS)]
            if tok.kind == "special":
                style = _SPECIAL_STYLE
            elif tok.kind == "unknown":
                style = _UNKNOWN_STYLE
            elif tok.piece is None:
                style = _PARTIAL_STYLE.format(bg=bg)
            else:
                style = f"\x1b[48;5;{bg};38;5;16m"
            parts.append(f"{style}{label}{_RESET}")
        else:
            parts.append(label)
            if i + 1 < len(encoding.tokens) and not newline:
                parts.append("│")
        if newline:  # keep the text's line structure readable
            parts.append("\n")
    return "".join(parts)


def summary_line(m) -> str:
    """One line of metrics, e.g. ``5 tokens · 3 chars · 9 bytes · ... · round trip exact``."""
    trip = "round trip exact" if m.round_trip else "round trip NOT exact"
    return (
        f"{m.tokens} tokens · {m.characters} chars · {m.bytes} bytes · {m.words} words · "
        f"{m.chars_per_token:.2f} chars/token · {m.bytes_per_token:.2f} bytes/token · "
        f"fertility {m.fertility:.2f} · {m.partial_tokens} partial · {m.fallback_tokens} byte-fallback · "
        f"{m.unknown_tokens} unknown · {m.special_tokens} special · {trip}"
    )


def use_color(stream) -> bool:
    """Colors only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


# ---- the command ----------------------------------------------------------------------------------
def load_encoder(args):
    """The encoder asked for with ``-e NAME`` or ``--model FILE``."""
    from tokviz.core.errors import TokvizError

    if args.model is not None:
        from tokviz.core.encoders.builtin import open_model_file

        encoder = open_model_file(args.model, pattern=args.pattern)
        if args.pattern is not None and encoder.family == "sentencepiece":
            print("tokviz: note: --pattern is ignored: SentencePiece models split text themselves", file=sys.stderr)
        return encoder
    if args.pattern is not None:
        raise TokvizError("--pattern applies to --model files only; a named encoder has its own pattern")
    from tokviz.core.encoders.builtin import default_registry

    return default_registry().get(args.encoder)


def _stdout_can_encode_all() -> bool:
    enc = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "").replace("_", "")
    return enc in ("utf8", "utf8sig")


def _check_dropout_args(args) -> None:
    from tokviz.core.errors import TokvizError

    if args.dropout is None and (args.seed is not None or args.samples is not None):
        raise TokvizError("--seed and --samples go with --dropout P")
    if args.dropout is not None and not 0.0 <= args.dropout <= 1.0:
        raise TokvizError(f"--dropout is a probability between 0 and 1, not {args.dropout}")


def _print_boundaries(encoder, text: str, args) -> int:
    """``--dropout P --samples N``: each boundary of any sample, how often it appeared, and whether
    plain encoding has it."""
    from tokviz.core.display import visible_piece
    from tokviz.core.dropout import boundary_frequencies

    stats = boundary_frequencies(encoder, text, p=args.dropout, samples=args.samples, seed=args.seed,
                                 allow_special=args.allow_special)
    head = {"encoder": encoder.name, "p": stats.p, "samples": stats.samples, "mean_tokens": stats.mean_tokens()}
    boundaries = ({"byte": b, "frequency": stats.frequency(b), "plain": b in stats.plain}
                  for b in sorted(set(stats.counts) | stats.plain))
    if args.ndjson:  # the head, then one boundary per line (the shape of encode --ndjson)
        ensure_ascii = not _stdout_can_encode_all()
        sys.stdout.writelines(json.dumps(row, ensure_ascii=ensure_ascii) + "\n" for row in (head, *boundaries))
        return 0
    if args.json:
        json.dump({**head, "boundaries": list(boundaries)}, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    lines = [f"{encoder.name} · dropout {stats.p} · {stats.samples} samples · {stats.mean_tokens():.2f} tokens on "
             f"average ({len(stats.plain) + 1 if text else 0} without dropout)",
             "  byte  between                    in samples  plain"]
    import bisect

    from tokviz.core.encoding import char_byte_starts

    starts = list(char_byte_starts(text))
    for b in sorted(set(stats.counts) | stats.plain):
        i = bisect.bisect_right(starts, b) - 1  # the character at or containing byte b
        if starts[i] == b:
            where = f"{visible_piece(text[max(0, i - 3):i]):>4} | {visible_piece(text[i:i + 3])}"
        else:  # a boundary inside a character: byte-level BPE cut it
            ch = text[i]
            cut = b - starts[i]
            where = f"inside {visible_piece(ch)} (bytes 1–{cut} | {cut + 1}–{len(ch.encode('utf-8'))})"
        bar = "#" * round(10 * stats.frequency(b))
        lines.append(f"{b:6}  {where:<24}  {stats.frequency(b):6.0%} {bar:<10}  "
                     f"{'yes' if b in stats.plain else ''}")
    out = "\n".join(lines) + "\n"
    codec = getattr(sys.stdout, "encoding", None) or "utf-8"
    sys.stdout.write(out.encode(codec, "backslashreplace").decode(codec))
    return 0


def _encode(encoder, text: str, allow_special: bool):
    """``encoder.encode`` where Ctrl-C still works during a long native call (a model's slow regex),
    its failure named by the encoder."""
    from tokviz.core.encoders.native import call_interruptibly
    from tokviz.core.errors import EncodingFailed, TokvizError

    try:
        return call_interruptibly(lambda: encoder.encode(text, allow_special=allow_special))
    except EncodingFailed as err:
        raise TokvizError(f"{encoder.name}: {err}") from None


def _write_json(encoding, metrics, *, ndjson: bool, ensure_ascii: bool) -> None:
    """The token JSON of core.display (the Inspector's Copy as JSON), streamed as it is made: the same
    bytes json.dump(encoding_json(...), indent=2) gave, several times faster, never whole in memory."""
    from tokviz.core.display import encoding_json_chunks, encoding_ndjson_lines

    chunks = (encoding_ndjson_lines(encoding, metrics, ensure_ascii=ensure_ascii) if ndjson
              else encoding_json_chunks(encoding, metrics, ensure_ascii=ensure_ascii))
    write = sys.stdout.write
    for chunk in chunks:
        write(chunk)
    if not ndjson:
        write("\n")
    sys.stdout.flush()


def run(args) -> int:
    from tokviz.core.display import visible_piece
    from tokviz.core.metrics import measure

    text = read_text(args.text)  # before loading: a bad text fails fast
    _check_dropout_args(args)
    from tokviz.core.encoders.native import call_interruptibly

    # native code runs in the helper thread: Ctrl-C lands in this one, never inside a native call's
    # stderr switch, so the "interrupted" message reaches the terminal
    encoder = call_interruptibly(lambda: load_encoder(args))
    if args.dropout is not None:
        from tokviz.core.vocab.ranks import HasRanks

        if isinstance(encoder, HasRanks):  # a rank vocabulary drops merges through its recovered merges
            from tokviz.core.vocab.export import with_dropout

            ranked = encoder
            encoder = call_interruptibly(lambda: with_dropout(ranked))
    if args.jamo:
        from tokviz.core.jamo_input import JamoReader

        if isinstance(encoder, JamoReader):  # a tokviz model file records jamo and decomposes by itself
            print(f"tokviz: {encoder.name} reads jamo by itself; --jamo is not needed (spans refer to your text)",
                  file=sys.stderr)
        else:
            from tokviz.core.jamo import decompose

            text = decompose(text)
    if args.samples is not None:
        return _print_boundaries(encoder, text, args)
    if args.dropout is not None:
        from tokviz.core.dropout import supports_dropout
        from tokviz.core.errors import TokvizError

        if not supports_dropout(encoder):
            raise TokvizError(f"{encoder.name} cannot encode with BPE-dropout: dropout applies to BPE models tokviz "
                              "runs itself (trained in tokviz, a tokviz, subword-nmt or GPT-2 model file, or a rank "
                              "vocabulary such as cl100k_base through its recovered merges)")
        encoding = encoder.encode_dropout(text, args.dropout, seed=args.seed, allow_special=args.allow_special)
    else:
        encoding = _encode(encoder, text, args.allow_special)
    metrics = measure(encoding, decoded=encoder.decode(encoding.ids))
    utf8_out = _stdout_can_encode_all()
    if args.json or args.ndjson:
        _write_json(encoding, metrics, ndjson=args.ndjson, ensure_ascii=not utf8_out)
        return 0
    out = f"{encoder.name}\n{render_tokens(encoding, color=use_color(sys.stdout))}\n"
    out += "ids: " + " ".join(str(i) for i in encoding.ids) + "\n"
    out += summary_line(metrics) + "\n"
    if encoding.normalized_text is not None:
        out += f"normalized: {visible_piece(encoding.normalized_text)}\n"
    if not utf8_out:  # a non-UTF-8 terminal still gets something readable, never an encode error
        codec = getattr(sys.stdout, "encoding", None) or "ascii"
        out = out.encode(codec, "backslashreplace").decode(codec)
    sys.stdout.write(out)
    sys.stdout.flush()
    return 0
