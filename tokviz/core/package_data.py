"""What the installed package knows about itself: its version and where its resources are.

Low in the layers so that any module (core, ui, commands) can ask without importing the ``tokviz``
package's library face (``tokviz.encode`` and friends, which reach the encoder catalogue).
"""

from __future__ import annotations

VERSION = "0.1.0"


def resources_dir():
    """Folder of tokviz's resources (icons, demo corpora, sample texts, translations), a ``Path``.

    In an installed wheel they live at ``tokviz/resources``; in a source checkout (editable
    install, tests) at the top-level ``resources/`` beside the package.

    >>> (resources_dir() / "corpora").is_dir()
    True
    """
    from pathlib import Path  # here, not at import: ``import tokviz`` stays cheap for the CLI and the API

    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "resources", package.parent / "resources"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("tokviz resources not found next to the package (broken install?)")


_LOCATIONS: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}


def installed_data_file(package: str, *parts: str):
    """Path of a data file inside an installed package, without importing the package (None when the
    package or the file is not there).

    Where a package lives is looked up once per ``sys.path``: listing the encoders probes every catalogue
    file, and each window lists them several times (a fresh ``find_spec`` walk cost 5-15 ms each).

    >>> installed_data_file("tokviz", "core", "package_data.py").name
    'package_data.py'
    >>> installed_data_file("no_such_package_here", "x") is None
    True
    """
    import importlib.util
    import sys
    from pathlib import Path

    key = (package, tuple(sys.path))
    locations = _LOCATIONS.get(key)
    if locations is None:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            spec = None
        locations = tuple(spec.submodule_search_locations or ()) if spec is not None else ()
        _LOCATIONS[key] = locations
    for loc in locations:
        p = Path(loc).joinpath(*parts)
        if p.is_file():
            return p
    return None
