"""One text through several encoders: each encoder's outcome (its Encoding and Metrics, or the error
it raised) and where a round trip went wrong. One encoder failing never stops the others."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tokviz.core.compare.paragraphs import ParagraphCache
from tokviz.core.encoders.base import Encoder
from tokviz.core.encoding import Encoding
from tokviz.core.errors import TokvizError, check_text, message_of
from tokviz.core.metrics import Metrics, TextDifference, measure, round_trip_diff


def describe_failure(err: BaseException) -> str:
    """A one-line message for an encoder that failed: TokvizError messages are already for users;
    anything else is a bug in an adapter, named by its type so it can be reported. A message core
    worded as a sentence keeps it (a view shows it translated)."""
    if isinstance(err, TokvizError):
        return message_of(err)
    return f"{type(err).__name__}: {err}"


@dataclass(frozen=True)
class EncoderOutcome:
    """What one encoder made of one text: its Encoding and Metrics, or the error it raised."""

    encoder: str
    encoding: Encoding | None = None
    metrics: Metrics | None = None
    decoded: str | None = None
    differences: tuple[TextDifference, ...] = ()
    vocab_size: int | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def as_json(self) -> dict:
        """The CLI's JSON entry: metrics, or ``{"encoder", "error"}`` for a failing encoder."""
        if self.metrics is None:
            return {"encoder": self.encoder, "error": self.error}
        m = self.metrics.as_json()
        out = {
            "encoder": self.encoder,
            "tokens": m["tokens"],
            "chars_per_token": m["chars_per_token"],
            "bytes_per_token": m["bytes_per_token"],
            "words": m["words"],
            "fertility": m["fertility"],
            "continued_share": m["continued_share"],
            "partial_tokens": m["partial_tokens"],
            "fallback_tokens": m["fallback_tokens"],
            "unknown_tokens": m["unknown_tokens"],
            "round_trip": m["round_trip"],
            "vocab_size": self.vocab_size,
        }
        if self.differences:
            out["round_trip_differences"] = [d.describe() for d in self.differences]
        return out


def encode_outcome(encoder: Encoder, text: str, cache: ParagraphCache | None = None) -> EncoderOutcome:
    """Encode ``text`` with one encoder; any failure becomes an outcome with ``error`` set.

    ``cache`` (a :class:`ParagraphCache`) re-uses unchanged paragraphs of long texts.
    The round trip is judged on what ``decode(ids)`` gives back, so a normalizer (SentencePiece
    NFKC) or an ``<unk>`` shows up as a difference even when the token bytes look right.
    """
    name = getattr(encoder, "name", str(encoder))
    try:
        vocab = encoder.vocab_size
    except Exception:  # a broken adapter still gets its row
        vocab = None
    try:
        encoding = cache.encode(encoder, text) if cache is not None else encoder.encode(text)
        decoded = encoder.decode(encoding.ids)
        metrics = measure(encoding, decoded)
    except Exception as err:  # noqa: BLE001 - one encoder's failure must not stop the others
        return EncoderOutcome(name, vocab_size=vocab, error=describe_failure(err))
    diffs = tuple(local_differences(text, decoded)) if not metrics.round_trip else ()
    return EncoderOutcome(name, encoding, metrics, decoded, diffs, vocab)


DIFF_LIMIT = 50
DIFF_WINDOW = 48


def local_differences(original: str, decoded: str, *, limit: int = DIFF_LIMIT,
                      window: int = DIFF_WINDOW) -> list[TextDifference]:
    """The first ``limit`` places where ``decoded`` differs from ``original``, found window by window.

    A full diff (``round_trip_diff``) is quadratic and takes seconds on a 10,000-character text whose
    every newline a normalizer turned into a space. Round-trip differences are local (a normalized
    character, a lost ``<unk>``), so this walks both texts together: skip the equal run, diff only a
    small window at the first mismatch, record its first difference, resume after it. On short texts
    it gives the same answer as the full diff; on long ones it may pair characters differently
    where differences are dense, but every reported span is a true difference.

    >>> [d.describe() for d in local_differences("ｈi 😀!", "hi  ⁇ !")]
    ["at 0: 'ｈ' became 'h'", "at 3: '😀' became ' ⁇ '"]
    """
    if len(original) + len(decoded) <= 2 * window:
        return round_trip_diff(original, decoded)[:limit]
    out: list[TextDifference] = []
    i = j = 0
    n, m = len(original), len(decoded)
    while len(out) < limit and (i < n or j < m):
        while i < n and j < m and original[i] == decoded[j]:
            i += 1
            j += 1
        if i >= n and j >= m:
            break
        a, b = original[i:i + window], decoded[j:j + window]
        diffs = round_trip_diff(a, b)
        if not diffs:
            break
        d = diffs[0]
        out.append(TextDifference(d.op, i + d.start, i + d.end, j + d.decoded_start, j + d.decoded_end,
                                  d.original, d.decoded))
        i += d.end
        j += d.decoded_end
    return out


def compare_text(encoders: Sequence[Encoder], text: str) -> list[EncoderOutcome]:
    """Every encoder's outcome on ``text``, in the order given.

    Raises InvalidTextError (before encoding anything) when the text has a lone surrogate, since
    then no encoder can run and the message is about the text, not an encoder.
    """
    check_text(text)
    return [encode_outcome(e, text) for e in encoders]
