"""Animated images for slides: frames in, a GIF or APNG out that Pillow reads back, written atomically."""

from __future__ import annotations

import pytest
from PIL import Image

from tokviz.core.animation import AnimationError, Frame, write_animation


def _frame(rgb: tuple[int, int, int], w: int = 8, h: int = 4) -> Frame:
    return Frame(w, h, bytes([*rgb, 255]) * (w * h))


@pytest.mark.parametrize("suffix", [".gif", ".png", ".apng"])
def test_frames_come_back_in_order_with_their_size_and_duration(tmp_path, suffix):
    colours = [(255, 0, 0), (0, 128, 0), (0, 0, 255)]
    out = write_animation([_frame(c) for c in colours], tmp_path / f"run{suffix}", frame_ms=700)
    with Image.open(out) as image:
        assert image.n_frames == 3 and image.size == (8, 4)
        seen = []
        for i in range(3):
            image.seek(i)
            seen.append(image.convert("RGB").getpixel((0, 0)))
            assert image.info.get("duration") == 700
    assert seen == colours
    assert [p.name for p in tmp_path.iterdir()] == [f"run{suffix}"]  # no temp file left


def test_cancelled_writes_nothing_and_keeps_the_old_file(tmp_path):
    target = tmp_path / "run.gif"
    target.write_bytes(b"old")
    assert write_animation([_frame((1, 2, 3))], target, cancelled=lambda: True) is None
    assert target.read_bytes() == b"old"


def test_bad_requests_get_a_clear_message(tmp_path):
    with pytest.raises(AnimationError, match=r"\.gif"):
        write_animation([_frame((0, 0, 0))], tmp_path / "run.jpg")
    with pytest.raises(AnimationError, match="no frames"):
        write_animation([], tmp_path / "run.gif")
    with pytest.raises(AnimationError, match="differ in size"):
        write_animation([_frame((0, 0, 0)), _frame((0, 0, 0), w=9)], tmp_path / "run.gif")
    assert list(tmp_path.iterdir()) == []
