"""The child side of tests/reliability/test_kill_during_export.py: the exports, and a child that kills
itself before its N-th file-system call. Kept apart from the test module so that a child (forked from
the process's one fork server, which tokviz's own children may have started) imports only this and
tokviz's writers, not pytest and the test module (~0.3 s a kill point)."""

from __future__ import annotations

import builtins
import io
import os
import signal
from pathlib import Path

from tokviz.core.bpe.formats import save_model
from tokviz.core.hf_export import write_tokenizer_json, write_vocab_txt

__all__ = ["export_in_child", "save_gpt2", "save_subword_nmt", "save_tiktoken", "save_tokviz", "save_vocab_txt",
           "write_tokenizer_json"]


def save_tokviz(model, dest):
    save_model(model, dest, "tokviz")


def save_tiktoken(model, dest):
    save_model(model, dest, "tiktoken")


def save_subword_nmt(model, dest):
    save_model(model, dest, "subword-nmt")


def save_gpt2(model, dest):
    save_model(model, str(dest) + "/", "gpt2")


def save_vocab_txt(model, dest):
    write_vocab_txt(model, dest)


# ---- the child and its kill hook --------------------------------------------------------------------
class _HookedFile:
    """A file object whose writes go to disk in two halves, with a kill point before each."""

    def __init__(self, f, point):
        self._f, self._point = f, point

    def write(self, data):
        half = len(data) // 2
        for part in (data[:half], data[half:]):
            self._point()
            self._f.write(part)
            self._f.flush()
        return len(data)

    def close(self):
        self._point()
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __getattr__(self, name):
        return getattr(self._f, name)


def _install_kill_hook(kill_at: int) -> None:
    calls = [0]

    def point():
        calls[0] += 1
        if calls[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    def hooked(fn):
        def call(*args, **kwargs):
            point()
            return fn(*args, **kwargs)

        return call

    for name in ("open", "close", "replace", "rename", "fsync", "chmod", "unlink"):
        setattr(os, name, hooked(getattr(os, name)))
    real_open = io.open

    def open_file(*args, **kwargs):
        point()
        return _HookedFile(real_open(*args, **kwargs), point)

    io.open = builtins.open = open_file


def export_in_child(kill_at: int, write, model, dest: Path) -> None:
    """The child: never returns into its parent, whether the export ends or not."""
    code = 1
    try:
        _install_kill_hook(kill_at)
        write(model, dest)
        code = 0
    finally:
        os._exit(code)
