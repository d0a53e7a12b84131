"""``tokviz screenshot --view {inspect,train,compare} -o FILE.png``: render a panel offscreen.

Each panel implements ``prepare_screenshot(options)``, which fills the panel from the options (text,
encoders, corpus, merges) and returns once everything shown is ready (it may spin the event loop).
"""

from __future__ import annotations

import os
from pathlib import Path

VIEWS = ("inspect", "train", "compare")


def add_parser(sub) -> None:
    p = sub.add_parser("screenshot", help="render a panel offscreen to a PNG (docs, CI)")
    p.add_argument("--view", choices=VIEWS, default="inspect")
    p.add_argument("-o", "--output", required=True, help="PNG file to write")
    p.add_argument("--text", help="text for the inspect / compare views")
    p.add_argument("-e", "--encoder", action="append", dest="encoders", metavar="NAME",
                   help="encoder name (repeat for compare)")
    p.add_argument("--model", action="append", default=[], metavar="FILE", help="model file to add as an encoder")
    p.add_argument("--corpus", help="corpus file for the train view")
    p.add_argument("--merges", type=int, help="merges to train for the train view")
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


def run(args) -> int:
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
    window.current_panel().prepare_screenshot(args)
    app.processEvents()
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = window.grab().save(str(out) + ".tmp.png", "PNG")
    if ok:
        os.replace(str(out) + ".tmp.png", out)
    window.close()
    app.processEvents()
    if not ok:
        from tokviz.core.errors import TokvizError

        raise TokvizError(f"could not write {out}")
    print(out)
    return 0
