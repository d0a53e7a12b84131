"""Writing frames as an animated image for slides: GIF (every slide tool plays it) or APNG (full
colour), encoded by Pillow and written atomically.

Frames arrive as raw RGBA pixels (:class:`Frame`), so this module needs no Qt; the Train panel draws
them. Encoding checks ``cancelled()`` between frames.

>>> import tempfile, pathlib
>>> red, blue = Frame(2, 1, b"\\xff\\x00\\x00\\xff" * 2), Frame(2, 1, b"\\x00\\x00\\xff\\xff" * 2)
>>> out = write_animation([red, blue], pathlib.Path(tempfile.mkdtemp()) / "run.gif", frame_ms=500)
>>> from PIL import Image
>>> Image.open(out).n_frames
2
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tokviz.core.atomic import replacing
from tokviz.core.errors import TokvizError

FORMATS = {".gif": "GIF", ".png": "PNG", ".apng": "PNG"}  # APNG is Pillow's PNG with several frames


class AnimationError(TokvizError):
    """An animation that cannot be written (no frames, an unknown file type, frames of different sizes)."""


@dataclass(frozen=True)
class Frame:
    """One frame: ``width`` × ``height`` pixels, ``rgba`` their bytes row by row (4 a pixel)."""

    width: int
    height: int
    rgba: bytes


def animation_format(path: str | Path) -> str:
    """Pillow's format name for ``path``'s suffix: ``.gif`` → GIF, ``.png``/``.apng`` → PNG (APNG)."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise AnimationError(f"{Path(path).name}: an animation is a .gif or an animated .png (.apng) file.")
    return FORMATS[suffix]


def write_animation(frames: Sequence[Frame], path: str | Path, *, frame_ms: int = 1000,
                    cancelled: Callable[[], bool] = lambda: False) -> Path | None:
    """Write ``frames`` to ``path`` (GIF or APNG by its suffix), each shown ``frame_ms`` milliseconds,
    looping; returns the path, or None when ``cancelled()`` turned true (nothing is written then)."""
    from PIL import Image

    fmt = animation_format(path)
    if not frames:
        raise AnimationError("There are no frames to write: choose at least one step.")
    size = (frames[0].width, frames[0].height)
    images = []
    for frame in frames:
        if cancelled():
            return None
        if (frame.width, frame.height) != size:
            raise AnimationError(f"Frames differ in size: {size} and {(frame.width, frame.height)}.")
        image = Image.frombytes("RGBA", size, frame.rgba).convert("RGB")
        if fmt == "GIF":  # 256 colours a frame; the token colours and text survive a median cut
            image = image.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
        images.append(image)
    if cancelled():
        return None
    target = Path(path)
    with replacing(target) as tmp:  # the format is named, so the temp file's name does not matter
        images[0].save(tmp, format=fmt, save_all=True, append_images=images[1:], duration=frame_ms, loop=0)
    return target
