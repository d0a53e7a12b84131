"""The Inspect panel: one text through one encoder, down to bytes, jamo and graphemes.

``panel`` wires the widgets (built in ``panel_widgets``) and the encode/layout requests; ``jobs``
encodes off the GUI thread; ``cells`` turns an Encoding into measured, wrapped cells (the layout
step, re-run on a font or width change without re-encoding); ``encoder_picker``, ``text_input`` and
``selection`` are the panel's parts (which encoder, which text, which tokens); ``describe`` puts
tokens into words and JSON; ``token_view``, ``byte_layers``, ``views`` and ``chat_composer`` draw.
"""
