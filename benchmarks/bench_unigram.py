"""Unigram, WordPiece and jamo BPE against their peers, in one run, as ratios.

    python benchmarks/bench_unigram.py [--corpus ../shared/corpora/nsmc_train_20k.txt] [--vocab 4000 8000]
                                       [--skip-unigram] [--repeat N] [--long-word CHARS]

- Unigram: tokviz's trainer vs sentencepiece's unigram trainer on the same corpus and vocabulary size
  (character_coverage 1.0, identity normalization; sentencepiece on all cores, then on one): wall
  time, and tokens per character on held-out lines (the last 10% of the corpus, not trained on)
  encoded by each side's own model.
- WordPiece and jamo BPE: time against tokviz's own char BPE with the same number of new tokens
  (the issue's "within 1.5x of the BPE trainer"), and WordPiece against HF tokenizers' WordPieceTrainer
  (which trains BPE's frequency rule, not the likelihood score: a speed reference only). Jamo BPE's
  time includes decomposing the Hangul. With ``--repeat N`` the three tokviz trainers run N times,
  interleaved, and the median ratio is printed (the machine is shared: one run's ratio is noisy).
- ``--long-word CHARS``: WordPiece on one word of that many Hangul characters (no spaces), merges per
  second (a merge must cost the pair's occurrences, not the word's length).

Prints a table with ratios (tokviz / peer: below 1.0 is faster or fewer tokens).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "nsmc_train_20k.txt"


def _timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def tokviz_unigram(lines, vocab):
    from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer

    trainer = UnigramTrainer(UnigramConfig(vocab_size=vocab))
    for _ in trainer.run(lines):
        pass
    return trainer.model()


def spm_unigram(path, vocab, workdir, threads):
    import sentencepiece as spm

    prefix = os.path.join(workdir, f"spm{vocab}-{threads}")
    spm.SentencePieceTrainer.train(
        input=path, model_prefix=prefix, vocab_size=vocab, model_type="unigram", character_coverage=1.0,
        normalization_rule_name="identity", num_threads=threads, minloglevel=2,
        max_sentence_length=1 << 20, bos_id=1, eos_id=2, unk_id=0,
    )
    return spm.SentencePieceProcessor(model_file=prefix + ".model")


def tokens_per_char(encode, lines) -> float:
    chars = sum(len(line) for line in lines)
    return sum(len(encode(line)) for line in lines) / max(1, chars)


def bpe_time(lines, merges, jamo=False):
    """Seconds to train char BPE with ``merges`` merges; with ``jamo`` on Hangul decomposed into jamo,
    as ``tokviz train --jamo`` does (the trainer decomposes the words it counted: timed too)."""
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.bpe.trainer import BPETrainer

    trainer = BPETrainer(TrainerConfig(mode="char", merges=merges, min_frequency=2, jamo=jamo))
    _, seconds = _timed(lambda: [None for _ in trainer.run(lines)])
    return seconds


def wordpiece(lines, vocab):
    from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer

    trainer = WordPieceTrainer(WordPieceConfig(vocab_size=vocab))
    for _ in trainer.run(lines):
        pass
    return trainer


def hf_wordpiece(lines, vocab):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
                                        min_frequency=0, show_progress=False)
    tok.train_from_iterator(lines, trainer)
    return tok


def unigram_rows(rows, train, held, path, vocab, workdir):
    """Unigram against sentencepiece (all threads, then one): time and held-out tokens per character."""
    model, t_ours = _timed(tokviz_unigram, train, vocab)
    tpc_ours = tokens_per_char(lambda s, m=model: m.encode(s.rstrip("\n")).ids, held)
    cores = os.cpu_count() or 1
    for threads in sorted({1, cores}, reverse=True):
        sp, t_sp = _timed(spm_unigram, path, vocab, workdir, threads)
        tpc_sp = tokens_per_char(lambda s, p=sp: p.encode(s.rstrip("\n")), held)
        rows.append((f"unigram {vocab}", t_ours, f"sentencepiece ({threads} thread{'s' * (threads > 1)})",
                     t_sp, tpc_ours / tpc_sp))


def long_word_rate(lines, chars):
    """WordPiece merges per second on one word of ``chars`` Hangul characters taken from ``lines``."""
    import re

    from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceStep, WordPieceTrainer

    hangul = "".join(re.findall("[\uac00-\ud7a3]+", "".join(lines)))
    word = (hangul * (chars // max(1, len(hangul)) + 1))[:chars]
    trainer = WordPieceTrainer(WordPieceConfig(vocab_size=20_000))
    t0 = time.perf_counter()
    first, merges = None, 0
    for event in trainer.run([word]):
        if isinstance(event, WordPieceStep):
            merges += 1
            first = first or time.perf_counter()
            if time.perf_counter() - first > 20:
                break
    end = time.perf_counter()
    return len(word), (first or end) - t0, merges, end - (first or end)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=Path(os.environ.get("TOKVIZ_BENCH_CORPUS", DEFAULT_CORPUS)))
    ap.add_argument("--vocab", type=int, nargs="+", default=[4000, 8000])
    ap.add_argument("--skip-unigram", action="store_true", help="only WordPiece and jamo BPE against BPE")
    ap.add_argument("--repeat", type=int, default=1, help="runs of the three tokviz trainers (median ratio)")
    ap.add_argument("--long-word", type=int, default=0, metavar="CHARS",
                    help="also time WordPiece on one word of CHARS characters")
    args = ap.parse_args()
    text = args.corpus.read_text(encoding="utf-8")
    all_lines = [line + "\n" for line in text.splitlines() if line.strip()]
    cut = len(all_lines) * 9 // 10
    train, held = all_lines[:cut], all_lines[cut:]
    print(f"corpus {args.corpus.name}: {len(train):,} training lines, {len(held):,} held out; "
          f"{os.cpu_count()} cores (tokviz trains on one; sentencepiece on all, then on one)")
    rows, targets = [], []
    long_word = None
    with tempfile.TemporaryDirectory() as workdir:
        path = os.path.join(workdir, "train.txt")
        Path(path).write_text("".join(train), encoding="utf-8")
        for vocab in args.vocab:
            if not args.skip_unigram:
                unigram_rows(rows, train, held, path, vocab, workdir)
            wp, t_wp = _timed(wordpiece, train, vocab)
            _, t_hf = _timed(hf_wordpiece, train, vocab)
            learned = len(wp.vocab) - len(wp.config.special_tokens) - wp.alphabet_size
            wp_ratios, jamo_ratios = [], []
            for k in range(args.repeat):
                if k:
                    _, t_wp = _timed(wordpiece, train, vocab)
                t_bpe = bpe_time(train, learned)
                t_jamo = bpe_time(train, learned, jamo=True)
                wp_ratios.append(t_wp / t_bpe)
                jamo_ratios.append(t_jamo / t_bpe)
            rows.append((f"wordpiece {vocab}", t_wp, "HF WordPieceTrainer", t_hf, None))
            rows.append((f"wordpiece {vocab}", t_wp, f"tokviz char BPE ({learned:,} merges)", t_bpe, None))
            rows.append((f"jamo BPE {learned:,}", t_jamo, "tokviz char BPE", t_bpe, None))
            targets.append((vocab, learned, wp_ratios, jamo_ratios))
        if args.long_word:
            long_word = long_word_rate(train, args.long_word)
    print(f"{'what':<18} {'tokviz s':>9}  {'peer':<32} {'peer s':>8}  {'time ratio':>10}  {'tokens/char ratio':>17}")
    for what, ours, peer, theirs, tpc in rows:
        tpc_text = f"{tpc:17.3f}" if tpc is not None else f"{'':>17}"
        print(f"{what:<18} {ours:9.2f}  {peer:<32} {theirs:8.2f}  {ours / theirs:9.2f}x  {tpc_text}")
    print("\ntarget: WordPiece and jamo BPE within 1.5x of char BPE's time with the same number of new tokens")
    for vocab, learned, wp_ratios, jamo_ratios in targets:
        for what, ratios in (("WordPiece / BPE", wp_ratios), ("jamo BPE / BPE", jamo_ratios)):
            median = statistics.median(ratios)
            runs = ", ".join(f"{r:.2f}" for r in ratios)
            print(f"  vocab {vocab} ({learned:,} merges)  {what:<16} {median:5.2f}x  "
                  f"({'within' if median <= 1.5 else 'OVER'} 1.5x; runs: {runs})")
    if long_word is not None:
        n, setup, merges, seconds = long_word
        print(f"\nWordPiece on one {n:,}-character word: {setup:.1f} s to count and index, "
              f"{merges:,} merges in {seconds:.1f} s ({merges / max(seconds, 1e-9):,.0f} merges/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
