"""BPE's settings and its step event: the trainer yields Progress while counting, then one MergeStep
per merge, then Finished (both from :mod:`tokviz.core.training.events`, shared by every trainer).

The GUI animates these; the CLI draws a progress bar from them; tests compare them with reference
trainers. They are plain frozen dataclasses (cheap to batch and send across processes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tokviz.core.training.events import StepEvent

Mode = Literal["char", "byte"]


@dataclass(frozen=True)
class TrainerConfig:
    """Settings of one training run.

    ``mode="char"``: words split on whitespace, ``</w>`` glued to the last character (subword-nmt
    since v0.2); ``mode="byte"``: UTF-8 bytes (256 base tokens) after the regex pre-split ``pattern``
    (a name from ``tokviz.core.pretokenize.PATTERNS``). ``keep`` filters characters before counting
    (the ``"hangul"`` preset keeps only Hangul and spaces). ``jamo=True`` trains on Hangul syllables
    decomposed into conjoining jamo (NFD, :mod:`tokviz.core.jamo`): the lines are given as they are
    and the trainer decomposes the distinct words it counted, which gives the words of the
    decomposed text at a fraction of the cost of decomposing every line.
    """

    mode: Mode = "byte"
    merges: int = 1000
    min_frequency: int = 2
    pattern: str = "gpt4"
    keep: str | None = None  # None | "hangul"
    jamo: bool = False
    special_tokens: tuple[str, ...] = ()


@dataclass(frozen=True)
class MergeStep(StepEvent):
    """One merge: ``left + right -> new`` with the pair's count when it was merged.

    ``step`` is 1-based (the number of merges done including this one); ``token_id`` the new token's
    id (byte mode: 255 + step). Pieces are display strings: char mode keeps ``</w>``; byte mode
    decodes UTF-8 and writes bytes that are not whole characters as ``<0xNN>``. ``new_bytes`` are the
    new token's exact bytes (char mode: UTF-8 of the piece without ``</w>``).
    """

    step: int
    token_id: int
    left: int
    right: int
    left_piece: str
    right_piece: str
    new_piece: str
    new_bytes: bytes
    count: int
    vocab_size: int  # after the merge
    corpus_tokens: int  # tokens the whole counted corpus takes after the merge
    corpus_chars: int  # characters of the counted corpus (constant; chars/token = corpus_chars / corpus_tokens)

    @property
    def description(self) -> str:
        """One line saying what changed (the step event contract of :mod:`tokviz.core.training`).

        >>> MergeStep(1, 256, 104, 105, "h", "i", "hi", b"hi", 12, 257, 30, 40).description
        'h + i → hi (count 12)'
        """
        return f"{self.left_piece} + {self.right_piece} → {self.new_piece} (count {self.count})"

