"""tokviz as a library: ``tokviz.encode``, ``tokviz.open_model``, ``tokviz.encoders`` and the Encoding's
notebook view; ``import tokviz`` stays cheap."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tokviz
from tokviz.core import display
from tokviz.core.encoding import Encoding, Token
from tokviz.core.errors import EncoderUnavailable, ModelFileError, TokvizError

ROOT = Path(__file__).resolve().parent.parent


def test_import_tokviz_loads_no_numpy_no_qt_and_no_tokenizer_library():
    code = ("import sys, tokviz; heavy = [m for m in sys.modules if m.split('.')[0] in "
            "{'numpy', 'PySide6', 'pyqtgraph', 'tiktoken', 'tokenizers', 'sentencepiece', 'regex', 'pathlib', "
            "'tokviz.core'}]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60,
                         cwd=ROOT).stdout.strip()
    # pathlib may come with the interpreter's own start-up (site); tokviz itself must not need it
    assert [m for m in eval(out) if m != "pathlib"] == []


def test_encode_gives_the_apps_encoding_with_ids():
    enc = tokviz.encode("안녕하세요 👋", "cl100k_base")
    assert isinstance(enc, Encoding) and isinstance(enc, tokviz.Encoding)
    assert enc.ids == [31495, 230, 75265, 243, 92245, 62904, 233]
    assert enc.joined_bytes() == "안녕하세요 👋".encode()
    assert enc.tokens[0].partial and enc.tokens[4].piece == "하세요"


def test_encode_special_tokens_only_when_asked():
    assert tokviz.encode("<|endoftext|>", "gpt2").ids != [50256]
    assert tokviz.encode("<|endoftext|>", "gpt2", allow_special=True).ids == [50256]


def test_encoders_lists_names_that_encode_accepts():
    names = tokviz.encoders()
    assert {"gpt2", "cl100k_base", "o200k_base"} <= set(names)
    available = tokviz.encoders(available_only=True)
    assert set(available) <= set(names) and "cl100k_base" in available


def test_an_unknown_encoder_is_a_clear_error():
    with pytest.raises(EncoderUnavailable, match="no such encoder") as info:
        tokviz.encode("hi", "cl100k")
    assert isinstance(info.value, TokvizError)


def test_open_model_reads_a_model_file(tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(["low lower lowest newer wider"] * 10, trainers.BpeTrainer(vocab_size=40,
                                                                                       special_tokens=["[UNK]"]))
    path = tmp_path / "tokenizer.json"
    tok.save(str(path))
    encoder = tokviz.open_model(path)
    got = encoder.encode("lower newer")
    assert isinstance(got, Encoding) and got.ids == tok.encode("lower newer").ids
    assert tokviz.open_model(str(tmp_path)).encode("low").ids == tok.encode("low").ids
    with pytest.raises(ModelFileError):
        tokviz.open_model(tmp_path / "missing.json")


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError):
        tokviz.no_such_thing  # noqa: B018


# ---- the notebook view --------------------------------------------------------------------------------

def test_repr_html_escapes_the_text():
    text = '<script>alert("x")</script> & <b>'
    page = tokviz.encode(text, "cl100k_base")._repr_html_()
    assert "<script>" not in page and "<b>" not in page
    assert "&lt;script&gt;" in page or "&lt;script" in page
    assert html.unescape(re.sub(r"<[^>]+>", "", page.split("</style>", 1)[1])).count("alert") == 1


def test_repr_html_shows_ids_on_hover_hex_for_cut_characters_and_markers():
    enc = tokviz.encode("안녕하세요 👋\n\tx", "cl100k_base")
    page = enc._repr_html_()
    titles = re.findall(r'title="([^"]*)"', page)
    assert len(titles) == len(enc)
    assert titles[0] == "id 31495 · bytes EC 95 · cuts 안 (EC 95 88)"
    assert '<span class="x">EC 95</span>' in page and '<span class="x">8B</span>' in page
    # the cut character above the tokens that share it, as in the Inspector
    assert '<span class="g"><span class="ch">안</span>' in page and '<span class="ch">👋</span>' in page
    assert '<span class="m">·</span>' in page and '<span class="m">↵</span>' in page and "<br>" in page
    assert '<span class="m">→</span>' in page
    assert ">하세요</span>" in page


def test_repr_html_colours_are_the_apps_and_neighbours_of_one_colour_alternate_outlines():
    enc = Encoding.from_byte_tokens("d", "aaaa", [(7, b"a")] * 4)
    page = enc._repr_html_()
    k = display.palette_index(7)
    classes = re.findall(r'<span class="(t c\d+[^"]*)"', page)
    assert classes == [f"t c{k}", f"t c{k} o", f"t c{k}", f"t c{k} o"]
    assert f".tokviz-enc .c{k}{{background:{display.LIGHT_PALETTE[k]}}}" in page
    assert f".tokviz-enc .c{k}{{background:{display.DARK_PALETTE[k]}}}" in page  # dark notebook themes


def test_repr_html_marks_special_tokens_and_stops_at_the_limit():
    special = Encoding.from_byte_tokens("d", "<s>a", [(1, b"<s>"), (2, b"a")], kinds=["special", "normal"])
    page = special._repr_html_()
    assert 'class="t c' in page and " s\"" in page and "· special" in page
    many = Encoding.from_byte_tokens("d", "ab" * 30, [(i % 5, b"ab") for i in range(30)])
    short = display.encoding_html(many, limit=10)
    assert short.count('class="t c') == 10 and "showing the first 10" in short and "30 tokens" in short


def test_the_core_palette_is_the_apps():
    pytest.importorskip("PySide6")
    from tokviz.ui import token_colors

    assert display.LIGHT_PALETTE == token_colors.LIGHT_PALETTE
    assert display.DARK_PALETTE == token_colors.DARK_PALETTE
    assert all(display.palette_index(i) == token_colors.palette_index(i) for i in range(0, 300_000, 7))


def test_text_colour_reads_on_every_chip():
    """Black text on the light chips, white on the dark ones (WCAG contrast >= 4.5, as the app's)."""
    pytest.importorskip("PySide6")
    from PySide6.QtGui import QColor

    from tokviz.ui.token_colors import contrast_ratio

    for colour in display.LIGHT_PALETTE:
        assert contrast_ratio(QColor(colour), QColor("#111111")) >= 4.5, colour
    for colour in display.DARK_PALETTE:
        assert contrast_ratio(QColor(colour), QColor("#f5f5f5")) >= 4.5, colour


def test_token_label_and_html_agree_on_markers():
    token = Token(1, b" \xec\x95", 0, 3, 0, 2, True)
    assert display.token_label(token) == "·‹EC 95›"
    page = display.encoding_html(Encoding.from_byte_tokens("d", " 안", [(1, b" \xec\x95"), (2, b"\x88")]))
    assert '<span class="m">·</span><span class="x">EC 95</span>' in page
