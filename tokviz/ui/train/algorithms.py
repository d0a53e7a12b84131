"""WordPiece and Unigram in the Train panel: the algorithm choice, the run and the step on screen.

BPE keeps the panel's own views (sample, vocabulary, merge tree, plots). For WordPiece and Unigram
the panel hands its transport (train, pause, step, run to end, cancel, reset, presentation mode) to
:class:`AlgorithmTraining`, which runs the core trainer in the training process, as BPE's
(:func:`~tokviz.ui.train.worker.training_run`: :mod:`tokviz.core.training`), records its step events and shows the
step on screen in :class:`~tokviz.ui.train.algorithm_views.AlgorithmView`: the step explained by
:func:`tokviz.core.step_text.describe` (translated), the algorithm's plots, the Unigram lattice of
the chosen sample line and, for WordPiece, where BPE's count and WordPiece's score first choose
differently. The model at the step on screen is offered to Inspect and Compare.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QSpinBox

from tokviz.core.training import Finished, Progress
from tokviz.ui.train.algorithm_views import AlgorithmView
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.model import TrainState
from tokviz.ui.train.model_at_step import ModelAtStep
from tokviz.ui.train.run_events import RunHandlers, attach, detach
from tokviz.ui.train.views import TrainViews
from tokviz.ui.train.worker import TrainRun, training_run

ALGORITHMS = ("bpe", "wordpiece", "unigram")
DEFAULT_VOCAB = {"wordpiece": 2000, "unigram": 2000}


class BpeHost(Protocol):
    """What the non-BPE algorithms read and ask of the panel whose transport they take."""

    source: CorpusSource  # the corpus a run trains on
    sample_lines: list[str]  # the corpus lines the sample view shows

    def reset(self) -> None: ...  # BPE's own reset: its run and views go when the algorithm changes


class AlgorithmTraining(QObject):
    """The non-BPE algorithms of one Train panel (see the module docstring).

    They draw into ``views`` (their step view joins the host's layout, their settings its settings row),
    tell ``state`` about their runs, save through ``model_at_step``'s saver and offer their models to
    ``session``; ``pattern_follows_mode()`` is called when BPE's options come back.

    ``steps`` are the step events received, ``cursor`` the step on screen (0: none yet),
    ``follow`` whether the screen follows the newest step while the trainer runs, ``pace`` the steps
    per second of presentation mode (None: not animating).
    """

    def __init__(
        self,
        host: BpeHost,
        session,
        state: TrainState,
        views: TrainViews,
        model_at_step: ModelAtStep,
        pattern_follows_mode: Callable[[], None],
    ):
        super().__init__(views.host)
        self.host = host
        self.session = session
        self.state = state
        self.views = views
        self.model_at_step = model_at_step
        self.pattern_follows_mode = pattern_follows_mode
        self.trainer = None
        self.run: TrainRun | None = None
        self.steps: list = []
        self.cursor = 0
        self._closed = False
        self.finished: Finished | None = None
        self.pace: float | None = None
        self._switching = False  # while the choice changes, the panel's own reset clears the BPE run
        self.comparison = None  # merge_criteria.CriteriaComparison of the last compare
        self.compared_steps: list = []  # merge_criteria.SideBySideStep, both trainers' first merges
        self.compare_tasks = session.work.channel(self, "criteria")
        # the training process answers a model request between two steps: a Unigram step on a real corpus
        # takes 0.1-0.6 s, so the model at a step is fetched here, never on the GUI thread
        self.model_tasks = session.work.channel(self, "model")
        self._offer_waits = False  # the model being fetched goes to Inspect and Compare when it arrives
        self.anim_timer = QTimer(self)
        self.anim_timer.timeout.connect(self._advance)
        self.offer_timer = QTimer(self, singleShot=True, interval=300)
        self.offer_timer.timeout.connect(self.offer_model)
        # Built when WordPiece or Unigram is first chosen: BPE, the default, never shows it, and its
        # two plots and lattice were most of the cost of this object at every panel build.
        self._view: AlgorithmView | None = None
        self._ready = False  # the choice's first call (building the settings row) resets and shows nothing
        self._install_settings()
        self._ready = True

    @property
    def view(self) -> AlgorithmView:
        """The step view of WordPiece and Unigram, built (hidden) on first use."""
        if self._view is None:
            self._view = AlgorithmView(self.session)
            self._view.stepChosen.connect(self.show_step)
            self.views.host.layout().addWidget(self._view, 1)
            self._view.hide()
        return self._view

    # ---- settings ---------------------------------------------------------------------------
    def _install_settings(self) -> None:
        """The algorithm choice before the mode choice, the vocabulary size and the BPE compare
        check box after it, on the panel's settings row."""
        p = self.views
        row = _layout_holding(p.host.layout(), p.mode_combo)
        self.algorithm_label = QLabel(self.tr("Algorithm"))
        self.algorithm_combo = QComboBox()
        self.algorithm_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # grows with the font
        for name, label in (("bpe", "BPE"), ("wordpiece", "WordPiece"), ("unigram", "Unigram")):
            self.algorithm_combo.addItem(label, name)
        self.algorithm_combo.setToolTip(
            self.tr(
                "BPE merges the most frequent pair; WordPiece the pair with the "
                "best freq(ab) / (freq(a) × freq(b)); Unigram starts big and prunes "
                "by likelihood"
            )
        )
        self.vocab_label = QLabel(self.tr("Vocabulary"))
        self.vocab_spin = QSpinBox()
        self.vocab_spin.setRange(1, 1_000_000)
        self.vocab_spin.setValue(DEFAULT_VOCAB["unigram"])
        self.vocab_spin.setToolTip(self.tr("Vocabulary size to reach, special tokens included"))
        self.compare_check = QCheckBox(self.tr("Compare with BPE"))
        self.compare_check.setToolTip(
            self.tr(
                "Run BPE's count beside WordPiece's score on the same words and show "
                "where they first choose different pairs"
            )
        )
        at = row.indexOf(p.mode_combo) - 1  # before the "Mode" label
        for offset, w in enumerate((self.algorithm_label, self.algorithm_combo)):
            row.insertWidget(at + offset, w)
        at = row.indexOf(p.mode_combo) + 1
        for offset, w in enumerate((self.vocab_label, self.vocab_spin, self.compare_check)):
            row.insertWidget(at + offset, w)
        self.algorithm_combo.currentIndexChanged.connect(self._on_algorithm)
        self.compare_check.toggled.connect(self._on_compare_toggled)
        # Save model… saves the chosen algorithm's model (BPE's through the model at the step on screen)
        p.save_button.clicked.connect(lambda: self.save() if self.active() else self.model_at_step.save())
        self._bpe_widgets = [
            w
            for w in (
                p.mode_combo,
                p.pattern_combo,
                p.pattern_label,
                p.hangul_check,
                p.jamo_check,
                p.merges_spin,
                p.minfreq_spin,
            )
            if w is not None
        ]
        self._on_algorithm()

    @property
    def algorithm(self) -> str:
        return self.algorithm_combo.currentData()

    def active(self) -> bool:
        """True when the chosen algorithm is not BPE: the panel's transport then comes here."""
        return self.algorithm != "bpe" and not self._switching

    def set_algorithm(self, name: str) -> None:
        """Choose ``name`` ("bpe", "wordpiece" or "unigram"), as the combo box does."""
        self.algorithm_combo.setCurrentIndex(ALGORITHMS.index(name))

    def _on_algorithm(self, *_args) -> None:
        other = self.active()
        if self._ready:
            self.reset()
            self._switching = True
            try:
                self.host.reset()
            finally:
                self._switching = False
        for w in self._bpe_widgets:
            w.setEnabled(not other)
        if not other:
            self.pattern_follows_mode()
        self.vocab_label.setVisible(other)
        self.vocab_spin.setVisible(other)
        self.compare_check.setVisible(self.algorithm == "wordpiece")
        if other:
            self.vocab_spin.setValue(DEFAULT_VOCAB[self.algorithm])
        if self._ready:
            self._show_views()
            self.update_buttons()

    def _show_views(self) -> None:
        other = self.active()
        for w in _bpe_views(self.views):
            w.setVisible(not other)
        if other or self._view is not None:
            self.view.setVisible(other)
        if other:
            self.view.set_algorithm(self.algorithm, self.host.sample_lines)
            self.render()

    # ---- transport ----------------------------------------------------------------------------
    def start(self) -> None:
        """A new run of the chosen algorithm on the panel's corpus."""
        p = self.views
        self.reset()
        p.message.clear()
        try:  # in the training process, as BPE: its own GIL, and models asked of it at any step
            config = _config(self.algorithm, self.vocab_spin.value())
            run = training_run(self.algorithm, config, self.host.source, self, work=self.session.work)
        except Exception as err:  # noqa: BLE001 — shown in the window, the app keeps working
            p.message.show_message(self.tr("Cannot start training: {err}").format(err=err), "error")
            return
        self.trainer = run.trainer
        self.view.set_algorithm(self.algorithm, self.host.sample_lines)
        # bound slots: queued to this (GUI) thread, never lambdas
        attach(
            run, RunHandlers(self._on_batch, self._on_progress, self._on_failed, self._on_finished, noted=self._on_note)
        )
        self.run = run
        self.state.start_run()
        p.progress_bar.setValue(0)
        p.progress_bar.show()
        run.start()
        if self.algorithm == "wordpiece" and self.compare_check.isChecked():
            self.start_compare()
        self.update_buttons()

    def _on_note(self, text: str) -> None:
        self.views.message.show_message(text, "info")

    def play(self) -> None:
        """Train, or go on: a paused run resumes; a finished one replays from step 1 in presentation mode."""
        if self.run is None and self.trainer is None:
            self.start()
            return
        if self.run is not None:
            self.run.worker.resume()
        if self.pace is not None:
            if self.run is None and self.cursor >= len(self.steps):
                self.show_step(1)
            self.anim_timer.start(round(1000 / self.pace))
        self.update_buttons()

    def pause(self) -> None:
        self.anim_timer.stop()
        if self.run is not None:
            self.run.worker.pause()
        self.update_buttons()
        self._request_offer()

    def step(self) -> None:
        """One step forward: from the recording, else one more from the trainer."""
        self.anim_timer.stop()
        if self.cursor < len(self.steps):
            self.show_step(self.cursor + 1)
        elif self.run is not None:
            self.run.worker.pause()
            self.run.worker.step_once()
        self.update_buttons()

    def run_to_end(self) -> None:
        self.anim_timer.stop()
        self.pace = None
        if self.run is None and self.trainer is None:
            self.start()
        elif self.run is not None:
            self.run.worker.resume()
        self.show_step(len(self.steps))

    def cancel(self) -> None:
        """Stop the trainer; the steps made so far stay and their model is still offered."""
        self.anim_timer.stop()
        if self.run is not None:
            self._stop_run()
            self.state.finish("cancelled")
            self.finished = Finished("cancelled", len(self.steps), self.tr("Training cancelled."))
            self.views.message.show_message(
                self.tr("Training cancelled after {n} steps; the model at the step on screen is kept.").format(
                    n=len(self.steps)
                ),
                "info",
            )
        self.compare_tasks.cancel()
        self.render()
        self.update_buttons()
        self._request_offer()

    def reset(self) -> None:
        self.model_at_step.saver.stop()  # a save still waiting for this run's model writes nothing
        self._stop_run()
        self.anim_timer.stop()
        self.compare_tasks.cancel()
        self.model_tasks.cancel()
        if self.trainer is not None:
            self.trainer.close()  # its training process waits for model requests until then
        self.trainer = None
        self.steps = []
        self.cursor = 0
        self.finished = None
        self.comparison = None
        self.compared_steps = []
        self.state.reset()
        session = self.session
        if getattr(session, "trained_model", None) is not None:
            session.offer_trained_model(None)
        if self._view is not None:
            self.view.clear()
            self.render()
        self.update_buttons()

    def auto_play(self, pace: float) -> None:
        """Presentation mode: show the steps one by one at ``pace`` steps per second."""
        self.pace = max(0.5, min(pace, 10.0))  # Unigram has a handful of steps: each must be readable
        self.play()

    def stop_auto_play(self) -> None:
        self.pace = None
        self.anim_timer.stop()

    def shutdown(self) -> None:
        self._closed = True  # steps still queued from the run's thread arrive to nothing
        self.anim_timer.stop()
        self._stop_run()
        if self.trainer is not None:
            self.trainer.close()
        self.compare_tasks.close()
        self.model_tasks.close()

    def wait_until_trained(self, timeout_ms: int = 120_000) -> bool:
        """Spin the event loop until the run ends and the model on screen has come (screenshots)."""
        from PySide6.QtCore import QDeadlineTimer, QEventLoop

        deadline = QDeadlineTimer(timeout_ms)
        while (self.run is not None or self.compare_tasks.busy or self.model_tasks.busy) and not deadline.hasExpired():
            loop = QEventLoop()
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        return self.run is None

    def _stop_run(self) -> None:
        run, self.run = self.run, None
        if run is None:
            return
        detach(run)
        # no waiting here: a trainer asked to cancel has up to a second to finish its step (its steps'
        # models stay); the window's work service keeps the run until its thread ends
        run.stop(0)
        self.views.progress_bar.hide()

    # ---- the worker's events --------------------------------------------------------------------
    def _on_batch(self, steps: list) -> None:
        if self._closed:
            return
        self.views.progress_bar.hide()
        self.steps.extend(steps)
        self.state.set_recorded(len(self.steps))
        self.view.add_steps(steps)
        if self.pace is None or not self.anim_timer.isActive():
            if self.pace is None:
                self.show_step(len(self.steps))
            elif self.cursor == 0:
                self.play()
        self.update_buttons()

    def _on_failed(self, message: str, _invalid_utf8: bool) -> None:
        self.views.message.show_message(message, "error")

    def _on_progress(self, progress: Progress) -> None:
        bar = self.views.progress_bar
        if progress.total:
            bar.setMaximum(1000)
            bar.setValue(int(1000 * min(progress.done, progress.total) / progress.total))
        else:
            bar.setMaximum(0)

    def _on_finished(self, finished: Finished, ok: bool = True) -> None:
        run, self.run = self.run, None
        if run is not None:
            run.thread.wait(1000)
        self.views.progress_bar.hide()
        self.state.finish("finished" if ok else "failed")
        if ok:
            self.finished = finished
            if finished.reason == "cancelled":
                self.views.message.show_message(self.tr("Training cancelled."), "info")
        self.render()
        self.update_buttons()
        self._request_offer()

    def _advance(self) -> None:
        if self.cursor < len(self.steps):
            self.show_step(self.cursor + 1)
        elif self.run is None:
            self.anim_timer.stop()
            self.update_buttons()

    # ---- the step on screen -------------------------------------------------------------------
    def show_step(self, step: int) -> None:
        """Show recorded step ``step`` (1-based; clamped to the steps recorded)."""
        self.cursor = max(0, min(step, len(self.steps)))
        self.render()
        self._request_offer()

    def render(self) -> None:
        p = self.views
        n = len(self.steps)
        model = None
        if self.trainer is not None and self.cursor and self.algorithm == "unigram":
            model = self.trainer.cached_model(self.cursor)
            if model is None:  # drawn when the training process has given it; until then the last one stays
                self._fetch_model()
                model = self.view.lattice_model
        self.view.show_step(self.steps, self.cursor, model, self.finished)
        p.step_label.setText(self.tr("step {step} / {total}").format(step=self.cursor, total=n))

    def _fetch_model(self) -> None:
        """Ask for the model at the step on screen in the background (:meth:`_model_arrived` draws and
        offers it if that step is still on screen; a newer request replaces an older one)."""
        trainer, step = self.trainer, self.cursor

        def failed(message: str) -> None:
            if self._offer_waits and self.trainer is trainer and not self._closed:
                self._offer_waits = False
                self.views.message.show_message(
                    self.tr("The model at step {step} is not available: {err}").format(step=step, err=message),
                    "error",
                )

        self.model_tasks.start(
            lambda _task: trainer.model(step),
            finished=lambda model: self._model_arrived(trainer, step, model),
            failed=failed,
        )

    def _model_arrived(self, trainer, step: int, model) -> None:
        if self.trainer is not trainer or self.cursor != step or self._closed:
            return  # another run or another step is on screen now
        if self.algorithm == "unigram":
            self.view.show_step(self.steps, step, model, self.finished)
        if self._offer_waits:
            self._offer_waits = False
            offer = getattr(self.session, "offer_trained_model", None)
            if offer is not None:
                offer(model)

    def _request_offer(self) -> None:
        self.offer_timer.start()

    def offer_model(self) -> None:
        """Offer the model at the step on screen to Inspect and Compare (replacing the previous)."""
        offer = getattr(self.session, "offer_trained_model", None)
        if offer is None or self.trainer is None or self.cursor == 0:
            return
        model = self.trainer.cached_model(self.cursor)
        if model is not None:
            offer(model)
            return
        self._offer_waits = True
        self._fetch_model()

    def update_buttons(self) -> None:
        p = self.views
        if not self.active():
            return
        running = self.run is not None
        p.train_button.setEnabled(True)
        p.pause_button.setEnabled(running or self.anim_timer.isActive())
        p.step_button.setEnabled(running or self.cursor < len(self.steps))
        p.end_button.setEnabled(True)
        p.cancel_button.setEnabled(running)
        p.reset_button.setEnabled(bool(self.steps) or running)
        p.save_button.setEnabled(self.cursor > 0 and not self.model_at_step.saver.saving)

    # ---- saving ---------------------------------------------------------------------------------
    def formats(self) -> list[tuple[str, str]]:
        """The export formats of the chosen algorithm: Hugging Face's tokenizer.json; WordPiece also
        BERT's vocab.txt."""
        out = [("tokenizer-json", self.tr("Hugging Face tokenizer.json (*.json)"))]
        if self.algorithm == "wordpiece":
            out.append(("vocab-txt", self.tr("BERT vocab.txt (*.txt)")))
        return out

    def save(self) -> None:
        """Ask where, then save the model at the step on screen (pauses a running trainer first)."""
        from PySide6.QtWidgets import QFileDialog

        if self.trainer is None or self.cursor == 0:
            return
        if self.run is not None:
            self.pause()
        formats = self.formats()
        path, chosen = QFileDialog.getSaveFileName(
            self.views.host,
            self.tr("Save the model at step {step}").format(step=self.cursor),
            "",
            ";;".join(f for _, f in formats),
        )
        if path:
            self.save_model_to(path, next((name for name, f in formats if f == chosen), "tokenizer-json"))

    def save_model_to(self, path: str, fmt: str) -> None:
        """Save the model at the step on screen as ``fmt`` ("tokenizer-json" or "vocab-txt"): the
        training process gives it between two steps, so it is fetched and written (atomically) in the
        background (:class:`~tokviz.ui.train.model_save.ModelSave`); the message bar says how it went."""
        trainer, step = self.trainer, self.cursor
        if trainer is None or step == 0:
            return

        def write(model) -> list:
            from tokviz.core.hf_export import write_tokenizer_json, write_vocab_txt

            return [write_vocab_txt(model, path) if fmt == "vocab-txt" else write_tokenizer_json(model, path)]

        def done(written: list) -> str:
            return self.tr("Saved the model at step {step}: {path}").format(step=step, path=written[0])

        self.model_at_step.saver.start(step, lambda: trainer.model(step), write, done)

    def _on_compare_toggled(self, on: bool) -> None:
        """Ticked after a WordPiece run: compare on that run's corpus now."""
        if (
            on
            and self.active()
            and self.algorithm == "wordpiece"
            and self.trainer is not None
            and self.comparison is None
        ):
            self.start_compare()

    # ---- WordPiece beside BPE ------------------------------------------------------------------
    def start_compare(self) -> None:
        """Run both criteria on the panel's corpus in the background; the view shows the outcome."""
        source = self.host.source
        limit = max(1, self.vocab_spin.value())
        self.view.show_comparison_running()

        def done(result) -> None:
            self.comparison, self.compared_steps = result
            self.view.show_comparison(*result)

        self.compare_tasks.start(
            lambda state: compare_criteria(source.lines(), limit, state.is_cancelled),
            finished=done,
            failed=lambda message: self.view.show_comparison_failed(message),
        )


AFTER_DISAGREEMENT = 5  # side-by-side steps shown after the first disagreement


def compare_criteria(lines, max_steps: int, cancel=None):
    """BPE and WordPiece in lockstep (:class:`~tokviz.core.merge_criteria.SideBySide`) until a few
    steps after they first disagree. Returns the
    :class:`~tokviz.core.merge_criteria.CriteriaComparison` (as ``first_disagreement`` gives it) and
    the side-by-side steps made, for the table of both trainers' merges."""
    from tokviz.core.merge_criteria import CriteriaComparison, SideBySide, explain
    from tokviz.core.training import Finished as Done

    runner = SideBySide(max_steps)
    steps: list = []
    found = None
    message = ""
    events = runner.run(lines, cancel=cancel)
    try:
        for event in events:
            if isinstance(event, Done):
                message = event.message
                break
            steps.append(event)
            if found is None and not event.same:
                found = explain(event, steps[:-1], runner.word_counts)
            if found is not None and len(steps) >= found.step + AFTER_DISAGREEMENT:
                break
    finally:
        events.close()
    if found is None:
        return CriteriaComparison(tuple(s.bpe_surface for s in steps), None, f"no disagreement: {message}"), steps
    agreed = tuple(s.bpe_surface for s in steps[: found.step - 1])
    return CriteriaComparison(agreed, found, f"the criteria first disagree at step {found.step}"), steps


def _config(algorithm: str, vocab_size: int):
    """The config of ``algorithm`` with ``vocab_size`` (specials and meta pieces included)."""
    # imported here: the trainers load when the first run starts, not with the panel
    from tokviz.core.training.factory import config_class

    return config_class(algorithm)(vocab_size=vocab_size)


def _layout_holding(layout, widget):
    """The (nested) layout of ``layout`` that holds ``widget``, also inside container widgets (the
    settings row sits in a widget of its own, which presentation mode hides)."""
    if layout.indexOf(widget) >= 0:
        return layout
    for i in range(layout.count()):
        item = layout.itemAt(i)
        child = item.layout()
        if child is None and item.widget() is not None:
            child = item.widget().layout()
        if child is not None:
            found = _layout_holding(child, widget)
            if found is not None:
                return found
    return None


def _bpe_views(views: TrainViews) -> list:
    """The BPE-only widgets: the merge banner and the splitter of sample, vocabulary and plots."""
    shown = [views.merge_banner, views.scrubber]
    split = views.plots.parentWidget()
    while split is not None and split.parentWidget() is not views.host:
        split = split.parentWidget()
    if split is not None:
        shown.append(split)
    return shown
