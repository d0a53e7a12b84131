"""The suite's bytecode folders under the temporary folder: one per Python environment, and those of
environments that are gone (a CI run's deleted venv) removed by the next run."""

from __future__ import annotations

import os
import sys
import time

from tests.support.bytecode import ENVIRONMENT_NOTE, remove_bytecode_of_environments_that_are_gone


def _folder(path, environment=None):
    (path / "some" / "where").mkdir(parents=True)
    (path / "some" / "where" / "module.cpython-311.pyc").write_bytes(b"\0" * 16)
    if environment is not None:
        (path / ENVIRONMENT_NOTE).write_text(str(environment), encoding="utf-8")
    return path


def test_folders_of_environments_that_are_gone_are_removed_and_no_other(tmp_path):
    family = str(tmp_path / "tokviz-test-bytecode-0-")
    gone = _folder(tmp_path / "tokviz-test-bytecode-0-gone", tmp_path / "a-venv-deleted-since")
    alive = _folder(tmp_path / "tokviz-test-bytecode-0-alive", tmp_path)
    unnoted_old = _folder(tmp_path / "tokviz-test-bytecode-0-unnoted-old")
    day_ago = time.time() - 25 * 3600
    os.utime(unnoted_old, (day_ago, day_ago))
    unnoted_new = _folder(tmp_path / "tokviz-test-bytecode-0-unnoted-new")
    elsewhere = _folder(tmp_path / "elsewhere", tmp_path / "a-venv-deleted-since")
    (tmp_path / "tokviz-test-bytecode-0-link").symlink_to(elsewhere)  # a link is never followed
    other_user = _folder(tmp_path / "tokviz-test-bytecode-1-gone", tmp_path / "a-venv-deleted-since")

    ours = tmp_path / "tokviz-test-bytecode-0-ours"
    remove_bytecode_of_environments_that_are_gone(str(ours), family)

    assert (ours / ENVIRONMENT_NOTE).read_text(encoding="utf-8") == sys.prefix
    assert not gone.exists() and not unnoted_old.exists()
    assert alive.is_dir() and unnoted_new.is_dir() and other_user.is_dir()
    assert (elsewhere / "some" / "where" / "module.cpython-311.pyc").is_file()
    # a second run keeps its own folder and its note
    remove_bytecode_of_environments_that_are_gone(str(ours), family)
    assert (ours / ENVIRONMENT_NOTE).read_text(encoding="utf-8") == sys.prefix and alive.is_dir()
