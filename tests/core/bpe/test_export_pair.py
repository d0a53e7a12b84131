"""GPT-2 exports (vocab.json + merges.txt) are all-or-nothing: a failure or a kill -9 at any moment
leaves the old pair intact or the new pair complete, never one new file beside an old one."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.corpora import english_text, korean_text
from tokviz.core import atomic
from tokviz.core.bpe import formats
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.formats import load_model, save_model
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.errors import ModelFileError

ROOT = Path(__file__).resolve().parents[3]


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

    monkeypatch.setattr(formats, "open", open_fails_on_merges, raising=False)
    with pytest.raises(ModelFileError, match="disk is full"):
        save_model(new, tmp_path, "gpt2")
    assert _pair(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merges.txt", "vocab.json"]  # no temp files left


def test_a_failure_between_the_renames_completes_the_new_pair(old_and_new, tmp_path, monkeypatch):
    old, new = old_and_new
    save_model(old, tmp_path, "gpt2")
    real_replace = os.replace
    calls = []

    def second_rename_fails(src, dst):
        calls.append(dst)
        if str(dst).endswith("merges.txt") and len(calls) < 10:
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(atomic.os, "replace", second_rename_fails)
    with pytest.raises(ModelFileError):
        save_model(new, tmp_path, "gpt2")
    monkeypatch.setattr(atomic.os, "replace", real_replace)
    # the journal says the new pair was complete: the next load finishes the renames
    assert load_model(tmp_path).merges == new.merges
    assert _pair(tmp_path) == _exported(new)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merges.txt", "vocab.json"]


def test_a_read_only_folder_gets_a_message_and_keeps_the_old_pair(old_and_new, tmp_path, monkeypatch):
    old, new = old_and_new
    save_model(old, tmp_path, "gpt2")
    before = _pair(tmp_path)
    if os.geteuid() == 0:  # root writes anywhere: make the folder refuse new files the way a read-only one does
        def refuse(*a, **k):
            raise OSError(errno.EROFS, "Read-only file system")

        monkeypatch.setattr(atomic.tempfile, "mkstemp", refuse)
    else:
        tmp_path.chmod(0o555)
    try:
        with pytest.raises(ModelFileError, match="read-only"):
            save_model(new, tmp_path, "gpt2")
    finally:
        tmp_path.chmod(0o755)
    assert _pair(tmp_path) == before


_CHILD = r"""
import os, signal, sys
sys.path.insert(0, sys.argv[1])
from tokviz.core import atomic
from tokviz.core.bpe.formats import load_model, save_model

kill_at = int(sys.argv[4])
calls = 0

def dying(fn):
    def wrapped(*a, **k):
        global calls
        calls += 1
        if calls == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return fn(*a, **k)
    return wrapped

model = load_model(sys.argv[2])
for name in ("replace", "fsync", "close", "chmod", "unlink"):
    setattr(atomic.os, name, dying(getattr(os, name)))
save_model(model, sys.argv[3] + "/", "gpt2")
"""


def test_kill_9_at_every_moment_of_an_export_leaves_the_old_or_the_new_pair(old_and_new, tmp_path):
    old, new = old_and_new
    source = tmp_path / "new.json"
    save_model(new, source, "tokviz")
    target = tmp_path / "out"
    old_pair = _exported(old)
    new_pair = _exported(new)
    outcomes = set()
    for kill_at in range(1, 60):
        save_model(old, f"{target}/", "gpt2")
        assert _pair(target) == old_pair
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), str(source), str(target), str(kill_at)],
                              capture_output=True, timeout=60)
        killed = proc.returncode == -signal.SIGKILL
        assert killed or proc.returncode == 0, proc.stderr.decode()
        # what tokviz sees next: the loader finishes an export whose files were complete
        loaded = load_model(target)
        assert loaded.merges in (old.merges, new.merges), kill_at
        assert _pair(target) in (old_pair, new_pair), kill_at
        outcomes.add((killed, _pair(target) == new_pair))
        if not killed:
            break
    else:
        pytest.fail("the export never finished: the kill points did not cover it")
    # killed before the pair was complete (old kept), after (new finished), and a clean run
    assert outcomes == {(True, False), (True, True), (False, True)}, outcomes
