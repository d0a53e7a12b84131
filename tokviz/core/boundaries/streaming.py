"""Streaming decode: what a program can print after each token when a model emits ids one by one.

A byte-level model may emit the three bytes of 안 in separate tokens. A naive streamer decodes each
token on its own and prints ``�`` for every piece of a character; an incremental UTF-8 decoder holds
the bytes of an unfinished character back (``pending``) and prints the character once it is whole.
Invalid bytes (a byte that can never start or continue a character) are printed as ``�`` at once,
as Python's incremental decoder does with ``errors="replace"``.

>>> [s.emitted for s in replay_bytes([b"\\xec\\x95", b"\\x88!"])]
['', '안!']
>>> [s.naive for s in replay_bytes([b"\\xec\\x95", b"\\x88!"])]
['�', '�!']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat

from tokviz.core.boundaries.vocabulary import check_ids


@dataclass(frozen=True)
class StreamStep:
    """One token of a replay: its ``id`` and ``bytes``, the text an incremental decoder prints after it
    (``emitted``), the bytes it still holds back (``pending``), and what decoding the token alone
    prints (``naive``)."""

    id: int | None
    bytes: bytes
    emitted: str
    pending: bytes
    naive: str

    def as_json(self) -> dict:
        return {"id": self.id, "bytes": self.bytes.hex(" "), "emitted": self.emitted,
                "pending": self.pending.hex(" "), "naive": self.naive}


def _needed(lead: int) -> int:
    """Bytes in the character a lead byte starts (0 for a byte that starts none)."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _second_ok(lead: int, second: int) -> bool:
    # UTF-8 forbids overlong forms and code points past U+10FFFF: E0, F0 and F4 narrow the second
    # byte's range, so "E0 80" is invalid at once rather than pending. ED A0..BF (a surrogate) is held
    # back like CPython's decoder does (an error handler such as surrogatepass could still take it).
    lo, hi = {0xE0: (0xA0, 0xBF), 0xF0: (0x90, 0xBF), 0xF4: (0x80, 0x8F)}.get(lead, (0x80, 0xBF))
    return lo <= second <= hi


def unfinished_tail(data: bytes) -> int:
    """How many bytes at the end of ``data`` begin a character that is not finished yet (0–3).

    >>> unfinished_tail("안".encode()[:2]), unfinished_tail("안".encode()), unfinished_tail(b"\\xe0\\x80")
    (2, 0, 0)
    """
    for back in range(1, min(3, len(data)) + 1):
        lead = data[-back]
        if lead & 0xC0 == 0x80:  # a continuation byte: the lead is further back
            continue
        need = _needed(lead)
        if need <= back:
            return 0
        tail = data[-back:]
        if back >= 2 and not _second_ok(lead, tail[1]):
            return 0
        return back if all(b & 0xC0 == 0x80 for b in tail[1:]) else 0
    return 0


def iter_replay(chunks: Iterable[bytes], ids: Iterable[int | None] | None = None) -> Iterator[StreamStep]:
    """Replay byte chunks through an incremental UTF-8 decoder, one :class:`StreamStep` per chunk, made
    as they are asked for (a 5 MB paste is three million steps: never held at once)."""
    pending = b""
    for chunk, token_id in zip(chunks, ids if ids is not None else repeat(None), strict=False):
        data = pending + chunk
        hold = unfinished_tail(data)
        ready, pending = data[: len(data) - hold], data[len(data) - hold:]
        yield StreamStep(token_id, bytes(chunk), ready.decode("utf-8", "replace"), pending,
                         chunk.decode("utf-8", "replace"))


def replay_bytes(chunks: Sequence[bytes], ids: Sequence[int | None] | None = None) -> list[StreamStep]:
    """:func:`iter_replay` as a list. After the last chunk, bytes still pending stay pending (the stream
    may go on); a view can show them in hex."""
    return list(iter_replay(chunks, ids))


@dataclass(frozen=True)
class StreamReplay:
    """A replay of an id sequence by ``encoder``: :meth:`iter_steps` makes the steps one by one;
    ``text``/``naive_text``/``pending`` are what each printer has shown at the end."""

    encoder: object
    ids: Sequence[int]

    @property
    def name(self) -> str:
        return self.encoder.name

    def iter_steps(self) -> Iterator[StreamStep]:
        ids = (int(i) for i in self.ids)
        return iter_replay((self.encoder.token_bytes(int(i)) for i in self.ids), ids)

    @property
    def steps(self) -> list[StreamStep]:
        """Every step (for short replays; :meth:`iter_steps` for long ones)."""
        return list(self.iter_steps())

    def _data(self) -> bytes:
        return b"".join(self.encoder.token_bytes(int(i)) for i in self.ids)

    @property
    def text(self) -> str:
        """Everything the incremental decoder printed: the whole output but its unfinished tail (U+FFFD
        for invalid bytes, as the steps print them)."""
        data = self._data()
        return data[: len(data) - unfinished_tail(data)].decode("utf-8", "replace")

    @property
    def naive_text(self) -> str:
        """Everything a naive per-token decoder printed (with its ``�``)."""
        return "".join(self.encoder.token_bytes(int(i)).decode("utf-8", "replace") for i in self.ids)

    @property
    def pending(self) -> bytes:
        data = self._data()
        return data[len(data) - unfinished_tail(data):]

    def summary_json(self) -> dict:
        """The JSON fields besides ``steps``."""
        return {"text": self.text, "naive_text": self.naive_text, "pending": self.pending.hex(" ")}

    def as_json(self) -> dict:
        return {"encoder": self.name, "steps": [s.as_json() for s in self.iter_steps()], **self.summary_json()}


def stream_ids(encoder, ids: Sequence[int]) -> StreamReplay:
    """Replay ``ids`` as a model would emit them, one token at a time.

    Each token's bytes are the encoder's (``token_bytes``: SentencePiece's ``▁`` as a space, byte
    pieces as their byte, special tokens as their text). TokvizError for an id the encoder lacks.
    """
    return StreamReplay(encoder, tuple(check_ids(encoder, ids)))


def stream_text(encoder, text: str, *, allow_special: bool = False) -> StreamReplay:
    """Encode ``text`` and replay its ids (what the model would emit to write it; the ids are the
    encoder's own, so they are not checked again)."""
    return StreamReplay(encoder, encoder.encode(text, allow_special=allow_special).id_array)
