"""The Train panel: a trainer runs in a child process (``worker``), the panel records its steps and
plays them back (``state``: the Qt-free playback cursor). ``views`` builds the widgets,
``corpus_choice`` picks the corpus and settings, ``render`` redraws the step on screen into the sample,
probe, vocabulary (``vocab``), plots and merge tree (``tree``), and ``model_at_step`` offers and saves
the model at that step."""
