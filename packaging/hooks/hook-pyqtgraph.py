# PyInstaller hook for pyqtgraph, used by packaging/tokviz.spec in place of pyinstaller-hooks-contrib's.
#
# It bundles the same things as contrib's hook (pyqtgraph's data files, its *Template* modules that are
# imported by name at run time, the multiprocess bootstrap, no second Qt binding) but finds the template
# modules by their file names. Contrib's hook lists every pyqtgraph submodule with collect_submodules,
# which imports all of pyqtgraph, Qt included, in a child process: 1.5 CPU-s a build, for five names.
# tests/test_packaging.py checks that contrib's hook still selects the modules this way.
from pathlib import Path

from PyInstaller.utils.hooks import collect_data_files, get_package_paths

datas = collect_data_files("pyqtgraph", excludes=["**/examples/*"])

_, _package = get_package_paths("pyqtgraph")
hiddenimports = sorted(
    ".".join(("pyqtgraph", *path.relative_to(_package).with_suffix("").parts))
    for path in Path(_package).rglob("*Template*.py")
    if "examples" not in path.relative_to(_package).parts
)
hiddenimports += ["pyqtgraph.multiprocess.bootstrap"]

try:
    from PyInstaller.utils.hooks.qt import exclude_extraneous_qt_bindings
except ImportError:
    pass
else:
    excludedimports = exclude_extraneous_qt_bindings(hook_name="hook-pyqtgraph", qt_bindings_order=None)
