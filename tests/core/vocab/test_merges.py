"""Recovered merges: they re-encode like the reference libraries, unbuilt tokens are reported (not
faked), both recovery routes agree, the merge tree names bytes, and the tokviz export encodes alike."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.vocabularies import VARIED_PROMPTS, registry_encoder
from tokviz.core.vocab import merges as merges_module
from tokviz.core.vocab.encoder_merges import recover_merges, token_merges
from tokviz.core.vocab.merges import (
    TokenMerges,
    context_splits,
    find_tokens,
    merge_tree,
    recover_from_ranks,
)
from tokviz.core.vocab.ranks import VocabCancelled


def pair_bpe_ids(encoder, merges, text: str, *, every_split: bool = False) -> list[int]:
    """Encode with recovered merges as a *merges list* (pair -> rank, HF-style), not a rank table,
    plus tiktoken's rule that a pre-split piece that is a token is that token, and with
    ``every_split`` each token's context splits: if the merges were wrong anywhere these prompts
    touch, this differs from the reference. Only tokens inside a piece can be merged in it, so each
    piece's merges are looked up from its substrings (``merges`` is a RecoveredMerges or an on-demand TokenMerges)."""
    rank_of = encoder.mergeable_ranks()
    out = []
    for piece in regex.findall(encoder.pattern, text):
        data = piece.encode("utf-8")
        if data in rank_of:
            out.append(rank_of[data])
            continue
        pair_rank = {}
        for i in range(len(data)):
            for j in range(i + 2, len(data) + 1):
                t = rank_of.get(data[i:j])
                if t is None:
                    continue
                made = merges.parents(t)
                splits = ([made] if len(made) == 2 else []) + (context_splits(merges, t) if every_split else [])
                pair_rank.update(((merges.token_bytes[x], merges.token_bytes[y]), t) for x, y in splits)
        parts = [data[i:i + 1] for i in range(len(data))]
        while len(parts) > 1:
            i = min(range(len(parts) - 1), key=lambda k: pair_rank.get((parts[k], parts[k + 1]), float("inf")))
            if (parts[i], parts[i + 1]) not in pair_rank:
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        out.extend(rank_of[p] for p in parts)
    return out


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_recovered_merges_reencode_varied_prompts_like_tiktoken(name):
    encoder = registry_encoder(name)
    rec = recover_merges(encoder)
    assert rec.unbuilt == () and len(rec.merges) == len(encoder.mergeable_ranks()) - 256
    for text in VARIED_PROMPTS:
        assert pair_bpe_ids(encoder, rec, text) == encoder.tiktoken.encode_ordinary(text), text


def test_llama3_merges_match_tiktoken_and_report_the_unbuilt_dot_colon_token():
    # Meta's tokenizer.model is a tiktoken rank file, so tiktoken is its reference. (HF's Llama 3.2
    # tokenizer.json disagrees with it on unbuilt tokens: " việc" is one token for tiktoken, three for
    # tokenizers, whose merge engine has no whole-piece rule.)
    encoder = registry_encoder("llama-3")
    rec = token_merges(encoder)  # on demand: the whole recovery is tested on cl100k/o200k and a llama-3 slice
    dotcolon = encoder.mergeable_ranks()[b".:.:"]
    assert len(rec.parents(dotcolon)) == 3  # reported as the parts the merges stop at, never given parents
    assert [rec.token_bytes[p] for p in rec.parents(dotcolon)] == [b".", b":.", b":"]
    # ... yet tiktoken joins ".:." + ":" when the text around lets them meet (" ::.:.:")
    assert (b".:.", b":") in [tuple(rec.token_bytes[i] for i in p) for p in context_splits(rec, dotcolon)]
    assert encoder.tiktoken.encode_ordinary(" ::.:.:")[-1] == dotcolon
    assert pair_bpe_ids(encoder, rec, " ::.:.:") != encoder.tiktoken.encode_ordinary(" ::.:.:")  # the list alone
    tree = merge_tree(rec, dotcolon)
    assert tree.unbuilt and tree.left is None and tree.as_json()["not_reachable_by_merges"] is True
    for text in VARIED_PROMPTS:
        assert pair_bpe_ids(encoder, rec, text, every_split=True) == encoder.tiktoken.encode_ordinary(text), text


def test_tekken_merges_match_mistral_common():
    from tests.support.model_files import tekkenizer
    from tests.support.packages import mistral_model

    encoder = registry_encoder("mistral-tekken")
    ref = tekkenizer(mistral_model("tekken_240911.json"))
    rec = token_merges(encoder)
    for text in VARIED_PROMPTS:
        if "<" in text:  # tekken reads its control strings itself; the ordinary text is what is compared
            continue
        assert pair_bpe_ids(encoder, rec, text, every_split=True) == ref.encode(text, bos=False, eos=False), text


def _prefix_ranks(name: str, n: int) -> dict[bytes, int]:
    """The 256 bytes and the first ``n`` multi-byte tokens of a rank file: a smaller vocabulary with
    the same merges (a token's parents only use lower ranks)."""
    ranks = registry_encoder(name).mergeable_ranks()
    top = sorted(r for b, r in ranks.items() if len(b) > 1)[n]
    return {b: r for b, r in ranks.items() if len(b) == 1 or r < top}


def test_tiktoken_route_equals_python_merging_across_blocks(monkeypatch):
    ranks = _prefix_ranks("llama-3", 101_000)  # reaches past rank 100421 (.:.:), an unbuilt token
    small = {b: r for b, r in ranks.items() if len(b) == 1 or r < 2500 or 100_300 <= r}
    slow = recover_from_ranks(small, fast=False)
    monkeypatch.setattr(merges_module, "_FIRST_BLOCK", 300)  # many tables, so blocks join where they should
    for growth in (1.0, 2.0):  # blocks of one size (11 tables), and each as large as the ranks before it (5)
        monkeypatch.setattr(merges_module, "_BLOCK_GROWTH", growth)
        fast = recover_from_ranks(small, fast=True)
        assert fast.merges == slow.merges and fast.unbuilt_parts == slow.unbuilt_parts
        assert small[b".:.:"] in fast.unbuilt


def test_token_merges_on_demand_equal_the_whole_recovery():
    encoder = registry_encoder("o200k_base")
    rec = recover_merges(encoder)
    lazy = TokenMerges(encoder.mergeable_ranks())
    for tid in list(rec.token_bytes)[::997]:
        assert lazy.parents(tid) == rec.parents(tid)


def test_merge_tree_of_a_korean_o200k_token_names_its_bytes():
    encoder = registry_encoder("o200k_base")
    merges = TokenMerges(encoder.mergeable_ranks(), encoder.name)
    tid = find_tokens(merges, " 생각")[0]
    tree = merge_tree(merges, tid)
    assert tree.data == " 생각".encode() and not tree.unbuilt
    text = "\n".join(tree.lines())
    assert "생 bytes 1–2 of 3" in text and "(completes 생)" in text and "(completes 각)" in text
    leaves = []

    def walk(node):
        if node.left is None:
            leaves.append(node.data)
        else:
            assert node.left.data + node.right.data == node.data and node.left.id < node.id > node.right.id
            walk(node.left)
            walk(node.right)

    walk(tree)
    assert b"".join(leaves) == tree.data and all(len(b) == 1 for b in leaves)
    assert find_tokens(merges, "EC 83 9D") == [encoder.mergeable_ranks()["생".encode()]]
    assert find_tokens(merges, f"#{tid}") == [tid]


def test_cancelled_recovery_raises_and_is_not_cached():
    from tokviz.core.bpe.model import BPEModel

    class Stop:
        def is_cancelled(self):
            return True

        def progress(self, done, total):
            pass

    ranks = BPEModel(mode="byte", merges=[(104, 105, 256)]).ranks()
    with pytest.raises(VocabCancelled):
        recover_from_ranks(ranks, state=Stop())

    class Ranked:
        name = "toy"

        def mergeable_ranks(self):
            return ranks

    toy = Ranked()
    with pytest.raises(VocabCancelled):
        recover_merges(toy, Stop())
    assert recover_merges(toy).merges == ((104, 105, 256),)


def test_tokenizer_json_merges_are_read_from_the_file():
    from tests.support.model_files import tokenizer_json_encoder
    from tests.support.packages import llama3_json

    encoder = tokenizer_json_encoder(llama3_json())  # Meta's Llama 3 tokenizer.json
    rec = recover_merges(encoder)
    tb = rec.token_bytes
    assert rec.merge_rank and len(rec.merges) == len({t for _, _, t in rec.merges}) == 127_744
    assert all(tb[a] + tb[b] == tb[t] for a, b, t in rec.merges)
    assert token_merges(encoder) is rec  # single-token work reads the same merges
    tree = merge_tree(rec, find_tokens(rec, " 생각")[0])
    assert tree.data == " 생각".encode() and tree.rank == rec.merge_rank[tree.id] != tree.id
    # the same bytes as in Meta's rank file (tokenizer.json ids are the ranks)
    assert tree.id == registry_encoder("llama-3").mergeable_ranks()[" 생각".encode()]


def small_byte_level_json(merge_texts: list[str], *, as_pairs: bool) -> dict:
    """A byte-level BPE tokenizer.json: the 256 bytes, then one token per merge, its merges written as
    ``"a b"`` strings or (as newer tokenizers write them) ``["a", "b"]`` pairs."""
    from tokviz.core.encoders.hf_json import byte_level_decoder

    decoder = byte_level_decoder()
    vocab = {c: decoder[c] for c in sorted(decoder, key=decoder.__getitem__)}
    for m in merge_texts:
        vocab.setdefault(m.replace(" ", ""), len(vocab))
    merges = [m.split(" ") for m in merge_texts] if as_pairs else list(merge_texts)
    level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True}
    return {"version": "1.0", "added_tokens": [], "normalizer": None, "pre_tokenizer": level, "post_processor": None,
            "decoder": level, "model": {"type": "BPE", "vocab": vocab, "merges": merges}}


@pytest.mark.parametrize("as_pairs", [False, True], ids=["strings", "pairs"])
def test_tokenizer_json_merges_come_from_the_file_while_it_is_unchanged(tmp_path, as_pairs):
    """The merges are read from the tokenizer.json itself (tokenizers' to_str took 2.6 s for Llama 3); once
    the file is rewritten, from tokenizers' own copy. Both give the same merges."""
    import json

    from tokviz.core.encoders.hf_json import HFTokenizerEncoder, byte_level_decoder
    from tokviz.core.vocab.file_merges import file_merges

    char_of = {b: c for c, b in byte_level_decoder().items()}
    ka = "".join(char_of[b] for b in "각".encode())  # the three bytes of 각 as GPT-2 writes them
    doc = small_byte_level_json(["Ġ t", "h e", "Ġt he", f"{ka[0]} {ka[1]}", f"{ka[:2]} {ka[2]}", "e e"],
                                as_pairs=as_pairs)
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    encoder = HFTokenizerEncoder.from_file(path)
    assert encoder.model_json()["merges"] == doc["model"]["merges"]  # the file's own form: read from the file
    from_file = file_merges(encoder)
    assert [from_file.token_bytes[t] for _, _, t in from_file.merges] == [
        b" t", b"he", b" the", "각".encode()[:2], "각".encode(), b"ee"]

    path.write_text(json.dumps(small_byte_level_json(["a b"], as_pairs=as_pairs)), encoding="utf-8")
    model = encoder.model_json()  # the file is another model now: tokenizers' copy of the encoder's own
    assert [m.split(" ") if isinstance(m, str) else m for m in model["merges"]] == [
        m.split(" ") if isinstance(m, str) else m for m in doc["model"]["merges"]]
    from_tokenizers = file_merges(encoder)
    assert from_tokenizers.merges == from_file.merges and from_tokenizers.merge_rank == from_file.merge_rank
    assert from_tokenizers.unbuilt == from_file.unbuilt and from_tokenizers.token_bytes == from_file.token_bytes


def test_gguf_bpe_merges_come_from_the_file(tmp_path):
    gguf = pytest.importorskip("gguf")
    from tokviz.core.encoders.gguf_family import NORMAL, load_gguf
    from tokviz.core.encoders.hf_json import byte_level_decoder

    decoder = byte_level_decoder()
    chars = sorted(decoder, key=decoder.__getitem__)  # GPT-2's stand-in character of each byte
    ka = "".join(chars[b] for b in "각".encode())  # the three bytes of 각 as GPT-2 writes them
    tokens = [*chars, ka[:2], ka, "Ġ" + ka]
    merges = [f"{ka[0]} {ka[1]}", f"{ka[:2]} {ka[2]}", f"Ġ {ka}"]
    path = tmp_path / "tiny.gguf"
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("llama-bpe")
    w.add_token_list(tokens)
    w.add_token_types([NORMAL] * len(tokens))
    w.add_token_merges(merges)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    encoder = load_gguf(path)
    rec = recover_merges(encoder)
    assert rec.merges == ((decoder[ka[0]], decoder[ka[1]], 256), (256, decoder[ka[2]], 257), (32, 257, 258))
    tree = merge_tree(rec, find_tokens(rec, " 각")[0])
    assert tree.id == 258 and tree.rank == 2 and tree.right.merge_name.endswith("(completes 각)")


def test_dropout_through_recovered_merges_keeps_llama3_ids_and_its_unbuilt_tokens():
    from tokviz.core.vocab.export import with_dropout

    encoder = registry_encoder("llama-3")  # a pattern no tokviz model file can name, and 678 unbuilt tokens
    dropping = with_dropout(encoder)
    for text in [*VARIED_PROMPTS, " ::.:.: .:.:"]:
        assert list(dropping.encode_dropout(text, 0.0, seed=1).ids) == list(encoder.encode(text).ids), text
    special = "<|begin_of_text|>생각"
    assert list(dropping.encode_dropout(special, 0.0, allow_special=True).ids) == list(
        encoder.encode(special, allow_special=True).ids)
    singles = {encoder.mergeable_ranks()[bytes([b])] for b in range(256)}
    dropped = dropping.encode_dropout("생각 .:.:", 1.0, seed=1)
    assert set(dropped.ids) <= singles and dropped.joined_bytes() == "생각 .:.:".encode()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"b", b"ab", b"ba", b"c"]), max_size=8),
       st.dictionaries(st.sampled_from([b"aa", b"ab", b"ba", b"bb", b"abab", b"aba", b"bab", b"cab", b"ac", b"ca",
                                        b"abc", b"bc", b"cc"]), st.integers(0, 20)),
       st.integers(0, 25))
def test_the_short_merge_is_apply_merges(parts, ranks, limit):
    # the tiktoken route finishes each token with it: the reference kernel is the specification
    from tokviz.core.bpe.merge import apply_merges

    expected = apply_merges(list(parts), lambda x, y: ranks.get(x + y), bytes.__add__, max_rank=limit)
    assert merges_module._merge_below(list(parts), ranks, limit) == expected
