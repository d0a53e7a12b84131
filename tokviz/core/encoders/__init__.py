"""Encoder adapters, one module per family, behind one protocol (:class:`Encoder`) and a registry.

``builtin`` lists the families; see its docstring for what a new family provides.
"""

from tokviz.core.encoders.base import Encoder, EncoderEntry, ModelLoader
from tokviz.core.encoders.builtin import default_registry, model_loaders
from tokviz.core.encoders.registry import EncoderStatus, Registry

__all__ = ["Encoder", "EncoderEntry", "EncoderStatus", "ModelLoader", "Registry", "default_registry", "model_loaders"]
