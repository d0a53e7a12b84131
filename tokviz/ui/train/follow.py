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

from dataclasses import dataclass, replace

from PySide6.QtCore import QCoreApplication

from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.core.bpe.model import BPEModel
from tokviz.core.bpe_candidates import Candidates, top_pairs
from tokviz.core.byte_names import CharGuesser, name_merge
from tokviz.core.jamo import decompose_lines
from tokviz.core.sample_follow import SampleHit
from tokviz.ui.train import corpus_facts as facts_reading
from tokviz.ui.train.corpus_facts import MAX_WORDS, CorpusFacts, corpus_facts
from tokviz.ui.train.vocab import elide_piece, part_label, partial_char, visible_piece
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
        return facts_reading.read_in_child(
            config, source.path, source.text, source.errors, jamo, state.is_cancelled, max_words=MAX_WORDS
        )
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
    char = partial_char(part) if part.char is not None else None
    return label[len(char) + 1 :] if char is not None and label.startswith(char + " ") else label


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
                runs.append([partial_char(p), _part_words(p)])
            else:  # bytes of no known character: the hex is all there is to say
                runs.append([p.hex, ""])
        for run in runs:  # a long run of whole characters cannot widen the window
            run[0] = elide_piece(run[0])
        return NamedSide(tuple((chars, part) for chars, part in runs), " ".join(p.hex for p in parts))

    return NamedMerge(side(name.left), side(name.right), side(name.new), visible_piece("".join(name.completes)))


def facts_key(config: TrainerConfig, source, jamo: bool) -> tuple:
    """What the corpus facts depend on: the corpus (a file as it is now on disk) and how the trainer
    splits and filters it."""
    stamp = None
    if source.path is not None:
        try:
            st = source.path.stat()
            stamp = (st.st_mtime_ns, st.st_size)  # a file edited since it was read is read again
        except OSError:
            stamp = "unreadable"  # the run says why; the facts reading finds nothing
    return (source, stamp, replace(config, merges=0, min_frequency=0), jamo)


class StepFollower:
    """The lecture facts of the run on screen: the corpus facts read once per run (or while the app
    idles before it), and the followed lines and runners-up of each step shown.

    It computes and keeps them, never draws: ``facts_read(facts)`` says the corpus facts of the run
    arrived, ``step_computed(step)`` that the step on screen has its facts (the panel then redraws).
    ``playback`` is the TrainState's playback (the step on screen, playing, pace); the two channels are
    the session's latest-wins work channels for the corpus and the steps.
    """

    def __init__(self, playback, corpus_tasks, step_tasks, *, facts_read, step_computed) -> None:
        self.playback = playback
        self.corpus_tasks = corpus_tasks
        self.step_tasks = step_tasks
        self._facts_read = facts_read
        self._step_computed = step_computed
        self.facts: CorpusFacts | None = None  # the run's corpus facts (None until read)
        self.step_facts: StepFacts | None = None  # the followed lines and runners-up last computed
        self.asked_step = -1  # the last step whose facts were asked of the worker
        # The corpus is read for the lecture views while the app idles between runs, for the settings
        # on screen: reading NSMC 150k in the GUI process during a run cost the GUI thread its GIL
        # turns (p99 heartbeat lateness 4 -> 11-19 ms). A run with the same corpus and settings takes
        # what was read (or waits for the reading under way); other settings read again at ▶ Train.
        self._ready_key: tuple | None = None  # the corpus and settings of the facts read or being read
        self.ready_facts: CorpusFacts | None = None  # None while being read
        self._run_key: tuple | None = None  # the corpus and settings of the run on screen

    @property
    def guesser(self):
        """The character guesser of the run's corpus (None until its facts are read)."""
        return self.facts.guesser if self.facts is not None else None

    def _read_corpus(self, key: tuple, config: TrainerConfig, source, jamo: bool) -> None:
        self._ready_key, self.ready_facts = key, None
        self.corpus_tasks.start(
            lambda state: read_facts(config, source, jamo, state),
            finished=lambda facts: self._on_facts_read(key, facts),
        )

    def prefetch(self, config: TrainerConfig, source, jamo: bool) -> None:
        """Between runs: read ``source`` for the next run's lecture views, with these settings."""
        key = facts_key(config, source, jamo)
        if key != self._ready_key:  # not read yet, nor being read
            self._read_corpus(key, config, source, jamo)

    def _on_facts_read(self, key: tuple, facts: CorpusFacts | None) -> None:
        if facts is None or key != self._ready_key:
            if key == self._ready_key:
                self._ready_key = None  # cancelled: read again next time
            return
        self.ready_facts = facts
        if key == self._run_key and self.facts is None:  # a run with these settings began meanwhile
            self._take_facts(facts)

    def begin_run(self, config: TrainerConfig, source, jamo: bool) -> None:
        """The corpus facts for the lecture views of the run that begins: read while the app idled,
        under way, or read now (``jamo``: the trainer reads jamo, so do its counts and followed lines)."""
        self.facts = None
        self.step_facts = None
        self.asked_step = -1
        key = self._run_key = facts_key(config, source, jamo)
        if key != self._ready_key:
            self._read_corpus(key, config, source, jamo)
        elif self.ready_facts is not None:
            self._take_facts(self.ready_facts)

    def forget_run(self) -> None:
        """The run is gone: what a worker still sends for it is dropped (facts read for its settings
        stay ready for the next run)."""
        self.facts = None
        self._run_key = None
        self.step_facts = None
        self.asked_step = -1

    def _take_facts(self, facts: CorpusFacts | None) -> None:
        if facts is None:
            return
        self.facts = facts
        self.asked_step = -1
        self._facts_read(facts)

    def follow(self, step: int, replay, config: TrainerConfig | None) -> None:
        """Ask for the followed lines and candidates of ``step`` (once per step, latest wins)."""
        if self.facts is None or replay is None or config is None or step == self.asked_step:
            return
        playback = self.playback
        if playback.playing and (playback.fast_forward or (playback.pace or FOLLOW_PACE + 1) > FOLLOW_PACE):
            return  # faster than a room can read: asked again when the playback slows down or stops
        self.asked_step = step
        if step == 0 or step > len(replay):
            self.step_facts = None
            return
        facts, steps = self.facts, list(replay.steps[:step])
        self.step_tasks.start(
            lambda state: step_facts(facts, config, steps, step, state),
            finished=lambda result: self._on_step_facts(result, facts),
        )

    def _on_step_facts(self, result: StepFacts, facts: CorpusFacts | None = None) -> None:
        if result.candidates is None or (facts is not None and facts is not self.facts):
            return  # cancelled, or computed for a run that is gone
        self.step_facts = result
        if result.step == self.playback.cursor:
            self._step_computed(result.step)

    def facts_of(self, step: int) -> StepFacts | None:
        """The followed lines and runners-up of ``step``, once computed (None before)."""
        sf = self.step_facts
        return sf if sf is not None and sf.step == step else None

    def followed_lines(self, step: int) -> list[str]:
        """The corpus lines that show the merge of ``step`` (empty until the worker found them)."""
        sf = self.facts_of(step)
        return [h.text for h in sf.hits] if sf is not None else []

    def close(self) -> None:
        self.corpus_tasks.close()
        self.step_tasks.close()
