"""Re-using the unchanged paragraphs of a long text: cut it where every pre-splitter ends a piece, and
encode only the paragraphs not seen before (typing in a 10,000-character text re-encodes one)."""

from __future__ import annotations

import weakref

from tokviz.core.encoders.base import Encoder
from tokviz.core.encoding import Encoding


def safe_cut(text: str, i: int) -> bool:
    """True when every regex pre-splitter (gpt2, cl100k, o200k, tokviz BPE) ends a piece at ``i``
    whether or not the text goes on: ``i`` follows a newline that follows a non-space character,
    and a non-space character comes next. (After ``"  \\n"`` gpt2's pattern splits ``"  "`` +
    ``"\\n"`` inside a text but keeps ``"  \\n"`` whole at its end, so such places are not safe.)

    >>> [i for i in range(8) if safe_cut("ab\\ncd \\nx", i)]
    [3]
    """
    return (
        2 <= i < len(text)
        and text[i - 1] == "\n"
        and not text[i - 2].isspace()
        and not text[i].isspace()
    )


def paragraph_spans(text: str, min_chars: int = 400) -> list[tuple[int, int]]:
    """Cut ``text`` at safe places (:func:`safe_cut`) into spans of at least ``min_chars``."""
    spans = []
    start = 0
    pos = text.find("\n", min_chars)
    while pos >= 0:
        cut = pos + 1
        if safe_cut(text, cut) and cut - start >= min_chars:
            spans.append((start, cut))
            start = cut
            pos = text.find("\n", cut + min_chars - 1)
        else:
            pos = text.find("\n", cut)
    spans.append((start, len(text)))
    return spans


class ParagraphCache:
    """Encodes long texts paragraph by paragraph with byte-level encoders, re-using the paragraphs it
    has seen, so typing at one place of a 10,000-character text re-encodes one paragraph.

    Only for byte-level encoders (their tokens never cross a safe cut, so the stitched Encoding is
    exactly the whole-text one; a test checks this against direct encoding); other encoders are
    called on the whole text. Safe to share between worker threads.
    """

    def __init__(self, max_paragraphs: int = 2048, min_chars: int = 400):
        import threading

        self._lock = threading.Lock()
        # Keyed by a weak reference to the encoder, never by id(): the Train panel offers a new model
        # at every step, and a freed model's id is soon re-used by another one. A reference to a
        # dead encoder equals no other reference, and its entries are dropped (see _purge).
        self._cache: dict[tuple[weakref.ref, str], Encoding] = {}
        self._dead: list[weakref.ref] = []  # appended by weakref callbacks (any thread, any time)
        self.max_paragraphs = max_paragraphs
        self.min_chars = min_chars

    def _purge(self) -> None:
        """Drop the paragraphs of encoders that no longer exist (called with the lock held)."""
        if not self._dead:
            return
        dead, self._dead[:] = set(self._dead), []
        for key in [k for k in self._cache if k[0] in dead]:
            del self._cache[key]

    def encode(self, encoder: Encoder, text: str) -> Encoding:
        if not getattr(encoder, "byte_level", False) or len(text) < 2 * self.min_chars:
            return encoder.encode(text)
        try:
            ref = weakref.ref(encoder, self._dead.append)
        except TypeError:  # an encoder that cannot be weakly referenced is simply not cached
            return encoder.encode(text)
        spans = paragraph_spans(text, self.min_chars)
        if len(spans) < 2:
            return encoder.encode(text)
        from tokviz.core.encoding import char_byte_starts

        byte_at = char_byte_starts(text)
        parts: list[tuple[Encoding, int, int]] = []
        with self._lock:
            self._purge()
        for a, b in spans:
            piece = text[a:b]
            key = (ref, piece)
            with self._lock:
                enc = self._cache.pop(key, None)
            if enc is None:
                enc = encoder.encode(piece)
            with self._lock:
                self._cache[key] = enc  # most recently used last
            parts.append((enc, a, byte_at[a]))
        with self._lock:
            while len(self._cache) > self.max_paragraphs:
                self._cache.pop(next(iter(self._cache)))
        return Encoding.concat(getattr(encoder, "name", str(encoder)), text, parts)
