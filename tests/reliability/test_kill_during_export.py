"""kill -9 in the middle of every export: the destination holds the old file intact or the complete
new one, whatever instant the process dies. A GPT-2 pair is a matching pair, except after a kill in
the instant between its two renames: then the loader refuses the pair (nothing replays a journal).

Each export runs in a forked child with a hook on every file-system call it makes (open, write —
split in two halves, so a kill lands mid-write too —, close, fsync, chmod, rename, unlink). The
child SIGKILLs itself just before call number N, for N = 1, 2, … until an export runs to the end
without reaching N: every gap between two calls of the export is a kill point, deterministically.
The children are forked from a small fork server, not from pytest: late in a full run pytest holds
every encoder loaded so far, and copying its page tables cost 0.2-0.3 s a kill point.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from pathlib import Path

import pytest

from tests.support import kill_points
from tests.support.trained_models import bpe_model, unigram_model, wordpiece_model
from tokviz.core.atomic import TEMP_MARK
from tokviz.core.bpe.formats import load_model
from tokviz.core.errors import ModelFileError

MAX_POINTS = 400  # far more calls than any export makes; reaching it means the loop never ended

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="kills a forked child")


@pytest.fixture(scope="module")
def forks():
    """The fork server the children come from, with tokviz's writers and the child's side
    (tests/support/kill_points.py) already imported. It is the process's one fork server, which tokviz's
    own children come from too: tests/conftest.py adds kill_points to what tokviz preloads, so whichever
    starts the server first, it imports both."""
    from tokviz.core.child_start import PRELOAD

    assert kill_points.__name__ in PRELOAD
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


# ---- the models, old (smaller) and new --------------------------------------------------------------
@pytest.fixture(scope="module")
def models():
    return {
        "byte": (bpe_model("byte", 30), bpe_model("byte", 60)),
        "char": (bpe_model("char", 30), bpe_model("char", 60)),
        "wordpiece": (wordpiece_model(1450), wordpiece_model(1500)),
        "unigram": (unigram_model(1000), unigram_model(1200)),
    }


# export name -> (the models it takes, how to write one, the file names it leaves in the folder)
EXPORTS = {
    "tokviz": ("byte", kill_points.save_tokviz, ["model.json"]),
    "tiktoken": ("byte", kill_points.save_tiktoken, ["model.json"]),
    "subword-nmt": ("char", kill_points.save_subword_nmt, ["model.json"]),
    "gpt2-pair": ("byte", kill_points.save_gpt2, ["vocab.json", "merges.txt"]),
    "tokenizer.json-bpe": ("byte", kill_points.write_tokenizer_json, ["model.json"]),
    "tokenizer.json-wordpiece": ("wordpiece", kill_points.write_tokenizer_json, ["model.json"]),
    "tokenizer.json-unigram": ("unigram", kill_points.write_tokenizer_json, ["model.json"]),
    "vocab.txt": ("wordpiece", kill_points.save_vocab_txt, ["model.json"]),
}


def _dest(folder: Path, export: str) -> Path:
    return folder if export == "gpt2-pair" else folder / "model.json"


def _snapshot(folder: Path, names: list[str]) -> tuple[bytes | None, ...]:
    return tuple((folder / n).read_bytes() if (folder / n).exists() else None for n in names)


def _export_killed_at(forks, kill_at: int, write, model, dest: Path) -> bool:
    """Run ``write(model, dest)`` in a child killed before file-system call ``kill_at``; True when
    the child was killed, False when the export finished first."""
    child = forks.Process(target=kill_points.export_in_child, args=(kill_at, write, model, dest))
    child.start()
    child.join()
    if child.exitcode == -signal.SIGKILL:
        return True
    assert child.exitcode == 0, f"the export failed in the child without being killed (exit {child.exitcode})"
    return False


def _leftovers(folder: Path, names: list[str]) -> list[str]:
    """Files in ``folder`` besides the export's own; only hidden temp files of tokviz's pattern may stay."""
    others = sorted(p.name for p in folder.iterdir() if p.name not in names)
    assert all(n.startswith(".") and TEMP_MARK in n for n in others), others
    return others


def _pair_state(folder: Path, state, old, new) -> str:
    """ "old", "new" or "refused": a GPT-2 pair that is neither must not load."""
    if state == new:
        return "new"
    if state == old:
        return "old"
    with pytest.raises(ModelFileError, match="do not belong together|without vocab.json"):
        load_model(folder)
    return "refused"


def _kill_everywhere(forks, tmp_path: Path, export: str, old_model, new_model) -> list[tuple]:
    """Every kill point of one export over ``old_model``'s files (None: over nothing); returns the
    (point, what the folder holds) of each run."""
    kind, write, names = EXPORTS[export]
    reference = tmp_path / "reference"
    reference.mkdir()
    write(new_model, _dest(reference, export))
    new = _snapshot(reference, names)
    old = (None,) * len(names)
    if old_model is not None:
        write(old_model, _dest(reference, export))
        old = _snapshot(reference, names)
        assert old != new
    seen = []
    for point in range(1, MAX_POINTS):
        folder = tmp_path / f"kill-{point}"
        folder.mkdir()
        for name, data in zip(names, old, strict=True):
            if data is not None:
                (folder / name).write_bytes(data)
        killed = _export_killed_at(forks, point, write, new_model, _dest(folder, export))
        state = _snapshot(folder, names)
        # each file on its own is whole, old or new: never cut short, never missing when it existed
        for i, (got, was, now) in enumerate(zip(state, old, new, strict=True)):
            assert got in (was, now), f"{export}: killed before call {point}, {names[i]} is damaged"
        left = _leftovers(folder, names)
        if export == "gpt2-pair":
            seen.append((point, _pair_state(folder, state, old, new)))
        else:
            seen.append((point, "new" if state == new else "old"))
        if not killed:
            assert state == new and not left, (export, left)
            return seen
    raise AssertionError(f"{export} made more than {MAX_POINTS} file-system calls")


@pytest.mark.parametrize("export", list(EXPORTS))
def test_kill_9_at_every_point_of_an_export_over_an_old_file(forks, tmp_path, models, export):
    old_model, new_model = models[EXPORTS[export][0]]
    seen = _kill_everywhere(forks, tmp_path, export, old_model, new_model)
    # the kills really landed in the middle: some left the old file, the last run the new one
    assert len(seen) >= 4 and seen[0][1] == "old" and seen[-1][1] == "new", seen
    if export == "gpt2-pair":  # one kill fell between the two renames, and the loader said so
        assert "refused" in {outcome for _, outcome in seen}, seen


@pytest.mark.parametrize("export", ["tokviz", "gpt2-pair", "tokenizer.json-unigram"])
def test_kill_9_at_every_point_of_a_first_export(forks, tmp_path, models, export):
    _, new_model = models[EXPORTS[export][0]]
    seen = _kill_everywhere(forks, tmp_path, export, None, new_model)
    assert seen[-1][1] == "new"


def test_a_kill_between_the_gpt2_renames_is_refused_by_every_way_of_opening_the_pair(forks, tmp_path, models):
    """The one mixed state a kill can leave (new merges.txt, old vocab.json) never loads as a model,
    whether the folder or either file is opened, and opening it changes nothing."""
    from tokviz.core.encoders.builtin import open_model_file

    old_model, new_model = models["byte"]
    _, write, names = EXPORTS["gpt2-pair"]
    for point in range(1, MAX_POINTS):
        folder = tmp_path / f"kill-{point}"
        folder.mkdir()
        write(old_model, folder)
        before = _snapshot(folder, names)
        if not _export_killed_at(forks, point, write, new_model, folder):
            pytest.fail("no kill left a new merges.txt beside the old vocab.json")
        mixed = _snapshot(folder, names)
        if mixed[1] == before[1] or mixed[0] != before[0]:
            continue  # not the instant between the renames
        listing = sorted(p.name for p in folder.iterdir())
        for target in (folder, folder / "vocab.json", folder / "merges.txt"):
            with pytest.raises(ModelFileError, match="do not belong together"):
                load_model(target)
            with pytest.raises(ModelFileError, match="do not belong together"):
                open_model_file(target)
        assert sorted(p.name for p in folder.iterdir()) == listing and _snapshot(folder, names) == mixed
        write(new_model, folder)  # exporting again repairs it
        assert load_model(folder).merges == new_model.merges
        return
