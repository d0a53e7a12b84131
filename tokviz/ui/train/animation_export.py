"""The Train panel for slides: a range of recorded steps as an animated GIF or APNG, one frame a
merge, and the panel as a PNG at presentation scale.

A frame is the merge banner of the step above the first lines of the corpus sample segmented at the
step, drawn at presentation size by a :class:`StepFrame` that is never shown on screen (the panel
keeps showing what it showed). Frames are drawn on the GUI thread a few per event-loop turn, so the
window stays responsive; Pillow encodes them and writes the file in a worker
(:func:`tokviz.core.animation.write_animation`, atomically). :meth:`AnimationExport.cancel` stops
either part and writes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.animation import Frame, animation_format, write_animation
from tokviz.ui import fonts
from tokviz.ui.train.sample import TokenLinesView
from tokviz.ui.train.views import TrainViews, segment_runs
from tokviz.ui.train_replay import MergeReplay, keep_hangul

translate = QCoreApplication.translate

FRAME_SIZE = (1280, 720)  # a 16:9 slide
FRAME_MS = 1000  # one merge a second, the lecture's pace
FRAMES_PER_TURN = 2  # frames drawn per event-loop turn (each takes a few tens of milliseconds)
SAMPLE_LINES = 8  # corpus lines under the banner
PRESENTATION_SCALE = 1.6  # the font scale of presentation mode (as the main window's)


def presentation_factor() -> float:
    """How much larger than now the fonts are in presentation mode (1 when already presenting)."""
    return max(1.0, PRESENTATION_SCALE / max(fonts.scale(), 0.1))


class RecordedSteps(Protocol):
    """What a slide reads of the run on screen (the panel holds it: a new run replaces it)."""

    replay: MergeReplay | None  # the recorded merges (None: no run)
    cursor: int  # the step on screen
    sample_lines: list[str]  # the corpus lines the sample view shows
    dark: bool  # the colours of a dark theme

    def banner_html(self, step: int, big: float | None = None) -> str: ...


class StepFrame(QWidget):
    """One slide of the animation, drawn off-screen: the merge banner above the sample's lines, in the
    palette and fonts of ``views``."""

    def __init__(self, steps: RecordedSteps, views: TrainViews, size: tuple[int, int] = FRAME_SIZE):
        super().__init__()
        self.steps = steps
        self.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
        self.setAutoFillBackground(True)
        self.setPalette(views.host.palette())
        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 12, 16, 12)
        factor = presentation_factor()
        self.big = views.merge_banner.font().pointSizeF() * factor
        self.banner = QLabel()
        self.banner.setTextFormat(Qt.TextFormat.RichText)
        self.banner.setWordWrap(True)
        self.banner.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        font = views.merge_banner.font()
        font.setPointSizeF(self.big)
        self.banner.setFont(font)
        lay.addWidget(self.banner)
        self.sample = TokenLinesView()
        self.sample.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sample.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        font = views.sample_view.font()
        font.setPointSizeF(font.pointSizeF() * factor)
        self.sample.setFont(font)
        lay.addWidget(self.sample, 1)
        self.resize(*size)
        self.show()  # laid out and paintable; WA_DontShowOnScreen keeps it off the screen

    def draw(self, step: int) -> QImage:
        """The frame of recorded step ``step``."""
        steps = self.steps
        replay = steps.replay
        self.banner.setText(steps.banner_html(step, self.big))
        lines = steps.sample_lines[:SAMPLE_LINES]
        keep = replay.keep == "hangul"
        self.sample.set_plain_lines(lines)
        for i, line in enumerate(lines):
            runs = segment_runs(replay.segment(keep_hangul(line) if keep else line, step), dark=steps.dark)
            self.sample.set_line(i, runs)
        self.layout().activate()
        return self.grab().toImage()


def image_frame(image: QImage) -> Frame:
    """A Qt image as raw RGBA pixels for :func:`~tokviz.core.animation.write_animation`."""
    rgba = image.convertToFormat(QImage.Format.Format_RGBA8888)
    width, height = rgba.width(), rgba.height()
    row = width * 4
    data = bytes(rgba.constBits())
    stride = rgba.bytesPerLine()
    if stride != row:  # rows padded to a boundary: keep only the pixels
        data = b"".join(data[y * stride : y * stride + row] for y in range(height))
    return Frame(width, height, data[: row * height])


class AnimationExport(QObject):
    """Exporting steps ``first``..``last`` of the run of ``steps`` to ``path`` (GIF or APNG by its suffix),
    drawn as ``views`` look and written on ``work``'s pool.

    ``progressed(done, total)`` as frames are drawn, then ``finished(path)``; ``finished(None)`` when
    cancelled; ``failed(message)`` when the file cannot be written.
    """

    progressed = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)

    def __init__(
        self,
        steps: RecordedSteps,
        views: TrainViews,
        work,
        path: str | Path,
        first: int,
        last: int,
        *,
        frame_ms: int = FRAME_MS,
        size: tuple[int, int] = FRAME_SIZE,
    ):
        super().__init__(views.host)
        animation_format(path)  # a wrong suffix fails before any frame is drawn
        recorded = len(steps.replay) if steps.replay is not None else 0
        if not (1 <= first <= last <= recorded):
            from tokviz.core.animation import AnimationError

            raise AnimationError(translate("TrainPanel", "Choose steps between 1 and {n}.").format(n=recorded))
        self.recorded_steps = steps
        self.views = views
        self.path = Path(path)
        self.steps = list(range(first, last + 1))
        self.frame_ms = frame_ms
        self.size = size
        self.frames: list[Frame] = []
        self.done = False
        self._cancelled = False
        self._frame: StepFrame | None = None
        self._writer = work.channel(self, "animation")

    def start(self) -> None:
        """Draw the frames (a few per event-loop turn), then write the file in a worker."""
        self._frame = StepFrame(self.recorded_steps, self.views, self.size)
        QTimer.singleShot(0, self._draw_some)

    def cancel(self) -> None:
        """Stop drawing or writing; nothing is written."""
        self._cancelled = True
        self._writer.cancel()

    def _draw_some(self) -> None:
        if self._cancelled:
            self._end(None)
            return
        for _ in range(FRAMES_PER_TURN):
            if len(self.frames) == len(self.steps):
                break
            self.frames.append(image_frame(self._frame.draw(self.steps[len(self.frames)])))
        self.progressed.emit(len(self.frames), len(self.steps))
        if len(self.frames) < len(self.steps):
            QTimer.singleShot(0, self._draw_some)
            return
        self._frame.deleteLater()
        self._frame = None
        frames, path, frame_ms = self.frames, self.path, self.frame_ms
        self._writer.start(
            lambda state: write_animation(frames, path, frame_ms=frame_ms, cancelled=state.is_cancelled),
            finished=self._end,
            failed=self._failed,
        )

    def _end(self, path) -> None:
        if self._frame is not None:
            self._frame.deleteLater()
            self._frame = None
        self.done = True
        self.finished.emit(None if self._cancelled else path)

    def _failed(self, message: str) -> None:
        self.done = True
        self.failed.emit(message)


class SlideExport:
    """The Train panel's Export menu: the view (``views.host``) as an image, a range of the recorded
    ``steps`` as an animation (written on ``work``'s pool), and the animation's progress in the views'
    message area."""

    def __init__(self, steps: RecordedSteps, views: TrainViews, work) -> None:
        self.recorded_steps = steps
        self.views = views
        self.work = work
        self.export: AnimationExport | None = None  # the animation being written (or the last one)

    def save_view_image(self, path: str | Path) -> Path:
        """The panel as a PNG at presentation scale (sharp on a slide), written atomically."""
        from tokviz.ui.common.image_export import save_widget_png

        return save_widget_png(self.views.host, path, scale=presentation_factor())

    def export_animation(self, path: str | Path, first: int, last: int, **options) -> AnimationExport:
        """Start exporting steps ``first``..``last`` to ``path``; returns the running export."""
        if self.export is not None and not self.export.done:
            self.export.cancel()
        message = self.views.message
        export = AnimationExport(self.recorded_steps, self.views, self.work, path, first, last, **options)
        export.progressed.connect(
            lambda done, total: message.show_message(
                translate("TrainPanel", "Drawing frame {done} of {total}…").format(done=done, total=total), "info"
            )
        )
        export.finished.connect(self._animation_written)
        export.failed.connect(
            lambda text: message.show_message(
                translate("TrainPanel", "Could not write the animation: {err}").format(err=text)
            )
        )
        self.export = export
        self.views.cancel_export_action.setEnabled(True)
        export.start()
        return export

    def cancel_export(self) -> None:
        if self.export is not None:
            self.export.cancel()

    def _animation_written(self, path) -> None:
        self.views.cancel_export_action.setEnabled(False)
        if path is None:
            self.views.message.show_message(translate("TrainPanel", "Animation export cancelled."), "info")
        else:
            self.views.message.show_message(
                translate("TrainPanel", "Saved {name}.").format(name=Path(path).name), "success"
            )

    def ask_image(self) -> None:
        """Export → Image: ask where, then save the view."""
        path, _ = QFileDialog.getSaveFileName(
            self.views.host, translate("TrainPanel", "Save the view as an image"), "tokviz-train.png", "PNG (*.png)"
        )
        if not path:
            return
        try:
            written = self.save_view_image(path)
        except OSError as err:
            self.views.message.show_message(str(err))
            return
        self.views.message.show_message(translate("TrainPanel", "Saved {name}.").format(name=written.name), "success")

    def ask_animation(self) -> None:
        """Export → Animation: ask for the steps and the file, then start writing it."""
        message, on_screen = self.views.message, self.recorded_steps
        recorded = len(on_screen.replay) if on_screen.replay is not None else 0
        if not recorded:
            message.show_message(translate("TrainPanel", "Train some merges first: each step is a frame."), "info")
            return
        steps = self._ask_steps(recorded, on_screen.cursor)
        if steps is None:
            return
        a, b = steps
        path, _ = QFileDialog.getSaveFileName(
            self.views.host,
            translate("TrainPanel", "Export animation"),
            f"tokviz-steps-{a}-{b}.gif",
            "GIF (*.gif);;APNG (*.png)",
        )
        if not path:
            return
        from tokviz.core.errors import TokvizError

        try:
            self.export_animation(path, a, b)
        except TokvizError as err:
            message.show_message(str(err))

    def _ask_steps(self, recorded: int, cursor: int) -> tuple[int, int] | None:
        """The first and last step to export (None: cancelled); by default the 30 steps up to ``cursor``."""
        dialog = QDialog(self.views.host)
        dialog.setWindowTitle(translate("TrainPanel", "Export animation"))
        form = QFormLayout(dialog)
        first, last = QSpinBox(), QSpinBox()
        for spin in (first, last):
            spin.setRange(1, recorded)
        first.setValue(max(1, cursor - 29) if cursor else 1)
        last.setValue(max(cursor, 1))
        form.addRow(translate("TrainPanel", "From step"), first)
        form.addRow(translate("TrainPanel", "To step"), last)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        form.addRow(buttons)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        a, b = sorted((first.value(), last.value()))
        return a, b
