"""The Boundaries panel: what happens between the text and the model when ids, not text, travel.

``model`` holds the panel's state without Qt (intents, requests, results, the stream's cursor); ``jobs``
computes each hazard's result off the GUI thread with tokviz.core.boundaries; ``views`` draws the six
hazards (canonical ids, streaming decode, token healing, chat-turn prefixes, special-token injection,
budget cuts); ``panel`` wires them to the session's encoders and work service.
"""
