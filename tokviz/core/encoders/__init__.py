"""Encoder adapters, one per family, behind one protocol (:class:`Encoder`) and a registry."""

from tokviz.core.encoders.base import Encoder
from tokviz.core.encoders.registry import EncoderEntry, EncoderStatus, Registry, default_registry

__all__ = ["Encoder", "EncoderEntry", "EncoderStatus", "Registry", "default_registry"]
