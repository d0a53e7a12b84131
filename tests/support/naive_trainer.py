"""A slow, obviously-correct byte-level BPE trainer producing the trainer's events, and the small
mixed Hangul/English/emoji text it is run on: a stand-in whose speed and failures tests control."""

from __future__ import annotations

import time
from collections import Counter

import regex

from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.pretokenize import PATTERNS
from tokviz.core.training import Finished, Progress
from tokviz.ui.train_replay import byte_piece

TEXT = "안녕하세요 안녕 안녕히 가세요\nlow lower lowest newer wider\n안녕 😀😀 print(x) print(y)\n" * 3


class NaiveTrainer:
    """A slow, obviously-correct byte-level BPE producing the trainer's events (a stand-in used to
    test the panel's plumbing with controllable delays and failures)."""

    def __init__(self, config: TrainerConfig, *, delay: float = 0.0, fail_at: int | None = None):
        self.config = config
        self.delay = delay
        self.fail_at = fail_at
        self.merges: list[tuple[int, int, int]] = []
        self.thread_names: set[str] = set()

    def run(self, lines, *, cancel=None, total_bytes=None):
        import threading

        self.thread_names.add(threading.current_thread().name)
        pattern = PATTERNS[self.config.pattern]
        words: Counter = Counter()
        done = 0
        for line in lines:
            done += len(line.encode("utf-8"))
            for chunk in regex.findall(pattern, line) if pattern else [line]:
                words[tuple(chunk.encode("utf-8"))] += 1
            yield Progress("counting", done, total_bytes)
        corpus_chars = sum(len(bytes(w).decode("utf-8")) * c for w, c in words.items())
        token_bytes = {i: bytes([i]) for i in range(256)}
        for step in range(1, self.config.merges + 1):
            if cancel is not None and cancel():
                yield Finished("cancelled", step - 1)
                return
            if self.fail_at == step:
                raise RuntimeError("injected failure in the trainer")
            if self.delay:
                time.sleep(self.delay)
            pairs: Counter = Counter()
            for w, c in words.items():
                for p in zip(w, w[1:], strict=False):
                    pairs[p] += c
            if not pairs:
                yield Finished("exhausted", step - 1)
                return
            (a, b), count = max(pairs.items(), key=lambda kv: (kv[1], [-x for x in kv[0]]))
            if count < self.config.min_frequency:
                yield Finished("min_frequency", step - 1)
                return
            new = 255 + step
            token_bytes[new] = token_bytes[a] + token_bytes[b]
            merged: Counter = Counter()
            for w, c in words.items():
                out, i = [], 0
                while i < len(w):
                    if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                        out.append(new)
                        i += 2
                    else:
                        out.append(w[i])
                        i += 1
                merged[tuple(out)] += c
            words = merged
            self.merges.append((a, b, new))
            yield MergeStep(
                step,
                new,
                a,
                b,
                byte_piece(token_bytes[a]),
                byte_piece(token_bytes[b]),
                byte_piece(token_bytes[new]),
                token_bytes[new],
                count,
                256 + step,
                sum(len(w) * c for w, c in words.items()),
                corpus_chars,
            )
        yield Finished("merges", self.config.merges)

    def encode_chunk(self, data: bytes, step: int) -> list[int]:
        """Apply merges 1..step in order (the definition the replay must match)."""
        parts = list(data)
        for a, b, new in self.merges[:step]:
            out, i = [], 0
            while i < len(parts):
                if i + 1 < len(parts) and parts[i] == a and parts[i + 1] == b:
                    out.append(new)
                    i += 2
                else:
                    out.append(parts[i])
                    i += 1
            parts = out
        return parts

    def model(self, step=None):
        return NaiveModel(self, len(self.merges) if step is None else step)


class NaiveModel:
    family = "tokviz-bpe"
    source = "trained in tokviz"
    byte_level = True

    def __init__(self, trainer: NaiveTrainer, step: int):
        self.trainer = trainer
        self.step = step
        self.name = f"tokviz BPE (step {step})"

    @property
    def vocab_size(self) -> int:
        return 256 + self.step
