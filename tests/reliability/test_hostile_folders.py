"""A model folder cannot make tokviz touch files outside itself, and every export fails cleanly.

- The journal hijack: a downloaded folder with vocab.json + merges.txt and a ``.*.tokviz-commit``
  file naming a payload and a victim elsewhere. Opening the model (every way the CLI, the GUI's
  model dialog and the core do it) or exporting a GPT-2 pair into the folder leaves the victim and
  the folder untouched.
- Every writer (model formats, tokenizer.json, vocab.txt, CSV, PNG, GIF, sentencepiece .model)
  against a read-only folder, a refused rename, a full disk, a folder as target, a too-long name and
  a file in the folder path: a one-line error naming the user's file (never the hidden temp file),
  the old file intact, no temp file left; a legal 255-byte name works.
- The CLI exits 2 with that line: ``train --export`` (tokenizer-json, vocab-txt, gpt2) and
  ``screenshot -o DIR``.
"""

from __future__ import annotations

import errno
import functools
import json
import os
from pathlib import Path

import pytest

from tests.support.trained_models import bpe_model, wordpiece_model
from tokviz.cli import main
from tokviz.core import atomic
from tokviz.core.atomic import TEMP_MARK, WriteError
from tokviz.core.bpe.formats import detect_format, load_model, save_model
from tokviz.core.errors import ModelFileError, TokvizError

VICTIM = "the user's own file\n"
small_bpe = functools.cache(bpe_model)
small_wordpiece = functools.cache(wordpiece_model)
PAYLOAD = "echo owned\n"


@pytest.fixture(scope="module")
def byte_models():
    return bpe_model("byte", 20), bpe_model("byte", 40)


def _listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# ---- the journal hijack -------------------------------------------------------------------------------
def _hostile_folder(tmp_path: Path, model, relative: bool) -> tuple[Path, Path]:
    """``tmp_path/m`` holding a GPT-2 pair, a payload and journals that name a victim outside it."""
    folder = tmp_path / "m"
    save_model(model, f"{folder}/", "gpt2")
    (folder / "payload.sh").write_text(PAYLOAD, encoding="utf-8")
    victim = tmp_path / "victim"
    victim.write_text(VICTIM, encoding="utf-8")
    if relative:  # resolved against the working directory, as the attack in the issue did
        plan = [["m/payload.sh", "victim"]]
    else:
        plan = [[str(folder / "payload.sh"), str(victim)]]
    for name in (".vocab.json.tokviz-commit", ".merges.txt.tokviz-commit", ".x.tokviz-commit"):
        (folder / name).write_text(json.dumps({"replace": plan}), encoding="utf-8")
    return folder, victim


def _open_cli(args: list[str]):
    def run(folder: Path):
        assert main(["encode", *[a.format(m=folder) for a in args], "hi"]) == 0
    return run


def _open_gui_dialog(folder: Path):
    from tokviz.ui.common.model_open import load_model as dialog_load

    assert dialog_load(folder / "vocab.json").encoder is not None


def _open_model_file(target: str):
    def run(folder: Path):
        from tokviz.core.encoders.builtin import open_model_file

        open_model_file(folder / target if target else folder)
    return run


OPENINGS = {
    "cli encode --model m/vocab.json": _open_cli(["--model", "{m}/vocab.json"]),
    "cli encode --model m": _open_cli(["--model", "{m}"]),
    "detect_format(folder)": lambda folder: detect_format(folder),
    "detect_format(vocab.json)": lambda folder: detect_format(folder / "vocab.json"),
    "load_model(folder)": lambda folder: load_model(folder),
    "load_model(merges.txt)": lambda folder: load_model(folder / "merges.txt"),
    "open_model_file(vocab.json)": _open_model_file("vocab.json"),
    "open_model_file(folder)": _open_model_file(""),
    "GUI model dialog": _open_gui_dialog,
}


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "relative"])
@pytest.mark.parametrize("opening", list(OPENINGS))
def test_opening_a_folder_with_a_planted_journal_touches_nothing(tmp_path, monkeypatch, capsys, byte_models,
                                                                  opening, relative):
    folder, victim = _hostile_folder(tmp_path, byte_models[0], relative)
    monkeypatch.chdir(tmp_path)
    before = _listing(folder)
    OPENINGS[opening](folder)
    assert victim.read_text(encoding="utf-8") == VICTIM
    assert _listing(folder) == before  # nothing renamed, moved or deleted, journals included
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m", "victim"]


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "relative"])
def test_a_gpt2_export_into_a_folder_with_a_planted_journal_replays_nothing(tmp_path, monkeypatch, byte_models,
                                                                           relative):
    old, new = byte_models
    folder, victim = _hostile_folder(tmp_path, old, relative)
    monkeypatch.chdir(tmp_path)
    before = _listing(folder)
    save_model(new, f"{folder}/", "gpt2")
    assert victim.read_text(encoding="utf-8") == VICTIM
    after = _listing(folder)
    assert after.keys() == before.keys()  # the payload and the journals are where they were
    assert {k for k in after if after[k] != before[k]} == {"vocab.json", "merges.txt"}
    assert load_model(folder).merges == new.merges


def test_a_pair_whose_merges_come_in_another_order_is_refused(tmp_path, byte_models):
    """A merges.txt beside another export's vocab.json where every merge's parts and product are
    listed, only under other ids (two exports whose ties broke the other way): the old loader read
    such a pair silently, with ranks that disagree with the ids."""
    save_model(byte_models[0], f"{tmp_path}/", "gpt2")
    merges = tmp_path / "merges.txt"
    lines = merges.read_text(encoding="utf-8").splitlines(keepends=True)
    firsts = [i for i, line in enumerate(lines[1:], 1) if all(len(part) == 1 for part in line.split())]
    i, j = firsts[0], firsts[1]  # two merges of two bytes each: swapping them breaks no parent
    lines[i], lines[j] = lines[j], lines[i]
    merges.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(ModelFileError, match="do not belong together"):
        load_model(tmp_path)


# ---- every writer against every failure -----------------------------------------------------------------
def _png(path):
    from PySide6.QtGui import QColor, QImage

    from tokviz.ui.common.image_export import save_image_png

    image = QImage(4, 3, QImage.Format.Format_ARGB32)
    image.fill(QColor("red"))
    return save_image_png(image, path)


def _gif(path):
    from tokviz.core.animation import Frame, write_animation

    return write_animation([Frame(2, 2, b"\xff\x00\x00\xff" * 4)] * 2, path)


def _csv(path):
    from tokviz.ui.compare.tables import write_csv_atomic

    return write_csv_atomic(path, ["토큰", "n"], [["가", "1"]])


def _vocab_txt(path):
    from tokviz.core.hf_export import write_vocab_txt

    return write_vocab_txt(small_wordpiece(1400), path)


def _tokenizer_json(path):
    from tokviz.core.hf_export import write_tokenizer_json

    return write_tokenizer_json(small_bpe("byte", 10), path)


def _sentencepiece(path):
    from tokviz.core.encoders.sentencepiece_train import write_model

    return write_model(b"\x0a\x05model", path)


def _screenshot_tokens(path):
    from tokviz.core.atomic import write_atomic

    return write_atomic(path, "{}\n")


WRITERS = {
    "tokviz": lambda p: save_model(small_bpe("byte", 10), p, "tokviz"),
    "tiktoken": lambda p: save_model(small_bpe("byte", 10), p, "tiktoken"),
    "subword-nmt": lambda p: save_model(small_bpe("char", 10), p, "subword-nmt"),
    "gpt2 (base name)": lambda p: save_model(small_bpe("byte", 10), p, "gpt2"),
    "tokenizer.json": _tokenizer_json,
    "vocab.txt": _vocab_txt,
    "csv": _csv,
    "png": _png,
    "gif": _gif,
    "sentencepiece .model": _sentencepiece,
    "json": _screenshot_tokens,
}


def _written_names(writer: str, name: str) -> list[str]:
    return [f"{name}-vocab.json", f"{name}-merges.txt"] if writer == "gpt2 (base name)" else [name]


def _refuse_new_files(monkeypatch, folder: Path, err_no: int, what: str) -> None:
    real_open = os.open

    def refusing(path, flags, *a, **k):
        if flags & os.O_CREAT and Path(path).parent == folder:
            raise OSError(err_no, what, str(path))
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(atomic.os, "open", refusing)


def _refuse_renames(monkeypatch, err_no: int, what: str) -> None:
    def refusing(src, dst, *a, **k):
        raise OSError(err_no, what, str(src), None, str(dst))  # as the kernel reports it: the temp file first

    monkeypatch.setattr(atomic.os, "replace", refusing)


def _fill_the_disk(monkeypatch) -> None:
    """Every write into a temp file stops with ENOSPC after a few bytes (text, bytes, Qt and Pillow)."""
    import builtins

    real_open = builtins.open

    class Full:
        def __init__(self, f):
            self._f = f

        def write(self, data):
            self._f.write(data[:3])
            raise OSError(errno.ENOSPC, "No space left on device")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._f.close()

        def __getattr__(self, name):
            return getattr(self._f, name)

    def opening(path, mode="r", *a, **k):
        f = real_open(path, mode, *a, **k)
        return Full(f) if TEMP_MARK in os.fspath(path) and ("w" in mode or "+" in mode) else f

    monkeypatch.setattr(atomic, "open", opening, raising=False)
    monkeypatch.setattr(builtins, "open", opening)  # Pillow opens the temp file itself
    from PySide6.QtGui import QImage

    monkeypatch.setattr(QImage, "save", lambda self, *a, **k: False)  # Qt reports no more than this


FAILURES = {
    "read-only folder": (lambda mp, folder: _refuse_new_files(mp, folder, errno.EROFS, "Read-only file system"),
                         "read-only"),
    "permission denied": (lambda mp, folder: _refuse_new_files(mp, folder, errno.EACCES, "Permission denied"),
                          "not writable"),
    "rename refused": (lambda mp, folder: _refuse_renames(mp, errno.EACCES, "Permission denied"), "not writable"),
    "full disk": (lambda mp, folder: _fill_the_disk(mp), "disk is full|could not be encoded or written"),
}


@pytest.mark.parametrize("failure", list(FAILURES))
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_failed_write_names_the_file_keeps_the_old_one_and_leaves_nothing(tmp_path, monkeypatch, writer, failure):
    target = tmp_path / "out.gif"  # the animation writer takes its format from the suffix
    names = _written_names(writer, target.name)
    for name in names:
        (tmp_path / name).write_bytes(b"old")
    before = _listing(tmp_path)
    install, message = FAILURES[failure]
    install(monkeypatch, tmp_path)
    with pytest.raises(TokvizError, match=message) as info:
        WRITERS[writer](target)
    monkeypatch.undo()
    text = str(info.value)
    assert "\n" not in text and TEMP_MARK not in text and any(str(tmp_path / n) in text for n in names), text
    assert _listing(tmp_path) == before


TARGET_PROBLEMS = {
    "target is a folder": (lambda folder: folder / "box.gif", "is a folder"),
    "name too long": (lambda folder: folder / ("가" * 84 + ".gif"), "too long"),
    "a file in the folder path": (lambda folder: folder / "plain" / "sub" / "out.gif", "plain is a file"),
}


@pytest.mark.parametrize("problem", list(TARGET_PROBLEMS))
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_target_that_cannot_be_a_file_gets_a_message(tmp_path, writer, problem):
    # a folder where the file would go (a GPT-2 base name "box" writes box-vocab.json)
    (tmp_path / ("box.gif-vocab.json" if writer == "gpt2 (base name)" else "box.gif")).mkdir()
    (tmp_path / "plain").write_text("x", encoding="utf-8")
    before = {p.name for p in tmp_path.iterdir()}
    make, message = TARGET_PROBLEMS[problem]
    with pytest.raises(TokvizError, match=message) as info:
        WRITERS[writer](make(tmp_path))
    assert TEMP_MARK not in str(info.value) and "\n" not in str(info.value)
    assert {p.name for p in tmp_path.iterdir()} == before
    assert not [p for p in tmp_path.iterdir() if p.is_dir() and any(p.iterdir())]


@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_255_byte_name_is_written(tmp_path, writer):
    name = "x" * (255 - len("-merges.txt")) if writer == "gpt2 (base name)" else "한" * 80 + "x" * 11 + ".gif"
    assert max(len(n.encode()) for n in _written_names(writer, name)) == 255
    WRITERS[writer](tmp_path / name)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(_written_names(writer, name))


def test_a_gpt2_pair_whose_merges_target_is_a_folder_replaces_nothing(tmp_path, byte_models):
    old, new = byte_models
    save_model(old, f"{tmp_path}/", "gpt2")
    (tmp_path / "merges.txt").unlink()
    (tmp_path / "merges.txt").mkdir()
    before = _listing_with_folders(tmp_path)
    with pytest.raises(ModelFileError, match="merges.txt: is a folder.*nothing was replaced"):
        save_model(new, f"{tmp_path}/", "gpt2")
    assert _listing_with_folders(tmp_path) == before  # vocab.json is the old one, no temp, no journal


def _listing_with_folders(folder: Path) -> dict[str, bytes | None]:
    return {p.name: None if p.is_dir() else p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_write_error_is_an_os_error_naming_the_users_file():
    err = WriteError.of("/data/out.png", OSError(errno.ENOSPC, "No space left on device", "/data/.out.png.tvzab12cd"))
    assert isinstance(err, OSError) and isinstance(err, TokvizError)
    assert err.filename == "/data/out.png" and str(err).startswith("/data/out.png: the disk is full")
    assert TEMP_MARK not in str(err) and TEMP_MARK not in err.strerror


# ---- the CLI: exit 2, one line, nothing left ------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("corpus") / "c.txt"
    path.write_text("the lowest newest widest tokens of a merge in a small corpus\n" * 40, encoding="utf-8")
    return path


def _train_export(corpus: Path, fmt: str, out: Path) -> list[str]:
    algorithm = {"tokenizer-json": "wordpiece", "vocab-txt": "wordpiece"}.get(fmt, "bpe")
    size = ["--vocab-size", "60"] if algorithm == "wordpiece" else ["--merges", "10"]
    return ["train", str(corpus), "--algorithm", algorithm, *size, "-q", "--export", fmt, str(out)]


@pytest.mark.parametrize("fmt", ["tokenizer-json", "vocab-txt", "gpt2"])
def test_train_export_control_succeeds(tmp_path, capsys, corpus, fmt):
    """The failure cases below differ from this one only in their target."""
    assert main(_train_export(corpus, fmt, tmp_path / "model")) == 0
    assert len(list(tmp_path.iterdir())) == (2 if fmt == "gpt2" else 1)


@pytest.mark.parametrize("fmt", ["tokenizer-json", "vocab-txt", "gpt2"])
@pytest.mark.parametrize("case", ["folder", "read-only", "full disk", "too long", "file in path"])
def test_train_export_failures_exit_2_with_one_line(tmp_path, monkeypatch, capsys, corpus, fmt, case):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "model"
    if case == "folder":
        out.mkdir()
        if fmt == "gpt2":  # the folder form: its merges.txt is a folder
            (out / "merges.txt").mkdir()
    elif case == "read-only":
        _refuse_new_files(monkeypatch, out_dir, errno.EROFS, "Read-only file system")
    elif case == "full disk":
        monkeypatch.setattr(atomic, "open", _full_disk_open(), raising=False)
    elif case == "too long":
        out = out_dir / ("x" * 256)
    else:
        (out_dir / "plain").write_text("x", encoding="utf-8")
        out = out_dir / "plain" / "model"
    before = _listing_with_folders(out_dir)
    assert main(_train_export(corpus, fmt, out)) == 2
    err = capsys.readouterr().err
    assert err.startswith("tokviz: ") and err.count("\n") == 1 and "Traceback" not in err, err
    assert TEMP_MARK not in err
    monkeypatch.undo()
    assert _listing_with_folders(out_dir) == before


def _full_disk_open():
    import builtins

    def opening(path, mode="r", *a, **k):
        if "w" in mode:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return builtins.open(path, mode, *a, **k)
    return opening


def test_screenshot_into_a_folder_exits_2_before_rendering(tmp_path, capsys):
    out = tmp_path / "shots"
    out.mkdir()
    assert main(["screenshot", "--view", "inspect", "--text", "hi", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"tokviz: {out}: is a folder, not a file; nothing was replaced\n"
    assert list(out.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["shots"]


# ---- the GUI's own paths: the message it shows names the user's file -------------------------------------
def test_the_window_s_gif_export_failure_names_the_users_file(qtbot, tmp_path, monkeypatch):
    """The animation is written on a work channel like the Train panel's; Pillow's own error (about the
    temp file it was writing) reaches the message bar as a sentence about the user's file."""
    from PIL import Image
    from PySide6.QtCore import QObject

    from tokviz.core.animation import Frame, write_animation
    from tokviz.ui.common.work import WorkService

    def disk_full(self, fp, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device", str(fp))

    monkeypatch.setattr(Image.Image, "save", disk_full)
    target = tmp_path / "steps.gif"
    owner = QObject()
    runner = WorkService(owner).channel(owner, "animation")
    with qtbot.waitSignal(runner.start(lambda state: write_animation([Frame(2, 2, b"\0" * 16)], target)).failed,
                          timeout=30000) as failed:
        pass
    (message,) = failed.args
    assert message == f"{target}: the disk is full (No space left on device); nothing was replaced"
    assert list(tmp_path.iterdir()) == []


def test_the_inspect_panel_s_png_export_failure_names_the_users_file(qtbot, tmp_path, monkeypatch):
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QLabel

    from tokviz.ui.common.image_export import save_widget_png

    label = QLabel("안녕")
    qtbot.addWidget(label)
    monkeypatch.setattr(QImage, "save", lambda self, *a, **k: False)
    with pytest.raises(OSError) as info:  # what the panels catch and show (err.strerror, or str(err))
        save_widget_png(label, tmp_path / "view.png")
    assert info.value.filename == str(tmp_path / "view.png")
    assert TEMP_MARK not in str(info.value) and TEMP_MARK not in info.value.strerror
    assert list(tmp_path.iterdir()) == []
