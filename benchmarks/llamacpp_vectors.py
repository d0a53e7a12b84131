"""tokviz on llama.cpp's own tokenizer test vectors: every vocab-only GGUF in a llama.cpp checkout.

    python benchmarks/llamacpp_vectors.py LLAMA_CPP_FOLDER [--show N] [--from-json NAME=TOKENIZER_JSON:PRE ...]

llama.cpp ships ``models/ggml-vocab-NAME.gguf`` with ``.gguf.inp`` (inputs separated by
``\\n__ggml_vocab_test__\\n``) and ``.gguf.out`` (one line of expected ids per input, written from
each model's Hugging Face tokenizer). Its ``test-tokenizer-0`` encodes with ``add_special=false,
parse_special=false``; here each input goes through ``load_gguf(...).encode(text)`` (no bos/eos, control
tokens as text) and the ids are compared. One line per file: kind, pre-split, matched/total, and the
first mismatches. A file whose GGUF is missing (stored in git LFS, not fetched) is listed as such.

``--from-json llama-bpe=/path/tokenizer.json:llama-bpe`` writes a GGUF the way llama.cpp's converter
does from that byte-level BPE tokenizer.json (into a temporary folder) and runs ``ggml-vocab-NAME``'s
vectors on it: for vector files whose GGUF the checkout lacks but whose tokenizer.json you have.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

SEPARATOR = "\n__ggml_vocab_test__\n"


def read_vectors(gguf_path: Path) -> list[tuple[str, list[int]]]:
    """The (input, expected ids) pairs beside ``gguf_path``, as test-tokenizer-0 reads them."""
    raw = gguf_path.with_name(gguf_path.name + ".inp").read_text(encoding="utf-8")
    lines = gguf_path.with_name(gguf_path.name + ".out").read_text(encoding="utf-8").split("\n")
    inputs = raw.split(SEPARATOR)
    lines = lines[: len(inputs)]
    return [(text, [int(t) for t in line.split()]) for text, line in zip(inputs, lines, strict=True)]


def gguf_from_tokenizer_json(tokenizer_json: Path, pre: str, out: Path) -> Path:
    """A vocab-only GGUF as llama.cpp's converter writes one for a byte-level BPE tokenizer.json."""
    import json

    import gguf

    doc = json.loads(tokenizer_json.read_text(encoding="utf-8"))
    vocab = dict(doc["model"]["vocab"])
    added = {a["id"]: a for a in doc.get("added_tokens", [])}
    for i, a in added.items():
        vocab[a["content"]] = i
    tokens = [f"[PAD{i}]" for i in range(max(vocab.values()) + 1)]
    for tok, i in vocab.items():
        tokens[i] = tok
    control, user_defined, normal = 3, 4, 1
    types = [(control if added[i]["special"] else user_defined) if i in added else normal for i in range(len(tokens))]
    w = gguf.GGUFWriter(str(out), "llama")
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre(pre)
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges([m if isinstance(m, str) else " ".join(m) for m in doc["model"]["merges"]])
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return out


def run_file(path: Path, show: int) -> tuple[str, int, int]:
    from tokviz.core.encoders.gguf_family import load_gguf, read_gguf_vocab
    from tokviz.core.errors import TokvizError

    vectors = read_vectors(path)
    try:
        vocab = read_gguf_vocab(path)
        kind = f"{vocab.model}/{vocab.pre or '-'}"
        enc = load_gguf(path)
    except TokvizError as err:
        print(f"{path.name:40} refused: {err}")
        return "refused", 0, len(vectors)
    matched = 0
    shown = 0
    for text, want in vectors:
        got = enc.encode(text).ids
        if got == want:
            matched += 1
        elif shown < show:
            shown += 1
            print(f"    {text[:60]!r}\n      got  {got[:20]}\n      want {want[:20]}")
    print(f"{path.name:40} {kind:28} {matched}/{len(vectors)}")
    return kind, matched, len(vectors)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("llama_cpp", type=Path, help="a llama.cpp checkout (its models/ folder is read)")
    parser.add_argument("--show", type=int, default=3, help="mismatches to print per file")
    parser.add_argument(
        "--from-json",
        action="append",
        default=[],
        metavar="NAME=TOKENIZER_JSON:PRE",
        help="run ggml-vocab-NAME's vectors on a GGUF written from this tokenizer.json",
    )
    args = parser.parse_args(argv)
    models = args.llama_cpp / "models"
    total = matched = 0
    for inp in sorted(models.glob("ggml-vocab-*.gguf.inp")):
        path = inp.with_suffix("")
        if not path.is_file():
            print(f"{path.name:40} (no GGUF file in this checkout)")
            continue
        _, m, n = run_file(path, args.show)
        matched += m
        total += n
    for spec in args.from_json:
        name, _, rest = spec.partition("=")
        json_path, _, pre = rest.rpartition(":")
        with tempfile.TemporaryDirectory() as tmp:
            built = gguf_from_tokenizer_json(Path(json_path), pre, Path(tmp) / f"ggml-vocab-{name}.gguf")
            for suffix in (".inp", ".out"):
                shutil.copyfile(models / f"ggml-vocab-{name}.gguf{suffix}", built.with_name(built.name + suffix))
            print(f"(written from {json_path})")
            _, m, n = run_file(built, args.show)
        matched += m
        total += n
    print(f"all: {matched}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
