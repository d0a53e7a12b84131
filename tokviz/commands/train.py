"""``tokviz train CORPUS --mode {char,byte} --merges N [...] [--export FORMAT OUT]``.

Trains tokviz's BPE on a text file (or ``-`` for standard input) with a progress bar on stderr
(counting, then merges), prints a summary on stdout and optionally exports the model. The corpus
streams: a file of any size is counted chunk by chunk. Ctrl-C stops cleanly between chunks or
merges, says how far it got and writes nothing. Never imports Qt.
"""

from __future__ import annotations

import signal
import sys
import time


def _non_negative(value: str) -> int:
    import argparse

    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return n


def _positive(value: str) -> int:
    import argparse

    n = _non_negative(value)
    if n < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return n


def add_parser(sub) -> None:
    from tokviz.core.bpe.formats import FORMATS
    from tokviz.core.pretokenize import PATTERNS

    p = sub.add_parser(
        "train",
        help="train tokviz's BPE on a corpus and export it",
        description="Train BPE merges on CORPUS (a UTF-8 text file, or - for standard input). "
        "char mode splits words on whitespace and glues </w> to the last character (subword-nmt); "
        "byte mode works on UTF-8 bytes after a regex pre-split (GPT-2/GPT-4/o200k style).",
    )
    p.add_argument("corpus", metavar="CORPUS", help="UTF-8 text file, or - to read standard input")
    p.add_argument("--mode", choices=["char", "byte"], default="byte", help="char or byte BPE (default: byte)")
    p.add_argument("--pattern", choices=list(PATTERNS), default="gpt4",
                   help="byte mode pre-split: gpt2, gpt4 (default), o200k, whitespace, or none (each line is one piece)")
    p.add_argument("--merges", type=_non_negative, default=1000, metavar="N", help="number of merges (default 1000)")
    p.add_argument("--min-frequency", type=_positive, default=2, metavar="K",
                   help="stop when the best pair occurs fewer than K times (default 2)")
    p.add_argument("--keep", choices=["hangul"], default=None,
                   help="keep only Hangul and whitespace before counting (the classic Korean BPE tutorial)")
    p.add_argument("--errors", choices=["strict", "replace"], default="strict",
                   help="invalid UTF-8 in the corpus: stop with the line number (strict, default) or replace with U+FFFD")
    p.add_argument("--special", action="append", default=[], metavar="TOKEN",
                   help="special token reserved after the merges (repeatable), e.g. <|endoftext|>")
    p.add_argument("--export", nargs=2, action="append", default=[], metavar=("FORMAT", "OUT"),
                   help=f"write the model: FORMAT is one of {', '.join(FORMATS)} (repeatable). "
                   "gpt2 writes OUT/vocab.json + OUT/merges.txt when OUT is a folder, else OUT-vocab.json + OUT-merges.txt")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


class _ProgressBar:
    """One redrawn stderr line on a terminal (at most ~10 redraws/s); a few plain lines otherwise."""

    def __init__(self, stream, enabled: bool):
        self.stream = stream
        self.enabled = enabled
        self.tty = enabled and hasattr(stream, "isatty") and stream.isatty()
        self.last = 0.0
        self.last_plain = ""
        self.width = 0

    def show(self, text: str, force: bool = False, plain_key: str | None = None) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            if force or now - self.last >= 0.1:
                self.last = now
                pad = max(0, self.width - len(text))
                self.stream.write("\r" + text + " " * pad)
                self.stream.flush()
                self.width = len(text)
        elif plain_key is not None and plain_key != self.last_plain:
            self.last_plain = plain_key
            self.stream.write(text + "\n")
            self.stream.flush()

    def done(self) -> None:
        if self.enabled and self.tty and self.width:
            self.stream.write("\n")
            self.stream.flush()
            self.width = 0


def _bar(fraction: float, width: int = 24) -> str:
    filled = int(round(max(0.0, min(1.0, fraction)) * width))
    return "[" + "#" * filled + "." * (width - filled) + "]"


def run(args) -> int:
    from tokviz.core.bpe.corpus import corpus_size, read_corpus_blocks
    from tokviz.core.bpe.events import Finished, MergeStep, Progress, TrainerConfig
    from tokviz.core.bpe.formats import FORMATS, save_model
    from tokviz.core.bpe.trainer import BPETrainer
    from tokviz.core.errors import TokvizError

    for fmt, _out in args.export:
        if fmt not in FORMATS:
            raise TokvizError(f"unknown export format {fmt!r}: use one of {', '.join(FORMATS)}")
        need = {"tiktoken": "byte", "gpt2": "byte", "subword-nmt": "char"}.get(fmt)
        if need and need != args.mode:
            raise TokvizError(f"--export {fmt} needs --mode {need} (the tokviz format holds either mode)")
    config = TrainerConfig(
        mode=args.mode,
        merges=args.merges,
        min_frequency=args.min_frequency,
        pattern=args.pattern,
        keep=args.keep,
        special_tokens=tuple(args.special),
    )
    trainer = BPETrainer(config)
    lines = read_corpus_blocks(args.corpus, errors=args.errors)
    total = corpus_size(args.corpus)
    bar = _ProgressBar(sys.stderr, not args.quiet)

    interrupted = {"flag": False}

    def on_sigint(signum, frame):
        if interrupted["flag"]:  # a second Ctrl-C: stop right now
            raise KeyboardInterrupt
        interrupted["flag"] = True

    previous = signal.signal(signal.SIGINT, on_sigint) if _main_thread() else None
    started = time.monotonic()
    last_step: MergeStep | None = None
    finished: Finished | None = None
    try:
        for event in trainer.run(lines, cancel=lambda: interrupted["flag"], total_bytes=total):
            if isinstance(event, Progress):
                mb = event.done / 1e6
                if event.phase == "counting":
                    if event.total:
                        frac = event.done / event.total
                        bar.show(f"counting {_bar(frac)} {mb:7.1f} / {event.total / 1e6:.1f} MB", plain_key="counting")
                    else:
                        bar.show(f"counting {mb:7.1f} MB", plain_key="counting")
                else:
                    bar.show("indexing pairs ...", force=True, plain_key="indexing")
            elif isinstance(event, MergeStep):
                last_step = event
                frac = event.step / max(1, config.merges)
                bar.show(
                    f"merges   {_bar(frac)} {event.step}/{config.merges}  {event.new_piece!r} ({event.count})",
                    plain_key="merges",
                )
            else:
                finished = event
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        bar.done()
    elapsed = time.monotonic() - started
    assert finished is not None
    if finished.reason == "cancelled":
        print(f"tokviz: training cancelled ({finished.message}); nothing was written", file=sys.stderr)
        return 130
    model = trainer.model()
    # Write the exports before printing anything: a closed stdout (`| head`) must not cost the model.
    written_by_format = [(fmt, save_model(model, dest, fmt)) for fmt, dest in args.export]
    out = sys.stdout
    settings = model.settings
    print(f"mode          {config.mode}" + (f" (pattern {config.pattern})" if config.mode == "byte" else ""), file=out)
    if config.keep:
        print(f"keep          {config.keep}", file=out)
    print(f"unique words  {settings.get('unique_words', 0):,}" if config.mode == "char"
          else f"unique pieces {settings.get('unique_words', 0):,}", file=out)
    print(f"merges        {finished.merges:,} of {config.merges:,} ({_reason(finished)})", file=out)
    print(f"vocabulary    {model.vocab_size:,} tokens", file=out)
    if last_step is not None:
        ratio = last_step.corpus_chars / max(1, last_step.corpus_tokens)
        print(f"corpus        {last_step.corpus_chars:,} chars -> {last_step.corpus_tokens:,} tokens "
              f"({ratio:.2f} chars/token)", file=out)
        first = ", ".join(f"{model.token_piece(t)!r}" for _, _, t in model.merges[:8])
        print(f"first merges  {first}", file=out)
    print(f"time          {elapsed:.1f} s", file=out)
    for fmt, written in written_by_format:
        for path in written:
            print(f"wrote         {path} ({fmt})", file=out)
        # tiktoken and GPT-2 files cannot record the pre-split pattern; encode assumes gpt4
        pattern = f" --pattern {config.pattern}" if fmt in ("tiktoken", "gpt2") and config.pattern != "gpt4" else ""
        print(f"              try: tokviz encode --model {written[0]}{pattern} \"your text\"", file=out)
    return 0


def _reason(finished) -> str:
    if finished.reason == "merges":
        return "done"
    return finished.message or finished.reason


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()
