"""Tokenizers already in the Hugging Face cache, listed and opened by repo id; never a download.

``huggingface_hub`` keeps each repo as ``models--ORG--NAME/`` with ``refs/main`` (the commit hash
the repo's main branch was at), ``snapshots/HASH/`` (the files as symlinks) and ``blobs/`` (the
bytes). The cache is found as ``huggingface_hub`` finds it: ``HF_HUB_CACHE``, else ``HF_HOME/hub``,
else ``$XDG_CACHE_HOME/huggingface/hub``, else ``~/.cache/huggingface/hub``.

The cache is a folder anyone may have filled, so it is read with care: only a bounded number of
repos is listed, only the known tokenizer file names are looked at (no walk), and a snapshot's
symlink is followed only when it lands inside its own repo folder.

>>> repo_folder_name("Qwen/Qwen2.5-7B-Instruct")
'models--Qwen--Qwen2.5-7B-Instruct'
>>> repo_id_of("models--Qwen--Qwen2.5-7B-Instruct")
'Qwen/Qwen2.5-7B-Instruct'
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from tokviz.core.encoders.base import Encoder, EncoderEntry

FAMILY = "HF cache"
PREFIX = "models--"
# The files that make a tokenizer, in the order a model folder is read (see builtin.FOLDER_FILES).
TOKENIZER_FILES = ("tokenizer.json", "vocab.json", "tekken.json", "tokenizer.model", "spiece.model")
# More repos than anyone caches; past this the listing stops rather than stat a hostile folder forever.
MAX_REPOS = 2000
_REPO_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(?:/[A-Za-z0-9][A-Za-z0-9._-]*)?")
_REF = re.compile(r"[0-9a-f]{40}|[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def cache_root() -> Path:
    """Where the hub cache is, as ``huggingface_hub`` decides it (the folder need not exist)."""
    env = os.environ
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if env.get(name):
            return Path(env[name]).expanduser()
    if env.get("HF_HOME"):
        return Path(env["HF_HOME"]).expanduser() / "hub"
    xdg = env.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "huggingface" / "hub"


def repo_folder_name(repo_id: str) -> str:
    return PREFIX + repo_id.replace("/", "--")


def repo_id_of(folder_name: str) -> str:
    return folder_name[len(PREFIX) :].replace("--", "/")


def looks_like_repo_id(text: str) -> bool:
    """``ORG/NAME`` (or ``NAME``) as the hub spells repo ids: no path parts, no ``..``."""
    return bool(_REPO_ID.fullmatch(text)) and ".." not in text


def _inside(path: Path, folder: Path) -> Path | None:
    """``path`` with its symlinks resolved, when it is a regular file inside ``folder``; else None."""
    try:
        real = path.resolve(strict=True)
        base = folder.resolve(strict=True)
    except (OSError, RuntimeError):  # missing, a broken link, a symlink loop
        return None
    if not real.is_relative_to(base) or not real.is_file():
        return None
    return real


def current_snapshot(repo: Path) -> Path | None:
    """The snapshot ``refs/main`` names in the repo folder ``models--ORG--NAME``; without a usable
    ref, the only snapshot or the newest one. None when there is none."""
    snapshots = repo / "snapshots"
    ref = repo / "refs" / "main"
    try:
        if ref.is_file() and ref.stat().st_size <= 200:
            name = ref.read_text(encoding="utf-8").strip()
            if _REF.fullmatch(name) and (snapshots / name).is_dir():
                return snapshots / name
        found = [p for _, p in zip(range(MAX_REPOS), snapshots.iterdir(), strict=False) if p.is_dir()]
        return max(found, key=lambda p: p.stat().st_mtime) if found else None
    except (OSError, ValueError):  # unreadable, or a ref that is not UTF-8 text
        return None


def tokenizer_file(snapshot: Path, repo: Path) -> Path | None:
    """The tokenizer file in a snapshot (resolved into the repo's blobs), or None."""
    for name in TOKENIZER_FILES:
        real = _inside(snapshot / name, repo)
        if real is None:
            continue
        if name == "vocab.json" and _inside(snapshot / "merges.txt", repo) is None:
            continue
        return snapshot / name
    return None


@dataclass(frozen=True)
class CachedModel:
    """A tokenizer found in the cache: its repo id, the snapshot and the file that opens."""

    repo_id: str
    snapshot: Path
    file: Path


def cached_models(root: Path | None = None) -> list[CachedModel]:
    """Every repo in the cache whose current snapshot holds a tokenizer, sorted by repo id."""
    root = cache_root() if root is None else root
    try:
        entries = [p for _, p in zip(range(MAX_REPOS), root.iterdir(), strict=False)]
    except OSError:
        return []
    found = []
    for repo in sorted(entries):
        if not repo.name.startswith(PREFIX) or not repo.is_dir():
            continue
        model = cached_model_in(repo)
        if model is not None:
            found.append(model)
    return found


def cached_model_in(repo: Path) -> CachedModel | None:
    """The tokenizer of one repo folder ``models--ORG--NAME`` (None when it holds none)."""
    if repo.is_symlink():  # a repo folder that is a link may lead anywhere: not followed
        return None
    snapshot = current_snapshot(repo)
    if snapshot is None:
        return None
    file = tokenizer_file(snapshot, repo)
    if file is None:
        return None
    return CachedModel(repo_id_of(repo.name), snapshot, file)


def find_cached(repo_id: str, root: Path | None = None) -> CachedModel | None:
    """The cached tokenizer of ``repo_id`` (``Qwen/Qwen2.5-7B-Instruct``), or None."""
    if not looks_like_repo_id(repo_id):
        return None
    repo = (cache_root() if root is None else root) / repo_folder_name(repo_id)
    return cached_model_in(repo) if repo.is_dir() else None


def is_repo_folder(path: Path) -> bool:
    """Whether ``path`` is a cache repo folder ``models--ORG--NAME`` (it has ``snapshots/``)."""
    return path.name.startswith(PREFIX) and (path / "snapshots").is_dir()


def repo_of(snapshot: Path) -> Path | None:
    """The repo folder a snapshot folder ``models--ORG--NAME/snapshots/HASH`` belongs to, or None."""
    repo = snapshot.parent.parent
    return repo if snapshot.parent.name == "snapshots" and repo.name.startswith(PREFIX) else None


def within_repo(path: Path, repo: Path) -> bool:
    """Whether ``path`` (a snapshot's link) leads to a regular file inside ``repo``."""
    return _inside(path, repo) is not None


def entries(open_file: Callable[[Path], Encoder], taken: Collection[str] = ()) -> list[EncoderEntry]:
    """One registry entry per cached tokenizer, named by its repo id (``gpt2 (HF cache)`` when a name in
    ``taken`` has it already); ``open_file`` opens its file (the composition module passes its
    ``open_model_file``: families do not import it)."""

    def entry(model: CachedModel) -> EncoderEntry:
        name = model.repo_id if model.repo_id not in taken else f"{model.repo_id} ({FAMILY})"

        def load() -> Encoder:
            enc = open_file(model.file)  # the file checked, not whatever else the snapshot holds
            enc.name = name
            return enc

        # the family column says where it is from; the source is the file, a path (nothing to translate)
        return EncoderEntry(
            name, FAMILY, lambda: (True, str(model.file)), load, None, f"{model.file.name} of {model.repo_id}"
        )

    return [entry(m) for m in cached_models()]
