from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QDataStream, QIODevice, QRect
from PySide6.QtWidgets import QMainWindow, QSplitter

from tokviz.ui.settings import Settings, saved_geometry_problem

ROOT = Path(__file__).resolve().parents[2]


def geometry_blob(x: int, y: int, width: int, height: int) -> QByteArray:
    """What QWidget.saveGeometry writes (format 3.0) for a window at x, y of width x height."""
    out = QByteArray()
    stream = QDataStream(out, QIODevice.OpenModeFlag.WriteOnly)
    stream.setVersion(QDataStream.Version.Qt_4_0)
    stream.writeUInt32(0x1D9D0CB)
    stream.writeUInt16(3)
    stream.writeUInt16(0)
    rect = (x, y, x + width - 1, y + height - 1)
    for value in (*rect, *rect):
        stream.writeInt32(value)
    stream.writeInt32(0)  # screen number
    stream.writeUInt8(0)  # maximized
    stream.writeUInt8(0)  # full screen
    stream.writeInt32(1920)  # the screen's width
    for value in rect:
        stream.writeInt32(value)
    return out


def write_ini(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_settings_round_trip_through_a_file(tmp_path, qapp):
    window = QMainWindow()
    window.resize(640, 480)
    geometry = window.saveGeometry()
    s = Settings.at(tmp_path / "t.ini")
    s.theme = "dark"
    s.language = "ko"
    s.font_scale = 1.5
    s.last_encoders = ["cl100k_base"]
    s.last_corpus = "/data/corpus.txt"
    s.window_geometry = geometry
    s.window_state = window.saveState()
    s.set_splitter_state("inspect/0", QSplitter().saveState())
    s.sync()
    again = Settings.at(tmp_path / "t.ini")
    assert (again.theme, again.language, again.font_scale) == ("dark", "ko", 1.5)
    assert again.last_encoders == ["cl100k_base"]
    assert again.last_corpus == "/data/corpus.txt"
    assert bytes(again.window_geometry) == bytes(geometry)
    assert bytes(again.window_state) == bytes(window.saveState())
    assert again.splitter_state("inspect/0") is not None
    assert again.take_report() is None and again.problems == {}


def test_bad_values_fall_back_to_defaults(tmp_path):
    path = write_ini(tmp_path / "bad.ini", "[ui]\ntheme=purple\nfont_scale=huge\n")
    s = Settings.at(path)
    assert s.theme == "system" and s.font_scale == 1.0 and s.last_corpus is None
    assert set(s.problems) == {"ui/theme", "ui/font_scale"}


@pytest.mark.parametrize("raw", ["nan", "NaN", "inf", "-inf", "-3", "1e9", "0", "1e400", "huge", "", "1, 2",
                                 "@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x05QSize\\0\\0\\0\\x1\\0\\0\\0\\x2)", "true"])
def test_a_bad_font_scale_starts_with_the_default_and_says_so_once(tmp_path, raw):
    path = write_ini(tmp_path / "tokviz.ini", f"[ui]\nfont_scale={raw}\ntheme=dark\n")
    s = Settings.at(path)
    assert s.font_scale == 1.0
    assert s.theme == "dark"  # the good keys are kept
    report = s.take_report()
    assert report is not None and "ui/font_scale" in report and str(path) in report
    assert s.take_report() is None  # once
    s.sync()  # the repaired file no longer holds the bad value
    assert Settings.at(path).take_report() is None


@pytest.mark.parametrize("key,raw", [
    ("presentation_pace", "nan"), ("presentation_pace", "-1"), ("presentation_pace", "1e308"),
    ("language", "klingon"), ("theme", "1, 2"),
])
def test_every_number_and_choice_is_validated(tmp_path, key, raw):
    s = Settings.at(write_ini(tmp_path / "t.ini", f"[ui]\n{key}={raw}\n"))
    assert f"ui/{key}" in s.problems
    assert s.presentation_pace == 1.0 and s.language == "system" and s.theme == "system"


def test_setters_never_store_a_non_finite_number(tmp_path):
    s = Settings.at(tmp_path / "t.ini")
    s.font_scale = float("nan")
    s.presentation_pace = float("inf")
    assert s.font_scale == 1.0 and s.presentation_pace == 1.0 and s.problems == {}


def test_lists_and_paths_are_validated(tmp_path):
    long = "x" * 5000
    ini = f"[encoders]\nlast={long}\n[corpus]\nlast=@Variant(\\0\\0\\0\\x2\\0\\0\\0\\x1)\n[window]\nview=sideways\n"
    s = Settings.at(write_ini(tmp_path / "t.ini", ini))
    assert s.last_encoders == [] and s.last_corpus is None and s.current_view == "inspect"
    assert {"encoders/last", "corpus/last", "window/view"} <= set(s.problems)


@pytest.mark.parametrize("blob,why", [
    (b"geom", "not a saved window geometry"),
    (bytes(geometry_blob(0, 0, 800, 600))[:30], "truncated"),
    (bytes(geometry_blob(0, 0, 4_000_000, 900)), "4000000x900"),
    (bytes(geometry_blob(-2_000_000_000, 0, 800, 600)), "at (-2000000000"),
    (bytes(geometry_blob(0, 0, 0, 600)), "0x600"),
    (bytes(2000), "2000 bytes"),
])
def test_corrupt_geometry_is_dropped_and_named(tmp_path, blob, why):
    s = Settings.at(tmp_path / "t.ini")
    s.window_geometry = QByteArray(blob)
    s.sync()
    again = Settings.at(tmp_path / "t.ini")
    assert again.window_geometry is None
    assert why in again.problems["window/geometry"]


def test_real_geometry_blobs_pass_and_mutated_ones_never_reach_qt_broken(qapp):
    window = QMainWindow()
    window.resize(700, 500)
    real = bytes(window.saveGeometry())
    assert saved_geometry_problem(QByteArray(real)) is None
    rng = random.Random(16)
    for _ in range(300):
        data = bytearray(real)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        data = data[:rng.randint(0, len(data))] if rng.random() < 0.3 else data
        blob = QByteArray(bytes(data))
        if saved_geometry_problem(blob) is None:  # what passes is still restorable without harm
            probe = QMainWindow()
            probe.restoreGeometry(blob)
            assert 0 < probe.width() <= 100_000 and 0 < probe.height() <= 100_000


def test_corrupt_window_and_splitter_states_are_dropped(tmp_path, qapp):
    s = Settings.at(tmp_path / "t.ini")
    s.window_state = QByteArray(b"garbage that is not a state")
    s.set_splitter_state("inspect/0", QByteArray(bytes(100_000)))
    s.sync()
    write = (tmp_path / "t.ini").read_text(encoding="utf-8") + "[splitters]\ncompare%2F1=plain text\n"
    (tmp_path / "t.ini").write_text(write, encoding="utf-8")
    again = Settings.at(tmp_path / "t.ini")
    assert again.window_state is None and again.splitter_state("inspect/0") is None
    assert {"window/state", "splitters/inspect/0"} <= set(again.problems)
    assert len(again.problems) == 3  # the text splitter value too, found by the start-up check
    # a state with the right header but garbage after it: Qt checks the rest and refuses it
    garbage = QByteArray(b"\x00\x00\x00\xff" + bytes(random.Random(1).randbytes(200)))
    assert QMainWindow().restoreState(garbage) is False


def test_an_oversized_file_is_moved_aside_and_kept(tmp_path):
    path = tmp_path / "tokviz.ini"
    big = "[ui]\ntheme=dark\nnotes=" + "x" * (2 << 20) + "\n"
    path.write_text(big, encoding="utf-8")
    s = Settings.at(path)
    assert s.theme == "system"
    assert "moved to tokviz.ini.bad" in s.take_report()
    assert (tmp_path / "tokviz.ini.bad").read_text(encoding="utf-8") == big  # nothing lost
    s.theme = "light"
    s.sync()
    assert Settings.at(path).theme == "light"


def test_binary_garbage_gives_valid_values(tmp_path):
    rng = random.Random(16)
    for i in range(20):
        path = tmp_path / f"garbage{i}.ini"
        path.write_bytes(rng.randbytes(rng.randint(1, 20_000)) if i % 2 else
                         b"[ui]\nfont_scale=" + rng.randbytes(300) + b"\n[window]\ngeometry=@ByteArray(" +
                         rng.randbytes(200) + b")\n")
        s = Settings.at(path)
        assert s.theme in ("system", "light", "dark") and 0.5 <= s.font_scale <= 4.0
        assert 0.0 <= s.presentation_pace <= 1000.0 and s.current_view in ("inspect", "train", "compare")
        assert all(isinstance(name, str) for name in s.last_encoders)
        assert s.window_geometry is None or saved_geometry_problem(s.window_geometry) is None


def test_a_directory_in_place_of_the_file_gives_defaults_and_a_message(tmp_path):
    folder = tmp_path / "tokviz.ini"
    folder.mkdir()
    s = Settings.at(folder)
    assert s.theme == "system"
    assert "is a directory" in s.take_report()
    s.theme = "dark"
    s.sync()  # saved elsewhere for this run; no exception
    assert s.theme == "dark" and folder.is_dir()


def test_a_fifo_in_place_of_the_file_does_not_hang_the_start(tmp_path):
    fifo = tmp_path / "tokviz.ini"
    os.mkfifo(fifo)
    code = ("import sys; from tokviz.ui.settings import Settings; "
            "print(Settings.at(sys.argv[1]).take_report())")
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, env=env,
                            timeout=120)  # a regression hangs until this generous limit
    assert result.returncode == 0, result.stderr
    assert "is not a regular file" in result.stdout


def test_default_settings_live_under_the_test_config_home_in_a_file_of_this_tests_own(request):
    name = Settings().file_name
    assert name.startswith(os.environ["XDG_CONFIG_HOME"])
    assert request.node.name in name  # another test's Settings() is another file
    assert name.endswith(os.path.join("tokviz", "tokviz.ini"))


# ---- the real window with a corrupt tokviz.ini --------------------------------------------------

def test_nan_font_scale_opens_a_normal_window_and_every_tab_works(qtbot, tmp_path):
    """The reproduction: font_scale=nan made the window four million pixels wide, then the Compare
    tab crashed (NaN font size in the plots)."""
    from tokviz.ui import fonts
    from tokviz.ui.app import open_window

    path = write_ini(tmp_path / "tokviz.ini", "[ui]\nfont_scale=nan\n[window]\ngeometry=@ByteArray(junk)\n")
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
    assert "ui/font_scale" in message and "window/geometry" in message
    window.close()


def test_a_saved_geometry_larger_than_the_screen_is_fitted_to_it(qtbot, tmp_path):
    from PySide6.QtGui import QGuiApplication

    from tokviz.ui.app import fit_into, open_window

    s = Settings.at(tmp_path / "tokviz.ini")
    s.window_geometry = geometry_blob(5000, 5000, 3000, 2000)
    window = open_window(s)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    available = QGuiApplication.primaryScreen().availableGeometry()
    # the frame (borders) fits too, once the platform has given it a size
    qtbot.waitUntil(lambda: available.contains(window.frameGeometry()), timeout=5000)
    assert fit_into(QRect(100, 100, 50, 50), QRect(0, 0, 800, 600)) == QRect(100, 100, 50, 50)
    assert fit_into(QRect(-9000, -9000, 9000, 9000), QRect(10, 20, 800, 600)) == QRect(10, 20, 800, 600)
    window.close()


def test_an_ephemeral_settings_folder_goes_with_its_settings(qapp):
    """Every screenshot and test made a temporary settings folder that stayed behind forever."""
    import gc

    settings = Settings.ephemeral()
    settings.theme = "dark"
    folder = os.path.dirname(settings.file_name)
    assert os.path.isdir(folder)
    del settings
    gc.collect()
    assert not os.path.exists(folder)


def test_an_ephemeral_settings_folder_stays_gone_when_a_write_comes_after_the_exit_cleanup(tmp_path):
    """At exit the folder is removed while the settings are still alive; a window closed after that saved
    its geometry and made the folder again (about ten were left behind by every run of the suite)."""
    script = (
        "import atexit, sys\n"
        "late = []\n"
        # registered before the settings' cleanup, so it runs after it at exit (atexit runs last-in first-out)
        "atexit.register(lambda: (setattr(late[0], 'theme', 'dark'), late[0].sync()))\n"
        "from tokviz.ui.settings import Settings\n"
        "late.append(Settings.ephemeral())\n"
        "late[0].theme = 'light'\n"
        "print(late[0].file_name)\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    folder = os.path.dirname(done.stdout.strip())
    assert folder.startswith(str(tmp_path)) and not os.path.exists(folder)
    assert not any(p.name.startswith("tokviz-settings-") for p in tmp_path.iterdir())


def test_temporary_folders_can_be_removed_before_an_exit_that_runs_no_handler(qapp):
    """The test session ends its process without running exit handlers: it removes the folders first,
    and the settings still alive write nowhere afterwards."""
    from tokviz.ui.settings import remove_temporary_folders

    settings = Settings.ephemeral()
    settings.theme = "dark"
    folder = os.path.dirname(settings.file_name)
    remove_temporary_folders()
    assert not os.path.exists(folder)
    settings.theme = "light"
    settings.sync()
    assert not os.path.exists(folder)
