"""``tokviz screenshot --view {inspect,train,compare,boundaries,vocab} -o FILE.png``: render a panel offscreen.

Each panel implements ``prepare_screenshot(options)``, which fills the panel from the options (text,
encoders, corpus, merges) and returns once everything shown is ready (it may spin the event loop).
The Train view trains BPE that way; ``--algorithm wordpiece|unigram`` trains the other algorithms
through the panel's algorithm choice instead (:func:`prepare_algorithm`): Unigram with the lattice of
a sample line on screen, WordPiece (``--beside-bpe``) with BPE's choices beside its own. The Boundaries
view shows one hazard (``--hazard``; ``--budget N`` for the budget cut). The vocab
view examines ``-e A`` (diffed with a second ``-e B``), searches ``--text`` and shows ``--vocab-tab``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

VIEWS = ("inspect", "train", "compare", "boundaries", "vocab")
HAZARDS = ("canonical", "stream", "heal", "turns", "injection", "cut")  # tokviz.ui.boundaries.model.HAZARDS
VOCAB_TABS = ("tree", "reach", "diff", "maps")
ALGORITHMS = ("bpe", "wordpiece", "unigram")
COMPARE_TABS = ("parity", "sweep")


def add_parser(sub) -> None:
    p = sub.add_parser("screenshot", help="render a panel offscreen to a PNG (docs, CI)")
    p.add_argument("--view", choices=VIEWS, default="inspect")
    p.add_argument("-o", "--output", required=True, help="PNG file to write")
    text = p.add_mutually_exclusive_group()
    text.add_argument("--text", help="text for the inspect / compare / boundaries views (train --algorithm unigram: "
                      "the lattice's)")
    text.add_argument("--text-file", metavar="FILE",
                      help="UTF-8 file whose text (taken exactly, as File → Open takes it) the inspect / compare "
                      "views show")
    p.add_argument("--tokens", metavar="OUT.json",
                   help="also write the tokens the view shows: inspect {\"tokens\": [...]}, compare "
                   "{\"encoders\": [{\"name\", \"tokens\"}, ...]}, each token as `tokviz encode --json` prints it")
    p.add_argument("-e", "--encoder", action="append", dest="encoders", metavar="NAME",
                   help="encoder name (repeat for compare)")
    p.add_argument("--model", action="append", default=[], metavar="FILE", help="model file to add as an encoder")
    p.add_argument("--corpus", help="corpus file for the train view")
    p.add_argument("--merges", type=int, help="merges to train for the train view")
    p.add_argument("--algorithm", choices=ALGORITHMS, default="bpe", help="what the train view trains (default bpe)")
    p.add_argument("--vocab-size", type=int, metavar="N",
                   help="vocabulary size for --algorithm wordpiece or unigram (specials included)")
    p.add_argument("--beside-bpe", action="store_true",
                   help="WordPiece: run BPE beside it and show where the two criteria first disagree")
    p.add_argument("--jamo", action="store_true", help="BPE: train on Hangul decomposed into jamo")
    p.add_argument("--line", type=int, default=None, metavar="K",
                   help="Unigram: the sample line whose lattice is shown (default: the first with Hangul)")
    p.add_argument("--compare-tab", choices=COMPARE_TABS,
                   help="compare view: bring the Parity or Vocabulary sweep tab to the front and run it (-e: its "
                   "encoders)")
    p.add_argument("--hazard", choices=HAZARDS, help="boundaries view: the hazard shown (default canonical)")
    p.add_argument("--budget", type=int, metavar="N", help="boundaries view, --hazard cut: tokens kept")
    p.add_argument("--vocab-tab", choices=VOCAB_TABS,
                   help="vocab view: the tab shown (default: diff with two -e, else tree; --text is the token)")
    p.add_argument("--size", default="1400x900", help="window size WxH (default 1400x900)")
    p.add_argument("--theme", choices=("light", "dark"), help="colour theme")
    p.add_argument("--lang", choices=("en", "ko"), help="interface language (default en)")
    p.add_argument("--presentation", action="store_true", help="presentation mode (large fonts)")
    p.set_defaults(func=run)


def parse_size(size: str) -> tuple[int, int]:
    from tokviz.core.errors import TokvizError

    try:
        w, h = (int(v) for v in size.lower().split("x"))
    except ValueError:
        raise TokvizError(f"--size must look like 1400x900, not {size!r}") from None
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise TokvizError(f"--size {size} is out of range (200..8000 per side)")
    return w, h


def rendered_tokens(view: str, panel) -> dict:
    """What ``panel`` shows as token JSON (the ``tokviz encode --json`` token schema).

    inspect: ``{"tokens": [...]}``; compare: ``{"encoders": [{"name": ..., "tokens": [...]}, ...]}``, the
    rows in their order on screen (a row that shows a message instead of tokens has ``"error"``)."""
    from tokviz.core.display import token_json
    from tokviz.core.errors import TokvizError

    if view == "inspect":
        result = panel.result
        if result is None or result.encoding is None:
            raise TokvizError("the Inspector shows no tokens: " + (panel.message_bar.text() or "nothing encoded"))
        return {"tokens": [token_json(t) for t in result.encoding.tokens]}
    if view == "compare":
        encoders = []
        for row in panel.view.rows:
            data = row.data
            entry: dict = {"name": data.name}
            if data.encoding is not None:
                entry["tokens"] = [token_json(t) for t in data.encoding.tokens]
            else:
                entry["error"] = data.message or "no tokens"
            encoders.append(entry)
        return {"encoders": encoders}
    raise TokvizError(f"--tokens is for the inspect and compare views, not {view}")


def _check_options(args) -> None:
    from tokviz.core.errors import TokvizError

    if args.tokens and args.view not in ("inspect", "compare"):
        raise TokvizError(f"--tokens is for the inspect and compare views, not {args.view}")
    if getattr(args, "vocab_tab", None) and args.view != "vocab":
        raise TokvizError(f"--vocab-tab is for the vocab view, not {args.view}")
    if args.text_file and args.view not in ("inspect", "compare"):
        raise TokvizError(f"--text-file is for the inspect and compare views, not {args.view}")
    algorithm = getattr(args, "algorithm", "bpe")
    if algorithm != "bpe" and args.view != "train":
        raise TokvizError(f"--algorithm is for the train view, not {args.view}")
    if getattr(args, "beside_bpe", False) and algorithm != "wordpiece":
        raise TokvizError("--beside-bpe is for --algorithm wordpiece")
    if getattr(args, "jamo", False) and (args.view != "train" or algorithm != "bpe"):
        raise TokvizError("--jamo is for the train view with --algorithm bpe")
    if getattr(args, "vocab_size", None) is not None and algorithm == "bpe":
        raise TokvizError("--vocab-size is for --algorithm wordpiece or unigram (BPE takes --merges)")
    if getattr(args, "line", None) is not None and algorithm != "unigram":
        raise TokvizError("--line is for --algorithm unigram")
    if getattr(args, "compare_tab", None) and args.view != "compare":
        raise TokvizError("--compare-tab is for the compare view")
    if (getattr(args, "hazard", None) or getattr(args, "budget", None) is not None) and args.view != "boundaries":
        raise TokvizError(f"--hazard and --budget are for the boundaries view, not {args.view}")
    if getattr(args, "budget", None) is not None and args.budget < 0:
        raise TokvizError(f"--budget is a number of tokens to keep, 0 or more, not {args.budget}")
    if args.view == "train" and args.text is not None and algorithm != "unigram":
        raise TokvizError("--text is for the inspect and compare views, and the train view's Unigram lattice")


def _spin_until(done, timeout: float) -> bool:
    """Run the event loop until ``done()`` (or ``timeout`` seconds)."""
    import time

    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        loop = QEventLoop()
        QTimer.singleShot(20, loop.quit)
        loop.exec()
    return done()


def prepare_algorithm(panel, args) -> None:
    """Train WordPiece or Unigram in the Train ``panel`` as a user would (the algorithm choice, the
    vocabulary size, "Compare with BPE"), run it to the end and show the last step: for Unigram the
    lattice of a sample line (``--line``, else the first with Hangul). Raises TokvizError when the run
    learned nothing."""
    from tokviz.core.errors import TokvizError
    from tokviz.ui.train.corpus import CorpusSource

    training = panel.algorithms
    training.set_algorithm(args.algorithm)
    if args.corpus:
        panel.set_source(CorpusSource.file(args.corpus))
    if args.vocab_size:
        training.vocab_spin.setValue(args.vocab_size)
    training.compare_check.setChecked(bool(args.beside_bpe))
    training.start()
    training.run_to_end()
    training.wait_until_trained(300_000)
    if not training.steps:
        raise TokvizError(f"training learned nothing: {panel.message.label.text() or 'no steps'}")
    training.show_step(len(training.steps))
    training.wait_until_trained(60_000)  # the lattice's model, fetched from the training process
    if args.algorithm == "unigram":
        view = training.view
        lines = view.sample_lines
        k = args.line if args.line is not None else next(
            (i for i, line in enumerate(lines) if any("\uac00" <= ch <= "\ud7a3" for ch in line)), 0)
        if not 0 <= k < len(lines):
            raise TokvizError(f"--line {k}: the sample has lines 0..{len(lines) - 1}")
        view.select_line(k)
        if args.text:  # typed into the lattice's own text box
            view.lattice.set_text(args.text)
        view.lattice.reroll()  # one sampled segmentation beside the Viterbi path


def show_compare_tab(panel, which: str, args) -> None:
    """Bring the Compare panel's Parity or Sweep tab to the front with most of the panel's height,
    and run it (its encoders: ``args.encoders``, else its defaults)."""
    tab = panel.measure_tab(which)
    panel.tabs.setCurrentWidget(tab.parentWidget())
    total = sum(panel.splitter.sizes())
    panel.splitter.setSizes([total // 4, total - total // 4])
    tab.prepare_screenshot(args)


def run(args) -> int:
    _check_options(args)  # before any window: a wrong option fails fast
    from tokviz.core.atomic import check_target

    for out in (args.output, args.tokens):  # a folder or an impossible name fails before any rendering
        if out:
            check_target(out)
    if args.text_file:  # a missing file, a folder or a FIFO fails before the window is built (~3 s)
        from tokviz.core.encoders.files import check_regular_file

        check_regular_file(args.text_file, "text")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from tokviz.ui.app import make_application
    from tokviz.ui.main_window import MainWindow
    from tokviz.ui.settings import Settings

    w, h = parse_size(args.size)
    app = make_application()
    settings = Settings.ephemeral()  # a screenshot never reads or changes the user's settings
    if args.theme:
        settings.theme = args.theme
    if args.lang:
        settings.language = args.lang
    from tokviz.ui.i18n import install_translation

    install_translation(args.lang or "en")  # screenshots are English unless asked
    window = MainWindow(settings=settings)
    window.resize(w, h)
    window.show_view(args.view)
    window.show()
    if args.presentation:
        # The real mode (hidden chrome, large fonts), minus full screen: offscreen has no screen worth
        # filling, so the requested size stays. Pace 0: the picture shows --merges, not auto-play.
        settings.presentation_pace = 0.0
        window.toggle_presentation(True, full_screen=False)
    app.processEvents()
    panel = window.current_panel()
    if args.text_file and args.view == "compare":
        from tokviz.ui.inspect.text_input import read_text_file

        try:
            args.text = read_text_file(args.text_file)  # the reader behind the Inspector's File → Open
        except UnicodeDecodeError as err:
            from tokviz.core.errors import TokvizError

            window.close()
            raise TokvizError(
                f"{args.text_file} is not valid UTF-8: byte 0x{err.object[err.start]:02X} at byte offset "
                f"{err.start} ({err.reason}); give the text as UTF-8."
            ) from None
    try:
        if args.view == "train" and getattr(args, "algorithm", "bpe") != "bpe":
            prepare_algorithm(panel, args)
        else:
            if args.view == "train":
                panel.jamo_check.setChecked(bool(getattr(args, "jamo", False)))
            panel.prepare_screenshot(args)  # inspect opens --text-file itself, as File → Open does
            if getattr(args, "compare_tab", None):
                show_compare_tab(panel, args.compare_tab, args)
            if args.view == "train":  # the probe's dropout bars and "why this pair" come from workers
                _spin_until(lambda: not panel.probe_dropout.busy() and panel.lecture_views_ready(), 60.0)
        app.processEvents()
        app.processEvents()  # the layout follows the texts those workers set
        if args.view == "train":  # the chosen token's row stays in view after that layout
            panel.vocab_view.scrollTo(panel.vocab_view.currentIndex())
        tokens = rendered_tokens(args.view, panel) if args.tokens else None
    except BaseException:
        window.close()
        app.processEvents()
        raise
    from tokviz.ui.common.image_export import save_image_png

    out = Path(args.output)
    image = window.grab().toImage()
    window.close()
    app.processEvents()
    save_image_png(image, out)  # a WriteError names out: the CLI prints it and exits 2
    print(out)
    if tokens is not None:
        from tokviz.core.atomic import write_atomic

        write_atomic(args.tokens, json.dumps(tokens, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(args.tokens)
    return 0
