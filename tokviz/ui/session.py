"""State the panels share: the encoder registry and models offered at run time.

Panels never talk to each other directly; the Train panel offers its model here and the Inspector /
Compare panels listen to ``encodersChanged`` (napari-style: model events, widgets subscribe).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from tokviz.core.encoders.base import Encoder
from tokviz.core.encoders.builtin import default_registry
from tokviz.core.encoders.registry import Registry
from tokviz.ui.common.work import WorkService


class Session(QObject):
    """The registry plus change notification. One per main window.

    ``work`` is the background-work service every panel runs its jobs on (the main window hands in its
    own; a Session made without one, as tests make them, has a service of its own).
    """

    encodersChanged = Signal()  # an encoder was added, replaced or removed
    fontScaleChanged = Signal(float)  # Ctrl +/− or presentation mode: re-layout custom views
    themeChanged = Signal(bool)  # dark?
    trainedModelChanged = Signal(object)  # the Train panel's current model (an Encoder) or None
    # old name, new name: the Train panel's model moved to another step. Views that list it by name
    # follow it (the old name is gone from the registry by then).
    encoderRenamed = Signal(str, str)

    def __init__(
        self,
        registry: Registry | None = None,
        parent: QObject | None = None,
        settings=None,
        work: WorkService | None = None,
    ):
        super().__init__(parent)
        self.work: WorkService = work if work is not None else WorkService(self)
        from tokviz.ui.settings import Settings

        self.registry = registry if registry is not None else default_registry()
        self.settings: Settings = settings if settings is not None else Settings()
        self.trained_model: Encoder | None = None

    def add_encoder(self, encoder: Encoder) -> None:
        """Add or replace an encoder (opened model file, trained SentencePiece model, ...)."""
        self.registry.add(encoder)
        self.encodersChanged.emit()

    def offer_trained_model(self, encoder: Encoder | None) -> None:
        """The Train panel's model at its current step, listed as ``tokviz BPE (step N)``.

        Only one trained model is listed at a time: the previous one is replaced.
        """
        old = self.trained_model
        if old is not None and old.name in self.registry and (encoder is None or old.name != encoder.name):
            self.registry.remove(old.name)
        self.trained_model = encoder
        if encoder is not None:
            self.registry.add(encoder)
        if old is not None and encoder is not None and old.name != encoder.name:
            self.encoderRenamed.emit(old.name, encoder.name)
        self.trainedModelChanged.emit(encoder)
        self.encodersChanged.emit()
