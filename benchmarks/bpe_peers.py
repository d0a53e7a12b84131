"""Peer trainers for benchmarks/bench_bpe.py, each run as its own process (whole-process wall time).

    python benchmarks/bpe_peers.py hf-char CORPUS VOCAB_SIZE   HF tokenizers BpeTrainer, char mode
    python benchmarks/bpe_peers.py rustbpe CORPUS MERGES       rustbpe, byte mode, GPT-4 pattern
    python benchmarks/bpe_peers.py naive CORPUS MERGES         the classic recount-everything loop

Each prints one JSON line: {"merges": done, ...}.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter, defaultdict


def hf_char(corpus: str, vocab_size: int) -> dict:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(end_of_word_suffix="</w>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=2, end_of_word_suffix="</w>", show_progress=False
    )
    tok.train([corpus], trainer)
    merges = json.loads(tok.to_str())["model"]["merges"]
    return {"merges": len(merges)}


def rust_bpe(corpus: str, merges: int) -> dict:
    import rustbpe

    sys.path.insert(0, ".")
    from tokviz.core.pretokenize import GPT4_PATTERN  # same pattern as tokviz, so the same work

    with open(corpus, encoding="utf-8") as f:
        text = f.read()
    tok = rustbpe.Tokenizer()
    tok.train_from_iterator([text], 256 + merges, pattern=GPT4_PATTERN)
    return {"merges": tok.vocab_size - 256}


def naive(corpus: str, merges: int) -> dict:
    """The classic tutorial loop: recount every pair of every word, then rewrite every word."""
    with open(corpus, encoding="utf-8") as f:
        words = Counter(f.read().split())
    vocab = {" ".join(w[:-1]) + (" " if len(w) > 1 else "") + w[-1] + "</w>": c for w, c in words.items()}
    started = time.perf_counter()
    for _ in range(merges):
        pairs: defaultdict = defaultdict(int)
        for word, freq in vocab.items():
            symbols = word.split()
            for i in range(len(symbols) - 1):
                pairs[symbols[i], symbols[i + 1]] += freq
        best = max(pairs, key=pairs.get)
        pattern = re.compile(r"(?<!\S)" + re.escape(" ".join(best)) + r"(?!\S)")
        vocab = {pattern.sub("".join(best), w): c for w, c in vocab.items()}
    per_merge = (time.perf_counter() - started) / merges
    return {"merges": merges, "seconds_per_merge": per_merge}


def main() -> None:
    job, corpus, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    result = {"hf-char": hf_char, "rustbpe": rust_bpe, "naive": naive}[job](corpus, n)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
