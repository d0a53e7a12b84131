"""The Inspect panel: one text through one encoder, down to bytes, jamo and graphemes.

``panel`` wires the widgets; ``jobs`` encodes off the GUI thread; ``cells`` turns an Encoding into
measured, wrapped cells (the layout step, re-run on a font or width change without re-encoding);
``token_view``, ``byte_layers``, ``views`` and ``chat_composer`` draw.
"""
