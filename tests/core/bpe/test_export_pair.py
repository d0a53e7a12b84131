"""GPT-2 exports (vocab.json + merges.txt) are all-or-nothing: a failure at any moment leaves the old
pair intact (or the new pair complete), never one new file beside an old one. kill -9 at every
moment is tests/reliability/test_kill_during_export.py."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

from tests.support.corpora import english_text, korean_text
from tokviz.core import atomic
from tokviz.core.atomic import TEMP_MARK
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.formats import load_model, save_model
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.errors import ModelFileError


def _model(merges: int):
    t = BPETrainer(TrainerConfig(mode="byte", merges=merges, min_frequency=1))
    for _ in t.run([korean_text(200) + english_text()[:2000]]):
        pass
    return t.model()


@pytest.fixture(scope="module")
def old_and_new():
    return _model(40), _model(120)


def _pair(folder: Path) -> tuple[bytes, bytes]:
    return (folder / "vocab.json").read_bytes(), (folder / "merges.txt").read_bytes()


def _exported(model) -> tuple[bytes, bytes]:
    with tempfile.TemporaryDirectory() as d:
        save_model(model, d, "gpt2")
        return _pair(Path(d))


def test_a_failure_writing_the_second_file_keeps_the_old_pair(old_and_new, tmp_path, monkeypatch):
    old, new = old_and_new
    save_model(old, tmp_path, "gpt2")
    before = _pair(tmp_path)
    real_open = open

    def open_fails_on_merges(path, *args, **kw):
        if ".merges.txt." in str(path):  # the temp file of the second file
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(path, *args, **kw)

    monkeypatch.setattr(atomic, "open", open_fails_on_merges, raising=False)
    with pytest.raises(ModelFileError, match="disk is full"):
        save_model(new, tmp_path, "gpt2")
    assert _pair(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merges.txt", "vocab.json"]  # no temp files left


@pytest.mark.parametrize("failing", ["merges.txt", "vocab.json"])
def test_a_failure_at_either_rename_puts_the_old_pair_back(old_and_new, tmp_path, monkeypatch, failing):
    old, new = old_and_new
    save_model(old, tmp_path, "gpt2")
    before = _pair(tmp_path)
    real_replace = os.replace

    def rename_fails(src, dst):
        if Path(dst).name == failing and TEMP_MARK in Path(src).name:
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", rename_fails)
    with pytest.raises(ModelFileError, match="nothing was replaced") as info:
        save_model(new, tmp_path, "gpt2")
    assert str(tmp_path / failing) in str(info.value) and TEMP_MARK not in str(info.value)
    monkeypatch.setattr(atomic.os, "replace", real_replace)
    assert _pair(tmp_path) == before  # vocab.json was replaced first, then put back
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merges.txt", "vocab.json"]
    assert load_model(tmp_path).merges == old.merges


def test_a_failed_first_export_leaves_no_half_pair(old_and_new, tmp_path, monkeypatch):
    _, new = old_and_new
    real_replace = os.replace

    def vocab_rename_fails(src, dst):
        if Path(dst).name == "vocab.json":
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", vocab_rename_fails)
    with pytest.raises(ModelFileError, match="disk is full"):
        save_model(new, tmp_path, "gpt2")
    assert list(tmp_path.iterdir()) == []  # the merges.txt renamed first is gone again


def test_a_read_only_folder_gets_a_message_and_keeps_the_old_pair(old_and_new, tmp_path, monkeypatch):
    old, new = old_and_new
    save_model(old, tmp_path, "gpt2")
    before = _pair(tmp_path)
    real_open = os.open

    # root writes anywhere, so the folder refuses new files the way a read-only one does
    def refuse(path, flags, *a, **k):
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, flags, *a, **k)

    monkeypatch.setattr(atomic.os, "open", refuse)
    with pytest.raises(ModelFileError, match="read-only") as info:
        save_model(new, tmp_path, "gpt2")
    monkeypatch.setattr(atomic.os, "open", real_open)
    assert TEMP_MARK not in str(info.value)
    assert _pair(tmp_path) == before
