"""``tokviz train CORPUS [--algorithm {bpe,wordpiece,unigram}] [--mode {char,byte}] [--merges N |
--vocab-size N] [--jamo] [...] [--export FORMAT OUT]``.

Trains one of tokviz's own trainers on a text file (or ``-`` for standard input) with a progress bar
on stderr (counting, then steps), prints a summary on stdout and optionally exports the model. The
corpus streams: a file of any size is counted chunk by chunk. Ctrl-C stops cleanly between chunks or
steps, says how far it got and writes nothing. ``--jamo`` trains on Hangul syllables decomposed into
their conjoining jamo (the exports hold jamo strings; the summary shows pieces recomposed where their
jamo form whole syllables). Never imports Qt.
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


# export formats per algorithm; tokenizer-json is Hugging Face's tokenizer.json, vocab-txt BERT's vocab.txt
HF_FORMATS = ("tokenizer-json",)
ALGORITHM_FORMATS = {"wordpiece": ("tokenizer-json", "vocab-txt"), "unigram": ("tokenizer-json",)}


def add_parser(sub) -> None:
    from tokviz.core.bpe.formats import FORMATS
    from tokviz.core.pretokenize import PATTERNS

    p = sub.add_parser(
        "train",
        help="train a tokenizer (BPE, WordPiece or Unigram) on a corpus and export it",
        description="Train a tokenizer on CORPUS (a UTF-8 text file, or - for standard input). "
        "BPE: char mode splits words on whitespace and glues </w> to the last character (subword-nmt); "
        "byte mode works on UTF-8 bytes after a regex pre-split (GPT-2/GPT-4/o200k style). "
        "WordPiece: BERT's words and ## continuations, merging the pair with the best "
        "freq(ab) / (freq(a) freq(b)). Unigram: SentencePiece's EM and pruning.",
    )
    p.add_argument("corpus", metavar="CORPUS", help="UTF-8 text file, or - to read standard input")
    p.add_argument("--algorithm", choices=["bpe", "wordpiece", "unigram"], default="bpe",
                   help="bpe (default), wordpiece or unigram")
    p.add_argument("--vocab-size", type=_positive, default=None, metavar="N",
                   help="vocabulary size to reach, specials included (wordpiece and unigram: default 8000; "
                   "bpe byte mode: 256 + merges + specials)")
    p.add_argument("--jamo", action="store_true",
                   help="decompose Hangul syllables into conjoining jamo (NFD) before counting")
    p.add_argument("--mode", choices=["char", "byte"], default="byte", help="char or byte BPE (default: byte)")
    p.add_argument("--pattern", choices=list(PATTERNS), default="gpt4",
                   help="byte mode pre-split: gpt2, gpt4 (default), o200k, whitespace, "
                   "or none (each line is one piece)")
    p.add_argument("--merges", type=_non_negative, default=1000, metavar="N", help="number of merges (default 1000)")
    p.add_argument("--min-frequency", type=_positive, default=2, metavar="K",
                   help="stop when the best pair occurs fewer than K times (default 2)")
    p.add_argument("--keep", choices=["hangul"], default=None,
                   help="keep only Hangul and whitespace before counting (the classic Korean BPE tutorial)")
    p.add_argument("--errors", choices=["strict", "replace"], default="strict",
                   help="invalid UTF-8 in the corpus: stop with the line number (strict, default) "
                   "or replace with U+FFFD")
    p.add_argument("--special", action="append", default=[], metavar="TOKEN",
                   help="special token reserved after the merges (repeatable), e.g. <|endoftext|>")
    p.add_argument("--export", nargs=2, action="append", default=[], metavar=("FORMAT", "OUT"),
                   help=f"write the model: FORMAT is one of {', '.join(FORMATS + HF_FORMATS)} for bpe, "
                   "tokenizer-json or vocab-txt for wordpiece, tokenizer-json for unigram (repeatable). "
                   "gpt2 writes OUT/vocab.json + OUT/merges.txt when OUT is a folder, "
                   "else OUT-vocab.json + OUT-merges.txt")
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

    def note(self, text: str) -> None:
        """A line of its own above the bar, shown even with --quiet (it says something about the model)."""
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.width = 0
        self.stream.write(f"note: {text}\n")
        self.stream.flush()

    def done(self) -> None:
        if self.enabled and self.tty and self.width:
            self.stream.write("\n")
            self.stream.flush()
            self.width = 0


def _bar(fraction: float, width: int = 24) -> str:
    filled = round(max(0.0, min(1.0, fraction)) * width)
    return "[" + "#" * filled + "." * (width - filled) + "]"


def _check_exports(args) -> None:
    from tokviz.core.bpe.formats import FORMATS
    from tokviz.core.errors import TokvizError

    allowed = FORMATS + HF_FORMATS if args.algorithm == "bpe" else ALGORITHM_FORMATS[args.algorithm]
    for fmt, _out in args.export:
        if fmt not in allowed:
            raise TokvizError(f"unknown export format {fmt!r} for {args.algorithm}: "
                              f"{args.algorithm} models export as {', '.join(allowed)}")
        need = {"tiktoken": "byte", "gpt2": "byte", "subword-nmt": "char"}.get(fmt)
        if args.algorithm == "bpe" and need and need != args.mode:
            raise TokvizError(f"--export {fmt} needs --mode {need} (the tokviz format holds either mode)")
    _check_export_targets(args.export)


def _check_export_targets(exports) -> None:
    """A target that can never be written (a folder, a too-long name) fails before the training, not after."""
    from tokviz.core.atomic import check_target
    from tokviz.core.bpe.formats import gpt2_paths

    for fmt, out in exports:
        for target in (gpt2_paths(out) if fmt == "gpt2" else [out]):
            check_target(target)


def _make_trainer(args):
    """The trainer the arguments ask for, from tokviz.core.training.factory.make_trainer."""
    from tokviz.core.training.factory import make_trainer

    return make_trainer(args.algorithm, _config(args))


def _config(args):
    """The config of ``args.algorithm`` the arguments describe (TokvizError for a combination it cannot take)."""
    from tokviz.core.errors import TokvizError

    specials = tuple(args.special)
    if args.algorithm == "wordpiece":
        from tokviz.core.wordpiece.trainer import SPECIALS, WordPieceConfig

        extra = tuple(s for s in specials if s not in SPECIALS)
        return WordPieceConfig(vocab_size=args.vocab_size or 8000, special_tokens=SPECIALS + extra)
    if args.algorithm == "unigram":
        from tokviz.core.unigram.trainer import UnigramConfig

        if specials:
            raise TokvizError("--special is for bpe and wordpiece; a unigram model has <unk> <s> </s>")
        return UnigramConfig(vocab_size=args.vocab_size or 8000)
    from tokviz.core.bpe.events import TrainerConfig

    merges = args.merges
    if args.vocab_size is not None:
        if args.mode == "char":
            raise TokvizError("char-mode BPE's vocabulary is its alphabet plus the merges, which depends on the "
                              "corpus: give --merges N instead of --vocab-size")
        merges = args.vocab_size - 256 - len(set(specials))
        if merges < 0:
            raise TokvizError(f"a byte-mode vocabulary holds the 256 bytes and {len(set(specials))} specials: "
                              f"--vocab-size must be at least {256 + len(set(specials))}")
    return TrainerConfig(mode=args.mode, merges=merges, min_frequency=args.min_frequency, pattern=args.pattern,
                         keep=args.keep, jamo=args.jamo, special_tokens=specials)


def _export(model, fmt: str, dest: str):
    from tokviz.core.bpe.formats import save_model
    from tokviz.core.hf_export import write_tokenizer_json, write_vocab_txt

    if fmt == "tokenizer-json":
        return [write_tokenizer_json(model, dest)]
    if fmt == "vocab-txt":
        return [write_vocab_txt(model, dest)]
    return save_model(model, dest, fmt)


def _step_line(event, goal: int, algorithm: str) -> tuple[str, float]:
    """Progress-bar text and fraction for one step event (a StepEvent) of any trainer."""
    from tokviz.core.bpe.events import MergeStep

    if isinstance(event, MergeStep):
        return f"{event.step}/{goal}  {event.new_piece!r} ({event.count})", event.step / max(1, goal)
    size = event.vocab_size
    growing = algorithm == "wordpiece"  # grows towards the goal; unigram shrinks towards it
    frac = (size / goal if growing else goal / size) if size and goal else 0.0
    return f"step {event.step}  {event.description}", frac


def run(args) -> int:
    from tokviz.core.bpe.corpus import corpus_size, read_corpus_blocks
    from tokviz.core.jamo import decompose_lines
    from tokviz.core.training import Finished, Progress, StepEvent
    from tokviz.core.word_counts import CountingNote

    _check_exports(args)
    trainer = _make_trainer(args)
    lines = read_corpus_blocks(args.corpus, errors=args.errors)
    if args.jamo and args.algorithm != "bpe":  # the BPE trainer decomposes the distinct words it counts
        lines = decompose_lines(lines)
    total = corpus_size(args.corpus)
    bar = _ProgressBar(sys.stderr, not args.quiet)
    goal = trainer.config.merges if args.algorithm == "bpe" else trainer.config.vocab_size

    interrupted = {"flag": False}

    def on_sigint(signum, frame):
        if interrupted["flag"]:  # a second Ctrl-C: stop right now
            raise KeyboardInterrupt
        interrupted["flag"] = True

    previous = signal.signal(signal.SIGINT, on_sigint) if _main_thread() else None
    started = time.monotonic()
    last_step = None
    steps = 0
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
                elif event.phase == "training":
                    pass  # a round still computing: the step line stays as it is
                elif event.total:
                    bar.show(f"indexing {_bar(event.done / event.total)}", force=event.done == 0,
                             plain_key="indexing")
                else:
                    bar.show("indexing ...", force=True, plain_key="indexing")
            elif isinstance(event, CountingNote):
                bar.note(event.text)
            elif isinstance(event, Finished):
                finished = event
            elif isinstance(event, StepEvent):
                last_step = event
                steps += 1
                text, frac = _step_line(event, goal, args.algorithm)
                bar.show(f"steps    {_bar(frac)} {text}"[:160], plain_key="steps")
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
    if args.jamo:
        model.settings["jamo"] = True
    # Write the exports before printing anything: a closed stdout (`| head`) must not cost the model.
    written_by_format = [(fmt, _export(model, fmt, dest)) for fmt, dest in args.export]
    out = sys.stdout
    if args.algorithm == "bpe":
        _bpe_summary(trainer.config, model, finished, last_step, out)
    else:
        _vocab_summary(args.algorithm, model, finished, steps, out)
    if args.jamo:
        print("jamo          Hangul syllables decomposed into conjoining jamo before counting", file=out)
    print(f"time          {elapsed:.1f} s", file=out)
    for fmt, written in written_by_format:
        for path in written:
            print(f"wrote         {path} ({fmt})", file=out)
        if args.algorithm != "bpe" or fmt in HF_FORMATS:
            continue
        # a rank file cannot record its pre-split pattern (tokviz asks for it rather than guessing); a
        # GPT-2 pair is read with the GPT-4 pattern unless told otherwise
        needs_pattern = fmt == "tiktoken" or (fmt == "gpt2" and args.pattern != "gpt4")
        pattern = f" --pattern {args.pattern}" if needs_pattern else ""
        # the model reads jamo: a file that does not record it needs the text decomposed too
        jamo = " --jamo" if args.jamo and fmt != "tokviz" else ""
        print(f"              try: tokviz encode --model {written[0]}{pattern}{jamo} \"your text\"", file=out)
    return 0


def _shown(piece: str) -> str:
    from tokviz.core.jamo import recompose

    return repr(recompose(piece))


def _bpe_summary(config, model, finished, last_step, out) -> None:
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
        first = ", ".join(_shown(model.token_piece(t)) for _, _, t in model.merges[:8])
        print(f"first merges  {first}", file=out)


def _vocab_summary(algorithm: str, model, finished, steps: int, out) -> None:
    print(f"algorithm     {algorithm}", file=out)
    print(f"steps         {steps:,} ({_reason(finished)})", file=out)
    print(f"vocabulary    {model.vocab_size:,} tokens", file=out)
    if algorithm == "wordpiece":
        learned = model.vocab[len(model.vocab) - min(8, len(model.vocab)):]
        print(f"last learned  {', '.join(_shown(p) for p in learned)}", file=out)
    else:
        best = [p for p in model.pieces if p not in model.special_tokens()][:8]
        print(f"best pieces   {', '.join(_shown(p) for p in best)}", file=out)


def _reason(finished) -> str:
    if finished.reason == "merges":
        return "done"
    return finished.message or finished.reason


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()
