"""Hostile work behind the window: a model whose native code panics, model files that parse slowly or
never finish, and a window closed meanwhile. Whatever a task raises becomes a message where its
result goes; a parse never holds up another parse or the window's close."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from tests.support.inspect_panel import show, wait_shown
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoders.registry import Registry
from tokviz.ui.common.work import WorkService
from tokviz.ui.inspect.panel import InspectPanel
from tokviz.ui.session import Session

GUARD_S = 20  # only keeps a broken build from hanging: every wait below ends on a state


class FakePanic(BaseException):
    """What pyo3 raises for a Rust panic (PanicException derives from BaseException, not Exception)."""


class _Panicking:
    """cl100k under another name whose encode panics, as a tokenizer.json Split ``(a+)+$`` did."""

    family = "tokenizer.json"
    source = "a hostile test model"
    byte_level = True

    def __init__(self, inner, name="panicky"):
        self.inner, self.name = inner, name
        self.vocab_size = inner.vocab_size

    def encode(self, text, *, allow_special=False):
        raise FakePanic("called `Result::unwrap()` on an `Err` value")

    def decode(self, ids):
        return self.inner.decode(ids)

    def special_tokens(self):
        return {}

    def token_bytes(self, token_id):
        return self.inner.token_bytes(token_id)


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def test_a_task_that_panics_fails_with_a_message_and_its_runner_is_free(qtbot):
    service = WorkService()
    runner = service.channel(service, "tasks")
    failures = []

    def panic(state):
        raise FakePanic("index out of bounds")

    task = runner.start(panic, failed=failures.append)
    qtbot.waitUntil(lambda: not task.running, timeout=GUARD_S * 1000)
    assert failures == ["FakePanic: index out of bounds"]
    assert not runner.busy
    service.shutdown()


def test_a_panicking_encoder_shows_its_failure_not_the_previous_tokens(qtbot, registry):
    session = Session(Registry())
    session.registry.add(registry.get("cl100k_base"))
    session.add_encoder(_Panicking(registry.get("cl100k_base")))
    panel = InspectPanel(session)
    qtbot.addWidget(panel)
    panel.show()
    try:
        show(qtbot, panel, "안녕 hello world", "cl100k_base")
        assert panel.token_view.cells
        panel.set_encoder("panicky")
        panel.encode_now()
        wait_shown(qtbot, panel, timeout=GUARD_S * 1000)  # before the fix the task never ended
        assert panel.result.encoding is None and "FakePanic" in panel.result.error
        assert panel.message_bar.level == "error" and "panicky" in panel.message_bar.text()
        assert "FakePanic" in panel.message_bar.text()
        assert not panel.token_view.cells  # cl100k's tokens are not left standing as if they were panicky's
        assert not panel.busy()
        assert panel.current_encoder() == "panicky"
    finally:
        panel.shutdown()


def test_a_panicking_encoder_loses_its_compare_row_not_every_row(registry):
    from tokviz.core.compare import ParagraphCache
    from tokviz.ui.compare.jobs import encode_row

    class Job:
        pass

    job = Job()
    job.registry = Registry()
    job.registry.add(registry.get("cl100k_base"))
    job.registry.add(_Panicking(registry.get("cl100k_base")))
    job.waiting, job.bpe_failed, job.allow_special = (), None, False
    job.cache = None
    job.paragraphs = ParagraphCache()
    name, outcome, note = encode_row(job, "panicky", "hello", False)
    assert name == "panicky" and outcome.error.startswith("FakePanic") and note is None
    assert encode_row(job, "cl100k_base", "hello", False)[1].ok


# ---- model files that parse slowly ---------------------------------------------------------------------
class _SlowLoads:
    """Stands in for open_model_file: each path's parse blocks until the test releases it."""

    def __init__(self, registry):
        self.inner = registry.get("cl100k_base")
        self.release: dict[str, threading.Event] = {}
        self.started: list[str] = []
        self.finished: list[str] = []

    def __call__(self, path, pattern=None):
        name = Path(path).name
        self.started.append(name)
        self.release.setdefault(name, threading.Event()).wait(GUARD_S)
        self.finished.append(name)
        return _Renamed(self.inner, f"opened {name}")

    def let_go(self):
        for event in self.release.values():
            event.set()


class _Renamed(_Panicking):
    def encode(self, text, *, allow_special=False):
        return self.inner.encode(text, allow_special=allow_special)


@pytest.fixture
def slow_loads(monkeypatch, registry):
    from tokviz.core.encoders import builtin

    loads = _SlowLoads(registry)
    monkeypatch.setattr(builtin, "open_model_file", loads)
    yield loads
    loads.let_go()  # no parse thread outlives the test


def _window(qtbot, tmp_path, registry):
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.settings import Settings

    small = Registry()  # the window's panels list only this: no catalogue model is loaded
    small.add(registry.get("cl100k_base"))
    win = MainWindow(session=Session(small, settings=Settings.at(tmp_path / "s.ini")))
    qtbot.addWidget(win)
    return win


def test_a_second_model_opened_while_the_first_parses_is_added_too(qtbot, tmp_path, registry, slow_loads):
    win = _window(qtbot, tmp_path, registry)
    win.show()
    opened = []
    win.modelOpened.connect(lambda ok, what: opened.append((ok, what)))
    for name in ("first.json", "second.json"):
        slow_loads.release[name] = threading.Event()
        win.add_model_file(str(tmp_path / name))
    assert "first.json" in win.message_bar.text() and "second.json" in win.message_bar.text()
    slow_loads.release["second.json"].set()  # the second ends first
    qtbot.waitUntil(lambda: len(opened) == 1, timeout=GUARD_S * 1000)
    assert "first.json" in win.message_bar.text()  # still opening, and says so
    slow_loads.release["first.json"].set()
    qtbot.waitUntil(lambda: len(opened) == 2, timeout=GUARD_S * 1000)
    assert sorted(opened) == [(True, "opened first.json"), (True, "opened second.json")]
    names = set(win.session.registry.names())
    assert {"opened first.json", "opened second.json"} <= names
    combo = win.panels["inspect"].encoder_combo
    listed = {combo.itemText(i) for i in range(combo.count())}
    assert any("opened first.json" in t for t in listed) and any("opened second.json" in t for t in listed)
    assert not win.message_bar.isVisible()
    win.close()


def test_closing_the_window_during_a_parse_does_not_wait_for_it(qtbot, tmp_path, registry, slow_loads):
    win = _window(qtbot, tmp_path, registry)
    win.show()
    slow_loads.release["huge.gguf"] = threading.Event()  # never set by the test before close returns
    win.add_model_file(str(tmp_path / "huge.gguf"))
    inspect = win.panels["inspect"]
    slow_loads.release["other.gguf"] = threading.Event()
    inspect.open_model_path(str(tmp_path / "other.gguf"))  # the Inspector's own "Open model…" entry
    qtbot.waitUntil(lambda: len(slow_loads.started) == 2, timeout=GUARD_S * 1000)
    # a parse that could only end by the guard's timeout: close must return before that
    assert win.close()
    assert slow_loads.finished == []  # close returned while both parses still ran (waiting ends them)
    assert all(t.is_alive() for t in threading.enumerate() if t.name == "tokviz-detached-task")
    slow_loads.let_go()  # the abandoned parses end; their results go nowhere
    qtbot.wait(50)
    assert not any("huge.gguf" in n for n in win.session.registry.names())


def test_the_app_exits_promptly_with_a_parse_that_never_ends(tmp_path):
    script = textwrap.dedent("""
        import sys, threading
        from PySide6.QtCore import QCoreApplication, QTimer
        from tokviz.ui.common.work import WorkService

        app = QCoreApplication([])
        service = WorkService()
        runner = service.channel(service, "parse")
        never = threading.Event()
        started = threading.Event()
        runner.start_detached(lambda state: started.set() or never.wait())
        started.wait(10)
        service.shutdown()
        QTimer.singleShot(0, app.quit)
        app.exec()
        print("quit")
        sys.exit(0)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "quit"
