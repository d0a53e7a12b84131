"""Test-wide set-up: Qt offscreen, and settings/caches kept away from the user's own files."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# QSettings (and anything else following XDG) writes into a throwaway folder, never the user's.
_tmp_home = tempfile.mkdtemp(prefix="tokviz-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_tmp_home, "config")
os.environ["XDG_CACHE_HOME"] = os.path.join(_tmp_home, "cache")
