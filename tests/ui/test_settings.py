from __future__ import annotations

from PySide6.QtCore import QByteArray

from tokviz.ui.settings import Settings


def test_settings_round_trip_through_a_file(tmp_path):
    s = Settings.at(tmp_path / "t.ini")
    s.theme = "dark"
    s.language = "ko"
    s.font_scale = 1.5
    s.last_encoders = ["cl100k_base"]
    s.last_corpus = "/data/corpus.txt"
    s.window_geometry = QByteArray(b"geom")
    s.sync()
    again = Settings.at(tmp_path / "t.ini")
    assert (again.theme, again.language, again.font_scale) == ("dark", "ko", 1.5)
    assert again.last_encoders == ["cl100k_base"]
    assert again.last_corpus == "/data/corpus.txt"
    assert bytes(again.window_geometry) == b"geom"


def test_bad_values_fall_back_to_defaults(tmp_path):
    path = tmp_path / "bad.ini"
    path.write_text("[ui]\ntheme=purple\nfont_scale=huge\n", encoding="utf-8")
    s = Settings.at(path)
    assert s.theme == "system" and s.font_scale == 1.0 and s.last_corpus is None


def test_default_settings_live_under_the_test_config_home_in_a_file_of_this_tests_own(request):
    import os

    name = Settings().file_name
    assert name.startswith(os.environ["XDG_CONFIG_HOME"])
    assert request.node.name in name  # another test's Settings() is another file
