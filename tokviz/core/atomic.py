"""Atomic file writes: a temp file in the same folder, renamed over the target only when complete.

Every file tokviz writes (models, CSV, PNG) goes through here, so a crash or a full disk never
leaves a half-written file where a good one was.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


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


def write_atomic(path: str | Path, data: bytes | str, *, encoding: str = "utf-8", newline: str | None = "\n") -> Path:
    """Write ``data`` (bytes, or text in ``encoding``) to ``path`` atomically; returns the path."""
    with replacing(path) as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            with open(tmp, "w", encoding=encoding, newline=newline) as f:
                f.write(data)
    return Path(path)
