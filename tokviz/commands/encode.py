"""``tokviz encode``: not built yet (see its issue)."""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser("encode", help="(not built yet)")
    p.set_defaults(func=run)


def run(args) -> int:
    from tokviz.core.errors import TokvizError

    raise TokvizError("'tokviz encode' is not built yet")
