"""Small GGUF files written in a test with ``gguf.GGUFWriter``, holding what llama.cpp's converter writes.

Each builder takes a genuine tokenizer (a SentencePiece model, a WordPiece vocabulary, a tokenizer.json)
and writes its vocabulary the way ``convert_hf_to_gguf.py`` does for that kind, so a test can compare
tokviz's reading of the GGUF with the original tokenizer run by its own library.
"""

from __future__ import annotations

import struct
from pathlib import Path

# gguf.TokenType values (the same numbers as SentencePiece's piece types)
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6


def write_gguf(
    path,
    tokens,
    merges,
    types,
    pre,
    *,
    model="gpt2",
    bos=None,
    eos=None,
    template=None,
    scores=None,
    tensor=None,
    add_space_prefix=None,
    unk=None,
    pad=None,
    charsmap=None,
    remove_extra_whitespaces=None,
):
    """A GGUF file holding only a tokenizer (and ``tensor`` as ``token_embd.weight`` when given)."""
    import gguf

    w = _writer(gguf, path)
    w.add_tokenizer_model(model)
    if pre is not None:
        w.add_tokenizer_pre(pre)
    w.add_token_list(_long(tokens))
    w.add_token_types(_long(types))
    if scores is not None:
        w.add_token_scores(_long(scores))
    if merges:
        w.add_token_merges(_long(merges))
    for value, add in (
        (bos, w.add_bos_token_id),
        (eos, w.add_eos_token_id),
        (unk, w.add_unk_token_id),
        (pad, w.add_pad_token_id),
        (add_space_prefix, w.add_add_space_prefix),
        (remove_extra_whitespaces, w.add_remove_extra_whitespaces),
        (template, w.add_chat_template),
    ):
        if value is not None:
            add(value)
    if charsmap is not None:
        w.add_precompiled_charsmap(b"\x00")  # spliced in below: the writer packs arrays byte by byte (seconds)
    if tensor is not None:
        w.add_tensor("token_embd.weight", tensor)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    if charsmap is not None:
        _splice_charsmap(Path(path), charsmap)
    return path


# The writer packs an array item by item through several calls each (~10 us an item): a real
# vocabulary's tokens, types and merges took 2-3 s of a test. An array longer than this is packed in
# one go by the writer's own _pack_val, overridden for it, the same way: its first item is checked
# against the writer's bytes for that item, and the writer still lays out and pads the file.
LONG_ARRAY_ITEMS = 20_000
_STRING = 8


class _LongArray(list):
    """An array the writer below packs in one go."""


def _long(items):
    return _LongArray(items) if len(items) > LONG_ARRAY_ITEMS else items


def _packed_items(item_type: int, items) -> list[bytes]:
    if item_type == _STRING:
        data = [t.encode("utf-8") if isinstance(t, str) else bytes(t) for t in items]
        return [struct.pack("<Q", len(d)) + d for d in data]
    code = {4: "<I", 5: "<i", 6: "<f"}[item_type]  # UINT32, INT32, FLOAT32: what token types and scores use
    return [struct.pack(code, v) for v in items]


def _writer(gguf, path):
    class Writer(gguf.GGUFWriter):
        def _pack_val(self, val, vtype, add_vtype, sub_type=None):
            if not isinstance(val, _LongArray) or self.endianess != gguf.GGUFEndian.LITTLE:
                return super()._pack_val(val, vtype, add_vtype, sub_type)
            item_type = sub_type if sub_type is not None else gguf.GGUFValueType.get_type(val[0])
            packed = _packed_items(int(item_type), val)
            assert packed[0] == super()._pack_val(val[0], item_type, add_vtype=False), "packed unlike the writer"
            head = struct.pack("<I", int(vtype)) if add_vtype else b""
            return head + struct.pack("<IQ", int(item_type), len(val)) + b"".join(packed)

    return Writer(str(path), "llama")


def _splice_charsmap(path: Path, charsmap: bytes) -> None:
    """Put ``charsmap`` in place of the one-byte placeholder array (key, ARRAY, UINT8, count 1, byte)."""
    data = path.read_bytes()
    key = b"tokenizer.ggml.precompiled_charsmap"
    at = data.index(key) + len(key)
    head = struct.pack("<IIQ", 9, 0, 1)
    assert data[at : at + len(head)] == head
    start = at + len(head)
    path.write_bytes(data[:at] + struct.pack("<IIQ", 9, 0, len(charsmap)) + charsmap + data[start + 1 :])


def sentencepiece_fields(model_path: Path) -> dict:
    """The pieces, scores, types and normalizer of a SentencePiece ``.model`` file, as the converter reads them."""
    from tokviz.core.encoders.sentencepiece_family import iter_fields

    out = {
        "tokens": [],
        "scores": [],
        "types": [],
        "add_space_prefix": True,
        "remove_extra_whitespaces": True,
        "charsmap": b"",
    }
    for number, wire, value, _ in iter_fields(model_path.read_bytes()):
        if number == 1 and wire == 2:
            piece = {f: v for f, _, v, _ in iter_fields(value)}
            out["tokens"].append(piece[1].decode("utf-8"))
            out["scores"].append(struct.unpack("<f", piece[2])[0] if 2 in piece else 0.0)  # fixed32
            out["types"].append(int(piece.get(3, NORMAL)))
        elif number == 3 and wire == 2:
            spec = {f: v for f, _, v, _ in iter_fields(value)}
            out["add_space_prefix"] = bool(spec.get(3, 1))
            out["remove_extra_whitespaces"] = bool(spec.get(4, 1))
            out["charsmap"] = spec.get(2, b"")
    return out


def gguf_from_unigram(model_path: Path, out: Path) -> Path:
    """What llama.cpp's converter writes for a T5 ``spiece.model``: tokenizer ``t5``, pieces, scores, types,
    the precompiled charsmap and the normalizer's flags."""
    f = sentencepiece_fields(model_path)
    return write_gguf(
        out,
        f["tokens"],
        [],
        f["types"],
        None,
        model="t5",
        scores=f["scores"],
        add_space_prefix=f["add_space_prefix"],
        remove_extra_whitespaces=f["remove_extra_whitespaces"],
        charsmap=f["charsmap"],
        unk=f["types"].index(UNKNOWN),
    )


def gguf_from_wordpiece(vocab: list[str], out: Path) -> Path:
    """What llama.cpp's converter writes for a BERT ``vocab.txt``: tokenizer ``bert``; a word-start piece
    gets a leading ``▁``, a ``##`` continuation loses its ``##``, ``[X]`` specials stay as they are."""

    def phantom(tok: str) -> str:
        if tok.startswith("[") and tok.endswith("]"):
            return tok
        return tok[2:] if tok.startswith("##") else "\u2581" + tok

    tokens = [phantom(t) for t in vocab]
    types = [
        CONTROL if t in ("[PAD]", "[CLS]", "[SEP]", "[MASK]") else UNKNOWN if t == "[UNK]" else NORMAL for t in vocab
    ]
    return write_gguf(
        out,
        tokens,
        [],
        types,
        None,
        model="bert",
        scores=[0.0] * len(vocab),
        bos=vocab.index("[CLS]"),
        eos=vocab.index("[SEP]"),
        unk=vocab.index("[UNK]"),
        pad=vocab.index("[PAD]"),
    )
