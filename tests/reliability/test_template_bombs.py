"""Chat-template bombs: huge values, C calls that hold the GIL, memory, Ctrl-C, a GUI that moves on.

Every case ends with one clear message (CLI exit 2; 130 for Ctrl-C), never a traceback, a hang or
gigabytes. The known bombs are refused by the sandbox in milliseconds, in the template process that
stays up (one process serves the whole file); what the sandbox cannot stop (one long C call, memory)
is stopped by killing that process. Waits are on states; the timeouts only keep a regression from
hanging the suite.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.support.processes import CTRL_C_AS_AT_A_TERMINAL, cpu_seconds
from tokviz.cli import main
from tokviz.core import template_process
from tokviz.core.chat import ChatTemplateError, Message, render_jinja
from tokviz.core.template_sandbox import TemplateFailure

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = [Message("system", "짧게."), Message("user", "안녕 hi")]
GUARD = 60  # seconds: only a hang (the bug) gets near this
# One C call that holds the GIL for a long time (sum() of lists copies quadratically: ~10^10 pointer
# copies, 16 MB at most): no trace hook fires inside it and, in-process, Ctrl-C waits for it.
C_CALL_BOMB = "{{ ([[0] * 100] * 20000) | sum(start=[]) | length }}"
PYTHON_LOOP = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"

# (source, words of the message); all refused before the work, in milliseconds
BOMBS = [
    pytest.param("{{ (((10**1000)**1000)**1000) % 7 }}", "raises a number to the power", id="power-chain"),
    pytest.param("{{ 7 ** (10**20) }}", "raises a number to the power", id="power-huge-exponent"),
    pytest.param("{% set x = 10**1000 %}{{ x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x*x }}",
                 "multiplies numbers", id="product-chain"),
    pytest.param("{{ 'x' | indent(10**9) }}", "indents text", id="indent"),
    pytest.param("{{ messages | tojson(indent=10**9) }}", "JSON indent", id="tojson-indent"),
    pytest.param("{{ messages | tojson(separators=(',' * 1000, ':')) }}", "JSON separator", id="tojson-separator"),
    pytest.param("{{ 'x' * 10**9 }}", "repeats a value", id="string-times"),
    pytest.param("{{ [0] * 10**9 }}", "repeats a value", id="list-times"),
    pytest.param("{% set ns = namespace(s='x' * 10**6) %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}"
                 "{% endfor %}", "joins two values", id="string-doubling-plus"),
    pytest.param("{% set ns = namespace(s='x' * 10**6) %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                 "{% endfor %}", "joins values with ~", id="string-doubling-tilde"),
    pytest.param("{% set ns = namespace(l=[0] * 10**6) %}{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}"
                 "{% endfor %}", "joins two values", id="list-doubling"),
    pytest.param("{{ '%1000000000s' % 'x' }}", "1,000,000,000 characters wide", id="printf-width"),
    pytest.param("{{ '%*s' % (10**9, 'x') }}", "characters wide", id="printf-star-width"),
    pytest.param("{{ '%.1000000000f' % 1.5 }}", "characters wide", id="printf-precision"),
    pytest.param("{{ '%1000000000s' | format('x') }}", "characters wide", id="format-filter"),
    pytest.param("{{ '{:1000000000}'.format('x') }}", "characters wide", id="str-format"),
    pytest.param("{{ '{0:{1}}'.format('x', 10**9) }}", "characters wide", id="str-format-nested"),
    pytest.param("{{ '{x:>1000000000}'.format_map({'x': 1}) }}", "characters wide", id="str-format-map"),
    pytest.param("{{ 'x'.center(10**9) }}", "center", id="center"),
    pytest.param("{{ 'x' | center(10**9) }}", "centers a value", id="center-filter"),
    pytest.param("{{ 'x'.ljust(10**9) }}", "ljust", id="ljust"),
    pytest.param("{{ 'x'.rjust(10**9) }}", "rjust", id="rjust"),
    pytest.param("{{ '1'.zfill(10**9) }}", "zfill", id="zfill"),
    pytest.param("{{ ('\t' * 10**6).expandtabs(10**9) }}", "expands tabs", id="expandtabs"),
    pytest.param("{{ ('x' * 10**6).join(range(10**4) | map('string')) }}", "joins values", id="str-join"),
    pytest.param("{{ range(10**5) | join('x' * 10**6) }}", "joins values", id="join-filter"),
    pytest.param("{{ ('a' * 10**6).replace('a', 'aaaa') }}", "replaces text", id="str-replace"),
    pytest.param("{{ ('a' * 10**6) | replace('a', 'aaaa') }}", "replaces text", id="replace-filter"),
    pytest.param("{{ ('a' * 10**6).translate({97: 'x' * 100}) }}", "translates text", id="translate"),
    pytest.param("{{ range(10**9) | list }}", "Range too big", id="range"),
    pytest.param("{{ range(5) | batch(10**9, 'x') | list }}", "batches", id="batch"),
    pytest.param("{{ range(5) | slice(10**9) | list }}", "slices", id="slice"),
    pytest.param("{{ lipsum(10**9) }}", "lipsum", id="lipsum"),
    pytest.param("{{ 'a b' | wordwrap(1, true, 'x' * 10**6) }}", "wordwrap", id="wordwrap"),
    pytest.param("{% for i in range(3000) %}{{ 'x' * 1000 }}{% endfor %}", "wrote over 2,000,000 characters",
                 id="output"),
]

# sandbox escapes, each trying to create the file MARK: still blocked, now in the template process
ESCAPES = [
    "{{ messages.__class__.__mro__[1].__subclasses__() }}",
    "{{ ''.__class__.__base__.__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os.system('touch MARK') }}",
    "{{ joiner.__init__.__globals__['os'].popen('touch MARK').read() }}",
    "{{ namespace.__init__.__globals__.os.system('touch MARK') }}",
    "{{ lipsum.__globals__['os'].system('touch MARK') }}",
    "{{ raise_exception.__globals__['__builtins__']['open']('MARK', 'w').write('x') }}",
    "{{ strftime_now.__globals__.__builtins__.__import__('os').system('touch MARK') }}",
    "{{ self.__init__.__globals__.__builtins__.open('MARK', 'w') }}",
    "{{ '{0.__class__.__mro__[1].__subclasses__}'.format(1) }}",
    "{{ messages.append('x') }}{{ messages[0].update({'role': 'x'}) }}",
    "{{ (range | attr('__init__')).__globals__.os.system('touch MARK') }}",
    "{% set x = dict(a=1) %}{{ x.__class__.__init__.__globals__.os.system('touch MARK') }}",
]


def _warm_worker() -> int:
    """The shared template process, started and idle; its pid."""
    assert render_jinja("{{ messages[1].content }}", MESSAGES) == "안녕 hi"
    pid = template_process.worker_pid()
    assert pid is not None
    return pid


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_until_busy(pid: int, cpu: float = 0.2) -> None:
    """Wait until ``pid`` has used ``cpu`` more seconds of CPU (it is inside the render)."""
    start, deadline = cpu_seconds(pid), time.monotonic() + GUARD
    while cpu_seconds(pid) < start + cpu:
        assert time.monotonic() < deadline, "the template process never got busy"
        time.sleep(0.02)


@pytest.mark.parametrize("source, words", BOMBS)
def test_a_bomb_is_refused_with_a_message_and_the_process_stays(source, words):
    pid = _warm_worker()
    # seconds=GUARD: a bomb the sandbox missed would hit the deadline and say "ran for over", not these words
    with pytest.raises(ChatTemplateError, match=words) as caught:
        render_jinja(source, MESSAGES, seconds=GUARD)
    message = str(caught.value)
    assert message.startswith("the chat template") and "\n" not in message and len(message) < 300
    assert template_process.worker_pid() == pid  # refused inside, not by killing the process


@pytest.mark.parametrize("source", ESCAPES)
def test_sandbox_escapes_stay_blocked(tmp_path, source):
    mark = tmp_path / "escaped"
    try:
        text = render_jinja(source.replace("MARK", str(mark)), MESSAGES)
    except ChatTemplateError as err:
        assert "Traceback" not in str(err)
    else:
        assert "class" not in text and "function" not in text and "module" not in text  # nothing leaked
    assert not mark.exists()


def test_a_long_c_call_is_ended_by_killing_its_process():
    """The trace-hook deadline cannot fire inside one C call; the parent kills the process instead."""
    pid = _warm_worker()
    with pytest.raises(ChatTemplateError, match=r"ran for over 0.3 s and its process was ended"):
        render_jinja(C_CALL_BOMB, MESSAGES, seconds=0.3)
    assert not _alive(pid)
    assert _warm_worker() != pid  # the next render gets a new process


def test_a_loop_is_stopped_by_the_deadline_inside_the_process():
    pid = _warm_worker()
    with pytest.raises(ChatTemplateError, match=r"ran for over 0.3 s \(a loop"):
        render_jinja(PYTHON_LOOP, MESSAGES, seconds=0.3)
    assert template_process.worker_pid() == pid


def test_running_out_of_memory_is_a_message_and_a_fresh_process():
    worker = template_process.TemplateWorker(memory_bytes=200 << 20)  # a lowered ceiling: fast to reach
    try:
        assert worker.render("{{ 1 + 1 }}", {}) == "2"
        pid = worker.pid
        bomb = "{{ ([[0] * 2000000] * 2000000) | map('list') | list | length }}"  # 16 MB per item, no bound
        with pytest.raises(template_process.TemplateFailure, match="needed over 200 MB of memory"):
            worker.render(bomb, {}, seconds=GUARD)
        assert not _alive(pid)
        assert worker.render("{{ 'ok' }}", {}) == "ok"
    finally:
        worker.close()


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="reads Linux's /proc")
def test_the_process_runs_under_memory_and_cpu_limits_without_heavy_imports():
    pid = _warm_worker()
    limits = Path(f"/proc/{pid}/limits").read_text(encoding="utf-8")
    address = next(line for line in limits.splitlines() if line.startswith("Max address space"))
    assert int(address.split()[3]) <= template_process.MEMORY_BYTES
    cpu = next(line for line in limits.splitlines() if line.startswith("Max cpu time"))
    assert cpu.split()[3] != "unlimited"
    maps = Path(f"/proc/{pid}/maps").read_text(encoding="utf-8")
    for heavy in ("numpy", "PySide6", "libQt", "tokenizers", "tiktoken", "sentencepiece"):
        assert heavy not in maps


def test_cancel_stops_a_render_at_once():
    pid = _warm_worker()
    cancel = threading.Event()
    outcome: dict = {}

    def render():
        try:
            render_jinja(PYTHON_LOOP, MESSAGES, seconds=GUARD, cancelled=cancel.is_set)
        except ChatTemplateError as err:
            outcome["error"] = str(err)

    thread = threading.Thread(target=render)
    thread.start()
    _wait_until_busy(pid)
    cancel.set()
    thread.join(GUARD)
    assert not thread.is_alive() and "cancelled" in outcome["error"]
    assert not _alive(pid)


def test_stopping_the_process_ends_a_render_in_flight():
    pid = _warm_worker()
    outcome: dict = {}

    def render():
        try:
            render_jinja(C_CALL_BOMB, MESSAGES, seconds=GUARD)
        except ChatTemplateError as err:
            outcome["error"] = str(err)

    thread = threading.Thread(target=render)
    thread.start()
    _wait_until_busy(pid)
    template_process.stop()  # what the application does at exit
    thread.join(GUARD)
    assert not thread.is_alive() and "cancelled" in outcome["error"]
    assert not _alive(pid)


def test_messages_longer_than_the_output_bound_are_refused_before_rendering():
    with pytest.raises(ChatTemplateError, match="messages are 2,000,001 characters long"):
        render_jinja("{{ messages[0].content }}", [Message("user", "x" * 2_000_001)])


# ---- the CLI ------------------------------------------------------------------------------------------
@pytest.fixture
def messages_file(tmp_path):
    path = tmp_path / "messages.json"
    path.write_text(json.dumps([{"role": "user", "content": "안녕 hi"}]), encoding="utf-8")
    return path


@pytest.mark.parametrize("source, words", [
    ("{{ (((10**1000)**1000)**1000) % 7 }}", "raises a number to the power"),
    ("{{ 'x' | indent(10**9) }}", "indents text"),
    ("{{ '%1000000000s' % 'x' }}", "characters wide"),
    (C_CALL_BOMB, "ran for over 0.3 s and its process was ended"),
])
def test_cli_bomb_is_one_line_and_exit_2(tmp_path, messages_file, capsys, monkeypatch, source, words):
    monkeypatch.setattr("tokviz.core.chat.RENDER_SECONDS", 0.3)
    template = tmp_path / "bomb.jinja"
    template.write_text(source, encoding="utf-8")
    assert main(["chat", "-e", "sp:demo_unigram", "--template", str(template), str(messages_file)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and err.count("\n") == 1


def test_cli_refuses_a_template_file_over_1_mb_before_reading_it(tmp_path, messages_file, capsys):
    big = tmp_path / "big.jinja"
    with open(big, "wb") as f:
        f.truncate(2 << 20)  # sparse: the size says it all
    assert main(["chat", "-e", "sp:demo_unigram", "--template", str(big), str(messages_file)]) == 2
    assert "is over 1 MB; that is not a chat template file" in capsys.readouterr().err


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text(encoding="utf-8").split()]
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads Linux's /proc")
def test_ctrl_c_ends_tokviz_chat_during_a_c_call(tmp_path, messages_file):
    """Ctrl-C (SIGINT to the terminal's process group) while the template holds the GIL in one C call:
    tokviz says so on one line and exits 130 at once, its template process gone."""
    template = tmp_path / "hang.jinja"
    template.write_text(C_CALL_BOMB, encoding="utf-8")
    # a render deadline far away, so that only Ctrl-C can end this render
    code = (CTRL_C_AS_AT_A_TERMINAL + "import sys, tokviz.core.chat as chat; chat.RENDER_SECONDS = 600; "
            "from tokviz.cli import main; sys.exit(main())")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", code, "chat", "-e", "sp:demo_unigram", "--template", str(template),
                             str(messages_file)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + GUARD
        while not _children(proc.pid) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert proc.poll() is None, proc.communicate()
        child = _children(proc.pid)[0]
        _wait_until_busy(child, cpu=0.5)  # past its start-up: inside the render
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == 130, err
    assert err == "tokviz: interrupted\n" and out == ""
    assert not _alive(child)


# ---- the window -----------------------------------------------------------------------------------------
def test_the_inspector_stops_a_render_for_a_newer_request_and_on_close(qtbot, tmp_path, monkeypatch):
    """A template stuck in one C call used to freeze the window for good (the GIL); now a newer request
    (another template) and closing the panel each end that render by killing its process."""
    from tokviz.core.encoders.builtin import default_registry
    from tokviz.ui.inspect.panel import InspectPanel
    from tokviz.ui.session import Session

    monkeypatch.setattr("tokviz.core.chat.RENDER_SECONDS", 600)  # only the cancel can end these renders
    hang = tmp_path / "hang.jinja"
    hang.write_text(C_CALL_BOMB, encoding="utf-8")
    panel = InspectPanel(Session(default_registry()))
    qtbot.addWidget(panel)
    panel.show()
    try:
        panel.set_encoder("sp:demo_unigram")
        panel.input_tabs.setCurrentWidget(panel.composer)
        pid = _warm_worker()
        assert panel.composer.load_template_file(hang)
        panel.encode_now()
        _wait_until_busy(pid)
        panel.composer.set_template("chatml")  # the user picks another template meanwhile
        qtbot.waitUntil(lambda: panel.is_current() and panel.result.chat is not None, timeout=GUARD * 1000)
        assert panel.result.error is None and panel.result.chat.template == "chatml"
        assert not _alive(pid)
        # closing while a render is stuck
        pid = _warm_worker()
        assert panel.composer.load_template_file(hang)
        panel.encode_now()
        _wait_until_busy(pid)
        panel.shutdown()  # waits for nothing: the cancelled render's wait sees the flag and kills the child
        qtbot.waitUntil(lambda: not _alive(pid), timeout=GUARD * 1000)
    finally:
        panel.shutdown()


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads Linux's /proc")
def test_the_frozen_app_renders_in_a_child_of_its_own_executable(tmp_path, monkeypatch):
    """A frozen app's executable runs no ``python -c``: it is started again as ``tokviz`` with the worker
    variable set, and the C-call bomb is still ended by killing that process (it used to render in-process,
    where nothing can stop it)."""
    launcher = tmp_path / "tokviz-frozen"  # stands in for the PyInstaller executable: `tokviz` and nothing else
    launcher.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m tokviz "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(launcher))
    worker = template_process.TemplateWorker()
    try:
        context = {"messages": [{"role": "user", "content": "안녕 👋"}]}
        assert worker.render("{{ messages[0].content }}", context) == "안녕 👋"
        pid = worker.pid
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert cmdline[1:3] == [b"-m", b"tokviz"]  # the app itself, with no arguments, became the worker
        with pytest.raises(TemplateFailure, match=r"ran for over 0.3 s and its process was ended"):
            worker.render(C_CALL_BOMB, context, seconds=0.3)
        assert not _alive(pid)
    finally:
        worker.close()
