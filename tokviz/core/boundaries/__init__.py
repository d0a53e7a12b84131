"""Between the text and the model: what happens at token boundaries when ids, not text, travel.

One module per hazard, each a plain function returning a frozen dataclass a view can render and the
CLI prints as JSON:

- :mod:`.canonical`  ids that decode to a text its encoder would split otherwise (``tokviz ids``)
- :mod:`.streaming`  what an incremental UTF-8 decoder can print after each token (``tokviz stream``)
- :mod:`.healing`    backing up a prompt's last tokens and the tokens that may replace them (``tokviz heal``)
- :mod:`.cut`        where a token budget cuts the text: a character, a grapheme, a word (``tokviz cut``)
- :mod:`.chat_turns` chat prompts that do not extend the previous turn's tokens, and special tokens
  injected through message content (``tokviz chat --turns`` / ``--injection``)

:mod:`.vocabulary` holds the one per-encoder table (token bytes, prefix search) they share.
"""
