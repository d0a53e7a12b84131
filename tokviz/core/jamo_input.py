"""A model trained on jamo reading the user's own text: decompose, encode, map the tokens back.

A model trained with ``--jamo`` (or the Train panel's Jamo option) only knows conjoining jamo, so
the text is decomposed first (:func:`tokviz.core.jamo.decompose`). The Encoding every view gets is
still of the user's exact text: each token's span is mapped back onto the original characters, and
a token that holds only some of a syllable's jamo *cuts* that syllable, as a byte token cuts a UTF-8
character. To say where inside the syllable, its three UTF-8 bytes are shared out among its jamo
(three jamo: one byte each; two jamo: the lead one byte, the vowel two), so the cut shows in the
byte span and ``partial`` as for any other cut character. The tokens keep their own bytes (the jamo's
UTF-8) and the decomposed text is the Encoding's ``normalized_text``.

>>> from tokviz.core.bpe.model import BPEModel
>>> from tokviz.core.jamo import decompose
>>> lead, vowel, tail = (ord(c) for c in decompose("갔"))  # E1 84 80, E1 85 A1, E1 86 BB
>>> inner = BPEModel(mode="char", base=[decompose("갔")[0], decompose("갔")[1], decompose("갔")[2] + "</w>"],
...                  merges=[(1, 2, 4)])
>>> enc = JamoReader(inner).encode("갔")
>>> [(t.byte_start, t.byte_end, t.partial) for t in enc.tokens]
[(0, 2, True), (2, 3, True)]
>>> cut_jamo("갔", 0, 2), cut_jamo("갔", 2, 3)
('가', 'ᆻ')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from tokviz.core.encoding import Encoding
from tokviz.core.jamo import decompose, has_syllables, recompose

_S_BASE, _S_LAST, _T_COUNT = 0xAC00, 0xD7A3, 28


def syllable_slots(ch: str) -> tuple[int, ...]:
    """The byte offsets (inside ``ch``'s three UTF-8 bytes) where each of its jamo starts: ``(0, 1, 2)``
    for a syllable with a final consonant, ``(0, 1)`` without; ``()`` for any other character.

    >>> syllable_slots("갔"), syllable_slots("가"), syllable_slots("a")
    ((0, 1, 2), (0, 1), ())
    """
    o = ord(ch)
    if not _S_BASE <= o <= _S_LAST:
        return ()
    return (0, 1, 2) if (o - _S_BASE) % _T_COUNT else (0, 1)


def cut_jamo(ch: str, byte_from: int, byte_to: int) -> str:
    """The jamo of syllable ``ch`` whose byte slots (:func:`syllable_slots`) start in
    ``[byte_from, byte_to)``, recomposed where they still form a syllable: what a token holding that
    part of ``ch`` shows. A character that is not a syllable comes back whole.

    >>> cut_jamo("갔", 0, 2), cut_jamo("갔", 2, 3), cut_jamo("가", 1, 3)
    ('가', 'ᆻ', 'ᅡ')
    """
    slots = syllable_slots(ch)
    if not slots:
        return ch
    jamo = decompose(ch)
    return recompose("".join(j for j, s in zip(jamo, slots, strict=True) if byte_from <= s < byte_to))


def byte_map(text: str) -> tuple[str, np.ndarray]:
    """``(decomposed text, t_at)``: ``t_at[b]`` is the byte offset in ``text``'s UTF-8 of byte ``b`` of
    the decomposed text's UTF-8 (and ``t_at[len] = len(text's UTF-8)``). Bytes of a character that
    was not decomposed map one to one; the three bytes of a jamo all map to the jamo's slot.

    >>> byte_map("a갔")[1].tolist()
    [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4]
    """
    decomposed = decompose(text)
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.int64)
    t_len = np.where(cps < 0x80, 1, np.where(cps < 0x800, 2, np.where(cps < 0x10000, 3, 4)))
    t_start = np.cumsum(t_len) - t_len
    syllable = (cps >= _S_BASE) & (cps <= _S_LAST)
    n_jamo = np.where(syllable, np.where((cps - _S_BASE) % _T_COUNT != 0, 3, 2), 1)
    # one unit per character of the decomposed text
    owner = np.repeat(np.arange(len(cps)), n_jamo)
    k = np.arange(len(owner)) - np.repeat(np.cumsum(n_jamo) - n_jamo, n_jamo)  # jamo index in its syllable
    jamo = syllable[owner]
    unit_t = t_start[owner] + np.where(jamo, k, 0)
    unit_len = np.where(jamo, 3, t_len[owner])  # conjoining jamo are 3 bytes each
    total = int(unit_len.sum())
    unit_of_byte = np.repeat(np.arange(len(owner)), unit_len)
    within = np.arange(total) - np.repeat(np.cumsum(unit_len) - unit_len, unit_len)
    t_at = np.empty(total + 1, dtype=np.int64)
    t_at[:total] = unit_t[unit_of_byte] + np.where(jamo[unit_of_byte], 0, within)
    t_at[total] = int(t_len.sum())
    return decomposed, t_at


def map_to_text(encoding: Encoding, text: str, name: str | None = None) -> Encoding:
    """``encoding`` (of ``decompose(text)``) as an Encoding of ``text`` itself (see the module
    docstring); the tokens keep their ids, kinds, own bytes and raw pieces."""
    decomposed, t_at = byte_map(text)
    if encoding.text != decomposed:
        raise ValueError("the encoding is not of the decomposed text")
    bs, be = encoding.byte_start_array, encoding.byte_end_array
    # the columns as they are (a Python object per token cost seconds on a long paste): the token
    # bytes and raw pieces of the inner encoding, only the spans change
    raws = None if encoding._raw_table is None else (encoding._raw_table, encoding._raw_index)
    enc = Encoding.from_arrays(
        name or encoding.encoder, text, encoding.id_array, t_at[bs], t_at[be], kinds=encoding.kind_array,
        token_bytes=(encoding._blob, encoding._blob_start, encoding._blob_end), raws=raws,
        normalized_text=decomposed if decomposed != text else None,
    )
    # A byte token inside one jamo (byte-level BPE on jamo) has no byte of the user's text of its own
    # (its span is empty): it still holds part of a character, so it is partial too.
    raw = np.frombuffer(decomposed.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    char_start = np.append((raw & 0xC0) != 0x80, True)
    inside = ~(char_start[bs] & char_start[be])
    if not inside.any():
        return enc
    return Encoding(enc.encoder, text, id_array=enc.id_array, byte_start_array=enc.byte_start_array,
                    byte_end_array=enc.byte_end_array, start_array=enc.start_array, end_array=enc.end_array,
                    partial_array=enc.partial_array | inside, kind_array=enc.kind_array, blob=enc._blob,
                    blob_start=enc._blob_start, blob_end=enc._blob_end, raw_table=enc._raw_table,
                    raw_index=enc._raw_index, normalized_text=enc.normalized_text, n_bytes=enc.byte_length)


def reads_jamo(encoding: Encoding) -> bool:
    """Whether ``encoding`` came from a model that read the text as jamo (its tokens' cut syllables
    are shown as the jamo they hold, not as hex).

    >>> reads_jamo(Encoding.from_byte_tokens("d", "가", [(1, "가".encode())]))
    False
    """
    normalized = encoding.normalized_text
    if normalized is None or len(normalized) <= len(encoding.text):  # decomposing always lengthens
        return False
    return has_syllables(encoding.text) and normalized == decompose(encoding.text)


def is_jamo_model(model) -> bool:
    """Whether ``model`` was trained on jamo (``settings["jamo"]``, as ``tokviz train --jamo`` records)."""
    return bool(getattr(model, "settings", None) and model.settings.get("jamo"))


class JamoReader:
    """An encoder trained on jamo that reads the user's text (see the module docstring). Everything
    but encoding (vocabulary, merge trees, settings, saving) is the trained model's own."""

    byte_level = False  # the tokens' bytes are jamo: they do not join to the user's text

    def __init__(self, model):
        self.model = model

    def __getattr__(self, attr: str):
        if attr == "encode_dropout":  # only where the model has it (core.dropout.supports_dropout asks)
            getattr(self.model, attr)
            return self._encode_dropout
        return getattr(self.model, attr)

    def _encode_dropout(self, text: str, p: float, seed: int | None = None, *, allow_special: bool = False,
                        **kwargs) -> Encoding:
        """BPE-dropout on the jamo of ``text``, spans on ``text``."""
        inner = self.model.encode_dropout(decompose(text), p, seed, allow_special=allow_special, **kwargs)
        return map_to_text(inner, text, self.name)

    @property
    def name(self) -> str:
        return self.model.name

    @property
    def family(self) -> str:
        return self.model.family

    @property
    def source(self) -> str:
        return self.model.source

    @property
    def vocab_size(self) -> int:
        return self.model.vocab_size

    def special_tokens(self) -> Mapping[str, int]:
        return self.model.special_tokens()

    def token_bytes(self, token_id: int) -> bytes:
        return self.model.token_bytes(token_id)

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids`` with the jamo that form whole syllables recomposed."""
        return recompose(self.model.decode(ids))

    def encode(self, text: str, *, allow_special: bool = False, **kwargs) -> Encoding:
        """Tokens of ``text`` read as jamo, spans on ``text`` (keywords such as ``max_rank`` pass on)."""
        inner = self.model.encode(decompose(text), allow_special=allow_special, **kwargs)
        return map_to_text(inner, text, self.name)

def reader_for(model):
    """``model`` itself, or a :class:`JamoReader` of it when it was trained on jamo."""
    return JamoReader(model) if is_jamo_model(model) and not isinstance(model, JamoReader) else model
