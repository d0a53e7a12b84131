"""``tokviz compare``: not built yet (see its issue)."""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser("compare", help="(not built yet)")
    p.set_defaults(func=run)


def run(args) -> int:
    from tokviz.core.errors import TokvizError

    raise TokvizError("'tokviz compare' is not built yet")
