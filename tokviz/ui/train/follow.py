"""The lecture views of the Train panel: the sample follows the training, byte merges are named by
their characters, and "why this pair" lists the runners-up of each merge.

All corpus work runs off the GUI thread on two channels of the session's work service (latest wins):

* once per run, the corpus is read again (as the trainer reads it) into the facts of
  :mod:`tokviz.ui.train.corpus_facts` (a line index, the capped word counts, a character guesser);
  a big corpus in a child process of its own;
* at each step shown, lines of the whole corpus in which the model at that step makes the new token
  (brought to the top of the sample, the token marked as the fresh merge), and the top candidate
  pairs of the step recomputed from the model at the step before
  (:func:`tokviz.core.bpe_candidates.top_pairs`).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace

from PySide6.QtCore import QCoreApplication

from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.model import BPEModel
from tokviz.core.bpe_candidates import Candidate, Candidates, top_pairs
from tokviz.core.byte_names import CharGuesser, name_merge
from tokviz.core.jamo import decompose_lines
from tokviz.core.sample_follow import SampleHit
from tokviz.ui.train import corpus_facts as facts_reading
from tokviz.ui.train.corpus_facts import MAX_WORDS, CorpusFacts, corpus_facts
from tokviz.ui.train.views import FRESH_BG, hold_line_height
from tokviz.ui.train.vocab import compact_parts, elide_piece, part_label, shown_piece, visible_piece
from tokviz.ui.train_replay import keep_hangul

translate = QCoreApplication.translate

FOLLOW_LINES = 3  # corpus lines that show the current merge, on top of the sample
TOP_PAIRS = 5
FOLLOW_PACE = 10.0  # merges per second up to which each step's lines and runners-up are computed


@dataclass(frozen=True)
class StepFacts:
    """The followed lines and the candidate pairs of one step."""

    step: int
    hits: tuple[SampleHit, ...]
    candidates: Candidates | None


def read_facts(config: TrainerConfig, source, jamo: bool, state) -> CorpusFacts | None:
    """The lecture views' facts of ``source``: a big corpus is read in a child process, so that its
    Python work never competes with the GUI thread for the GIL (see :mod:`tokviz.ui.train.corpus_facts`)."""
    size = source.total_bytes
    if size is not None and size > facts_reading.CHILD_BYTES:
        return facts_reading.read_in_child(config, source.path, source.text, source.errors, jamo, state.is_cancelled,
                                           max_words=MAX_WORDS)
    lines = source.lines()
    return corpus_facts(config, decompose_lines(lines) if jamo else lines, state, max_words=MAX_WORDS)


def step_facts(facts: CorpusFacts, config: TrainerConfig, steps: list[MergeStep], step: int, state) -> StepFacts:
    """Followed lines and candidates for ``step`` (1-based) from the recorded ``steps[:step]``."""
    mode = config.mode
    model = BPEModel.growing(mode, config.pattern, config.keep)
    model.grow_steps(steps[: step - 1])
    candidates = top_pairs(
        model, mode, facts.words, step, limit=TOP_PAIRS, words_total=facts.words_total, cancelled=state.is_cancelled
    )
    if state.is_cancelled():
        return StepFacts(step, (), None)
    s = steps[step - 1]
    model.grow_steps([s])
    keep = config.keep == "hangul"

    def encode(text: str):
        return model.encode(keep_hangul(text) if keep else text, max_rank=step)

    start = (step * 7919) % max(1, len(facts.index))  # consecutive steps start at different lines
    hits = facts.index.follow(s.new_bytes, s.token_id, encode, limit=FOLLOW_LINES, start_line=start)
    return StepFacts(step, tuple(hits), candidates)


@dataclass(frozen=True)
class NamedSide:
    """One side of a byte merge as the banner shows it: ``것 bytes 1–2 of 3`` over ``EA B2``.

    ``runs`` are ``(characters, part)`` pairs: the characters a room reads (big) and, for a partial
    character, which bytes of it these are (small, "" for whole characters)."""

    runs: tuple[tuple[str, str], ...]
    hex: str

    @property
    def label(self) -> str:
        """The side in one line: ``것 bytes 1–2 of 3``, runs side by side (``·`` is a space's marker)."""
        return " ".join(f"{chars} {part}" if part else chars for chars, part in self.runs)


@dataclass(frozen=True)
class NamedMerge:
    """A byte merge named by characters: both sides, the result, and the characters it completes."""

    left: NamedSide
    right: NamedSide
    new: NamedSide
    completes: str


def _part_words(part) -> str:
    """``bytes 1–2 of 3`` in the interface's language (what :func:`part_label` puts after the character)."""
    label = part_label(part)
    return label[len(part.char) + 1 :] if part.char is not None and label.startswith(part.char + " ") else label


def name_byte_merge(left: bytes, right: bytes, guesser: CharGuesser | None) -> NamedMerge | None:
    """Byte mode: the merge ``left + right`` named by the characters its bytes belong to, in the
    interface's language, with the hex of each side; None when both sides are whole characters
    (the pieces then say it all)."""
    name = name_merge(left, right, guesser=guesser)
    if all(p.whole for p in (*name.left, *name.right)):
        return None

    def side(parts) -> NamedSide:
        # whole characters run together as the token views draw them; a partial one stands apart
        runs: list[list[str]] = []
        for i, p in enumerate(parts):
            if p.whole and i and parts[i - 1].whole:
                runs[-1][0] += visible_piece(p.char)
            elif p.whole:
                runs.append([visible_piece(p.char), ""])
            elif p.char is not None and p.length:
                runs.append([p.char, _part_words(p)])
            else:  # bytes of no known character: the hex is all there is to say
                runs.append([p.hex, ""])
        for run in runs:  # a long run of whole characters cannot widen the window
            run[0] = elide_piece(run[0])
        return NamedSide(tuple((chars, part) for chars, part in runs), " ".join(p.hex for p in parts))

    return NamedMerge(side(name.left), side(name.right), side(name.new), "".join(name.completes))


class StepFollowing:
    """Mixed into TrainPanel: corpus facts per run, step facts per step shown."""

    def _init_following(self) -> None:
        self.corpus_tasks = self.session.work.channel(self, "corpus")
        self.step_tasks = self.session.work.channel(self, "step")
        self._facts: CorpusFacts | None = None
        self._step_facts: StepFacts | None = None
        self._asked_step = -1
        # The corpus is read for the lecture views while the app idles between runs, for the settings
        # on screen: reading NSMC 150k in the GUI process during a run cost the GUI thread its GIL
        # turns (p99 heartbeat lateness 4 -> 11-19 ms). A run with the same corpus and settings takes
        # what was read (or waits for the reading under way); other settings read again at ▶ Train.
        self._ready_key: tuple | None = None  # the corpus and settings of the facts read or being read
        self._ready_facts: CorpusFacts | None = None  # None while being read
        self._run_key: tuple | None = None  # the corpus and settings of the run on screen

    @staticmethod
    def _facts_key(config: TrainerConfig, source, jamo: bool) -> tuple:
        """What the corpus facts depend on: the corpus (a file as it is now on disk) and how the
        trainer splits and filters it."""
        stamp = None
        if source.path is not None:
            try:
                st = source.path.stat()
                stamp = (st.st_mtime_ns, st.st_size)  # a file edited since it was read is read again
            except OSError:
                stamp = "unreadable"  # the run says why; the facts reading finds nothing
        return (source, stamp, replace(config, merges=0, min_frequency=0), jamo)

    def _read_corpus(self, key: tuple, config: TrainerConfig, source, jamo: bool) -> None:
        self._ready_key, self._ready_facts = key, None
        self.corpus_tasks.start(
            lambda state: read_facts(config, source, jamo, state),
            finished=lambda facts: self._on_facts_read(key, facts),
        )

    def prefetch_corpus_facts(self) -> None:
        """Between runs: read the corpus for the next run's lecture views, with the settings on screen."""
        if self.run is not None or self.replay is not None or self.algorithms.active():
            return
        jamo = self.jamo_check.isChecked()
        config = replace(self.corpus.current_config(), jamo=jamo)
        key = self._facts_key(config, self.source, jamo)
        if key != self._ready_key:  # not read yet, nor being read
            self._read_corpus(key, config, self.source, jamo)

    def _on_facts_read(self, key: tuple, facts: CorpusFacts | None) -> None:
        if facts is None or key != self._ready_key:
            if key == self._ready_key:
                self._ready_key = None  # cancelled: read again next time
            return
        self._ready_facts = facts
        if key == self._run_key and self._facts is None:  # a run with these settings began meanwhile
            self._on_corpus_facts(facts)

    def _analyse_corpus(self, config: TrainerConfig, source) -> None:
        """The corpus facts for the lecture views of the run that begins: read while the app idled,
        under way, or read now."""
        self._facts = None
        self._step_facts = None
        self._asked_step = -1
        replay = self.replay
        self.tree_view.token_bytes = replay.token_bytes if config.mode == "byte" and replay is not None else None
        self.tree_view.guesser = self.vocab_model.guesser = None
        jamo = getattr(self, "run_jamo", False)  # the trainer reads jamo: so do its counts and followed lines
        key = self._run_key = self._facts_key(config, source, jamo)
        if key != self._ready_key:
            self._read_corpus(key, config, source, jamo)
        elif self._ready_facts is not None:
            self._on_corpus_facts(self._ready_facts)

    def _on_corpus_facts(self, facts: CorpusFacts | None) -> None:
        if facts is None:
            return
        self._facts = facts
        self._asked_step = -1
        self.vocab_model.guesser = facts.guesser
        self.tree_view.guesser = facts.guesser
        if self.replay is None or not len(self.replay):
            return  # nothing named yet: no repaint while the trainer counts (it holds the GIL)
        self.tree_view.set_tree(self.tree_view.tree)  # named again with the corpus's characters
        self.vocab_view.viewport().update()
        self.tree_view.update()
        self.frames.request()

    def _follow_step(self, step: int) -> None:
        """Ask for the followed lines and candidates of ``step`` (once per step, latest wins)."""
        if self._facts is None or self.replay is None or self.config is None or step == self._asked_step:
            return
        if self.playing and (self.fast_forward or (self.playback.pace or FOLLOW_PACE + 1) > FOLLOW_PACE):
            return  # faster than a room can read: asked again when the playback slows down or stops
        self._asked_step = step
        if step == 0 or step > len(self.replay):
            self._step_facts = None
            return
        facts, config, steps = self._facts, self.config, list(self.replay.steps[:step])
        self.step_tasks.start(
            lambda state: step_facts(facts, config, steps, step, state),
            finished=lambda result: self._on_step_facts(result, facts),
        )

    def _on_step_facts(self, result: StepFacts, facts: CorpusFacts | None = None) -> None:
        if result.candidates is None or (facts is not None and facts is not self._facts):
            return  # cancelled, or computed for a run that is gone
        self._step_facts = result
        if result.step == self.cursor:
            self._render_why(result.step)
            self._view_step["sample"] = -1
            self.frames.request()

    def lecture_views_ready(self) -> bool:
        """Whether "why this pair" and the followed lines show the step on screen (or have nothing to
        show): what a screenshot waits for, since they arrive from a worker."""
        if self.algorithms.active() or self.replay is None or self.cursor == 0 or self.playing:
            return True
        sf = self._step_facts
        return sf is not None and sf.step == self.cursor

    def followed_lines(self) -> list[str]:
        """The corpus lines that show the merge on screen (empty until the worker found them)."""
        sf = self._step_facts
        if sf is None or sf.step != self.cursor:
            return []
        return [h.text for h in sf.hits]

    def _render_why(self, step: int) -> None:
        """The merge on screen highlighted among its runners-up (once a worker counted them), ties
        explained. Shown at every step of a run, the winner alone while the runners-up are counted:
        a block that came and went moved the vocabulary table below it on every frame."""
        if self.replay is None or step > len(self.replay):
            self.why_label.setText("")
            self.why_label.setMinimumHeight(0)
            hold_line_height(self.why_label)  # the height its first line takes in a run, from now
            return
        if step == 0:
            self._set_why(f"<b>{html.escape(translate('TrainPanel', 'Why this pair:'))}</b> —")
            return
        sf = self._step_facts
        cands = sf.candidates if sf is not None and sf.step == step else None
        guesser = self._facts.guesser if self._facts is not None else None
        byte_mode = self.replay.mode == "byte"
        merged = self.replay.steps[step - 1]
        pairs = list(cands.pairs) if cands is not None else []
        # the pair the trainer merged is the one highlighted; counted over the most frequent words
        # only (a capped corpus), it may rank lower or be missing: then it leads with its true count
        won = [
            i for i, c in enumerate(pairs) if (c.left_piece, c.right_piece) == (merged.left_piece, merged.right_piece)
        ]
        if won:  # with the trainer's exact count (a capped count is a lower bound)
            winner = replace(pairs.pop(won[0]), count=merged.count)
        else:
            winner = self._merged_candidate(merged)
            pairs = pairs[: max(0, len(pairs) - 1)]
        pairs.insert(0, winner)
        cells = []
        for i, c in enumerate(pairs):
            text = html.escape(self._pair_words(c, byte_mode, guesser)) + f" <b>{c.count:,}</b>"
            if i == 0:
                text = f'<span style="background:{FRESH_BG}; color:#ffffff">&nbsp;{text}&nbsp;</span>'
            cells.append(text)
        head = translate("TrainPanel", "Why this pair:")
        if cands is not None and cands.capped:
            head = translate("TrainPanel", "Why this pair (top pairs among the {n} most frequent words):").format(
                n=f"{cands.words_used:,}"
            )
        note = ""
        if cands is not None and cands.tied > 1:
            rule = (
                translate("TrainPanel", "the smallest pair of token ids wins (as rustbpe)")
                if byte_mode
                else translate("TrainPanel", "the alphabetically last pair wins (as subword-nmt)")
            )
            note = " — " + translate("TrainPanel", "{n} pairs tie at the top count; {rule}").format(
                n=cands.tied, rule=rule
            )
        # a bar between the pairs: a "·" read as one more space marker (a space is drawn as "·")
        self._set_why(f"<b>{html.escape(head)}</b> " + " │ ".join(cells) + html.escape(note))

    def _merged_candidate(self, merged: MergeStep) -> Candidate:
        replay = self.replay
        return Candidate(
            merged.left,
            merged.right,
            merged.left_piece,
            merged.right_piece,
            replay.token_bytes(merged.left),
            replay.token_bytes(merged.right),
            merged.count,
        )

    @staticmethod
    def _pair_words(c: Candidate, byte_mode: bool, guesser) -> str:
        """A pair as "why this pair" names it: ``안 + 녕``; in byte mode both sides named together
        (EA + B2 are bytes of one character)."""
        if byte_mode:
            name = name_merge(c.left_bytes, c.right_bytes, guesser=guesser)
            left, right = compact_parts(name.left), compact_parts(name.right)
        else:
            left, right = shown_piece(c.left_piece), shown_piece(c.right_piece)
        return f"{elide_piece(left)} + {elide_piece(right)}"

    def why_step(self) -> int | None:
        """The step whose merge "why this pair" highlights, read back from its text (0: step 0's
        dash; None: nothing shown)."""
        text = self.why_label.text()
        if self.replay is None or not text:
            return None
        first = html.unescape(re.sub(r"<[^>]+>", "", text.split("│")[0])).replace("\xa0", " ")
        if first.rstrip().endswith("—"):
            return 0
        guesser = self._facts.guesser if self._facts is not None else None
        byte_mode = self.replay.mode == "byte"
        for k in range(min(self.cursor, len(self.replay)), 0, -1):  # the step on screen first
            s = self.replay.steps[k - 1]
            words = self._pair_words(self._merged_candidate(s), byte_mode, guesser)
            if f" {words} {s.count:,}" in first:
                return k
        return None

    def _set_why(self, text: str) -> None:
        # during a run the block only grows (runners-up arriving make it two lines): the table below
        # it stays put from frame to frame
        label = self.why_label
        hold_line_height(label)
        label.setText(text)
        height = label.heightForWidth(label.width()) if label.width() > 1 else label.sizeHint().height()
        if height > label.minimumHeight():
            label.setMinimumHeight(height)
