"""The Train panel's model at the step on screen: offered to the other panels once the trainer rests,
and saved in the formats that hold the run's mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QFileDialog

from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.jamo_input import reader_for
from tokviz.ui.i18n import in_language
from tokviz.ui.train.model_save import ModelSave
from tokviz.ui.train.views import FORMATS, TrainViews

translate = QCoreApplication.translate  # the panel's translation context, named in each call

OFFER_DELAY_MS = 300  # offer the model when the step settles, not at every merge


class RunAtStep(Protocol):
    """What is read of the run on screen (the panel holds it: a new run replaces it)."""

    trainer: object | None  # the run's trainer: ``model(step=N)`` (None: no run)
    replay: object | None  # the recorded merges (None: no run)
    config: TrainerConfig | None
    run: object | None  # the worker of a run still training (None: finished, cancelled or none)
    run_jamo: bool  # the run trains on jamo: its model says so
    cursor: int  # the step on screen
    playing: bool

    def computing(self) -> bool: ...

    def pause(self) -> None: ...  # the trainer rests at its step (trainer_rested follows)


class ModelAtStep:
    """Offers and saves the model at the step on screen of ``on_screen``. It keeps its own state:
    whether an offer waits for the trainer to rest, and what else waits for that (a save asked while the
    trainer computes). The offer goes to ``session.offer_trained_model``; messages, the Save button and
    the mode box are the ``views``' (their host owns the timer and the work channel); a save's end calls
    ``buttons_again()`` so that the Save button follows the transport's rules again."""

    def __init__(self, on_screen: RunAtStep, session, views: TrainViews, buttons_again: Callable[[], None]) -> None:
        self.on_screen = on_screen
        self.session = session
        self.views = views
        host = views.host
        self.pending = False  # an offer waits for the trainer to rest and the playback to settle
        self.waiting: list[Callable[[], None]] = []  # run when the trainer rests (see when_quiet)
        self.timer = QTimer(host)
        self.timer.setSingleShot(True)
        self.timer.setInterval(OFFER_DELAY_MS)
        self.timer.timeout.connect(self.offer)
        self.offers = session.work.channel(host, "offer")  # the model offered, built off the GUI thread
        # the model the probe's dropout view samples, built off the GUI thread too (tens of ms at
        # thousands of merges, at every step the animation rests on); the last one is kept for a new text
        self.models = session.work.channel(host, "model-at-step")
        # the last model built, by an offer or for the dropout view: both ask for the step that settled,
        # and it is built once for the two
        self._built: tuple | None = None  # (trainer, step, jamo, model)
        self._offer_count = 0
        # the one save of the panel (the Save button's), BPE's and the other algorithms' alike
        self.saver = ModelSave(views.save_button, views.message, session.work, settled=buttons_again, parent=host)

    def request(self) -> None:
        """The step on screen changed or the run rested: offer its model shortly."""
        self.pending = True
        self.timer.start()

    def withdraw(self) -> None:
        """The run is gone: nothing to offer, and what the other panels hold of it goes too."""
        self.timer.stop()
        self.pending = False
        self._offer_count += 1  # an offer on its way is dropped
        self.offers.cancel()
        self._built = None  # (it holds the run's trainer)
        self.saver.stop()
        session = self.session
        if getattr(session, "trained_model", None) is not None:
            session.offer_trained_model(None)

    def offer_now(self) -> None:
        """Offer the model at once, built on this thread (a screenshot or script that shows it next)."""
        self.pending = True
        self.offer(background=False)

    def offer(self, background: bool = True) -> None:
        """Offer ``tokviz BPE (step N)`` to the other panels, once the trainer is suspended. The model is
        built on the work service's pool: thousands of merges take 30-120 ms to build, a stall each
        time a scrub or a pause settles."""
        p = self.on_screen
        if not self.pending:
            return
        if p.trainer is None or p.replay is None or p.cursor == 0:
            self.pending = False
            return
        if p.computing():
            return  # offered when the trainer rests (trainer_rested)
        if p.playing and p.run is not None:
            return  # still animating: offer when it settles
        self.pending = False
        self._offer_count += 1  # what an earlier background offer brings is stale from now on
        trainer, step, jamo = p.trainer, p.cursor, p.run_jamo
        if not background:
            try:
                model = _model_of(trainer, step, jamo)
            except Exception as err:  # noqa: BLE001
                self._not_available(step, err)
                return
            self._hand_over(model)
            return
        known = self._known(trainer, step, jamo)
        if known is not None:
            self._hand_over(known)
            return
        count = self._offer_count
        self.offers.start(
            lambda _state: _model_of(trainer, step, jamo),
            finished=lambda model: self._offer_arrived(count, (trainer, step, jamo, model)),
            failed=lambda err: count == self._offer_count and self._not_available(step, in_language(err)),
        )

    def _offer_arrived(self, count: int, built: tuple) -> None:
        if count != self._offer_count or self.on_screen.trainer is None:
            return  # a newer offer, a reset or a new run came meanwhile
        self._built = built
        self._hand_over(built[3])

    def _known(self, trainer, step: int, jamo: bool):
        """The model at ``step`` when it was built last (None: not built, or another one was since)."""
        built = self._built
        return built[3] if built is not None and built[0] is trainer and built[1:3] == (step, jamo) else None

    def _not_available(self, step: int, err) -> None:
        self.views.message.show_message(
            translate("TrainPanel", "The model at step {step} is not available: {err}").format(step=step, err=err),
            "error",
        )

    def _hand_over(self, model) -> None:
        offer = getattr(self.session, "offer_trained_model", None)
        if offer is not None:
            offer(reader_for(model))  # a jamo model decomposes the other panels' text itself

    def trainer_rested(self) -> None:
        """The trainer paused at a step or finished: what waited for that runs, and a pending offer goes out."""
        callbacks, self.waiting = self.waiting, []
        for cb in callbacks:
            cb()
        if self.pending:
            self.offer()

    def current_model(self):
        """The trained model at the step on screen (None before any merge)."""
        p = self.on_screen
        if p.trainer is None or p.cursor == 0:
            return None
        return _model_of(p.trainer, p.cursor, p.run_jamo)

    def model_later(self, then: Callable[[object | None], None]) -> None:
        """Call ``then`` on the GUI thread with the model at the step on screen as the run reads text
        (None: no model, or it could not be built). It is built on the work service's pool; a newer
        request supersedes an older one, whose ``then`` is never called."""
        p = self.on_screen
        trainer, step, jamo = p.trainer, p.cursor, p.run_jamo
        if trainer is None or step == 0:
            self.models.start(lambda _state: None, finished=then)  # supersedes a build on its way
            return
        known = self._known(trainer, step, jamo)
        if known is not None:  # a jamo model decomposes text itself
            self.models.start(lambda _state: reader_for(known), finished=then)  # in order after a build on its way
            return

        def keep(model) -> None:
            self._built = (trainer, step, jamo, model)
            then(reader_for(model))

        self.models.start(
            lambda _state: _model_of(trainer, step, jamo),
            finished=keep,
            failed=lambda _err: then(None),  # a trainer without models at a step: no dropout for it
        )

    def when_quiet(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` now when the trainer rests, else pause it and run it once it has."""
        if not self.on_screen.computing():
            callback()
            return
        self.on_screen.pause()
        self.waiting.append(callback)

    def save(self) -> None:
        """The Save button: ask where and in which format once the trainer rests."""
        self.when_quiet(self._ask_and_save)

    def formats_for_mode(self) -> list[tuple[str, str]]:
        """The export formats that hold this run's mode (tiktoken and GPT-2 files are byte-level,
        subword-nmt codes are char-level; tokviz's own JSON holds both)."""
        p = self.on_screen
        mode = p.config.mode if p.config is not None else self.views.mode_combo.currentData()
        fits = {"byte": ("tokviz", "tiktoken", "gpt2"), "char": ("tokviz", "subword-nmt")}[mode]
        return [(name, translate("TrainPanel", f)) for name, f in FORMATS if name in fits]

    def _ask_and_save(self) -> None:
        p = self.on_screen
        if p.trainer is None or p.cursor == 0:
            return
        formats = self.formats_for_mode()
        path, chosen = QFileDialog.getSaveFileName(
            self.views.host,
            translate("TrainPanel", "Save the model at step {step}").format(step=p.cursor),
            "",
            ";;".join(f for _, f in formats),
        )
        if not path:
            return
        fmt = next((name for name, f in formats if f == chosen), "tokviz")
        self.save_to(path, fmt)

    def save_to(self, path: str, fmt: str) -> None:
        """Save the model at the current step in the background (:class:`ModelSave`; the core writes
        atomically): the message area says when it is saved, or why not, never a traceback."""
        p = self.on_screen
        trainer, step, jamo = p.trainer, p.cursor, p.run_jamo
        if trainer is None or step == 0:
            return

        def write(model) -> list:
            from tokviz.core.bpe.formats import save_model

            return save_model(model, path, fmt) or [path]

        def done(written: list) -> str:
            names = ", ".join(str(f) for f in written)
            said = translate("TrainPanel", "Saved the model at step {step} ({fmt}): {names}").format(
                step=step, fmt=fmt, names=names
            )
            if jamo and fmt != "tokviz":
                # only tokviz's own JSON records that the model reads jamo (and so decomposes text itself)
                said += " " + translate(
                    "TrainPanel",
                    "This format does not record that the model reads jamo: decompose the text first "
                    "(tokviz encode --jamo).",
                )
            return said

        self.saver.start(step, lambda: _model_of(trainer, step, jamo), write, done)


def _model_of(trainer, step: int, jamo: bool):
    """The model of ``trainer`` after ``step`` merges; a jamo run's says it reads jamo."""
    model = trainer.model(step=step)
    if jamo:
        model.settings["jamo"] = True  # as `tokviz train --jamo` records it (saved with the model)
    return model
