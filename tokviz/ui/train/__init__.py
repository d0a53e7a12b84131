"""The Train panel: a trainer runs in a child process (``worker``), the panel records its steps and
plays them back (``state``: the Qt-free playback cursor), and the views redraw the step on screen."""
