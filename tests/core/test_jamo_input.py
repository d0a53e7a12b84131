"""A model trained on jamo reads the user's own text: the tokens of the decomposed text mapped back onto
the user's characters, a token that holds part of a syllable's jamo cutting that syllable."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.formats import save_model
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.encoders.builtin import open_model_file
from tokviz.core.jamo import decompose, decompose_lines
from tokviz.core.jamo_input import JamoReader, byte_map, cut_jamo, reader_for, reads_jamo

LINES = ["그것은 내가 했던 것이다 그것도 했다\n", "것 것 것이 했다 했어요 갔다 왔다 샀다 🙂\n",
         "우리가 했던 것은 좋았다 먹었다 잤다 ok\n"] * 6


@functools.cache
def jamo_model(mode: str):
    trainer = BPETrainer(TrainerConfig(mode=mode, merges=60))
    for _ in trainer.run(decompose_lines(LINES)):
        pass
    model = trainer.model()
    model.settings["jamo"] = True
    return model


TEXT = st.text(st.sampled_from(list("것했갔다가 ok\n🙂é") + ["\u1100", "\u1161", "\u11bb"]), max_size=40)


@settings(max_examples=150, deadline=None)
@given(text=TEXT)
def test_byte_mode_tokens_are_the_jamo_of_the_users_characters_under_their_spans(text):
    enc = JamoReader(jamo_model("byte")).encode(text)
    assert enc.text == text
    # the token bytes spell the decomposed text; the spans tile the user's text in order
    assert enc.joined_bytes() == decompose(text).encode("utf-8")
    data = text.encode("utf-8")
    assert [t.byte_start for t in enc.tokens][:1] in ([], [0])
    assert all(a.byte_end == b.byte_start for a, b in zip(enc.tokens, enc.tokens[1:], strict=False))
    assert not enc.tokens or enc.tokens[-1].byte_end == len(data)
    for t in enc.tokens:
        if not t.partial:  # a whole token holds exactly the jamo of the characters under it
            assert t.bytes.decode("utf-8") == decompose(text[t.start:t.end])


def test_a_token_holding_part_of_a_syllables_jamo_cuts_it():
    model = jamo_model("char")
    enc = JamoReader(model).encode("갔다 것")
    assert reads_jamo(enc)
    cut = [t for t in enc.tokens if t.partial]
    # however the model splits 갔, each part of it cuts the character; together they are its jamo
    assert all(t.start == 0 for t in cut)
    if cut:
        shown = "".join(cut_jamo("갔", t.byte_start, min(t.byte_end, 3)) for t in cut)
        assert decompose(shown) == decompose("갔")
    whole = [t for t in enc.tokens if not t.partial]
    assert any(enc.text[t.start:t.end] == "것" for t in whole)


def test_syllable_bytes_are_shared_out_among_its_jamo():
    decomposed, t_at = byte_map("가갔a")
    assert decomposed == decompose("가갔a")
    jamo_starts = [t_at[3 * k] for k in range(5)]  # 가: two jamo, 갔: three
    assert jamo_starts == [0, 1, 3, 4, 5] and t_at[-1] == 7


def test_a_saved_jamo_model_opens_as_a_reader_of_the_users_text(tmp_path):
    path = tmp_path / "jamo.json"
    save_model(jamo_model("byte"), path, "tokviz")
    opened = open_model_file(path)
    assert isinstance(opened, JamoReader)
    text = "그것은 했다"
    assert opened.encode(text).text == text
    assert opened.decode(opened.encode(text).ids) == text
    # a model not trained on jamo is opened as itself
    plain = BPETrainer(TrainerConfig(mode="byte", merges=5))
    for _ in plain.run(LINES):
        pass
    assert reader_for(plain.model()) is not None and not isinstance(reader_for(plain.model()), JamoReader)


def test_dropout_on_a_jamo_model_is_on_its_jamo_and_mapped_back():
    reader = JamoReader(jamo_model("byte"))
    text = "했다 것"
    assert reader.encode_dropout(text, 0.0, seed=1) == reader.encode(text)
    every = reader.encode_dropout(text, 1.0, seed=1)
    assert every.text == text and len(every) == len(decompose(text).encode("utf-8"))
