"""``tokviz`` command line: ``tokviz`` alone opens the app; subcommands work without a display.

Each subcommand lives in ``tokviz/commands/<name>.py`` with ``add_parser(subparsers)`` and
``run(args) -> int``. Only ``screenshot`` and the app import Qt; encode/encoders/train/compare/vocab never do.
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import sys
from collections.abc import Iterable

from tokviz import __version__
from tokviz.core.errors import TokvizError

# template_process.WORKER_ENV, spelled out so that every start does not import that module (~18 ms)
TEMPLATE_WORKER_ENV = "TOKVIZ_TEMPLATE_WORKER"
COMMANDS = ("encoders", "encode", "chat", "train", "compare", "vocab", "parity", "sweep", "ids", "stream", "heal",
            "cut", "crosscheck", "screenshot")


def build_parser(commands: Iterable[str] = COMMANDS) -> argparse.ArgumentParser:
    """The command line's parser with the subcommands ``commands`` (and ``gui``). Each command's module
    is imported to add its arguments: importing all fourteen to run one cost every start ~0.35 s of CPU
    (train's, compare's and chat's imports among them), so :func:`main` asks only for the command
    given; ``tokviz --help`` and a mistyped command's message list them all."""
    parser = argparse.ArgumentParser(
        prog="tokviz",
        usage="tokviz [-h] [--version] [FILE ... | COMMAND ...]",
        description="Explore tokenization. Without a command, opens the tokviz window on its demo data; "
                    "with a text FILE, opens the window with that file in the Inspector.",
    )
    parser.add_argument("--version", action="version", version=f"tokviz {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in commands:
        importlib.import_module(f"tokviz.commands.{name}").add_parser(sub)
    gui = sub.add_parser("gui", help="open the tokviz window (the default); tokviz FILE is tokviz gui FILE")
    gui.add_argument("files", nargs="*", metavar="FILE", help="UTF-8 text file to open in the Inspector")
    # tests and CI: open the window, wait until the platform shows it, report, close (saving as usual)
    gui.add_argument("--quit-after-show", action="store_true", help=argparse.SUPPRESS)
    gui.set_defaults(func=_run_gui)
    return parser


def commands_needed(argv: list[str]) -> tuple[str, ...]:
    """The subcommands the parser needs for ``argv`` (after :func:`gui_argv`): the one named, none for the
    window or ``--version``, all of them for ``--help`` or a word that names none (its error lists them).

    >>> commands_needed(["encode", "-e", "gpt2", "hi"]), commands_needed([]), commands_needed(["gui", "a.txt"])
    (('encode',), (), ())
    >>> commands_needed(["--version"]), len(commands_needed(["--help"])) == len(COMMANDS)
    ((), True)
    """
    first = argv[0] if argv else "gui"
    if first in COMMANDS:
        return (first,)
    return () if first in ("gui", "--version") else COMMANDS


def gui_argv(argv: list[str], commands: set[str]) -> list[str]:
    """``tokviz FILE ...`` (the .desktop file's ``Exec=tokviz %F``) means ``tokviz gui FILE ...``.

    Only a word that names a file (it exists, or looks like a path or file name) opens the window;
    a mistyped command (``tokviz encdoe hi``) is left for argparse to reject, as before.

    >>> gui_argv(["notes.txt"], {"encode", "gui"})
    ['gui', 'notes.txt']
    >>> gui_argv(["encode", "hi"], {"encode", "gui"})
    ['encode', 'hi']
    >>> gui_argv(["encdoe", "hi"], {"encode", "gui"})
    ['encdoe', 'hi']
    """
    if argv and argv[0] == "--":
        return ["gui", "--", *argv[1:]]
    if argv and not argv[0].startswith("-") and argv[0] not in commands and _names_a_file(argv[0]):
        return ["gui", *argv]
    return argv


def _names_a_file(word: str) -> bool:
    import os

    return os.path.exists(word) or os.sep in word or "/" in word or "." in os.path.basename(word)


def _run_gui(args: argparse.Namespace) -> int:
    # Before Qt loads: without a display, or with the xcb plugin missing a system library, Qt
    # aborts the process with a message that names the wrong package; say what is missing instead.
    from tokviz import display_check

    problem = display_check.check_platform()
    if problem is not None:
        print(problem.message(), file=sys.stderr)
        return display_check.EXIT_NO_DISPLAY
    invisible = display_check.invisible_platform()
    if invisible is not None:
        print(f"tokviz: QT_QPA_PLATFORM={invisible}: the window is drawn into memory and nobody can see it; "
              f"{invisible} is for screenshots (tokviz screenshot) and tests. Unset QT_QPA_PLATFORM to see the "
              "window; Ctrl+C closes it.", file=sys.stderr)
    from tokviz.ui.app import run_app

    options = {"quit_after_show": True} if getattr(args, "quit_after_show", False) else {}
    return run_app(files=list(getattr(args, "files", None) or []), **options)


def main(argv: list[str] | None = None) -> int:
    # The Train panel trains in a child process, which the frozen app spawns (tokviz.core.child_start): that
    # child is this executable again, and freeze_support() (PyInstaller's version,
    # installed by its runtime hook) runs the child's work and exits instead of parsing arguments.
    # A no-op when not frozen.
    multiprocessing.freeze_support()
    import os

    from tokviz import display_check

    if os.environ.get(display_check.PROBE_ENV) == "1":  # the frozen app as its own display probe
        return display_check.run_probe()
    if TEMPLATE_WORKER_ENV in os.environ:  # the frozen app as its own chat-template process
        from tokviz.core.template_process import worker_from_environment

        worker_from_environment()
        return 0
    argv = gui_argv(list(sys.argv[1:] if argv is None else argv), {*COMMANDS, "gui"})
    args = build_parser(commands_needed(argv)).parse_args(argv)
    if not getattr(args, "command", None):
        return _run_gui(args)
    try:
        return int(args.func(args) or 0)
    except TokvizError as err:
        print(f"tokviz: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tokviz: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `tokviz encode ... | head`
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
