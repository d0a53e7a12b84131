"""A corrupt or hostile tokviz.ini: every key with every kind of bad value, and whole files of garbage.

Every value read comes back valid (its type, its range, finite), the bad keys are named once in the
report and the good keys are kept; the real window opens with them and every tab works.
(tests/ui/test_settings.py pins the individual rules; this file sweeps every key x attack.)
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QByteArray

from tokviz.ui.settings import LANGUAGES, THEMES, VIEWS, Settings, saved_geometry_problem

# the ini keys tokviz reads, as written in the file
KEYS = ["ui/theme", "ui/language", "ui/font_scale", "ui/presentation_pace", "window/geometry", "window/state",
        "window/view", "encoders/last", "corpus/last", "splitters/inspect%2F0"]

# what a damaged or hostile file puts in a value
ATTACKS = {
    "nan": "nan",
    "infinity": "inf",
    "huge": "1e400",
    "huge-integer": "9" * 400,
    "negative": "-7",
    "negative-huge": "-1e308",
    "empty": "",
    "list": "a, b, c",
    "size-variant": "@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x05QSize\\0\\0\\0\\x1\\0\\0\\0\\x2)",
    "rect": "@Rect(1 2 3 4)",
    "point": "@Point(-2000000000 5)",
    "bytearray": "@ByteArray(\\xff\\xfe\\0garbage)",
    "bool": "true",
    "escape-codes": "\\x1b[31m\\0\\a",
    "nul-path": "a\\0b",
    "100k-value": "x" * 100_000,
    "many-items": ", ".join(["gpt2"] * 5000),
}


def write_ini(path, key: str, raw: str, good: str):
    section, name = key.split("/", 1)
    other = "language" if key == "ui/theme" else "theme"
    value = "ko" if other == "language" else good
    path.write_text(f"[ui]\n{other}={value}\n[{section}]\n{name}={raw}\n", encoding="utf-8")
    return other, value


def assert_every_value_valid(s: Settings) -> None:
    """What the window may rely on, whatever the file held."""
    assert s.theme in THEMES and s.language in LANGUAGES and s.current_view in VIEWS
    assert isinstance(s.font_scale, float) and math.isfinite(s.font_scale) and 0.5 <= s.font_scale <= 4.0
    pace = s.presentation_pace
    assert isinstance(pace, float) and math.isfinite(pace) and 0.0 <= pace <= 1000.0
    names = s.last_encoders
    assert isinstance(names, list) and len(names) <= 64
    assert all(isinstance(n, str) and n and "\0" not in n and len(n) <= 4096 for n in names)
    corpus = s.last_corpus
    assert corpus is None or (isinstance(corpus, str) and "\0" not in corpus and len(corpus) <= 4096)
    geometry = s.window_geometry
    assert geometry is None or (isinstance(geometry, QByteArray) and saved_geometry_problem(geometry) is None)
    for state in (s.window_state, s.splitter_state("inspect/0")):
        assert state is None or (isinstance(state, QByteArray) and bytes(state[:4]) == b"\x00\x00\x00\xff")


@pytest.mark.parametrize("attack", list(ATTACKS))
@pytest.mark.parametrize("key", KEYS)
def test_every_key_with_every_bad_value_gives_a_valid_value_and_keeps_the_good_keys(tmp_path, qapp, key, attack):
    path = tmp_path / "tokviz.ini"
    other, good = write_ini(path, key, ATTACKS[attack], "dark")
    s = Settings.at(path)
    s.check()
    assert_every_value_valid(s)
    assert getattr(s, other) == good  # the good key survives the bad one beside it
    # numbers and choices take no attack value as valid: each is named, once
    if key.startswith("ui/") or key == "window/view":
        report = s.take_report()
        assert report is not None and key in report and str(path) in report
        assert s.take_report() is None
        s.sync()  # the repaired file starts clean
        again = Settings.at(path)
        again.check()
        assert again.take_report() is None and getattr(again, other) == good


def test_a_10_mb_value_is_moved_aside_with_the_file_and_the_defaults_start(tmp_path, qapp):
    path = tmp_path / "tokviz.ini"
    text = "[ui]\ntheme=dark\n[corpus]\nlast=" + "/very/long" * (1 << 20) + "\n"
    path.write_text(text, encoding="utf-8")
    s = Settings.at(path)
    s.check()
    assert_every_value_valid(s)
    assert s.theme == "system" and s.last_corpus is None
    assert "moved to tokviz.ini.bad" in s.take_report()
    assert (tmp_path / "tokviz.ini.bad").read_text(encoding="utf-8") == text  # nothing lost


@pytest.mark.parametrize("seed", range(12))
def test_binary_garbage_in_every_section_gives_valid_values(tmp_path, qapp, seed):
    rng = random.Random(seed)
    sections: dict[str, list[str]] = {}
    for key in KEYS:
        section, name = key.split("/", 1)
        sections.setdefault(section, []).append(name)
    blob = b""
    for section, names in sections.items():
        blob += f"[{section}]\n".encode()
        for name in names:
            blob += name.encode() + b"=" + rng.randbytes(rng.randint(0, 400)) + b"\n"
    path = tmp_path / "tokviz.ini"
    path.write_bytes(blob)
    s = Settings.at(path)
    s.check()
    assert_every_value_valid(s)


_ini_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(KEYS), raw=_ini_text)
def test_any_text_in_any_key_gives_a_valid_value(tmp_path, qapp, key, raw):
    path = tmp_path / "tokviz.ini"
    section, name = key.split("/", 1)
    path.write_text(f"[{section}]\n{name}={raw}\n", encoding="utf-8")
    s = Settings.at(path)
    s.check()
    assert_every_value_valid(s)


def test_the_window_opens_on_a_file_where_every_key_is_bad(qtbot, tmp_path):
    from tokviz.ui import fonts
    from tokviz.ui.app import open_window

    path = tmp_path / "tokviz.ini"
    hostile = {"ui/theme": "\\0", "ui/language": "@Rect(1 2 3 4)", "ui/font_scale": "nan",
               "ui/presentation_pace": "-1e308", "window/geometry": ATTACKS["point"],
               "window/state": ATTACKS["bytearray"], "window/view": "1e400",
               "encoders/last": ATTACKS["size-variant"], "corpus/last": ATTACKS["nul-path"],
               "splitters/inspect%2F0": "plain text"}
    lines: dict[str, list[str]] = {}
    for key, raw in hostile.items():
        section, name = key.split("/", 1)
        lines.setdefault(section, []).append(f"{name}={raw}")
    path.write_text("".join(f"[{s}]\n" + "\n".join(v) + "\n" for s, v in lines.items()), encoding="utf-8")
    window = open_window(Settings.at(path))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert fonts.scale() == 1.0
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        qtbot.waitUntil(lambda i=index: window.tabs.currentWidget().isVisible() and window.tabs.currentIndex() == i)
        assert window.width() < 10_000
    message = window.statusBar().currentMessage()
    for key in ("ui/theme", "ui/font_scale", "ui/presentation_pace", "window/view"):
        assert key in message, (key, message)
    window.close()
