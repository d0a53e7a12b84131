"""Encoder adapters, one module per family, behind one protocol (:class:`Encoder`).

Layers, lowest first: ``base`` (the protocols), ``files``/``sources``/``native``/``rank_encoder``
(reading and wording what the families share), the family modules, then ``registry`` and
``builtin``, which list the families (see its docstring for what a new family provides; the default
registry is :func:`tokviz.core.encoders.builtin.default_registry`). This package re-exports only the
protocols: importing any module here runs it first, so it must not load the families.
"""

from tokviz.core.encoders.base import Encoder, EncoderEntry, ModelLoader

__all__ = ["Encoder", "EncoderEntry", "ModelLoader"]
