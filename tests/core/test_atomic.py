"""The one atomic-write helper: short temp names, messages about the user's file, pairs put back."""

from __future__ import annotations

import errno
import os
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokviz.core import atomic
from tokviz.core.atomic import TEMP_MARK, WriteError, replacing, temp_name, write_atomic, write_atomic_together

FILE_NAMES = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\0"), min_size=1,
                     max_size=200).filter(lambda n: n not in (".", ".."))


@given(FILE_NAMES)
def test_a_temp_name_fits_wherever_its_target_fits_and_keeps_whole_characters(name):
    tmp = temp_name(name)
    assert len(tmp.encode("utf-8")) <= 255
    assert tmp.startswith(".") and TEMP_MARK in tmp and "/" not in tmp
    head = tmp[1: tmp.rindex(TEMP_MARK)]
    assert name.startswith(head)  # a cut name, never a character cut in two
    if len((name + TEMP_MARK).encode("utf-8")) + 7 <= 255:
        assert head == name


def test_the_temp_file_is_new_private_to_this_write_and_never_through_a_symlink(tmp_path, monkeypatch):
    victim = tmp_path / "victim"
    victim.write_text("mine", encoding="utf-8")
    names = iter([".out.txt.tvzaaaaaa", ".out.txt.tvzbbbbbb"])
    monkeypatch.setattr(atomic, "temp_name", lambda target: next(names))
    (tmp_path / ".out.txt.tvzaaaaaa").symlink_to(victim)  # planted where the first temp name would go
    write_atomic(tmp_path / "out.txt", "new")
    assert victim.read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "new"


def test_a_symlink_target_is_replaced_not_written_through(tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep", encoding="utf-8")
    (tmp_path / "out.txt").symlink_to(elsewhere)
    write_atomic(tmp_path / "out.txt", "new")
    assert elsewhere.read_text(encoding="utf-8") == "keep"
    assert not (tmp_path / "out.txt").is_symlink() and (tmp_path / "out.txt").read_text(encoding="utf-8") == "new"


def test_an_error_in_the_block_removes_the_temp_file_and_names_the_target(tmp_path):
    with pytest.raises(WriteError) as info, replacing(tmp_path / "a.png") as tmp:
        raise OSError(errno.EIO, "Input/output error", str(tmp))
    assert str(info.value) == f"{tmp_path / 'a.png'}: cannot write (Input/output error); nothing was replaced"
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(KeyboardInterrupt), replacing(tmp_path / "a.png"):
        raise KeyboardInterrupt  # Ctrl-C mid-write: no temp file either
    assert list(tmp_path.iterdir()) == []


def test_a_write_error_survives_a_trip_from_a_worker_process():
    err = WriteError("/d/out.json", errno.ENOSPC, "the disk is full; nothing was replaced")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is WriteError and str(back) == str(err) and back.errno == errno.ENOSPC


def _pair(folder: Path) -> list[str]:
    return [(folder / n).read_text(encoding="utf-8") for n in ("a", "b")]


def test_a_pair_is_put_back_by_a_copy_where_hard_links_are_refused(tmp_path, monkeypatch):
    write_atomic_together([(tmp_path / "a", "old a"), (tmp_path / "b", "old b")])

    def no_links(*a, **k):
        raise OSError(errno.EPERM, "Operation not permitted")

    real_replace = os.replace

    def second_fails(src, dst):
        if Path(dst).name == "b" and TEMP_MARK in Path(src).name:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "link", no_links)
    monkeypatch.setattr(atomic.os, "replace", second_fails)
    with pytest.raises(WriteError, match="b: the disk is full .*nothing was replaced"):
        write_atomic_together([(tmp_path / "a", "new a"), (tmp_path / "b", "new b")])
    monkeypatch.undo()
    assert _pair(tmp_path) == ["old a", "old b"] and sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_a_pair_that_cannot_be_put_back_says_so(tmp_path, monkeypatch):
    write_atomic_together([(tmp_path / "a", "old a"), (tmp_path / "b", "old b")])
    real_replace = os.replace

    def only_the_first_rename_works(src, dst):
        if Path(dst).name == "a" and TEMP_MARK in Path(src).name and "new a" in Path(src).read_text("utf-8"):
            return real_replace(src, dst)
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(atomic.os, "replace", only_the_first_rename_works)
    with pytest.raises(WriteError, match="a could not be put back: the files do not belong together"):
        write_atomic_together([(tmp_path / "a", "new a"), (tmp_path / "b", "new b")])
    monkeypatch.undo()
    assert _pair(tmp_path) == ["new a", "old b"]  # what the message said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]
