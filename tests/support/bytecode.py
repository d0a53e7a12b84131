"""The test run's bytecode folders (see ``_cache_bytecode_outside_the_checkout`` in tests/conftest.py):
one per Python environment under the temporary folder, and the housekeeping that removes those of
environments that are gone."""

from __future__ import annotations

import glob
import os
import shutil
import sys
import tempfile
import time

ENVIRONMENT_NOTE = "python-prefix.txt"  # in each bytecode folder: the environment (sys.prefix) it serves


def remove_bytecode_of_environments_that_are_gone(prefix: str, family: str) -> None:
    """A bytecode folder serves one environment (~50 MB after a run), and a fresh venv per run (as .ci/run
    makes and deletes) left one folder behind each time. This run's folder notes its environment; any
    other folder of this user's whose noted environment no longer exists is removed, and so is one
    without a note that was last changed over a day ago (made before folders were noted)."""
    try:
        os.makedirs(prefix, exist_ok=True)
        note = os.path.join(prefix, ENVIRONMENT_NOTE)
        if not os.path.exists(note):
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=prefix, delete=False) as f:
                f.write(sys.prefix)
            os.replace(f.name, note)
    except OSError:
        return  # only housekeeping
    for folder in glob.glob(glob.escape(family) + "*"):
        if folder == prefix or os.path.islink(folder) or not os.path.isdir(folder):
            continue
        try:
            with open(os.path.join(folder, ENVIRONMENT_NOTE), encoding="utf-8") as f:
                environment = f.read()
            gone = bool(environment) and not os.path.exists(environment)
        except FileNotFoundError:
            try:
                gone = time.time() - os.stat(folder).st_mtime > 24 * 3600
            except OSError:
                continue
        except OSError:
            continue
        if gone:
            shutil.rmtree(folder, ignore_errors=True)
