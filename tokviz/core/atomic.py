"""Atomic file writes: a temp file in the same folder, renamed over the target only when complete.

Every file tokviz writes (models, CSV, PNG) goes through here, so a crash or a full disk never
leaves a half-written file where a good one was; files that belong together (GPT-2's vocab.json
and merges.txt) are replaced as a set (:func:`replacing_together`).
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def replacing(path: str | Path, suffix: str = ".tmp") -> Iterator[Path]:
    """Yield a temp path beside ``path``; rename it over ``path`` when the block succeeds, remove it
    when the block raises.

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with replacing(target) as tmp:
    ...     _ = tmp.write_text("안녕", encoding="utf-8")
    >>> target.read_text(encoding="utf-8")
    '안녕'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)  # mkstemp makes it private; these are ordinary shareable files
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, data: bytes | str, *, encoding: str = "utf-8", newline: str | None = "\n",
                 fsync: bool = False) -> Path:
    """Write ``data`` (bytes, or text in ``encoding``) to ``path`` atomically; returns the path.
    ``fsync`` makes the data durable before the rename (and the rename after it)."""
    with replacing(path) as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            with open(tmp, "w", encoding=encoding, newline=newline) as f:
                f.write(data)
        if fsync:
            _fsync_file(tmp)
    if fsync:
        _fsync_dir(Path(path).parent)
    return Path(path)


# ---- several files that belong together ------------------------------------------------------
JOURNAL_SUFFIX = ".tokviz-commit"


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some systems cannot open a folder; the renames are still ordered by the journal
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def replacing_together(paths: Sequence[str | Path], suffix: str = ".tmp") -> Iterator[list[Path]]:
    """Yield one temp path beside each of ``paths``; when the block succeeds they replace their
    targets as a set: either every target is new or (when anything fails) every target is as it
    was, and the temp files are gone.

    How it survives a crash (kill -9, power loss) between two renames: the temp files are fsynced,
    then a small journal naming the renames is written (atomically) next to the first target, then
    the renames happen and the journal is removed. A journal left behind means the new set was
    complete on disk; :func:`finish_replacing` (run by every later write and by the loaders) does
    the remaining renames. Without a journal, leftover temp files are an unfinished write and the
    old files are untouched.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with replacing_together([d / "vocab.json", d / "merges.txt"]) as (v, m):
    ...     _ = v.write_text("{}", encoding="utf-8"); _ = m.write_text("#version: 0.2", encoding="utf-8")
    >>> sorted(p.name for p in d.iterdir())
    ['merges.txt', 'vocab.json']
    """
    targets = [Path(p) for p in paths]
    for folder in dict.fromkeys(t.parent for t in targets):
        folder.mkdir(parents=True, exist_ok=True)
        finish_replacing(folder)
    temps: list[Path] = []
    journal = targets[0].parent / f".{targets[0].name}{JOURNAL_SUFFIX}"
    committed = False
    try:
        for target in targets:
            fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
            os.close(fd)
            temps.append(Path(name))
        yield list(temps)
        for tmp in temps:
            os.chmod(tmp, 0o644)  # mkstemp makes it private; these are ordinary shareable files
            _fsync_file(tmp)
        plan = [[str(tmp), str(target)] for tmp, target in zip(temps, targets, strict=True)]
        write_atomic(journal, json.dumps({"replace": plan}, ensure_ascii=False), fsync=True)
        committed = True
        _finish(journal, plan)
    except BaseException:
        if not committed:
            for tmp in temps:
                tmp.unlink(missing_ok=True)
        raise


def _finish(journal: Path, plan: list[list[str]]) -> None:
    for tmp, target in plan:
        if os.path.exists(tmp):
            os.replace(tmp, target)
    for folder in dict.fromkeys(Path(target).parent for _, target in plan):
        _fsync_dir(folder)
    journal.unlink(missing_ok=True)
    _fsync_dir(journal.parent)


def finish_replacing(folder: str | Path) -> None:
    """Complete a :func:`replacing_together` that a crash interrupted after its files were
    complete (its journal is still in ``folder``). Best effort: a folder that cannot be changed
    (read-only) is left as it is.
    """
    folder = Path(folder)
    try:
        journals = list(folder.glob(f".*{JOURNAL_SUFFIX}"))
    except OSError:
        return
    for journal in journals:
        try:
            plan = json.loads(journal.read_text(encoding="utf-8"))["replace"]
            if not all(isinstance(p, list) and len(p) == 2 for p in plan):
                continue
            _finish(journal, [[str(a), str(b)] for a, b in plan])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a half-written journal never committed anything: the old files stand


def write_error(err: OSError) -> str:
    """A user-facing sentence for a failed write (disk full and read-only places named plainly).

    >>> import errno
    >>> write_error(OSError(errno.ENOSPC, "No space left on device"))
    'the disk is full (No space left on device); nothing was replaced'
    """
    what = err.strerror or str(err)
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk is full ({what}); nothing was replaced"
    if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"the folder is read-only or not writable ({what}); nothing was replaced"
    return f"cannot write ({what}); nothing was replaced"
