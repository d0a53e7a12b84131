"""Atomic file writes: a temp file in the same folder, renamed over the target only when complete.

Every file tokviz writes (models, CSV, PNG, GIF, JSON) goes through here, so a crash or a full disk
never leaves a half-written file where a good one was, and a failure is a :class:`WriteError` that
names the user's file (never the hidden temp file) after the temp file is gone.

Files that belong together (GPT-2's vocab.json and merges.txt) are replaced as a pair by
:func:`replacing_together`, with no journal: nothing on disk is ever read back to decide what to
rename, so a folder someone else prepared cannot steer tokviz's renames.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tokviz.core.errors import TokvizError

# a temp file is ".<target name, cut to fit>.tvz<6 random characters>", so any name the folder takes
# also has a temp name it takes (a 255-byte name gets a temp name of 255 bytes)
TEMP_MARK = ".tvz"
_RANDOM_CHARS = 6
_NAME_MAX = 255  # bytes, on every file system tokviz meets (ext4, btrfs, xfs, tmpfs, APFS, NTFS)


class WriteError(TokvizError, OSError):
    """A file could not be written. ``str()`` is ``"<the user's file>: <what went wrong>"``;
    ``strerror`` is the sentence alone and ``filename`` the user's file."""

    def __init__(self, path: str | Path, err_no: int | None, problem: str):
        OSError.__init__(self, err_no, problem, str(path))
        self.path = str(path)
        self.problem = problem

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"

    def __reduce__(self):  # a write in a worker process fails in the window with the same sentence
        return type(self), (self.path, self.errno, self.problem)

    @classmethod
    def of(cls, path: str | Path, err: OSError, outcome: str = "nothing was replaced") -> WriteError:
        """``err`` (whatever file it names) told about ``path``."""
        if isinstance(err, WriteError):
            return err
        return cls(path, err.errno, f"{write_error(err, outcome)}")


def write_error(err: OSError, outcome: str = "nothing was replaced") -> str:
    """A user-facing sentence for a failed write (disk full and read-only places named plainly).

    >>> import errno
    >>> write_error(OSError(errno.ENOSPC, "No space left on device"))
    'the disk is full (No space left on device); nothing was replaced'
    """
    what = err.strerror or str(err) or type(err).__name__
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"the disk is full ({what}); {outcome}"
    if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"the folder is read-only or not writable ({what}); {outcome}"
    if err.errno == errno.EISDIR:
        return f"is a folder, not a file; {outcome}"
    if err.errno == errno.ENAMETOOLONG:
        return f"the file name is too long ({what}); {outcome}"
    if err.errno in (errno.ENOTDIR, errno.ENOENT):
        return f"a part of the path is not a folder or does not exist ({what}); {outcome}"
    return f"cannot write ({what}); {outcome}"


def temp_name(target: str | Path) -> str:
    """The name of a fresh hidden temp file for ``target``: short enough for any name the folder takes.

    >>> n = temp_name("out/model.json"); n.startswith(".model.json.tvz"), len(n) == len(".model.json.tvz") + 6
    (True, True)
    >>> len(temp_name("x" * 250).encode())
    255
    """
    name = Path(target).name
    room = _NAME_MAX - 1 - len(TEMP_MARK) - _RANDOM_CHARS
    head = os.fsencode(name)[:room].decode("utf-8", "ignore")  # never half a UTF-8 character
    return f".{head}{TEMP_MARK}{secrets.token_hex(_RANDOM_CHARS)[:_RANDOM_CHARS]}"


def check_target(path: str | Path) -> None:
    """Raise WriteError at once when ``path`` can never be written: its name is too long, it is a
    folder, or a part of its folder path is a file. Creates nothing (a long job checks its outputs
    with this before it starts, so it does not fail at the end)."""
    target = Path(path)
    size = len(os.fsencode(target.name))
    if size > _NAME_MAX:
        raise WriteError(target, errno.ENAMETOOLONG,
                         f"the file name is too long ({size} bytes; at most {_NAME_MAX}); nothing was replaced")
    if _is_dir(target):
        raise WriteError(target, errno.EISDIR, "is a folder, not a file; nothing was replaced")
    for folder in target.parents:
        if os.path.lexists(folder):
            if not _is_dir(folder):
                raise WriteError(target, errno.ENOTDIR, f"{folder} is a file, not a folder; nothing was replaced")
            break


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long to look up is no folder (the write then says why)
        return False


def _prepare(target: Path) -> None:
    """Refuse what cannot work before anything is written (so a big export fails at once)."""
    check_target(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise WriteError.of(target, err) from None


def _create_temp(target: Path) -> Path:
    """A new empty file beside ``target`` that no one else had (never through a symlink)."""
    for _ in range(100):
        tmp = target.with_name(temp_name(target))
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
        except FileExistsError:
            continue
        except OSError as err:
            raise WriteError.of(target, err) from None
        os.close(fd)
        return tmp
    raise WriteError(target, errno.EEXIST, "cannot make a temp file beside it; nothing was replaced")


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass  # the folder went read-only meanwhile: nothing more can be done


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
        return  # some systems cannot open a folder
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def replacing(path: str | Path, *, fsync: bool = False) -> Iterator[Path]:
    """Yield a temp path beside ``path``; rename it over ``path`` when the block succeeds, remove it
    when anything fails. An OSError (from the block or the rename) comes out as a WriteError naming
    ``path``. ``fsync`` makes the data durable before the rename (and the rename after it).

    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with replacing(target) as tmp:
    ...     _ = tmp.write_text("안녕", encoding="utf-8")
    >>> target.read_text(encoding="utf-8"), [p.name for p in target.parent.iterdir()]
    ('안녕', ['out.txt'])
    """
    target = Path(path)
    _prepare(target)
    tmp = _create_temp(target)
    try:
        yield tmp
        if fsync:
            _fsync_file(tmp)
        os.replace(tmp, target)
    except BaseException as exc:
        _remove(tmp)
        if isinstance(exc, OSError):
            raise WriteError.of(target, exc) from None
        raise
    if fsync:
        _fsync_dir(target.parent)


def write_atomic(path: str | Path, data: bytes | str, *, encoding: str = "utf-8", newline: str | None = "\n",
                 fsync: bool = False) -> Path:
    """Write ``data`` (bytes, or text in ``encoding``) to ``path`` atomically; returns the path.
    Raises WriteError (naming ``path``) when it cannot be written; the old file then stands."""
    with replacing(path, fsync=fsync) as tmp:
        _write(tmp, data, encoding, newline)
    return Path(path)


def _write(tmp: Path, data: bytes | str, encoding: str = "utf-8", newline: str | None = "\n") -> None:
    if isinstance(data, bytes):
        with open(tmp, "wb") as f:
            f.write(data)
    else:
        with open(tmp, "w", encoding=encoding, newline=newline) as f:
            f.write(data)


def write_atomic_together(files: Sequence[tuple[str | Path, bytes | str]]) -> list[Path]:
    """Write each ``(path, data)`` (text as UTF-8 with ``\n`` line ends) and replace the targets as a
    set, in the order given (see :func:`replacing_together`); returns the paths."""
    with replacing_together([p for p, _ in files]) as temps:
        for tmp, (_, data) in zip(temps, files, strict=True):
            _write(tmp, data)
    return [Path(p) for p, _ in files]


# ---- several files that belong together ------------------------------------------------------
@contextmanager
def replacing_together(paths: Sequence[str | Path]) -> Iterator[list[Path]]:
    """Yield one temp path beside each of ``paths``; when the block succeeds they replace their
    targets in the order given. A failure at any point (a full disk, a target that turned into a
    folder, a rename refused) puts back the targets already replaced, removes every temp file and
    raises WriteError naming the file that failed.

    The guarantee after a kill -9 or power loss (no journal, so nothing is replayed later): each
    target is whole, old or new; only a kill between two renames leaves a new file beside an old
    one, which the reader must be able to tell (GPT-2's loader checks that merges.txt and
    vocab.json describe the same merges); hidden ``.<name>.tvz…`` temp files may be left behind.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with replacing_together([d / "merges.txt", d / "vocab.json"]) as (m, v):
    ...     _ = m.write_text("#version: 0.2", encoding="utf-8"); _ = v.write_text("{}", encoding="utf-8")
    >>> sorted(p.name for p in d.iterdir())
    ['merges.txt', 'vocab.json']
    """
    targets = [Path(p) for p in paths]
    for target in targets:
        _prepare(target)
    temps: list[Path] = []
    try:
        for target in targets:
            temps.append(_create_temp(target))
        yield list(temps)
        for tmp in temps:
            _fsync_file(tmp)
    except BaseException as exc:
        for tmp in temps:
            _remove(tmp)
        if isinstance(exc, OSError):
            raise WriteError.of(_target_of(exc, temps, targets), exc) from None
        raise
    _replace_all(temps, targets)


def _target_of(err: OSError, temps: list[Path], targets: list[Path]) -> Path:
    """The user's file behind the temp file ``err`` is about (the first target when it names none)."""
    named = {str(tmp): target for tmp, target in zip(temps, targets, strict=False)}
    return named.get(str(err.filename), targets[0])


def _replace_all(temps: list[Path], targets: list[Path]) -> None:
    """Rename each temp over its target; on a failure put the earlier targets back as they were."""
    backups: list[Path | None] = []
    done: list[Path] = []
    try:
        for target in targets[:-1]:  # the last rename is the last step: nothing after it can fail
            backups.append(_keep_old(target))
        for tmp, target in zip(temps, targets, strict=True):
            try:
                os.replace(tmp, target)
            except OSError as err:
                put_back = _put_back(done, backups)
                outcome = "nothing was replaced" if put_back else (
                    f"{', '.join(p.name for p in done)} could not be put back: the files do not belong together")
                raise WriteError.of(target, err, outcome) from None
            done.append(target)
    finally:
        for p in [*temps, *backups]:
            if p is not None:
                _remove(p)
    for folder in dict.fromkeys(t.parent for t in targets):
        _fsync_dir(folder)


def _keep_old(target: Path) -> Path | None:
    """A second name for ``target``'s current file (None when there is none), to put it back."""
    if not os.path.lexists(target):
        return None
    for _ in range(100):
        backup = target.with_name(temp_name(target))
        try:
            os.link(target, backup, follow_symlinks=False)
            return backup
        except FileExistsError:
            continue
        except OSError:
            break  # a file system without hard links: copy instead
    backup = _create_temp(target)
    try:
        shutil.copyfile(target, backup)
    except OSError as err:
        _remove(backup)
        raise WriteError.of(target, err) from None
    return backup


def _put_back(done: list[Path], backups: list[Path | None]) -> bool:
    """Undo the renames already made; False when one of them cannot be undone."""
    ok = True
    for target, backup in zip(reversed(done), reversed(backups[: len(done)]), strict=True):
        try:
            if backup is None:
                os.unlink(target)  # it did not exist before
            else:
                os.replace(backup, target)
        except OSError:
            ok = False
    return ok
