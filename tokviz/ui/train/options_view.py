"""The Train panel's settings row as a view of :class:`~tokviz.ui.train.model.TrainState`: each
widget's change is sent to the model as an intent; while the model refuses (a trainer is alive) the
widgets are disabled and a line beside them says why, so a mode picked mid-run is never silently ignored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QLabel, QSizePolicy

from tokviz.ui.train.model import TrainOptions, TrainState
from tokviz.ui.train.views import TrainViews

translate = QCoreApplication.translate


class AlgorithmChoice(Protocol):
    """The algorithm box's owner (WordPiece and Unigram take BPE's options out of play when chosen)."""

    algorithm_combo: QComboBox

    @property
    def algorithm(self) -> str: ...

    def active(self) -> bool: ...


class OptionsView:
    """Binds the settings widgets of ``views`` (mode, pattern, Hangul only, jamo, merges, min freq) and
    the algorithm box of ``algorithms`` to the model; ``unlocked()`` is called when BPE's options are
    free again (the pattern then follows the mode)."""

    def __init__(
        self,
        state: TrainState,
        views: TrainViews,
        algorithms: AlgorithmChoice | None = None,
        unlocked: Callable[[], None] = lambda: None,
    ) -> None:
        self.state = state
        self.views = views
        self.algorithms = algorithms
        self.unlocked = unlocked
        self.reason = QLabel()
        self.reason.setWordWrap(False)
        # the room left on the row, never more: a long reason must not widen the window (1024-pixel screens)
        self.reason.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.reason.setMinimumWidth(1)
        self.reason.hide()
        views.settings_bar.layout().addWidget(self.reason, 3)
        for signal in (
            views.mode_combo.currentIndexChanged,
            views.pattern_combo.currentIndexChanged,
            views.hangul_check.toggled,
            views.jamo_check.toggled,
            views.merges_spin.valueChanged,
            views.minfreq_spin.valueChanged,
        ):
            signal.connect(self.send)
        state.events.connect(self._on_event)
        self.send()

    def widgets(self) -> list:
        p = self.views
        shown = [p.mode_combo, p.pattern_combo, p.hangul_check, p.jamo_check, p.merges_spin, p.minfreq_spin]
        algorithms = self.algorithms
        if algorithms is not None:
            shown.append(algorithms.algorithm_combo)
        return shown

    def read(self) -> TrainOptions:
        """The options the widgets show."""
        p = self.views
        algorithms = self.algorithms
        return TrainOptions(
            algorithm=algorithms.algorithm if algorithms is not None else self.state.options.algorithm,
            mode=p.mode_combo.currentData(),
            pattern=p.pattern_combo.currentData() or p.pattern_combo.currentText(),
            hangul_only=p.hangul_check.isChecked(),
            jamo=p.jamo_check.isChecked(),
            merges=p.merges_spin.value(),
            min_frequency=p.minfreq_spin.value(),
        )

    def send(self, *_args) -> None:
        """The widgets changed: ask the model to take what they show."""
        shown = self.read()
        if self.state.change(**vars(shown)) is not None:
            self.show(self.state.options)  # refused: the widgets go back to what the run trains with

    def show(self, options: TrainOptions) -> None:
        """Put ``options`` in the widgets without sending them back as intents."""
        p = self.views
        widgets = self.widgets()
        for w in widgets:
            w.blockSignals(True)
        try:
            p.mode_combo.setCurrentIndex(max(0, p.mode_combo.findData(options.mode)))
            index = p.pattern_combo.findData(options.pattern)
            if index >= 0:
                p.pattern_combo.setCurrentIndex(index)
            p.hangul_check.setChecked(options.hangul_only)
            p.jamo_check.setChecked(options.jamo)
            p.merges_spin.setValue(options.merges)
            p.minfreq_spin.setValue(options.min_frequency)
            algorithms = self.algorithms
            if algorithms is not None and algorithms.algorithm != options.algorithm:
                algorithms.algorithm_combo.setCurrentIndex(algorithms.algorithm_combo.findData(options.algorithm))
        finally:
            for w in widgets:
                w.blockSignals(False)

    def _on_event(self, name: str, _value) -> None:
        if name in ("run", "refused"):
            self.render()

    def render(self) -> None:
        """Lock or free the widgets as the model says, with the reason in words."""
        locked = self.state.locked_reason() is not None
        self.reason.setText(
            translate("TrainPanel", "Locked while training: ■ Cancel or Reset to change settings.") if locked else ""
        )
        self.reason.setToolTip(self.reason.text())
        self.reason.setVisible(locked)
        algorithms = self.algorithms
        other = algorithms is not None and algorithms.active()  # WordPiece/Unigram: BPE's options do not apply
        for w in self.widgets():
            w.setEnabled(not locked and (not other or algorithms is not None and w is algorithms.algorithm_combo))
        if not locked and not other:
            self.unlocked()  # the pattern follows the mode
