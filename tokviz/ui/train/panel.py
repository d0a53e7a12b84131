"""The Train panel: watch tokviz's BPE learn, merge by merge.

The core trainer runs in a child process (``tokviz.core.training.process``: its own
interpreter, so its work never holds this process's GIL while the GUI paints); a worker thread
(:mod:`tokviz.ui.train.worker`) streams the corpus to it, takes its events and sends the MergeSteps
to the panel in batches by time. The panel records them and shows any recorded step: an animation
plays them at the chosen speed from ONE frame timer, the scrubber and the Step button jump to a step
(the cursor, pace and target are plain Python in :mod:`tokviz.ui.train.state`), and every view is
redrawn from that timer for the current step (:mod:`tokviz.ui.train.render`) by replaying recorded
events (:mod:`tokviz.ui.train_replay`), never by retraining.

Who owns what. The panel wires: it holds the run (the worker, the recording, the trainer), handles the
transport (train, pause, step, run to end, cancel, reset) and the worker's events, connects the widgets'
signals to those intents and implements the Panel protocol. Its parts, each an object it owns:

* :class:`~tokviz.ui.train.model.TrainState` (model.py): the truth - options, run state, playback;
* :class:`~tokviz.ui.train.views.TrainViews` (views.py): builds and owns the widgets and their layout;
* :class:`~tokviz.ui.train.render.StepRenderer` (render.py): draws one snapshot into the views, "why
  this pair" through :class:`~tokviz.ui.train.why_pair.WhyPairView`;
* :class:`~tokviz.ui.train.follow.StepFollower` (follow.py): computes the lecture facts off the GUI
  thread (the corpus read again, each step's followed lines and runners-up);
* :class:`~tokviz.ui.train.frames.FrameScheduler` (frames.py): the one frame timer;
* the corpus and settings (corpus_choice.py), the model at the step on screen (model_at_step.py), the
  Export menu (animation_export.py), WordPiece and Unigram (algorithms.py).

No part is given the panel itself: each is given the model, the views, the work service or a callback it
needs, and reads the run through a Protocol of its module naming exactly what it reads. The step renderer
reads the run's recording (:class:`~tokviz.ui.train.recording.RunRecording`, its ``RunOnScreen``); the
panel implements the others (``Animated``, ``RunAtStep``, ``CorpusHost``, ``RecordedSteps``, ``BpeHost``).

The widgets stay readable as the panel's attributes (``panel.mode_combo``: see ``views.WIDGETS``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from operator import attrgetter
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QWidget

from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.training import Finished, Progress
from tokviz.ui import theme
from tokviz.ui.common.panel import PanelAction
from tokviz.ui.i18n import follow_language
from tokviz.ui.train.algorithms import AlgorithmTraining
from tokviz.ui.train.animation_export import SlideExport
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.corpus_choice import CorpusChoice
from tokviz.ui.train.follow import StepFollower
from tokviz.ui.train.frames import FrameScheduler
from tokviz.ui.train.model import TrainState
from tokviz.ui.train.model_at_step import ModelAtStep
from tokviz.ui.train.options_view import OptionsView
from tokviz.ui.train.recording import RunRecording
from tokviz.ui.train.render import StepRenderer
from tokviz.ui.train.run_events import RunHandlers, attach, detach
from tokviz.ui.train.state import Playback
from tokviz.ui.train.views import DEFAULT_SPEED, SPEEDS, WIDGETS, TrainViews, speed_index
from tokviz.ui.train.vocab import token_length
from tokviz.ui.train.why_pair import WhyPairView
from tokviz.ui.train.worker import TrainRun

# the translation contexts of the panel's strings (its views, the algorithm view, the corpus and paste dialogs)
TRAIN_CONTEXTS = (
    "TrainPanel",
    "TrainPlots",
    "VocabModel",
    "MergeTreeView",
    "LatticeView",
    "LatticeCanvas",
    "AlgorithmView",
    "AlgorithmPlots",
    "AlgorithmTraining",
    "ModelSave",
    "CorpusSource",
    "PasteDialog",
    "MessageBar",
    "StepText",
    "DropoutView",
)


def default_trainer_factory(config: TrainerConfig):
    """tokviz's own BPE trainer, run in a child process so that the GUI process's GIL stays free
    for painting (see ``tokviz.core.training.process``; imported late: the panel opens even
    before a first run)."""
    from tokviz.core.training.factory import make_trainer
    from tokviz.core.training.process import ProcessTrainer

    return ProcessTrainer(make_trainer("bpe", config))


def _load_trainer_modules() -> None:
    import tokviz.core.training.process  # noqa: F401  (cached in sys.modules for the first run)


def _recorded(name: str) -> property:
    return property(
        lambda self: getattr(self.recording, name), lambda self, value: setattr(self.recording, name, value)
    )


class TrainPanel(QWidget):
    """Train BPE on a corpus and watch every merge (see the module docstring for the data flow)."""

    # the playback state's fields, as the panel's own (scripts and tests read them here)
    cursor = property(lambda self: self.playback.cursor, lambda self, v: setattr(self.playback, "cursor", v))
    playing = property(lambda self: self.playback.playing, lambda self, v: setattr(self.playback, "playing", v))
    fast_forward = property(
        lambda self: self.playback.fast_forward, lambda self, v: setattr(self.playback, "fast_forward", v)
    )

    # the run on screen's recording (see RunRecording), as the panel's own fields
    replay = _recorded("replay")
    config = _recorded("config")
    finished = _recorded("finished")
    trainer = _recorded("trainer")
    run_jamo = _recorded("run_jamo")
    series = _recorded("series")

    def __init__(self, session, parent: QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.trainer_factory: Callable[[TrainerConfig], object] = default_trainer_factory
        self.source = CorpusSource.demo()
        self.sources: list[CorpusSource] = [self.source]
        self.run: TrainRun | None = None
        # the run on screen as recorded (its merges, settings, trainer, the plots' numbers): what the
        # step renderer reads; ``panel.replay`` and the like are its fields
        self.recording = RunRecording(self.computing, lambda then: self.model_at_step.model_later(then))
        self.state = TrainState(pace=SPEEDS[DEFAULT_SPEED][1])  # the panel's truth (Qt-free)
        self.playback: Playback = self.state.playback  # the step on screen, playing, pace
        self._gc_hold = None  # the collector's hold on full collections while a run trains (see start_training)
        self._speed_before_auto: int | None = None  # the user's speed while presentation mode plays
        self._worker_quiet = True  # the trainer is suspended (paused at a step, finished or no run)
        self._make_parts(session)
        # the corpus is read for the lecture views while the app idles (see StepFollower): shortly
        # after the corpus or a setting that changes its words changes, not at every click
        self.facts_timer = QTimer(self)
        self.facts_timer.setSingleShot(True)
        self.facts_timer.setInterval(400)
        self.facts_timer.timeout.connect(self.prefetch_corpus_facts)
        for changed in (
            self.mode_combo.currentIndexChanged,
            self.pattern_combo.currentIndexChanged,
            self.hangul_check.toggled,
            self.jamo_check.toggled,
            self.corpus_combo.currentIndexChanged,
        ):
            changed.connect(self.facts_timer.start)
        self.facts_timer.start()
        self.merges_spin.valueChanged.connect(self._preset_plots)
        self.mode_combo.currentIndexChanged.connect(self._preset_plots)
        self._preset_plots()
        # the trainer's modules load while the app idles, not when ▶ Train is pressed (a 5-20 ms
        # part of the run's first frame; compiling them after an update took longer still)
        QTimer.singleShot(2000, _load_trainer_modules)
        if hasattr(session, "themeChanged"):
            session.themeChanged.connect(self.renderer.apply_theme)
        if hasattr(session, "fontScaleChanged"):
            session.fontScaleChanged.connect(lambda _scale: self._apply_fonts())
        self._apply_fonts()
        self.corpus.offer_last_corpus()
        self._restore_choices()
        self.corpus.load_sample()
        self._update_buttons()
        self.redraw()
        follow_language(self, TRAIN_CONTEXTS, then=self.recompose_texts)

    def _make_parts(self, session) -> None:
        """The panel's parts, each given what it declares it needs (the panel, where it implements a part's
        Protocol; the model, the views, the work service, a callback)."""
        # the lecture facts: the run's corpus read again, each step's followed lines and runners-up
        self.follower = StepFollower(
            self.playback,
            session.work.channel(self, "corpus"),
            session.work.channel(self, "step"),
            facts_read=lambda facts: self.renderer.name_characters(facts.guesser),
            step_computed=lambda step: self.renderer.step_facts_arrived(step),
        )
        # the one frame timer: every view drawn from one snapshot
        self.frames = FrameScheduler(self, self.state.snapshot, self)
        self.frame_timer = self.frames.timer
        dark = theme.is_dark()
        self.views = TrainViews(self, self.source.label, work=session.work, dark=dark)  # the widgets
        # the frame's drawing: every view at the step on screen ("why this pair" is a view of its own)
        why = WhyPairView(self.views.why_label)
        run = self.recording
        self.renderer = StepRenderer(self.views, self.playback, run, self.follower, why, self.frames, dark=dark)
        # the model at the step on screen, offered to the other panels and saved
        self.model_at_step = ModelAtStep(self, session, self.views, buttons_again=self._buttons_again)
        self.offer_timer = self.model_at_step.timer
        # the corpus picker, the trainer settings and the sample lines (the corpus read again for the lecture
        # views shortly after it changes)
        self.corpus = CorpusChoice(
            self,
            session,
            self.state,
            self.views,
            sample_changed=self.renderer.sample_changed,
            corpus_changed=lambda: self.facts_timer.start(),
        )
        self.recording.corpus = self.corpus
        self.slides = SlideExport(self, self.views, session.work)  # the Export menu's image and animation
        self._wire_views()
        self.corpus.on_mode()
        # WordPiece and Unigram take the transport when chosen
        self.algorithms = AlgorithmTraining(
            self, session, self.state, self.views, self.model_at_step, pattern_follows_mode=self.corpus.on_mode
        )
        self.options_view = OptionsView(self.state, self.views, self.algorithms, unlocked=self.corpus.on_mode)
        self.algorithms.algorithm_combo.currentIndexChanged.connect(self.options_view.send)

    def _wire_views(self) -> None:
        """The views' widgets to what they ask for: the corpus choice, the transport, the export, the
        step renderer's views (the table's row, the probe, the sample's scrolling)."""
        v = self.views
        v.corpus_combo.activated.connect(self.corpus.on_corpus_chosen)
        v.open_button.clicked.connect(self.corpus.ask_file)
        v.paste_button.clicked.connect(self.corpus.ask_paste)
        v.mode_combo.currentIndexChanged.connect(self.corpus.on_mode)
        v.hangul_check.toggled.connect(self.corpus.on_hangul_only_toggled)
        v.image_action.triggered.connect(lambda: self.slides.ask_image())
        v.animation_action.triggered.connect(lambda: self.slides.ask_animation())
        v.cancel_export_action.triggered.connect(lambda: self.slides.cancel_export())
        v.train_button.clicked.connect(self.train_or_play)
        v.pause_button.clicked.connect(self.pause)
        v.step_button.clicked.connect(self.step)
        v.end_button.clicked.connect(self.run_to_end)
        v.cancel_button.clicked.connect(self.cancel)
        v.reset_button.clicked.connect(lambda: self.reset())
        v.scrubber.valueChanged.connect(self._on_scrub)
        v.speed_combo.currentIndexChanged.connect(self._on_speed)
        r = self.renderer
        v.probe_edit.textChanged.connect(lambda _=None: r.probe_timer.start())
        v.probe_dropout.title.toggled.connect(lambda _on: r.sync_probe_dropout())
        v.vocab_view.selectionModel().currentRowChanged.connect(r.on_vocab_row)
        v.sample_view.verticalScrollBar().valueChanged.connect(r.on_sample_scrolled)

    def _apply_fonts(self) -> None:
        """The layout and fonts for the window's zoom (Ctrl +/-, presentation mode)."""
        window = self.window()
        presenting = bool(getattr(window, "presentation", False)) and window is not self
        self.views.set_presentation(presenting)
        self.renderer.apply_fonts(presenting)

    # ================================================================ transport
    def train_or_play(self) -> None:
        """Train (a new run), or continue playing a paused animation / run."""
        if self.algorithms.active():
            return self.algorithms.play()
        if (
            self.replay is not None
            and not self.state.stale()
            and self.playback.can_play_on(len(self.replay), self.run is not None)
        ):
            self.playback.play()
            if self.run is not None:
                self.run.worker.resume()
                self._worker_quiet = False
            self._ensure_timer()
            self._update_buttons()
            return
        self.start_training()

    def auto_play(self, pace: float) -> bool:
        """Presentation mode: play at ``pace`` merges per second, hands-free.

        With nothing trained yet, a run starts on the current corpus; a paused run or animation
        goes on; a finished recording shown at its end plays again from step 0 (no retraining).
        The speed box shows the pace and can still be changed; :meth:`stop_auto_play` gives the
        user's own speed back.
        """
        if self.algorithms.active():
            self.algorithms.auto_play(pace)
            return True
        index = speed_index(pace)
        if self._speed_before_auto is None:
            self._speed_before_auto = self.speed_combo.currentIndex()
        self.speed_combo.setCurrentIndex(index)
        self.fast_forward = False
        if self.replay is not None and self.run is None and self.cursor >= len(self.replay) > 0:
            self.set_step(0)
        self.train_or_play()
        return True

    def stop_auto_play(self) -> None:
        """Leaving presentation mode: back to the speed the user had chosen (playing goes on)."""
        self.algorithms.stop_auto_play()
        if self._speed_before_auto is not None:
            self.speed_combo.setCurrentIndex(self._speed_before_auto)
            self._speed_before_auto = None

    def _preset_plots(self, *_args) -> None:
        """Between runs the plots take the next run's merge count and length unit as they are set:
        the run's first frame then has no axis to regenerate (~25 ms of painting at ▶ Train)."""
        if self.replay is None:
            self.plots.set_step_range(self.merges_spin.value())
            self.plots.set_length_unit("chars" if self.mode_combo.currentData() == "char" else "bytes")

    def start_training(self, source: CorpusSource | None = None) -> None:
        """Start a new run on ``source`` (default: the current corpus) with the current settings."""
        if source is not None:
            self.source = source
            self.sources[self.corpus_combo.currentIndex()] = source
        if self.algorithms.active():
            return self.algorithms.start()
        self._stop_run()
        self.reset(draw=False)  # step 0 of the run is drawn below: a frame of the empty panel first cost ~30 ms
        self.message.clear()
        config = self.corpus.current_config()
        self.run_jamo = self.jamo_check.isChecked()  # the sample, probe and model then read jamo too
        if self.run_jamo:
            config = replace(config, jamo=True)  # the trainer decomposes the distinct words it counts
        try:
            trainer = self.trainer_factory(config)
        except Exception as err:  # noqa: BLE001 — shown in the window, the app keeps working
            self.message.show_message(self.tr("Cannot start training: {err}").format(err=err), "error")
            return
        self.recording.begin(config, trainer, self.run_jamo)
        self.state.start_run()
        self.vocab_model.reset(self.replay.steps, config.mode)
        self.plots.set_length_unit("chars" if config.mode == "char" else "bytes")
        self.plots.set_step_range(config.merges)
        source_now = self.source

        def make_events(cancel):
            return trainer.run(source_now.lines(), cancel=cancel, total_bytes=source_now.total_bytes)

        run = TrainRun(make_events, self, work=self.session.work)
        attach(
            run,
            RunHandlers(
                self._on_batch,
                self._on_progress,
                self._on_failed,
                self._on_finished,
                noted=self._on_note,
                waiting=self._on_waiting,
            ),
        )
        self.run = run
        self.playing = True
        self.progress_bar.setValue(0)
        self.progress_bar.show()
        self._update_buttons()
        # Show and paint step 0 in full BEFORE the worker starts. A trainer counting in the worker
        # thread (an injected one; the default trains in a child process) holds the GIL in
        # str.split/Counter.update calls of ~15 ms each, and every Python override a repaint calls
        # (pyqtgraph's paint/boundingRect, the sample view's paintEvent) waits for one: the first
        # repaint of a run took 700-900 ms there, 40 ms here. With the training process the
        # worker only streams corpus lines, in short GIL holds, but the paint still comes first.
        self.renderer.invalidate()  # step 0 of the run, not of the empty panel

        def begin() -> None:  # step 0 is on screen
            if self.run is not run:
                return  # cancelled or replaced while step 0 was prepared
            self._paint_now()
            self._analyse_corpus(config, source_now)  # after the paint: its reading thread holds the GIL
            self._worker_quiet = False
            # A full (generation 2) garbage collection walks every object of the app - Qt wrappers,
            # pyqtgraph, the other panels' encoders - and holds the GIL 60-115 ms while a run's
            # allocations (events received, the replay; an in-thread trainer's counting) trigger it.
            # Held off until the run ends (_release_gc); the young generations are still collected.
            if self._gc_hold is None:
                self._gc_hold = self.session.work.hold_full_collections()
            run.start()
            self._ensure_timer()

        # the worker is still quiet: every view follows step 0 on this frame, prepared in slices (the
        # sample's lines split into bytes cost ~60 ms of the click's turn)
        self.frames.draw_prepared(begin)

    def _paint_now(self) -> None:
        """Paint the panel's pending changes now instead of from a later event-loop pass: the
        plots' scene updates and layout requests are queued events, flushed here so that the
        window's update request paints them. A pyqtgraph paint can ask for another one (auto-range
        and axis text sizes settle while painting), so the follow-up requests are served here too."""
        if not self.isVisible():
            return
        scene = self.plots.scene()

        def flush() -> None:
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            QCoreApplication.sendPostedEvents(scene, QEvent.Type.MetaCall)
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

        for _ in range(3):
            flush()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.UpdateRequest)  # paints only what is dirty

    def pause(self) -> None:
        """Stop the animation and the trainer where they are (the worker blocks between merges)."""
        if self.algorithms.active():
            return self.algorithms.pause()
        self.playback.pause()
        if self.run is not None:
            self.run.worker.pause()
        self._update_buttons()
        self.model_at_step.request()

    def step(self) -> None:
        """One merge forward: from the recording when it is ahead, else ask the trainer for one more."""
        if self.algorithms.active():
            return self.algorithms.step()
        if self.replay is None:
            self.playback.pause()
            return
        if self.playback.step_forward(len(self.replay)):
            self.set_step(self.cursor)
        elif self.run is not None:
            self.run.worker.pause()
            self.run.worker.step_once()
            self._worker_quiet = False
            self._ensure_timer()
        self._update_buttons()

    def run_to_end(self) -> None:
        """Show the last step and keep following the trainer as fast as it goes."""
        if self.algorithms.active():
            return self.algorithms.run_to_end()
        if self.replay is None:
            self.start_training()
        self.playback.play(fast=True)
        if self.run is not None:
            self.run.worker.resume()
            self._worker_quiet = False
        self._ensure_timer()
        self._update_buttons()

    def cancel(self) -> None:
        """Stop the trainer; what it learned so far stays (playable, scrubbable, savable)."""
        if self.algorithms.active():
            return self.algorithms.cancel()
        if self.run is not None:
            self._stop_run()
            self.state.finish("cancelled")
            self.finished = Finished("cancelled", len(self.replay or ()), self.tr("Training cancelled."))
            self.step_label.setToolTip(self.tr("cancelled"))
        # a playing animation goes on to the last merge learned; the trainer is gone
        self.frames.request()
        self._update_buttons()
        self.model_at_step.request()

    def reset(self, *, draw: bool = True) -> None:
        """Forget the run: stop the trainer, clear every view and withdraw the model offered to the
        other panels (it belonged to the run that is gone). ``draw=False``: the caller draws the next
        frame itself."""
        if getattr(self, "algorithms", None) is not None and self.algorithms.active():
            return self.algorithms.reset()
        self._stop_run()
        self.model_at_step.withdraw()
        self.frames.stop()  # nothing left to animate
        self.recording.forget()
        self.state.reset()
        self.vocab_model.reset([], self.mode_combo.currentData())
        self.plots.clear_data()
        self.renderer.forget_run()
        self.follower.forget_run()
        if hasattr(self, "facts_timer"):
            self.facts_timer.start()
        if self.corpus.sample_is_stale():
            # Hangul-only was toggled during the run: the next run must not show lines it blanks
            self.corpus.load_sample()
        self.progress_bar.hide()
        self.scrubber.blockSignals(True)
        self.scrubber.setRange(0, 0)
        self.scrubber.blockSignals(False)
        if draw:
            self.redraw()
        self._update_buttons()

    def set_step(self, step: int) -> None:
        """Show recorded step ``step`` (0 = before any merge)."""
        self.playback.seek(step, len(self.replay) if self.replay is not None else 0)
        self.redraw()
        self.model_at_step.request()

    def _on_scrub(self, value: int) -> None:
        self.playback.pause()
        self.set_step(value)
        self._update_buttons()

    def forget_run(self) -> None:
        """Stop the run and clear every view (another corpus comes)."""
        self._stop_run()
        self.reset()

    def _stop_run(self) -> None:
        run = self.run
        if run is None:
            return
        self.run = None
        detach(run)
        run.stop(1.0)
        self._release_gc()
        self._worker_quiet = True
        self.progress_bar.hide()

    def _release_gc(self) -> None:
        """Let full garbage collections run again (held off while the run trained)."""
        if self._gc_hold is not None:
            self._gc_hold.release()
            self._gc_hold = None

    def recompose_texts(self) -> None:
        """After a language change (the widgets' fixed strings are already retranslated): what the panel
        composes - the buttons, the table's headers, the banner, "why this pair", the sample - drawn anew."""
        self._update_buttons()
        header = self.vocab_model.columnCount() - 1
        self.vocab_model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, header)
        self.tree_view.update()  # it paints its own captions
        self.plots.retranslate()
        if self.replay is not None and self.renderer.selected_token is not None:
            self.select_token(self.renderer.selected_token)  # the tree's title
        self.probe_dropout.recompute()  # its summary line (nothing while it has no model)
        if self.algorithms.active():
            self.algorithms.render()
        self.renderer.invalidate()  # the heavy views compose their titles too
        self.redraw()

    def shutdown(self) -> None:
        """Called when the window closes: stop the worker within a second."""
        self._remember()
        self.frame_timer.stop()
        self.offer_timer.stop()
        self.facts_timer.stop()
        self._stop_run()
        self.algorithms.shutdown()
        self.follower.close()
        self.probe_dropout.shutdown()

    def _update_buttons(self) -> None:
        has_run = self.run is not None
        has_steps = self.replay is not None and len(self.replay) > 0
        paused = self.replay is not None and not self.playing
        self.train_button.setText(
            self.tr("▶ Play")
            if (paused and (has_run or (has_steps and self.cursor < len(self.replay))))
            else self.tr("▶ Train")
        )
        self.train_button.setEnabled(not self.playing)
        self.pause_button.setEnabled(self.playing)
        self.step_button.setEnabled(has_run or (has_steps and self.cursor < len(self.replay)))
        self.end_button.setEnabled(has_run or (has_steps and self.cursor < len(self.replay)) or self.replay is None)
        self.cancel_button.setEnabled(has_run)
        self.reset_button.setEnabled(self.replay is not None)
        self.save_button.setEnabled(has_steps and self.trainer is not None and not self.model_at_step.saver.saving)
        self.renderer.sync_probe_dropout()  # paused or finished: the dropout view follows the step on screen

    def _buttons_again(self) -> None:
        """A save ended: the Save button follows the transport's rules again."""
        if self.algorithms.active():
            self.algorithms.update_buttons()
        else:
            self._update_buttons()

    # ================================================================ remembered between sessions
    def _restore_choices(self) -> None:
        """The corpus file, algorithm and mode of the last session come back."""
        settings = self.corpus.settings()
        if settings is None:
            return
        saved = {"algorithm": settings.train_algorithm, "mode": settings.train_mode}
        if settings.last_corpus and Path(settings.last_corpus).is_file():
            saved["corpus"] = str(Path(settings.last_corpus).resolve())
        self.state.restore(saved)
        self.options_view.show(self.state.options)
        self.algorithms.set_algorithm(self.state.options.algorithm)
        self.corpus.on_mode()
        if self.state.corpus != "demo":
            self.set_source(CorpusSource.file(self.state.corpus))

    def _remember(self) -> None:
        """Kept for the next start, as the window keeps its geometry: when it closes."""
        settings = self.corpus.settings()
        if settings is None:
            return
        options = self.state.options
        if (settings.train_mode, settings.train_algorithm) != (options.mode, options.algorithm):
            settings.train_mode = options.mode
            settings.train_algorithm = options.algorithm

    # ================================================================ worker events
    def _on_batch(self, steps: list) -> None:
        if self.replay is None or not steps:
            return
        if steps[0].step != len(self.replay) + 1:
            # sent by a run stopped before the one on screen started (its signal was already queued)
            return
        self.progress_bar.hide()
        self.replay.add(steps)
        self.state.set_recorded(len(self.replay))
        mode = self.replay.mode
        self.series.add(steps, [token_length(s, mode) for s in steps])
        self.scrubber.blockSignals(True)
        self.scrubber.setMaximum(len(self.replay))
        self.scrubber.blockSignals(False)
        self.frames.dirty = True

    def _on_progress(self, progress: Progress) -> None:
        if progress.total:
            self.progress_bar.setMaximum(1000)
            self.progress_bar.setValue(int(1000 * min(progress.done, progress.total) / progress.total))
        else:
            self.progress_bar.setMaximum(0)  # busy indicator when the size is unknown
        phase = {"counting": self.tr("counting"), "indexing": self.tr("indexing")}.get(progress.phase, progress.phase)
        self.progress_bar.setFormat(self.tr("{phase}… %p%").format(phase=phase))

    def _on_failed(self, message: str, invalid_utf8: bool) -> None:
        if invalid_utf8 and self.source.errors == "strict":
            self.message.show_message(
                message + "\n" + self.tr("You can train anyway with each invalid byte replaced by U+FFFD."),
                "error",
                self.tr("Replace invalid bytes and train"),
                lambda: self.start_training(self.source.with_replacement()),
            )
        else:
            self.message.show_message(message, "error")

    def _on_note(self, text: str) -> None:
        self.message.show_message(text, "info")

    def _on_waiting(self, merges: int) -> None:
        self._worker_quiet = True
        self.renderer.invalidate("sample")  # its lines out of sight waited for the trainer to rest
        self.frames.request()
        self.model_at_step.trainer_rested()

    def _on_finished(self, finished: Finished, ok: bool = True) -> None:
        run = self.run
        self.run = None
        if run is not None:
            run.thread.wait(1000)
        self._release_gc()
        self._worker_quiet = True
        self.progress_bar.hide()
        self.state.finish("finished" if ok else "failed")
        self.renderer.invalidate("sample")  # its lines out of sight waited for the trainer to rest
        if not ok:  # failed: the message is already shown
            self.playing = False
        else:
            self.finished = finished
            if finished.reason in ("min_frequency", "exhausted") and finished.message:
                self.step_label.setToolTip(finished.message)
        self.frames.request()
        self._update_buttons()
        self.model_at_step.trainer_rested()
        self.model_at_step.request()

    # ================================================================ the one frame timer
    def _ensure_timer(self) -> None:
        self.frames.wake()

    def frame_tick(self, dt: float) -> bool:
        """The playback's move for a frame ``dt`` seconds after the last; True when the step moved."""
        n = len(self.replay) if self.replay is not None else 0
        self.playback.pace = SPEEDS[self.speed_combo.currentIndex()][1]
        moved = self.playback.advance(dt, n)
        if moved == "target":
            self.model_at_step.request()
        if self.playing and self.playback.finished(n, self.run is not None):
            self.playback.pause()
            self._update_buttons()
            self.model_at_step.request()
        return moved is not None

    # ================================================================ read back (tests, screenshots)
    def redraw(self) -> None:
        """Draw a frame now from the model (instead of at the next tick)."""
        self.frames.draw_now()

    def segment_probe(self) -> None:
        """Segment the probe's text now (instead of after typing settles)."""
        self.renderer.draw_probe()

    @property
    def probe_timer(self) -> QTimer:
        """The probe's typing debounce (running: the text typed is not segmented yet)."""
        return self.renderer.probe_timer

    # ================================================================ drawn by the renderer
    def draw_frame(self, snapshot, full: bool = True) -> None:
        """Every view at ``snapshot.step`` (the frame scheduler calls it; see StepRenderer.draw_frame)."""
        self.renderer.draw_frame(snapshot, full)

    def prepare_frame(self):
        """The next frame's computing, in slices (see StepRenderer.prepare_frame)."""
        return self.renderer.prepare_frame()

    def shown_steps(self) -> dict[str, int | None]:
        """The step each view displays, read back from what it shows (see StepRenderer.shown_steps)."""
        return self.renderer.shown_steps()

    def select_token(self, token_id: int) -> None:
        """Show the merge tree of ``token_id`` (as of the step on screen)."""
        self.renderer.select_token(token_id)

    def banner_html(self, step: int, big: float | None = None) -> str:
        """The merge banner of ``step`` as rich text (see StepRenderer.banner_html)."""
        return self.renderer.banner_html(step, big)

    def set_source(self, source: CorpusSource) -> None:
        """Switch corpus: a run in progress is stopped cleanly and the views are cleared."""
        self.corpus.set_source(source)

    def open_corpus_file(self, path: str | Path) -> None:
        """Train on the text file ``path`` from now on, and remember it for the next start."""
        self.corpus.open_file(path)

    @property
    def dark(self) -> bool:
        """The views are drawn in a dark theme's colours."""
        return self.renderer.dark

    @property
    def sample_lines(self) -> list[str]:
        """The corpus lines the sample view shows."""
        return list(self.corpus.lines)

    def save_view_image(self, path: str | Path) -> Path:
        """The panel as a PNG at presentation scale (sharp on a slide), written atomically."""
        return self.slides.save_view_image(path)

    def export_animation(self, path: str | Path, first: int, last: int, **options):
        """Start exporting steps ``first``..``last`` to ``path``; returns the running export."""
        return self.slides.export_animation(path, first, last, **options)

    def cancel_export(self) -> None:
        self.slides.cancel_export()

    def offer_model_now(self) -> None:
        """Offer the model at the step on screen to the other panels now (when the trainer rests)."""
        self.model_at_step.offer_now()

    def current_model(self):
        """The trained model at the step on screen (None before any merge)."""
        return self.model_at_step.current_model()

    def model_later(self, then) -> None:
        """Call ``then(model)`` with the model at the step on screen once built off the GUI thread."""
        self.model_at_step.model_later(then)

    def formats_for_mode(self) -> list[tuple[str, str]]:
        """The export formats that hold this run's mode."""
        return self.model_at_step.formats_for_mode()

    def save_model_to(self, path: str, fmt: str) -> None:
        """Save the model at the step on screen in the background (the message area says how it went)."""
        return self.model_at_step.save_to(path, fmt)

    @property
    def corpus_facts(self):
        """What was read of the run's corpus for the lecture views (None until read)."""
        return self.follower.facts

    @property
    def prefetched_facts(self):
        """The corpus facts read while idle for the settings on screen (None while being read)."""
        return self.follower.ready_facts

    @property
    def step_facts(self):
        """The followed lines and runners-up last computed (for :attr:`StepFacts.step`)."""
        return self.follower.step_facts

    def asked_step(self) -> int:
        """The last step whose followed lines and runners-up were asked of the worker."""
        return self.follower.asked_step

    # ================================================================ the lecture facts
    def prefetch_corpus_facts(self) -> None:
        """Between runs: read the corpus for the next run's lecture views, with the settings on screen."""
        if self.run is not None or self.replay is not None or self.algorithms.active():
            return
        jamo = self.jamo_check.isChecked()
        self.follower.prefetch(replace(self.corpus.current_config(), jamo=jamo), self.source, jamo)

    def _analyse_corpus(self, config: TrainerConfig, source) -> None:
        """The run that begins gets its corpus facts (read while the app idled, under way, or now);
        until they come, the tree and table name no characters."""
        self.renderer.begin_run(config.mode)
        self.follower.begin_run(config, source, self.run_jamo)

    def lecture_views_ready(self) -> bool:
        """Whether "why this pair" and the followed lines show the step on screen (or have nothing to
        show): what a screenshot waits for, since they arrive from a worker."""
        if self.algorithms.active() or self.replay is None or self.cursor == 0 or self.playing:
            return True
        return self.follower.facts_of(self.cursor) is not None

    def followed_lines(self) -> list[str]:
        """The corpus lines that show the merge on screen (empty until the worker found them)."""
        return self.follower.followed_lines(self.cursor)

    def _on_speed(self, index: int) -> None:
        self.playback.pace = SPEEDS[index][1]  # at once: what the views follow depends on it

    def computing(self) -> bool:
        """The trainer is working (not paused at a step, finished or absent)."""
        return self.run is not None and not self._worker_quiet

    def following_at_full_speed(self) -> bool:
        return self.fast_forward or SPEEDS[self.speed_combo.currentIndex()][1] is None

    def nothing_to_animate(self) -> bool:
        n = len(self.replay) if self.replay is not None else 0
        return self.playback.finished(n, self.run is not None)

    # ================================================================ the Panel protocol
    def menu_actions(self) -> list[PanelAction | None]:
        # the menu's words belong to the main window's translations
        return [
            PanelAction(
                "open",
                QCoreApplication.translate("MainWindow", "&Open corpus…"),
                shortcuts=("Ctrl+O",),
                button=self.open_button,
            ),
            PanelAction("paste", QCoreApplication.translate("MainWindow", "&Paste corpus…"), button=self.paste_button),
            None,
            # F5, not Space: Space belongs to the focused button, check box or text field.
            PanelAction(
                "play", QCoreApplication.translate("MainWindow", "&Train / Pause"), self.train_or_pause, ("F5",)
            ),
            PanelAction(
                "step",
                QCoreApplication.translate("MainWindow", "&Step"),
                shortcuts=("F10", "."),
                button=self.step_button,
            ),
            PanelAction(
                "end",
                QCoreApplication.translate("MainWindow", "&Run to end"),
                shortcuts=("Ctrl+F5",),
                button=self.end_button,
            ),
            PanelAction(
                "cancel",
                QCoreApplication.translate("MainWindow", "&Cancel training"),
                shortcuts=("Esc",),
                button=self.cancel_button,
            ),
            PanelAction(
                "reset",
                QCoreApplication.translate("MainWindow", "R&eset"),
                shortcuts=("Ctrl+R",),
                button=self.reset_button,
            ),
            None,
            PanelAction(
                "save",
                QCoreApplication.translate("MainWindow", "Sa&ve model…"),
                shortcuts=("Ctrl+S",),
                button=self.save_button,
            ),
        ]

    def train_or_pause(self) -> None:
        """The play/pause toggle of the menu and F5: pause while playing, else train or play on."""
        (self.pause_button if self.pause_button.isEnabled() else self.train_button).click()

    # ================================================================ screenshot
    def wait_until_trained(self, timeout: float = 120.0) -> bool:
        """Spin the event loop until the current run ends (tests, screenshots)."""
        deadline = time.monotonic() + timeout
        # (then until a frame showed its last step)
        while (self.run is not None or self.frames.dirty) and time.monotonic() < deadline:
            loop = QEventLoop()
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        return self.run is None

    def prepare_screenshot(self, args) -> None:
        corpus = getattr(args, "corpus", None)
        merges = getattr(args, "merges", None) or 300
        if corpus:
            self.set_source(CorpusSource.file(corpus))
        self.merges_spin.setValue(merges)
        self.speed_combo.setCurrentIndex(len(SPEEDS) - 1)
        self.start_training()
        self.run_to_end()
        self.wait_until_trained(300.0)
        if not self.replay and self.message.isVisible():
            # a Train screenshot without a single merge documents nothing; failing loudly also
            # lets the frozen-app smoke test catch a training process that cannot start
            from tokviz.core.errors import TokvizError

            raise TokvizError(f"training learned no merge: {self.message.label.text()}")
        self.playing = False
        self.set_step(len(self.replay) if self.replay is not None else 0)
        self._update_buttons()
        if self.replay is not None and len(self.replay):
            self.select_token(self._showcase_token())
            rows = [i for i, s in enumerate(self.replay.steps) if s.token_id == self.renderer.selected_token]
            if rows:
                self.vocab_view.selectRow(self.vocab_filter.mapFromSource(self.vocab_model.index(rows[0], 0)).row())
                self.vocab_view.scrollTo(self.vocab_filter.mapFromSource(self.vocab_model.index(rows[0], 0)))
        self.model_at_step.offer_now()

    def _showcase_token(self) -> int:
        """A token with an interesting merge tree: prefer Hangul, several levels, still fits."""
        best, best_score = self.replay.steps[-1].token_id, -1.0
        for s in self.replay.steps:
            tree = self.replay.merge_tree(s.token_id)
            leaves = tree.leaves()
            if leaves > 7 or "<0x" in s.new_piece:
                continue
            hangul = any("\uac00" <= ch <= "\ud7a3" for ch in s.new_piece)
            score = tree.depth() + leaves * 0.3 + (2 if hangul else 0) + min(s.count, 1000) / 10000
            if score > best_score:
                best, best_score = s.token_id, score
        return best


# the views' widgets read through the panel, as the panel's other parts, tests and scripts name them
for _name in WIDGETS:
    setattr(TrainPanel, _name, property(attrgetter(f"views.{_name}")))
