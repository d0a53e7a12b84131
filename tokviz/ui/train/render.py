"""The Train panel's step renderer: draws the step on screen into every view - the step label and
merge banner, "why this pair", the corpus sample, the probe, the vocabulary table, the plots and the
merge tree - all from one snapshot per frame (see frames.py). It owns what it drew (which step each
view shows, the segmented lines kept for the next frame), not the widgets (the views own them) nor
the lecture facts (the follower computes them); the panel wires it and calls it."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QLabel

from tokviz.core.bpe.events import MergeStep
from tokviz.core.jamo import decompose
from tokviz.ui import theme
from tokviz.ui.fonts import mono_font, ui_font
from tokviz.ui.fonts import scale as font_scale
from tokviz.ui.token_colors import text_color_on
from tokviz.ui.train.follow import name_byte_merge
from tokviz.ui.train.views import (
    TrainViews,
    hold_line_height,
    measure_ahead,
    measured_height,
    mute_label,
    muted_color,
    segment_runs,
)
from tokviz.ui.train.vocab import elide_piece, shown_piece
from tokviz.ui.train_replay import keep_hangul

if TYPE_CHECKING:
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.training import Finished
    from tokviz.ui.train.corpus_choice import CorpusChoice
    from tokviz.ui.train.follow import StepFollower
    from tokviz.ui.train.frames import FrameScheduler
    from tokviz.ui.train.plots import MergeSeries
    from tokviz.ui.train.state import Playback
    from tokviz.ui.train.why_pair import WhyPairView
    from tokviz.ui.train_replay import MergeReplay

translate = QCoreApplication.translate  # the panel's translation context, named in each call

BANNER_MIN_HEIGHT = 46  # the merge banner's height before a run (views.py builds it so)
# time a frame gives the sample lines out of sight, once the trainer rests (the lines on screen are
# always all drawn at the frame's step)
OFFSCREEN_BUDGET_S = 0.008
# the views a frame redraws only when the step they show changed (the others are cheap every frame)
# the probe's runs are kept with the sample lines' (under this key)
PROBE_LINE = -1
SCREENFUL_LINES = 12  # the sample lines a frame prepares when it cannot tell which are on screen
HEAVY_VIEWS = ["sample", "plot:vocab", "vocab", "plot:count", "probe", "plot:corpus", "plot:length"]


def reserve_width(label: QLabel, widest: str, bold: bool = False) -> None:
    """Widen ``label`` at once to hold ``widest`` (its run's last count): a count label that grew with
    every tenfold step re-laid out its row, and the window repainted the row's neighbours in that frame."""
    font = QFont(label.font())
    font.setBold(bold)
    room = QFontMetrics(font).horizontalAdvance(widest) + 8
    if room > label.minimumWidth():
        label.setMinimumWidth(room)


class RunOnScreen(Protocol):
    """What the renderer reads of the run on screen (the panel holds it: a new run replaces it)."""

    replay: MergeReplay | None  # the recorded merges (None: no run)
    config: TrainerConfig | None
    finished: Finished | None
    trainer: object | None  # the run's trainer (None once reset)
    run_jamo: bool  # the run trains on jamo: the sample and probe are read as jamo too
    series: MergeSeries  # what the plots draw
    corpus: CorpusChoice  # its ``lines``: the sample lines

    def computing(self) -> bool: ...

    def model_later(self, then) -> None: ...


class StepRenderer:
    """Draws one frame of the Train panel into ``views`` from a snapshot of its model: the step on screen
    is ``playback.cursor``, the run's recording is read from ``on_screen``, the lecture facts from
    ``follower`` ("why this pair" through ``why``). It keeps what it drew (the step each heavy view shows,
    the sample's segmented lines) so that a frame redraws only what changed; ``frames`` is asked for
    the next frame when a view is left behind."""

    def __init__(
        self,
        views: TrainViews,
        playback: Playback,
        on_screen: RunOnScreen,
        follower: StepFollower,
        why: WhyPairView,
        frames: FrameScheduler,
        *,
        dark: bool,
    ) -> None:
        self.views = views
        self.playback = playback
        self.on_screen = on_screen
        self.follower = follower
        self.why = why
        self.frames = frames
        self.dark = dark
        self._view_step = dict.fromkeys(HEAVY_VIEWS, -1)  # the step each heavy view shows (redrawn on change)
        self._light_drawn: int | None = None  # the step the label, banner, why and tree show
        self._tree_step = -1  # the step the merge tree last followed
        self._selected_token: int | None = None
        self._sample_steps: list[int] = []  # the step each sample line shows
        self._shown_sample: list[str] = []  # the sample lines on screen (followed lines first)
        self._probe_text: str | None = None  # the text the probe view holds (None: not set yet)
        self._dropout_key = None  # the model and text the probe's dropout view was given
        self._kept_tree = None  # (replay, token, step) -> the merge tree drawn at that step
        self._sample_runs: dict = {}  # line -> (pieces, dark, runs)
        self._named_height = None  # (banner font, width, words) -> a named byte merge's height
        self.probe_timer = QTimer(views.host)
        self.probe_timer.setSingleShot(True)
        self.probe_timer.setInterval(150)  # debounce typing in the probe
        self.probe_timer.timeout.connect(self.draw_probe)

    @property
    def replay(self):
        """The recording of the run on screen (None: no run)."""
        return self.on_screen.replay

    @property
    def config(self):
        return self.on_screen.config

    @property
    def selected_token(self) -> int | None:
        """The token whose merge tree is shown (None: none)."""
        return self._selected_token

    def invalidate(self, *views: str) -> None:
        """The heavy ``views`` (default: all) are drawn anew at the next frame, even at the same step."""
        for view in views or HEAVY_VIEWS:
            self._view_step[view] = -1
        if not views:  # (a run begins or ends): every sample line is segmented anew, in sight or not
            self._sample_steps = [-1] * len(self._sample_steps)

    def sample_changed(self) -> None:
        """Other sample lines were picked: the sample view draws them anew at the next frame."""
        self._sample_steps = []
        self._view_step["sample"] = -1

    def begin_run(self, mode: str) -> None:
        """A run begins: the tree names byte tokens by the run's bytes; no token is named by its
        characters until the corpus facts come (:meth:`name_characters`)."""
        tree = self.views.tree_view
        replay = self.replay
        tree.token_bytes = replay.token_bytes if mode == "byte" and replay is not None else None
        tree.guesser = self.views.vocab_model.guesser = None

    def name_characters(self, guesser) -> None:
        """The run's corpus facts came: the table and tree name byte tokens by the corpus's characters."""
        tree = self.views.tree_view
        self.views.vocab_model.guesser = guesser
        tree.guesser = guesser
        if self.replay is None or not len(self.replay):
            return  # nothing named yet: no repaint while the trainer counts (it holds the GIL)
        tree.set_tree(tree.tree)  # named again with the corpus's characters
        self.views.vocab_view.viewport().update()
        tree.update()
        self.frames.request()

    def step_facts_arrived(self, step: int) -> None:
        """The step on screen got its followed lines and runners-up: "why this pair" at once, the
        sample at the next frame."""
        self.draw_why(step)
        self.invalidate("sample")
        self.frames.request()

    def forget_run(self) -> None:
        """The run is gone: no token chosen, no tree, every view drawn anew."""
        self._selected_token = None
        self.invalidate()
        self.views.tree_view.set_tree(None)
        self._tree_step = -1

    def draw_frame(self, snapshot, full: bool = True) -> None:
        """Every view at ``snapshot.step``: the frame scheduler's one drawing routine. The views that
        follow the step (label, banner, why, tree) are redrawn when it moved, or with ``full``."""
        if theme.is_dark() != self.dark:  # the theme can be applied without a signal (start-up)
            self.apply_theme(theme.is_dark())
            return
        step = snapshot.step
        if full or step != self._light_drawn:
            self._draw_light(step)
            self._light_drawn = step
        for view in HEAVY_VIEWS:
            if self._view_step[view] != step:
                self._draw_heavy(view, step)

    def shown_steps(self) -> dict[str, int | None]:
        """The step each view displays, read back from what it shows (None: nothing of a run): the
        step label, the banner's rank, the "why this pair" winner, the sample's lines, the table's
        rows, the merge tree's token and each plot."""
        replay = self.replay
        label = re.search(r"[\d,]+", self.views.step_label.text())
        rank = re.search(r"<b>([\d,]+)</b>[^<]*vocab", self.views.merge_banner.text())
        first, last = self._sample_on_screen()
        sample = set(self._sample_steps[first : last + 1])
        shown: dict[str, int | None] = {
            "label": int(label.group().replace(",", "")) if label else None,
            "banner": int(rank.group(1).replace(",", "")) if rank else 0,
            "table": self.views.vocab_model.rowCount(),
            "sample": sample.pop() if len(sample) == 1 else None,
        }
        for part, step in self.views.plots.shown_steps.items():
            shown["plot:" + part] = step
        tree = self.views.tree_view.tree
        if replay is not None and tree is not None:
            ids = [s.token_id for s in replay.steps]
            shown["tree"] = ids.index(tree.token_id) + 1 if tree.token_id in ids else None
        if replay is not None:
            shown["why"] = self.why.shown_step(replay, self.playback.cursor, self.follower.guesser)
        return shown

    def _draw_light(self, step: int) -> None:
        """The step counter, the scrubber, the banner, the followed lines, "why this pair" and the tree."""
        replay = self.replay
        n = len(replay) if replay is not None else 0
        self.views.scrubber.blockSignals(True)
        self.views.scrubber.setMaximum(n)
        self.views.scrubber.setValue(step)
        self.views.scrubber.blockSignals(False)
        target = self.config.merges if self.config is not None else self.views.merges_spin.value()
        state = ""
        if self.on_screen.finished is not None and step == n:
            state = (
                " · "
                + {
                    "merges": translate("TrainPanel", "done"),
                    "cancelled": translate("TrainPanel", "cancelled"),
                    "min_frequency": translate("TrainPanel", "min frequency reached"),
                    "exhausted": translate("TrainPanel", "no pairs left"),
                }[self.on_screen.finished.reason]
            )
        self.views.step_label.setText(
            translate("TrainPanel", "step {step} / {target}").format(step=f"{step:,}", target=f"{target:,}") + state
        )
        widest = translate("TrainPanel", "step {step} / {target}").format(step=f"{target:,}", target=f"{target:,}")
        reserve_width(self.views.step_label, widest + state)
        self._draw_banner(step)
        self.follower.follow(step, replay, self.config)
        self.draw_why(step)
        if replay is not None and step != self._tree_step:
            # the tree follows the merge on screen (a token picked in the table stays until the step moves)
            self._tree_step = step
            if 0 < step <= len(replay):
                self.select_token(replay.steps[step - 1].token_id)
            elif self._selected_token is not None:
                self.views.tree_view.set_tree(replay.merge_tree(self._selected_token, step))

    def _draw_heavy(self, view: str, step: int) -> None:
        if view == "vocab":
            self.views.vocab_model.set_shown(step)
            title = translate("TrainPanel", "<b>Learned tokens</b> ({n})")
            self.views.vocab_title.setText(title.format(n=f"{step:,}"))
            last = max(step, self.config.merges if self.config is not None else 0)
            reserve_width(self.views.vocab_title, re.sub("<[^>]+>", "", title.format(n=f"{last:,}")), bold=True)
            done = True
        elif view.startswith("plot:"):
            self.views.plots.show_step(self.on_screen.series, step, parts=(view[len("plot:") :],))
            done = True
        elif view == "probe":
            self.draw_probe()
            done = True
        else:
            done = self._draw_sample()
        if done:
            self._view_step[view] = step

    def draw_why(self, step: int) -> None:
        self.why.draw(step, self.replay, self.follower.step_facts, self.follower.guesser)

    def _piece_span(self, piece: str, token_id: int, bold: bool = False) -> str:
        return self._label_span(elide_piece(shown_piece(piece)), token_id, bold)

    def _runs_span(self, runs, token_id: int, bold: bool = False, big: float | None = None) -> str:
        """A named side on the token's colour: each character big, which bytes of it small beside it
        (``것 bytes 1–2 of 3``), so the line stays one line on a projector."""
        from tokviz.ui.token_colors import token_color

        bg = token_color(token_id, dark=self.dark)
        small = max(8.0, (big or self.views.merge_banner.font().pointSizeF()) * 0.5)
        family = ui_font().family()  # the words read better in the interface's font than in monospace
        weight = "font-weight:bold;" if bold else ""
        shown = []
        for chars, part in runs:
            text = html.escape(chars)
            if part:
                text += (
                    f"&nbsp;<span style=\"font-family:'{family}'; font-size:{small:.1f}pt; font-weight:normal\">"
                    f"{html.escape(part)}</span>"
                )
            shown.append(text)
        return (
            f'<span style="background:{bg.name()}; color:{text_color_on(bg).name()}; {weight}">'
            f"&nbsp;{'&nbsp;'.join(shown)}&nbsp;</span>"
        )

    def _label_span(self, label: str, token_id: int, bold: bool = False) -> str:
        """``label`` on the token's colour, as the sample draws the token."""
        from tokviz.ui.token_colors import token_color

        bg = token_color(token_id, dark=self.dark)
        weight = "font-weight:bold;" if bold else ""
        return (
            f'<span style="background:{bg.name()}; color:{text_color_on(bg).name()}; {weight}">'
            f"&nbsp;{html.escape(label)}&nbsp;</span>"
        )

    def _draw_banner(self, step: int) -> None:
        if self.replay is not None and 0 < step <= len(self.replay):
            self.views.merge_banner.setToolTip(shown_piece(self.replay.steps[step - 1].new_piece))
        banner = self.views.merge_banner
        banner.setText(self.banner_html(step))
        # During a run the banner only grows: a byte merge named on two rows, then a merge of whole
        # characters on one, re-laid out the panel each time and the plots below regenerated all their
        # axes (~100 ms of GUI work). It shrinks back when a run starts over.
        if self.replay is None or step == 0:
            # byte mode: room for a merge named on two rows from the start, so that the first such
            # merge (step 1 or 2 on Korean text) does not re-lay out the panel either
            mode = self.replay.mode if self.replay is not None else self.views.mode_combo.currentData()
            named = mode == "byte"
            banner.setMinimumHeight(max(BANNER_MIN_HEIGHT, self._named_banner_height() if named else 0))
        else:
            height = measured_height(banner, banner.width())  # the frame holding it measures the same text
            if height > banner.minimumHeight():
                banner.setMinimumHeight(height)

    def banner_html(self, step: int, big: float | None = None) -> str:
        """The merge banner of ``step`` as rich text, its sizes relative to ``big`` points (default:
        the banner's font, zoomed with the window); animation frames draw it at their own size."""
        big = big or self.views.merge_banner.font().pointSizeF()
        if self.replay is None or step == 0:
            hint = (
                translate("TrainPanel", "Press ▶ Train to watch BPE learn merge by merge")
                if self.replay is None
                else translate("TrainPanel", "step 0: no merges yet")
            )
            color = muted_color(self.views.host.palette()).name()
            return f'<span style="font-size:{big * 0.7:.1f}pt; color:{color}">{hint}</span>'
        s: MergeStep = self.replay.steps[step - 1]
        numbers = self._numbers_html(s, big)
        named = None
        if self.replay.mode == "byte":
            named = name_byte_merge(
                self.replay.token_bytes(s.left), self.replay.token_bytes(s.right), self.follower.guesser
            )
        if named is None:  # whole characters: the pieces themselves are what a room reads
            return (
                f"{self._piece_span(s.left_piece, s.left)} + {self._piece_span(s.right_piece, s.right)} → "
                f"{self._piece_span(s.new_piece, s.token_id, True)}&nbsp;&nbsp;{numbers}"
            )
        return self.named_merge_html(named, s, numbers, big)

    @staticmethod
    def _numbers_html(s, big: float) -> str:
        return (
            f'<span style="font-size:{big * 0.45:.1f}pt">'
            + translate(
                "TrainPanel", "count <b>{count}</b> · rank <b>{rank}</b> · vocab {vocab} · corpus {corpus} tokens"
            ).format(count=f"{s.count:,}", rank=f"{s.step:,}", vocab=f"{s.vocab_size:,}", corpus=f"{s.corpus_tokens:,}")
            + "</span>"
        )

    def _named_banner_height(self) -> int:
        """The banner's height for a byte merge named on two rows (것's first two bytes + its last)."""
        banner = self.views.merge_banner
        big = banner.font().pointSizeF()
        key = (big, banner.width(), translate("TrainPanel", "completes {chars}"))
        cached = self._named_height
        if cached is not None and cached[0] == key:
            return cached[1]
        data = "것".encode()
        named = name_byte_merge(data[:2], data[2:], None)
        step = SimpleNamespace(
            left=256, right=257, token_id=258, count=99_999, step=9_999, vocab_size=99_999, corpus_tokens=9_999_999
        )
        # measured on the banner's hidden twin: setting the banner's own text to measure it and back
        # laid its rich text out twice more, in the turn that starts a run
        text = self.named_merge_html(named, step, self._numbers_html(step, big), big)
        height = measure_ahead(banner, text, key[1], minimum=0)  # the text's own height, not the banner's minimum
        self._named_height = (key, height)
        return height

    def named_merge_html(self, named, s: MergeStep, numbers: str, big: float | None = None) -> str:
        """A byte merge on the banner's big line named by its character and the part of it
        (``것 bytes 1–2 of 3``), the hex small beneath each side, and what it completes."""
        muted = muted_color(self.views.host.palette()).name()
        big = big or self.views.merge_banner.font().pointSizeF()  # the banner's size, zoomed with the window
        sides = ((named.left, s.left, False), (named.right, s.right, False), (named.new, s.token_id, True))
        # no cell of the hex row is empty: an empty cell's line takes the banner's big font (a row as
        # tall as the names)
        blank = f'<td><span style="font-size:{big * 0.45:.1f}pt">&nbsp;</span></td>'
        top, bottom = [], []
        for k, (side, token_id, bold) in enumerate(sides):
            if k:
                top.append(f"<td>&nbsp;{'+' if k == 1 else '→'}&nbsp;</td>")
                bottom.append(blank)
            cell = self._runs_span(side.runs, token_id, bold, big)
            top.append(f'<td align="center" style="white-space:nowrap">{cell}</td>')
            bottom.append(
                f'<td align="center"><span style="font-size:{big * 0.45:.1f}pt; color:{muted}">{side.hex}</span></td>'
            )
        if named.completes:
            completes = html.escape(translate("TrainPanel", "completes {chars}").format(chars=named.completes))
            top.append(
                f'<td valign="middle" style="white-space:nowrap">&nbsp;&nbsp;'
                f'<span style="font-size:{big * 0.6:.1f}pt"><b>{completes}</b></span></td>'
            )
            bottom.append(blank)
        # the numbers on a line of their own: beside three named sides they pushed past a 1366-pixel screen
        return (
            f'<table cellspacing="0" cellpadding="0"><tr>{"".join(top)}</tr><tr>{"".join(bottom)}</tr></table>'
            f'<p style="margin:0">{numbers}</p>'
        )

    def _draw_sample(self) -> bool:
        """Re-segment the sample's lines on screen at the current step: a frame shows one step. The
        lines scrolled out of sight follow when they come back (segmenting all 30 long lines at every
        frame cost up to ~0.3 s on a loaded machine)."""
        view = self.views.sample_view
        sample = self.on_screen.corpus.lines
        if not sample:
            view.set_plain_lines([translate("TrainPanel", "(no sample lines)")])
            self._sample_steps = []
            return True
        if self.replay is None:
            view.set_plain_lines(sample)
            # what the view holds: a run that begins on these lines only colours them (rebuilding the
            # document of 30 long lines held the turn of a run's first frame ~20 ms more)
            self._shown_sample = list(sample)
            self._sample_steps = [-1] * len(sample)
            return True
        step = self.playback.cursor
        followed = self.follower.followed_lines(step)
        lines = self._sample_order(followed)
        n = len(lines)
        if lines != self._shown_sample or len(self._sample_steps) != n or view.line_count() != n:
            view.set_plain_lines(lines)
            self._shown_sample = lines
            self._sample_steps = [-1] * n
            if followed:
                view.verticalScrollBar().setValue(0)
        first, last = self._sample_on_screen()
        # the lines on screen first; those out of sight once the trainer rests (at the frame's step too)
        # and a few per frame: all 30 at once froze the window for ~0.75 s on a loaded machine
        deadline = time.perf_counter() + OFFSCREEN_BUDGET_S
        offscreen = 0
        for i in [*range(first, last + 1), *range(last + 1, n), *range(first)]:
            if self._sample_steps[i] == step:
                continue
            if not first <= i <= last:
                if self.on_screen.computing():
                    return False  # (while the trainer computes, the lines out of sight wait for it to rest)
                if offscreen and time.perf_counter() > deadline:  # (one at least: they always get on)
                    self.frames.request(all_views=False)  # the next frame goes on with them
                    return False
                offscreen += 1
            view.set_line(i, self._line_runs(i, self.replay.segment(self._model_text(lines[i]), step)))
            self._sample_steps[i] = step
        return True

    def _sample_order(self, followed: list[str] | None = None) -> list[str]:
        """The sample's lines as the view lists them: the corpus lines that show the merge on screen
        (found by a worker) first."""
        followed = self.follower.followed_lines(self.playback.cursor) if followed is None else followed
        return followed + [ln for ln in self.on_screen.corpus.lines if ln not in followed]

    def _model_text(self, line: str) -> str:
        """A sample line as the run's model reads it."""
        if self.replay.keep == "hangul":
            line = keep_hangul(line)
        return decompose(line) if self.on_screen.run_jamo else line  # segment_runs shows syllables again

    def prepare_frame(self) -> Iterator[bool | None]:
        """The next frame's computing, in slices (the frame scheduler runs the event loop between two
        ``yield``s): the sample lines on screen, the probe and the merge tree segmented at the step on
        screen, the tree drawn, the banner and "why this pair" measured, the plots' new pieces made.
        Only caches are filled, nothing on screen changes; the frame drawn then finds its work done
        (about half of a frame's GUI time while following a fast trainer)."""
        replay, step = self.replay, self.playback.cursor
        if replay is None:
            return
        if step == 0 and replay.mode == "byte":  # a run's start: the room a byte merge named on two rows takes
            self._named_banner_height()
            yield
        lines = self._sample_order()
        if lines and len(self._sample_steps) == len(lines):
            first, last = self._sample_on_screen()
        else:  # the view lists other lines until the frame: its first screenful
            first, last = 0, min(len(lines), SCREENFUL_LINES) - 1
        for i in range(first, last + 1):
            if self._sample_steps[i : i + 1] != [step]:
                self._line_runs(i, replay.segment(self._model_text(lines[i]), step))
                yield
        text = self.views.probe_edit.text()
        if text:
            self._line_runs(PROBE_LINE, replay.segment(decompose(text) if self.on_screen.run_jamo else text, step))
            yield
        if 0 < step <= len(replay):
            self.views.tree_view.prepare(self._merge_tree(replay.steps[step - 1].token_id))  # drawn, not shown
            yield
            # the banner's and "why this pair"'s rich texts measured: the frame's turn finds their heights
            banner = self.views.merge_banner
            measure_ahead(banner, self.banner_html(step), banner.width())
            yield
        if step <= len(replay):
            self.why.prepare(step, replay, self.follower.step_facts, self.follower.guesser)
            yield
        yield from self.views.plots.prepare(self.on_screen.series, step)

    def _merge_tree(self, token_id: int):
        """The merge tree of ``token_id`` as of the step on screen (kept for the step's frame)."""
        key = (self.replay, token_id, self.playback.cursor)
        kept = self._kept_tree
        if kept is None or kept[0] != key:
            kept = (key, self.replay.merge_tree(token_id, self.playback.cursor))
            self._kept_tree = kept
        return kept[1]

    def _line_runs(self, i: int, pieces) -> tuple:
        """The coloured runs of sample line ``i``; the replay hands back the same pieces for a line no
        merge since touched, whose runs (and text on screen) then stay as they are."""
        drawn = self._sample_runs
        last = drawn.get(i)
        if last is not None and last[0] is pieces and last[1] == self.dark:
            return last[2]
        runs = segment_runs(pieces, dark=self.dark)
        drawn[i] = (pieces, self.dark, runs)
        return runs

    def _sample_on_screen(self) -> tuple[int, int]:
        view = self.views.sample_view
        n = len(self._sample_steps)
        first = min(view.first_visible_line(), n - 1)
        return first, min(max(first, view.last_visible_line()), n - 1)

    def on_sample_scrolled(self, *_args) -> None:
        self._view_step["sample"] = -1  # lines come into sight: the next frame draws them at its step
        self.frames.request(all_views=False)

    def draw_probe(self) -> None:
        """Segment the probe sentence at the step on screen (after typing settles, and at every step)."""
        self.probe_timer.stop()
        text = self.views.probe_edit.text()
        if self.replay is None or text != self._probe_text or self.views.probe_view.line_count() != 1:
            # only for a new text: set_line below then replaces the line only when its pieces
            # change (a second document rebuild per frame during playback otherwise)
            self.views.probe_view.set_plain_lines([text])
            self._probe_text = text
        if self.replay is None:
            self.views.probe_status.setText(translate("TrainPanel", "{chars} characters").format(chars=len(text)))
            return
        segs = self.replay.segment(decompose(text) if self.on_screen.run_jamo else text, self.playback.cursor)
        count = sum(1 for s in segs if s.token_id is not None)
        self.views.probe_view.set_line(0, self._line_runs(PROBE_LINE, segs))
        self.views.probe_status.setText(
            translate("TrainPanel", "{tokens} tokens · {chars} characters").format(tokens=count, chars=len(text))
        )
        self.sync_probe_dropout()

    def sync_probe_dropout(self) -> None:
        """Give the probe's dropout view the model at the step on screen and the probe text, once the
        animation rests there (sampling at every step of a playing run would compete with training)."""
        view = self.views.probe_dropout
        if self.replay is None or self.playback.cursor == 0 or self.on_screen.trainer is None:
            self._dropout_key = None
            view.set_source(None, "")
            return
        if self.playback.playing:
            return
        if not view.expanded():  # folded: only its title shows; it samples once unfolded
            view.show()
            self._dropout_key = None
            return
        key = (self.replay, self.playback.cursor, self.views.probe_edit.text())
        if key == self._dropout_key:
            return
        self._dropout_key = key
        # the model is built on the work pool: the view keeps the step before until it comes
        self.on_screen.model_later(lambda model: self._dropout_model_came(key, model))

    def _dropout_model_came(self, key: tuple, model) -> None:
        if key != self._dropout_key:
            return  # the step or the text moved on meanwhile (its own model is on its way)
        if model is None:
            self._dropout_key = None
            self.views.probe_dropout.set_source(None, "")
            return
        self.views.probe_dropout.set_source(model, key[2])

    def on_vocab_row(self, current, _previous) -> None:
        if not current.isValid() or self.replay is None:
            return
        token_id = self.views.vocab_filter.data(current.siblingAtColumn(1), Qt.ItemDataRole.UserRole)
        self.select_token(token_id)

    def select_token(self, token_id: int) -> None:
        """Show the merge tree of ``token_id`` (as of the current step)."""
        if self.replay is None:
            return
        self._selected_token = token_id
        tree = self._merge_tree(token_id)
        hold_line_height(self.views.tree_title)  # its piece in Hangul, then in Latin: the tree moved a pixel each time
        self.views.tree_title.setText(
            translate("TrainPanel", "<b>Merge tree</b> of {piece} — {leaves} base tokens, {levels} levels").format(
                piece=html.escape(elide_piece(self.views.tree_view.label(tree))),
                leaves=tree.leaves(),
                levels=tree.depth() - 1,
            )
        )
        self.views.tree_view.set_tree(tree)

    def apply_fonts(self, presenting: bool) -> None:
        """Fonts for the token views, sized by the window's zoom (Ctrl +/-, presentation mode); in
        presentation mode the vocabulary table's hex column gives way to whole tokens."""
        self.views.merge_banner.setFont(mono_font(20))
        self.views.why_label.setFont(ui_font(10))
        self.views.sample_view.setFont(ui_font(13))
        self.views.probe_edit.setFont(ui_font(12))
        self.views.probe_view.setFont(ui_font(14))
        self.views.tree_view.set_fonts(mono_font(12), ui_font(9))  # the hex under a node stays legible
        hold_line_height(self.views.tree_title)  # before a run: a title that grew with it re-laid out the panel
        self.views.plots.set_font_scale(font_scale())
        self.views.vocab_model.set_font(mono_font())
        fm = QFontMetrics(mono_font())
        pad = 14
        # the hex column holds six bytes (two Hangul syllables); longer tokens are elided, with the
        # full bytes in the tooltip
        head_fm = QFontMetrics(self.views.vocab_view.horizontalHeader().font())
        wanted, floors = [], []
        # the token column shows at least three wide characters and the hex two bytes when the pane is narrow
        columns = (("00000",) * 2, ("MMMMMMMMMM", "MMM"), ("00 00 00 00 00 00", "00 00"), ("000000",) * 2, ("000",) * 2)
        for col, (sample, least) in enumerate(columns):
            title = head_fm.horizontalAdvance(
                str(self.views.vocab_model.headerData(col, Qt.Orientation.Horizontal) or "")
            )
            wanted.append(max(fm.horizontalAdvance(sample), title) + pad)
            floors.append(max(fm.horizontalAdvance(least), title) + pad)
        self.views.vocab_view.set_widths(wanted, floors, tokens_first=presenting)
        rows = self.views.vocab_view.verticalHeader()
        # the minimum first: Qt clamps the default to a minimum it derives from the header's font, which
        # still had presentation mode's size when F11 left it (the rows stayed tall until restart)
        rows.setMinimumSectionSize(fm.height() + 6)
        rows.setDefaultSectionSize(fm.height() + 6)
        self._sample_steps = []
        self._view_step = {v: -1 for v in HEAVY_VIEWS}
        self.frames.request()

    def apply_theme(self, dark: bool) -> None:
        self.dark = dark
        self.views.vocab_model.dark = dark
        self.views.tree_view.dark = dark
        self.views.vocab_view.viewport().update()
        self.views.plots.apply_theme(dark)
        self._view_step = {v: -1 for v in HEAVY_VIEWS}
        self._sample_steps = []
        self.views.sample_view.clear_formats()
        for label in (self.views.sample_legend, self.views.probe_status):
            mute_label(label)
        self.frames.draw_now()
