"""A Hugging Face hub cache laid out as huggingface_hub lays it out, for tests that must not download."""

from __future__ import annotations

import hashlib
import os

from tokviz.core.encoders import hf_cache

HASH = "a" * 40
OLD = "b" * 40


def add_repo(root, repo_id: str, files: dict[str, bytes], *, ref: str | None = HASH, snapshot: str = HASH):
    """``models--ORG--NAME`` with each file as a blob and a snapshot symlink to it, as huggingface_hub does."""
    repo = root / hf_cache.repo_folder_name(repo_id)
    (repo / "blobs").mkdir(parents=True, exist_ok=True)
    snap = repo / "snapshots" / snapshot
    snap.mkdir(parents=True)
    for name, data in files.items():
        blob = repo / "blobs" / hashlib.sha256(data).hexdigest()  # blobs are named by their content
        blob.write_bytes(data)
        (snap / name).symlink_to(os.path.relpath(blob, snap))
    if ref is not None:
        (repo / "refs").mkdir(exist_ok=True)
        (repo / "refs" / "main").write_text(ref, encoding="utf-8")
    return repo
