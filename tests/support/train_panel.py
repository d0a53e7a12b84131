"""Reading the Train panel in tests: the merge banner as the user reads it and what it must say, and a
small corpus with the core trainer's own merges to check the panel against."""

from __future__ import annotations

import re

from PySide6.QtGui import QTextDocument

from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.byte_names import name_merge
from tokviz.ui.train.vocab import elide_piece, visible_piece

LINES = [
    "안녕하세요 여러분 오늘은 토크나이저를 배워요\n",
    "토크나이저는 글자를 조각으로 나눕니다 안녕 안녕히 가세요\n",
    "the lower newest widest lowest tokenizer tokens\n",
    "def merge(pair, tokens): return [t for t in tokens] 🙂🙂\n",
    "영화가 정말 재미있어요 영화 최고 재미없는 영화는 싫어요 😀\n",
] * 6
TEXT = "".join(LINES)


def open_train_panel(qtbot):
    """A shown main window's Train panel (the window is closed with the test)."""
    from tokviz.ui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    return win.show_view("train")


def save_and_wait(qtbot, panel, path, fmt: str, save=None) -> list:
    """Save the panel's model at the step on screen (``save``: ``panel.save_model_to`` unless given,
    e.g. the algorithms') and wait until the save, made in the background, has ended: the files written
    ([] when none)."""
    with qtbot.waitSignal(panel.model_at_step.saver.ended, timeout=30_000) as ended:
        (save or panel.save_model_to)(str(path), fmt)
    return ended.args[0]


def core_steps(config: TrainerConfig, lines) -> tuple[BPETrainer, list[MergeStep]]:
    """tokviz's core BPE trained on ``lines`` with ``config``, and its merge steps."""
    trainer = BPETrainer(config)
    return trainer, [e for e in trainer.run(lines) if isinstance(e, MergeStep)]


def banner_text(panel) -> str:
    """The merge banner as the user reads it (rich text to plain, runs of spaces as one)."""
    doc = QTextDocument()
    doc.setHtml(panel.merge_banner.text())
    return " ".join(doc.toPlainText().replace("\xa0", " ").split())


def piece_bytes(piece: str) -> bytes:
    """A byte-mode display piece back to its bytes (``<0xEA>`` is one byte, other text its UTF-8)."""
    return b"".join(bytes([int(m[3:5], 16)]) if m.startswith("<0x") else m.encode("utf-8")
                    for m in re.findall(r"<0x[0-9A-F]{2}>|.", piece, flags=re.S))


def merge_banner_line(step, panel=None) -> str:
    """What the banner must say for MergeStep ``step``: the pair, what it became, count and rank.

    With ``panel`` in byte mode, a merge of bytes that are not whole characters is named by its
    characters (``것 bytes 1–2 of 3``, the core's naming with the panel's corpus guesser) with the
    hex beneath each side, and says which character it completes."""
    numbers = (f"count {step.count:,} · rank {step.step:,} · "
               f"vocab {step.vocab_size:,} · corpus {step.corpus_tokens:,} tokens")
    left, right, new = (visible_piece(p) for p in (step.left_piece, step.right_piece, step.new_piece))
    if panel is None or panel.replay.mode != "byte":
        return f"{left} + {right} → {new} {numbers}"
    guesser = panel.corpus_facts.guesser if panel.corpus_facts is not None else None
    name = name_merge(piece_bytes(step.left_piece), piece_bytes(step.right_piece), guesser=guesser)
    if all(p.whole for p in (*name.left, *name.right)):
        return f"{left} + {right} → {new} {numbers}"

    def label(parts) -> str:
        runs = []
        for i, p in enumerate(parts):
            if p.whole and i and parts[i - 1].whole:
                runs[-1] += visible_piece(p.char)
            else:
                runs.append(visible_piece(p.char) if p.whole else p.label)
        return " ".join(elide_piece(r) if "of" not in r else r for r in runs)

    cells = [label(name.left), "+", label(name.right), "→", label(name.new)]
    if name.completes:
        cells.append(f"completes {''.join(name.completes)}")
    hexes = [" ".join(p.hex for p in side) for side in (name.left, name.right, name.new)]
    return " ".join(cells + hexes + [numbers])


def train_to_the_end(window, qtbot, text: str = TEXT, merges: int = 60):
    """``window``'s Train panel trained on ``text`` by the core trainer itself (in the worker thread, no
    child process) at full speed, shown at its last step."""
    from tokviz.ui.train.corpus import CorpusSource
    from tokviz.ui.train.views import SPEEDS

    panel = window.show_view("train")
    panel.trainer_factory = BPETrainer
    panel.set_source(CorpusSource.paste(text))
    panel.merges_spin.setValue(merges)
    panel.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
    panel.start_training()
    assert panel.wait_until_trained(30)
    qtbot.waitUntil(lambda: panel.cursor == len(panel.replay) > 0, timeout=3000)
    return panel

