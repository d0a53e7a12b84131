"""How an encoder splits numbers and indentation: the numbers 0–9999 and runs of 1–16 spaces or tabs.

A heatmap view colors each number by its token count and marks where the cuts fall; CSV carries the
same rows. Cuts are character offsets inside the text (``"1234"`` split ``123|4`` has cuts ``(3,)``).

>>> from tokviz.core.bpe.model import BPEModel
>>> m = BPEModel(mode="byte", pattern="gpt4", merges=[(49, 50, 256)])
>>> number_map(m, upto=13).rows[12].pieces
('12',)
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from tokviz.core.vocab.ranks import NoState, VocabState, check_cancel

MAX_NUMBERS = 100_000


@dataclass(frozen=True)
class SplitRow:
    """One text and how the encoder split it (each piece decoded, bytes of a cut character as \\xNN)."""

    label: str
    text: str
    ids: tuple[int, ...]
    pieces: tuple[str, ...]
    cuts: tuple[int, ...]

    @property
    def tokens(self) -> int:
        return len(self.ids)


@dataclass(frozen=True)
class SplitMap:
    """Rows of one map (numbers, or indentation) for one encoder."""

    encoder: str
    kind: str
    rows: tuple[SplitRow, ...]

    def csv(self) -> str:
        """``label,text,tokens,cuts,pieces,ids`` per row; cuts, pieces and ids joined with ``|`` / spaces."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["encoder", "kind", "label", "text", "tokens", "cuts", "pieces", "ids"])
        for r in self.rows:
            w.writerow([self.encoder, self.kind, r.label, r.text, r.tokens, " ".join(map(str, r.cuts)),
                        "|".join(r.pieces), " ".join(map(str, r.ids))])
        return out.getvalue()

    def histogram(self) -> dict[int, int]:
        """{token count: how many rows}."""
        out: dict[int, int] = {}
        for r in self.rows:
            out[r.tokens] = out.get(r.tokens, 0) + 1
        return dict(sorted(out.items()))


def split_row(encoder, label: str, text: str, *, ids_of=None) -> SplitRow:
    """How ``encoder`` splits ``text``. ``ids_of`` (from :func:`.table.fast_ids`) skips building an
    Encoding; only for byte-level encoders, whose token bytes spell the text exactly."""
    if ids_of is not None:
        ids = ids_of(text)
        chunks = [encoder.token_bytes(i) for i in ids]
    else:
        enc = encoder.encode(text)
        ids = [int(i) for i in enc.ids]
        chunks = [tok.bytes for tok in enc.tokens]
    data = text.encode("utf-8")
    pieces, cuts = [], []
    offset = 0
    for i, chunk in enumerate(chunks):
        pieces.append(chunk.decode("utf-8", "backslashreplace"))
        offset += len(chunk)
        if i + 1 < len(chunks):
            cuts.append(len(data[:offset].decode("utf-8", "ignore")))
    return SplitRow(label, text, tuple(ids), tuple(pieces), tuple(cuts))


def _ids_function(encoder):
    from tokviz.core.vocab.ranks import HasRanks
    from tokviz.core.vocab.table import fast_ids

    return fast_ids(encoder) if isinstance(encoder, HasRanks) else None


def number_map(encoder, upto: int = 10_000, state: VocabState | None = None) -> SplitMap:
    """How ``encoder`` splits each of the numbers ``0 .. upto - 1`` written alone."""
    from tokviz.core.errors import TokvizError

    if not 1 <= upto <= MAX_NUMBERS:
        raise TokvizError(f"the number map covers 1 to {MAX_NUMBERS:,} numbers, not {upto:,}")
    state = state or NoState()
    ids_of = _ids_function(encoder)
    rows = []
    for n in range(upto):
        if n % 1000 == 0:
            check_cancel(state)
            state.progress(n, upto)
        rows.append(split_row(encoder, str(n), str(n), ids_of=ids_of))
    state.progress(upto, upto)
    return SplitMap(encoder.name, "numbers", tuple(rows))


def indentation_map(encoder, longest: int = 16) -> SplitMap:
    """Runs of 1..``longest`` spaces and tabs, alone and as a code line's indentation (after a newline,
    before ``return x``), where the pre-split pattern treats them differently.

    >>> from tokviz.core.bpe.model import BPEModel
    >>> [r.label for r in indentation_map(BPEModel(mode="byte"), 1).rows]
    ['1 space', '1 space + code', '1 tab', '1 tab + code']
    """
    rows = []
    for name, ch in (("space", " "), ("tab", "\t")):
        for n in range(1, longest + 1):
            run = ch * n
            label = f"{n} {name}{'s' if n > 1 else ''}"
            rows.append(split_row(encoder, label, run))
            rows.append(split_row(encoder, f"{label} + code", f"\n{run}return x"))
    rows.sort(key=lambda r: (r.label.split()[1].rstrip("s"), int(r.label.split()[0]), "code" in r.label))
    return SplitMap(encoder.name, "indentation", tuple(rows))
