"""The Train panel's parts work through what they declare (issue 24): each is driven here without a
TrainPanel, by the real model and widgets or by a small fake of the protocol it names."""

from __future__ import annotations

import ast
import inspect
from types import SimpleNamespace

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QWidget

from tests.support.naive_trainer import TEXT, NaiveTrainer
from tokviz.core.bpe.events import MergeStep, TrainerConfig
from tokviz.ui.common.work import WorkService
from tokviz.ui.train import algorithms as algorithms_module
from tokviz.ui.train import (
    animation_export,
    corpus_choice,
    frames,
    model_at_step,
    model_save,
    options_view,
    recording,
    render,
)
from tokviz.ui.train.algorithms import AlgorithmTraining
from tokviz.ui.train.animation_export import SlideExport
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.corpus_choice import CorpusChoice
from tokviz.ui.train.frames import FrameScheduler
from tokviz.ui.train.model import TrainState
from tokviz.ui.train.model_at_step import ModelAtStep
from tokviz.ui.train.options_view import OptionsView
from tokviz.ui.train.sample import TokenLinesView
from tokviz.ui.train.views import TrainViews
from tokviz.ui.train_replay import MergeReplay


@pytest.fixture
def host(qtbot):
    """The widget the parts draw into, with the work service a window owns; the service's jobs have
    returned before the widget goes."""
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.work = WorkService(widget)
    yield widget
    assert widget.work.wait(10_000)
    widget.work.shutdown()


class Playing:
    """An animation of ``last`` recorded steps, one step a tick, drawn by the scheduler."""

    def __init__(self, state: TrainState, last: int) -> None:
        self.state, self.last, self.drawn = state, last, []

    def frame_tick(self, _dt: float) -> bool:
        if self.state.playback.cursor >= self.last:
            return False
        self.state.playback.cursor += 1
        return True

    def prepare_frame(self):
        yield True

    def draw_frame(self, snapshot, full: bool = True) -> None:
        self.drawn.append(snapshot.step)

    def computing(self) -> bool:
        return False

    def following_at_full_speed(self) -> bool:
        return False

    def nothing_to_animate(self) -> bool:
        return self.state.playback.cursor >= self.last


def test_the_frame_scheduler_draws_each_step_of_the_model_once_and_stops_when_nothing_moves(qtbot):
    state = TrainState()
    animated = Playing(state, last=2)
    frames = FrameScheduler(animated, state.snapshot)
    frames.timer.blockSignals(True)  # the test's ticks are the only ones
    frames.draw_now()
    for _ in range(4):
        frames.tick(0.04)
    assert animated.drawn == [0, 1, 2]  # a tick that moved nothing draws nothing
    frames.wake()
    frames.tick(0.04)
    assert not frames.timer.isActive() and animated.drawn == [0, 1, 2]
    frames.request()  # something on screen changed at the same step: one frame more
    frames.tick(0.04)
    assert animated.drawn == [0, 1, 2, 2]


def _settings_row(qtbot) -> SimpleNamespace:
    """The settings widgets as the Train views name them."""
    bar = QWidget()
    bar.setLayout(QHBoxLayout())
    qtbot.addWidget(bar)
    mode, pattern = QComboBox(bar), QComboBox(bar)
    mode.addItem("byte", "byte")
    mode.addItem("char", "char")
    pattern.addItem("GPT-4", "gpt4")
    merges, minfreq = QSpinBox(bar), QSpinBox(bar)
    merges.setRange(1, 100_000)
    merges.setValue(300)
    minfreq.setValue(2)
    return SimpleNamespace(
        settings_bar=bar,
        mode_combo=mode,
        pattern_combo=pattern,
        hangul_check=QCheckBox(bar),
        jamo_check=QCheckBox(bar),
        merges_spin=merges,
        minfreq_spin=minfreq,
    )


def test_the_options_view_sends_changes_to_the_model_and_locks_while_a_run_trains(qtbot):
    state = TrainState()
    views = _settings_row(qtbot)
    unlocked = []
    options = OptionsView(state, views, unlocked=lambda: unlocked.append(True))
    views.mode_combo.setCurrentIndex(1)
    assert state.options.mode == "char"  # the widget's change is the model's
    state.start_run()
    assert not views.mode_combo.isEnabled() and not options.reason.isHidden()
    views.merges_spin.setValue(40)  # refused mid-run: the box shows what the run trains with
    assert state.options.merges == 300 and views.merges_spin.value() == 300
    state.reset()  # the run is gone: free again
    assert views.mode_combo.isEnabled() and options.reason.isHidden() and unlocked


class Trainer:
    def model(self, step: int):
        return SimpleNamespace(step=step, settings={})


class RunOnScreen:
    """The run at step 7 of a trainer that computes until told it rests."""

    def __init__(self) -> None:
        self.trainer, self.replay, self.config, self.run = Trainer(), [], None, object()
        self.run_jamo, self.cursor, self.playing, self.busy = False, 7, False, True

    def computing(self) -> bool:
        return self.busy

    def pause(self) -> None:
        self.busy = False


class Messages:
    def __init__(self) -> None:
        self.said: list[str] = []

    def show_message(self, text: str, *_args) -> None:
        self.said.append(text)


def test_the_model_at_the_step_on_screen_is_offered_once_when_the_trainer_rests(qtbot, host):
    offered = []
    session = SimpleNamespace(work=host.work, offer_trained_model=offered.append, trained_model=None)
    views = SimpleNamespace(host=host, message=Messages(), save_button=QPushButton(host), mode_combo=QComboBox(host))
    on_screen = RunOnScreen()
    model_at_step = ModelAtStep(on_screen, session, views, buttons_again=lambda: None)
    model_at_step.request()
    model_at_step.offer()  # the trainer computes: nothing yet
    on_screen.busy = False
    model_at_step.trainer_rested()
    qtbot.waitUntil(lambda: bool(offered), timeout=5_000)
    model_at_step.trainer_rested()  # nothing pending: no second offer
    assert [m.step for m in offered] == [7] and views.message.said == []


def test_the_dropout_views_model_and_the_offer_of_the_same_step_are_built_once(qtbot, host):
    offered, sampled, built = [], [], []
    session = SimpleNamespace(work=host.work, offer_trained_model=offered.append, trained_model=None)
    views = SimpleNamespace(host=host, message=Messages(), save_button=QPushButton(host), mode_combo=QComboBox(host))
    on_screen = RunOnScreen()
    on_screen.busy = False
    model = on_screen.trainer.model
    on_screen.trainer.model = lambda step: built.append(step) or model(step)
    model_at_step = ModelAtStep(on_screen, session, views, buttons_again=lambda: None)
    model_at_step.model_later(sampled.append)  # the dropout view unfolded at step 7
    qtbot.waitUntil(lambda: bool(sampled), timeout=5_000)
    model_at_step.request()
    model_at_step.offer()  # the step settles: offered to the other panels
    qtbot.waitUntil(lambda: bool(offered), timeout=5_000)
    assert built == [7] and offered == sampled


class Trains:
    """What the corpus choice asks of the panel: it logs what it was asked."""

    def __init__(self) -> None:
        self.source = CorpusSource.demo()
        self.sources = [self.source]
        self.replay = None
        self.log: list[str] = []

    def forget_run(self) -> None:
        self.log.append("forget")

    def redraw(self) -> None:
        self.log.append("redraw")


def test_choosing_a_pasted_corpus_forgets_the_run_and_shows_its_lines_hangul_only_when_asked(qtbot):
    views = _settings_row(qtbot)
    views.host = views.settings_bar
    views.corpus_combo = QComboBox(views.host)
    views.corpus_combo.addItem("demo")
    host, state = Trains(), TrainState()
    choice = CorpusChoice(
        host,
        SimpleNamespace(),  # no settings: nothing remembered
        state,
        views,
        sample_changed=lambda: host.log.append("sample"),
        corpus_changed=lambda: host.log.append("corpus"),
    )
    pasted = CorpusSource.paste("low lower\n한국어 문장\n")
    choice.set_source(pasted)
    assert host.source is pasted and views.corpus_combo.currentIndex() == 1 and state.corpus == pasted.label
    assert host.log == ["forget", "sample", "redraw", "corpus"] and sorted(choice.lines) == ["low lower", "한국어 문장"]
    views.hangul_check.setChecked(True)  # no run on screen: the sample is picked again at once
    choice.on_hangul_only_toggled(True)
    assert choice.lines == ["한국어 문장"] and not choice.sample_is_stale()


class Recorded:
    """Three recorded merges of the naive trainer, shown at step 3."""

    def __init__(self) -> None:
        config = TrainerConfig(mode="byte", merges=3, pattern="gpt4")
        events = NaiveTrainer(config).run(TEXT.splitlines(keepends=True), total_bytes=len(TEXT.encode()))
        self.replay = MergeReplay("byte", "gpt4")
        self.replay.add([e for e in events if isinstance(e, MergeStep)])
        self.cursor, self.sample_lines, self.dark, self.banners = 3, TEXT.splitlines()[:2], False, []

    def banner_html(self, step: int, big: float | None = None) -> str:
        self.banners.append(step)
        return f"<b>merge {step}</b>"


def test_steps_are_exported_as_an_animation_with_one_banner_a_frame_and_the_message_says_so(qtbot, host, tmp_path):
    messages = Messages()
    cancel = QAction(host)
    views = SimpleNamespace(
        host=host, merge_banner=QLabel(host), sample_view=TokenLinesView(host), message=messages,
        cancel_export_action=cancel,
    )  # fmt: skip
    steps = Recorded()
    slides = SlideExport(steps, views, host.work)
    export = slides.export_animation(tmp_path / "steps.gif", 2, 3, size=(320, 180))
    assert cancel.isEnabled()  # while it is written, it can be cancelled
    qtbot.waitUntil(lambda: export.done, timeout=10_000)
    assert steps.banners == [2, 3] and (tmp_path / "steps.gif").stat().st_size > 0
    assert messages.said[-1] == "Saved steps.gif." and not cancel.isEnabled()


def test_choosing_unigram_hides_bpes_views_and_choosing_bpe_again_gives_its_options_back(host):
    work = host.work
    views = TrainViews(host, "demo", work=work, dark=False)
    session = SimpleNamespace(work=work)
    bpe = Trains()  # the panel's source, sample lines and its own reset
    bpe.sample_lines = ["low lower"]
    bpe.reset = lambda: bpe.log.append("bpe reset")
    model_at_step = ModelAtStep(RunOnScreen(), session, views, buttons_again=lambda: None)
    algorithms = AlgorithmTraining(
        bpe, session, TrainState(), views, model_at_step, pattern_follows_mode=lambda: bpe.log.append("pattern")
    )
    bpe.log.clear()
    algorithms.set_algorithm("unigram")
    assert algorithms.active() and bpe.log == ["bpe reset"]  # BPE's run goes with the choice
    assert not views.mode_combo.isEnabled() and views.merge_banner.isHidden() and not algorithms.vocab_spin.isHidden()
    assert views.step_label.text() == "step 0 / 0" and not views.save_button.isEnabled()
    algorithms.set_algorithm("bpe")
    assert bpe.log == ["bpe reset", "bpe reset", "pattern"] and views.mode_combo.isEnabled()
    assert not views.merge_banner.isHidden() and algorithms.vocab_spin.isHidden()


PARTS = [
    algorithms_module,
    animation_export,
    corpus_choice,
    frames,
    model_at_step,
    model_save,
    options_view,
    recording,
    render,
]


@pytest.mark.parametrize("module", PARTS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_a_part_of_the_train_panel_is_given_what_it_declares_never_the_whole_panel(module):
    # a part that kept the panel could read anything of it: its constructor's parameters (a protocol,
    # the state, the views, a callback) are the whole of its coupling
    tree = ast.parse(inspect.getsource(module))
    params = {a.arg for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.Lambda) for a in f.args.args}
    assert "panel" not in params
    held = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert "panel" not in held
    # nor a reach into another object's private attributes (its own ``self._x`` is its business)
    private = [
        ast.unparse(n)
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute)
        and n.attr.startswith("_")
        and not n.attr.startswith("__")
        and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))
    ]
    assert private == []


def test_the_step_renderer_reads_the_runs_recording_which_a_reset_empties(qtbot):
    """The renderer is given the run's recording, never the panel; a reset empties it (no merges, no
    trainer, no numbers for the plots)."""
    from tokviz.ui.session import Session
    from tokviz.ui.settings import Settings
    from tokviz.ui.train.panel import TrainPanel

    panel = TrainPanel(Session(settings=Settings.ephemeral()))
    qtbot.addWidget(panel)
    assert panel.renderer.on_screen is panel.recording
    panel.trainer_factory = NaiveTrainer
    panel.set_source(CorpusSource.paste(TEXT))
    panel.merges_spin.setValue(5)
    panel.start_training()
    qtbot.waitUntil(lambda: panel.run is None and panel.replay is not None and len(panel.replay) == 5, timeout=20_000)
    assert panel.recording.series.n == 5 and panel.recording.trainer is not None
    panel.reset()
    assert panel.recording.replay is None and panel.recording.trainer is None and panel.recording.series.n == 0
