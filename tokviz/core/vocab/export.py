"""A rank vocabulary as a tokviz BPE model: the recovered merges in rank order, so tokviz's own merge
engine (the tree, the replay, BPE-dropout) runs on cl100k_base or Llama 4.

tokviz numbers byte-mode tokens as byte value (0–255) then ``256 + merge index``; the rank file's ids
differ (cl100k_base's rank 0 is ``!``), so the model records ``original_ids`` (tokviz id → rank
file id) in its settings. Token bytes and the order of merges are the rank file's, and tokviz merges
by the rank of the concatenated bytes with tiktoken's whole-piece shortcut (see
:mod:`tokviz.core.bpe.modes`), so encoding any text gives the same tokens as the rank encoder.

An unbuilt token (no merge of two lower tokens builds it) still needs a place in the rank order,
since tiktoken returns a pre-split piece that is exactly that token as one token: it is given some
split into two lower-ranked tokens, and the model's settings list it under ``unbuilt`` so a merge
tree shows it as "not reachable by merges" rather than trusting that split.
"""

from __future__ import annotations

import weakref

from tokviz.core.bpe.model import BPEModel
from tokviz.core.errors import TokvizError
from tokviz.core.pretokenize import PATTERNS
from tokviz.core.vocab.encoder_merges import recover_merges
from tokviz.core.vocab.merges import RecoveredMerges


def pattern_name(encoder) -> str:
    """The tokviz pattern name of a rank encoder's pre-split regex; TokvizError when tokviz models
    cannot name it (the tokviz format stores pattern names only)."""
    pattern = getattr(encoder, "pattern", None)
    for key, value in PATTERNS.items():
        if value is not None and value == pattern:
            return key
    raise TokvizError(f"{encoder.name} splits text with a pattern tokviz models cannot name yet (known: "
                      f"{', '.join(k for k, v in PATTERNS.items() if v)}); its merges can be listed but not "
                      "exported as a tokviz model that encodes exactly like it")


def exportable_pattern(encoder) -> str:
    """The pattern name an export of ``encoder`` would use; TokvizError, before any work is done,
    when no tokviz model can encode exactly like it."""
    if getattr(encoder, "nfc", False):
        raise TokvizError(f"{encoder.name} normalizes text to NFC before encoding, which tokviz models do not; "
                          "it cannot be exported as one that encodes exactly like it")
    return pattern_name(encoder)


def export_bpe_model(encoder, rec: RecoveredMerges) -> BPEModel:
    """A byte-mode :class:`BPEModel` that encodes like ``encoder`` (see the module docstring)."""
    return _bpe_model(encoder, rec, exportable_pattern(encoder))


def _bpe_model(encoder, rec: RecoveredMerges, pattern: str) -> BPEModel:
    tb = rec.token_bytes
    singles = {b[0]: r for r, b in tb.items() if len(b) == 1}
    new_id = {r: v for v, r in singles.items()}
    parents = dict(rec.children)
    multi = sorted(r for r, b in tb.items() if len(b) > 1)
    lower: dict[bytes, int] = {tb[r]: r for r in singles.values()}
    for r in multi:
        if r not in parents:
            parents[r] = _some_split(tb[r], lower, encoder.name, r)
        lower[tb[r]] = r
    merges = []
    for k, r in enumerate(multi):
        a, b = parents[r]
        new_id[r] = 256 + k
        merges.append((new_id[a], new_id[b], 256 + k))
    original = [0] * (256 + len(multi))
    for r, v in new_id.items():
        original[v] = r
    specials = sorted(encoder.special_tokens().items(), key=lambda kv: kv[1])
    original += [i for _, i in specials]
    settings = {"recovered_from": encoder.name, "original_ids": original,
                "unbuilt": [new_id[r] for r in rec.unbuilt]}
    return BPEModel(mode="byte", pattern=pattern, merges=merges, special_tokens=[s for s, _ in specials],
                    settings=settings, name=f"{encoder.name} (recovered merges)", source=encoder.source)


def _some_split(data: bytes, lower: dict[bytes, int], name: str, rank: int) -> tuple[int, int]:
    for cut in range(1, len(data)):
        a, b = lower.get(data[:cut]), lower.get(data[cut:])
        if a is not None and b is not None:
            return a, b
    raise TokvizError(f"{name}: token {rank} ({data!r}) splits into no two lower-ranked tokens; a tokviz model "
                      "cannot hold it")


class RankDropout:
    """A rank encoder that also encodes with BPE-dropout, through its recovered merges: plain
    encoding is the encoder's own; ``encode_dropout`` pre-splits with the encoder's own pattern (so
    Llama 3 and tekken work too, whose patterns a tokviz model file cannot name), runs tokviz's merge
    engine on each piece and gives back the rank encoder's ids (``p=0`` equals plain encoding, tested)."""

    def __init__(self, encoder, model: BPEModel):
        import numpy as np
        import regex

        self._encoder = encoder
        self._vocab = model.vocab
        self._original = np.asarray(model.settings["original_ids"], dtype=np.int64)
        self._split = regex.compile(encoder.pattern)
        specials = encoder.special_tokens()
        self._specials = dict(specials)
        self._special_rx = regex.compile("|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True))
                                         ) if specials else None
        self.name, self.family, self.source = encoder.name, encoder.family, encoder.source
        self.byte_level = encoder.byte_level

    @property
    def vocab_size(self) -> int:
        return self._encoder.vocab_size

    def encode(self, text: str, *, allow_special: bool = False):
        return self._encoder.encode(text, allow_special=allow_special)

    def decode(self, ids):
        return self._encoder.decode(ids)

    def special_tokens(self):
        return self._encoder.special_tokens()

    def token_bytes(self, token_id: int) -> bytes:
        return self._encoder.token_bytes(token_id)

    def _segments(self, text: str, allow_special: bool):
        """(segment, special id or None) in order; special strings are text unless ``allow_special``."""
        pos = 0
        if allow_special and self._special_rx is not None:
            for m in self._special_rx.finditer(text):
                if m.start() > pos:
                    yield text[pos:m.start()], None
                yield m.group(), self._specials[m.group()]
                pos = m.end()
        if pos < len(text):
            yield text[pos:], None

    def encode_dropout(self, text: str, p: float, seed: int | None = None, *, allow_special: bool = False):
        import random

        from tokviz.core.encoding import Encoding
        from tokviz.core.errors import check_text

        check_text(text)
        if not 0.0 <= p <= 1.0:
            raise TokvizError(f"dropout probability must be between 0 and 1, got {p}")
        rng = random.Random(seed)
        tokens: list[tuple[int, bytes]] = []
        kinds: list[str] = []
        token_bytes = self._vocab.token_bytes
        for segment, special in self._segments(text, allow_special):
            if special is not None:
                tokens.append((special, segment.encode("utf-8")))
                kinds.append("special")
                continue
            for piece in self._split.findall(segment):
                for i in self._vocab.piece_ids(piece, None, p, rng):
                    tokens.append((int(self._original[i]), token_bytes[i]))
                    kinds.append("normal")
        return Encoding.from_byte_tokens(self.name, text, tokens, kinds=kinds)


_dropout: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def dropout_by_recovery(encoder) -> bool:
    """Whether :func:`with_dropout` can give ``encoder`` BPE-dropout: a byte-level rank vocabulary
    that does not normalize text first (Qwen's NFC is refused)."""
    from tokviz.core.vocab.ranks import HasRanks

    return isinstance(encoder, HasRanks) and not getattr(encoder, "nfc", False)


def with_dropout(encoder, state=None) -> RankDropout:
    """``encoder`` able to encode with BPE-dropout (cached per encoder object: building it recovers
    every merge, seconds for o200k). TokvizError for an encoder that normalizes text (Qwen's NFC)."""
    hit = _dropout.get(encoder)
    if hit is None:
        if getattr(encoder, "nfc", False):  # refuse before seconds of recovery
            exportable_pattern(encoder)
        model = _bpe_model(encoder, recover_merges(encoder, state), "none")
        hit = _dropout[encoder] = RankDropout(encoder, model)
    return hit
