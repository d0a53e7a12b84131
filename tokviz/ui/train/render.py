"""Drawing the step on screen into every view of the Train panel: the step label and merge banner,
the corpus sample, the probe, the vocabulary table, the plots and the merge tree, all from one
snapshot per frame (see frames.py)."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from types import SimpleNamespace

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QLabel

from tokviz.core.bpe.events import MergeStep
from tokviz.core.jamo import decompose
from tokviz.core.jamo_input import reader_for
from tokviz.ui import theme
from tokviz.ui.fonts import mono_font, ui_font
from tokviz.ui.fonts import scale as font_scale
from tokviz.ui.token_colors import text_color_on
from tokviz.ui.train.follow import name_byte_merge
from tokviz.ui.train.views import hold_line_height, mute_label, muted_color, segment_runs
from tokviz.ui.train.vocab import elide_piece, shown_piece
from tokviz.ui.train_replay import keep_hangul

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


class StepRendering:
    """Draws one frame of the Train panel from a snapshot of its model (mixed into TrainPanel)."""

    def sample_changed(self) -> None:
        """Other sample lines were picked: the sample view draws them anew at the next frame."""
        self._sample_steps = []
        self._view_step["sample"] = -1

    def _render(self) -> None:
        """Draw a frame now (the user moved, a setting of the views changed): every view anew."""
        self.frames.draw_now()

    def draw_frame(self, snapshot, full: bool = True) -> None:
        """Every view at ``snapshot.step``: the frame scheduler's one drawing routine. The views that
        follow the step (label, banner, why, tree) are redrawn when it moved, or with ``full``."""
        if theme.is_dark() != self._dark:  # the theme can be applied without a signal (start-up)
            self._on_theme(theme.is_dark())
            return
        step = snapshot.step
        if full or step != self._light_drawn:
            self._render_light(step)
            self._light_drawn = step
        for view in HEAVY_VIEWS:
            if self._view_step[view] != step:
                self._render_heavy(view, step)

    def shown_steps(self) -> dict[str, int | None]:
        """The step each view displays, read back from what it shows (None: nothing of a run): the
        step label, the banner's rank, the "why this pair" winner, the sample's lines, the table's
        rows, the merge tree's token and each plot."""
        replay = self.replay
        label = re.search(r"[\d,]+", self.step_label.text())
        rank = re.search(r"<b>([\d,]+)</b>[^<]*vocab", self.merge_banner.text())
        first, last = self._sample_on_screen()
        sample = set(self._sample_steps[first : last + 1])
        shown: dict[str, int | None] = {
            "label": int(label.group().replace(",", "")) if label else None,
            "banner": int(rank.group(1).replace(",", "")) if rank else 0,
            "table": self.vocab_model.rowCount(),
            "sample": sample.pop() if len(sample) == 1 else None,
        }
        for part, step in self.plots.shown_steps.items():
            shown["plot:" + part] = step
        tree = self.tree_view.tree
        if replay is not None and tree is not None:
            ids = [s.token_id for s in replay.steps]
            shown["tree"] = ids.index(tree.token_id) + 1 if tree.token_id in ids else None
        if replay is not None:
            shown["why"] = self.why_step()
        return shown

    def _render_light(self, step: int) -> None:
        """The step counter, the scrubber, the banner, the followed lines, "why this pair" and the tree."""
        replay = self.replay
        n = len(replay) if replay is not None else 0
        self.scrubber.blockSignals(True)
        self.scrubber.setMaximum(n)
        self.scrubber.setValue(step)
        self.scrubber.blockSignals(False)
        target = self.config.merges if self.config is not None else self.merges_spin.value()
        state = ""
        if self.finished is not None and step == n:
            state = (
                " · "
                + {
                    "merges": translate("TrainPanel", "done"),
                    "cancelled": translate("TrainPanel", "cancelled"),
                    "min_frequency": translate("TrainPanel", "min frequency reached"),
                    "exhausted": translate("TrainPanel", "no pairs left"),
                }[self.finished.reason]
            )
        self.step_label.setText(
            translate("TrainPanel", "step {step} / {target}").format(step=f"{step:,}", target=f"{target:,}") + state
        )
        widest = translate("TrainPanel", "step {step} / {target}").format(step=f"{target:,}", target=f"{target:,}")
        reserve_width(self.step_label, widest + state)
        self._render_banner(step)
        self._follow_step(step)
        self._render_why(step)
        if replay is not None and step != self._tree_step:
            # the tree follows the merge on screen (a token picked in the table stays until the step moves)
            self._tree_step = step
            if 0 < step <= len(replay):
                self.select_token(replay.steps[step - 1].token_id)
            elif self._selected_token is not None:
                self.tree_view.set_tree(replay.merge_tree(self._selected_token, step))

    def _render_heavy(self, view: str, step: int) -> None:
        if view == "vocab":
            self.vocab_model.set_shown(step)
            title = translate("TrainPanel", "<b>Learned tokens</b> ({n})")
            self.vocab_title.setText(title.format(n=f"{step:,}"))
            last = max(step, self.config.merges if self.config is not None else 0)
            reserve_width(self.vocab_title, re.sub("<[^>]+>", "", title.format(n=f"{last:,}")), bold=True)
            done = True
        elif view.startswith("plot:"):
            self.plots.show_step(self.series, step, parts=(view[len("plot:") :],))
            done = True
        elif view == "probe":
            self._render_probe()
            done = True
        else:
            done = self._render_sample()
        if done:
            self._view_step[view] = step

    def _piece_span(self, piece: str, token_id: int, bold: bool = False) -> str:
        return self._label_span(elide_piece(shown_piece(piece)), token_id, bold)

    def _runs_span(self, runs, token_id: int, bold: bool = False, big: float | None = None) -> str:
        """A named side on the token's colour: each character big, which bytes of it small beside it
        (``것 bytes 1–2 of 3``), so the line stays one line on a projector."""
        from tokviz.ui.token_colors import token_color

        bg = token_color(token_id, dark=self._dark)
        small = max(8.0, (big or self.merge_banner.font().pointSizeF()) * 0.5)
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

        bg = token_color(token_id, dark=self._dark)
        weight = "font-weight:bold;" if bold else ""
        return (
            f'<span style="background:{bg.name()}; color:{text_color_on(bg).name()}; {weight}">'
            f"&nbsp;{html.escape(label)}&nbsp;</span>"
        )

    def _render_banner(self, step: int) -> None:
        if self.replay is not None and 0 < step <= len(self.replay):
            self.merge_banner.setToolTip(shown_piece(self.replay.steps[step - 1].new_piece))
        banner = self.merge_banner
        banner.setText(self.banner_html(step))
        # During a run the banner only grows: a byte merge named on two rows, then a merge of whole
        # characters on one, re-laid out the panel each time and the plots below regenerated all their
        # axes (~100 ms of GUI work). It shrinks back when a run starts over.
        if self.replay is None or step == 0:
            # byte mode: room for a merge named on two rows from the start, so that the first such
            # merge (step 1 or 2 on Korean text) does not re-lay out the panel either
            mode = self.replay.mode if self.replay is not None else self.mode_combo.currentData()
            named = mode == "byte"
            banner.setMinimumHeight(max(BANNER_MIN_HEIGHT, self._named_banner_height() if named else 0))
        else:
            height = banner.heightForWidth(banner.width())
            if height > banner.minimumHeight():
                banner.setMinimumHeight(height)

    def banner_html(self, step: int, big: float | None = None) -> str:
        """The merge banner of ``step`` as rich text, its sizes relative to ``big`` points (default:
        the banner's font, zoomed with the window); animation frames draw it at their own size."""
        big = big or self.merge_banner.font().pointSizeF()
        if self.replay is None or step == 0:
            hint = (
                translate("TrainPanel", "Press ▶ Train to watch BPE learn merge by merge")
                if self.replay is None
                else translate("TrainPanel", "step 0: no merges yet")
            )
            color = muted_color(self.palette()).name()
            return f'<span style="font-size:{big * 0.7:.1f}pt; color:{color}">{hint}</span>'
        s: MergeStep = self.replay.steps[step - 1]
        numbers = self._numbers_html(s, big)
        named = None
        if self.replay.mode == "byte":
            guesser = self._facts.guesser if self._facts is not None else None
            named = name_byte_merge(self.replay.token_bytes(s.left), self.replay.token_bytes(s.right), guesser)
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
        banner = self.merge_banner
        big = banner.font().pointSizeF()
        key = (big, banner.width(), translate("TrainPanel", "completes {chars}"))
        cached = getattr(self, "_named_height", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        data = "것".encode()
        named = name_byte_merge(data[:2], data[2:], None)
        step = SimpleNamespace(
            left=256, right=257, token_id=258, count=99_999, step=9_999, vocab_size=99_999, corpus_tokens=9_999_999
        )
        shown = banner.text()
        banner.setText(self.named_merge_html(named, step, self._numbers_html(step, big), big))
        height = banner.heightForWidth(banner.width())
        banner.setText(shown)
        self._named_height = (key, height)
        return height

    def named_merge_html(self, named, s: MergeStep, numbers: str, big: float | None = None) -> str:
        """A byte merge on the banner's big line named by its character and the part of it
        (``것 bytes 1–2 of 3``), the hex small beneath each side, and what it completes."""
        muted = muted_color(self.palette()).name()
        big = big or self.merge_banner.font().pointSizeF()  # the banner's size, zoomed with the window
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

    def _render_sample(self) -> bool:
        """Re-segment the sample's lines on screen at the current step: a frame shows one step. The
        lines scrolled out of sight follow when they come back (segmenting all 30 long lines at every
        frame cost up to ~0.3 s on a loaded machine)."""
        view = self.sample_view
        sample = self.corpus.lines
        if not sample:
            view.set_plain_lines([translate("TrainPanel", "(no sample lines)")])
            self._sample_steps = []
            return True
        if self.replay is None:
            view.set_plain_lines(sample)
            self._sample_steps = [-1] * len(sample)
            return True
        step = self.cursor
        followed = self.followed_lines()
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
                if self.computing():
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
        followed = self.followed_lines() if followed is None else followed
        return followed + [ln for ln in self.corpus.lines if ln not in followed]

    def _model_text(self, line: str) -> str:
        """A sample line as the run's model reads it."""
        if self.replay.keep == "hangul":
            line = keep_hangul(line)
        return decompose(line) if self.run_jamo else line  # segment_runs shows syllables again

    def prepare_frame(self) -> Iterator[bool | None]:
        """The next frame's computing, in slices (the frame scheduler runs the event loop between two
        ``yield``s): the sample lines on screen, the probe and the merge tree segmented at the step on
        screen, the plots' new pieces made. Only caches are filled, nothing on screen changes; the
        frame drawn then finds its work done (about half of a frame's GUI time while following a
        fast trainer)."""
        replay, step = self.replay, self.cursor
        if replay is None:
            return
        lines = self._sample_order()
        if lines and len(self._sample_steps) == len(lines):
            first, last = self._sample_on_screen()
        else:  # the view lists other lines until the frame: its first screenful
            first, last = 0, min(len(lines), SCREENFUL_LINES) - 1
        for i in range(first, last + 1):
            if self._sample_steps[i : i + 1] != [step]:
                self._line_runs(i, replay.segment(self._model_text(lines[i]), step))
                yield
        text = self.probe_edit.text()
        if text:
            self._line_runs(PROBE_LINE, replay.segment(decompose(text) if self.run_jamo else text, step))
            yield
        if 0 < step <= len(replay):
            self.tree_view.prepare(self._merge_tree(replay.steps[step - 1].token_id))  # laid out, not shown
            yield
        yield from self.plots.prepare(self.series, step)

    def _merge_tree(self, token_id: int):
        """The merge tree of ``token_id`` as of the step on screen (kept for the step's frame)."""
        key = (self.replay, token_id, self.cursor)
        kept = self.__dict__.get("_kept_tree")
        if kept is None or kept[0] != key:
            kept = (key, self.replay.merge_tree(token_id, self.cursor))
            self._kept_tree = kept
        return kept[1]

    def _line_runs(self, i: int, pieces) -> tuple:
        """The coloured runs of sample line ``i``; the replay hands back the same pieces for a line no
        merge since touched, whose runs (and text on screen) then stay as they are."""
        drawn = self.__dict__.setdefault("_sample_runs", {})  # line -> (pieces, dark, runs)
        last = drawn.get(i)
        if last is not None and last[0] is pieces and last[1] == self._dark:
            return last[2]
        runs = segment_runs(pieces, dark=self._dark)
        drawn[i] = (pieces, self._dark, runs)
        return runs

    def _sample_on_screen(self) -> tuple[int, int]:
        view = self.sample_view
        n = len(self._sample_steps)
        first = min(view.first_visible_line(), n - 1)
        return first, min(max(first, view.last_visible_line()), n - 1)

    def _on_sample_scrolled(self, *_args) -> None:
        self._view_step["sample"] = -1  # lines come into sight: the next frame draws them at its step
        self.frames.request(all_views=False)

    def _render_probe(self) -> None:
        """Segment the probe sentence at the step on screen (after typing settles, and at every step)."""
        self.probe_timer.stop()
        text = self.probe_edit.text()
        if self.replay is None or text != self._probe_text or self.probe_view.line_count() != 1:
            # only for a new text: set_line below then replaces the line only when its pieces
            # change (a second document rebuild per frame during playback otherwise)
            self.probe_view.set_plain_lines([text])
            self._probe_text = text
        if self.replay is None:
            self.probe_status.setText(translate("TrainPanel", "{chars} characters").format(chars=len(text)))
            return
        segs = self.replay.segment(decompose(text) if self.run_jamo else text, self.cursor)
        count = sum(1 for s in segs if s.token_id is not None)
        self.probe_view.set_line(0, self._line_runs(PROBE_LINE, segs))
        self.probe_status.setText(
            translate("TrainPanel", "{tokens} tokens · {chars} characters").format(tokens=count, chars=len(text))
        )
        self._sync_probe_dropout()

    def _sync_probe_dropout(self) -> None:
        """Give the probe's dropout view the model at the step on screen and the probe text, once the
        animation rests there (sampling at every step of a playing run would compete with training)."""
        view = self.probe_dropout
        if self.replay is None or self.cursor == 0 or self.trainer is None:
            self._dropout_key = None
            view.set_source(None, "")
            return
        if self.playing:
            return
        if not view.expanded():  # folded: only its title shows; it samples once unfolded
            view.show()
            self._dropout_key = None
            return
        key = (self.replay, self.cursor, self.probe_edit.text())
        if key == getattr(self, "_dropout_key", None):
            return
        try:
            model = reader_for(self.current_model())  # a jamo model decomposes the probe itself
        except Exception:  # noqa: BLE001 — a trainer without models at a step: no dropout for it
            view.set_source(None, "")
            return
        self._dropout_key = key
        view.set_source(model, key[2])

    def _on_vocab_row(self, current, _previous) -> None:
        if not current.isValid() or self.replay is None:
            return
        token_id = self.vocab_filter.data(current.siblingAtColumn(1), Qt.ItemDataRole.UserRole)
        self.select_token(token_id)

    def select_token(self, token_id: int) -> None:
        """Show the merge tree of ``token_id`` (as of the current step)."""
        if self.replay is None:
            return
        self._selected_token = token_id
        tree = self._merge_tree(token_id)
        hold_line_height(self.tree_title)  # its piece in Hangul, then in Latin: the tree moved a pixel each time
        self.tree_title.setText(
            translate("TrainPanel", "<b>Merge tree</b> of {piece} — {leaves} base tokens, {levels} levels").format(
                piece=html.escape(elide_piece(self.tree_view.label(tree))),
                leaves=tree.leaves(),
                levels=tree.depth() - 1,
            )
        )
        self.tree_view.set_tree(tree)

    def _apply_fonts(self) -> None:
        """Fonts for the token views, sized by the window's zoom (Ctrl +/-, presentation mode)."""
        window = self.window()
        self.set_presentation(bool(getattr(window, "presentation", False)) and window is not self)
        self.merge_banner.setFont(mono_font(20))
        self.why_label.setFont(ui_font(10))
        self.sample_view.setFont(ui_font(13))
        self.probe_edit.setFont(ui_font(12))
        self.probe_view.setFont(ui_font(14))
        self.tree_view.set_fonts(mono_font(12), ui_font(9))  # the hex under a node stays legible
        hold_line_height(self.tree_title)  # before a run: a title that grew with it re-laid out the panel
        self.plots.set_font_scale(font_scale())
        self.vocab_model.set_font(mono_font())
        fm = QFontMetrics(mono_font())
        pad = 14
        # the hex column holds six bytes (two Hangul syllables); longer tokens are elided, with the
        # full bytes in the tooltip
        head_fm = QFontMetrics(self.vocab_view.horizontalHeader().font())
        wanted, floors = [], []
        # the token column shows at least three wide characters and the hex two bytes when the pane is narrow
        columns = (("00000",) * 2, ("MMMMMMMMMM", "MMM"), ("00 00 00 00 00 00", "00 00"), ("000000",) * 2, ("000",) * 2)
        for col, (sample, least) in enumerate(columns):
            title = head_fm.horizontalAdvance(str(self.vocab_model.headerData(col, Qt.Orientation.Horizontal) or ""))
            wanted.append(max(fm.horizontalAdvance(sample), title) + pad)
            floors.append(max(fm.horizontalAdvance(least), title) + pad)
        self.vocab_view.set_widths(wanted, floors)
        rows = self.vocab_view.verticalHeader()
        # the minimum first: Qt clamps the default to a minimum it derives from the header's font, which
        # still had presentation mode's size when F11 left it (the rows stayed tall until restart)
        rows.setMinimumSectionSize(fm.height() + 6)
        rows.setDefaultSectionSize(fm.height() + 6)
        self._sample_steps = []
        self._view_step = {v: -1 for v in HEAVY_VIEWS}
        self.frames.request()

    def _on_theme(self, dark: bool) -> None:
        self._dark = dark
        self.vocab_model.dark = dark
        self.tree_view.dark = dark
        self.vocab_view.viewport().update()
        self.plots.apply_theme(dark)
        self._view_step = {v: -1 for v in HEAVY_VIEWS}
        self._sample_steps = []
        self.sample_view.clear_formats()
        for label in (self.sample_legend, self.probe_status):
            mute_label(label)
        self._render()

    def _update_buttons(self) -> None:
        has_run = self.run is not None
        has_steps = self.replay is not None and len(self.replay) > 0
        paused = self.replay is not None and not self.playing
        self.train_button.setText(
            translate("TrainPanel", "▶ Play")
            if (paused and (has_run or (has_steps and self.cursor < len(self.replay))))
            else translate("TrainPanel", "▶ Train")
        )
        self.train_button.setEnabled(not self.playing)
        self.pause_button.setEnabled(self.playing)
        self.step_button.setEnabled(has_run or (has_steps and self.cursor < len(self.replay)))
        self.end_button.setEnabled(has_run or (has_steps and self.cursor < len(self.replay)) or self.replay is None)
        self.cancel_button.setEnabled(has_run)
        self.reset_button.setEnabled(self.replay is not None)
        self.save_button.setEnabled(has_steps and self.trainer is not None)
        self._sync_probe_dropout()  # paused or finished: the dropout view follows the step on screen
