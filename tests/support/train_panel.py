"""Reading the Train panel in tests: the merge banner as the user reads it and what it must say, and a
small corpus with the core trainer's own merges to check the panel against."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument

from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.ui.train.vocab import visible_piece

LINES = [
    "안녕하세요 여러분 오늘은 토크나이저를 배워요\n",
    "토크나이저는 글자를 조각으로 나눕니다 안녕 안녕히 가세요\n",
    "the lower newest widest lowest tokenizer tokens\n",
    "def merge(pair, tokens): return [t for t in tokens] 🙂🙂\n",
    "영화가 정말 재미있어요 영화 최고 재미없는 영화는 싫어요 😀\n",
] * 6
TEXT = "".join(LINES)


def core_steps(config: TrainerConfig, lines) -> tuple[BPETrainer, list[MergeStep]]:
    """tokviz's core BPE trained on ``lines`` with ``config``, and its merge steps."""
    trainer = BPETrainer(config)
    return trainer, [e for e in trainer.run(lines) if isinstance(e, MergeStep)]


def banner_text(panel) -> str:
    """The merge banner as the user reads it (rich text to plain, runs of spaces as one)."""
    doc = QTextDocument()
    doc.setHtml(panel.merge_banner.text())
    return " ".join(doc.toPlainText().replace("\xa0", " ").split())


def merge_banner_line(step) -> str:
    """What the banner must say for MergeStep ``step``: the pair, what it became, count and rank."""
    left, right, new = (visible_piece(p) for p in (step.left_piece, step.right_piece, step.new_piece))
    return (
        f"{left} + {right} → {new} count {step.count:,} · rank {step.step:,} · "
        f"vocab {step.vocab_size:,} · corpus {step.corpus_tokens:,} tokens"
    )
