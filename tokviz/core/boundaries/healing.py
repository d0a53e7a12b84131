"""Token healing: back up a prompt's last tokens and let the model choose how the text goes on.

A prompt ending mid-word (``The color is bl``, ``https://www.``) ends in a token the model rarely saw
there: in training the text went on inside that token (`` blue``, ``www.google``). Healing removes
the last token(s) and constrains the next token to start with the removed bytes, so the model can
pick `` blue`` itself. guidance and outlines heal this way; :func:`heal` shows what they would do.
"""

from __future__ import annotations

from dataclasses import dataclass

from tokviz.core.boundaries.vocabulary import token_table
from tokviz.core.errors import TokvizError, user_message

SAMPLE = 20  # candidates listed beside their count


@dataclass(frozen=True)
class Healing:
    """A prompt healed by ``back`` tokens.

    ``kept_ids``: the healed prompt's ids (what the model is given); ``removed_ids`` and
    ``removed_bytes`` what was backed up (``removed_text`` shows it, incomplete bytes as ``�``);
    ``candidate_ids``: every ordinary token whose bytes start with the removed bytes, in id order (for
    BPE, merge order: lower ids were merged earlier, from more frequent pairs); ``sample`` the first
    :data:`SAMPLE` of them.
    """

    encoder: str
    text: str
    back: int
    kept_ids: tuple[int, ...]
    removed_ids: tuple[int, ...]
    removed_bytes: bytes
    candidate_ids: tuple[int, ...]
    kept_byte_end: int

    @property
    def removed_text(self) -> str:
        return self.removed_bytes.decode("utf-8", "replace")

    @property
    def candidates(self) -> int:
        return len(self.candidate_ids)

    @property
    def cuts_character(self) -> bool:
        """True when the healed prompt ends inside a character (the removed token held only its last bytes)."""
        return bool(self.removed_bytes) and self.removed_bytes[0] & 0xC0 == 0x80

    def sample(self, n: int = SAMPLE) -> tuple[int, ...]:
        return self.candidate_ids[:n]

    def as_json(self, encoder, n: int = SAMPLE) -> dict:
        """JSON for ``tokviz heal --json``; ``encoder`` gives the sample's bytes."""
        return {
            "encoder": self.encoder, "text": self.text, "back": self.back,
            "removed_text": self.removed_text, "removed_bytes": self.removed_bytes.hex(" "),
            "removed_ids": list(self.removed_ids), "healed_ids": list(self.kept_ids),
            "cuts_character": self.cuts_character, "candidates": self.candidates,
            "sample": [{"id": i, "text": encoder.token_bytes(i).decode("utf-8", "replace"),
                        "bytes": encoder.token_bytes(i).hex(" ")} for i in self.sample(n)],
        }


def heal(encoder, text: str, back: int = 1, *, state=None) -> Healing:
    """Back up the last ``back`` tokens of ``text`` and find the tokens that may replace them.

    >>> from tokviz.core.encoders.builtin import default_registry
    >>> h = heal(default_registry().get("cl100k_base"), "The color is bl")
    >>> h.removed_text, h.candidates > 10
    (' bl', True)
    """
    if back < 1:
        raise TokvizError(f"--back is how many tokens to back up: 1 or more, not {back}")
    encoding = encoder.encode(text)
    ids = tuple(encoding.ids)
    if back > len(ids):
        if len(ids) == 1:
            raise TokvizError(user_message("the text has 1 token; cannot back up {back}", back=back))
        raise TokvizError(user_message("the text has {count} tokens; cannot back up {back}", count=len(ids), back=back))
    kept, removed = ids[: len(ids) - back], ids[len(ids) - back:]
    removed_bytes = b"".join(encoder.token_bytes(i) for i in removed)
    candidates = tuple(token_table(encoder, state).with_prefix(removed_bytes))
    kept_end = int(encoding.byte_end_array[len(kept) - 1]) if kept else 0
    return Healing(encoder.name, text, back, kept, removed, removed_bytes, candidates, kept_end)
